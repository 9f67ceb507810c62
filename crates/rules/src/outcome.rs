use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Color;

/// How a finished game ended: the winner (none for a draw) and the rule that decided it.
/// Serialisable so that a save can name its result in typed form (see `boardcraft-saves`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: EndReason,
}

impl Outcome {
    pub const fn win(winner: Color, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    pub const fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    /// +1 if `side` won, -1 if it lost, 0 for a draw.
    pub fn score_for(&self, side: Color) -> i32 {
        match self.winner {
            None => 0,
            Some(w) if w == side => 1,
            Some(_) => -1,
        }
    }
}

/// The rule that ended a game, in the rules' own terms. One list for all families so that the
/// app can explain any ending; each family uses its own subset.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// Race games: the winner's pieces fill its target camp.
    TargetFilled,
    /// Happy-Games Ugolki anti-blocking rule: the target camp is full (any colour) and holds at
    /// least one of the winner's pieces.
    TargetBlockedButReached,
    /// 9qum Ugolki: White finished, Black finished with its equalising reply.
    BothFinished,
    /// 9qum Ugolki 40-move rule (checked after ply 80): the loser (or both, for a draw) still had
    /// a piece on its own home squares.
    HomeNotVacated,
    /// 9qum Ugolki count after ply 200: pieces in the opponent's corner.
    PieceCount { white: u8, black: u8 },
    /// The side to move had no legal move (and the family's rules make that a loss).
    NoLegalMoves,
    /// Focus: the side to move controls no stack and has an empty reserve.
    NoStackNoReserve,
    /// GIPF: the side to move has no piece left to bring into play.
    ReserveExhausted,
    /// GIPF standard/tournament: the loser has no GIPF-piece left on the board.
    NoGipfPiece,
    /// GIPF seed variant: the loser has no pieces at all (board and reserve).
    Annihilated,
    /// The same position (with the same side to move) occurred for the third time.
    Repetition,
    /// The variant's ply cap was reached (an engine guard, not a rule of the game).
    PlyCap,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::TargetFilled => f.write_str("all pieces reached the target camp"),
            EndReason::TargetBlockedButReached => {
                f.write_str("target camp full and holding at least one of the winner's pieces")
            }
            EndReason::BothFinished => f.write_str("both sides finished (equalising reply)"),
            EndReason::HomeNotVacated => {
                f.write_str("40-move rule: pieces still at home after move 40")
            }
            EndReason::PieceCount { white, black } => {
                write!(
                    f,
                    "count after move 100: White {white}, Black {black} in the opponent's corner"
                )
            }
            EndReason::NoLegalMoves => f.write_str("no legal move"),
            EndReason::NoStackNoReserve => f.write_str("no controlled stack and no reserve"),
            EndReason::ReserveExhausted => f.write_str("no piece left to bring into play"),
            EndReason::NoGipfPiece => f.write_str("no GIPF-piece left on the board"),
            EndReason::Annihilated => f.write_str("no pieces left"),
            EndReason::Repetition => f.write_str("threefold repetition"),
            EndReason::PlyCap => f.write_str("move limit reached"),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(w) => write!(f, "{w} wins: {}", self.reason),
            None => write!(f, "draw: {}", self.reason),
        }
    }
}
