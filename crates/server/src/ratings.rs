//! Ratings per variant and number of seats (the `skillratings` crate):
//!
//! - two seats: Glicko-2, its default configuration ([`rate`]): a rating as kept
//!   ([`Glicko`]), how a rated game changed both ([`GlickoChanges`]);
//! - three seats or more: Weng-Lin (OpenSkill's Bradley-Terry model, [`rate_places`]) from
//!   every seat's place, partners as teams. Its numbers are kept in the same three columns
//!   as Glicko-2's: μ as the rating, σ as the deviation, no volatility (0). The model runs on
//!   Glicko's scale: Weng-Lin's defaults (μ 25, σ 25/3, β 25/6) times [`WENG_LIN_SCALE`]
//!   (1500, 500, 250). The model is the same at any scale (its updates are linear in μ, σ
//!   and β together, and its tolerance is a factor), so these are the defaults' ratings
//!   times 60, shown like Glicko's.
//!
//! The game service's rule (`game/end.rs`) calls them, and the stores run that rule inside the
//! transaction that records the result, so that two games of one player ending together are
//! rated one after the other.
//!
//! Provisional: a deviation above [`boardcraft_protocol::PROVISIONAL_DEVIATION`] (110) for two
//! seats, [`boardcraft_protocol::PROVISIONAL_DEVIATION_SEATS`] (250, half the start: some ten
//! games) for more — Weng-Lin's σ falls more slowly, and would stay above 110 for hundreds of
//! games. A rating period is one game; the deviation does not grow with time away.
use boardcraft_protocol::{Rating, RatingChanges, Side};
use skillratings::{
    MultiTeamOutcome, Outcomes,
    glicko2::{Glicko2Config, Glicko2Rating, glicko2},
    weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team},
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
                seats: 2,
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

/// Every seat's change as shown (rounded, provisional or not by the threshold of a game of
/// `seats` seats), in seat order.
pub fn shown_changes(
    changes: &[GlickoChange],
    seats: u8,
) -> Vec<boardcraft_protocol::RatingChange> {
    let short = |g: Glicko| {
        Rating {
            variant: String::new(),
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
            games: 0,
            seats,
        }
        .short()
    };
    changes
        .iter()
        .map(|c| boardcraft_protocol::RatingChange {
            before: short(c.before),
            after: short(c.after),
        })
        .collect()
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

/// Weng-Lin's defaults are multiplied by this, to read on Glicko's scale.
pub const WENG_LIN_SCALE: f64 = 60.0;
/// A new player's μ: 25 × 60.
pub const WENG_LIN_RATING: f64 = 1500.0;
/// A new player's σ: 25/3 × 60.
pub const WENG_LIN_DEVIATION: f64 = 500.0;
/// β, the skill-class width: 25/6 × 60.
pub const WENG_LIN_BETA: f64 = 250.0;

/// Weng-Lin's configuration on Glicko's scale: β 250, the default tolerance.
pub fn weng_lin_config() -> WengLinConfig {
    WengLinConfig {
        beta: WENG_LIN_BETA,
        ..WengLinConfig::new()
    }
}

/// A new player's rating in a game of `seats` seats: Glicko-2's for two, Weng-Lin's (1500,
/// 500) for more.
pub fn fresh(seats: usize) -> Glicko {
    if seats == 2 {
        return Glicko::default();
    }
    Glicko {
        rating: WENG_LIN_RATING,
        deviation: WENG_LIN_DEVIATION,
        volatility: 0.0,
    }
}

/// One seat of a game rated by its places: its rating now, its place (1 for first), and its
/// team (partners share one; `None`: the seat plays alone).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Placed {
    pub rating: Glicko,
    pub place: u8,
    pub team: Option<u8>,
}

/// Every seat's rating after a game of three seats or more, in the seats' order: Weng-Lin on
/// the places, each team (or seat alone) one side of the ranking.
pub fn rate_places(seats: &[Placed]) -> Vec<GlickoChange> {
    // The teams in order of their first seat, each with its seats' indices.
    let mut teams: Vec<(Option<u8>, Vec<usize>)> = Vec::new();
    for (i, seat) in seats.iter().enumerate() {
        match teams
            .iter_mut()
            .find(|(team, _)| team.is_some() && *team == seat.team)
        {
            Some((_, members)) => members.push(i),
            None => teams.push((seat.team, vec![i])),
        }
    }
    let ratings: Vec<Vec<WengLinRating>> = teams
        .iter()
        .map(|(_, members)| {
            members
                .iter()
                .map(|&i| WengLinRating {
                    rating: seats[i].rating.rating,
                    uncertainty: seats[i].rating.deviation,
                })
                .collect()
        })
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&ratings)
        .map(|((_, members), r)| {
            // A team's place is its best seat's (partners share one).
            let place = members.iter().map(|&i| seats[i].place).min().unwrap_or(1);
            (&r[..], MultiTeamOutcome::new(usize::from(place)))
        })
        .collect();
    let after = weng_lin_multi_team(&ranked, &weng_lin_config());
    let mut changes: Vec<GlickoChange> = seats
        .iter()
        .map(|s| GlickoChange {
            before: s.rating,
            after: s.rating,
        })
        .collect();
    for ((_, members), new) in teams.iter().zip(after) {
        for (&i, r) in members.iter().zip(new) {
            changes[i].after = Glicko {
                rating: r.rating,
                deviation: r.uncertainty,
                volatility: 0.0,
            };
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weng_lin_on_glickos_scale_is_the_defaults_times_60() {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(1.0);
        let (start, config) = (WengLinRating::new(), WengLinConfig::new());
        assert!(close(WENG_LIN_RATING, start.rating * WENG_LIN_SCALE));
        assert!(close(
            WENG_LIN_DEVIATION,
            start.uncertainty * WENG_LIN_SCALE
        ));
        assert!(close(WENG_LIN_BETA, config.beta * WENG_LIN_SCALE));
        let ratings = [
            (1400.0, 480.0),
            (1560.0, 300.0),
            (1500.0, 500.0),
            (1620.0, 120.0),
        ];
        let places = [3u8, 1, 2, 3];
        let placed: Vec<Placed> = ratings
            .iter()
            .zip(places)
            .map(|(&(rating, deviation), place)| Placed {
                rating: Glicko {
                    rating,
                    deviation,
                    volatility: 0.0,
                },
                place,
                team: None,
            })
            .collect();
        let scaled = rate_places(&placed);
        let unscaled: Vec<Vec<WengLinRating>> = ratings
            .iter()
            .map(|&(r, d)| {
                vec![WengLinRating {
                    rating: r / WENG_LIN_SCALE,
                    uncertainty: d / WENG_LIN_SCALE,
                }]
            })
            .collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = unscaled
            .iter()
            .zip(places)
            .map(|(r, p)| (&r[..], MultiTeamOutcome::new(p.into())))
            .collect();
        let defaults = weng_lin_multi_team(&ranked, &WengLinConfig::new());
        for (s, d) in scaled.iter().zip(&defaults) {
            assert!(
                close(s.after.rating, d[0].rating * WENG_LIN_SCALE),
                "{s:?} {d:?}"
            );
            assert!(
                close(s.after.deviation, d[0].uncertainty * WENG_LIN_SCALE),
                "{s:?} {d:?}"
            );
        }
        // First gains most, the two sharing last lose, every deviation shrinks.
        assert!(scaled[1].after.rating > scaled[1].before.rating);
        assert!(scaled[0].after.rating < scaled[0].before.rating);
        assert!(
            scaled
                .iter()
                .all(|c| c.after.deviation < c.before.deviation)
        );
    }

    #[test]
    fn partners_move_together() {
        let seat = |place, team| Placed {
            rating: fresh(4),
            place,
            team: Some(team),
        };
        let c = rate_places(&[seat(1, 0), seat(3, 1), seat(1, 0), seat(3, 1)]);
        assert_eq!(c[0].after, c[2].after);
        assert_eq!(c[1].after, c[3].after);
        assert!(c[0].after.rating > 1500.0 && c[1].after.rating < 1500.0);
    }

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
