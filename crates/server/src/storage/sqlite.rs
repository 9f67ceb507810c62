//! SQLite: the embedded default. One thread owns the connection; it takes every request that
//! is waiting, runs each in its own savepoint inside one transaction, commits, and only then
//! answers them all (group commit: one fsync for many moves of many games).
use std::{any::Any, path::Path, thread};

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::{mpsc, oneshot};

use super::{
    Account, AccountEnd, AccountStore, ArchiveRow, ArchiveStore, ArchivedGame, ClusterStore,
    GameRecord, GameStore, Glicko, GlickoChange, Ranked, SeatRow, Storage, StoreError, StoreFuture,
    StoredGame, StoredMove, Tally, cause_json, clock_columns, clocks_of, creator_name, creator_of,
    from_seat_rows, many_seats_of, name_key, now_ms, outcome_of, result_json, seat_changes,
    seat_columns, seat_result_of, seats_of, shown_ratings, sql, time_control_of,
};
use crate::names::skeleton_key;
use boardcraft_protocol::{Rating, SeatIndex, SeatLeft, SeatResult};

/// Most requests committed together.
const BATCH: usize = 512;

enum Op {
    Create(Box<GameRecord>),
    Load(String),
    Invite(String),
    Join(String, SeatIndex),
    Left(String, SeatLeft),
    Append(String, StoredMove),
    Truncate(String, u32),
    Finish(String, SeatResult),
    Ids,
    Health,
    /// Account work: a closure run in the writer's transaction, its answer boxed.
    Run(Job),
}

/// A closure the writer runs once, its answer boxed (see [`SqliteStore::with`]).
type Job = Box<dyn FnOnce(&Connection) -> Result<Box<dyn Any + Send>, StoreError> + Send>;

enum Answer {
    Unit,
    Game(Box<Option<StoredGame>>),
    Id(Option<String>),
    Bool(bool),
    Ids(Vec<String>),
    Any(Box<dyn Any + Send>),
}

struct Request {
    op: Op,
    reply: oneshot::Sender<Result<Answer, StoreError>>,
}

pub struct SqliteStore {
    tx: mpsc::Sender<Request>,
}

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and starts its writer thread.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::Backend(format!("cannot create {}: {e}", dir.display()))
            })?;
        }
        let mut conn = Connection::open(path)
            .map_err(|e| StoreError::Backend(format!("cannot open {}: {e}", path.display())))?;
        // WAL with FULL: a committed transaction is on disk (fsync of the log) before the
        // commit returns, so an acknowledged move survives a kill -9 and a power cut.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(backend)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(backend)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(backend)?;
        let applied = super::migrations::migrate_sqlite(&mut conn)?;
        if !applied.is_empty() {
            tracing::info!("database schema migrated: versions {applied:?} applied");
        }
        fill_in_skeletons(&conn)?;
        let (tx, rx) = mpsc::channel(4096);
        thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || writer(conn, rx))
            .map_err(|e| StoreError::Backend(format!("cannot start the writer thread: {e}")))?;
        Ok(SqliteStore { tx })
    }

    /// Runs `f` on the writer's connection (inside its batch's transaction).
    pub(super) async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let op = Op::Run(Box::new(move |c| {
            f(c).map(|t| Box::new(t) as Box<dyn Any + Send>)
        }));
        match self.call(op).await? {
            Answer::Any(b) => Ok(*b.downcast::<T>().expect("the closure's own type")),
            _ => unreachable!("a closure answers Any"),
        }
    }

    async fn call(&self, op: Op) -> Result<Answer, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Request { op, reply })
            .await
            .map_err(|_| StoreError::Backend("the database thread stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Backend("the database thread stopped".into()))?
    }
}

fn writer(mut conn: Connection, mut rx: mpsc::Receiver<Request>) {
    let mut batch = Vec::with_capacity(BATCH);
    while let Some(first) = rx.blocking_recv() {
        batch.push(first);
        while batch.len() < BATCH {
            match rx.try_recv() {
                Ok(r) => batch.push(r),
                Err(_) => break,
            }
        }
        for (reply, result) in run_batch(&mut conn, batch.drain(..)) {
            let _ = reply.send(result);
        }
    }
}

type Reply = oneshot::Sender<Result<Answer, StoreError>>;

/// Runs every request in its own savepoint of one transaction; a failed commit fails them all.
/// Each request's reply with its result.
fn run_batch(
    conn: &mut Connection,
    batch: impl ExactSizeIterator<Item = Request>,
) -> Vec<(Reply, Result<Answer, StoreError>)> {
    let mut tx = match conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => return batch.map(|r| (r.reply, Err(backend_ref(&e)))).collect(),
    };
    let mut results = Vec::with_capacity(batch.len());
    for Request { op, reply } in batch {
        let result = match tx.savepoint() {
            Ok(mut sp) => match run(&sp, op) {
                Ok(a) => sp.commit().map(|_| a).map_err(backend),
                Err(e) => {
                    let _ = sp.rollback();
                    Err(e)
                }
            },
            Err(e) => Err(backend(e)),
        };
        results.push((reply, result));
    }
    match tx.commit() {
        Ok(()) => results,
        Err(e) => results
            .into_iter()
            .map(|(reply, _)| (reply, Err(backend_ref(&e))))
            .collect(),
    }
}

fn backend_ref(e: &rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// Computes the confusable skeleton of accounts made before it was kept (one of two older
/// accounts whose names look alike keeps none: both stay, and no new one can look like them).
fn fill_in_skeletons(conn: &Connection) -> Result<(), StoreError> {
    use super::migrations::{SET_SKELETON, SKELETONS_MISSING};
    let missing: Vec<(String, String)> = conn
        .prepare(SKELETONS_MISSING)
        .and_then(|mut stmt| {
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()
        })
        .map_err(backend)?;
    for (id, name) in missing {
        match conn.execute(SET_SKELETON, params![skeleton_key(&name), id]) {
            Ok(_) => {}
            Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation) => {
                tracing::warn!(account = %id, "an older account's name looks like another's");
            }
            Err(e) => return Err(backend(e)),
        }
    }
    Ok(())
}

fn conflict_or_backend(e: rusqlite::Error, what: String) -> StoreError {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ConstraintViolation) => StoreError::Conflict(what),
        _ => backend(e),
    }
}

fn run(conn: &Connection, op: Op) -> Result<Answer, StoreError> {
    match op {
        Op::Create(g) => {
            let (white, black, rated, players) = seat_columns(&g.players);
            conn.execute(
                sql::CREATE_GAME,
                params![
                    g.id,
                    g.variant,
                    g.variant_file,
                    g.time_control.map(|t| t.initial_ms as i64),
                    g.time_control.map(|t| t.increment_ms as i64),
                    g.tokens[0],
                    g.tokens[1],
                    creator_name(g.creator),
                    g.invite,
                    g.started(),
                    g.created_ms,
                    g.rematch_of,
                    white,
                    black,
                    rated,
                    players,
                    g.seats() as i64,
                ],
            )
            .map_err(|e| conflict_or_backend(e, format!("game {}", g.id)))?;
            if g.many_seats() {
                for (seat, token) in g.tokens.iter().enumerate() {
                    let account = g.players.as_ref().map(|p| p.accounts[seat].clone());
                    conn.execute(
                        sql::INSERT_SEAT,
                        params![g.id, seat as i64, token, account, g.joined[seat]],
                    )
                    .map_err(|e| conflict_or_backend(e, format!("game {} seat {seat}", g.id)))?;
                }
            }
            Ok(Answer::Unit)
        }
        Op::Load(id) => load(conn, &id).map(|g| Answer::Game(Box::new(g))),
        Op::Invite(invite) => conn
            .query_row(sql::GAME_OF_INVITE, params![invite], |r| r.get(0))
            .optional()
            .map(Answer::Id)
            .map_err(backend),
        Op::Join(id, seat) => {
            // A game of more than two seats has its seats' rows.
            let seats: Option<i64> = conn
                .query_row(sql::SEATS_OF_GAME, params![id], |r| r.get(0))
                .optional()
                .map_err(backend)?;
            if seats.unwrap_or(2) <= 2 {
                return conn
                    .execute(sql::SQLITE_MARK_JOINED, params![id])
                    .map(|n| Answer::Bool(n == 1))
                    .map_err(backend);
            }
            let n = conn
                .execute(sql::SQLITE_JOIN_SEAT, params![id, seat])
                .map_err(backend)?;
            conn.execute(sql::SQLITE_ALL_JOINED, params![id])
                .map_err(backend)?;
            Ok(Answer::Bool(n == 1))
        }
        Op::Left(id, left) => conn
            .execute(
                sql::SQLITE_SEAT_LEFT,
                params![left.ply, left.place, cause_json(&left.cause), id, left.seat],
            )
            .map(|_| Answer::Unit)
            .map_err(backend),
        Op::Append(id, m) => {
            let (white, black, seats) = clock_columns(&m.clocks);
            conn.execute(
                sql::SQLITE_APPEND_MOVE,
                params![id, m.ply, m.notation, white, black, m.at_ms, seats],
            )
            .map_err(|e| conflict_or_backend(e, format!("game {id} ply {}", m.ply)))?;
            Ok(Answer::Unit)
        }
        Op::Truncate(id, from) => conn
            .execute(sql::SQLITE_TRUNCATE_MOVES, params![id, from])
            .map(|_| Answer::Unit)
            .map_err(backend),
        Op::Finish(id, result) => conn
            .execute(
                sql::SQLITE_FINISH_GAME,
                params![result_json(&result), now_ms(), outcome_of(&result), id],
            )
            .map(|_| Answer::Unit)
            .map_err(backend),
        Op::Ids => {
            let mut stmt = conn.prepare_cached(sql::GAME_IDS).map_err(backend)?;
            let ids = stmt
                .query_map([], |r| r.get(0))
                .map_err(backend)?
                .collect::<Result<Vec<String>, _>>()
                .map_err(backend)?;
            Ok(Answer::Ids(ids))
        }
        Op::Run(f) => f(conn).map(Answer::Any),
        Op::Health => conn
            .query_row(sql::HEALTH, [], |_| Ok(()))
            .map(|_| Answer::Unit)
            .map_err(backend),
    }
}

fn load(conn: &Connection, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let Some(game) = conn
        .prepare_cached(sql::LOAD_GAME)
        .and_then(|mut stmt| {
            stmt.query_row(params![id], |r| {
                Ok(LoadedRow {
                    variant: r.get(0)?,
                    variant_file: r.get(1)?,
                    initial: r.get(2)?,
                    increment: r.get(3)?,
                    tokens: [r.get(4)?, r.get(5)?],
                    creator: r.get(6)?,
                    invite: r.get(7)?,
                    joined: r.get(8)?,
                    created_ms: r.get(9)?,
                    rematch_of: r.get(10)?,
                    result: r.get(11)?,
                    rematch: r.get(12)?,
                    accounts: [r.get(13)?, r.get(14)?],
                    players: r.get(15)?,
                    changes: r.get(16)?,
                    seats: r.get(17)?,
                })
            })
            .optional()
        })
        .map_err(backend)?
    else {
        return Ok(None);
    };
    let mut stmt = conn.prepare_cached(sql::LOAD_MOVES).map_err(backend)?;
    let moves = stmt
        .query_map(params![id], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<i64>>(2)?,
                r.get::<_, Option<i64>>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, Option<String>>(5)?,
            ))
        })
        .map_err(backend)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(backend)?
        .into_iter()
        .map(|(ply, notation, white, black, at_ms, seats)| {
            Ok(StoredMove {
                ply,
                notation,
                clocks: clocks_of(white, black, seats)?,
                at_ms,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let creator = creator_of(&game.creator)?;
    let seats = game.seats as usize;
    let (tokens, joined, players, left) = if seats > 2 {
        let mut stmt = conn.prepare_cached(sql::LOAD_SEATS).map_err(backend)?;
        let rows = stmt
            .query_map(params![id], |r| {
                Ok(SeatRow {
                    token: r.get(0)?,
                    account: r.get(1)?,
                    joined: r.get(2)?,
                    left_ply: r.get(3)?,
                    left_place: r.get(4)?,
                    left_cause: r.get(5)?,
                })
            })
            .map_err(backend)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(backend)?;
        let (tokens, joined, accounts, left) = from_seat_rows(rows)?;
        (tokens, joined, many_seats_of(accounts, game.players)?, left)
    } else {
        let [white_account, black_account] = game.accounts;
        let joined = (0..2).map(|s| game.joined || s == creator).collect();
        let players = seats_of(white_account, black_account, game.players)?;
        (game.tokens.to_vec(), joined, players, Vec::new())
    };
    Ok(Some(StoredGame {
        record: GameRecord {
            id: id.to_owned(),
            variant: game.variant,
            variant_file: game.variant_file,
            time_control: time_control_of(game.initial, game.increment),
            tokens,
            creator,
            invite: game.invite,
            joined,
            created_ms: game.created_ms,
            rematch_of: game.rematch_of,
            players,
        },
        moves,
        result: seat_result_of(game.result)?,
        rematch: game.rematch,
        ratings: shown_ratings(game.changes, seats)?,
        left,
    }))
}

/// A row of [`sql::LOAD_GAME`], as read.
struct LoadedRow {
    variant: String,
    variant_file: Option<String>,
    initial: Option<i64>,
    increment: Option<i64>,
    tokens: [String; 2],
    creator: String,
    invite: Option<String>,
    joined: bool,
    created_ms: i64,
    rematch_of: Option<String>,
    result: Option<String>,
    rematch: Option<String>,
    accounts: [Option<String>; 2],
    players: Option<String>,
    changes: Option<String>,
    seats: i64,
}

impl AccountStore for SqliteStore {
    fn create_account(&self, account: Account) -> StoreFuture<'_, ()> {
        self.create_account_now(account)
    }

    fn account(&self, id: String) -> StoreFuture<'_, Option<Account>> {
        Box::pin(self.with(move |c| account_where(c, sql::ACCOUNT_BY_ID, &id)))
    }

    fn account_by_name(&self, name: String) -> StoreFuture<'_, Option<Account>> {
        let key = name_key(&name);
        Box::pin(self.with(move |c| account_where(c, sql::ACCOUNT_BY_NAME_KEY, &key)))
    }

    fn account_by_telegram(&self, telegram_id: i64) -> StoreFuture<'_, Option<Account>> {
        Box::pin(self.with(move |c| account_where(c, sql::ACCOUNT_BY_TELEGRAM, &telegram_id)))
    }

    fn claim_account(
        &self,
        id: String,
        name: String,
        password_hash: String,
    ) -> StoreFuture<'_, bool> {
        Box::pin(self.with(move |c| {
            c.execute(
                sql::CLAIM_ACCOUNT,
                params![
                    name,
                    name_key(&name),
                    skeleton_key(&name),
                    password_hash,
                    id
                ],
            )
            .map(|n| n == 1)
            .map_err(|e| conflict_or_backend(e, format!("account {name}")))
        }))
    }

    fn set_password(
        &self,
        id: String,
        password_hash: String,
        keep_session: String,
    ) -> StoreFuture<'_, Vec<String>> {
        Box::pin(self.with(move |c| {
            c.execute(sql::SET_PASSWORD, params![password_hash, id])
                .map_err(backend)?;
            let mut stmt = c.prepare_cached(sql::OTHER_SESSIONS).map_err(backend)?;
            stmt.query_map(params![id, keep_session], |r| r.get(0))
                .map_err(backend)?
                .collect::<Result<Vec<String>, _>>()
                .map_err(backend)
        }))
    }

    fn link_telegram(&self, id: String, telegram_id: i64) -> StoreFuture<'_, bool> {
        Box::pin(self.with(move |c| {
            c.execute(sql::LINK_TELEGRAM, params![telegram_id, id])
                .map(|n| n == 1)
                .map_err(|e| conflict_or_backend(e, format!("telegram user {telegram_id}")))
        }))
    }

    fn set_bot(&self, name: String, bot: bool) -> StoreFuture<'_, bool> {
        let key = name_key(&name);
        Box::pin(self.with(move |c| {
            c.execute(sql::SET_BOT, params![bot, key])
                .map(|n| n == 1)
                .map_err(backend)
        }))
    }

    fn create_session(
        &self,
        token_hash: String,
        account: String,
        created_ms: i64,
    ) -> StoreFuture<'_, ()> {
        Box::pin(self.with(move |c| {
            c.execute(
                sql::CREATE_SESSION,
                params![token_hash, account, created_ms],
            )
            .map(|_| ())
            .map_err(|e| conflict_or_backend(e, "session".into()))
        }))
    }

    fn session_account(&self, token_hash: String) -> StoreFuture<'_, Option<Account>> {
        Box::pin(self.with(move |c| account_where(c, sql::ACCOUNT_BY_SESSION, &token_hash)))
    }

    fn delete_session(&self, token_hash: String) -> StoreFuture<'_, ()> {
        Box::pin(self.with(move |c| {
            c.execute(sql::DELETE_SESSION, params![token_hash])
                .map(|_| ())
                .map_err(backend)
        }))
    }

    fn ratings(&self, account: String) -> StoreFuture<'_, Vec<Rating>> {
        Box::pin(self.with(move |c| {
            let mut stmt = c.prepare_cached(sql::RATINGS_OF).map_err(backend)?;
            stmt.query_map(params![account], |r| {
                Ok(Rating {
                    variant: r.get(0)?,
                    rating: r.get(1)?,
                    deviation: r.get(2)?,
                    volatility: r.get(3)?,
                    games: r.get(4)?,
                    seats: r.get(5)?,
                })
            })
            .map_err(backend)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(backend)
        }))
    }
}

impl GameStore for SqliteStore {
    fn create_game(&self, game: GameRecord) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.call(Op::Create(Box::new(game))).await.map(|_| ()) })
    }

    fn load_game(&self, id: String) -> StoreFuture<'_, Option<StoredGame>> {
        Box::pin(async move {
            match self.call(Op::Load(id)).await? {
                Answer::Game(g) => Ok(*g),
                _ => unreachable!("load answers a game"),
            }
        })
    }

    fn game_of_invite(&self, invite: String) -> StoreFuture<'_, Option<String>> {
        Box::pin(async move {
            match self.call(Op::Invite(invite)).await? {
                Answer::Id(id) => Ok(id),
                _ => unreachable!("invite answers an id"),
            }
        })
    }

    fn mark_joined(&self, id: String, seat: SeatIndex) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            match self.call(Op::Join(id, seat)).await? {
                Answer::Bool(b) => Ok(b),
                _ => unreachable!("join answers a bool"),
            }
        })
    }

    fn seat_left(&self, id: String, left: SeatLeft) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.call(Op::Left(id, left)).await.map(|_| ()) })
    }

    fn append_move(&self, id: String, mv: StoredMove) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.call(Op::Append(id, mv)).await.map(|_| ()) })
    }

    fn truncate_moves(&self, id: String, from_ply: u32) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.call(Op::Truncate(id, from_ply)).await.map(|_| ()) })
    }

    fn finish_game(&self, id: String, result: SeatResult) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.call(Op::Finish(id, result)).await.map(|_| ()) })
    }

    fn finish_account_game(
        &self,
        id: String,
        result: SeatResult,
        end: AccountEnd,
    ) -> StoreFuture<'_, Option<Vec<GlickoChange>>> {
        Box::pin(self.with(move |c| finish_account_game(c, &id, &result, end)))
    }

    fn game_ids(&self) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            match self.call(Op::Ids).await? {
                Answer::Ids(ids) => Ok(ids),
                _ => unreachable!("ids answers ids"),
            }
        })
    }
}

impl ArchiveStore for SqliteStore {
    fn player_games(
        &self,
        account: String,
        offset: u32,
        limit: u32,
    ) -> StoreFuture<'_, Vec<ArchivedGame>> {
        Box::pin(self.with(move |c| {
            let mut stmt = c.prepare_cached(sql::ARCHIVE).map_err(backend)?;
            let rows = stmt
                .query_map(params![account, limit, offset], |r| {
                    Ok(ArchiveRow {
                        id: r.get(0)?,
                        variant: r.get(1)?,
                        initial: r.get(2)?,
                        increment: r.get(3)?,
                        players: r.get(4)?,
                        result: r.get(5)?,
                        changes: r.get(6)?,
                        plies: r.get(7)?,
                        created_ms: r.get(8)?,
                        ended_ms: r.get(9)?,
                    })
                })
                .map_err(backend)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(backend)?;
            rows.into_iter().map(ArchiveRow::into_game).collect()
        }))
    }

    fn tallies(&self, account: String) -> StoreFuture<'_, Vec<Tally>> {
        Box::pin(self.with(move |c| {
            let mut stmt = c.prepare_cached(sql::TALLIES).map_err(backend)?;
            stmt.query_map(params![account], |r| {
                Ok(Tally {
                    variant: r.get(0)?,
                    wins: r.get(1)?,
                    draws: r.get(2)?,
                    losses: r.get(3)?,
                })
            })
            .map_err(backend)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(backend)
        }))
    }

    fn leaderboard(&self, variant: String, seats: u8, limit: u32) -> StoreFuture<'_, Vec<Ranked>> {
        Box::pin(self.with(move |c| {
            let mut stmt = c.prepare_cached(sql::LEADERBOARD).map_err(backend)?;
            stmt.query_map(
                params![
                    variant,
                    seats,
                    boardcraft_protocol::provisional_deviation(seats),
                    limit
                ],
                |r| {
                    Ok(Ranked {
                        account: account_row(r)?,
                        rating: Rating {
                            variant: variant.clone(),
                            rating: r.get(6)?,
                            deviation: r.get(7)?,
                            volatility: r.get(8)?,
                            games: r.get(9)?,
                            seats,
                        },
                    })
                },
            )
            .map_err(backend)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(backend)
        }))
    }
}

/// One database file, one server: every game is this node's.
impl ClusterStore for SqliteStore {}

impl Storage for SqliteStore {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn health(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.call(Op::Health).await.map(|_| ()) })
    }

    fn limits(&self) -> Option<&dyn super::limits::LimitStore> {
        Some(self)
    }
}

fn account_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(0)?,
        name: r.get(1)?,
        password_hash: r.get(2)?,
        telegram_id: r.get(3)?,
        bot: r.get(4)?,
        created_ms: r.get(5)?,
    })
}

/// The account one of the `sql::ACCOUNT_BY_…` statements finds.
fn account_where(
    conn: &Connection,
    statement: &str,
    value: &dyn rusqlite::ToSql,
) -> Result<Option<Account>, StoreError> {
    conn.prepare_cached(statement)
        .and_then(|mut stmt| stmt.query_row([value], account_row).optional())
        .map_err(backend)
}

impl SqliteStore {
    fn create_account_now(&self, a: Account) -> StoreFuture<'_, ()> {
        Box::pin(self.with(move |c| {
            c.execute(
                sql::INSERT_ACCOUNT,
                params![
                    a.id,
                    a.name,
                    name_key(&a.name),
                    skeleton_key(&a.name),
                    a.password_hash,
                    a.telegram_id,
                    a.bot,
                    a.created_ms
                ],
            )
            .map_err(|e| conflict_or_backend(e, format!("account {}", a.name)))?;
            Ok(())
        }))
    }
}

/// The rating an account has in a variant now (a new player's if none).
/// The account's rating in the end's variant and number of seats (the end's fresh one if it
/// has none yet).
fn glicko_now(
    conn: &Connection,
    account: &str,
    variant: &str,
    seats: u8,
    fresh: Glicko,
) -> Result<Glicko, StoreError> {
    Ok(conn
        .query_row(sql::SQLITE_RATING, params![account, variant, seats], |r| {
            Ok(Glicko {
                rating: r.get(0)?,
                deviation: r.get(1)?,
                volatility: r.get(2)?,
            })
        })
        .optional()
        .map_err(backend)?
        .unwrap_or(fresh))
}

/// The end and (rated) the seats' new ratings, in the writer's transaction: nothing else
/// writes in between, so the ratings read are the ones replaced, and an end stored already is
/// seen (the game is rated at its first end only).
fn finish_account_game(
    conn: &Connection,
    id: &str,
    result: &SeatResult,
    end: AccountEnd,
) -> Result<Option<Vec<GlickoChange>>, StoreError> {
    let open: Option<bool> = conn
        .query_row(sql::SQLITE_GAME_OPEN, params![id], |r| r.get(0))
        .optional()
        .map_err(backend)?;
    if open != Some(true) {
        // Gone, or ended already.
        return Ok(None);
    }
    let now = now_ms();
    let (changes, record) = match end.rate {
        Some(rule) => {
            let before = end
                .accounts
                .iter()
                .map(|account| glicko_now(conn, account, &end.variant, end.seats, end.fresh))
                .collect::<Result<Vec<_>, _>>()?;
            let rerated = rule(&before);
            let changes = seat_changes(before, &rerated)?;
            for (account, change) in end.accounts.iter().zip(&changes) {
                let after = change.after;
                conn.execute(
                    sql::SQLITE_RATING_UPSERT,
                    params![
                        account,
                        end.variant,
                        end.seats,
                        after.rating,
                        after.deviation,
                        after.volatility,
                        now
                    ],
                )
                .map_err(backend)?;
            }
            (Some(changes), Some(rerated.record))
        }
        None => (None, None),
    };
    conn.execute(
        sql::FINISH_ACCOUNT_GAME,
        params![result_json(result), now, outcome_of(result), record, id],
    )
    .map_err(backend)?;
    Ok(changes)
}
