//! Glicko-2 per variant (the `skillratings` crate, its default configuration): a rating as
//! kept ([`Glicko`]), how a rated game changed both ([`GlickoChanges`]), and both players'
//! new ratings from their ratings now and the result. The game service's rule (`game/end.rs`)
//! calls [`rate`], and the stores run that rule inside the transaction that records the
//! result, so that two games of one player ending together are rated one after the other.
//!
//! Provisional: a deviation above [`boardcraft_protocol::PROVISIONAL_DEVIATION`] (110). A
//! rating period is one game; the deviation does not grow with time away.
use boardcraft_protocol::{Rating, RatingChanges, Side};
use skillratings::{
    Outcomes,
    glicko2::{Glicko2Config, Glicko2Rating, glicko2},
};

/// A rating as kept: Glicko-2's three numbers.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Glicko {
    /// A new player's: 1500, 350, 0.06 (Glicko-2's).
    fn default() -> Glicko {
        Glicko {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

/// One side's rating before and after a rated game, in full.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GlickoChange {
    pub before: Glicko,
    pub after: Glicko,
}

/// Both sides' (the `rating_changes` column's JSON).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GlickoChanges {
    pub white: GlickoChange,
    pub black: GlickoChange,
}

impl GlickoChanges {
    /// As shown: rounded, provisional or not.
    pub fn shown(&self) -> RatingChanges {
        let short = |g: Glicko| {
            Rating {
                variant: String::new(),
                rating: g.rating,
                deviation: g.deviation,
                volatility: g.volatility,
                games: 0,
            }
            .short()
        };
        let change = |c: GlickoChange| boardcraft_protocol::RatingChange {
            before: short(c.before),
            after: short(c.after),
        };
        RatingChanges {
            white: change(self.white),
            black: change(self.black),
        }
    }
}

fn to_crate(g: Glicko) -> Glicko2Rating {
    Glicko2Rating {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
    }
}

fn from_crate(g: Glicko2Rating) -> Glicko {
    Glicko {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
    }
}

/// White's and Black's ratings after a game `winner` won (`None`: a draw).
pub fn rate(white: Glicko, black: Glicko, winner: Option<Side>) -> GlickoChanges {
    let outcome = match winner {
        Some(Side::White) => Outcomes::WIN,
        Some(Side::Black) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (w, b) = glicko2(
        &to_crate(white),
        &to_crate(black),
        &outcome,
        &Glicko2Config::default(),
    );
    GlickoChanges {
        white: GlickoChange {
            before: white,
            after: from_crate(w),
        },
        black: GlickoChange {
            before: black,
            after: from_crate(b),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_moves_both_new_players_apart_symmetrically() {
        let c = rate(Glicko::default(), Glicko::default(), Some(Side::White));
        assert!(c.white.after.rating > 1500.0 && c.black.after.rating < 1500.0);
        assert!((c.white.after.rating - 1500.0 - (1500.0 - c.black.after.rating)).abs() < 1e-9);
        assert!(c.white.after.deviation < 350.0);
        let draw = rate(Glicko::default(), Glicko::default(), None);
        assert!((draw.white.after.rating - 1500.0).abs() < 1e-9);
    }
}
