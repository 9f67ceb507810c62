//! Moves and what playing them did.
use std::{fmt, hash::Hash};

use super::square::{Dir, Square};
use crate::Seat;

/// Hops a move can hold: a chain keeps the parity of file and rank, so on a 16×16 board it
/// visits at most 64 squares, i.e. makes at most 63 hops.
pub const MAX_HOPS: usize = 63;
pub(crate) const HOPS_PER_WORD: usize = 21;
/// Hops a chain of long hops can hold (direction and distance, 6 bits each, 10 to a word): a
/// chain keeps the parity of file and rank, and a parity class of the star has 30 cells.
pub const MAX_LONG_HOPS: usize = 30;
const LONG_HOPS_PER_WORD: usize = 10;
/// Set in `head` when the chain is stored as long hops.
const LONG: u64 = 1 << 40;

/// A move: a step or a jump chain of one piece from `from` to `to`.
///
/// Its identity is `(from, to)` — equality and hashing look at nothing else, because the rules
/// make a move legal when *some* legal path exists. It still carries one concrete path (every
/// landing) so a view can animate it hop by hop: generated moves carry a shortest path chosen
/// deterministically; a move read from text that spells a path keeps that path.
#[derive(Copy, Clone)]
pub struct RaceMove {
    /// The direction of each jump, 3 bits each, 21 per word.
    dirs: [u64; 3],
    /// `from`'s code, `to`'s code << 16, and the number of jumps (0 for a step) << 32: one
    /// word, so a move is built in registers and stored whole (byte fields were assembled on
    /// the stack and read back wider, which stalls every move the generator writes).
    head: u64,
}

impl RaceMove {
    /// A step (`hops` = 0) or a chain of `hops` jumps whose directions are already packed.
    #[inline]
    pub(crate) const fn new(from: Square, to: Square, hops: u8, dirs: [u64; 3]) -> RaceMove {
        RaceMove {
            dirs,
            head: from.code() as u64 | (to.code() as u64) << 16 | (hops as u64) << 32,
        }
    }

    #[inline]
    pub(crate) fn step(from: Square, to: Square) -> RaceMove {
        RaceMove::new(from, to, 0, [0; 3])
    }

    /// A chain of long hops from `from`: per hop its direction and the distance `k` (1 to 8)
    /// to the piece it hops over, landing `2k` cells away (at most [`MAX_LONG_HOPS`]).
    pub(crate) fn long_chain(from: Square, to: Square, hops: &[(Dir, u8)]) -> RaceMove {
        debug_assert!(!hops.is_empty() && hops.len() <= MAX_LONG_HOPS);
        let mut packed = [0u64; 3];
        for (i, (d, k)) in hops.iter().take(MAX_LONG_HOPS).enumerate() {
            let code = u64::from(d.index()) | u64::from(k.saturating_sub(1) & 7) << 3;
            packed[i / LONG_HOPS_PER_WORD] |= code << (6 * (i % LONG_HOPS_PER_WORD));
        }
        let mut mv = RaceMove::new(from, to, hops.len().min(MAX_LONG_HOPS) as u8, packed);
        mv.head |= LONG;
        mv
    }

    /// Hop `i`: its direction and the distance to the piece it hops over.
    fn hop(&self, i: usize) -> (Dir, i8) {
        if self.head & LONG == 0 {
            return (self.dir(i), 1);
        }
        let code = self.dirs[i / LONG_HOPS_PER_WORD] >> (6 * (i % LONG_HOPS_PER_WORD)) & 63;
        (Dir::from_index((code & 7) as u8), (code >> 3) as i8 + 1)
    }

    /// A chain from `from` jumping along `dirs` (one entry per hop, at most [`MAX_HOPS`]).
    pub(crate) fn chain(from: Square, to: Square, dirs: &[Dir]) -> RaceMove {
        debug_assert!(!dirs.is_empty() && dirs.len() <= MAX_HOPS);
        let mut packed = [0u64; 3];
        for (i, d) in dirs.iter().take(MAX_HOPS).enumerate() {
            packed[i / HOPS_PER_WORD] |= u64::from(d.index()) << (3 * (i % HOPS_PER_WORD));
        }
        RaceMove::new(from, to, dirs.len().min(MAX_HOPS) as u8, packed)
    }

    #[inline]
    pub fn from(&self) -> Square {
        Square::from_code(self.head as u16)
    }

    #[inline]
    pub fn to(&self) -> Square {
        Square::from_code((self.head >> 16) as u16)
    }

    #[inline]
    fn hops(&self) -> u8 {
        (self.head >> 32) as u8
    }

    pub fn is_step(&self) -> bool {
        self.hops() == 0
    }

    pub fn kind(&self) -> MoveKind {
        if self.is_step() {
            MoveKind::Step
        } else {
            MoveKind::Jump
        }
    }

    /// Number of jumps (0 for a step).
    pub fn hop_count(&self) -> usize {
        usize::from(self.hops())
    }

    fn dir(&self, i: usize) -> Dir {
        Dir::from_index((self.dirs[i / HOPS_PER_WORD] >> (3 * (i % HOPS_PER_WORD)) & 7) as u8)
    }

    /// The squares the piece stands on, from `from` through every landing to `to`.
    pub fn path(&self) -> Vec<Square> {
        if self.is_step() {
            return vec![self.from(), self.to()];
        }
        let mut path = Vec::with_capacity(self.hop_count() + 1);
        let mut cur = self.from();
        path.push(cur);
        for i in 0..self.hop_count() {
            let (d, k) = self.hop(i);
            let (dx, dy) = d.delta();
            match cur.offset(2 * k * dx, 2 * k * dy) {
                Some(next) => cur = next,
                None => break, // unreachable: chains are built from on-board squares
            }
            path.push(cur);
        }
        path
    }

    /// The squares jumped over, in order (empty for a step).
    pub fn jumped(&self) -> Vec<Square> {
        let mut out = Vec::with_capacity(self.hop_count());
        let mut cur = self.from();
        for i in 0..self.hop_count() {
            let (d, k) = self.hop(i);
            let (dx, dy) = d.delta();
            if let (Some(mid), Some(next)) = (
                cur.offset(k * dx, k * dy),
                cur.offset(2 * k * dx, 2 * k * dy),
            ) {
                out.push(mid);
                cur = next;
            }
        }
        out
    }
}

impl PartialEq for RaceMove {
    fn eq(&self, other: &Self) -> bool {
        self.head & 0xffff_ffff == other.head & 0xffff_ffff
    }
}

impl Eq for RaceMove {}

impl Hash for RaceMove {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.from(), self.to()).hash(state);
    }
}

/// Prints the notation of the carried path: `a3-a4`, `b3:d3:d5`.
impl fmt::Display for RaceMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_step() {
            return write!(f, "{}-{}", self.from(), self.to());
        }
        for (i, s) in self.path().iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for RaceMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RaceMove({self})")
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// To an adjacent empty square.
    Step,
    /// One or more jumps over adjacent pieces.
    Jump,
}

/// What a played move did: enough to animate it hop by hop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceEffect {
    /// The side that moved.
    pub side: Seat,
    pub kind: MoveKind,
    /// `from`, then every landing as played; the last square is the destination.
    pub path: Vec<Square>,
    /// For a chain, the square jumped over by each hop (nothing is captured).
    pub jumped: Vec<Square>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn identity_is_from_and_to_only() {
        let n = Dir::ALL[0];
        let e = Dir::ALL[2];
        let a = RaceMove::chain(sq("a1"), sq("c3"), &[n, e]);
        let b = RaceMove::chain(sq("a1"), sq("c3"), &[e, n]);
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "a1:a3:c3");
        assert_eq!(b.to_string(), "a1:c1:c3");
        assert_eq!(b.jumped(), vec![sq("b1"), sq("c2")]);
    }

    #[test]
    fn moves_stay_small() {
        assert!(std::mem::size_of::<RaceMove>() <= 32);
    }

    #[test]
    fn long_paths_survive_packing() {
        let dirs: Vec<Dir> = (0..MAX_HOPS)
            .map(|i| Dir::ALL[if i % 2 == 0 { 0 } else { 4 }])
            .collect();
        let m = RaceMove::chain(sq("a1"), sq("a3"), &dirs);
        let p = m.path();
        assert_eq!(p.len(), MAX_HOPS + 1);
        assert_eq!(p[MAX_HOPS], sq("a3"));
        assert_eq!(p[MAX_HOPS - 1], sq("a1"));
    }
}
