//! The ratings check of `online lobby-load`: every rated game in the server's database is
//! rated again with skillratings' Glicko-2 (the server's own crate and configuration) from its
//! stored before-ratings and its result, and compared with its stored after-ratings; each
//! player's games in a variant must chain (a game's before-rating is the after-rating of the
//! player's previous game, the first one's is 1500 / 350 / 0.06) and end at the player's row of
//! the `ratings` table, whose game count must be the number of rated games.
//!
//! Reads SQLite (a file path or `sqlite://FILE`) or PostgreSQL (`postgres://…`) directly: the
//! archive over HTTP shows ratings rounded, the database keeps them in full.
use std::collections::HashMap;

use serde::Deserialize;
use skillratings::{
    Outcomes,
    glicko2::{Glicko2Config, Glicko2Rating, glicko2},
};

#[derive(Copy, Clone, Debug, PartialEq, Deserialize)]
struct Glicko {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

const START: Glicko = Glicko {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
};

#[derive(Copy, Clone, Debug, Deserialize)]
struct Change {
    before: Glicko,
    after: Glicko,
}

#[derive(Copy, Clone, Debug, Deserialize)]
struct Changes {
    white: Change,
    black: Change,
}

struct GameRow {
    id: String,
    variant: String,
    accounts: [String; 2],
    rated: bool,
    outcome: String,
    changes: Option<String>,
    ended_ms: i64,
}

/// One rated game of a player: when it ended, the rating before and after.
type Link = (i64, Glicko, Glicko);

struct RatingRow {
    account: String,
    variant: String,
    glicko: Glicko,
    games: i64,
}

const GAMES: &str = "SELECT id, variant, white_account, black_account, rated, outcome, rating_changes, \
     COALESCE(ended_ms, 0) FROM games \
     WHERE white_account IS NOT NULL AND black_account IS NOT NULL AND outcome IS NOT NULL";
const RATINGS: &str =
    "SELECT account, variant, rating, deviation, volatility, games FROM ratings WHERE seats = 2";

fn read_sqlite(path: &str) -> Result<(Vec<GameRow>, Vec<RatingRow>), String> {
    let path = path.strip_prefix("sqlite://").unwrap_or(path);
    let db =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| format!("cannot open {path}: {e}"))?;
    let e = |e: rusqlite::Error| format!("reading {path}: {e}");
    let mut games = Vec::new();
    let mut q = db.prepare(GAMES).map_err(e)?;
    let mut rows = q.query([]).map_err(e)?;
    while let Some(r) = rows.next().map_err(e)? {
        games.push(GameRow {
            id: r.get(0).map_err(e)?,
            variant: r.get(1).map_err(e)?,
            accounts: [r.get(2).map_err(e)?, r.get(3).map_err(e)?],
            rated: r.get(4).map_err(e)?,
            outcome: r.get(5).map_err(e)?,
            changes: r.get(6).map_err(e)?,
            ended_ms: r.get(7).map_err(e)?,
        });
    }
    let mut ratings = Vec::new();
    let mut q = db.prepare(RATINGS).map_err(e)?;
    let mut rows = q.query([]).map_err(e)?;
    while let Some(r) = rows.next().map_err(e)? {
        ratings.push(RatingRow {
            account: r.get(0).map_err(e)?,
            variant: r.get(1).map_err(e)?,
            glicko: Glicko {
                rating: r.get(2).map_err(e)?,
                deviation: r.get(3).map_err(e)?,
                volatility: r.get(4).map_err(e)?,
            },
            games: r.get(5).map_err(e)?,
        });
    }
    Ok((games, ratings))
}

async fn read_postgres(url: &str) -> Result<(Vec<GameRow>, Vec<RatingRow>), String> {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .map_err(|e| format!("cannot connect to PostgreSQL: {e}"))?;
    let conn = tokio::spawn(connection);
    let e = |e: tokio_postgres::Error| format!("reading PostgreSQL: {e}");
    let games = client
        .query(GAMES, &[])
        .await
        .map_err(e)?
        .into_iter()
        .map(|r| GameRow {
            id: r.get(0),
            variant: r.get(1),
            accounts: [r.get(2), r.get(3)],
            rated: r.get(4),
            outcome: r.get(5),
            changes: r.get(6),
            ended_ms: r.get(7),
        })
        .collect();
    let ratings = client
        .query(RATINGS, &[])
        .await
        .map_err(e)?
        .into_iter()
        .map(|r| RatingRow {
            account: r.get(0),
            variant: r.get(1),
            glicko: Glicko {
                rating: r.get(2),
                deviation: r.get(3),
                volatility: r.get(4),
            },
            games: r.get::<_, i32>(5) as i64,
        })
        .collect();
    drop(client);
    conn.abort();
    Ok((games, ratings))
}

/// The largest difference the check accepts in any of the three numbers. The server and this
/// check run the same crate on the same numbers (read exactly: serde_json's float_roundtrip),
/// so the differences are expected to be 0; the largest one seen is reported.
const TOLERANCE: f64 = 1e-9;

fn diff(a: Glicko, b: Glicko) -> f64 {
    (a.rating - b.rating)
        .abs()
        .max((a.deviation - b.deviation).abs())
        .max((a.volatility - b.volatility).abs())
}

fn close(a: Glicko, b: Glicko) -> bool {
    diff(a, b) <= TOLERANCE
}

fn rate(white: Glicko, black: Glicko, outcome: &str) -> Option<(Glicko, Glicko)> {
    let outcome = match outcome {
        "white" => Outcomes::WIN,
        "black" => Outcomes::LOSS,
        "draw" => Outcomes::DRAW,
        _ => return None,
    };
    let c = |g: Glicko| Glicko2Rating {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
    };
    let (w, b) = glicko2(&c(white), &c(black), &outcome, &Glicko2Config::default());
    let g = |r: Glicko2Rating| Glicko {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    Some((g(w), g(b)))
}

/// Runs the check on the database at `url`; prints its report; `Ok(true)` when it passed.
pub async fn check(url: &str) -> Result<bool, String> {
    let (games, ratings) = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        read_postgres(url).await?
    } else {
        let path = url.to_owned();
        tokio::task::spawn_blocking(move || read_sqlite(&path))
            .await
            .map_err(|e| e.to_string())??
    };
    let mut rated = 0u64;
    let mut mismatches = 0u64;
    let mut missing = 0u64;
    let mut unexpected = 0u64;
    let mut aborted = 0u64;
    let mut casual = 0u64;
    // The largest difference between a stored after-rating and its recomputation.
    let mut largest = 0f64;
    // (account, variant) → the player's (ended_ms, before, after) in rated games.
    let mut chains: HashMap<(String, String), Vec<Link>> = HashMap::new();
    for g in &games {
        let should_rate = g.rated && g.outcome != "aborted";
        if g.outcome == "aborted" {
            aborted += 1;
        } else if !g.rated {
            casual += 1;
        }
        let changes: Option<Changes> = match &g.changes {
            Some(text) => Some(
                serde_json::from_str(text)
                    .map_err(|e| format!("game {}: unreadable rating_changes {text}: {e}", g.id))?,
            ),
            None => None,
        };
        match (should_rate, changes) {
            (true, None) => {
                missing += 1;
                eprintln!("ratings check: rated game {} has no rating changes", g.id);
            }
            (false, Some(_)) => {
                unexpected += 1;
                eprintln!(
                    "ratings check: game {} ({}) has rating changes",
                    g.id, g.outcome
                );
            }
            (false, None) => {}
            (true, Some(c)) => {
                rated += 1;
                let recomputed = rate(c.white.before, c.black.before, &g.outcome);
                if let Some((w, b)) = recomputed {
                    largest = largest
                        .max(diff(w, c.white.after))
                        .max(diff(b, c.black.after));
                }
                match recomputed {
                    Some((w, b)) if close(w, c.white.after) && close(b, c.black.after) => {}
                    other => {
                        mismatches += 1;
                        eprintln!(
                            "ratings check: game {} ({}): stored {:?} / {:?}, recomputed {other:?}",
                            g.id, g.outcome, c.white, c.black
                        );
                    }
                }
                for (i, change) in [c.white, c.black].into_iter().enumerate() {
                    chains
                        .entry((g.accounts[i].clone(), g.variant.clone()))
                        .or_default()
                        .push((g.ended_ms, change.before, change.after));
                }
            }
        }
    }
    let rows: HashMap<(String, String), &RatingRow> = ratings
        .iter()
        .map(|r| ((r.account.clone(), r.variant.clone()), r))
        .collect();
    let mut chain_breaks = 0u64;
    let mut row_mismatches = 0u64;
    for (key, mut list) in chains.iter().map(|(k, v)| (k, v.clone())) {
        // Walk the games in the order they ended; games that ended in the same millisecond
        // may come in either order, so the next link is looked up among the rest.
        list.sort_by_key(|(ms, _, _)| *ms);
        let total = list.len() as i64;
        let mut current = START;
        while !list.is_empty() {
            match list
                .iter()
                .position(|(_, before, _)| close(*before, current))
            {
                Some(i) => current = list.remove(i).2,
                None => {
                    chain_breaks += list.len() as u64;
                    eprintln!(
                        "ratings check: {} in {}: no game starts from {current:?}; {} games left",
                        key.0,
                        key.1,
                        list.len()
                    );
                    break;
                }
            }
        }
        match rows.get(key) {
            Some(r) if close(r.glicko, current) && r.games == total => {}
            other => {
                row_mismatches += 1;
                eprintln!(
                    "ratings check: {} in {}: the ratings row {:?} is not the last game's {current:?} after {total} games",
                    key.0,
                    key.1,
                    other.map(|r| (r.glicko, r.games))
                );
            }
        }
    }
    // A ratings row without rated games.
    for (key, r) in &rows {
        if !chains.contains_key(key) && r.games > 0 {
            row_mismatches += 1;
            eprintln!(
                "ratings check: {} in {}: a ratings row of {} games and no rated game",
                key.0, key.1, r.games
            );
        }
    }
    outln!(
        "ratings check: {} finished account games ({rated} rated, {aborted} aborted, {casual} casual); \
         Glicko-2 recomputed with skillratings: {mismatches} mismatches (largest difference \
         {largest:e}); {missing} rated games without \
         changes, {unexpected} unrated games with changes; {} players' chains: {chain_breaks} breaks; \
         ratings rows: {row_mismatches} mismatches",
        games.len(),
        chains.len()
    );
    let ok = mismatches == 0
        && missing == 0
        && unexpected == 0
        && chain_breaks == 0
        && row_mismatches == 0;
    outln!(
        "{}",
        if ok {
            "ratings check passed"
        } else {
            "RATINGS CHECK FAILED"
        }
    );
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_between_new_players_is_symmetric() {
        let (w, b) = rate(START, START, "white").unwrap();
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!((w.rating - 1500.0 + b.rating - 1500.0).abs() < 1e-9);
        assert!(rate(START, START, "aborted").is_none());
    }
}
