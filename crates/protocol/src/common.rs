//! Small types every message uses.
use std::fmt;

use serde::{Deserialize, Serialize};

/// A side of the board: `"white"` moves first in most variants (Player 1 in Halma and Focus);
/// which side starts is the variant's rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    pub const fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The creator's colour when a game is created.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    White,
    Black,
    /// The server draws the colour (the default).
    #[default]
    Random,
}

/// A time control: each side starts with `initial_ms` and gains `increment_ms` after each of
/// its moves (Fischer increment). "5 min + 3 s" is `{"initial_ms": 300000, "increment_ms":
/// 3000}`. A game without one is untimed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControl {
    pub initial_ms: u64,
    #[serde(default)]
    pub increment_ms: u64,
}

impl TimeControl {
    /// `minutes` + `increment_secs`, e.g. `TimeControl::minutes(5, 3)` for 5 min + 3 s.
    pub const fn minutes(minutes: u64, increment_secs: u64) -> TimeControl {
        TimeControl {
            initial_ms: minutes * 60_000,
            increment_ms: increment_secs * 1000,
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |ms: u64| {
            if ms.is_multiple_of(1000) {
                format!("{}", ms / 1000)
            } else {
                format!("{:.1}", ms as f64 / 1000.0)
            }
        };
        if self.initial_ms.is_multiple_of(60_000) {
            write!(f, "{} min", self.initial_ms / 60_000)?;
        } else {
            write!(f, "{} s", secs(self.initial_ms))?;
        }
        write!(f, " + {} s", secs(self.increment_ms))
    }
}

/// The clocks at the moment of the event that carries them: each side's remaining time and the
/// side whose clock is running (none before the first move, after the game, or untimed). A
/// client counts the running side down locally from the moment it received the message.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Clocks {
    pub white_ms: u64,
    pub black_ms: u64,
    #[serde(default)]
    pub running: Option<Side>,
}

impl Clocks {
    pub fn remaining(&self, side: Side) -> u64 {
        match side {
            Side::White => self.white_ms,
            Side::Black => self.black_ms,
        }
    }

    pub fn remaining_mut(&mut self, side: Side) -> &mut u64 {
        match side {
            Side::White => &mut self.white_ms,
            Side::Black => &mut self.black_ms,
        }
    }
}

/// What a player may offer or request of the other.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    /// End the game as a draw (while it is on).
    Draw,
    /// Take back the requester's last move (and the opponent's reply to it, if any).
    Takeback,
    /// A new game with the same variant and time control and the colours swapped (after the
    /// game ended).
    Rematch,
}

impl OfferKind {
    pub const fn name(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
            OfferKind::Rematch => "rematch",
        }
    }
}

impl fmt::Display for OfferKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
