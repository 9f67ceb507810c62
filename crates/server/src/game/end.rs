//! How a game between accounts ends in the store: whether it is rated (the one place that
//! decides: a rated game that was not aborted), and the rule that rates it — Glicko-2 on the
//! winner for two seats, Weng-Lin on the places for more — which the store runs inside the
//! transaction that stores the end, on the seats' ratings (in the variant, for the game's
//! number of seats) as it locks them, and only at the game's first end.
use boardcraft_protocol::{EndCause, Placement, RatingChange, SeatResult, Side, side_of};

use crate::{
    ratings::{self, Placed},
    storage::{AccountEnd, Glicko, GlickoChange, GlickoChanges, RatingRule, Rerated, json_of},
};

/// The end of a game between accounts as the store takes it: `accounts` seat by seat, and the
/// `result` as it will be stored (aborted already if the game ended too early).
pub(crate) fn account_end(
    variant: &str,
    accounts: &[String],
    rated: bool,
    result: &SeatResult,
) -> AccountEnd {
    let seats = accounts.len();
    let rated = rated && result.cause != EndCause::Aborted;
    AccountEnd {
        variant: variant.to_owned(),
        seats: seats as u8,
        fresh: ratings::fresh(seats),
        accounts: accounts.to_vec(),
        rate: rated.then(|| match seats {
            2 => two_seats(result.winner().and_then(side_of)),
            _ => by_places(result.placements.clone()),
        }),
    }
}

/// How the end changed every seat's rating, as the game shows it, in seat order (`None`: not
/// rated, or the game had ended already).
pub(crate) fn shown(changes: Option<Vec<GlickoChange>>, seats: usize) -> Option<Vec<RatingChange>> {
    match changes.as_deref() {
        Some(&[white, black]) if seats == 2 => {
            let shown = GlickoChanges { white, black }.shown();
            Some(vec![shown.white, shown.black])
        }
        Some(changes) => Some(ratings::shown_changes(changes, seats as u8)),
        None => None,
    }
}

/// Glicko-2 ([`crate::ratings::rate`]) on White's and Black's ratings, in that order, for a
/// game `winner` won (`None`: a draw); the game's row keeps both changes.
fn two_seats(winner: Option<Side>) -> RatingRule {
    Box::new(move |seats: &[Glicko]| {
        let changes = crate::ratings::rate(seats[0], seats[1], winner);
        Rerated {
            after: vec![changes.white.after, changes.black.after],
            record: json_of(&changes),
        }
    })
}

/// Weng-Lin ([`crate::ratings::rate_places`]) on every seat's rating, in seat order, from its
/// place and team; the game's row keeps every seat's change, in seat order.
fn by_places(placements: Vec<Placement>) -> RatingRule {
    Box::new(move |seats: &[Glicko]| {
        let placed: Vec<Placed> = seats
            .iter()
            .zip(&placements)
            .map(|(&rating, p)| Placed {
                rating,
                place: p.place,
                team: p.team,
            })
            .collect();
        let changes = ratings::rate_places(&placed);
        Rerated {
            after: changes.iter().map(|c| c.after).collect(),
            record: json_of(&changes),
        }
    })
}

/// The decision and the rule against the real databases (a SQLite file; PostgreSQL when
/// `BOARDCRAFT_TEST_POSTGRES` is set): what the stores do with them, not a model of it.
#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use boardcraft_protocol::{
        GamePlayers, GameResult, PROVISIONAL_DEVIATION_SEATS, PlayerInfo, Rating,
    };
    use skillratings::{
        MultiTeamOutcome,
        weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team},
    };

    use super::*;
    use crate::{
        game::rules,
        ratings::rate,
        secrets,
        storage::{self, Account, AccountSeats, GameRecord, Storage},
    };

    const VARIANT: &str = "ugolki-9qum";

    async fn account(store: &dyn Storage) -> String {
        let id = secrets::game_id();
        store
            .create_account(Account {
                id: id.clone(),
                name: format!("p{id}"),
                password_hash: None,
                telegram_id: None,
                bot: false,
                created_ms: 1,
            })
            .await
            .unwrap();
        id
    }

    /// A game between two new accounts, stored.
    async fn game(store: &dyn Storage, rated: bool) -> (String, AccountSeats) {
        let player = |name: &str| PlayerInfo {
            name: name.into(),
            rating: None,
            bot: false,
            guest: true,
        };
        let seats = AccountSeats {
            accounts: vec![account(store).await, account(store).await],
            players: GamePlayers {
                white: player("w"),
                black: player("b"),
                rated,
            }
            .into(),
        };
        let id = secrets::game_id();
        store
            .create_game(GameRecord {
                id: id.clone(),
                variant: VARIANT.into(),
                variant_file: None,
                time_control: None,
                tokens: vec![secrets::seat_token(), secrets::seat_token()],
                creator: 0,
                invite: None,
                joined: vec![true, true],
                created_ms: 1,
                rematch_of: None,
                players: Some(seats.clone()),
            })
            .await
            .unwrap();
        (id, seats)
    }

    /// Ends the game as the game's task does (the decision, then the store).
    async fn end(
        store: &dyn Storage,
        (id, seats): &(String, AccountSeats),
        result: GameResult,
    ) -> Option<Vec<GlickoChange>> {
        let end = account_end(
            VARIANT,
            &seats.accounts,
            seats.rated(),
            &SeatResult::from_two_seats(&result),
        );
        store
            .finish_account_game(id.clone(), SeatResult::from_two_seats(&result), end)
            .await
            .unwrap()
    }

    async fn rating(store: &dyn Storage, account: &str) -> Option<Rating> {
        rating_for(store, account, VARIANT, 2).await
    }

    async fn rating_for(
        store: &dyn Storage,
        account: &str,
        variant: &str,
        seats: u8,
    ) -> Option<Rating> {
        let ratings = store.ratings(account.to_owned()).await.unwrap();
        ratings
            .into_iter()
            .find(|r| r.variant == variant && r.seats == seats)
    }

    async fn glicko(store: &dyn Storage, account: &str) -> Glicko {
        rating(store, account)
            .await
            .map(|r| Glicko {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            })
            .unwrap_or_default()
    }

    async fn ratings_of(store: &dyn Storage, seats: &AccountSeats) -> [Option<Rating>; 2] {
        [
            rating(store, &seats.accounts[0]).await,
            rating(store, &seats.accounts[1]).await,
        ]
    }

    async fn unrated_or_aborted_changes_nothing(store: &dyn Storage) {
        // A casual game, decided.
        let casual = game(store, false).await;
        assert!(
            end(store, &casual, rules::resignation(Side::Black))
                .await
                .is_none()
        );
        assert_eq!(ratings_of(store, &casual.1).await, [None, None]);
        let stored = store.load_game(casual.0.clone()).await.unwrap().unwrap();
        assert_eq!(
            stored.result,
            Some(SeatResult::from_two_seats(&rules::resignation(Side::Black)))
        );
        assert_eq!(stored.ratings, None);
        // A rated game, aborted.
        let aborted = game(store, true).await;
        assert!(end(store, &aborted, rules::aborted()).await.is_none());
        assert_eq!(ratings_of(store, &aborted.1).await, [None, None]);
        let stored = store.load_game(aborted.0.clone()).await.unwrap().unwrap();
        assert_eq!(
            stored.result,
            Some(SeatResult::from_two_seats(&rules::aborted()))
        );
        assert_eq!(stored.ratings, None);
    }

    async fn rated_once_as_glicko_says(store: &dyn Storage) {
        let first = game(store, true).await;
        let [white, black] = <[String; 2]>::try_from(first.1.accounts.clone()).unwrap();
        let expected = rate(Glicko::default(), Glicko::default(), Some(Side::White));
        let changes = end(store, &first, rules::resignation(Side::Black))
            .await
            .expect("rated");
        assert_eq!(changes, [expected.white, expected.black]);
        assert_eq!(glicko(store, &white).await, expected.white.after);
        assert_eq!(glicko(store, &black).await, expected.black.after);
        let stored = store.load_game(first.0.clone()).await.unwrap().unwrap();
        let shown = expected.shown();
        assert_eq!(stored.ratings, Some(vec![shown.white, shown.black]));
        // Finished again (another end reached the store too): neither stored nor rated.
        assert!(
            end(store, &first, rules::resignation(Side::White))
                .await
                .is_none()
        );
        let after = ratings_of(store, &first.1).await;
        assert_eq!(after[0].as_ref().map(|r| r.games), Some(1));
        assert_eq!(after[1].as_ref().map(|r| r.games), Some(1));
        assert_eq!(glicko(store, &white).await, expected.white.after);
        let stored = store.load_game(first.0.clone()).await.unwrap().unwrap();
        assert_eq!(
            stored.result,
            Some(SeatResult::from_two_seats(&rules::resignation(Side::Black)))
        );
        // A second game of the same players, colours swapped: rated from the ratings the
        // first left, a draw.
        let second = game(store, true).await;
        let second = (
            second.0,
            AccountSeats {
                accounts: vec![black.clone(), white.clone()],
                ..second.1
            },
        );
        let expected2 = rate(expected.black.after, expected.white.after, None);
        let changes = end(store, &second, rules::draw_agreed())
            .await
            .expect("rated");
        assert_eq!(changes, [expected2.white, expected2.black]);
        assert_eq!(glicko(store, &black).await, expected2.white.after);
        assert_eq!(glicko(store, &white).await, expected2.black.after);
        assert_eq!(rating(store, &white).await.map(|r| r.games), Some(2));
    }

    const MANY: &str = "chinese-checkers";

    /// Ends a game of `accounts.len()` seats with these places (and teams), as the game's
    /// task will: the decision, then the store. The game's row is a stored game of two of
    /// them (what the store checks is that the game has not ended yet).
    async fn end_places(
        store: &dyn Storage,
        accounts: &[String],
        places: &[u8],
        teams: Option<&[u8]>,
        cause: EndCause,
    ) -> Option<Vec<GlickoChange>> {
        let (id, _) = game(store, true).await;
        let mut placements = SeatResult::places(places);
        if let Some(teams) = teams {
            for (p, &t) in placements.iter_mut().zip(teams) {
                p.team = Some(t);
            }
        }
        let result = SeatResult {
            placements,
            cause,
            by: None,
            text: String::new(),
        };
        let two_seat = GameResult {
            winner: None,
            cause: result.cause.clone(),
            text: String::new(),
        };
        let mut end = account_end(VARIANT, accounts, true, &result);
        end.variant = MANY.into();
        store
            .finish_account_game(id, SeatResult::from_two_seats(&two_seat), end)
            .await
            .unwrap()
    }

    /// Weng-Lin's own computation on the stored ratings (its defaults times 60: β 250).
    fn weng_lin(before: &[Glicko], ranks: &[(Vec<usize>, usize)]) -> Vec<Glicko> {
        let teams: Vec<Vec<WengLinRating>> = ranks
            .iter()
            .map(|(seats, _)| {
                seats
                    .iter()
                    .map(|&i| WengLinRating {
                        rating: before[i].rating,
                        uncertainty: before[i].deviation,
                    })
                    .collect()
            })
            .collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(ranks)
            .map(|(t, (_, rank))| (&t[..], MultiTeamOutcome::new(*rank)))
            .collect();
        let config = WengLinConfig {
            beta: 250.0,
            ..WengLinConfig::new()
        };
        let mut after = before.to_vec();
        for ((seats, _), new) in ranks.iter().zip(weng_lin_multi_team(&ranked, &config)) {
            for (&i, r) in seats.iter().zip(new) {
                after[i] = Glicko {
                    rating: r.rating,
                    deviation: r.uncertainty,
                    volatility: 0.0,
                };
            }
        }
        after
    }

    async fn stored_for(store: &dyn Storage, accounts: &[String], seats: u8) -> Vec<Glicko> {
        let mut out = Vec::new();
        for a in accounts {
            let r = rating_for(store, a, MANY, seats)
                .await
                .expect("a rating for the seats");
            out.push(Glicko {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            });
        }
        out
    }

    async fn rated_by_places_as_weng_lin_says(store: &dyn Storage) {
        let three = vec![
            account(store).await,
            account(store).await,
            account(store).await,
        ];
        let fresh = vec![
            Glicko {
                rating: 1500.0,
                deviation: 500.0,
                volatility: 0.0,
            };
            3
        ];
        // Seat 1 first, seat 0 second, seat 2 third.
        let changes = end_places(store, &three, &[2, 1, 3], None, filled())
            .await
            .expect("rated");
        let expected = weng_lin(&fresh, &[(vec![0], 2), (vec![1], 1), (vec![2], 3)]);
        assert_eq!(
            changes.iter().map(|c| c.after).collect::<Vec<_>>(),
            expected
        );
        assert_eq!(changes.iter().map(|c| c.before).collect::<Vec<_>>(), fresh);
        assert_eq!(stored_for(store, &three, 3).await, expected);
        // Kept apart from the two-seat ratings of the variant, and of the other counts.
        for a in &three {
            assert_eq!(rating_for(store, a, MANY, 2).await, None);
            assert_eq!(
                rating_for(store, a, MANY, 3).await.map(|r| r.games),
                Some(1)
            );
        }
        // A second game from the ratings the first left: seats 0 and 2 share first place.
        let changes = end_places(store, &three, &[1, 3, 1], None, EndCause::DrawAgreed)
            .await
            .expect("rated");
        let expected2 = weng_lin(&expected, &[(vec![0], 1), (vec![1], 3), (vec![2], 1)]);
        assert_eq!(
            changes.iter().map(|c| c.after).collect::<Vec<_>>(),
            expected2
        );
        assert_eq!(stored_for(store, &three, 3).await, expected2);
        assert!(expected2[1].rating < expected[1].rating);
        // Aborted: nothing changes.
        assert!(
            end_places(store, &three, &[1, 1, 1], None, EndCause::Aborted)
                .await
                .is_none()
        );
        assert_eq!(stored_for(store, &three, 3).await, expected2);

        // Four seats, partners 0 and 2 against 1 and 3: rated as two teams, under four seats.
        let four = vec![
            three[0].clone(),
            account(store).await,
            three[2].clone(),
            account(store).await,
        ];
        let teams = [0, 1, 0, 1];
        let changes = end_places(store, &four, &[3, 1, 3, 1], Some(&teams), filled())
            .await
            .expect("rated");
        let fresh4 = vec![fresh[0]; 4];
        let expected4 = weng_lin(&fresh4, &[(vec![0, 2], 2), (vec![1, 3], 1)]);
        assert_eq!(
            changes.iter().map(|c| c.after).collect::<Vec<_>>(),
            expected4
        );
        assert_eq!(stored_for(store, &four, 4).await, expected4);
        assert_eq!(expected4[1], expected4[3]);
        // The three-seat ratings of the same players did not move.
        assert_eq!(stored_for(store, &three, 3).await, expected2);

        // The leaderboards are per number of seats: established players only.
        let rounds = [[2, 1, 3], [1, 3, 2], [3, 2, 1]];
        let mut games = 0;
        while stored_for(store, &three, 3).await[1].deviation > PROVISIONAL_DEVIATION_SEATS {
            end_places(store, &three, &rounds[games % 3], None, filled()).await;
            games += 1;
            assert!(
                games < 30,
                "the deviation falls below 250 in some ten games"
            );
        }
        let board = store.leaderboard(MANY.into(), 3, 50).await.unwrap();
        let names: Vec<&str> = board.iter().map(|r| r.account.id.as_str()).collect();
        assert!(names.contains(&three[1].as_str()), "{names:?}");
        assert!(board.iter().all(|r| r.rating.seats == 3));
        assert!(
            board
                .iter()
                .all(|r| r.rating.deviation <= PROVISIONAL_DEVIATION_SEATS)
        );
        let four_board = store.leaderboard(MANY.into(), 4, 50).await.unwrap();
        assert!(four_board.iter().all(|r| !four.contains(&r.account.id)));
        let two_board = store.leaderboard(MANY.into(), 2, 50).await.unwrap();
        assert!(two_board.iter().all(|r| !three.contains(&r.account.id)));
    }

    fn filled() -> EndCause {
        EndCause::Rules {
            rule: "target_filled".into(),
        }
    }

    async fn both(store: Arc<dyn Storage>) {
        unrated_or_aborted_changes_nothing(store.as_ref()).await;
        rated_once_as_glicko_says(store.as_ref()).await;
        rated_by_places_as_weng_lin_says(store.as_ref()).await;
    }

    #[tokio::test]
    async fn sqlite_rates_once_as_the_game_decides() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        both(storage::open(&path.display().to_string()).await.unwrap()).await;
    }

    #[tokio::test]
    async fn postgres_rates_once_as_the_game_decides() {
        let url = match std::env::var("BOARDCRAFT_TEST_POSTGRES") {
            Ok(url) if !url.is_empty() => url,
            // Skipped without a database, except under CI (as the online tests).
            _ if std::env::var_os("CI").is_some() => {
                panic!("CI is set but BOARDCRAFT_TEST_POSTGRES is not")
            }
            _ => return,
        };
        both(storage::open(&url).await.unwrap()).await;
    }
}
