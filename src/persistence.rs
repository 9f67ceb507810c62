//! Saved games and settings between runs: a folder of RON files natively, browser storage on
//! the web. The UI asks with [`SaveRequested`] / [`LoadRequested`] and hears back through
//! [`PersistenceResult`]; [`SaveSlots`] lists what can be loaded.
//!
//! (Lead's note: the message types are the contract between the UI and persistence; the
//! systems that serve them arrive on the `sound` branch.)
use bevy::prelude::*;

/// Save the current game under `slot` (a short name chosen by the player; overwriting an
/// existing slot keeps the previous file as a backup).
#[derive(Message, Clone, Debug)]
pub struct SaveRequested {
    pub slot: String,
}

/// Load the game saved under `slot`. The save is replayed through the rules first; a save that
/// does not replay is rejected and the current game is kept.
#[derive(Message, Clone, Debug)]
pub struct LoadRequested {
    pub slot: String,
}

/// Delete the game saved under `slot`.
#[derive(Message, Clone, Debug)]
pub struct DeleteRequested {
    pub slot: String,
}

/// What became of a request, for the UI to show.
#[derive(Message, Clone, Debug)]
pub enum PersistenceResult {
    Saved {
        slot: String,
    },
    Loaded {
        slot: String,
    },
    Deleted {
        slot: String,
    },
    /// `action` is what was asked; `message` says why it failed, in the player's words.
    Failed {
        action: PersistenceAction,
        slot: String,
        message: String,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PersistenceAction {
    Save,
    Load,
    Delete,
}

/// One saved game as the load window lists it.
#[derive(Clone, Debug)]
pub struct SlotInfo {
    pub slot: String,
    /// The variant's title, as saved.
    pub variant_title: String,
    /// Plies played in the saved game.
    pub plies: usize,
    /// Human-readable description of the result (empty while the game is unfinished).
    pub result: String,
}

/// The saved games that can be loaded, newest first; kept up to date by persistence.
#[derive(Resource, Clone, Debug, Default)]
pub struct SaveSlots(pub Vec<SlotInfo>);

pub fn plugin(app: &mut App) {
    app.add_message::<SaveRequested>()
        .add_message::<LoadRequested>()
        .add_message::<DeleteRequested>()
        .add_message::<PersistenceResult>()
        .init_resource::<SaveSlots>();
}
