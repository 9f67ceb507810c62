//! A stack of pieces on one square, packed into 16 bits.
use std::{fmt, str::FromStr};

use crate::Seat;

/// The tallest stack the encoding can hold (and so the largest `height_limit` a variant may set).
pub const MAX_HEIGHT: u8 = 15;

/// The most seats a stack can tell apart (two bits a piece).
pub const MAX_SEATS: usize = 4;

/// Every two-bit group set to 01.
const LOW_BITS: u32 = 0x5555_5555;

/// The pieces on one square, bottom → top, packed as a sentinel-terminated bit string: bits
/// `2i` and `2i + 1` hold the seat of the `i`-th piece from the bottom and a single 1 bit sits
/// just above the top piece. So the empty stack is `0b1`, a lone White (seat 0) piece `0b100`,
/// and `[White, Black, White]` (bottom → top) is `0b100_0100`. Height, top and splitting are
/// then a few bit operations, and every stack value is a distinct `u32`, which the Zobrist keys
/// rely on.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Stack(u32);

impl Stack {
    pub const EMPTY: Stack = Stack(1);

    /// A stack of one piece.
    pub const fn single(color: Seat) -> Stack {
        Stack(0b100 | color.index() as u32 & 3)
    }

    /// A stack of the given pieces, bottom → top; `None` if taller than [`MAX_HEIGHT`] or if a
    /// piece belongs to a seat a stack cannot hold ([`MAX_SEATS`] or more).
    pub fn from_pieces(pieces: impl IntoIterator<Item = Seat>) -> Option<Stack> {
        let mut bits: u32 = 0;
        let mut height: u32 = 0;
        for color in pieces {
            if height >= u32::from(MAX_HEIGHT) || color.index() >= MAX_SEATS {
                return None;
            }
            bits |= (color.index() as u32) << (2 * height);
            height += 1;
        }
        Some(Stack(bits | 1 << (2 * height)))
    }

    /// The packed value (sentinel bit included); distinct for distinct stacks.
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    #[inline]
    pub const fn height(self) -> u8 {
        ((31 - self.0.leading_zeros()) / 2) as u8
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 1
    }

    /// The owner of the top piece, who controls the stack.
    #[inline]
    pub const fn top(self) -> Option<Seat> {
        match self.height() {
            0 => None,
            h => Some(seat_of(self.0 >> (2 * (h as u32 - 1)))),
        }
    }

    /// The piece `level` places above the bottom (0 = bottom).
    pub fn piece(self, level: u8) -> Option<Seat> {
        (level < self.height()).then(|| seat_of(self.0 >> (2 * u32::from(level))))
    }

    /// The pieces bottom → top.
    pub fn pieces(self) -> impl Iterator<Item = Seat> + Clone {
        (0..self.height()).map(move |i| seat_of(self.0 >> (2 * u32::from(i))))
    }

    /// How many pieces of `color` the stack holds.
    #[inline]
    pub const fn count(self, color: Seat) -> u8 {
        let h = self.height();
        let mask = (1u32 << (2 * h as u32)) - 1;
        // Groups equal to `color` become 00; count the groups that are not.
        let x = (self.0 ^ (LOW_BITS * (color.index() as u32 & 3))) & mask;
        let differ = (x | x >> 1) & LOW_BITS & mask;
        h - differ.count_ones() as u8
    }

    /// Splits off the top `k` pieces (`1 <= k <= height`): `(what stays, what is lifted)`.
    #[inline]
    pub const fn split_top(self, k: u8) -> (Stack, Stack) {
        let stay = 2 * (self.height() - k) as u32;
        let below = self.0 & ((1 << stay) - 1);
        (Stack(below | 1 << stay), Stack(self.0 >> stay))
    }

    /// Puts `upper` on top of `self` and, if the result is taller than `limit`, takes pieces
    /// off the bottom until `limit` remain: `(resulting stack, the pieces that fell off,
    /// bottom → top)`. Needs `limit <= MAX_HEIGHT` and both stacks at most `limit` high.
    #[inline]
    pub const fn stack_under(self, upper: Stack, limit: u8) -> (Stack, Stack) {
        let h = self.height();
        // At most 2 × 15 pieces of two bits plus the sentinel: fits in u64.
        let combined =
            (upper.0 as u64) << (2 * h as u32) | (self.0 as u64 & ((1 << (2 * h as u32)) - 1));
        let total = h + upper.height();
        if total <= limit {
            (Stack(combined as u32), Stack::EMPTY)
        } else {
            let fall = 2 * (total - limit) as u32;
            let fallen = combined & ((1 << fall) - 1) | 1 << fall;
            (Stack((combined >> fall) as u32), Stack(fallen as u32))
        }
    }
}

#[inline]
const fn seat_of(bits: u32) -> Seat {
    Seat::at((bits & 3) as usize)
}

/// The piece letter used in two-seat set-ups, printouts and tests: `W` or `B`.
/// Seats 2 and 3 print as `C` and `D` where no seat letters are at hand (debug output); the
/// position text of a larger table uses the variant's letters.
pub const fn piece_letter(color: Seat) -> char {
    match color.index() {
        0 => 'W',
        1 => 'B',
        2 => 'C',
        _ => 'D',
    }
}

/// `WBW` (bottom → top); the empty stack prints as `.`.
impl fmt::Display for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str(".");
        }
        let text: String = self.pieces().map(piece_letter).collect();
        f.pad(&text)
    }
}

impl fmt::Debug for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Stack({self})")
    }
}

/// Why a text is not a stack.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadStack {
    #[error(
        "a stack is written bottom to top with `W` and `B`, like \"WBW\"; `{0}` is not a piece"
    )]
    BadPiece(char),
    #[error("a stack here holds at most {MAX_HEIGHT} pieces")]
    TooTall,
    #[error("a stack is written bottom to top with the seats' letters ({1}); `{0}` is not one")]
    NotASeat(char, String),
}

impl FromStr for Stack {
    type Err = BadStack;

    /// Reads `WBW` (bottom → top, case-insensitive); `""` and `"."` are the empty stack.
    fn from_str(text: &str) -> Result<Stack, BadStack> {
        if text == "." {
            return Ok(Stack::EMPTY);
        }
        let pieces = text
            .chars()
            .map(|c| match c.to_ascii_uppercase() {
                'W' => Ok(Seat::WHITE),
                'B' => Ok(Seat::BLACK),
                _ => Err(BadStack::BadPiece(c)),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Stack::from_pieces(pieces).ok_or(BadStack::TooTall)
    }
}

impl Stack {
    /// The stack written bottom → top with `letters[i]` for seat `i`'s pieces (`.` when empty);
    /// seats without a letter fall back to [`piece_letter`].
    pub fn to_text_with(self, letters: &[char]) -> String {
        if self.is_empty() {
            return ".".to_owned();
        }
        self.pieces()
            .map(|s| letters.get(s.index()).copied().unwrap_or(piece_letter(s)))
            .collect()
    }

    /// Reads a stack written bottom → top with `letters[i]` for seat `i` (case-insensitive);
    /// `""` and `"."` are the empty stack. With the letters `W` and `B` this is `str::parse`.
    pub fn parse_with(text: &str, letters: &[char]) -> Result<Stack, BadStack> {
        if letters == ['W', 'B'] {
            return text.parse();
        }
        if text == "." {
            return Ok(Stack::EMPTY);
        }
        let pieces = text
            .chars()
            .map(|c| {
                letters
                    .iter()
                    .position(|l| l.eq_ignore_ascii_case(&c))
                    .map(Seat::at)
                    .ok_or_else(|| BadStack::NotASeat(c, letters.iter().collect()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Stack::from_pieces(pieces).ok_or(BadStack::TooTall)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const B: Seat = Seat::BLACK;
    const W: Seat = Seat::WHITE;

    fn s(text: &str) -> Stack {
        text.parse().unwrap()
    }

    #[test]
    fn basics() {
        assert_eq!(Stack::EMPTY.height(), 0);
        assert_eq!(Stack::EMPTY.top(), None);
        assert_eq!(Stack::single(W), s("W"));
        let wbw = s("WBW");
        assert_eq!(wbw.height(), 3);
        assert_eq!(wbw.top(), Some(W));
        assert_eq!(wbw.pieces().collect::<Vec<_>>(), vec![W, B, W]);
        assert_eq!(wbw.count(W), 2);
        assert_eq!(wbw.count(B), 1);
        assert_eq!(wbw.piece(1), Some(B));
        assert_eq!(wbw.piece(3), None);
        assert_eq!(wbw.to_string(), "WBW");
        assert_eq!(Stack::EMPTY.to_string(), ".");
        assert_eq!(s("").to_string(), ".");
        assert_eq!(s("WWWWWWWWWWWWWWW").height(), 15);
        assert_eq!("WWWWWWWWWWWWWWWW".parse::<Stack>(), Err(BadStack::TooTall));
        assert_eq!("WX".parse::<Stack>(), Err(BadStack::BadPiece('X')));
    }

    #[test]
    fn four_seats() {
        let letters = ['G', 'R', 'B', 'Y'];
        let s4 = Stack::parse_with("GYRB", &letters).unwrap();
        assert_eq!(s4.height(), 4);
        assert_eq!(s4.top(), Some(Seat::at(2)));
        assert_eq!(s4.count(Seat::at(3)), 1);
        assert_eq!(s4.count(Seat::at(0)), 1);
        assert_eq!(s4.to_text_with(&letters), "GYRB");
        let (stay, lifted) = s4.split_top(3);
        assert_eq!(
            (stay.to_text_with(&letters), lifted.to_text_with(&letters)),
            ("G".into(), "YRB".into())
        );
        let (landed, fallen) = s4.stack_under(s4, 5);
        assert_eq!(landed.to_text_with(&letters), "BGYRB");
        assert_eq!(fallen.to_text_with(&letters), "GYR");
        assert!(matches!(
            Stack::parse_with("GX", &letters),
            Err(BadStack::NotASeat('X', _))
        ));
    }

    #[test]
    fn split_top() {
        assert_eq!(s("WBBWB").split_top(2), (s("WBB"), s("WB")));
        assert_eq!(s("WBBWB").split_top(5), (Stack::EMPTY, s("WBBWB")));
        assert_eq!(s("B").split_top(1), (Stack::EMPTY, s("B")));
    }

    #[test]
    fn stacking_and_overflow() {
        assert_eq!(
            Stack::EMPTY.stack_under(s("BW"), 5),
            (s("BW"), Stack::EMPTY)
        );
        assert_eq!(s("WB").stack_under(s("W"), 5), (s("WBW"), Stack::EMPTY));
        // F-4: [P1,P2,P1] onto [P2,P2,P1,P2]: seven pieces, the two P2 at the bottom fall off.
        assert_eq!(s("BBWB").stack_under(s("WBW"), 5), (s("WBWBW"), s("BB")));
        // The extreme: 15 onto 15 with limit 15.
        let full = s("WBWBWBWBWBWBWBW");
        let other = s("BBBBBBBBBBBBBBB");
        assert_eq!(full.stack_under(other, 15), (other, full));
    }
}
