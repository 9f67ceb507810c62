//! Saved games and settings between runs: a folder of RON files natively, browser storage on
//! the web ([`storage`]). The UI asks with [`SaveRequested`] / [`LoadRequested`] /
//! [`DeleteRequested`] and hears back through [`PersistenceResult`]; [`SaveSlots`] lists what
//! can be loaded; [`StorageStatus`] says where the data lives and what was wrong with the
//! settings file at start-up.
//!
//! Nothing is ever lost: every write keeps the previous version (`.bak`), a damaged file is
//! reported and left as it is, and a save is replayed through the rules before it replaces the
//! current game (see `boardcraft_saves`).
use bevy::prelude::*;
pub use boardcraft_saves::{SaveError, SaveWarning};

use crate::{
    GameSystems, game::match_state::GameEnd, persistence::storage::Storage, settings::Settings,
};

mod games;
mod settings_file;
pub mod storage;

pub use games::{list_slots, player_kind, saved_game_of, start_of_save_bytes};
pub use settings_file::{SETTINGS_KEY, SETTINGS_WRITE_DELAY_SECS, StoredSettings, settings_text};

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

/// Delete the game saved under `slot` (its last version stays as a backup file).
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
    /// `action` is what was asked; `message` says why it failed, in the player's words
    /// (English); `error` is the same as a typed value, for translation.
    Failed {
        action: PersistenceAction,
        slot: String,
        message: String,
        error: SaveError,
    },
    /// The action succeeded, but the player should know something (a damaged file was
    /// replaced by its backup, the variant file changed since the game was saved …). Sent
    /// after the success it belongs to.
    Notice {
        action: PersistenceAction,
        slot: String,
        message: String,
        notice: Notice,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PersistenceAction {
    Save,
    Load,
    Delete,
    /// Reading the settings at start-up (`slot` is the settings file's key).
    LoadSettings,
    /// Storing changed settings.
    SaveSettings,
}

/// Something that went right in the end but deserves a word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The file was damaged or unreadable (`problem`); it was left as it is and its backup
    /// (the previous version) was used instead.
    RecoveredFromBackup { problem: SaveError },
    /// A damaged file was replaced; it was kept beside the new one (`<name>.damaged`).
    KeptDamagedFile,
    /// A warning about a loaded save.
    Save(SaveWarning),
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Notice::RecoveredFromBackup { problem } => write!(
                f,
                "the file is damaged ({problem}); it was left as it is and the previous version was used"
            ),
            Notice::KeptDamagedFile => {
                f.write_str("the damaged file that was replaced is kept beside it as .damaged")
            }
            Notice::Save(warning) => write!(f, "{warning}"),
        }
    }
}

/// One saved game as the load window lists it.
#[derive(Clone, Debug)]
pub struct SlotInfo {
    pub slot: String,
    /// The variant's title, as saved.
    pub variant_title: String,
    /// Plies played in the saved game.
    pub plies: usize,
    /// The result as saved, for the UI to word in the player's language.
    pub result: SlotResult,
    /// What the saved game's seats are called.
    pub seats: crate::game::seat_names::SeatNames,
}

/// A saved game's result as the save states it (the list does not replay saves: loading does,
/// and the replay decides).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotResult {
    /// Saved before the game was over.
    Unfinished,
    /// The game was over: who won, and by which rule or resignation.
    Over(GameEnd),
    /// A finished game saved before saves recorded the result in typed form: only the
    /// English words it was saved with are known.
    Described(String),
    /// The save cannot be read, and why.
    Unreadable(SaveError),
}

/// The saved games that can be loaded, newest first; kept up to date by persistence.
#[derive(Resource, Clone, Debug, Default)]
pub struct SaveSlots(pub Vec<SlotInfo>);

/// Where saves and settings live, and what was wrong with the settings at start-up.
#[derive(Resource, Clone, Debug, Default)]
pub struct StorageStatus {
    /// A folder natively, "browser storage" on the web.
    pub location: String,
    /// The problem with the stored settings found at start-up (reported once; the UI may
    /// show it and clear it). The file itself is left as it was.
    pub settings_problem: Option<SettingsProblem>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsProblem {
    pub error: SaveError,
    /// The previous version (the backup) was used; otherwise the defaults are.
    pub recovered_from_backup: bool,
}

pub fn plugin(app: &mut App) {
    app.add_message::<SaveRequested>()
        .add_message::<LoadRequested>()
        .add_message::<DeleteRequested>()
        .add_message::<PersistenceResult>()
        .init_resource::<SaveSlots>()
        .init_resource::<Storage>()
        .init_resource::<StorageStatus>()
        // The one owner of the player's settings: they are loaded from storage here, and
        // every other plugin only reads or changes the resource.
        .init_resource::<Settings>()
        .init_resource::<StoredSettings>()
        // Settings first, so every Startup system sees the player's settings.
        .add_systems(PreStartup, settings_file::load_settings)
        .add_systems(Startup, games::refresh_slots)
        .add_systems(
            Update,
            (games::save_games, games::load_games, games::delete_games)
                .chain()
                // After the variant library is up to date, before the rules start games.
                .in_set(GameSystems::Input),
        )
        .add_systems(Update, settings_file::store_settings)
        .add_systems(Last, settings_file::store_settings_on_exit);
}
