//! What a played move did, in the detail the app animates: the entry (or step), every pushed
//! piece, and each removal step with every removed piece and where it went.
use super::{
    geometry::{Dot, Spot},
    piece::Piece,
};
use crate::{Outcome, Seat};

/// Where a removed piece goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Back to its owner's reserve (an own GIPF-piece as two basic pieces, or as a GIPF-piece in
    /// the seed variant).
    OwnersReserve,
    /// Out of the game, captured by the player taking the row.
    Captured,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RemovedPiece {
    pub spot: Spot,
    pub piece: Piece,
    pub to: Destination,
}

/// One row taken: all spots of its run (the row of four or more and its extension) in line
/// order, the pieces removed, and the GIPF-pieces the taker chose to keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemovedRow {
    pub run: Vec<Spot>,
    pub removed: Vec<RemovedPiece>,
    pub kept: Vec<Spot>,
}

/// The rows one player took in one removal step, in the order taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemovalStep {
    pub by: Seat,
    pub rows: Vec<RemovedRow>,
}

/// A pushed piece moving one spot.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shift {
    pub from: Spot,
    pub to: Spot,
    pub piece: Piece,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ActionEffect {
    /// A piece from the reserve, put on `dot` and pushed onto `spot`.
    Entry { dot: Dot, spot: Spot, piece: Piece },
    /// Seed variant: an own piece stepping one spot.
    Step { from: Spot, to: Spot, piece: Piece },
}

/// Everything a move did, in order: the mover's pending removal decision (if any), his action
/// with the pushes it caused, the removal steps (the mover's, then the opponent's when it was
/// forced), and what is left for the opponent to decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GipfEffect {
    pub mover: Seat,
    pub pre_removal: Option<RemovalStep>,
    pub action: Option<ActionEffect>,
    /// Pieces pushed by the action, from the far end of the run backwards (the order in which
    /// they can be moved without two pieces sharing a spot).
    pub shifts: Vec<Shift>,
    pub removals: Vec<RemovalStep>,
    /// The opponent has rows of his colour to take and a choice to make: he does so as the first
    /// part of his next move.
    pub pending_for: Option<Seat>,
    pub outcome: Option<Outcome>,
}
