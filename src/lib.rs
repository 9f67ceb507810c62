//! Boardcraft, the game: Bevy plugins over the rules engine (`boardcraft_rules`).
//!
//! - [`LogicPlugins`] is headless-safe (what the tests run with `MinimalPlugins`): variants as
//!   assets, the match (single source of truth, with undo/redo and resignation), board
//!   layout, piece entities, animation, AI, the review cursor, the coach.
//! - [`PresentationPlugins`] draws and listens: board and piece meshes, camera, input, egui UI,
//!   audio, screenshots.
//!
//! Data flows one way: input or AI → [`game::match_state::MoveRequested`] → rules →
//! [`game::match_state::MoveApplied`] → animation ([`view::animation::PieceLanded`] per
//! landing) → view.
//!
//! The folders follow that flow; what each holds and what it uses:
//!
//! | folder | what it holds | uses |
//! |---|---|---|
//! | [`game`] | the match (single writer of the rules state), variants, set-up, review cursor, computer player, coach, status | `settings`, `tasks` (to yield) |
//! | [`view`] | board, pieces, animation, sounds, camera, full or light graphics, view model, the reviewed position and a lesson's marks on the board | `game`, `settings`, `learn` (the lesson's marks) |
//! | [`input`] | pointer, touch and keyboard → move requests; camera moves (orbit, zoom, pinch) | `game`, `view`, `learn` (whether an exercise takes the player's moves) |
//! | [`learn`] | lessons and puzzles as assets, the player's progress, playing a step or a puzzle, copy position | `game`, `persistence` (where the progress is kept) |
//! | [`online`] | online play: the game server's HTTP and websocket clients, an invite game's session and seat tokens, the lobby, the page's view of the online game | `game`, `settings`, `persistence` (the seat tokens) |
//! | [`ui`] | the egui panels, menus and windows, the online screens (`ui::online`); which screen shows and which windows are open (`ui::screens`, Bevy states); the layout, colours and words of both languages (which import no screen) | `game`, `view`, `input`, `learn`, `online`, `persistence`, `settings` |
//! | [`persistence`] | saves and settings between runs, and where they are kept | `game`, `settings` |
//! | [`platform`] | what differs between the desktop and the browser | `game` (the options, the page's status); in the browser also `ui`, `view`, `learn`, `online` (what the page publishes, Telegram's back button) |
//!
//! No folders use each other, directly or round a circle: they stack in floors, from the
//! bottom `settings` and `tasks`; `game`; `persistence`; `learn` and `online`; `view`;
//! `input`; `ui`; `platform`, and a folder uses only folders below it, so a lower one can be
//! changed (and tested headless) without the ones above.
//!
//! [`settings`] (the player's preferences), [`tasks`] (yielding from an async task, to other
//! tasks or to the browser's event loop) and [`automation`] (running without a person: the
//! headless app, screenshots, the frame benchmark) stand beside them.
// Bevy systems take their resources as parameters; long parameter lists and nested query
// types are normal there.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]

use bevy::{app::PluginGroupBuilder, prelude::*};

pub mod automation;
pub mod game;
pub mod input;
pub mod learn;
pub mod online;
pub mod persistence;
pub mod platform;
pub mod settings;
pub mod tasks;
pub mod ui;
pub mod view;

/// The order of the game's work within a frame.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameSystems {
    /// Variant files: loading, reloading, choosing the game to start.
    Variants,
    /// Human input becomes move requests.
    Input,
    /// The computer's searches start and finish.
    Ai,
    /// The single place where moves are applied and games start.
    Rules,
    /// Board and pieces are rebuilt for a new game.
    Rebuild,
    /// Played moves are animated.
    Animate,
    /// Presentation follows the logic (materials, highlights).
    Sync,
}

/// Everything that runs without a window or GPU.
pub struct LogicPlugins;

impl PluginGroup for LogicPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(ordering)
            .add(game::variants::plugin)
            .add(game::match_state::plugin)
            .add(view::board::plugin)
            .add(view::pieces::plugin)
            .add(view::animation::plugin)
            .add(game::computer::plugin)
            .add(game::review::plugin)
            .add(view::review_board::plugin)
            .add(view::lesson_marks::plugin)
            .add(game::coach::plugin)
            .add(game::status::plugin)
            .add(persistence::plugin)
            .add(online::plugin)
            .add(learn::plugin)
    }
}

fn ordering(app: &mut App) {
    app.configure_sets(
        Update,
        (
            GameSystems::Variants,
            GameSystems::Input,
            GameSystems::Ai,
            GameSystems::Rules,
            GameSystems::Rebuild,
            GameSystems::Animate,
            GameSystems::Sync,
        )
            .chain(),
    );
}

/// Drawing, input, UI and sound, and the platform's extras (the browser page's state).
pub struct PresentationPlugins;

impl PluginGroup for PresentationPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(view::board::render_plugin)
            .add(view::pieces::render_plugin)
            .add(view::lesson_marks::render_plugin)
            .add(view::camera::plugin)
            .add(view::graphics::plugin)
            .add(view::render_trim::RenderTrimPlugin)
            .add(input::plugin)
            .add(ui::plugin)
            .add(view::audio::plugin)
            .add(platform::plugin)
            .add(ui::online::plugin)
            .add(online::page_plugin)
    }
}
