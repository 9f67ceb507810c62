//! The Boardcraft game binary, for the desktop and the browser. `boardcraft --help` lists the
//! options; in the browser the page URL carries them (`?variant=halma-16&black=strong`).
use bevy::{asset::AssetMetaCheck, prelude::*, window::WindowResolution};
use boardcraft::{
    LogicPlugins, PresentationPlugins,
    game::config::{StartGraphics, StartLanguage, apply_start_options, system_language},
    game::match_state::AppState,
    platform,
    settings::Settings,
    view::camera::StartTopDown,
};

fn main() -> AppExit {
    let cli = platform::command_line();
    let config = cli.game_config();
    let players = cli.players();
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(frames) = cli.native.bench_frames {
        return boardcraft::automation::bench_frames(config, players, frames);
    }

    let mut app = App::new();
    // Defaults before any plugin: stored settings (persistence) replace them, `--lang` and
    // `--top-down` override those for this run.
    app.insert_resource(Settings {
        language: system_language(),
        ..Settings::default()
    });
    let asset_dir = platform::asset_dir();
    platform::register_sources(&mut app, &config, asset_dir.as_ref());
    let mut asset_plugin = AssetPlugin {
        // Browsers would fetch a `.meta` file for every asset and get 404s.
        meta_check: AssetMetaCheck::Never,
        ..default()
    };
    if let Some(dir) = &asset_dir {
        asset_plugin.file_path = dir.to_string_lossy().into_owned();
    }
    #[allow(unused_mut)]
    let mut window = Window {
        title: "Boardcraft".into(),
        resolution: WindowResolution::new(1280, 800),
        // In the browser: draw into the page's canvas and follow its size.
        canvas: Some("#bevy".into()),
        fit_canvas_to_parent: true,
        ..default()
    };
    #[cfg(not(target_arch = "wasm32"))]
    if let Some((width, height)) = cli.native.window_size {
        window.resolution = WindowResolution::new(width, height);
    }
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
    .insert_resource(cli.online.clone())
    .insert_resource(StartTopDown(cli.top_down))
    .insert_resource(StartLanguage(cli.lang))
    .insert_resource(StartGraphics(cli.graphics))
    .add_systems(PostStartup, apply_start_options);
    if cli.opens_menu() {
        app.insert_state(AppState::Menu);
    }
    if cli.online.lobby {
        app.insert_state(boardcraft::ui::screens::MenuPage::Lobby);
    }
    if let Some(learn) = &cli.learn {
        boardcraft::learn::session::open_learn(&mut app, learn);
    }
    #[cfg(not(target_arch = "wasm32"))]
    app.insert_resource(boardcraft::game::computer::SearchThreads(
        cli.native.threads,
    ));
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(path) = cli.native.screenshot {
        // A picture taken by a script never reads or writes the player's saves and settings
        // (`--lang` and `--top-down` would otherwise be stored as the player's choice).
        app.insert_resource(boardcraft::persistence::storage::Storage::memory());
        app.insert_resource(boardcraft::automation::ScreenshotPlan {
            path,
            frames: cli.native.screenshot_frames,
        })
        .add_plugins(boardcraft::automation::screenshot_plugin);
    }
    app.run()
}
