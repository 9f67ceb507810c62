//! Everything that can go wrong with a save or a stored file, as typed values: the UI shows the
//! English `Display` text or translates by kind, using the fields.
use std::io;

use boardcraft_rules::Seat;

/// Why a save (or another stored file) could not be read, replayed or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    /// There is no such file (or browser storage entry).
    #[error("there is no such save")]
    Missing,
    /// The file exists but could not be read (permissions, a disk error …).
    #[error("the file cannot be read: {message}")]
    Unreadable {
        kind: io::ErrorKind,
        message: String,
    },
    /// The file could not be written; the previous file (if any) is unchanged.
    #[error("the file cannot be written: {message}")]
    WriteFailed {
        kind: io::ErrorKind,
        message: String,
    },
    /// The file is empty (typically cut off by a crash while it was written by another program).
    #[error("the file is empty")]
    Empty,
    /// The file is not UTF-8 text: it is damaged (or not a save at all).
    #[error("the file is not text (invalid byte at offset {offset}): it is damaged")]
    NotText { offset: usize },
    /// The text stops in the middle: the end of the file is missing.
    #[error("the file ends too early (line {line}, column {column}): it is truncated")]
    Truncated { line: usize, column: usize },
    /// The text is not a save in this format: a RON syntax error or a wrong field.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// A save written by another (newer) version of Boardcraft.
    #[error(
        "the save has format_version {found}; this version of Boardcraft reads format_version {supported}"
    )]
    UnsupportedVersion { found: u32, supported: u32 },
    /// The save names a variant this game does not know (a deleted mod, a typo).
    #[error("the save is a game of `{name}`, a variant this game does not know")]
    UnknownVariant { name: String },
    /// The variant the save names exists but its file is broken right now.
    #[error("the variant `{name}` cannot be played right now: {why}")]
    VariantUnavailable { name: String, why: String },
    /// `replay` was given another variant than the one the save names.
    #[error("the save is a game of `{saved}`, not of `{given}`")]
    WrongVariant { saved: String, given: String },
    /// The save's start position (`start`) is not a position of its variant.
    #[error("the start position of the save cannot be read: {why}")]
    BadStart { why: String },
    /// A saved move does not replay: the save was edited or damaged, or (with
    /// `variant_changed`) the variant's rules changed since the game was saved.
    #[error(
        "move {number} ({notation}) cannot be played: {reason}{}",
        if *variant_changed { "; the variant file changed since this game was saved" } else { "" }
    )]
    IllegalMove {
        /// 1-based ply number of the move in the save.
        number: usize,
        /// The move as written in the save.
        notation: String,
        /// The rules' reason, in their words.
        reason: String,
        /// The variant's content hash differs from the one saved.
        variant_changed: bool,
    },
    /// A slot name that cannot be a file name.
    #[error("`{name}` cannot name a save: {problem}")]
    InvalidSlotName {
        name: String,
        problem: SlotNameProblem,
    },
    /// Nothing to save: no game is being played.
    #[error("there is no game to save")]
    NoGame,
}

/// What is wrong with a slot name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SlotNameProblem {
    #[error("the name is empty")]
    Empty,
    #[error("the name is longer than {max} characters", max = crate::slot::MAX_SLOT_CHARS)]
    TooLong,
    #[error("use letters, digits, spaces, '-', '_' and '.' only (found {0:?})")]
    BadCharacter(char),
    #[error("the name must not start or end with a space or a dot")]
    BadEdge,
    #[error("the name is reserved by the operating system")]
    Reserved,
}

impl SaveError {
    pub fn unreadable(e: &io::Error) -> Self {
        SaveError::Unreadable {
            kind: e.kind(),
            message: e.to_string(),
        }
    }

    pub fn write_failed(e: &io::Error) -> Self {
        SaveError::WriteFailed {
            kind: e.kind(),
            message: e.to_string(),
        }
    }

    /// True for damage to the file's content (as opposed to a missing file or an I/O error):
    /// the cases where a backup is worth trying.
    pub fn is_damage(&self) -> bool {
        matches!(
            self,
            SaveError::Empty
                | SaveError::NotText { .. }
                | SaveError::Truncated { .. }
                | SaveError::Syntax { .. }
        )
    }
}

/// Something worth telling the player about a save that did load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveWarning {
    /// The variant file is not the one the game was saved with (its text changed: new rules,
    /// or only comments and layout); every move still replayed.
    VariantChanged {
        saved_hash: String,
        current_hash: String,
    },
    /// The result written in the save is not what the replay gives; the replay wins.
    ResultDiffers {
        saved: Option<String>,
        replayed: Option<String>,
    },
    /// The save says `side` resigned, but the rules had already ended the game: the game is
    /// loaded as the rules ended it.
    ResignationIgnored { side: Seat },
    /// The save says the game ended so (online: time, abandonment, an agreed draw), but its
    /// rules or a resignation had already ended it: the game is loaded as they ended it.
    DecisionIgnored { decided: crate::Decided },
}

impl std::fmt::Display for SaveWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveWarning::VariantChanged { .. } => f.write_str(
                "the variant file changed since this game was saved; every move still replays",
            ),
            SaveWarning::ResultDiffers { saved, replayed } => write!(
                f,
                "the save says the result is {}, but the moves give {}",
                saved.as_deref().unwrap_or("(game not over)"),
                replayed.as_deref().unwrap_or("(game not over)")
            ),
            SaveWarning::ResignationIgnored { side } => write!(
                f,
                "the save says {side} resigned, but the game had already ended by its rules; \
                 the resignation is ignored"
            ),
            SaveWarning::DecisionIgnored { decided } => write!(
                f,
                "the save says \"{decided}\", but the game had already ended otherwise; \
                 that end is ignored"
            ),
        }
    }
}
