//! Pieces and the one-byte cell code the board stores.
use std::fmt;

use crate::Seat;

/// A basic piece, or a GIPF-piece (two basic pieces stacked; one piece on the board and in
/// rows, two pieces' worth of material).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    Basic,
    Gipf,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Seat,
    pub kind: PieceKind,
}

impl Piece {
    pub const fn new(color: Seat, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Material in basic-piece units: a GIPF-piece is two basic pieces.
    pub const fn units(self) -> u32 {
        match self.kind {
            PieceKind::Basic => 1,
            PieceKind::Gipf => 2,
        }
    }

    /// The board's cell code: 1 White, 2 White GIPF, 3 Black, 4 Black GIPF (0 = empty).
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + 2 * (self.color.index() as u8) + (self.kind as u8)
    }

    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        let color = match code {
            1 | 2 => Seat::WHITE,
            3 | 4 => Seat::BLACK,
            _ => return None,
        };
        let kind = if code.is_multiple_of(2) {
            PieceKind::Gipf
        } else {
            PieceKind::Basic
        };
        Some(Piece { color, kind })
    }

    /// One-letter symbol of the printout: `o` / `O` White, `x` / `X` Black (capital = GIPF).
    pub const fn symbol(self) -> char {
        match (self.color, self.kind) {
            (Seat::WHITE, PieceKind::Basic) => 'o',
            (Seat::WHITE, PieceKind::Gipf) => 'O',
            (_, PieceKind::Basic) => 'x',
            (_, PieceKind::Gipf) => 'X',
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            PieceKind::Basic => write!(f, "{} piece", self.color),
            PieceKind::Gipf => write!(f, "{} GIPF-piece", self.color),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for color in Seat::BOTH {
            for kind in [PieceKind::Basic, PieceKind::Gipf] {
                let p = Piece::new(color, kind);
                assert_eq!(Piece::from_code(p.code()), Some(p));
                assert_ne!(p.code(), 0);
            }
        }
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::from_code(5), None);
    }
}
