//! Boardcraft, the game: Bevy plugins over the rules engine (`boardcraft_rules`).
//!
//! - [`LogicPlugins`] is headless-safe (what the tests run with `MinimalPlugins`): variants as
//!   assets, the match (single source of truth, with undo/redo and resignation), board
//!   layout, piece entities, animation, AI, the review cursor, the coach.
//! - [`PresentationPlugins`] draws and listens: board and piece meshes, camera, input, egui UI,
//!   audio, screenshots.
//!
//! Data flows one way: input or AI → [`match_state::MoveRequested`] → rules →
//! [`match_state::MoveApplied`] → animation ([`animation::PieceLanded`] per landing) → view.
// Bevy systems take their resources as parameters; long parameter lists and nested query
// types are normal there.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]

use bevy::{app::PluginGroupBuilder, prelude::*};

pub mod ai;
pub mod animation;
pub mod audio;
pub mod automation;
pub mod board;
pub mod camera;
pub mod coach;
pub mod config;
pub mod i18n;
pub mod input;
pub mod match_state;
pub mod persistence;
pub mod pieces;
pub mod review;
pub mod settings;
pub mod storage;
pub mod ui;
pub mod variants;
pub mod view_model;

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
            .add(variants::plugin)
            .add(match_state::plugin)
            .add(board::plugin)
            .add(pieces::plugin)
            .add(animation::plugin)
            .add(ai::plugin)
            .add(review::plugin)
            .add(coach::plugin)
            .add(persistence::plugin)
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

/// Drawing, input, UI and sound.
pub struct PresentationPlugins;

impl PluginGroup for PresentationPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(board::render_plugin)
            .add(pieces::render_plugin)
            .add(camera::plugin)
            .add(input::plugin)
            .add(ui::plugin)
            .add(audio::plugin)
    }
}
