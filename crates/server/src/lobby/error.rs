//! What goes wrong with a lobby request. Each case's protocol code is given once, by its
//! [`Refusal`] impl; the message is its `Display`.
use boardcraft_protocol::ErrorCode;
use boardcraft_rules::VariantError;

use crate::{game::GameError, refusals::Refusal, storage::StoreError};

/// Why the lobby refused a request (or failed to do it).
#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    #[error("this connection said hello already")]
    AlreadyJoined,

    // --- terms of a seek or challenge
    #[error(transparent)]
    VariantNotFound(VariantError),
    #[error("a time control needs 0 < initial_ms <= 24 h and increment_ms <= 1 h")]
    TimeControlOutOfBounds,
    #[error("a rated game needs a time control")]
    RatedWithoutClock,

    // --- seeks
    #[error("at most {0} open seeks per player")]
    TooManySeeks(u32),
    /// Cancelling a seek that is not (or no longer) the player's.
    #[error("no such seek of yours")]
    NotYourSeek,
    /// Accepting a seek that was taken or cancelled.
    #[error("the seek is gone")]
    SeekGone,
    #[error("that is your own seek (cancel it instead)")]
    OwnSeek,
    /// A table of more than two asked for on a lobby connection of protocol 2.
    #[error("tables of more than two need lobby protocol 3")]
    BadSeats,
    /// Taking a second seat at a seek of more than two seats.
    #[error("you have a seat at this seek already")]
    AlreadySeated,
    /// Leaving a seek one has no seat at (or that is full: its game is starting).
    #[error("you have no seat at this seek to give back")]
    NotSeated,

    // --- pools
    #[error("this server has no pool {0}")]
    PoolNotFound(String),
    #[error("bots do not play in the quick-pairing pools here: open a seek or answer challenges")]
    NoBotsInPools,

    // --- challenges
    #[error("nobody is named {0}")]
    NobodyNamed(String),
    #[error("you cannot challenge yourself")]
    ChallengesSelf,
    #[error("at most {0} open challenges per player")]
    TooManyChallenges(u32),
    #[error("no such challenge")]
    ChallengeNotFound,
    #[error("the challenger is gone")]
    ChallengerGone,

    // --- the server's failures
    /// A seek's or challenge's row that does not read (`what`: which).
    #[error("a stored {what}: {why}")]
    BrokenRow { what: &'static str, why: String },
    /// Making the paired game failed.
    #[error(transparent)]
    Pairing(#[from] GameError),
    #[error(transparent)]
    Storage(#[from] StoreError),
}

impl Refusal for LobbyError {
    fn code(&self) -> ErrorCode {
        use LobbyError as E;
        match self {
            E::AlreadyJoined => ErrorCode::AlreadyJoined,
            E::VariantNotFound(_) => ErrorCode::VariantNotFound,
            E::TimeControlOutOfBounds | E::BadSeats => ErrorCode::BadMessage,
            E::RatedWithoutClock
            | E::TooManySeeks(_)
            | E::OwnSeek
            | E::AlreadySeated
            | E::NoBotsInPools
            | E::ChallengesSelf
            | E::TooManyChallenges(_) => ErrorCode::NotAllowed,
            E::NotYourSeek | E::SeekGone | E::NotSeated => ErrorCode::SeekNotFound,
            E::PoolNotFound(_) => ErrorCode::PoolNotFound,
            E::NobodyNamed(_) | E::ChallengerGone => ErrorCode::PlayerNotFound,
            E::ChallengeNotFound => ErrorCode::ChallengeNotFound,
            E::BrokenRow { .. } | E::Storage(_) => ErrorCode::Internal,
            E::Pairing(e) => e.code(),
        }
    }
}
