//! Versioned migrations and accounts (guest, password, sessions, Telegram), against a real
//! server on 127.0.0.1:0, on SQLite and on PostgreSQL (BOARDCRAFT_TEST_POSTGRES).
use boardcraft_server::storage;

use crate::support::postgres_url;

/// The schema as it was before migrations existed (the server's `SCHEMA` of that time), with
/// one game and two moves in it.
const OLD_SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS games (
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
    )",
    "CREATE TABLE IF NOT EXISTS moves (
        game TEXT NOT NULL,
        ply INTEGER NOT NULL,
        notation TEXT NOT NULL,
        white_ms BIGINT,
        black_ms BIGINT,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game, ply)
    )",
];

const OLD_ROWS: &[&str] = &[
    "INSERT INTO games (id, variant, initial_ms, increment_ms, white_token, black_token, creator,
        invite, joined, created_ms)
     VALUES ('oldgame2345a', 'ugolki-9qum', 60000, 1000, 'wtok', 'btok', 'white',
        'oldgame2345ainvite', TRUE, 7)",
    "INSERT INTO moves (game, ply, notation, white_ms, black_ms, at_ms)
     VALUES ('oldgame2345a', 0, 'c3-d4', 59000, 60000, 8)",
    "INSERT INTO moves (game, ply, notation, white_ms, black_ms, at_ms)
     VALUES ('oldgame2345a', 1, 'f6-e5', 59000, 58000, 9)",
];

/// The old game, read back through the migrated store.
async fn old_game_is_kept(store: &dyn storage::Storage) {
    let game = store
        .load_game("oldgame2345a".into())
        .await
        .unwrap()
        .expect("the game made before the migration");
    assert_eq!(game.record.variant, "ugolki-9qum");
    assert_eq!(game.record.tokens, ["wtok".to_owned(), "btok".to_owned()]);
    assert_eq!(
        game.moves
            .iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>(),
        ["c3-d4", "f6-e5"]
    );
    assert_eq!(game.moves[1].clocks, Some([59000, 58000]));
    // And the new tables are there.
    assert!(
        store
            .account_by_name("nobody".into())
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn sqlite_migration_keeps_the_games_of_an_old_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        for s in OLD_SCHEMA.iter().chain(OLD_ROWS) {
            conn.execute(s, []).unwrap();
        }
    }
    let url = path.display().to_string();
    let store = storage::open(&url).await.unwrap();
    old_game_is_kept(store.as_ref()).await;
    drop(store);
    // Opened again: nothing is applied twice, every version is recorded once.
    let store = storage::open(&url).await.unwrap();
    old_game_is_kept(store.as_ref()).await;
    let conn = rusqlite::Connection::open(&path).unwrap();
    let versions: Vec<i64> = conn
        .prepare("SELECT version FROM schema_migrations ORDER BY version")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let expected: Vec<i64> = storage::migrations::MIGRATIONS
        .iter()
        .map(|m| m.version)
        .collect();
    assert_eq!(versions, expected);
}

/// PostgreSQL: an old database in a schema of its own (search_path in the URL), so the test
/// database's other tables are not touched.
#[tokio::test]
async fn postgres_migration_keeps_the_games_of_an_old_database() {
    let Some(url) = postgres_url() else { return };
    let schema = format!("old_{}", boardcraft_server::secrets::game_id());
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
        .batch_execute(&format!(
            "CREATE SCHEMA {schema}; SET search_path TO {schema}"
        ))
        .await
        .unwrap();
    for s in OLD_SCHEMA.iter().chain(OLD_ROWS) {
        client.batch_execute(s).await.unwrap();
    }
    let sep = if url.contains('?') { '&' } else { '?' };
    let scoped = format!("{url}{sep}options=-csearch_path%3D{schema}");
    let store = storage::open(&scoped).await.unwrap();
    old_game_is_kept(store.as_ref()).await;
    let owner_epoch: i64 = client
        .query_one(
            "SELECT owner_epoch FROM games WHERE id = 'oldgame2345a'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(owner_epoch, 0);
    let versions: i64 = client
        .query_one("SELECT count(*) FROM schema_migrations", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(versions as usize, storage::migrations::MIGRATIONS.len());
    drop(store);
    client
        .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .await
        .unwrap();
}
