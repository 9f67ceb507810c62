//! Squares (cells) of boards up to 19×19, on a square grid or a hex grid in axial coordinates,
//! and the directions pieces move in.
use std::fmt;

use serde::Deserialize;

/// The largest board side the race family supports (files a–s, ranks 1–19): the Chinese
/// checkers star's 17×17 box and room around it.
pub const MAX_SIDE: u8 = 19;

/// The last file letter.
const LAST_FILE: char = (b'a' + MAX_SIDE - 1) as char;

/// A square (a cell) of a board up to 19×19: file (0 = `a`) and rank (0 = `1`), independent of
/// the board's size and shape, so moves and effects can be shown without the rules at hand. On
/// a hex grid the file and rank are the cell's axial coordinates (see `docs/rules.md`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// `file` and `rank` count from 0 and must be below [`MAX_SIDE`].
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_SIDE && rank < MAX_SIDE {
            Some(Square(file as u16 | (rank as u16) << 5))
        } else {
            None
        }
    }

    /// The square's code, `file | rank << 5` (for packing it into a move).
    pub(crate) const fn code(self) -> u16 {
        self.0
    }

    /// The square of a [`Self::code`].
    pub(crate) const fn from_code(code: u16) -> Square {
        Square(code)
    }

    /// 0 = file `a`.
    pub const fn file(self) -> u8 {
        (self.0 & 31) as u8
    }

    /// 0 = rank `1`.
    pub const fn rank(self) -> u8 {
        (self.0 >> 5) as u8
    }

    /// The square `(dx, dy)` away, if it exists on the largest grid.
    pub fn offset(self, dx: i8, dy: i8) -> Option<Square> {
        let f = self.file() as i8 + dx;
        let r = self.rank() as i8 + dy;
        if (0..MAX_SIDE as i8).contains(&f) && (0..MAX_SIDE as i8).contains(&r) {
            Square::new(f as u8, r as u8)
        } else {
            None
        }
    }

    /// Reads `a1` … `s19` (case-insensitive).
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let file = chars.next()?.to_ascii_lowercase();
        if !('a'..=LAST_FILE).contains(&file) {
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
    /// The six of a hex grid in axial coordinates (Chinese checkers): along the file, along
    /// the rank, and along the diagonal on which the file grows as the rank falls (`(+1, -1)`
    /// and `(-1, +1)`).
    Hex,
}

impl Directions {
    /// The fewest steps from `a` to `b` on an empty board moving in these directions.
    #[inline]
    pub fn distance(self, a: Square, b: Square) -> i32 {
        let dq = i32::from(a.file()) - i32::from(b.file());
        let dr = i32::from(a.rank()) - i32::from(b.rank());
        match self {
            Directions::Orthogonal => dq.abs() + dr.abs(),
            Directions::Diagonal | Directions::All => dq.abs().max(dr.abs()),
            // Axial coordinates whose diagonal neighbours are (+1, -1) and (-1, +1).
            Directions::Hex => dq.abs().max(dr.abs()).max((dq + dr).abs()),
        }
    }

    pub const fn contains(self, d: Dir) -> bool {
        match self {
            Directions::Orthogonal => !d.is_diagonal(),
            Directions::Diagonal => d.is_diagonal(),
            Directions::All => true,
            Directions::Hex => !d.is_diagonal() || d.index() == 3 || d.index() == 7,
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
            Directions::Hex => "in any of the six directions of the hex grid",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for f in 0..MAX_SIDE {
            for r in 0..MAX_SIDE {
                let s = Square::new(f, r).unwrap();
                assert_eq!(Square::parse(&s.to_string()), Some(s));
            }
        }
        assert_eq!(Square::parse("p16").unwrap().to_string(), "p16");
        assert_eq!(Square::parse("s19").unwrap().to_string(), "s19");
        for bad in ["", "a", "a0", "a20", "t1", "a01", "1a", "a1x", "ä1", "a-1"] {
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

    /// One step along any of a metric's directions is distance 1, and no square is nearer
    /// than the fewest steps a walk over the empty board needs.
    #[test]
    fn distance_counts_the_steps_of_each_metric() {
        let metrics = [
            Directions::Orthogonal,
            Directions::Diagonal,
            Directions::All,
            Directions::Hex,
        ];
        let centre = Square::new(8, 8).unwrap();
        for metric in metrics {
            let mut steps = [[u8::MAX; MAX_SIDE as usize]; MAX_SIDE as usize];
            steps[8][8] = 0;
            let mut frontier = vec![centre];
            let mut n = 0;
            while !frontier.is_empty() {
                n += 1;
                let mut next = Vec::new();
                for s in frontier {
                    for d in Dir::ALL.into_iter().filter(|&d| metric.contains(d)) {
                        let (dx, dy) = d.delta();
                        if let Some(t) = s.offset(dx, dy)
                            && steps[t.file() as usize][t.rank() as usize] == u8::MAX
                        {
                            steps[t.file() as usize][t.rank() as usize] = n;
                            next.push(t);
                        }
                    }
                }
                frontier = next;
            }
            for f in 0..MAX_SIDE {
                for r in 0..MAX_SIDE {
                    let s = Square::new(f, r).unwrap();
                    let walked = steps[f as usize][r as usize];
                    // The diagonal metric reaches only the squares of the centre's colour.
                    if walked == u8::MAX {
                        assert_eq!(metric, Directions::Diagonal, "{s} unreachable");
                        continue;
                    }
                    assert_eq!(
                        metric.distance(centre, s),
                        i32::from(walked),
                        "{metric:?} {s}"
                    );
                    assert_eq!(
                        metric.distance(s, centre),
                        i32::from(walked),
                        "{metric:?} {s}"
                    );
                }
            }
        }
    }
}
