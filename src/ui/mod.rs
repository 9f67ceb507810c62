//! The egui UI, one file per screen or window:
//!
//! - [`menu`]: the main menu (game, variant, players, start);
//! - [`hud`]: the game's side panel (side to move, buttons) with [`move_list`] and [`coach`];
//! - [`game_over`], [`settings`], [`saves`] (save/load), [`chooser`] (GIPF move choices),
//!   [`errors`] (broken variant files, a game that cannot start): windows;
//! - [`screens`]: which screen shows (the menu, the Lobby, a game, Learn) and which windows
//!   are open over it, as states;
//! - [`theme`]: the UI's colours ([`UiColours`], a resource the screens read), the page's;
//! - [`board_labels`]: coordinates around the board; [`preview`]: boards drawn in egui;
//! - [`layout`]: the window's shape (wide, portrait, short landscape) and where the game
//!   screen's parts go for it; [`audit`]: what the UI drew, measured for the browser test;
//! - [`shortcuts`]: the keyboard; [`words`]: the texts composed from the translation tables.
//!
//! UI systems run in `EguiPrimaryContextPass` and only read state and write messages (or the
//! UI's own resources and states — which screen and windows show, [`screens`] —, [`Settings`]
//! and the review cursor); what a screen asks of the game or the server without a tap (the
//! Lobby's entering, its tabs' data) is asked by systems of their own. The game itself changes in
//! `match_state`, and a game starts there only (the menu's Start is a message). egui windows block board picking under them (bevy_egui's
//! `picking` feature), the side panel is outside the camera's viewport, and keyboard
//! shortcuts are ignored while egui has the keyboard (a text field).
use bevy::{
    camera::{CameraOutputMode, visibility::RenderLayers},
    prelude::*,
    render::render_resource::BlendState,
};
use bevy_egui::{EguiGlobalSettings, EguiPlugin, EguiPrimaryContextPass, PrimaryEguiContext, egui};

use crate::settings::{Language, Settings};

pub mod audit;
pub mod badges;
pub mod board_labels;
pub mod chooser;
pub mod coach;
pub mod copy_position;
pub mod errors;
pub mod fonts;
pub mod frame_sync;
pub mod game_over;
pub mod hud;
pub mod i18n;
pub mod layout;
pub mod learn;
pub mod menu;
pub mod move_list;
pub mod online;
pub mod preview;
pub mod saves;
pub mod screens;
pub mod seat_chip;
pub mod settings;
pub mod shortcuts;
pub mod shown;
pub mod theme;
pub mod words;

pub use layout::UiSystems;
pub use theme::{UiColours, colours};

pub fn plugin(app: &mut App) {
    app.add_plugins(EguiPlugin::default())
        .add_plugins((frame_sync::plugin, fonts::plugin, shown::plugin))
        // egui gets a camera of its own (below), covering the whole window, so the board's
        // camera can leave the side panel out of its viewport.
        .insert_resource(EguiGlobalSettings {
            auto_create_primary_context: false,
            ..default()
        })
        .add_systems(Startup, spawn_ui_camera)
        .add_plugins(screens::plugin)
        .configure_sets(
            EguiPrimaryContextPass,
            (UiSystems::Background, UiSystems::Panels, UiSystems::Windows).chain(),
        )
        .add_plugins((layout::plugin, audit::plugin, theme::plugin))
        .add_plugins((
            badges::plugin,
            board_labels::plugin,
            hud::plugin,
            menu::plugin,
            game_over::plugin,
            settings::plugin,
            saves::plugin,
            chooser::plugin,
            errors::plugin,
            shortcuts::plugin,
            preview::plugin,
            learn::plugin,
        ));
}

/// The camera egui draws with: over the whole window, above the board's camera, drawing
/// nothing else (no render layers) and clearing nothing.
fn spawn_ui_camera(mut commands: Commands) {
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        // egui smooths its own edges; a multisampled copy of the whole window would only cost
        // memory and a resolve every frame (four times the pixels on a phone at scale 2).
        Msaa::Off,
        RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
}

/// The name of the program and the screen's title, as the full-screen panels (the menu, Learn)
/// head their first row.
pub fn wordmark(ui: &mut egui::Ui, colours: &UiColours, title: &str) {
    ui.label(
        egui::RichText::new("Boardcraft")
            .size(30.0)
            .strong()
            .color(colours.accent()),
    );
    ui.add_space(12.0);
    ui.label(egui::RichText::new(title).size(20.0));
}

/// The UI language from the settings.
pub fn language(settings: &Settings) -> Language {
    settings.language
}
