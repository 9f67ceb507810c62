//! Squares and directions of rectangular boards up to 16×16.
use std::fmt;

use serde::Deserialize;

/// The largest board side the race family supports (files a–p, ranks 1–16).
pub const MAX_SIDE: u8 = 16;

/// A square of a board up to 16×16: file (0 = `a`) and rank (0 = `1`), independent of the board
/// size, so moves and effects can be shown without the rules at hand.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `file` and `rank` count from 0 and must be below 16.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_SIDE && rank < MAX_SIDE {
            Some(Square(file | rank << 4))
        } else {
            None
        }
    }

    /// The square's code, `file | rank << 4` (for packing it into a move).
    pub(crate) const fn code(self) -> u8 {
        self.0
    }

    /// The square of a [`Self::code`].
    pub(crate) const fn from_code(code: u8) -> Square {
        Square(code)
    }

    /// 0 = file `a`.
    pub const fn file(self) -> u8 {
        self.0 & 15
    }

    /// 0 = rank `1`.
    pub const fn rank(self) -> u8 {
        self.0 >> 4
    }

    /// The square `(dx, dy)` away, if it exists on a 16×16 grid.
    pub fn offset(self, dx: i8, dy: i8) -> Option<Square> {
        let f = self.file() as i8 + dx;
        let r = self.rank() as i8 + dy;
        if (0..MAX_SIDE as i8).contains(&f) && (0..MAX_SIDE as i8).contains(&r) {
            Square::new(f as u8, r as u8)
        } else {
            None
        }
    }

    /// Reads `a1` … `p16` (case-insensitive).
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let file = chars.next()?.to_ascii_lowercase();
        if !('a'..='p').contains(&file) {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if digits.starts_with('0') {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        if !(1..=MAX_SIDE).contains(&rank) {
            return None;
        }
        Square::new(file as u8 - b'a', rank - 1)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One of the eight compass directions; the index is used to store jump paths compactly.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Dir(u8);

impl Dir {
    /// N, NE, E, SE, S, SW, W, NW: the fixed order in which representative paths are chosen.
    const DELTAS: [(i8, i8); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];

    pub const ALL: [Dir; 8] = [
        Dir(0),
        Dir(1),
        Dir(2),
        Dir(3),
        Dir(4),
        Dir(5),
        Dir(6),
        Dir(7),
    ];

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn from_index(i: u8) -> Dir {
        Dir(i & 7)
    }

    pub const fn delta(self) -> (i8, i8) {
        Dir::DELTAS[self.0 as usize]
    }

    pub const fn is_diagonal(self) -> bool {
        self.0 & 1 == 1
    }

    /// The direction from `a` to `b` when `b` is exactly `dist` squares away along a line.
    pub fn between(a: Square, b: Square, dist: i8) -> Option<Dir> {
        let dx = b.file() as i8 - a.file() as i8;
        let dy = b.rank() as i8 - a.rank() as i8;
        Dir::ALL.into_iter().find(|d| {
            let (x, y) = d.delta();
            x * dist == dx && y * dist == dy
        })
    }
}

/// Which directions pieces step and jump in (the same set for both).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Deserialize)]
pub enum Directions {
    /// Up, down, left, right (Ugolki).
    Orthogonal,
    /// The four diagonals only.
    Diagonal,
    /// All eight (Halma).
    All,
}

impl Directions {
    pub fn contains(self, d: Dir) -> bool {
        match self {
            Directions::Orthogonal => !d.is_diagonal(),
            Directions::Diagonal => d.is_diagonal(),
            Directions::All => true,
        }
    }

    pub fn iter(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |d| self.contains(*d))
    }

    pub fn describe(self) -> &'static str {
        match self {
            Directions::Orthogonal => "orthogonally",
            Directions::Diagonal => "diagonally",
            Directions::All => "in any of the eight directions",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for f in 0..16 {
            for r in 0..16 {
                let s = Square::new(f, r).unwrap();
                assert_eq!(Square::parse(&s.to_string()), Some(s));
            }
        }
        assert_eq!(Square::parse("p16").unwrap().to_string(), "p16");
        for bad in ["", "a", "a0", "a17", "q1", "a01", "1a", "a1x", "ä1", "a-1"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
        assert_eq!(Square::parse("C3"), Square::new(2, 2));
    }

    #[test]
    fn directions_between_squares() {
        let a = Square::parse("e1").unwrap();
        assert_eq!(
            Dir::between(a, Square::parse("e3").unwrap(), 2),
            Some(Dir(0))
        );
        assert_eq!(
            Dir::between(a, Square::parse("c3").unwrap(), 2),
            Some(Dir(7))
        );
        assert_eq!(Dir::between(a, Square::parse("d3").unwrap(), 2), None);
    }
}
