//! PostgreSQL, for a server that outgrows one machine (docs/online.md). A few connections,
//! used round-robin; tokio-postgres pipelines the statements of many games on each. Every
//! change is a single statement in autocommit: when it returns, it is committed.
use std::sync::{
    Arc,
    atomic::{AtomicUsize, Ordering},
};

use boardcraft_protocol::GameResult;
use tokio_postgres::{Client, NoTls, Statement, error::SqlState};

use super::{
    Account, GameRecord, Storage, StoreError, StoreFuture, StoredGame, StoredMove, name_key,
    ownership::{Acquired, ClusterEvent, Ownership},
    result_json, result_of, side_name, side_of, time_control_of,
};

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
    next: AtomicUsize,
    ownership: Arc<Ownership>,
}

fn backend(e: tokio_postgres::Error) -> StoreError {
    StoreError::Backend(e.to_string())
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
            }
            // Fenced: only while the game's row still has the writer's epoch (the row locked
            // FOR SHARE, so that a takeover's epoch bump waits for this insert to commit, and
            // then loads it).
            let append = client
                .prepare(
                    "INSERT INTO moves (game, ply, notation, white_ms, black_ms, at_ms)
                     SELECT $1::text, $2::int4, $3::text, $4::int8, $5::int8, $6::int8
                     FROM games WHERE id = $1 AND owner_epoch = $7::int8 FOR SHARE",
                )
                .await
                .map_err(backend)?;
            let load_game = client
                .prepare(
                    "SELECT variant, variant_file, initial_ms, increment_ms, white_token,
                            black_token, creator, invite, joined, created_ms, rematch_of, result,
                            (SELECT r.id FROM games r WHERE r.rematch_of = g.id)
                     FROM games g WHERE g.id = $1",
                )
                .await
                .map_err(backend)?;
            let load_moves = client
                .prepare(
                    "SELECT ply, notation, white_ms, black_ms, at_ms FROM moves
                     WHERE game = $1 ORDER BY ply",
                )
                .await
                .map_err(backend)?;
            conns.push(Conn {
                client,
                append,
                load_game,
                load_moves,
            });
        }
        let ownership = Ownership::connect(url).await?;
        Ok(PostgresStore {
            conns,
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
                let white: Option<i64> = r.get(2);
                let black: Option<i64> = r.get(3);
                StoredMove {
                    ply: r.get::<_, i32>(0) as u32,
                    notation: r.get(1),
                    clocks: white.zip(black).map(|(w, b)| [w as u64, b as u64]),
                    at_ms: r.get(4),
                }
            })
            .collect();
        let creator: String = row.get(6);
        Ok(Some(StoredGame {
            record: GameRecord {
                id,
                variant: row.get(0),
                variant_file: row.get(1),
                time_control: time_control_of(row.get(2), row.get(3)),
                tokens: [row.get(4), row.get(5)],
                creator: side_of(&creator)?,
                invite: row.get(7),
                joined: row.get(8),
                created_ms: row.get(9),
                rematch_of: row.get(10),
            },
            moves,
            result: result_of(row.get(11))?,
            rematch: row.get(12),
        }))
    }
}

impl Storage for PostgresStore {
    fn lobby(&self) -> Option<&dyn super::lobby::LobbyStore> {
        Some(self)
    }

    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn create_game(&self, g: GameRecord) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let initial = g.time_control.map(|t| t.initial_ms as i64);
            let increment = g.time_control.map(|t| t.increment_ms as i64);
            self.conn_for(&g.id)
                .client
                .execute(
                    "INSERT INTO games (id, variant, variant_file, initial_ms, increment_ms,
                        white_token, black_token, creator, invite, joined, created_ms, rematch_of)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                    &[
                        &g.id,
                        &g.variant,
                        &g.variant_file,
                        &initial,
                        &increment,
                        &g.tokens[0],
                        &g.tokens[1],
                        &side_name(g.creator),
                        &g.invite,
                        &g.joined,
                        &g.created_ms,
                        &g.rematch_of,
                    ],
                )
                .await
                .map_err(|e| conflict_or_backend(e, format!("game {}", g.id)))?;
            Ok(())
        })
    }

    fn load_game(&self, id: String) -> StoreFuture<'_, Option<StoredGame>> {
        Box::pin(self.load(id))
    }

    fn game_of_invite(&self, invite: String) -> StoreFuture<'_, Option<String>> {
        Box::pin(async move {
            let row = self
                .conn()
                .client
                .query_opt("SELECT id FROM games WHERE invite = $1", &[&invite])
                .await
                .map_err(backend)?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    fn mark_joined(&self, id: String) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let epoch = self.epoch(&id);
            let client = &self.conn_for(&id).client;
            let n = client
                .execute(
                    "UPDATE games SET joined = TRUE WHERE id = $1 AND NOT joined AND owner_epoch = $2",
                    &[&id, &epoch],
                )
                .await
                .map_err(backend)?;
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

    fn append_move(&self, id: String, m: StoredMove) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let conn = self.conn_for(&id);
            let white = m.clocks.map(|c| c[0] as i64);
            let black = m.clocks.map(|c| c[1] as i64);
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

    fn finish_game(&self, id: String, result: GameResult) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let epoch = self.epoch(&id);
            let n = self
                .conn_for(&id)
                .client
                .execute(
                    "UPDATE games SET result = $2 WHERE id = $1 AND owner_epoch = $3",
                    &[&id, &result_json(&result), &epoch],
                )
                .await
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::NotOwner(id));
            }
            Ok(())
        })
    }

    fn game_ids(&self) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let rows = self
                .conn()
                .client
                .query("SELECT id FROM games ORDER BY created_ms, id", &[])
                .await
                .map_err(backend)?;
            Ok(rows.into_iter().map(|r| r.get(0)).collect())
        })
    }

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

    fn create_account(&self, a: Account) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let what = format!("account {}", a.name);
            self.update(
                "INSERT INTO accounts (id, name, name_key, password_hash, telegram_id, bot, created_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    &a.id,
                    &a.name,
                    &name_key(&a.name),
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
        Box::pin(async move { self.account_where("id = $1", &id).await })
    }

    fn account_by_name(&self, name: String) -> StoreFuture<'_, Option<Account>> {
        Box::pin(async move { self.account_where("name_key = $1", &name_key(&name)).await })
    }

    fn account_by_telegram(&self, telegram_id: i64) -> StoreFuture<'_, Option<Account>> {
        Box::pin(async move { self.account_where("telegram_id = $1", &telegram_id).await })
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
                "UPDATE accounts SET name = $2, name_key = $3, password_hash = $4
                 WHERE id = $1 AND password_hash IS NULL",
                &[&id, &name, &name_key(&name), &password_hash],
                what,
            )
            .await
        })
    }

    fn link_telegram(&self, id: String, telegram_id: i64) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            self.update(
                "UPDATE accounts SET telegram_id = $2 WHERE id = $1 AND telegram_id IS NULL",
                &[&id, &telegram_id],
                format!("telegram user {telegram_id}"),
            )
            .await
        })
    }

    fn set_bot(&self, name: String, bot: bool) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            self.update(
                "UPDATE accounts SET bot = $2 WHERE name_key = $1",
                &[&name_key(&name), &bot],
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
                "INSERT INTO sessions (token_hash, account, created_ms) VALUES ($1, $2, $3)",
                &[&token_hash, &account, &created_ms],
                "session".into(),
            )
            .await
            .map(|_| ())
        })
    }

    fn session_account(&self, token_hash: String) -> StoreFuture<'_, Option<Account>> {
        Box::pin(async move {
            self.account_where(
                "id = (SELECT account FROM sessions WHERE token_hash = $1)",
                &token_hash,
            )
            .await
        })
    }

    fn delete_session(&self, token_hash: String) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            self.update(
                "DELETE FROM sessions WHERE token_hash = $1",
                &[&token_hash],
                "session".into(),
            )
            .await
            .map(|_| ())
        })
    }

    fn health(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            self.conn()
                .client
                .simple_query("SELECT 1")
                .await
                .map_err(backend)?;
            Ok(())
        })
    }
}

const ACCOUNT_COLUMNS: &str = "id, name, password_hash, telegram_id, bot, created_ms";

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
    async fn account_where(
        &self,
        condition: &str,
        value: &(dyn tokio_postgres::types::ToSql + Sync),
    ) -> Result<Option<Account>, StoreError> {
        let row = self
            .conn()
            .client
            .query_opt(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE {condition}"),
                &[value],
            )
            .await
            .map_err(backend)?;
        Ok(row.as_ref().map(account_row))
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
