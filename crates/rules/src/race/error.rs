//! What is wrong with a race move or a hand-made race position, as values a caller can match
//! on; each displays as the sentence a player reads.
use super::square::{Directions, Square};
use crate::{NamedSeat, Outcome, Seat};

/// Why a race move cannot be played (or a typed move names no legal move).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// A square off a rectangular board, named with the board's size (the moving piece's
    /// square, or any square of a typed move).
    #[error("{square} is not on the {width}×{height} board")]
    OffBoardOf {
        square: Square,
        width: u8,
        height: u8,
    },
    /// A destination or landing that is not a cell of the board.
    #[error("{square} is not on the board")]
    OffBoard { square: Square },
    #[error("there is no piece on {square}")]
    NoPiece { square: Square },
    #[error("{square} holds a {owner} piece, but it is {to_move}'s turn")]
    NotYourPiece {
        square: Square,
        owner: Seat,
        to_move: Seat,
    },
    #[error("a move must end on another square")]
    SameSquare,
    #[error("a move needs a destination")]
    NoDestination,
    /// A step between squares that are not adjacent; `jump_hint` when they are two apart along
    /// a line, so the player is told how to write the jump.
    #[error(
        "{from} and {to} are not neighbours; a step goes to an adjacent square{}",
        jump_hint_text(*from, *to, *jump_hint)
    )]
    NotNeighbours {
        from: Square,
        to: Square,
        jump_hint: bool,
    },
    /// A hop that is not two squares (or, with long hops, an even distance) along a line.
    #[error(
        "{from} to {to} is not a jump: a jump goes over an adjacent piece to the square right behind it, two squares along a line"
    )]
    NotAJump { from: Square, to: Square },
    /// A hop along a line whose squares leave the board on the way.
    #[error("{from} to {to} is not a jump")]
    JumpOffBoard { from: Square, to: Square },
    /// A step or hop in a direction the variant does not allow.
    #[error(
        "{from} to {to} is {}; pieces here move only {}",
        if *diagonal { "diagonal" } else { "orthogonal" },
        allowed.describe()
    )]
    WrongDirection {
        from: Square,
        to: Square,
        diagonal: bool,
        allowed: Directions,
    },
    /// A hop over an empty square; `left_by_mover` when that square is where the moving piece
    /// started (it has left it, so there is nothing to jump).
    #[error(
        "no piece on {over} to jump over{}",
        if *left_by_mover { ": the moving piece has left it" } else { "" }
    )]
    NothingToJump { over: Square, left_by_mover: bool },
    /// A long hop whose way to or from the jumped piece is not empty.
    #[error("{from} to {to} hops over {over}, but {blocked} on the way is not empty")]
    HopBlocked {
        from: Square,
        to: Square,
        over: Square,
        blocked: Square,
    },
    #[error("{square} is where the piece started; a move may not return to its starting square")]
    ReturnsToStart { square: Square },
    #[error("the chain lands on {square} twice")]
    LandsTwice { square: Square },
    #[error("{square} is occupied")]
    Occupied { square: Square },
    /// A landing outside the target camp the piece stands in, where a piece in its target camp
    /// may never leave it.
    #[error("the piece is in {side}'s target camp and may not leave it; {square} is outside")]
    LeavesTarget { side: Seat, square: Square },
    /// A landing outside the target camp the piece started its turn in.
    #[error(
        "the piece started its turn in {side}'s target camp and must stay inside it; {square} is outside"
    )]
    StaysInTarget { side: Seat, square: Square },
    /// A landing outside the target camp the piece entered earlier in the chain.
    #[error("the piece has entered {side}'s target camp and may not leave it; {square} is outside")]
    LeavesEnteredTarget { side: Seat, square: Square },
    #[error("{square} is in {side}'s home camp and the piece has left it")]
    ReturnsHome { side: Seat, square: Square },
    /// A move that ends in a region that is neither the mover's home nor its target.
    #[error(
        "{square} is in the region {region}, which is neither {side}'s home nor its target: a piece may pass through it but not stop there"
    )]
    StopsInRegion {
        square: Square,
        region: String,
        side: Seat,
    },
    #[error("the chain is too long")]
    ChainTooLong,
    /// `from:to` typed for squares a single step apart.
    #[error("{from} to {to} is a step; write it {from}-{to}")]
    IsAStep { from: Square, to: Square },
    #[error("no chain of jumps leads from {from} to {to}")]
    NoChain { from: Square, to: Square },
    /// `from:to` typed for squares two apart along a line: no chain leads there, and the
    /// single jump fails for `jump`.
    #[error("no chain of jumps leads from {from} to {to}: {jump}")]
    NoChainJumpFails {
        from: Square,
        to: Square,
        jump: Box<Illegal>,
    },
    /// A move played for squares two apart along a line: no chain leads there, and the single
    /// jump fails for `jump`.
    #[error("no chain of jumps leads from {from} to {to} (a single jump fails: {jump})")]
    NoChainSingleJumpFails {
        from: Square,
        to: Square,
        jump: Box<Illegal>,
    },
    #[error("no step or chain of jumps leads from {from} to {to}")]
    NoStepOrChain { from: Square, to: Square },
}

fn jump_hint_text(from: Square, to: Square, hint: bool) -> String {
    if hint {
        format!(" (write jumps with ':', like {from}:{to})")
    } else {
        String::new()
    }
}

/// Why a hand-made race position (`RacePosition::from_seats` and the position text) cannot
/// stand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{seat} has finished or is out and cannot be the side to move")]
    DoneSeatToMove { seat: NamedSeat },
    #[error("a seat is listed twice, or is not a seat of the table")]
    BadFinishers,
    #[error("the table has {seats} seats; {given} are given")]
    SeatCount { seats: usize, given: usize },
    #[error("{seat} is not a seat of this {seats}-seat table")]
    NoSuchSeat { seat: Seat, seats: usize },
    #[error("{square} is not on the {width}×{height} board")]
    OffBoardOf {
        square: Square,
        width: u8,
        height: u8,
    },
    /// A square off a board that is not a rectangle (a star).
    #[error("{square} is not a cell of the board")]
    NotACell { square: Square },
    #[error("{square} is given twice")]
    GivenTwice { square: Square },
    /// With two seats that alternate, the side to move disagrees with the ply's parity.
    #[error("after {ply} plies it is {expected}'s turn ({first} moves first)")]
    WrongTurn {
        ply: u32,
        expected: Seat,
        first: Seat,
    },
}
