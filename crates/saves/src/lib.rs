//! Boardcraft's saved games and the storage that keeps them (and the settings) safe. No Bevy.
//!
//! - [`SavedGame`]: the save file, a readable RON text (variant name and content hash, players,
//!   moves in notation, result, who resigned). [`SavedGame::to_ron`] writes it, [`SavedGame::parse`] /
//!   [`SavedGame::load_bytes`] read it with line and column in every error.
//! - [`SavedGame::replay`]: loading is replaying; every move goes through the rules engine and
//!   the first one that does not play rejects the save ([`SaveError::IllegalMove`]). See
//!   [`replay`] for the variant-hash policy.
//! - [`store`]: atomic writes, a backup of the previous version, reads that never modify a
//!   file and fall back to the backup (saying so) when a file is damaged.
//! - [`slot`]: which names a save may have and where it is stored.
//!
//! [`load_and_replay_shipped`] runs the whole loading path on arbitrary bytes (for fuzzing);
//! `checks::save_file` (feature `checks`) is the `save_file` fuzz target's body.

#[cfg(feature = "checks")]
pub mod checks;
mod error;
mod player;
pub mod replay;
mod saved_game;
pub mod slot;
pub mod store;

pub use error::{SaveError, SaveWarning, SlotNameProblem};
pub use player::Player;
pub use replay::{Replayed, ReplayedMove, load_and_replay_shipped};
pub use saved_game::{
    Decided, FORMAT_VERSION, SavedGame, end_text, format_utc, hash_hex, parse_ron, parse_ron_bytes,
    result_text, text_of,
};
