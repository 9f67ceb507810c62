//! The move value: an optional removal decision left over from the opponent's turn, the
//! action (an entry, or a one-spot step in the seed variant) and the mover's removal decision.
use std::fmt;

use super::{
    geometry::{Direction, Dot, Entry, Spot, geometry},
    piece::PieceKind,
};

/// A set of spots as a bit mask (bit `i` = spot `i`): what a removal step takes off the board.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SpotSet(pub u64);

impl SpotSet {
    pub const EMPTY: SpotSet = SpotSet(0);

    pub fn contains(self, s: Spot) -> bool {
        self.0 & s.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The spots in index order (column by column: b2 b3 … c2 …).
    pub fn iter(self) -> impl Iterator<Item = Spot> {
        Spot::iter_mask(self.0)
    }
}

impl FromIterator<Spot> for SpotSet {
    fn from_iter<T: IntoIterator<Item = Spot>>(iter: T) -> Self {
        SpotSet(iter.into_iter().fold(0, |m, s| m | s.bit()))
    }
}

/// Comma-separated spot names, as in the notation: `e2,e3,e4,e5`.
impl fmt::Display for SpotSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for SpotSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

/// What the mover does with the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A piece from the reserve put on the entry's dot and pushed onto its spot.
    /// `entry` indexes [`geometry().entries`](super::geometry::Geometry::entries).
    Entry { entry: u8, kind: PieceKind },
    /// Seed variant: an own piece moves one spot along a line, pushing what is in front.
    Step { from: Spot, dir: Direction },
}

impl Action {
    /// The entry's table row, for an entry.
    pub fn entry(self) -> Option<&'static Entry> {
        match self {
            Action::Entry { entry, .. } => Some(&geometry().entries[entry as usize]),
            Action::Step { .. } => None,
        }
    }

    /// `(dot, spot)` of an entry.
    pub fn entry_points(self) -> Option<(Dot, Spot)> {
        self.entry().map(|e| (e.dot, e.spot))
    }
}

/// A move of GIPF. Identity (and equality) is `(pre-removal, action, removal)`: two choices
/// that remove the same spots are one move, whatever the order of the rows.
///
/// Small and `Copy` (24 bytes): the removal decisions are spot masks.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct GipfMove {
    /// Bit 63: the move starts with a removal decision; bits 0…36: the spots it removes.
    pre: u64,
    /// The spots the mover's own removal step takes (forced ones included).
    post: u64,
    /// `None` only when the pre-removal decision already ends the game.
    action: Option<Action>,
}

const PRE_FLAG: u64 = 1 << 63;

impl GipfMove {
    pub(crate) fn new(pre: Option<SpotSet>, action: Option<Action>, post: SpotSet) -> GipfMove {
        GipfMove {
            pre: pre.map_or(0, |s| s.0 | PRE_FLAG),
            post: post.0,
            action,
        }
    }

    /// The removal decision the mover makes first, about his own rows left after the
    /// opponent's turn (A-G16), if he had one to make.
    pub fn pre_removal(&self) -> Option<SpotSet> {
        (self.pre & PRE_FLAG != 0).then_some(SpotSet(self.pre & !PRE_FLAG))
    }

    pub fn action(&self) -> Option<Action> {
        self.action
    }

    /// The spots the mover's removal step takes after his action (empty if no row formed).
    pub fn removal(&self) -> SpotSet {
        SpotSet(self.post)
    }
}

impl fmt::Debug for GipfMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(pre) = self.pre_removal() {
            write!(f, "x{pre};")?;
        }
        match self.action {
            Some(Action::Entry { entry, kind }) => {
                let e = &geometry().entries[entry as usize];
                let g = if kind == PieceKind::Gipf { "G" } else { "" };
                write!(f, "{g}{}-{}", e.dot, e.spot)?;
            }
            Some(Action::Step { from, dir }) => write!(f, "{from}{dir:?}")?,
            None => f.write_str("(no action)")?,
        }
        if self.post != 0 {
            write!(f, ";x{}", SpotSet(self.post))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_is_small_and_keeps_its_parts() {
        assert!(std::mem::size_of::<GipfMove>() <= 24);
        let e5 = Spot::from_name("e5").unwrap();
        let pre = SpotSet::from_iter([e5]);
        let a = Action::Step {
            from: e5,
            dir: Direction::N,
        };
        let m = GipfMove::new(Some(SpotSet::EMPTY), Some(a), pre);
        assert_eq!(m.pre_removal(), Some(SpotSet::EMPTY));
        assert_eq!(m.removal(), pre);
        assert_eq!(m.action(), Some(a));
        assert_ne!(m, GipfMove::new(None, Some(a), pre));
    }
}
