//! Glicko-2 per variant (the `skillratings` crate, its default configuration): both players'
//! new ratings from their ratings now and the result. The stores call [`rate`] inside the
//! transaction that records the result, so that two games of one player ending together are
//! rated one after the other.
//!
//! Provisional: a deviation above [`boardcraft_protocol::PROVISIONAL_DEVIATION`] (110). A
//! rating period is one game; the deviation does not grow with time away.
use boardcraft_protocol::Side;
use skillratings::{
    Outcomes,
    glicko2::{Glicko2Config, Glicko2Rating, glicko2},
};

use crate::storage::{Glicko, GlickoChange, GlickoChanges};

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
