//! The whole state of a game as a client sees it: sent on joining, on resync, after a takeback,
//! and by `GET /api/games/{id}`.
use serde::{Deserialize, Serialize};

use crate::{Clocks, GamePlayers, OfferKind, RatingChanges, Side, TimeControl};

/// Everything a client needs to show a game from scratch. The moves are the record; a client
/// replays them with the rules to get the position, and compares its hash with `hash`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSnapshot {
    /// The game's id (letters and digits).
    pub game: String,
    /// The variant's name (`halma-16`), or a posted file's `name`.
    pub variant: String,
    /// The variant's title, for people.
    pub variant_title: String,
    /// The variant file's content hash (16 hex digits), as in save files.
    pub variant_hash: String,
    /// The variant file's text when the game was created from a posted file (not a shipped
    /// variant): a client builds the rules from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_file: Option<String>,
    /// `None`: untimed.
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    pub status: GameStatus,
    /// Set once the game is over.
    #[serde(default)]
    pub result: Option<GameResult>,
    /// Every move played, in the game's notation; `moves[p]` was played at ply `p`.
    pub moves: Vec<String>,
    /// The number of moves played (`moves.len()`): the ply the next move is keyed by.
    pub ply: u32,
    pub side_to_move: Side,
    /// The position's hash after the last move (16 hex digits).
    pub hash: String,
    /// `None` when untimed.
    #[serde(default)]
    pub clocks: Option<Clocks>,
    pub seats: Seats,
    /// Offers waiting for an answer.
    #[serde(default)]
    pub offers: Vec<PendingOffer>,
    /// Spectators connected now (players are not counted).
    #[serde(default)]
    pub spectators: u32,
    /// The rematch of this game, once both accepted.
    #[serde(default)]
    pub rematch: Option<String>,
    /// The game this one is a rematch of.
    #[serde(default)]
    pub rematch_of: Option<String>,
    /// Protocol 2: the accounts playing a game made in the lobby (`None` for invite games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<GamePlayers>,
    /// Protocol 2: how a finished rated game changed both ratings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<RatingChanges>,
}

/// Where a game is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Created; the invite has not been used yet. No move may be played.
    Waiting,
    /// Both seats are taken; moves are accepted.
    Playing,
    /// Over: see `result`.
    Finished,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    /// `None`: a draw.
    pub winner: Option<Side>,
    pub cause: EndCause,
    /// The result in English words, for people (`"Black wins: White resigned"`).
    pub text: String,
}

/// What ended a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum EndCause {
    /// The variant's rules ended it. `rule` is the rules' reason as a code (`target_filled`,
    /// `no_legal_moves`, `repetition`, `piece_count` …, see docs/protocol.md).
    Rules { rule: String },
    /// A player resigned (the loser).
    Resignation,
    /// A player's clock ran out (the loser).
    Timeout,
    /// Both players agreed to a draw.
    DrawAgreed,
    /// A player left and the opponent claimed the game after the grace period (the winner is
    /// the claimer).
    Abandoned,
    /// Protocol 2, lobby games only: the game ended (by resignation, time, agreement or a
    /// claim) before each side had made two moves; no winner, not rated.
    Aborted,
}

/// Both seats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seats {
    pub white: SeatState,
    pub black: SeatState,
}

impl Seats {
    pub fn get(&self, side: Side) -> &SeatState {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }

    pub fn get_mut(&mut self, side: Side) -> &mut SeatState {
        match side {
            Side::White => &mut self.white,
            Side::Black => &mut self.black,
        }
    }
}

/// One seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatState {
    /// Someone holds the seat's token (the creator's seat always; the other once the invite
    /// was used).
    pub joined: bool,
    pub presence: Presence,
}

/// Whether a seat's player is connected.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Presence {
    /// At least one connection holds the seat.
    Present,
    /// Not connected (and never was since the server started, or the game is not on).
    Absent,
    /// Was connected while the game was on and left. The opponent may claim the game once
    /// `claim_in_ms` (counted from the message) has passed; 0 means now.
    Gone { claim_in_ms: u64 },
}

/// An offer waiting for the other player's answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PendingOffer {
    pub offer: OfferKind,
    pub by: Side,
    /// The ply the offer was made at; a move cancels draw and takeback offers.
    pub ply: u32,
}
