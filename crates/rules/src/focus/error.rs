//! What is wrong with a Focus move or a hand-made Focus position, as values a caller can match
//! on; each displays as the sentence a player reads.
use super::{square::Square, stack::Stack};
use crate::{NamedSeat, Outcome, Seat};

/// Why a Focus move cannot be played (or a typed move names no legal move).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// Anything but a drop on an empty square while `seat` has not had its first turn.
    #[error(
        "each player's first turn drops the piece kept off the board on an empty square ({seat} has not had its first turn)"
    )]
    FirstTurnDrops { seat: NamedSeat },
    #[error("{square} is not a square of the board")]
    OffBoard { square: Square },
    #[error("a move must leave its square")]
    SameSquare,
    #[error(
        "{from} and {to} are not on one rank or file; stacks move in a straight line, up, down, left or right"
    )]
    NotInLine { from: Square, to: Square },
    /// `count` lifted pieces moved a `distance` that is not `count`.
    #[error("{count} lifted pieces move exactly {count} squares, but {from} to {to} is {distance}")]
    WrongDistance {
        from: Square,
        to: Square,
        count: u8,
        distance: u8,
    },
    #[error("there is no stack on {square}")]
    NoStack { square: Square },
    #[error(
        "the stack on {square} is controlled by {owner} (its top piece), and it is {to_move}'s turn"
    )]
    NotYourStack {
        square: Square,
        owner: NamedSeat,
        to_move: NamedSeat,
    },
    /// More pieces lifted than the stack holds.
    #[error(
        "the stack on {square} has {height} piece{}, so it can move at most {height} square{}, not {count}",
        plural(*height),
        plural(*height)
    )]
    StackTooLow {
        square: Square,
        height: u8,
        count: u8,
    },
    #[error("{seat} has no pieces in reserve")]
    NoReserve { seat: NamedSeat },
}

/// One thing wrong with a hand-made Focus position ([`super::InvalidPosition`] lists them all).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupProblem {
    #[error(
        "{seats} seats need {seats} reserves and {seats} capture counts; {reserves} and {captures} are given"
    )]
    SeatCounts {
        seats: usize,
        reserves: usize,
        captures: usize,
    },
    #[error("{seat:?} is to move, but the table has {seats} seats")]
    NoSuchSeat { seat: Seat, seats: usize },
    #[error("{square} is not a square of the board")]
    OffBoard { square: Square },
    #[error("{square} is given twice")]
    GivenTwice { square: Square },
    #[error("the stack on {square} ({stack}) is taller than the height limit {limit}")]
    TooTall {
        square: Square,
        stack: Stack,
        limit: u8,
    },
    #[error("the stack on {square} holds a piece of a seat beyond the table's {seats}")]
    SeatBeyondTable { square: Square, seats: usize },
    /// Two seats: a side's pieces on the board, in reserve and captured by the other do not
    /// add up to the variant's pieces per side.
    #[error(
        "{seat} has {on_board} on the board + {reserve} in reserve + {captured} captured by {} = {total} pieces, not {per_side}",
        seat.other()
    )]
    Material {
        seat: Seat,
        on_board: u32,
        reserve: u16,
        captured: u16,
        total: u32,
        per_side: u16,
    },
    /// More than two seats: a seat keeps more pieces than the variant gives it.
    #[error(
        "{seat} has {on_board} on the board + {reserve} in reserve = {kept} pieces, more than {per_side}"
    )]
    TooManyPieces {
        seat: NamedSeat,
        on_board: u32,
        reserve: u16,
        kept: u32,
        per_side: u32,
    },
    /// More than two seats: the pieces missing from the seats are not the captures.
    #[error(
        "{missing} pieces are missing from the board and the reserves, but the captures add up to {taken}"
    )]
    CapturesMismatch { missing: u32, taken: u32 },
    #[error("{seat:?} is listed twice or is not a seat")]
    OutListedTwice { seat: Seat },
    #[error("{seat} is listed as out, but it still has a stack or a reserve")]
    OutButPlays { seat: NamedSeat },
}

fn plural(n: u8) -> &'static str {
    if n == 1 { "" } else { "s" }
}
