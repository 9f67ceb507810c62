//! What is wrong with a GIPF move or a hand-made GIPF position, as values a caller can match
//! on; each displays as the sentence a player reads.
use super::{
    geometry::{Dot, Spot},
    moves::SpotSet,
};
use crate::{Outcome, Seat};

/// Why a GIPF move cannot be played (or a typed move names no legal move).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("the game is over ({0})")]
    GameOver(Outcome),
    /// An entry onto a full line: the push would move the piece on `last` off the board onto
    /// the dot `far_dot` at the line's other end.
    #[error(
        "the line from {spot} to {last} is full: the push would move the piece on {last} off the board onto {far_dot}"
    )]
    LineFull {
        spot: Spot,
        last: Spot,
        far_dot: Dot,
    },
    #[error("{seat} has no basic piece in reserve")]
    NoBasicPiece { seat: Seat },
    /// A basic piece entered on a turn that must bring in a GIPF-piece.
    #[error("{seat}'s first turn must bring in a GIPF-piece (write `G{dot}-{spot}`)")]
    FirstTurnEntersGipf { seat: Seat, dot: Dot, spot: Spot },
    #[error("GIPF-pieces are not brought into play in this variant")]
    NoGipfPieces,
    #[error("{seat} has entered a basic piece already, so he may enter no more GIPF-pieces")]
    BasicEntered { seat: Seat },
    #[error("{seat} needs two basic pieces in reserve to make a GIPF-piece")]
    TwoBasicNeeded { seat: Seat },
    #[error("{seat} has no GIPF-piece in reserve")]
    NoGipfPiece { seat: Seat },
    /// An entry refused for no reason of its own.
    #[error("not a legal move here")]
    NotLegalHere,
    /// A move with no reason of its own: its removals or its pending decision do not match
    /// this position.
    #[error("not a legal move in this position")]
    NotLegalInPosition,
    #[error(
        "pieces on the board do not move in this variant: every turn enters a piece from a dot (like `e1-e2`)"
    )]
    NoBoardSteps,
    #[error("there is no piece on {spot}")]
    NoPiece { spot: Spot },
    #[error("the piece on {spot} is not {seat}'s")]
    NotYourPiece { spot: Spot, seat: Seat },
    /// A step on a turn that must bring in a GIPF-piece.
    #[error("{seat}'s first turn must bring in a GIPF-piece")]
    FirstTurnStepsNot { seat: Seat },
    /// A step from the edge towards a dot.
    #[error("a piece never moves onto a dot ({dot})")]
    StepOntoDot { dot: Dot },
    #[error("the push would move a piece off the board")]
    PushOffBoard,
    #[error("{spot} is not next to {dot}: a piece enters from a dot onto the adjacent spot")]
    EntryNotAdjacent { dot: Dot, spot: Spot },
    #[error("{to} is not next to {from}: a piece steps one spot along a line")]
    StepNotAdjacent { from: Spot, to: Spot },
    /// A typed move that ends on a dot.
    #[error("{dot} is a dot: no piece ever moves onto a dot")]
    OntoDot { dot: Dot },
    /// A pending removal decision not written before the entry; `options` are the choices.
    #[error(
        "{seat} must first decide which of his rows to remove, written before his entry (`x<spots>;<entry>`): {}",
        removals(options)
    )]
    DecideRemovalFirst { seat: Seat, options: Vec<SpotSet> },
    #[error(
        "x{removal} is not one of {seat}'s removal choices: {}",
        removals(options)
    )]
    NotARemovalChoice {
        removal: SpotSet,
        seat: Seat,
        options: Vec<SpotSet>,
    },
    #[error("{seat} has no rows of his own to remove before his entry")]
    NothingToRemoveFirst { seat: Seat },
    #[error("after this removal the game goes on: add the entry (`x…;e1-e2`)")]
    EntryMissing,
    /// A written removal after a move that forms no row of the mover's.
    #[error(
        "x{removal} is not a removal this move allows; this move forms no row of yours to remove"
    )]
    NoRowToRemove { removal: SpotSet },
    /// A written removal that is none of the move's; `choices` are the moves it allows, in
    /// notation.
    #[error(
        "x{removal} is not a removal this move allows; the removal choices are: {}",
        choices.join(", ")
    )]
    NotAllowedRemoval {
        removal: SpotSet,
        choices: Vec<String>,
    },
    /// A move that forms rows with a choice, written without the removal; `choices` are the
    /// moves it allows, in notation.
    #[error(
        "this move forms rows of yours with a choice; say which spots you remove: {}",
        choices.join(", ")
    )]
    RemovalNeeded { choices: Vec<String> },
}

fn removals(options: &[SpotSet]) -> String {
    let words: Vec<String> = options.iter().map(|s| format!("x{s}")).collect();
    words.join(" or ")
}

/// Why a hand-made GIPF position ([`super::GipfPosition::from_setup`] and the position text)
/// cannot stand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{spot} is given two pieces")]
    TwoPieces { spot: Spot },
    #[error(
        "{seat} has {owned} units on the board and in reserve, more than the {total} the variant gives him"
    )]
    TooMuchMaterial { seat: Seat, owned: u32, total: u32 },
    #[error("{seat} has a row of four on the board; it would have been taken")]
    RowOfFour { seat: Seat },
    /// A line given as settled, named by its first spot, holds no row of four.
    #[error("the line {line} is given as settled, but no row of four stands on it")]
    SettledWithoutRow { line: Spot },
    /// A pending removal for `seat`, who has no row of four on the board.
    #[error(
        "a pending removal needs rows of {seat} with a choice among them; there is no such row"
    )]
    PendingWithoutRow { seat: Seat },
    /// A pending removal whose rows can be taken only one way (it would have been taken at
    /// once).
    #[error(
        "a pending removal needs rows of {seat} with a choice among them; these rows have only one way to be taken (it would have been taken at once)"
    )]
    PendingWithoutChoice { seat: Seat },
}
