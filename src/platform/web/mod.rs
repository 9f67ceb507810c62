//! The browser side of [`crate::platform`] (wasm32): options from the page URL, assets over
//! HTTP, and the game's state published on the page.
mod back;
mod page;
mod theme;

use std::path::PathBuf;

use bevy::prelude::*;
use wasm_bindgen::JsValue;

use crate::game::config::{Cli, GameConfig, QueryOptions};

/// The options in the page URL's query string (`?variant=gipf-basic&black=master`), read by
/// the same definition as the desktop command line. Unknown keys are skipped with a warning;
/// options that do not parse are reported as an error on the console and the defaults are
/// used, so a bad link still opens the game.
pub fn command_line() -> Cli {
    // The game's main() has begun (its first call): for the browser test's load measurement.
    page::mark_load_time("wasm-started");
    let options = QueryOptions::parse(query_pairs());
    // Bevy's logger is not set up yet: write to the console directly.
    for problem in &options.ignored {
        web_sys::console::warn_1(&JsValue::from_str(&format!("page URL: {problem}; ignored")));
    }
    if let Some(error) = &options.error {
        web_sys::console::error_1(&JsValue::from_str(&format!(
            "page URL options are invalid; starting with the defaults\n{error}"
        )));
    }
    options.cli
}

/// The decoded `key=value` pairs of the page URL's query string, in order.
fn query_pairs() -> Vec<(String, String)> {
    let Some(window) = web_sys::window() else {
        return Vec::new();
    };
    let search = window.location().search().unwrap_or_default();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return Vec::new();
    };
    let Ok(Some(entries)) = js_sys::try_iter(&params) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pair = js_sys::Array::from(&entry);
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect()
}

/// Assets come over HTTP from the folder the page names in `window.boardcraftAssets` (the
/// built page keeps each build's files in a folder named by its hash, `b/<hash>/assets`, so
/// that a cached old build and a new one never mix), else from `assets/` beside the page
/// (Bevy's default for the web).
pub fn asset_dir() -> Option<PathBuf> {
    let window = web_sys::window()?;
    js_sys::Reflect::get(&window, &JsValue::from_str("boardcraftAssets"))
        .ok()?
        .as_string()
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
}

/// No extra asset sources: a browser cannot list a `mods/` folder, and the shipped variants
/// are named by the manifest.
pub fn register_sources(_app: &mut App, _config: &GameConfig, _asset_dir: Option<&PathBuf>) {}

/// Publishes the game's state on the page; takes "back" requests and Telegram's theme from it.
pub fn plugin(app: &mut App) {
    app.add_plugins((page::plugin, back::plugin, theme::plugin));
}
