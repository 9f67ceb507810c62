//! The desktop side of [`crate::platform`].
use std::path::PathBuf;

use bevy::prelude::*;
use clap::Parser;

use crate::game::config::{Cli, GameConfig};

/// The process's command line; `--help` and errors print and exit, as a CLI does.
pub fn command_line() -> Cli {
    Cli::parse()
}

/// The `assets` folder: Bevy looks beside the executable unless `BEVY_ASSET_ROOT` or
/// `CARGO_MANIFEST_DIR` says otherwise (`cargo run` sets the latter). A binary started from
/// the repository (e.g. `target/release/boardcraft`) also finds `./assets`.
pub fn asset_dir() -> Option<PathBuf> {
    let root = std::env::var_os("BEVY_ASSET_ROOT")
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
        .map(PathBuf::from);
    let candidates = root
        .into_iter()
        .chain(
            std::env::current_exe()
                .ok()
                .and_then(|e| e.parent().map(Into::into)),
        )
        .chain(std::env::current_dir().ok());
    candidates
        .map(|dir| dir.join("assets"))
        .find(|dir| dir.join("variants").is_dir())
        .and_then(|dir| std::path::absolute(dir).ok())
}

/// The `mods/` folder beside `assets/` and the folder of a `--variant <file>` become asset
/// sources. Must run before `DefaultPlugins` (it configures the asset plugin's sources).
pub fn register_sources(app: &mut App, config: &GameConfig, asset_dir: Option<&PathBuf>) {
    let mods = asset_dir
        .and_then(|a| a.parent())
        .map(|root| root.join("mods"));
    crate::game::variants::register_sources(app, config, mods);
}

/// Nothing extra on the desktop.
pub fn plugin(_app: &mut App) {}
