//! The Boardcraft game binary. `boardcraft --help` lists the options.
use bevy::{asset::AssetMetaCheck, prelude::*, window::WindowResolution};
use boardcraft::{
    LogicPlugins, PresentationPlugins, automation,
    camera::StartTopDown,
    config::{Cli, StartLanguage, apply_start_language, system_language},
    match_state::AppState,
    settings::Settings,
};
use clap::Parser;

fn main() -> AppExit {
    let cli = Cli::parse();
    let config = cli.game_config();
    let players = cli.players();
    if let Some(frames) = cli.bench_frames {
        return automation::bench_frames(config, players, frames);
    }

    let mut app = App::new();
    // Defaults before any plugin: stored settings (persistence) replace them, `--lang` and
    // `--top-down` override those for this run.
    app.insert_resource(Settings {
        language: system_language(),
        ..Settings::default()
    });
    let asset_dir = find_assets();
    #[cfg(not(target_arch = "wasm32"))]
    boardcraft::variants::register_sources(
        &mut app,
        &config,
        asset_dir
            .as_ref()
            .and_then(|a| a.parent())
            .map(|root| root.join("mods")),
    );
    let mut asset_plugin = AssetPlugin {
        // Browsers would fetch a `.meta` file for every asset and get 404s.
        meta_check: AssetMetaCheck::Never,
        ..default()
    };
    if let Some(dir) = &asset_dir {
        asset_plugin.file_path = dir.to_string_lossy().into_owned();
    }
    let window = Window {
        title: "Boardcraft".into(),
        resolution: WindowResolution::new(1280, 800),
        canvas: Some("#bevy".into()),
        fit_canvas_to_parent: true,
        ..default()
    };
    app.add_plugins((
        DefaultPlugins.set(asset_plugin).set(WindowPlugin {
            primary_window: Some(window),
            ..default()
        }),
        LogicPlugins,
        PresentationPlugins,
    ))
    .insert_resource(config)
    .insert_resource(players)
    .insert_resource(StartTopDown(cli.top_down))
    .insert_resource(StartLanguage(cli.lang))
    .add_systems(PostStartup, apply_start_language);
    if cli.menu {
        app.insert_state(AppState::Menu);
    }
    if let Some(path) = cli.screenshot {
        // A picture taken by a script never reads or writes the player's saves and settings
        // (`--lang` and `--top-down` would otherwise be stored as the player's choice).
        app.insert_resource(boardcraft::storage::Storage::memory());
        app.insert_resource(automation::ScreenshotPlan {
            path,
            frames: cli.screenshot_frames,
        })
        .add_plugins(automation::screenshot_plugin);
    }
    app.run()
}

/// The `assets` folder: Bevy looks beside the executable unless `BEVY_ASSET_ROOT` or
/// `CARGO_MANIFEST_DIR` says otherwise (`cargo run` sets the latter). A binary started from
/// the repository (e.g. `target/release/boardcraft`) also finds `./assets`.
fn find_assets() -> Option<std::path::PathBuf> {
    #[cfg(target_arch = "wasm32")]
    {
        None
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let root = std::env::var_os("BEVY_ASSET_ROOT")
            .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR"))
            .map(std::path::PathBuf::from);
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
}
