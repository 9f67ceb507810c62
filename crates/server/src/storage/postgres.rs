//! PostgreSQL, for a server that outgrows one machine (docs/online.md). A few connections,
//! used round-robin; tokio-postgres pipelines the statements of many games on each. Every
//! change is a single statement in autocommit: when it returns, it is committed.
use std::sync::{
    Arc,
    atomic::{AtomicUsize, Ordering},
};

use boardcraft_protocol::{Rating, SeatIndex, SeatLeft, SeatResult};
use tokio_postgres::{Client, NoTls, Row, Statement, error::SqlState, types::ToSql};

/// A statement's parameters, in the order of its placeholders.
pub(super) type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

use super::{
    Account, AccountEnd, AccountStore, ArchiveRow, ArchiveStore, ArchivedGame, ClusterStore,
    GameRecord, GameStore, Glicko, GlickoChange, Ranked, SeatRow, Storage, StoreError, StoreFuture,
    StoredGame, StoredMove, Tally, cause_json, clock_columns, clocks_of, creator_name, creator_of,
    from_seat_rows, many_seats_of, name_key, now_ms, outcome_of,
    ownership::{Acquired, ClusterEvent, Ownership},
    result_json, seat_changes, seat_columns, seat_result_of, seats_of, shown_ratings, sql,
    time_control_of,
};
use crate::names::skeleton_key;

/// Connections opened to the database.
const CONNECTIONS: usize = 4;

struct Conn {
    client: Client,
    append: Statement,
    load_game: Statement,
    load_moves: Statement,
}

pub struct PostgresStore {
    conns: Vec<Conn>,
    /// The connection rated ends run their transactions on (a transaction needs a connection
    /// of its own: the others pipeline many games' statements).
    rating: tokio::sync::Mutex<Client>,
    next: AtomicUsize,
    ownership: Arc<Ownership>,
}

fn backend(e: tokio_postgres::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// Computes the confusable skeleton of accounts made before it was kept (one of two older
/// accounts whose names look alike keeps none: both stay, and no new one can look like them).
async fn fill_in_skeletons(client: &Client) -> Result<(), StoreError> {
    use super::migrations::{SET_SKELETON, SKELETONS_MISSING};
    let missing = client
        .query(SKELETONS_MISSING, &[])
        .await
        .map_err(backend)?;
    for row in missing {
        let (id, name): (String, String) = (row.get(0), row.get(1));
        match client
            .execute(SET_SKELETON, &[&skeleton_key(&name), &id])
            .await
        {
            Ok(_) => {}
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
                tracing::warn!(account = %id, "an older account's name looks like another's");
            }
            Err(e) => return Err(backend(e)),
        }
    }
    Ok(())
}

fn conflict_or_backend(e: tokio_postgres::Error, what: String) -> StoreError {
    if e.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        StoreError::Conflict(what)
    } else {
        backend(e)
    }
}

impl PostgresStore {
    /// Connects (plain TCP or a Unix socket, no TLS) and creates the tables if needed.
    pub async fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let mut conns = Vec::with_capacity(CONNECTIONS);
        for i in 0..CONNECTIONS {
            let (mut client, connection) = tokio_postgres::connect(url, NoTls)
                .await
                .map_err(|e| StoreError::Backend(format!("cannot connect to PostgreSQL: {e}")))?;
            tokio::spawn(async move {
                if let Err(e) = connection.await {
                    tracing::error!("PostgreSQL connection failed: {e}");
                }
            });
            if i == 0 {
                let applied = super::migrations::migrate_postgres(&mut client).await?;
                if !applied.is_empty() {
                    tracing::info!("database schema migrated: versions {applied:?} applied");
                }
                fill_in_skeletons(&client).await?;
            }
            // Fenced: only while the game's row still has the writer's epoch (the row locked
            // FOR SHARE, so that a takeover's epoch bump waits for this insert to commit, and
            // then loads it).
            let append = client
                .prepare(
                    "INSERT INTO moves (game, ply, notation, white_ms, black_ms, at_ms, seat_ms)
                     SELECT $1::text, $2::int4, $3::text, $4::int8, $5::int8, $6::int8, $8::text
                     FROM games WHERE id = $1 AND owner_epoch = $7::int8 FOR SHARE",
                )
                .await
                .map_err(backend)?;
            let load_game = client.prepare(sql::LOAD_GAME).await.map_err(backend)?;
            let load_moves = client.prepare(sql::LOAD_MOVES).await.map_err(backend)?;
            conns.push(Conn {
                client,
                append,
                load_game,
                load_moves,
            });
        }
        let ownership = Ownership::connect(url).await?;
        let (rating, connection) = tokio_postgres::connect(url, NoTls)
            .await
            .map_err(|e| StoreError::Backend(format!("cannot connect to PostgreSQL: {e}")))?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::error!("PostgreSQL connection failed: {e}");
            }
        });
        Ok(PostgresStore {
            conns,
            rating: tokio::sync::Mutex::new(rating),
            next: AtomicUsize::new(0),
            ownership,
        })
    }

    /// The node's locks (tests play a lost lock connection with it).
    pub fn ownership(&self) -> &Arc<Ownership> {
        &self.ownership
    }

    /// The epoch this node's writes for the game carry: the one it took the game with, or 0
    /// (never taken by any node: tools and tests that use the store directly).
    fn epoch(&self, game: &str) -> i64 {
        self.ownership.epoch(game).unwrap_or(0)
    }

    /// A pooled connection (the lobby's queries, storage/lobby.rs).
    pub(super) fn client(&self) -> &Client {
        &self.conn().client
    }

    /// Runs a statement on a pooled connection: how many rows it changed.
    pub(super) async fn pg_execute(
        &self,
        statement: &str,
        params: Params<'_>,
    ) -> Result<u64, StoreError> {
        self.client()
            .execute(statement, params)
            .await
            .map_err(backend)
    }

    /// The rows a statement answers on a pooled connection, each read by `row`.
    pub(super) async fn pg_rows<T>(
        &self,
        statement: &str,
        params: Params<'_>,
        row: impl Fn(&Row) -> T,
    ) -> Result<Vec<T>, StoreError> {
        Ok(self
            .client()
            .query(statement, params)
            .await
            .map_err(backend)?
            .iter()
            .map(row)
            .collect())
    }

    /// The row a statement answers on a pooled connection, if any, read by `row`.
    pub(super) async fn pg_row<T>(
        &self,
        statement: &str,
        params: Params<'_>,
        row: impl Fn(&Row) -> T,
    ) -> Result<Option<T>, StoreError> {
        Ok(self
            .client()
            .query_opt(statement, params)
            .await
            .map_err(backend)?
            .as_ref()
            .map(row))
    }

    fn conn(&self) -> &Conn {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.conns.len();
        &self.conns[i]
    }

    /// Game-specific work goes to one connection per game, so that the statements of one
    /// game are applied in the order they were sent.
    fn conn_for(&self, game: &str) -> &Conn {
        let h = game
            .bytes()
            .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize));
        &self.conns[h % self.conns.len()]
    }

    async fn load(&self, id: String) -> Result<Option<StoredGame>, StoreError> {
        let conn = self.conn_for(&id);
        let Some(row) = conn
            .client
            .query_opt(&conn.load_game, &[&id])
            .await
            .map_err(backend)?
        else {
            return Ok(None);
        };
        let moves = conn
            .client
            .query(&conn.load_moves, &[&id])
            .await
            .map_err(backend)?
            .into_iter()
            .map(|r| {
                Ok(StoredMove {
                    ply: r.get::<_, i32>(0) as u32,
                    notation: r.get(1),
                    clocks: clocks_of(r.get(2), r.get(3), r.get(5))?,
                    at_ms: r.get(4),
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        let creator = creator_of(&row.get::<_, String>(6))?;
        let seats = row.get::<_, i32>(17) as usize;
        let (tokens, joined, players, left) = if seats > 2 {
            let rows = conn
                .client
                .query(sql::LOAD_SEATS, &[&id])
                .await
                .map_err(backend)?
                .into_iter()
                .map(|r| SeatRow {
                    token: r.get(0),
                    account: r.get(1),
                    joined: r.get(2),
                    left_ply: r.get::<_, Option<i32>>(3).map(i64::from),
                    left_place: r.get::<_, Option<i32>>(4).map(i64::from),
                    left_cause: r.get(5),
                })
                .collect();
            let (tokens, joined, accounts, left) = from_seat_rows(rows)?;
            (tokens, joined, many_seats_of(accounts, row.get(15))?, left)
        } else {
            let all: bool = row.get(8);
            let joined = (0..2).map(|s| all || s == creator).collect();
            let players = seats_of(row.get(13), row.get(14), row.get(15))?;
            (vec![row.get(4), row.get(5)], joined, players, Vec::new())
        };
        Ok(Some(StoredGame {
            record: GameRecord {
                id,
                variant: row.get(0),
                variant_file: row.get(1),
                time_control: time_control_of(row.get(2), row.get(3)),
                tokens,
                creator,
                invite: row.get(7),
                joined,
                created_ms: row.get(9),
                rematch_of: row.get(10),
                players,
            },
            moves,
            result: seat_result_of(row.get(11))?,
            rematch: row.get(12),
            ratings: shown_ratings(row.get(16), seats)?,
            left,
        }))
    }
}

impl AccountStore for PostgresStore {
    fn create_account(&self, a: Account) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let what = format!("account {}", a.name);
            self.update(
                sql::INSERT_ACCOUNT,
                &[
                    &a.id,
                    &a.name,
                    &name_key(&a.name),
                    &skeleton_key(&a.name),
                    &a.password_hash,
                    &a.telegram_id,
                    &a.bot,
                    &a.created_ms,
                ],
                what,
            )
            .await
            .map(|_| ())
        })
    }

    fn account(&self, id: String) -> StoreFuture<'_, Option<Account>> {
        Box::pin(async move { self.account_where(sql::ACCOUNT_BY_ID, &id).await })
    }

    fn account_by_name(&self, name: String) -> StoreFuture<'_, Option<Account>> {
        Box::pin(async move {
            self.account_where(sql::ACCOUNT_BY_NAME_KEY, &name_key(&name))
                .await
        })
    }

    fn account_by_telegram(&self, telegram_id: i64) -> StoreFuture<'_, Option<Account>> {
        Box::pin(async move {
            self.account_where(sql::ACCOUNT_BY_TELEGRAM, &telegram_id)
                .await
        })
    }

    fn claim_account(
        &self,
        id: String,
        name: String,
        password_hash: String,
    ) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let what = format!("account {name}");
            self.update(
                sql::CLAIM_ACCOUNT,
                &[
                    &name,
                    &name_key(&name),
                    &skeleton_key(&name),
                    &password_hash,
                    &id,
                ],
                what,
            )
            .await
        })
    }

    fn set_password(
        &self,
        id: String,
        password_hash: String,
        keep_session: String,
    ) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let client = self.client();
            client
                .execute(sql::SET_PASSWORD, &[&password_hash, &id])
                .await
                .map_err(backend)?;
            Ok(client
                .query(sql::OTHER_SESSIONS, &[&id, &keep_session])
                .await
                .map_err(backend)?
                .iter()
                .map(|r| r.get(0))
                .collect())
        })
    }

    fn link_telegram(&self, id: String, telegram_id: i64) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            self.update(
                sql::LINK_TELEGRAM,
                &[&telegram_id, &id],
                format!("telegram user {telegram_id}"),
            )
            .await
        })
    }

    fn set_bot(&self, name: String, bot: bool) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            self.update(
                sql::SET_BOT,
                &[&bot, &name_key(&name)],
                format!("account {name}"),
            )
            .await
        })
    }

    fn create_session(
        &self,
        token_hash: String,
        account: String,
        created_ms: i64,
    ) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            self.update(
                sql::CREATE_SESSION,
                &[&token_hash, &account, &created_ms],
                "session".into(),
            )
            .await
            .map(|_| ())
        })
    }

    fn session_account(&self, token_hash: String) -> StoreFuture<'_, Option<Account>> {
        Box::pin(async move {
            self.account_where(sql::ACCOUNT_BY_SESSION, &token_hash)
                .await
        })
    }

    fn delete_session(&self, token_hash: String) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            self.update(sql::DELETE_SESSION, &[&token_hash], "session".into())
                .await
                .map(|_| ())
        })
    }

    fn ratings(&self, account: String) -> StoreFuture<'_, Vec<Rating>> {
        Box::pin(async move {
            self.pg_rows(sql::RATINGS_OF, &[&account], |r| Rating {
                variant: r.get(0),
                rating: r.get(1),
                deviation: r.get(2),
                volatility: r.get(3),
                games: r.get::<_, i32>(4) as u32,
                seats: r.get::<_, i32>(5) as u8,
            })
            .await
        })
    }
}

impl GameStore for PostgresStore {
    fn create_game(&self, g: GameRecord) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let initial = g.time_control.map(|t| t.initial_ms as i64);
            let increment = g.time_control.map(|t| t.increment_ms as i64);
            let (white, black, rated, players) = seat_columns(&g.players);
            let creator = creator_name(g.creator);
            let started = g.started();
            let seats = g.seats() as i32;
            let params: Params<'_> = &[
                &g.id,
                &g.variant,
                &g.variant_file,
                &initial,
                &increment,
                &g.tokens[0],
                &g.tokens[1],
                &creator,
                &g.invite,
                &started,
                &g.created_ms,
                &g.rematch_of,
                &white,
                &black,
                &rated,
                &players,
                &seats,
            ];
            let conflict = |e| conflict_or_backend(e, format!("game {}", g.id));
            if !g.many_seats() {
                self.conn_for(&g.id)
                    .client
                    .execute(sql::CREATE_GAME, params)
                    .await
                    .map_err(conflict)?;
                return Ok(());
            }
            // The game and its seats' rows in one transaction.
            let mut client = self.rating.lock().await;
            let tx = client.transaction().await.map_err(backend)?;
            tx.execute(sql::CREATE_GAME, params)
                .await
                .map_err(conflict)?;
            for (seat, token) in g.tokens.iter().enumerate() {
                let account = g.players.as_ref().map(|p| p.accounts[seat].clone());
                tx.execute(
                    sql::INSERT_SEAT,
                    &[&g.id, &(seat as i32), token, &account, &g.joined[seat]],
                )
                .await
                .map_err(conflict)?;
            }
            tx.commit().await.map_err(backend)?;
            Ok(())
        })
    }

    fn load_game(&self, id: String) -> StoreFuture<'_, Option<StoredGame>> {
        Box::pin(self.load(id))
    }

    fn game_of_invite(&self, invite: String) -> StoreFuture<'_, Option<String>> {
        Box::pin(async move {
            self.pg_row(sql::GAME_OF_INVITE, &[&invite], |r| r.get(0))
                .await
        })
    }

    fn mark_joined(&self, id: String, seat: SeatIndex) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let epoch = self.epoch(&id);
            let client = &self.conn_for(&id).client;
            let seats: Option<i32> = client
                .query_opt(sql::SEATS_OF_GAME, &[&id])
                .await
                .map_err(backend)?
                .map(|r| r.get(0));
            let n = if seats.unwrap_or(2) <= 2 {
                client
                    .execute(
                        "UPDATE games SET joined = TRUE WHERE id = $1 AND NOT joined AND owner_epoch = $2",
                        &[&id, &epoch],
                    )
                    .await
                    .map_err(backend)?
            } else {
                // The seat, fenced by the games row's epoch (locked FOR SHARE, as a move is);
                // then the games row says whether every seat is taken.
                let n = client
                    .execute(
                        "UPDATE game_seats SET joined = TRUE
                         WHERE game = $1 AND seat = $2 AND NOT joined
                           AND EXISTS (SELECT 1 FROM games WHERE id = $1 AND owner_epoch = $3 FOR SHARE)",
                        &[&id, &i32::from(seat), &epoch],
                    )
                    .await
                    .map_err(backend)?;
                client
                    .execute(
                        "UPDATE games SET joined = TRUE WHERE id = $1 AND owner_epoch = $2
                           AND NOT EXISTS (SELECT 1 FROM game_seats WHERE game = $1 AND NOT joined)",
                        &[&id, &epoch],
                    )
                    .await
                    .map_err(backend)?;
                n
            };
            if n == 1 {
                return Ok(true);
            }
            let owned = client
                .query_opt(
                    "SELECT 1 FROM games WHERE id = $1 AND owner_epoch = $2",
                    &[&id, &epoch],
                )
                .await
                .map_err(backend)?;
            match owned {
                Some(_) => Ok(false),
                None => Err(StoreError::NotOwner(id)),
            }
        })
    }

    fn seat_left(&self, id: String, left: SeatLeft) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let epoch = self.epoch(&id);
            let n = self
                .conn_for(&id)
                .client
                .execute(
                    "UPDATE game_seats SET left_ply = $3, left_place = $4, left_cause = $5
                     WHERE game = $1 AND seat = $2
                       AND EXISTS (SELECT 1 FROM games WHERE id = $1 AND owner_epoch = $6 FOR SHARE)",
                    &[
                        &id,
                        &i32::from(left.seat),
                        &(left.ply as i32),
                        &i32::from(left.place),
                        &cause_json(&left.cause),
                        &epoch,
                    ],
                )
                .await
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::NotOwner(id));
            }
            Ok(())
        })
    }

    fn append_move(&self, id: String, m: StoredMove) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let conn = self.conn_for(&id);
            let (white, black, seats) = clock_columns(&m.clocks);
            let epoch = self.epoch(&id);
            let n = conn
                .client
                .execute(
                    &conn.append,
                    &[
                        &id,
                        &(m.ply as i32),
                        &m.notation,
                        &white,
                        &black,
                        &m.at_ms,
                        &epoch,
                        &seats,
                    ],
                )
                .await
                .map_err(|e| conflict_or_backend(e, format!("game {id} ply {}", m.ply)))?;
            if n == 0 {
                return Err(StoreError::NotOwner(id));
            }
            Ok(())
        })
    }

    fn truncate_moves(&self, id: String, from_ply: u32) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let epoch = self.epoch(&id);
            let owned = self
                .conn_for(&id)
                .client
                .query_one(
                    "WITH owner AS (SELECT 1 FROM games WHERE id = $1 AND owner_epoch = $3 FOR SHARE),
                          gone AS (DELETE FROM moves WHERE game = $1 AND ply >= $2
                                   AND EXISTS (SELECT 1 FROM owner))
                     SELECT count(*) FROM owner",
                    &[&id, &(from_ply as i32), &epoch],
                )
                .await
                .map_err(backend)?;
            if owned.get::<_, i64>(0) == 0 {
                return Err(StoreError::NotOwner(id));
            }
            Ok(())
        })
    }

    fn finish_game(&self, id: String, result: SeatResult) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let epoch = self.epoch(&id);
            let n = self
                .conn_for(&id)
                .client
                .execute(
                    "UPDATE games SET result = $2, ended_ms = $4, outcome = $5
                     WHERE id = $1 AND owner_epoch = $3",
                    &[
                        &id,
                        &result_json(&result),
                        &epoch,
                        &now_ms(),
                        &outcome_of(&result),
                    ],
                )
                .await
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::NotOwner(id));
            }
            Ok(())
        })
    }

    fn finish_account_game(
        &self,
        id: String,
        result: SeatResult,
        end: AccountEnd,
    ) -> StoreFuture<'_, Option<Vec<GlickoChange>>> {
        Box::pin(self.finish_account(id, result, end))
    }

    fn game_ids(&self) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move { self.pg_rows(sql::GAME_IDS, &[], |r| r.get(0)).await })
    }
}

impl ArchiveStore for PostgresStore {
    fn player_games(
        &self,
        account: String,
        offset: u32,
        limit: u32,
    ) -> StoreFuture<'_, Vec<ArchivedGame>> {
        Box::pin(async move {
            let rows = self
                .conn()
                .client
                .query(sql::ARCHIVE, &[&account, &(limit as i64), &(offset as i64)])
                .await
                .map_err(backend)?;
            rows.iter()
                .map(|r| {
                    ArchiveRow {
                        id: r.get(0),
                        variant: r.get(1),
                        initial: r.get(2),
                        increment: r.get(3),
                        players: r.get(4),
                        result: r.get(5),
                        changes: r.get(6),
                        plies: r.get(7),
                        created_ms: r.get(8),
                        ended_ms: r.get(9),
                    }
                    .into_game()
                })
                .collect()
        })
    }

    fn tallies(&self, account: String) -> StoreFuture<'_, Vec<Tally>> {
        Box::pin(async move {
            self.pg_rows(sql::TALLIES, &[&account], |r| Tally {
                variant: r.get(0),
                wins: r.get::<_, i64>(1) as u32,
                draws: r.get::<_, i64>(2) as u32,
                losses: r.get::<_, i64>(3) as u32,
            })
            .await
        })
    }

    fn leaderboard(&self, variant: String, seats: u8, limit: u32) -> StoreFuture<'_, Vec<Ranked>> {
        Box::pin(async move {
            self.pg_rows(
                sql::LEADERBOARD,
                &[
                    &variant,
                    &i32::from(seats),
                    &boardcraft_protocol::provisional_deviation(seats),
                    &(limit as i64),
                ],
                |r| Ranked {
                    account: account_row(r),
                    rating: Rating {
                        variant: variant.clone(),
                        rating: r.get(6),
                        deviation: r.get(7),
                        volatility: r.get(8),
                        games: r.get::<_, i32>(9) as u32,
                        seats,
                    },
                },
            )
            .await
        })
    }
}

impl ClusterStore for PostgresStore {
    fn acquire(&self, id: String) -> StoreFuture<'_, Acquired> {
        Box::pin(async move {
            let writer = &self.conn_for(&id).client;
            self.ownership.acquire(&id, writer).await
        })
    }

    fn release(&self, id: String) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.ownership.release(&id).await })
    }

    fn request_handover(&self, id: String) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.ownership.request_handover(&id).await })
    }

    fn cluster_events(&self) -> Option<tokio::sync::broadcast::Receiver<ClusterEvent>> {
        Some(self.ownership.events())
    }
}

impl Storage for PostgresStore {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn health(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            self.conn()
                .client
                .simple_query(sql::HEALTH)
                .await
                .map_err(backend)?;
            Ok(())
        })
    }

    fn limits(&self) -> Option<&dyn super::limits::LimitStore> {
        Some(self)
    }
}

fn account_row(r: &tokio_postgres::Row) -> Account {
    Account {
        id: r.get(0),
        name: r.get(1),
        password_hash: r.get(2),
        telegram_id: r.get(3),
        bot: r.get(4),
        created_ms: r.get(5),
    }
}

impl PostgresStore {
    /// The account one of the `sql::ACCOUNT_BY_…` statements finds.
    async fn account_where(
        &self,
        statement: &str,
        value: &(dyn tokio_postgres::types::ToSql + Sync),
    ) -> Result<Option<Account>, StoreError> {
        self.pg_row(statement, &[value], account_row).await
    }

    async fn update(
        &self,
        statement: &str,
        values: &[&(dyn tokio_postgres::types::ToSql + Sync)],
        what: String,
    ) -> Result<bool, StoreError> {
        self.conn()
            .client
            .execute(statement, values)
            .await
            .map(|n| n == 1)
            .map_err(|e| conflict_or_backend(e, what))
    }
}

impl PostgresStore {
    /// The end and (rated) the seats' new ratings in one transaction on the rating
    /// connection: the game's row first (fenced by the epoch, and only if not ended yet), then
    /// the seats' ratings rows locked in the accounts' order (so that two nodes rating games of
    /// the same players wait for each other instead of deadlocking), the rule run on them,
    /// its ratings written.
    async fn finish_account(
        &self,
        id: String,
        result: SeatResult,
        end: AccountEnd,
    ) -> Result<Option<Vec<GlickoChange>>, StoreError> {
        let epoch = self.epoch(&id);
        let now = now_ms();
        let mut client = self.rating.lock().await;
        let tx = client.transaction().await.map_err(backend)?;
        let row = tx
            .query_opt(
                "SELECT result IS NULL, owner_epoch = $2 FROM games WHERE id = $1 FOR UPDATE",
                &[&id, &epoch],
            )
            .await
            .map_err(backend)?;
        match row.map(|r| (r.get::<_, bool>(0), r.get::<_, bool>(1))) {
            None => return Ok(None),
            Some((_, false)) => return Err(StoreError::NotOwner(id)),
            // Ended already.
            Some((false, true)) => return Ok(None),
            Some((true, true)) => {}
        }
        let (changes, record) = match end.rate {
            Some(rule) => {
                let mut order: Vec<&String> = end.accounts.iter().collect();
                order.sort();
                let fresh = end.fresh;
                let seats = i32::from(end.seats);
                for account in &order {
                    tx.execute(
                        "INSERT INTO ratings (account, variant, seats, rating, deviation,
                            volatility, games, updated_ms)
                         VALUES ($1, $2, $3, $4, $5, $6, 0, $7)
                         ON CONFLICT (account, variant, seats) DO NOTHING",
                        &[
                            account,
                            &end.variant,
                            &seats,
                            &fresh.rating,
                            &fresh.deviation,
                            &fresh.volatility,
                            &now,
                        ],
                    )
                    .await
                    .map_err(backend)?;
                }
                let mut locked = std::collections::HashMap::with_capacity(order.len());
                for account in order {
                    let r = tx
                        .query_one(
                            "SELECT rating, deviation, volatility FROM ratings
                             WHERE account = $1 AND variant = $2 AND seats = $3 FOR UPDATE",
                            &[account, &end.variant, &seats],
                        )
                        .await
                        .map_err(backend)?;
                    let g = Glicko {
                        rating: r.get(0),
                        deviation: r.get(1),
                        volatility: r.get(2),
                    };
                    locked.insert(account, g);
                }
                let before: Vec<Glicko> = end.accounts.iter().map(|a| locked[a]).collect();
                let rerated = rule(&before);
                let changes = seat_changes(before, &rerated)?;
                for (account, change) in end.accounts.iter().zip(&changes) {
                    let after = change.after;
                    tx.execute(
                        "UPDATE ratings SET rating = $4, deviation = $5, volatility = $6,
                            games = games + 1, updated_ms = $7
                         WHERE account = $1 AND variant = $2 AND seats = $3",
                        &[
                            account,
                            &end.variant,
                            &seats,
                            &after.rating,
                            &after.deviation,
                            &after.volatility,
                            &now,
                        ],
                    )
                    .await
                    .map_err(backend)?;
                }
                (Some(changes), Some(rerated.record))
            }
            None => (None, None),
        };
        tx.execute(
            sql::FINISH_ACCOUNT_GAME,
            &[
                &result_json(&result),
                &now,
                &outcome_of(&result),
                &record,
                &id,
            ],
        )
        .await
        .map_err(backend)?;
        tx.commit().await.map_err(backend)?;
        Ok(changes)
    }
}
