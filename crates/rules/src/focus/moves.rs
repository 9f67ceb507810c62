//! Moves and what they do (the effect a view animates).
use super::square::Square;
use super::stack::Stack;
use crate::Seat;

/// A Focus turn: move the top `count` pieces of a controlled stack exactly `count` squares in a
/// straight orthogonal line, or drop one reserve piece on any square.
///
/// `count` always equals the distance from `from` to `to` in a legal move; it is stored so that
/// a move says how many pieces it lifts without a board at hand. Moves compare by all fields,
/// so a value with an inconsistent `count` is simply never legal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FocusMove {
    Move { from: Square, to: Square, count: u8 },
    Drop { to: Square },
}

impl FocusMove {
    /// The move from `from` to `to`, lifting as many pieces as the distance; `None` unless the
    /// squares share a rank or file.
    pub fn between(from: Square, to: Square) -> Option<FocusMove> {
        from.line_to(to)
            .map(|(_, count)| FocusMove::Move { from, to, count })
    }

    /// The square the pieces land on.
    pub fn to(self) -> Square {
        match self {
            FocusMove::Move { to, .. } | FocusMove::Drop { to } => to,
        }
    }
}

/// What a played move did, in the order a view would animate it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FocusEffect {
    /// The side that moved.
    pub mover: Seat,
    pub action: Action,
    /// The pieces that fell off the bottom of the landing stack because it grew taller than the
    /// height limit, bottom first (empty when nothing fell).
    pub overflow: Vec<Overflowed>,
    /// The stack on the landing square after the overflow.
    pub landed: Stack,
}

/// The movement part of an effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move {
        from: Square,
        to: Square,
        /// The lifted pieces, bottom → top (their count is the distance moved).
        lifted: Stack,
        /// The squares the lifted pieces travel over, in order, ending with `to` (passed-over
        /// squares do not matter to the rules; a view may animate along them).
        path: Vec<Square>,
        /// What stays on `from` (possibly empty); its top piece now controls it.
        left: Stack,
    },
    /// One piece of the mover's colour from the mover's reserve.
    Drop { to: Square },
}

/// One piece that fell off the bottom of an overgrown stack.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Overflowed {
    pub color: Seat,
    pub fate: Fate,
}

/// Where a fallen piece goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fate {
    /// The mover's own piece: back to the mover's reserve.
    MoverReserve,
    /// An opponent's piece: captured by the mover, out of the game.
    CapturedByMover,
}
