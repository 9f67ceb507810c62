//! What goes wrong in a game: a request that does not fit the game (refused, nothing changed),
//! a game that cannot be served, or the store. Each case's protocol code is given once, by its
//! [`Refusal`] impl; the message is its `Display`.
use boardcraft_protocol::{ErrorCode, OfferKind};
use boardcraft_rules::{IllegalMove, NotationError, VariantError};

use crate::{refusals::Refusal, storage::StoreError};

/// Why the game service refused a request (or failed to do it).
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    // --- no such game
    #[error("no game `{0}`")]
    NotFound(String),
    #[error("no game has this invite")]
    InviteNotFound,
    /// The game's task could not be started (see [`LoadError`]).
    #[error(transparent)]
    Load(#[from] LoadError),

    // --- seats
    #[error("this seat token does not belong to this game")]
    BadToken,
    #[error("every seat is taken")]
    SeatTaken,
    /// A hello of protocol 1 or 2 to a game of more than two seats, which only protocol 3
    /// can tell of.
    #[error("this game has {seats} seats: say hello with protocol 3")]
    ProtocolTooOld { seats: usize },
    #[error("spectators cannot act in the game")]
    ReadOnly,
    /// The seat's person left the game (resigned, or was gone past the grace period) and the
    /// server's computer plays the seat now.
    #[error("you left this game: the computer plays your seat")]
    SeatTakenOver,

    // --- the game's state
    #[error("the game waits for its players")]
    NotStarted,
    #[error("the game is over")]
    Over,
    /// The mover's flag fell before the move arrived (the game ended on time).
    #[error("your time ran out")]
    TimeRanOut,

    // --- moves
    /// Whose turn it is, by name (`white`, `black`, `seat 3` …).
    #[error("it is {0}'s turn")]
    NotYourTurn(String),
    #[error("ply {ply} is ahead of the game, which is at ply {current}: resync")]
    FuturePly { ply: u32, current: u32 },
    /// A resend of a ply that is stored as another move.
    #[error("ply {ply} was played already as {stored}")]
    PlyAlreadyPlayed { ply: u32, stored: String },
    /// The text names no legal move here (the rules' words).
    #[error(transparent)]
    Unreadable(#[from] NotationError),
    /// The rules refused the move.
    #[error(transparent)]
    IllegalMove(#[from] IllegalMove),

    // --- claims and offers
    #[error("the opponent may still come back: claim in {in_ms} ms")]
    ClaimTooEarly { in_ms: u128 },
    #[error("the opponent is connected (or never left during the game)")]
    OpponentPresent,
    /// An offer for another ply than the game's.
    #[error("the game is at ply {current}, not {ply}")]
    StaleOffer { ply: u32, current: u32 },
    /// An answer to an offer made at another ply.
    #[error("the {offer} offer was made at ply {made_at}, not {ply}")]
    StaleAnswer {
        offer: OfferKind,
        made_at: u32,
        ply: u32,
    },
    #[error("a rematch is offered after the game")]
    RematchBeforeTheEnd,
    #[error("the rematch exists already")]
    RematchExists,
    #[error("no rematch is possible now")]
    NoRematchNow,
    /// A takeback offered by a side that has made no move.
    #[error("you have no move to take back")]
    NoMoveToTakeBack,
    /// A takeback accepted when the side that offered it has no move left to take back.
    #[error("nothing to take back")]
    NothingToTakeBack,
    #[error("the opponent has not offered a {0}")]
    NotOffered(OfferKind),
    #[error("no {0} offer is pending")]
    NoPendingOffer(OfferKind),
    /// Takebacks are for two seats: at a larger table a move taken back would undo the
    /// turns of seats that did not ask.
    #[error("takebacks are for games of two seats")]
    NoTakebackAtThisTable,
    /// A seat that finished or left has no say in a draw.
    #[error("you no longer play in this game")]
    NotPlaying,

    /// The variant's seating is for more than two players: this server's games have two seats
    /// (protocol 3 can tell of more; the games are the next step).
    #[error("`{variant}` is played by {seats} players; this server plays games of two")]
    MoreThanTwoSeats { variant: String, seats: usize },
    /// The variant is not played by that many (the message lists the counts it offers).
    #[error("`{variant}` is not played by {asked} players; it is played by {offered}")]
    SeatsNotOffered {
        variant: String,
        asked: usize,
        offered: String,
    },
    /// A game between accounts needs one account per seat.
    #[error("{accounts} accounts for {seats} seats")]
    AccountsForSeats { accounts: usize, seats: usize },

    // --- a game between accounts
    #[error(transparent)]
    VariantNotFound(VariantError),
    #[error("a rated game needs a time control")]
    RatedWithoutClock,
    #[error("a time control needs 0 < initial_ms <= 24 h and increment_ms <= 1 h")]
    TimeControlOutOfBounds,
    #[error("a player cannot play themself")]
    PlaysThemself,
    #[error("no account `{0}`")]
    NoAccount(String),

    // --- the store
    /// Storing a move failed: nothing was played; the client may send it again.
    #[error("the move could not be stored, try again: {0}")]
    MoveNotStored(StoreError),
    #[error(transparent)]
    Storage(#[from] StoreError),
}

impl Refusal for GameError {
    fn code(&self) -> ErrorCode {
        use GameError as E;
        match self {
            E::NotFound(_) => ErrorCode::GameNotFound,
            E::InviteNotFound => ErrorCode::InviteNotFound,
            E::Load(e) => e.code(),
            E::BadToken => ErrorCode::BadToken,
            E::SeatTaken => ErrorCode::SeatTaken,
            E::ProtocolTooOld { .. } => ErrorCode::UnsupportedProtocol,
            E::ReadOnly | E::SeatTakenOver => ErrorCode::ReadOnly,
            E::NotStarted => ErrorCode::NotStarted,
            E::Over | E::TimeRanOut => ErrorCode::GameOver,
            E::NotYourTurn(_) => ErrorCode::NotYourTurn,
            E::FuturePly { .. } => ErrorCode::FuturePly,
            E::PlyAlreadyPlayed { .. } => ErrorCode::PlyAlreadyPlayed,
            E::Unreadable(_) | E::IllegalMove(_) => ErrorCode::IllegalMove,
            E::ClaimTooEarly { .. } | E::OpponentPresent => ErrorCode::ClaimNotAllowed,
            E::StaleOffer { .. } | E::StaleAnswer { .. } => ErrorCode::StaleOffer,
            E::RematchBeforeTheEnd
            | E::RematchExists
            | E::NoRematchNow
            | E::NoMoveToTakeBack
            | E::NothingToTakeBack
            | E::NoTakebackAtThisTable
            | E::NotPlaying => ErrorCode::OfferNotAllowed,
            E::NotOffered(_) | E::NoPendingOffer(_) => ErrorCode::NoOffer,
            E::VariantNotFound(_) => ErrorCode::VariantNotFound,
            E::MoreThanTwoSeats { .. } | E::SeatsNotOffered { .. } => ErrorCode::VariantInvalid,
            E::RatedWithoutClock
            | E::TimeControlOutOfBounds
            | E::PlaysThemself
            | E::AccountsForSeats { .. } => ErrorCode::BadRequest,
            E::NoAccount(_) => ErrorCode::PlayerNotFound,
            E::MoveNotStored(_) | E::Storage(_) => ErrorCode::Internal,
        }
    }
}

/// Why a stored game cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("game {game}: {why}")]
    Broken { game: String, why: String },
    /// Another node runs the game and did not let go in time.
    #[error("game {0} is run by another node; try again")]
    Elsewhere(String),
}

impl Refusal for LoadError {
    fn code(&self) -> ErrorCode {
        match self {
            LoadError::Elsewhere(_) => ErrorCode::GameMoved,
            LoadError::Store(_) | LoadError::Broken { .. } => ErrorCode::Internal,
        }
    }
}
