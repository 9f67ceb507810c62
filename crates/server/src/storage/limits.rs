//! Limits shared by every node on one database: a count of events per key within a window,
//! taken atomically before the work it limits (reserve), and given back when the work turns
//! out not to count (release). The accounts use it for failed sign-ins per account, so that
//! parallel guesses, on one node or spread over several, are checked at most the limit's
//! number of times.
//!
//! One row per key: the window's end and the events counted in it. Reserving is one upsert
//! that either counts the event (a fresh window, or room left in the current one) or changes
//! nothing; both databases lock the row for the statement, so two reservations never both
//! take the last place. The statements are written once for both, with `$N` placeholders
//! (see [`super::sql`]).
use rusqlite::{OptionalExtension, params};

use super::{StoreError, StoreFuture, postgres::PostgresStore, sqlite::SqliteStore};

super::sql::statements! {
    /// Counts one event for `$1` if the window `$3` (now) .. `$2` (now + period) has room below
    /// `$4`: a window that has ended starts again at 1. Answers the window's end when counted.
    RESERVE = "INSERT INTO limit_windows (limit_key, until_ms, used) VALUES ($1, $2, 1)
        ON CONFLICT (limit_key) DO UPDATE SET
            used = CASE WHEN limit_windows.until_ms <= $3 THEN 1 ELSE limit_windows.used + 1 END,
            until_ms = CASE WHEN limit_windows.until_ms <= $3 THEN $2 ELSE limit_windows.until_ms END
        WHERE limit_windows.until_ms <= $3 OR limit_windows.used < $4
        RETURNING until_ms";
    /// Gives one event back, if its window (`$2`, the end [`RESERVE`] answered) still runs.
    RELEASE = "UPDATE limit_windows SET used = used - 1
        WHERE limit_key = $1 AND until_ms = $2 AND used > 0";
    /// Forgets the windows that ended before `$1`.
    PURGE = "DELETE FROM limit_windows WHERE until_ms <= $1";
    /// When a window of the key ends: the time to say in `Retry-After`.
    WINDOW_END = "SELECT until_ms FROM limit_windows WHERE limit_key = $1";
}

/// A reserved place in a window: give it to [`LimitStore::release`] if the event does not
/// count after all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reserved {
    pub key: String,
    pub until_ms: i64,
}

/// What a reservation found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reservation {
    Reserved(Reserved),
    /// The window is full until this time (ms since the epoch).
    Full {
        until_ms: i64,
    },
}

/// Limits over the shared database.
pub trait LimitStore: Send + Sync {
    /// Counts an event for `key` if fewer than `limit` were counted in its window (of
    /// `period_ms`, starting at the first event after the last window ended).
    fn reserve(
        &self,
        key: String,
        limit: u32,
        period_ms: i64,
        now_ms: i64,
    ) -> StoreFuture<'_, Reservation>;
    /// Gives a reserved event back.
    fn release(&self, reserved: Reserved) -> StoreFuture<'_, ()>;
    /// Deletes the windows that ended by `now_ms`.
    fn purge(&self, now_ms: i64) -> StoreFuture<'_, u64>;
}

fn backend(e: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(e.to_string())
}

impl LimitStore for SqliteStore {
    fn reserve(
        &self,
        key: String,
        limit: u32,
        period_ms: i64,
        now_ms: i64,
    ) -> StoreFuture<'_, Reservation> {
        Box::pin(self.with(move |c| {
            let until: Option<i64> = c
                .query_row(
                    RESERVE,
                    params![key, now_ms + period_ms, now_ms, limit],
                    |r| r.get(0),
                )
                .optional()
                .map_err(backend)?;
            match until {
                Some(until_ms) => Ok(Reservation::Reserved(Reserved {
                    key: key.clone(),
                    until_ms,
                })),
                None => {
                    let until_ms = c
                        .query_row(WINDOW_END, params![key], |r| r.get(0))
                        .map_err(backend)?;
                    Ok(Reservation::Full { until_ms })
                }
            }
        }))
    }

    fn release(&self, reserved: Reserved) -> StoreFuture<'_, ()> {
        Box::pin(self.with(move |c| {
            c.execute(RELEASE, params![reserved.key, reserved.until_ms])
                .map(|_| ())
                .map_err(backend)
        }))
    }

    fn purge(&self, now_ms: i64) -> StoreFuture<'_, u64> {
        Box::pin(self.with(move |c| {
            c.execute(PURGE, params![now_ms])
                .map(|n| n as u64)
                .map_err(backend)
        }))
    }
}

impl LimitStore for PostgresStore {
    fn reserve(
        &self,
        key: String,
        limit: u32,
        period_ms: i64,
        now_ms: i64,
    ) -> StoreFuture<'_, Reservation> {
        Box::pin(async move {
            let client = self.client();
            let limit = i32::try_from(limit).unwrap_or(i32::MAX);
            let row = client
                .query_opt(RESERVE, &[&key, &(now_ms + period_ms), &now_ms, &limit])
                .await
                .map_err(backend)?;
            match row {
                Some(row) => Ok(Reservation::Reserved(Reserved {
                    key,
                    until_ms: row.get(0),
                })),
                None => {
                    let row = client
                        .query_one(WINDOW_END, &[&key])
                        .await
                        .map_err(backend)?;
                    Ok(Reservation::Full {
                        until_ms: row.get(0),
                    })
                }
            }
        })
    }

    fn release(&self, reserved: Reserved) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            self.client()
                .execute(RELEASE, &[&reserved.key, &reserved.until_ms])
                .await
                .map(|_| ())
                .map_err(backend)
        })
    }

    fn purge(&self, now_ms: i64) -> StoreFuture<'_, u64> {
        Box::pin(async move {
            self.client()
                .execute(PURGE, &[&now_ms])
                .await
                .map_err(backend)
        })
    }
}
