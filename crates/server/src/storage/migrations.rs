//! Versioned schema migrations, the same list for SQLite and PostgreSQL, recorded in a
//! `schema_migrations` table (version, name, when). Written by hand rather than with
//! `refinery`: the list is short, and both databases' drivers are the ones the stores already
//! use, with no second driver version to keep in step.
//!
//! A database made before migrations existed has the `games` and `moves` tables and no
//! `schema_migrations`: version 1 and 2 are written with `IF NOT EXISTS`, so they apply to it
//! as to an empty database, and its games are kept.
//!
//! Rules for adding one: append, never edit or reorder an applied migration; each runs in the
//! same transaction as its row in `schema_migrations`.
use rusqlite::Connection;
use tokio_postgres::Client;

use super::StoreError;
use super::now_ms;

/// One step of the schema.
pub struct Migration {
    pub version: i64,
    pub name: &'static str,
    /// Statements for SQLite (may be empty: a step only the other database needs).
    pub sqlite: &'static [&'static str],
    pub postgres: &'static [&'static str],
}

const GAMES: &str = "CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        variant_file TEXT,
        initial_ms BIGINT,
        increment_ms BIGINT,
        white_token TEXT NOT NULL,
        black_token TEXT NOT NULL,
        creator TEXT NOT NULL,
        invite TEXT UNIQUE,
        joined BOOLEAN NOT NULL,
        created_ms BIGINT NOT NULL,
        rematch_of TEXT UNIQUE,
        result TEXT
    )";

const MOVES: &str = "CREATE TABLE IF NOT EXISTS moves (
        game TEXT NOT NULL,
        ply INTEGER NOT NULL,
        notation TEXT NOT NULL,
        white_ms BIGINT,
        black_ms BIGINT,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game, ply)
    )";

/// `name_key` is the name folded to lower case (Unicode, done in Rust: SQLite's `lower` only
/// knows ASCII), so that names are unique whatever their case. A session is kept only as the
/// SHA-256 of its token: a copy of the database signs nobody in.
const ACCOUNTS: &str = "CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        telegram_id BIGINT UNIQUE,
        bot BOOLEAN NOT NULL DEFAULT FALSE,
        created_ms BIGINT NOT NULL
    )";

const SESSIONS: &str = "CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account TEXT NOT NULL REFERENCES accounts (id),
        created_ms BIGINT NOT NULL
    )";

const SESSIONS_BY_ACCOUNT: &str = "CREATE INDEX sessions_account ON sessions (account)";

/// The ratings per account and variant (Glicko-2; a row once the account played a rated game in
/// the variant).
const RATINGS: &str = "CREATE TABLE ratings (
        account TEXT NOT NULL REFERENCES accounts (id),
        variant TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        updated_ms BIGINT NOT NULL,
        PRIMARY KEY (account, variant)
    )";

const RATINGS_BY_VARIANT: &str = "CREATE INDEX ratings_variant ON ratings (variant, rating)";

/// Games between accounts (the lobby's): both accounts, rated or not, the players as they were
/// at the start (JSON `GamePlayers`), the rating changes (JSON, full precision), when it ended
/// and how (`white`, `black`, `draw` or `aborted`: what the archive and the tallies read).
const ACCOUNT_GAME_COLUMNS: &[&str] = &[
    "ALTER TABLE games ADD COLUMN white_account TEXT",
    "ALTER TABLE games ADD COLUMN black_account TEXT",
    "ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE",
    "ALTER TABLE games ADD COLUMN players TEXT",
    "ALTER TABLE games ADD COLUMN rating_changes TEXT",
    "ALTER TABLE games ADD COLUMN ended_ms BIGINT",
    "ALTER TABLE games ADD COLUMN outcome TEXT",
    "CREATE INDEX games_white_account ON games (white_account, ended_ms)",
    "CREATE INDEX games_black_account ON games (black_account, ended_ms)",
    RATINGS,
    RATINGS_BY_VARIANT,
];

/// The lobby (crates/server/src/lobby): nodes and their heartbeat, who is connected on which
/// node, open seeks, quick-pairing pool entries and challenges. Seeks and challenges keep the
/// protocol's JSON of themselves in `body` (what the lobby shows), with the columns queries
/// need beside it.
const LOBBY: &[&str] = &[
    "CREATE TABLE lobby_nodes (
        node TEXT PRIMARY KEY,
        seen_ms BIGINT NOT NULL,
        games BIGINT NOT NULL DEFAULT 0
    )",
    "CREATE TABLE lobby_presence (
        node TEXT NOT NULL,
        account TEXT NOT NULL,
        kind TEXT NOT NULL,
        PRIMARY KEY (node, account, kind)
    )",
    "CREATE INDEX lobby_presence_account ON lobby_presence (account)",
    "CREATE TABLE lobby_seeks (
        id TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        orphaned_ms BIGINT,
        body TEXT NOT NULL
    )",
    "CREATE INDEX lobby_seeks_account ON lobby_seeks (account)",
    "CREATE TABLE lobby_pool (
        account TEXT PRIMARY KEY,
        pool TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        joined_ms BIGINT NOT NULL
    )",
    "CREATE TABLE lobby_challenges (
        id TEXT PRIMARY KEY,
        from_account TEXT NOT NULL,
        to_account TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        body TEXT NOT NULL
    )",
    "CREATE INDEX lobby_challenges_from ON lobby_challenges (from_account)",
    "CREATE INDEX lobby_challenges_to ON lobby_challenges (to_account)",
];

/// Accounts under attack: the windows of the limits every node shares (storage/limits.rs),
/// and each name's confusable skeleton (`crate::names::skeleton_key`), unique, so that no two
/// accounts have names that look alike. Rows made before have no skeleton until the server
/// fills it in at start ([`SKELETONS_MISSING`]); unique indexes allow many NULLs.
const LIMITS_AND_SKELETONS: &[&str] = &[
    "CREATE TABLE limit_windows (
        limit_key TEXT PRIMARY KEY,
        until_ms BIGINT NOT NULL,
        used INTEGER NOT NULL
    )",
    "ALTER TABLE accounts ADD COLUMN name_skeleton TEXT",
    "CREATE UNIQUE INDEX accounts_name_skeleton ON accounts (name_skeleton)",
];

/// Ratings per variant **and number of seats**: a two-seat game rates on Glicko-2, a game of
/// more seats on Weng-Lin (`crate::ratings`), and a player's ratings in one variant for two,
/// three … seats are apart. The rows before are two-seat ones. SQLite cannot change a primary
/// key: the table is made again with the column and its rows copied.
const RATINGS_BY_SEATS_SQLITE: &[&str] = &[
    "CREATE TABLE ratings_by_seats (
        account TEXT NOT NULL REFERENCES accounts (id),
        variant TEXT NOT NULL,
        seats INTEGER NOT NULL DEFAULT 2,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        updated_ms BIGINT NOT NULL,
        PRIMARY KEY (account, variant, seats)
    )",
    "INSERT INTO ratings_by_seats
        (account, variant, seats, rating, deviation, volatility, games, updated_ms)
     SELECT account, variant, 2, rating, deviation, volatility, games, updated_ms FROM ratings",
    "DROP TABLE ratings",
    "ALTER TABLE ratings_by_seats RENAME TO ratings",
    RATINGS_BY_SEATS_INDEX,
];

const RATINGS_BY_SEATS_POSTGRES: &[&str] = &[
    "ALTER TABLE ratings ADD COLUMN seats INTEGER NOT NULL DEFAULT 2",
    "ALTER TABLE ratings DROP CONSTRAINT ratings_pkey",
    "ALTER TABLE ratings ADD PRIMARY KEY (account, variant, seats)",
    "DROP INDEX ratings_variant",
    RATINGS_BY_SEATS_INDEX,
];

const RATINGS_BY_SEATS_INDEX: &str =
    "CREATE INDEX ratings_variant ON ratings (variant, seats, rating)";

/// Games of more than two seats: the games row says how many (`seats`, 2 for every game
/// before); such a game keeps a row per seat in `game_seats` — its token, its account (a game
/// between accounts), whether it is taken, and, when the seat left while the others played
/// on, the ply, its place and why (JSON `EndCause`) — and each move's clocks as a list
/// (`seat_ms`, JSON) beside White's and Black's columns. Two-seat games are kept as before.
const MANY_SEATS: &[&str] = &[
    "ALTER TABLE games ADD COLUMN seats INTEGER NOT NULL DEFAULT 2",
    "CREATE TABLE game_seats (
        game TEXT NOT NULL,
        seat INTEGER NOT NULL,
        token TEXT NOT NULL,
        account TEXT,
        joined BOOLEAN NOT NULL,
        left_ply INTEGER,
        left_place INTEGER,
        left_cause TEXT,
        PRIMARY KEY (game, seat)
    )",
    "ALTER TABLE moves ADD COLUMN seat_ms TEXT",
];

/// Seeks for tables of more than two: how many seats a seek has and how many are taken (the
/// seeker's included), and a row per player who took a seat at it. A seat is taken by one
/// statement that raises `filled` only while it is below `seats` (PostgreSQL re-checks it
/// on the row it locked), so concurrent accepters never seat more than `seats`.
const SEEK_SEATS: &[&str] = &[
    "ALTER TABLE lobby_seeks ADD COLUMN seats INTEGER NOT NULL DEFAULT 2",
    "ALTER TABLE lobby_seeks ADD COLUMN filled INTEGER NOT NULL DEFAULT 1",
    "CREATE TABLE lobby_seek_seats (
        seek TEXT NOT NULL,
        account TEXT NOT NULL,
        joined_ms BIGINT NOT NULL,
        PRIMARY KEY (seek, account)
    )",
    "CREATE INDEX lobby_seek_seats_account ON lobby_seek_seats (account)",
];

super::sql::statements! {
    /// The accounts whose skeleton is still to be computed (made before it was kept).
    SKELETONS_MISSING = "SELECT id, name FROM accounts WHERE name_skeleton IS NULL";
    /// Sets one account's skeleton (`$1` skeleton, `$2` id).
    SET_SKELETON = "UPDATE accounts SET name_skeleton = $1 WHERE id = $2";
    /// Records an applied migration (`$1` version, `$2` name, `$3` when).
    RECORD_MIGRATION =
        "INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)";
}

/// Every migration, in order of version.
///
/// Version numbers: the lobby's migrations are numbered from 100 (100, 101 …) so that they
/// never clash with the other branches' (ratings and games: 4, 5 …) while both were written
/// at once. The runner applies every version not yet recorded, whatever the highest recorded
/// one is, so a gap or a later, lower version is applied too.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "games and moves",
        sqlite: &[GAMES, MOVES],
        postgres: &[GAMES, MOVES],
    },
    Migration {
        version: 2,
        name: "owner epoch (several nodes on PostgreSQL)",
        sqlite: &[],
        postgres: &[
            "ALTER TABLE games ADD COLUMN IF NOT EXISTS owner_epoch BIGINT NOT NULL DEFAULT 0",
        ],
    },
    Migration {
        version: 3,
        name: "accounts and sessions",
        sqlite: &[ACCOUNTS, SESSIONS, SESSIONS_BY_ACCOUNT],
        postgres: &[ACCOUNTS, SESSIONS, SESSIONS_BY_ACCOUNT],
    },
    Migration {
        version: 4,
        name: "account games and ratings",
        sqlite: ACCOUNT_GAME_COLUMNS,
        postgres: ACCOUNT_GAME_COLUMNS,
    },
    Migration {
        version: 5,
        name: "shared limits and name skeletons",
        sqlite: LIMITS_AND_SKELETONS,
        postgres: LIMITS_AND_SKELETONS,
    },
    Migration {
        version: 6,
        name: "ratings per variant and number of seats",
        sqlite: RATINGS_BY_SEATS_SQLITE,
        postgres: RATINGS_BY_SEATS_POSTGRES,
    },
    Migration {
        version: 7,
        name: "games of more than two seats",
        sqlite: MANY_SEATS,
        postgres: MANY_SEATS,
    },
    Migration {
        version: 100,
        name: "lobby: nodes, presence, seeks, pools, challenges",
        sqlite: LOBBY,
        postgres: LOBBY,
    },
    Migration {
        version: 101,
        name: "lobby: seeks for tables of more than two",
        sqlite: SEEK_SEATS,
        postgres: SEEK_SEATS,
    },
];

const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
        version BIGINT PRIMARY KEY,
        name TEXT NOT NULL,
        applied_ms BIGINT NOT NULL
    )";

/// The migrations not yet `applied` (the versions recorded), in order, or an error if the
/// database was migrated by a newer server (a version this one does not know: it would not
/// know its tables).
fn pending(applied: &[i64]) -> Result<Vec<&'static Migration>, StoreError> {
    if let Some(unknown) = applied
        .iter()
        .find(|v| !MIGRATIONS.iter().any(|m| m.version == **v))
    {
        let latest = MIGRATIONS.iter().map(|m| m.version).max().unwrap_or(0);
        return Err(StoreError::Backend(format!(
            "the database's schema has version {unknown}, which this server (up to {latest}) \
             does not know: run a newer boardcraft-server"
        )));
    }
    Ok(MIGRATIONS
        .iter()
        .filter(|m| !applied.contains(&m.version))
        .collect())
}

/// Brings a SQLite database up to date, in one transaction.
pub fn migrate_sqlite(conn: &mut Connection) -> Result<Vec<i64>, StoreError> {
    let backend = |e: rusqlite::Error| StoreError::Backend(format!("migrating: {e}"));
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(backend)?;
    tx.execute(CREATE_TABLE, []).map_err(backend)?;
    let applied: Vec<i64> = {
        let mut stmt = tx
            .prepare("SELECT version FROM schema_migrations")
            .map_err(backend)?;
        stmt.query_map([], |r| r.get(0))
            .map_err(backend)?
            .collect::<Result<_, _>>()
            .map_err(backend)?
    };
    let mut done = Vec::new();
    for m in pending(&applied)? {
        for statement in m.sqlite {
            tx.execute(statement, []).map_err(backend)?;
        }
        tx.execute(
            RECORD_MIGRATION,
            rusqlite::params![m.version, m.name, now_ms()],
        )
        .map_err(backend)?;
        done.push(m.version);
    }
    tx.commit().map_err(backend)?;
    Ok(done)
}

/// Brings a PostgreSQL database up to date, in one transaction that holds an advisory lock:
/// nodes (and tests) starting together migrate one after the other, and the later ones find
/// nothing left to do. (The lock's two-key form is a key space of its own, apart from the
/// games' one-key locks.)
pub async fn migrate_postgres(client: &mut Client) -> Result<Vec<i64>, StoreError> {
    let backend = |e: tokio_postgres::Error| StoreError::Backend(format!("migrating: {e}"));
    let tx = client.transaction().await.map_err(backend)?;
    tx.batch_execute("SELECT pg_advisory_xact_lock(1651470706, 1)")
        .await
        .map_err(backend)?;
    tx.batch_execute(CREATE_TABLE).await.map_err(backend)?;
    let applied: Vec<i64> = tx
        .query("SELECT version::int8 FROM schema_migrations", &[])
        .await
        .map_err(backend)?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let mut done = Vec::new();
    for m in pending(&applied)? {
        for statement in m.postgres {
            tx.batch_execute(statement).await.map_err(backend)?;
        }
        tx.execute(RECORD_MIGRATION, &[&m.version, &m.name, &now_ms()])
            .await
            .map_err(backend)?;
        done.push(m.version);
    }
    tx.commit().await.map_err(backend)?;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_rise_and_are_applied_once() {
        for w in MIGRATIONS.windows(2) {
            assert!(w[0].version < w[1].version, "{}", w[1].name);
        }
        let all: Vec<i64> = MIGRATIONS.iter().map(|m| m.version).collect();
        assert_eq!(pending(&[]).unwrap().len(), MIGRATIONS.len());
        assert!(pending(&all).unwrap().is_empty());
        // A database that has the lobby's version but not an earlier one added later.
        let without_first: Vec<i64> = all[1..].to_vec();
        assert_eq!(pending(&without_first).unwrap()[0].version, all[0]);
        assert!(pending(&[all[0], 99_999]).is_err());
    }

    const ACCOUNT: &str = "INSERT INTO accounts (id, name, name_key, created_ms)
        VALUES ('a1', 'Anna', 'anna', 1)";
    const TWO_SEAT: &str = "INSERT INTO ratings
        (account, variant, rating, deviation, volatility, games, updated_ms)
        VALUES ('a1', 'chinese-checkers', 1620.5, 80.25, 0.06, 31, 1)";
    const THREE_SEAT: &str = "INSERT INTO ratings
        (account, variant, seats, rating, deviation, volatility, games, updated_ms)
        VALUES ('a1', 'chinese-checkers', 3, 1500, 500, 0, 0, 1)";
    const READ: &str = "SELECT seats, rating, deviation, games FROM ratings
        WHERE account = 'a1' AND variant = 'chinese-checkers' ORDER BY seats";

    /// A database with every migration but the ratings' seats, and a rating in it.
    fn before_seats() -> impl Iterator<Item = &'static Migration> {
        MIGRATIONS.iter().filter(|m| m.version != 6)
    }

    /// The rows of a database made before ratings had seats are two-seat ratings, kept; a
    /// rating of three seats of the same player and variant then is a row of its own.
    #[test]
    fn sqlite_ratings_made_before_seats_are_two_seat_ones() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = Connection::open(dir.path().join("t.sqlite3")).unwrap();
        c.execute(CREATE_TABLE, []).unwrap();
        for m in before_seats() {
            for statement in m.sqlite {
                c.execute(statement, []).unwrap();
            }
            c.execute(RECORD_MIGRATION, rusqlite::params![m.version, m.name, 1])
                .unwrap();
        }
        c.execute(ACCOUNT, []).unwrap();
        c.execute(TWO_SEAT, []).unwrap();
        assert_eq!(migrate_sqlite(&mut c).unwrap(), [6]);
        c.execute(THREE_SEAT, []).unwrap();
        let rows: Vec<(i64, f64, f64, i64)> = c
            .prepare(READ)
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(rows, [(2, 1620.5, 80.25, 31), (3, 1500.0, 500.0, 0)]);
        // The key is (account, variant, seats): a second two-seat row is refused.
        assert!(c.execute(TWO_SEAT, []).is_err());
    }

    #[tokio::test]
    async fn postgres_ratings_made_before_seats_are_two_seat_ones() {
        let url = match std::env::var("BOARDCRAFT_TEST_POSTGRES") {
            Ok(url) if !url.is_empty() => url,
            // Skipped without a database, except under CI (as the online tests).
            _ if std::env::var_os("CI").is_some() => {
                panic!("CI is set but BOARDCRAFT_TEST_POSTGRES is not")
            }
            _ => return,
        };
        let (mut c, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        let schema = format!("seats_{}", crate::secrets::game_id());
        c.batch_execute(&format!(
            "CREATE SCHEMA {schema}; SET search_path TO {schema}"
        ))
        .await
        .unwrap();
        c.batch_execute(CREATE_TABLE).await.unwrap();
        for m in before_seats() {
            for statement in m.postgres {
                c.batch_execute(statement).await.unwrap();
            }
            c.execute(RECORD_MIGRATION, &[&m.version, &m.name, &1i64])
                .await
                .unwrap();
        }
        c.batch_execute(ACCOUNT).await.unwrap();
        c.batch_execute(TWO_SEAT).await.unwrap();
        assert_eq!(migrate_postgres(&mut c).await.unwrap(), [6]);
        c.batch_execute(THREE_SEAT).await.unwrap();
        let rows: Vec<(i32, f64, f64, i32)> = c
            .query(READ, &[])
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
            .collect();
        let refused = c.batch_execute(TWO_SEAT).await.is_err();
        c.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
            .await
            .unwrap();
        assert_eq!(rows, [(2, 1620.5, 80.25, 31), (3, 1500.0, 500.0, 0)]);
        assert!(refused, "the key is (account, variant, seats)");
    }
}
