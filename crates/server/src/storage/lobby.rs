//! The lobby's tables (crates/server/src/lobby): the same trait on SQLite and PostgreSQL, so
//! that several nodes on one PostgreSQL share one lobby. Everything that must not happen twice
//! is one atomic statement (or one SQLite transaction): a seek or a challenge is taken with a
//! `DELETE … RETURNING` (two accepters: one gets the row, the other nothing), a pair leaves a
//! pool only if both its players are still in it.
use std::sync::Arc;

use rusqlite::{OptionalExtension, params};

use super::{
    StoreError, StoreFuture, events::EventBus, postgres::PostgresStore, sql, sqlite::SqliteStore,
};

/// The pairing leader's lock (PostgreSQL, two-key form: apart from the games' locks); the
/// second key is the lobby's scope's (`LobbyStore::scope`).
pub const LEADER_LOCK: i32 = 1651470707;

/// The NOTIFY channel of the lobby's events.
pub const CHANNEL: &str = "boardcraft_lobby";

/// An open seek: its owner, and the protocol's `Seek` as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    pub id: String,
    pub account: String,
    pub created_ms: i64,
    pub body: String,
}

/// A player waiting in a quick-pairing pool (`pool`: `PoolKey::id`).
#[derive(Clone, Debug, PartialEq)]
pub struct PoolEntry {
    pub account: String,
    pub pool: String,
    pub rating: f64,
    pub joined_ms: i64,
}

/// A challenge: who to whom, and the protocol's `Challenge` as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    pub id: String,
    pub from: String,
    pub to: String,
    pub created_ms: i64,
    pub body: String,
}

/// Presence kinds.
pub const LOBBY: &str = "lobby";
pub const GAME: &str = "game";

/// The lobby's share of the database. Every method returns once its change is committed.
pub trait LobbyStore: Send + Sync {
    /// This node is alive now and runs `games` games (its heartbeat).
    fn node_beat(&self, node: String, now_ms: i64, games: i64) -> StoreFuture<'_, ()>;
    /// Nodes not heard from since `before_ms`.
    fn dead_nodes(&self, before_ms: i64) -> StoreFuture<'_, Vec<String>>;
    /// Forgets a node and its connections; the accounts that were in the lobby on it and are
    /// in the lobby on no node now.
    fn forget_node(&self, node: String) -> StoreFuture<'_, Vec<String>>;
    /// Marks `account` connected (or not) on `node` (`kind`: [`LOBBY`] or [`GAME`]).
    fn set_presence(
        &self,
        node: String,
        account: String,
        kind: &'static str,
        present: bool,
    ) -> StoreFuture<'_, ()>;
    /// Marks many accounts connected (`join`) and not (`leave`) on `node` at once, in one
    /// transaction (a heartbeat's changes of game presence).
    fn set_presences(
        &self,
        node: String,
        kind: &'static str,
        join: Vec<String>,
        leave: Vec<String>,
    ) -> StoreFuture<'_, ()>;
    /// Whether `account` has a lobby connection on a node other than `node` heard from after
    /// `alive_after_ms`.
    fn in_lobby_elsewhere(
        &self,
        node: String,
        account: String,
        alive_after_ms: i64,
    ) -> StoreFuture<'_, bool>;
    /// Players connected (lobby or game) and games running, on the nodes alive after
    /// `alive_after_ms`.
    fn counts(&self, alive_after_ms: i64) -> StoreFuture<'_, (u32, u32)>;

    /// What a node that died between a player's leaving and its consequences left undone:
    /// for every account with no lobby connection on any node, its seeks' grace starts (if
    /// it has not), it leaves its pool, and its challenges go. The pool's leavers and the
    /// challenges removed.
    fn sweep_absent(&self, now_ms: i64) -> StoreFuture<'_, (Vec<String>, Vec<ChallengeRow>)>;

    /// Stores a seek of `seats` seats unless its owner has `max` open already (`false` then).
    fn add_seek(&self, seek: SeekRow, seats: u8, max: u32) -> StoreFuture<'_, bool>;
    /// `account` takes a seat at the seek `id` (of more than two seats): the seats taken now
    /// and the seek's seats, or `None` (refused: no such seek, it is full, it is the
    /// account's own, or the account sits there already). One atomic statement: however many
    /// accept at once, at most the seek's seats are taken.
    fn take_seek_seat(
        &self,
        id: String,
        account: String,
        now_ms: i64,
    ) -> StoreFuture<'_, Option<(u8, u8)>>;
    /// `account` gives back its seat at the seek `id`: the seats taken now, or `None` (it had
    /// none there, or the seek is full and being started).
    fn leave_seek_seat(&self, id: String, account: String) -> StoreFuture<'_, Option<u8>>;
    /// Who took seats at the open seeks (their seekers aside): `(seek, account)`, in the order
    /// they sat down.
    fn seek_seats(&self) -> StoreFuture<'_, Vec<(String, String)>>;
    /// The open seeks, not full, where `account` took a seat.
    fn seeks_seated_at(&self, account: String) -> StoreFuture<'_, Vec<String>>;
    /// Removes the seats of the seek `id` (which its starter took just before): who sat at
    /// it, in the order they sat down.
    fn take_seek_seats(&self, id: String) -> StoreFuture<'_, Vec<String>>;
    fn seeks(&self) -> StoreFuture<'_, Vec<SeekRow>>;
    fn seek(&self, id: String) -> StoreFuture<'_, Option<SeekRow>>;
    /// Removes the seek and answers it (`None`: gone already, or not `owner`'s).
    fn take_seek(&self, id: String, owner: Option<String>) -> StoreFuture<'_, Option<SeekRow>>;
    /// Starts (`Some(now)`) or stops (`None`) the grace of `account`'s seeks (its last lobby
    /// connection closed / it is back).
    fn orphan_seeks(&self, account: String, since_ms: Option<i64>) -> StoreFuture<'_, ()>;
    /// Removes the seeks orphaned before `before_ms`; their ids.
    fn expire_seeks(&self, before_ms: i64) -> StoreFuture<'_, Vec<String>>;

    /// Puts `account` in a pool (leaving any other).
    fn join_pool(&self, entry: PoolEntry) -> StoreFuture<'_, ()>;
    /// Takes `account` out of its pool; the pool it was in.
    fn leave_pool(&self, account: String) -> StoreFuture<'_, Option<String>>;
    fn pool_of(&self, account: String) -> StoreFuture<'_, Option<String>>;
    fn pool_entries(&self) -> StoreFuture<'_, Vec<PoolEntry>>;
    /// Takes both out of `pool` if both are still in it (`true`), else neither.
    fn take_pair(&self, pool: String, a: String, b: String) -> StoreFuture<'_, bool>;
    /// A wave's pairs at once: each pair as [`take_pair`](Self::take_pair) (both or neither;
    /// one pair's failing does not stop the others), in one round trip. Whether each was
    /// taken, in order.
    fn take_pairs(&self, pool: String, pairs: Vec<(String, String)>) -> StoreFuture<'_, Vec<bool>>;
    /// A wave's tables at once: each table's players leave `pool` if every one of them is
    /// still in it, else none does (one table's failing does not stop the others). Whether
    /// each was taken, in order.
    fn take_tables(&self, pool: String, tables: Vec<Vec<String>>) -> StoreFuture<'_, Vec<bool>>;

    fn add_challenge(&self, challenge: ChallengeRow) -> StoreFuture<'_, ()>;
    fn challenges(&self) -> StoreFuture<'_, Vec<ChallengeRow>>;
    fn take_challenge(&self, id: String) -> StoreFuture<'_, Option<ChallengeRow>>;
    /// Removes the challenges made before `before_ms`.
    fn expire_challenges(&self, before_ms: i64) -> StoreFuture<'_, Vec<ChallengeRow>>;
    /// Removes the challenges `account` made.
    fn take_challenges_from(&self, account: String) -> StoreFuture<'_, Vec<ChallengeRow>>;

    /// The account's unfinished games (made in the lobby) created after `since_ms`, newest
    /// first.
    fn playing(&self, account: String, since_ms: i64) -> StoreFuture<'_, Vec<String>>;
    /// The account that holds a seat of a lobby game (`None`: an invite game, or no game).
    fn seat_account(&self, game: String, white: bool) -> StoreFuture<'_, Option<String>>;

    /// Whether this node is the pairing leader of the lobby `scope_key` now (takes the lead
    /// if nobody has it). One database file, one server: always.
    fn lead(&self, scope_key: i32) -> StoreFuture<'_, bool>;
    /// What makes this lobby apart from others on the same server: PostgreSQL's NOTIFY
    /// channels and advisory locks are per database, not per schema, so lobbies in two
    /// schemas of one database (tests, staging beside production) must tell their events and
    /// their leader's lock apart. The database and schema's names; `""` for SQLite.
    fn scope(&self) -> StoreFuture<'_, String>;
    /// The event bus between nodes (PostgreSQL); `None`: one node, events are local.
    fn bus(&self) -> Option<Arc<EventBus>>;
}

// ----- SQLite

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

fn sqlite_rows<T>(
    c: &rusqlite::Connection,
    sql: &str,
    p: impl rusqlite::Params,
    f: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, StoreError> {
    let mut stmt = c.prepare_cached(sql).map_err(backend)?;
    stmt.query_map(p, f)
        .map_err(backend)?
        .collect::<Result<Vec<T>, _>>()
        .map_err(backend)
}

fn seek_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<SeekRow> {
    Ok(SeekRow {
        id: r.get(0)?,
        account: r.get(1)?,
        created_ms: r.get(2)?,
        body: r.get(3)?,
    })
}

fn challenge_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ChallengeRow> {
    Ok(ChallengeRow {
        id: r.get(0)?,
        from: r.get(1)?,
        to: r.get(2)?,
        created_ms: r.get(3)?,
        body: r.get(4)?,
    })
}

fn seat_sql(white: bool) -> &'static str {
    if white {
        sql::WHITE_SEAT
    } else {
        sql::BLACK_SEAT
    }
}

/// Takes both out of `pool` if both are in it (the writer runs one closure at a time: the
/// check and the delete are atomic).
fn sqlite_take_pair(
    c: &rusqlite::Connection,
    pool: &str,
    a: &str,
    b: &str,
) -> Result<bool, StoreError> {
    if a == b {
        return Ok(false);
    }
    let n: i64 = c
        .prepare_cached(sql::SQLITE_PAIR_IN_POOL)
        .and_then(|mut s| s.query_row(params![pool, a, b], |r| r.get(0)))
        .map_err(backend)?;
    if n != 2 {
        return Ok(false);
    }
    c.prepare_cached(sql::SQLITE_TAKE_PAIR)
        .and_then(|mut s| s.execute(params![a, b]))
        .map_err(backend)?;
    Ok(true)
}

impl LobbyStore for SqliteStore {
    fn node_beat(&self, node: String, now_ms: i64, games: i64) -> StoreFuture<'_, ()> {
        Box::pin(self.with(move |c| {
            c.execute(sql::NODE_BEAT, params![node, now_ms, games])
                .map_err(backend)?;
            Ok(())
        }))
    }

    fn dead_nodes(&self, before_ms: i64) -> StoreFuture<'_, Vec<String>> {
        Box::pin(
            self.with(move |c| sqlite_rows(c, sql::DEAD_NODES, params![before_ms], |r| r.get(0))),
        )
    }

    fn forget_node(&self, node: String) -> StoreFuture<'_, Vec<String>> {
        Box::pin(self.with(move |c| {
            let accounts: Vec<String> =
                sqlite_rows(c, sql::SQLITE_LOBBY_ON_NODE, params![node], |r| r.get(0))?;
            c.execute(sql::SQLITE_FORGET_PRESENCE, params![node])
                .map_err(backend)?;
            c.execute(sql::SQLITE_FORGET_NODE, params![node])
                .map_err(backend)?;
            let mut gone = Vec::new();
            for a in accounts {
                let still: Option<i64> = c
                    .query_row(sql::STILL_IN_LOBBY, params![a], |r| r.get(0))
                    .optional()
                    .map_err(backend)?;
                if still.is_none() {
                    gone.push(a);
                }
            }
            Ok(gone)
        }))
    }

    fn set_presence(
        &self,
        node: String,
        account: String,
        kind: &'static str,
        present: bool,
    ) -> StoreFuture<'_, ()> {
        Box::pin(self.with(move |c| {
            let statement = if present {
                sql::ADD_PRESENCE
            } else {
                sql::REMOVE_PRESENCE
            };
            c.execute(statement, params![node, account, kind])
                .map_err(backend)?;
            Ok(())
        }))
    }

    fn set_presences(
        &self,
        node: String,
        kind: &'static str,
        join: Vec<String>,
        leave: Vec<String>,
    ) -> StoreFuture<'_, ()> {
        Box::pin(self.with(move |c| {
            let mut add = c.prepare_cached(sql::ADD_PRESENCE).map_err(backend)?;
            for a in &join {
                add.execute(params![node, a, kind]).map_err(backend)?;
            }
            let mut remove = c.prepare_cached(sql::REMOVE_PRESENCE).map_err(backend)?;
            for a in &leave {
                remove.execute(params![node, a, kind]).map_err(backend)?;
            }
            Ok(())
        }))
    }

    fn in_lobby_elsewhere(
        &self,
        node: String,
        account: String,
        alive_after_ms: i64,
    ) -> StoreFuture<'_, bool> {
        Box::pin(self.with(move |c| {
            c.query_row(
                sql::IN_LOBBY_ELSEWHERE,
                params![account, node, alive_after_ms],
                |r| r.get(0),
            )
            .map_err(backend)
        }))
    }

    fn counts(&self, alive_after_ms: i64) -> StoreFuture<'_, (u32, u32)> {
        Box::pin(self.with(move |c| {
            c.query_row(sql::COUNTS, params![alive_after_ms], |r| {
                Ok((r.get::<_, i64>(0)? as u32, r.get::<_, i64>(1)? as u32))
            })
            .map_err(backend)
        }))
    }

    fn sweep_absent(&self, now_ms: i64) -> StoreFuture<'_, (Vec<String>, Vec<ChallengeRow>)> {
        Box::pin(self.with(move |c| {
            c.execute(sql::SWEEP_SEEKS, params![now_ms])
                .map_err(backend)?;
            let left = sqlite_rows(c, sql::SWEEP_POOL, [], |r| r.get(0))?;
            let gone = sqlite_rows(c, sql::SWEEP_CHALLENGES, [], challenge_row)?;
            Ok((left, gone))
        }))
    }

    fn add_seek(&self, seek: SeekRow, seats: u8, max: u32) -> StoreFuture<'_, bool> {
        Box::pin(self.with(move |c| {
            c.execute(
                sql::ADD_SEEK,
                params![
                    seek.id,
                    seek.account,
                    seek.created_ms,
                    seek.body,
                    seats as i64,
                    max as i64
                ],
            )
            .map(|n| n == 1)
            .map_err(backend)
        }))
    }

    fn take_seek_seat(
        &self,
        id: String,
        account: String,
        now_ms: i64,
    ) -> StoreFuture<'_, Option<(u8, u8)>> {
        // One closure: the writer runs it alone, so the check and the seat are atomic.
        Box::pin(self.with(move |c| {
            let taken: Option<(i64, i64)> = c
                .query_row(sql::SQLITE_TAKE_SEEK_SEAT, params![id, account], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .optional()
                .map_err(backend)?;
            let Some((filled, seats)) = taken else {
                return Ok(None);
            };
            c.execute(sql::SQLITE_ADD_SEEK_SEAT, params![id, account, now_ms])
                .map_err(backend)?;
            Ok(Some((filled as u8, seats as u8)))
        }))
    }

    fn leave_seek_seat(&self, id: String, account: String) -> StoreFuture<'_, Option<u8>> {
        Box::pin(self.with(move |c| {
            let gone = c
                .execute(sql::SQLITE_LEAVE_SEEK_SEAT, params![id, account])
                .map_err(backend)?;
            if gone == 0 {
                return Ok(None);
            }
            let filled: i64 = c
                .query_row(sql::SQLITE_SEEK_SEAT_FREED, params![id], |r| r.get(0))
                .map_err(backend)?;
            Ok(Some(filled as u8))
        }))
    }

    fn seek_seats(&self) -> StoreFuture<'_, Vec<(String, String)>> {
        Box::pin(self.with(|c| sqlite_rows(c, sql::SEEK_SEATS, [], |r| Ok((r.get(0)?, r.get(1)?)))))
    }

    fn seeks_seated_at(&self, account: String) -> StoreFuture<'_, Vec<String>> {
        Box::pin(
            self.with(move |c| {
                sqlite_rows(c, sql::SEEKS_SEATED_AT, params![account], |r| r.get(0))
            }),
        )
    }

    fn take_seek_seats(&self, id: String) -> StoreFuture<'_, Vec<String>> {
        Box::pin(self.with(move |c| {
            let mut seats: Vec<(String, i64)> =
                sqlite_rows(c, sql::TAKE_SEEK_SEATS, params![id], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })?;
            seats.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
            Ok(seats.into_iter().map(|(a, _)| a).collect())
        }))
    }

    fn seeks(&self) -> StoreFuture<'_, Vec<SeekRow>> {
        Box::pin(self.with(|c| sqlite_rows(c, sql::SEEKS, [], seek_row)))
    }

    fn seek(&self, id: String) -> StoreFuture<'_, Option<SeekRow>> {
        Box::pin(self.with(move |c| {
            c.query_row(sql::SEEK, params![id], seek_row)
                .optional()
                .map_err(backend)
        }))
    }

    fn take_seek(&self, id: String, owner: Option<String>) -> StoreFuture<'_, Option<SeekRow>> {
        Box::pin(self.with(move |c| {
            c.query_row(sql::TAKE_SEEK, params![id, owner], seek_row)
                .optional()
                .map_err(backend)
        }))
    }

    fn orphan_seeks(&self, account: String, since_ms: Option<i64>) -> StoreFuture<'_, ()> {
        Box::pin(self.with(move |c| {
            let statement = if since_ms.is_some() {
                sql::ORPHAN_SEEKS
            } else {
                sql::ADOPT_SEEKS
            };
            c.execute(statement, params![since_ms, account])
                .map_err(backend)?;
            Ok(())
        }))
    }

    fn expire_seeks(&self, before_ms: i64) -> StoreFuture<'_, Vec<String>> {
        Box::pin(self.with(move |c| {
            let gone = sqlite_rows(c, sql::EXPIRE_SEEKS, params![before_ms], |r| r.get(0))?;
            c.execute(sql::FORGET_SEEK_SEATS, []).map_err(backend)?;
            Ok(gone)
        }))
    }

    fn join_pool(&self, e: PoolEntry) -> StoreFuture<'_, ()> {
        Box::pin(self.with(move |c| {
            c.execute(
                sql::JOIN_POOL,
                params![e.account, e.pool, e.rating, e.joined_ms],
            )
            .map_err(backend)?;
            Ok(())
        }))
    }

    fn leave_pool(&self, account: String) -> StoreFuture<'_, Option<String>> {
        Box::pin(self.with(move |c| {
            c.query_row(sql::LEAVE_POOL, params![account], |r| r.get(0))
                .optional()
                .map_err(backend)
        }))
    }

    fn pool_of(&self, account: String) -> StoreFuture<'_, Option<String>> {
        Box::pin(self.with(move |c| {
            c.query_row(sql::POOL_OF, params![account], |r| r.get(0))
                .optional()
                .map_err(backend)
        }))
    }

    fn pool_entries(&self) -> StoreFuture<'_, Vec<PoolEntry>> {
        Box::pin(self.with(|c| {
            sqlite_rows(c, sql::POOL_ENTRIES, [], |r| {
                Ok(PoolEntry {
                    account: r.get(0)?,
                    pool: r.get(1)?,
                    rating: r.get(2)?,
                    joined_ms: r.get(3)?,
                })
            })
        }))
    }

    fn take_pair(&self, pool: String, a: String, b: String) -> StoreFuture<'_, bool> {
        Box::pin(self.with(move |c| sqlite_take_pair(c, &pool, &a, &b)))
    }

    fn take_pairs(&self, pool: String, pairs: Vec<(String, String)>) -> StoreFuture<'_, Vec<bool>> {
        // One closure: one savepoint of the writer's transaction, one commit for the wave.
        Box::pin(self.with(move |c| {
            pairs
                .iter()
                .map(|(a, b)| sqlite_take_pair(c, &pool, a, b))
                .collect()
        }))
    }

    fn take_tables(&self, pool: String, tables: Vec<Vec<String>>) -> StoreFuture<'_, Vec<bool>> {
        // One closure: every table checked and taken while nothing else writes.
        Box::pin(self.with(move |c| {
            let mut taken = Vec::with_capacity(tables.len());
            for table in &tables {
                let mut all = true;
                for a in table {
                    let n: i64 = c
                        .query_row(sql::SQLITE_IN_POOL, params![pool, a], |r| r.get(0))
                        .map_err(backend)?;
                    all &= n == 1;
                }
                if all {
                    for a in table {
                        c.query_row(sql::LEAVE_POOL, params![a], |r| r.get::<_, String>(0))
                            .map_err(backend)?;
                    }
                }
                taken.push(all);
            }
            Ok(taken)
        }))
    }

    fn add_challenge(&self, ch: ChallengeRow) -> StoreFuture<'_, ()> {
        Box::pin(self.with(move |c| {
            c.execute(
                sql::ADD_CHALLENGE,
                params![ch.id, ch.from, ch.to, ch.created_ms, ch.body],
            )
            .map_err(backend)?;
            Ok(())
        }))
    }

    fn challenges(&self) -> StoreFuture<'_, Vec<ChallengeRow>> {
        Box::pin(self.with(|c| sqlite_rows(c, sql::CHALLENGES, [], challenge_row)))
    }

    fn take_challenge(&self, id: String) -> StoreFuture<'_, Option<ChallengeRow>> {
        Box::pin(self.with(move |c| {
            c.query_row(sql::TAKE_CHALLENGE, params![id], challenge_row)
                .optional()
                .map_err(backend)
        }))
    }

    fn expire_challenges(&self, before_ms: i64) -> StoreFuture<'_, Vec<ChallengeRow>> {
        Box::pin(self.with(move |c| {
            sqlite_rows(c, sql::EXPIRE_CHALLENGES, params![before_ms], challenge_row)
        }))
    }

    fn take_challenges_from(&self, account: String) -> StoreFuture<'_, Vec<ChallengeRow>> {
        Box::pin(self.with(move |c| {
            sqlite_rows(
                c,
                sql::TAKE_CHALLENGES_FROM,
                params![account],
                challenge_row,
            )
        }))
    }

    fn playing(&self, account: String, since_ms: i64) -> StoreFuture<'_, Vec<String>> {
        Box::pin(
            self.with(move |c| {
                sqlite_rows(c, sql::PLAYING, params![account, since_ms], |r| r.get(0))
            }),
        )
    }

    fn seat_account(&self, game: String, white: bool) -> StoreFuture<'_, Option<String>> {
        Box::pin(self.with(move |c| {
            c.query_row(seat_sql(white), params![game], |r| r.get(0))
                .optional()
                .map(Option::flatten)
                .map_err(backend)
        }))
    }

    fn lead(&self, _scope_key: i32) -> StoreFuture<'_, bool> {
        Box::pin(async { Ok(true) })
    }

    fn scope(&self) -> StoreFuture<'_, String> {
        Box::pin(async { Ok(String::new()) })
    }

    fn bus(&self) -> Option<Arc<EventBus>> {
        None
    }
}

// ----- PostgreSQL

fn pg(e: tokio_postgres::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

fn pg_seek(r: &tokio_postgres::Row) -> SeekRow {
    SeekRow {
        id: r.get(0),
        account: r.get(1),
        created_ms: r.get(2),
        body: r.get(3),
    }
}

fn pg_challenge(r: &tokio_postgres::Row) -> ChallengeRow {
    ChallengeRow {
        id: r.get(0),
        from: r.get(1),
        to: r.get(2),
        created_ms: r.get(3),
        body: r.get(4),
    }
}

/// Takes the pair out of the pool, both or neither, in one statement: both rows locked first,
/// so a pair whose player left meanwhile (or was paired by another wave) takes nobody.
async fn pg_take_pair(
    client: &tokio_postgres::Client,
    pool: &str,
    a: &str,
    b: &str,
) -> Result<bool, StoreError> {
    if a == b {
        return Ok(false);
    }
    let n: i64 = client
        .query_one(
            "WITH pair AS (SELECT account FROM lobby_pool
                           WHERE pool = $1 AND account IN ($2, $3) FOR UPDATE),
                  gone AS (DELETE FROM lobby_pool
                           WHERE account IN (SELECT account FROM pair)
                             AND (SELECT count(*) FROM pair) = 2
                           RETURNING account)
             SELECT count(*) FROM gone",
            &[&pool, &a, &b],
        )
        .await
        .map_err(pg)?
        .get(0);
    Ok(n == 2)
}

impl LobbyStore for PostgresStore {
    fn node_beat(&self, node: String, now_ms: i64, games: i64) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            self.pg_execute(sql::NODE_BEAT, &[&node, &now_ms, &games])
                .await
                .map(|_| ())
        })
    }

    fn dead_nodes(&self, before_ms: i64) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            self.pg_rows(sql::DEAD_NODES, &[&before_ms], |r| r.get(0))
                .await
        })
    }

    fn forget_node(&self, node: String) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let c = self.client();
            let rows = c
                .query(
                    "WITH gone AS (DELETE FROM lobby_presence WHERE node = $1 RETURNING account, kind),
                          n AS (DELETE FROM lobby_nodes WHERE node = $1)
                     SELECT DISTINCT account FROM gone WHERE kind = 'lobby'",
                    &[&node],
                )
                .await
                .map_err(pg)?;
            let mut left = Vec::new();
            for r in rows {
                let a: String = r.get(0);
                let still = c.query_opt(sql::STILL_IN_LOBBY, &[&a]).await.map_err(pg)?;
                if still.is_none() {
                    left.push(a);
                }
            }
            Ok(left)
        })
    }

    fn set_presence(
        &self,
        node: String,
        account: String,
        kind: &'static str,
        present: bool,
    ) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let statement = if present {
                sql::ADD_PRESENCE
            } else {
                sql::REMOVE_PRESENCE
            };
            self.pg_execute(statement, &[&node, &account, &kind])
                .await
                .map(|_| ())
        })
    }

    fn set_presences(
        &self,
        node: String,
        kind: &'static str,
        join: Vec<String>,
        leave: Vec<String>,
    ) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let c = self.client();
            // One statement each way, whatever the number of accounts.
            let (added, removed) = futures_util::future::join(
                async {
                    if join.is_empty() {
                        return Ok(0);
                    }
                    c.execute(
                        "INSERT INTO lobby_presence (node, account, kind)
                         SELECT $1, a, $3 FROM unnest($2::text[]) AS a
                         ON CONFLICT DO NOTHING",
                        &[&node, &join, &kind],
                    )
                    .await
                },
                async {
                    if leave.is_empty() {
                        return Ok(0);
                    }
                    c.execute(
                        "DELETE FROM lobby_presence
                         WHERE node = $1 AND kind = $3 AND account = ANY($2::text[])",
                        &[&node, &leave, &kind],
                    )
                    .await
                },
            )
            .await;
            added.map_err(pg)?;
            removed.map_err(pg)?;
            Ok(())
        })
    }

    fn in_lobby_elsewhere(
        &self,
        node: String,
        account: String,
        alive_after_ms: i64,
    ) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            Ok(self
                .client()
                .query_one(sql::IN_LOBBY_ELSEWHERE, &[&account, &node, &alive_after_ms])
                .await
                .map_err(pg)?
                .get(0))
        })
    }

    fn counts(&self, alive_after_ms: i64) -> StoreFuture<'_, (u32, u32)> {
        Box::pin(async move {
            let r = self
                .client()
                .query_one(sql::COUNTS, &[&alive_after_ms])
                .await
                .map_err(pg)?;
            Ok((r.get::<_, i64>(0) as u32, r.get::<_, i64>(1) as u32))
        })
    }

    fn sweep_absent(&self, now_ms: i64) -> StoreFuture<'_, (Vec<String>, Vec<ChallengeRow>)> {
        Box::pin(async move {
            let c = self.client();
            c.execute(sql::SWEEP_SEEKS, &[&now_ms]).await.map_err(pg)?;
            let left = c
                .query(sql::SWEEP_POOL, &[])
                .await
                .map_err(pg)?
                .iter()
                .map(|r| r.get(0))
                .collect();
            let gone = c
                .query(sql::SWEEP_CHALLENGES, &[])
                .await
                .map_err(pg)?
                .iter()
                .map(pg_challenge)
                .collect();
            Ok((left, gone))
        })
    }

    fn add_seek(&self, s: SeekRow, seats: u8, max: u32) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let n = self
                .client()
                .execute(
                    sql::ADD_SEEK,
                    &[
                        &s.id,
                        &s.account,
                        &s.created_ms,
                        &s.body,
                        &(seats as i32),
                        &(max as i64),
                    ],
                )
                .await
                .map_err(pg)?;
            Ok(n == 1)
        })
    }

    fn take_seek_seat(
        &self,
        id: String,
        account: String,
        now_ms: i64,
    ) -> StoreFuture<'_, Option<(u8, u8)>> {
        Box::pin(async move {
            // One statement: the UPDATE locks the seek's row, and a concurrent accepter's
            // UPDATE waits for it and re-checks `filled < seats` on the row as it is then, so
            // the seats are never over-filled. The same account twice at once: the seat's
            // primary key refuses the second, and its statement (the raise included) is
            // rolled back.
            let row = self
                .client()
                .query_opt(
                    "WITH s AS (UPDATE lobby_seeks SET filled = filled + 1
                                WHERE id = $1 AND filled < seats AND account <> $2
                                  AND NOT EXISTS (SELECT 1 FROM lobby_seek_seats
                                                  WHERE seek = $1 AND account = $2)
                                RETURNING id, filled, seats),
                          i AS (INSERT INTO lobby_seek_seats (seek, account, joined_ms)
                                SELECT id, $2, $3 FROM s)
                     SELECT filled, seats FROM s",
                    &[&id, &account, &now_ms],
                )
                .await
                .map_err(pg)?;
            Ok(row.map(|r| (r.get::<_, i32>(0) as u8, r.get::<_, i32>(1) as u8)))
        })
    }

    fn leave_seek_seat(&self, id: String, account: String) -> StoreFuture<'_, Option<u8>> {
        Box::pin(async move {
            // The seek's row locked first, and only while it is not full: a seat is not
            // given back from a table whose last seat was just taken (its starter reads the
            // seats next).
            let row = self
                .client()
                .query_opt(
                    "WITH k AS (SELECT id FROM lobby_seeks
                                WHERE id = $1 AND filled < seats FOR UPDATE),
                          d AS (DELETE FROM lobby_seek_seats
                                WHERE seek IN (SELECT id FROM k) AND account = $2
                                RETURNING seek)
                     UPDATE lobby_seeks SET filled = filled - 1
                     WHERE id IN (SELECT seek FROM d)
                     RETURNING filled",
                    &[&id, &account],
                )
                .await
                .map_err(pg)?;
            Ok(row.map(|r| r.get::<_, i32>(0) as u8))
        })
    }

    fn seek_seats(&self) -> StoreFuture<'_, Vec<(String, String)>> {
        Box::pin(async move {
            self.pg_rows(sql::SEEK_SEATS, &[], |r| (r.get(0), r.get(1)))
                .await
        })
    }

    fn seeks_seated_at(&self, account: String) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            self.pg_rows(sql::SEEKS_SEATED_AT, &[&account], |r| r.get(0))
                .await
        })
    }

    fn take_seek_seats(&self, id: String) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let mut seats: Vec<(String, i64)> = self
                .pg_rows(sql::TAKE_SEEK_SEATS, &[&id], |r| (r.get(0), r.get(1)))
                .await?;
            seats.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
            Ok(seats.into_iter().map(|(a, _)| a).collect())
        })
    }

    fn seeks(&self) -> StoreFuture<'_, Vec<SeekRow>> {
        Box::pin(async move { self.pg_rows(sql::SEEKS, &[], pg_seek).await })
    }

    fn seek(&self, id: String) -> StoreFuture<'_, Option<SeekRow>> {
        Box::pin(async move { self.pg_row(sql::SEEK, &[&id], pg_seek).await })
    }

    fn take_seek(&self, id: String, owner: Option<String>) -> StoreFuture<'_, Option<SeekRow>> {
        Box::pin(async move { self.pg_row(sql::TAKE_SEEK, &[&id, &owner], pg_seek).await })
    }

    fn orphan_seeks(&self, account: String, since_ms: Option<i64>) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let statement = if since_ms.is_some() {
                sql::ORPHAN_SEEKS
            } else {
                sql::ADOPT_SEEKS
            };
            self.pg_execute(statement, &[&since_ms, &account])
                .await
                .map(|_| ())
        })
    }

    fn expire_seeks(&self, before_ms: i64) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let gone = self
                .pg_rows(sql::EXPIRE_SEEKS, &[&before_ms], |r| r.get(0))
                .await?;
            self.pg_execute(sql::FORGET_SEEK_SEATS, &[]).await?;
            Ok(gone)
        })
    }

    fn join_pool(&self, e: PoolEntry) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            self.pg_execute(
                sql::JOIN_POOL,
                &[&e.account, &e.pool, &e.rating, &e.joined_ms],
            )
            .await
            .map(|_| ())
        })
    }

    fn leave_pool(&self, account: String) -> StoreFuture<'_, Option<String>> {
        Box::pin(async move {
            self.pg_row(sql::LEAVE_POOL, &[&account], |r| r.get(0))
                .await
        })
    }

    fn pool_of(&self, account: String) -> StoreFuture<'_, Option<String>> {
        Box::pin(async move { self.pg_row(sql::POOL_OF, &[&account], |r| r.get(0)).await })
    }

    fn pool_entries(&self) -> StoreFuture<'_, Vec<PoolEntry>> {
        Box::pin(async move {
            self.pg_rows(sql::POOL_ENTRIES, &[], |r| PoolEntry {
                account: r.get(0),
                pool: r.get(1),
                rating: r.get(2),
                joined_ms: r.get(3),
            })
            .await
        })
    }

    fn take_pair(&self, pool: String, a: String, b: String) -> StoreFuture<'_, bool> {
        Box::pin(async move { pg_take_pair(self.client(), &pool, &a, &b).await })
    }

    fn take_pairs(&self, pool: String, pairs: Vec<(String, String)>) -> StoreFuture<'_, Vec<bool>> {
        Box::pin(async move {
            // Each pair its own atomic statement (as `take_pair`), all sent at once on one
            // connection: the client pipelines them, so a wave costs one round trip, not one
            // per pair, and the server runs them in the wave's order (on several connections
            // they ran at once, and of two pairs sharing a player either could win).
            let client = self.client();
            let taken = futures_util::future::join_all(
                pairs.iter().map(|(a, b)| pg_take_pair(client, &pool, a, b)),
            )
            .await;
            // A statement that failed was rolled back: its pair stays in the pool. The others
            // were taken and must get their games, so one error does not fail the wave
            // (unless every pair failed: the database is away).
            if taken.iter().all(Result::is_err) {
                return taken.into_iter().collect();
            }
            Ok(taken
                .into_iter()
                .map(|t| {
                    t.unwrap_or_else(|e| {
                        tracing::warn!("taking a pair: {e}");
                        false
                    })
                })
                .collect())
        })
    }

    fn take_tables(&self, pool: String, tables: Vec<Vec<String>>) -> StoreFuture<'_, Vec<bool>> {
        Box::pin(async move {
            // Each table one statement (every row locked, then all deleted or none), all sent
            // at once on one connection (pipelined, run in order), as `take_pairs`.
            let client = self.client();
            let taken = futures_util::future::join_all(tables.iter().map(|t| async {
                let n: i64 = client
                    .query_one(
                        "WITH t AS (SELECT account FROM lobby_pool
                                    WHERE pool = $1 AND account = ANY($2) FOR UPDATE),
                              gone AS (DELETE FROM lobby_pool
                                       WHERE account IN (SELECT account FROM t)
                                         AND (SELECT count(*) FROM t) = $3
                                       RETURNING account)
                         SELECT count(*) FROM gone",
                        &[&pool, t, &(t.len() as i64)],
                    )
                    .await
                    .map_err(pg)?
                    .get(0);
                Ok::<_, StoreError>(n == t.len() as i64)
            }))
            .await;
            if taken.iter().all(Result::is_err) && !taken.is_empty() {
                return taken.into_iter().collect();
            }
            Ok(taken
                .into_iter()
                .map(|t| {
                    t.unwrap_or_else(|e| {
                        tracing::warn!("taking a table: {e}");
                        false
                    })
                })
                .collect())
        })
    }
    fn add_challenge(&self, ch: ChallengeRow) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            self.pg_execute(
                sql::ADD_CHALLENGE,
                &[&ch.id, &ch.from, &ch.to, &ch.created_ms, &ch.body],
            )
            .await
            .map(|_| ())
        })
    }

    fn challenges(&self) -> StoreFuture<'_, Vec<ChallengeRow>> {
        Box::pin(async move { self.pg_rows(sql::CHALLENGES, &[], pg_challenge).await })
    }

    fn take_challenge(&self, id: String) -> StoreFuture<'_, Option<ChallengeRow>> {
        Box::pin(async move { self.pg_row(sql::TAKE_CHALLENGE, &[&id], pg_challenge).await })
    }

    fn expire_challenges(&self, before_ms: i64) -> StoreFuture<'_, Vec<ChallengeRow>> {
        Box::pin(async move {
            self.pg_rows(sql::EXPIRE_CHALLENGES, &[&before_ms], pg_challenge)
                .await
        })
    }

    fn take_challenges_from(&self, account: String) -> StoreFuture<'_, Vec<ChallengeRow>> {
        Box::pin(async move {
            self.pg_rows(sql::TAKE_CHALLENGES_FROM, &[&account], pg_challenge)
                .await
        })
    }

    fn playing(&self, account: String, since_ms: i64) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            self.pg_rows(sql::PLAYING, &[&account, &since_ms], |r| r.get(0))
                .await
        })
    }

    fn seat_account(&self, game: String, white: bool) -> StoreFuture<'_, Option<String>> {
        Box::pin(async move {
            Ok(self
                .client()
                .query_opt(seat_sql(white), &[&game])
                .await
                .map_err(pg)?
                .and_then(|r| r.get(0)))
        })
    }

    fn lead(&self, scope_key: i32) -> StoreFuture<'_, bool> {
        Box::pin(async move { self.ownership().hold((LEADER_LOCK, scope_key)).await })
    }

    fn scope(&self) -> StoreFuture<'_, String> {
        Box::pin(async move {
            Ok(self
                .client()
                .query_one("SELECT current_database() || '.' || current_schema()", &[])
                .await
                .map_err(pg)?
                .get(0))
        })
    }

    fn bus(&self) -> Option<Arc<EventBus>> {
        Some(self.ownership().bus().clone())
    }
}
