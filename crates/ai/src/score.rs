//! Search scores: evaluation units from the side to move's point of view, with game-theoretic
//! wins and losses encoded by their distance so that the search prefers faster wins and slower
//! losses.
use std::fmt;

/// One "unit" of evaluation is a hundredth of the score shown to users (`+1.00` = 100). Family
/// evaluations are scaled so that 100 is roughly one move's worth of progress.
pub const UNIT: i32 = 100;

/// A won game at the root. A win found `n` plies from the root scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Scores above this (in absolute value) are proven results, not heuristic estimates.
pub const WIN_THRESHOLD: i32 = WIN - 10_000;
/// Larger than any score; the initial window.
pub const INFINITY: i32 = WIN + 1;

/// A search score from the point of view of the side to move in the analysed position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub i32);

impl Score {
    /// A proven win (positive) or loss (negative).
    pub fn is_decisive(self) -> bool {
        self.0.abs() >= WIN_THRESHOLD
    }

    /// Plies to the end of a proven result: `Some(n)` wins in `n` plies, `Some(-n)` loses in `n`
    /// (a position already lost is `Some(0)`, with a negative score).
    pub fn plies_to_result(self) -> Option<i32> {
        if self.0 >= WIN_THRESHOLD {
            Some(WIN - self.0)
        } else if self.0 <= -WIN_THRESHOLD {
            Some(-(WIN + self.0))
        } else {
            None
        }
    }

    /// The same score seen from the other side.
    pub fn flip(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    /// `+1.25` for a heuristic score, `win in 3` / `loss in 4` (plies) for proven ones.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_result() {
            Some(n) if self.0 > 0 => write!(f, "win in {n}"),
            Some(n) => write!(f, "loss in {}", -n),
            None => write!(
                f,
                "{}{}.{:02}",
                if self.0 < 0 { "-" } else { "+" },
                self.0.abs() / UNIT,
                self.0.abs() % UNIT
            ),
        }
    }
}

/// Converts a score relative to the root into one relative to a node `ply` plies deep, for the
/// transposition table (mate distances must not depend on where the position was met).
pub(crate) fn to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= WIN_THRESHOLD {
        score + ply
    } else if score <= -WIN_THRESHOLD {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
pub(crate) fn from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= WIN_THRESHOLD {
        score - ply
    } else if score <= -WIN_THRESHOLD {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_distances() {
        assert_eq!(Score(125).to_string(), "+1.25");
        assert_eq!(Score(-7).to_string(), "-0.07");
        assert_eq!(Score(WIN - 3).to_string(), "win in 3");
        assert_eq!(Score(-(WIN - 4)).to_string(), "loss in 4");
        assert_eq!(Score(WIN - 3).plies_to_result(), Some(3));
        assert_eq!(Score(-WIN).to_string(), "loss in 0");
        assert!(!Score(5000).is_decisive());
    }

    #[test]
    fn tt_conversion_round_trips() {
        for s in [0, 123, -456, WIN - 5, -(WIN - 7)] {
            for ply in [0, 1, 9] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        // A win 5 plies from the root seen at ply 2 is a win in 3 from that node.
        assert_eq!(to_tt(WIN - 5, 2), WIN - 3);
    }
}
