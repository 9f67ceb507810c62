//! How a game between accounts ends in the store: whether it is rated (the one place that
//! decides: a rated game that was not aborted), and the rule that rates it (Glicko-2 on the
//! result), which the store runs inside the transaction that stores the end, on the seats'
//! ratings as it locks them, and only at the game's first end.
use boardcraft_protocol::{EndCause, GameResult, RatingChanges, Side};

use crate::storage::{
    AccountEnd, AccountSeats, Glicko, GlickoChange, GlickoChanges, RatingRule, Rerated, json_of,
};

/// The end of a game between accounts as the store takes it (`result`: as it will be stored,
/// aborted already if the game ended too early).
pub(crate) fn account_end(variant: &str, seats: &AccountSeats, result: &GameResult) -> AccountEnd {
    let rated = seats.rated() && result.cause != EndCause::Aborted;
    AccountEnd {
        variant: variant.to_owned(),
        accounts: seats.accounts.to_vec(),
        rate: rated.then(|| two_seats(result.winner)),
    }
}

/// How the end changed both seats' ratings, as the game shows it (`None`: not rated, or the
/// game had ended already).
pub(crate) fn shown(changes: Option<Vec<GlickoChange>>) -> Option<RatingChanges> {
    match changes.as_deref() {
        Some(&[white, black]) => Some(GlickoChanges { white, black }.shown()),
        _ => None,
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

/// The decision and the rule against the real databases (a SQLite file; PostgreSQL when
/// `BOARDCRAFT_TEST_POSTGRES` is set): what the stores do with them, not a model of it.
#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use boardcraft_protocol::{GamePlayers, PlayerInfo, Rating};

    use super::*;
    use crate::{
        game::rules,
        ratings::rate,
        secrets,
        storage::{self, Account, GameRecord, Storage},
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
            accounts: [account(store).await, account(store).await],
            players: GamePlayers {
                white: player("w"),
                black: player("b"),
                rated,
            },
        };
        let id = secrets::game_id();
        store
            .create_game(GameRecord {
                id: id.clone(),
                variant: VARIANT.into(),
                variant_file: None,
                time_control: None,
                tokens: [secrets::seat_token(), secrets::seat_token()],
                creator: Side::White,
                invite: None,
                joined: true,
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
        let end = account_end(VARIANT, seats, &result);
        store
            .finish_account_game(id.clone(), result, end)
            .await
            .unwrap()
    }

    async fn rating(store: &dyn Storage, account: &str) -> Option<Rating> {
        let ratings = store.ratings(account.to_owned()).await.unwrap();
        ratings.into_iter().find(|r| r.variant == VARIANT)
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
        assert_eq!(stored.result, Some(rules::resignation(Side::Black)));
        assert_eq!(stored.ratings, None);
        // A rated game, aborted.
        let aborted = game(store, true).await;
        assert!(end(store, &aborted, rules::aborted()).await.is_none());
        assert_eq!(ratings_of(store, &aborted.1).await, [None, None]);
        let stored = store.load_game(aborted.0.clone()).await.unwrap().unwrap();
        assert_eq!(stored.result, Some(rules::aborted()));
        assert_eq!(stored.ratings, None);
    }

    async fn rated_once_as_glicko_says(store: &dyn Storage) {
        let first = game(store, true).await;
        let [white, black] = first.1.accounts.clone();
        let expected = rate(Glicko::default(), Glicko::default(), Some(Side::White));
        let changes = end(store, &first, rules::resignation(Side::Black))
            .await
            .expect("rated");
        assert_eq!(changes, [expected.white, expected.black]);
        assert_eq!(glicko(store, &white).await, expected.white.after);
        assert_eq!(glicko(store, &black).await, expected.black.after);
        let stored = store.load_game(first.0.clone()).await.unwrap().unwrap();
        assert_eq!(stored.ratings, Some(expected.shown()));
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
        assert_eq!(stored.result, Some(rules::resignation(Side::Black)));
        // A second game of the same players, colours swapped: rated from the ratings the
        // first left, a draw.
        let second = game(store, true).await;
        let second = (
            second.0,
            AccountSeats {
                accounts: [black.clone(), white.clone()],
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

    async fn both(store: Arc<dyn Storage>) {
        unrated_or_aborted_changes_nothing(store.as_ref()).await;
        rated_once_as_glicko_says(store.as_ref()).await;
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
