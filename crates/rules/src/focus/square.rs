//! Squares of a Focus board, named like chess squares (`a1` … `p16`).
use std::{fmt, str::FromStr};

/// The largest board side: files `a`…`p`, ranks `1`…`16`. A square then packs into one byte.
pub const MAX_SIDE: u8 = 16;

/// One square of the rectangle that holds the board: file in the low nibble, rank in the high
/// nibble, both from 0. Whether the square is *on the board* is the board mask's business
/// ([`crate::focus::Board::contains`]); a `Square` only names a cell of the 16×16 frame, so it
/// can be printed and parsed without a board at hand.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = `a`) and `rank` (0 = rank 1); `None` outside the 16×16 frame.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_SIDE && rank < MAX_SIDE {
            Some(Square(rank << 4 | file))
        } else {
            None
        }
    }

    /// 0 = file `a`.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 0x0f
    }

    /// 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 4
    }

    /// A dense index in `0..256`, for per-square tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square whose [`index`](Square::index) is `i` (`i < 256`).
    #[inline]
    pub const fn from_index(i: usize) -> Square {
        debug_assert!(i < 256);
        Square(i as u8)
    }

    /// The square `distance` steps away in `dir`, if that is still inside the 16×16 frame.
    pub fn offset(self, dir: Direction, distance: u8) -> Option<Square> {
        let (df, dr) = dir.delta();
        let file = i16::from(self.file()) + i16::from(df) * i16::from(distance);
        let rank = i16::from(self.rank()) + i16::from(dr) * i16::from(distance);
        let file = u8::try_from(file).ok()?;
        let rank = u8::try_from(rank).ok()?;
        Square::new(file, rank)
    }

    /// The direction and distance from `self` to `to` if they share a rank or file.
    pub fn line_to(self, to: Square) -> Option<(Direction, u8)> {
        let (f0, r0, f1, r1) = (self.file(), self.rank(), to.file(), to.rank());
        match (f0 == f1, r0 == r1) {
            (true, true) | (false, false) => None,
            (true, false) if r1 > r0 => Some((Direction::Up, r1 - r0)),
            (true, false) => Some((Direction::Down, r0 - r1)),
            (false, true) if f1 > f0 => Some((Direction::Right, f1 - f0)),
            (false, true) => Some((Direction::Left, f0 - f1)),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a square name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a square name (a file letter a–p and a rank 1–16, like `c3`)")]
pub struct BadSquareName {
    pub text: String,
}

impl FromStr for Square {
    type Err = BadSquareName;

    /// Reads `c3`, `p16` (upper-case file letters are accepted too).
    fn from_str(text: &str) -> Result<Square, BadSquareName> {
        let bad = || BadSquareName {
            text: text.to_owned(),
        };
        let mut chars = text.chars();
        let file = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        let digits = chars.as_str();
        if !file.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 2
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let rank: u8 = digits.parse().map_err(|_| bad())?;
        Square::new(file as u8 - b'a', rank - 1).ok_or_else(bad)
    }
}

/// The four orthogonal directions a stack may move in (Focus has no diagonal moves).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Up,
    Right,
    Down,
    Left,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Right,
        Direction::Down,
        Direction::Left,
    ];

    /// (file step, rank step).
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::Up => (0, 1),
            Direction::Right => (1, 0),
            Direction::Down => (0, -1),
            Direction::Left => (-1, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for rank in 0..MAX_SIDE {
            for file in 0..MAX_SIDE {
                let sq = Square::new(file, rank).unwrap();
                assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            }
        }
        assert_eq!("C3".parse::<Square>().unwrap().to_string(), "c3");
    }

    #[test]
    fn rejects_bad_names() {
        for bad in [
            "", "c", "3", "c0", "c03", "q1", "a17", "a-1", "ä1", "c3x", "a100",
        ] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn lines() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(sq("c3").line_to(sq("f3")), Some((Direction::Right, 3)));
        assert_eq!(sq("d3").line_to(sq("d1")), Some((Direction::Down, 2)));
        assert_eq!(sq("d3").line_to(sq("e4")), None);
        assert_eq!(sq("d3").line_to(sq("d3")), None);
        assert_eq!(sq("a1").offset(Direction::Left, 1), None);
        assert_eq!(sq("a1").offset(Direction::Up, 3), Some(sq("a4")));
    }
}
