//! Seats at the table. The side to move is a seat; a game has 2 to [`Seat::MAX`] of them, in
//! turn order as the variant lists them. White and Black are the names of seats 0 and 1 in the
//! two-seat games (Player 1 and Player 2 in Halma and Focus), nothing more.
use std::fmt;

use serde::{Deserialize, Serialize};

/// One seat: its index in turn order, `0 … MAX - 1`.
///
/// Serialised as `White` and `Black` for seats 0 and 1 (so files and saves written when the
/// engine knew only two sides read unchanged) and as `Seat(n)` for the others.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "SeatName", into = "SeatName")]
pub struct Seat(u8);

impl Seat {
    /// The most seats a game can have.
    pub const MAX: usize = 6;
    /// Seat 0: White in the two-seat games.
    pub const WHITE: Seat = Seat(0);
    /// Seat 1: Black in the two-seat games.
    pub const BLACK: Seat = Seat(1);
    /// The two seats of a two-seat game.
    pub const BOTH: [Seat; 2] = [Seat::WHITE, Seat::BLACK];

    /// Seat `i`, if `i < MAX`.
    pub const fn new(i: usize) -> Option<Seat> {
        if i < Self::MAX {
            Some(Seat(i as u8))
        } else {
            None
        }
    }

    /// Seat `i`; panics if `i >= MAX` (for indices that come from a seat count).
    #[track_caller]
    pub const fn at(i: usize) -> Seat {
        match Self::new(i) {
            Some(s) => s,
            None => panic!("a game has at most six seats"),
        }
    }

    /// The first `n` seats, in turn order.
    pub fn all(n: usize) -> impl DoubleEndedIterator<Item = Seat> + ExactSizeIterator + Clone {
        (0..n.min(Self::MAX) as u8).map(Seat)
    }

    /// The seat after this one at a table of `n` seats.
    #[inline]
    pub const fn next(self, n: usize) -> Seat {
        if self.0 as usize + 1 >= n {
            Seat(0)
        } else {
            Seat(self.0 + 1)
        }
    }

    /// The other seat of a two-seat game (meaningless at a larger table).
    #[inline]
    pub const fn other(self) -> Seat {
        Seat(self.0 ^ 1)
    }

    /// The seat's index, for per-seat arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// "White" and "Black" for seats 0 and 1; "Seat 3" … for the others (variants name their
    /// seats themselves, see the race family's seat names).
    pub const fn name(self) -> &'static str {
        match self.0 {
            0 => "White",
            1 => "Black",
            2 => "Seat 3",
            3 => "Seat 4",
            4 => "Seat 5",
            _ => "Seat 6",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 | 1 => f.write_str(self.name()),
            n => write!(f, "Seat({n})"),
        }
    }
}

impl std::ops::Not for Seat {
    type Output = Seat;
    /// The other seat of a two-seat game.
    fn not(self) -> Seat {
        self.other()
    }
}

/// A seat with the name its variant gives it ("Red", "Player 1"), for messages that name the
/// seat as the game does; it displays as the name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NamedSeat {
    pub seat: Seat,
    pub name: String,
}

impl NamedSeat {
    pub fn new(seat: Seat, name: impl Into<String>) -> Self {
        NamedSeat {
            seat,
            name: name.into(),
        }
    }
}

impl fmt::Display for NamedSeat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// How a seat is written in files and saves.
#[derive(Serialize, Deserialize)]
enum SeatName {
    White,
    Black,
    Seat(u8),
}

impl From<SeatName> for Seat {
    fn from(name: SeatName) -> Seat {
        match name {
            SeatName::White => Seat::WHITE,
            SeatName::Black => Seat::BLACK,
            SeatName::Seat(n) => Seat(n.min(Seat::MAX as u8 - 1)),
        }
    }
}

impl From<Seat> for SeatName {
    fn from(seat: Seat) -> SeatName {
        match seat.0 {
            0 => SeatName::White,
            1 => SeatName::Black,
            n => SeatName::Seat(n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_zero_and_one_are_written_as_white_and_black_and_read_back() {
        for (seat, text) in [
            (Seat::WHITE, "White"),
            (Seat::BLACK, "Black"),
            (Seat::at(4), "Seat(4)"),
        ] {
            let written = ron::to_string(&seat).unwrap();
            assert_eq!(written, text);
            assert_eq!(ron::from_str::<Seat>(&written).unwrap(), seat);
        }
    }

    #[test]
    fn next_goes_round_the_table() {
        let order: Vec<usize> = std::iter::successors(Some(Seat::WHITE), |s| Some(s.next(3)))
            .take(7)
            .map(Seat::index)
            .collect();
        assert_eq!(order, [0, 1, 2, 0, 1, 2, 0]);
        assert_eq!(Seat::WHITE.next(2), Seat::BLACK);
        assert_eq!(Seat::BLACK.next(2), Seat::WHITE);
    }
}
