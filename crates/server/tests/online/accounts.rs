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
    assert_eq!(game.moves[1].clocks, Some(vec![59000, 58000]));
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
    // PostgreSQL's tables had one column more (several nodes): the game taken 3 times.
    client
        .batch_execute(
            "ALTER TABLE games ADD COLUMN IF NOT EXISTS owner_epoch BIGINT NOT NULL DEFAULT 0;
             UPDATE games SET owner_epoch = 3",
        )
        .await
        .unwrap();
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
    assert_eq!(owner_epoch, 3, "the migration keeps the game's epoch");
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

// ----- accounts over HTTP

use std::net::SocketAddr;

use boardcraft_protocol::http::{AccountInfo, SignedIn};
use boardcraft_server::{Settings, accounts::TelegramBotToken};
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::support::{Killable, Server, error_code_text, http_full, settings};

/// An account made before name skeletons were kept gets its skeleton when the store opens
/// (`fill_in_skeletons`: the statement's placeholders bound in the right order).
async fn an_older_accounts_skeleton_is_filled_in(db: &Db) {
    let name = unique_name("Older");
    let store = storage::open(&db.url()).await.unwrap();
    let account = storage::Account {
        id: boardcraft_server::secrets::invite(),
        name: name.clone(),
        password_hash: None,
        telegram_id: None,
        bot: false,
        created_ms: 1,
    };
    store.create_account(account.clone()).await.unwrap();
    drop(store);
    let forget = "UPDATE accounts SET name_skeleton = NULL WHERE id = $1";
    let read = "SELECT name_skeleton FROM accounts WHERE id = $1";
    let expected = Some(boardcraft_server::names::skeleton_key(&name));
    match db {
        Db::Sqlite(_) => {
            let conn = rusqlite::Connection::open(db.url()).unwrap();
            conn.busy_timeout(std::time::Duration::from_secs(5))
                .unwrap();
            conn.execute(forget, [&account.id]).unwrap();
            drop(conn);
            let store = storage::open(&db.url()).await.unwrap();
            assert!(store.account(account.id.clone()).await.unwrap().is_some());
            let conn = rusqlite::Connection::open(db.url()).unwrap();
            conn.busy_timeout(std::time::Duration::from_secs(5))
                .unwrap();
            let skeleton: Option<String> =
                conn.query_row(read, [&account.id], |r| r.get(0)).unwrap();
            assert_eq!(skeleton, expected);
            drop(store);
        }
        Db::Postgres(url) => {
            let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(connection);
            client.execute(forget, &[&account.id]).await.unwrap();
            let _store = storage::open(url).await.unwrap();
            let skeleton: Option<String> =
                client.query_one(read, &[&account.id]).await.unwrap().get(0);
            assert_eq!(skeleton, expected);
        }
    }
}

#[tokio::test]
async fn sqlite_an_older_accounts_skeleton_is_filled_in() {
    an_older_accounts_skeleton_is_filled_in(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_an_older_accounts_skeleton_is_filled_in() {
    let Some(db) = Db::postgres() else { return };
    an_older_accounts_skeleton_is_filled_in(&db).await;
}

/// A database for one test: a fresh SQLite file (its folder kept alive by the guard) or the
/// test PostgreSQL (shared: names in these tests are random).
pub(crate) enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

impl Db {
    pub(crate) fn sqlite() -> Db {
        Db::Sqlite(tempfile::tempdir().unwrap())
    }

    fn postgres() -> Option<Db> {
        postgres_url().map(Db::Postgres)
    }

    pub(crate) fn url(&self) -> String {
        match self {
            Db::Sqlite(dir) => dir.path().join("server.sqlite3").display().to_string(),
            Db::Postgres(url) => url.clone(),
        }
    }
}

/// A name no other test run has taken (PostgreSQL is shared between runs).
pub(crate) fn unique_name(prefix: &str) -> String {
    format!("{prefix}{}", &boardcraft_server::secrets::game_id()[..8])
}

/// [`unique_name`] in Cyrillic letters (and digits).
fn unique_cyrillic(prefix: &str) -> String {
    const LETTERS: &[char] = &[
        'б', 'в', 'г', 'д', 'ж', 'з', 'и', 'й', 'к', 'л', 'м', 'н', 'п', 'т', 'ф', 'ц', 'ч', 'ш',
        'щ', 'ы', 'э', 'ю', 'я', 'ь', 'ъ', 'л', 'д', 'г',
    ];
    let random = unique_name("");
    let tail: String = random
        .bytes()
        .map(|b| match b {
            b'2'..=b'9' => b as char,
            _ => LETTERS[(b - b'a') as usize % LETTERS.len()],
        })
        .collect();
    format!("{prefix}{tail}")
}

pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Answer {
    fn json<T: serde::de::DeserializeOwned>(&self) -> T {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "{e}: {} {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub(crate) fn code(&self) -> String {
        error_code_text(&self.body)
    }

    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

pub(crate) async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> Answer {
    let (status, headers, body) = http_full(addr, method, path, body, headers).await;
    Answer {
        status,
        headers,
        body,
    }
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

async fn guest(addr: SocketAddr) -> (SignedIn, Answer) {
    let answer = request(addr, "POST", "/api/accounts/guest", None, &[]).await;
    assert_eq!(
        answer.status,
        201,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    (answer.json(), answer)
}

async fn me(addr: SocketAddr, auth: &[(&str, &str)]) -> Answer {
    request(addr, "GET", "/api/me", None, auth).await
}

async fn claim(addr: SocketAddr, token: &str, name: &str, password: &str) -> Answer {
    let body = serde_json::json!({"name": name, "password": password}).to_string();
    request(
        addr,
        "POST",
        "/api/accounts/claim",
        Some(&body),
        &[("Authorization", &bearer(token))],
    )
    .await
}

async fn sign_in(addr: SocketAddr, name: &str, password: &str) -> Answer {
    let body = serde_json::json!({"name": name, "password": password}).to_string();
    request(addr, "POST", "/api/session", Some(&body), &[]).await
}

async fn guest_and_cookie(db: &Db) {
    let server = Server::start_on(&db.url(), settings()).await;
    let (a, answer) = guest(server.addr).await;
    let (b, _) = guest(server.addr).await;
    assert!(a.account.guest && !a.account.bot && !a.account.telegram);
    assert!(a.account.name.starts_with("Guest-"), "{}", a.account.name);
    let parts: Vec<&str> = a.account.name.split('-').collect();
    assert_eq!(
        parts.len(),
        4,
        "Guest-adjective-animal-number: {}",
        a.account.name
    );
    assert!(parts[3].parse::<u32>().is_ok());
    assert_ne!(a.account.id, b.account.id);
    assert_ne!(a.account.name, b.account.name);
    assert!(a.token.len() >= 43, "a long token");
    assert_ne!(a.token, b.token);
    // The cookie: the same token, out of scripts' reach, not sent by other sites' requests.
    let cookie = answer.header("set-cookie").expect("a Set-Cookie header");
    let attributes: Vec<&str> = cookie.split(';').map(str::trim).collect();
    assert_eq!(attributes[0], format!("boardcraft_session={}", a.token));
    assert!(attributes.contains(&"HttpOnly"), "{cookie}");
    assert!(attributes.contains(&"SameSite=Lax"), "{cookie}");
    assert!(attributes.contains(&"Path=/"), "{cookie}");
    assert!(!attributes.contains(&"Secure"), "plain http: {cookie}");
    // Both ways of presenting the session sign in the same account.
    let by_bearer = me(server.addr, &[("Authorization", &bearer(&a.token))]).await;
    assert_eq!(by_bearer.status, 200);
    assert_eq!(by_bearer.json::<AccountInfo>(), a.account);
    let by_cookie = me(server.addr, &[("Cookie", attributes[0])]).await;
    assert_eq!(by_cookie.json::<AccountInfo>(), a.account);
    let nobody = me(server.addr, &[]).await;
    assert_eq!(
        (nobody.status, nobody.code().as_str()),
        (401, "not_signed_in")
    );
    let forged = me(server.addr, &[("Authorization", &bearer(&b.token[1..]))]).await;
    assert_eq!(forged.status, 401);

    // Served over https: the cookie is Secure too.
    let mut secure = settings();
    secure.public_url = Some("https://play.example.org".into());
    let server = Server::start_on(&db.url(), secure).await;
    let (_, answer) = guest(server.addr).await;
    let cookie = answer.header("set-cookie").unwrap();
    assert!(cookie.split(';').any(|a| a.trim() == "Secure"), "{cookie}");
}

#[tokio::test]
async fn sqlite_guest_account_and_its_cookie() {
    guest_and_cookie(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_guest_account_and_its_cookie() {
    let Some(db) = Db::postgres() else { return };
    guest_and_cookie(&db).await;
}

async fn claim_sign_in_and_out(db: &Db) {
    let server = Server::start_on(&db.url(), settings()).await;
    let addr = server.addr;
    let (g, _) = guest(addr).await;
    let name = unique_name("Anna_");
    let claimed = claim(addr, &g.token, &name, "correct horse battery").await;
    assert_eq!(
        claimed.status,
        200,
        "{}",
        String::from_utf8_lossy(&claimed.body)
    );
    let info: AccountInfo = claimed.json();
    assert_eq!((info.name.as_str(), info.guest), (name.as_str(), false));
    assert_eq!(info.id, g.account.id);
    // Claimed once only.
    let again = claim(addr, &g.token, &unique_name("Other"), "another password").await;
    assert_eq!(
        (again.status, again.code().as_str()),
        (409, "already_claimed")
    );
    // The name is taken whatever its case.
    let (other, _) = guest(addr).await;
    let taken = claim(addr, &other.token, &name.to_uppercase(), "some password").await;
    assert_eq!((taken.status, taken.code().as_str()), (409, "name_taken"));
    // Too short a password.
    let short = claim(addr, &other.token, &unique_name("Bo"), "short").await;
    assert_eq!(
        (short.status, short.code().as_str()),
        (400, "password_weak")
    );

    // Sign in (the name in another case), on "another device".
    let signed = sign_in(addr, &name.to_lowercase(), "correct horse battery").await;
    assert_eq!(
        signed.status,
        200,
        "{}",
        String::from_utf8_lossy(&signed.body)
    );
    let session: SignedIn = signed.json();
    assert_eq!(session.account.id, g.account.id);
    assert_ne!(session.token, g.token);
    assert!(signed.header("set-cookie").unwrap().contains("HttpOnly"));
    let wrong = sign_in(addr, &name, "correct horse battery!").await;
    assert_eq!(
        (wrong.status, wrong.code().as_str()),
        (401, "wrong_password")
    );
    let unknown = sign_in(addr, &unique_name("Nobody"), "correct horse battery").await;
    assert_eq!(
        (unknown.status, unknown.code().as_str()),
        (401, "wrong_password")
    );
    // A guest has no password: its name signs nobody in.
    let guest_name = sign_in(addr, &other.account.name, "").await;
    assert_eq!(guest_name.status, 401);

    // What the database keeps: an Argon2id hash, and the session's SHA-256, not the token.
    let store = storage::open(&db.url()).await.unwrap();
    let stored = store.account_by_name(name.clone()).await.unwrap().unwrap();
    let phc = stored.password_hash.expect("a password hash");
    assert!(phc.starts_with("$argon2id$"), "{phc}");
    assert!(!phc.contains("correct horse"));
    assert!(
        store
            .session_account(session.token.clone())
            .await
            .unwrap()
            .is_none()
    );
    let hashed = boardcraft_server::accounts::token_hash(&session.token);
    assert_eq!(
        store.session_account(hashed).await.unwrap().map(|a| a.id),
        Some(g.account.id.clone())
    );
    drop(store);

    // Sign out ends that session only.
    let out = request(
        addr,
        "DELETE",
        "/api/session",
        None,
        &[("Authorization", &bearer(&session.token))],
    )
    .await;
    assert_eq!(out.status, 204);
    assert!(out.header("set-cookie").unwrap().contains("Max-Age=0"));
    let ended = me(addr, &[("Authorization", &bearer(&session.token))]).await;
    assert_eq!(ended.status, 401);
    let first = me(addr, &[("Authorization", &bearer(&g.token))]).await;
    assert_eq!(first.json::<AccountInfo>().name, name);
}

#[tokio::test]
async fn sqlite_claim_sign_in_wrong_password_sign_out() {
    claim_sign_in_and_out(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_claim_sign_in_wrong_password_sign_out() {
    let Some(db) = Db::postgres() else { return };
    claim_sign_in_and_out(&db).await;
}

async fn name_rules(db: &Db) {
    let server = Server::start_on(&db.url(), settings()).await;
    let addr = server.addr;
    let (g, _) = guest(addr).await;
    for bad in [
        "ab",
        "abcdefghijklmnopqrstu",
        "two words",
        "semi;colon",
        "Boardcraft",
        "The_BOARD-craft",
        "Guest-me",
        "HelperBot",
        "helper_bot",
    ] {
        let answer = claim(addr, &g.token, bad, "a good password").await;
        assert_eq!(
            (answer.status, answer.code().as_str()),
            (400, "name_invalid"),
            "{bad}"
        );
    }
    // Letters of any script (one script a name: the random part in Cyrillic too).
    let cyrillic = unique_cyrillic("Ёжик-");
    let answer = claim(addr, &g.token, &cyrillic, "a good password").await;
    assert_eq!(
        answer.status,
        200,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    let taken = {
        let (h, _) = guest(addr).await;
        claim(addr, &h.token, &cyrillic.to_lowercase(), "a good password").await
    };
    assert_eq!(
        taken.code(),
        "name_taken",
        "case-insensitive in Cyrillic too"
    );

    // The operator marks an account as a bot (the real program's subcommand, on the same
    // database); then, and only then, it may take a name ending in "bot".
    let (b, _) = guest(addr).await;
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_boardcraft-server"))
        .args([
            "--database",
            &db.url(),
            "account",
            "make-bot",
            &b.account.name,
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let bot_name = unique_name("Helper").to_owned() + "Bot";
    let answer = claim(addr, &b.token, &bot_name, "a good password").await;
    assert_eq!(
        answer.status,
        200,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    let info: AccountInfo = answer.json();
    assert!(info.bot);
    assert_eq!(info.name, bot_name);
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_boardcraft-server"))
        .args([
            "--database",
            &db.url(),
            "account",
            "make-bot",
            &unique_name("Nobody"),
        ])
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(!missing.success(), "no such account");
}

#[tokio::test]
async fn sqlite_name_rules() {
    name_rules(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_name_rules() {
    let Some(db) = Db::postgres() else { return };
    name_rules(&db).await;
}

async fn sign_in_rate_limits(db: &Db) {
    // Per account: the right password is refused once the account had its failures.
    let limited = Settings {
        max_sign_in_failures_per_account: 3,
        max_sign_in_failures_per_ip: 0,
        ..settings()
    };
    let server = Server::start_on(&db.url(), limited).await;
    let addr = server.addr;
    let mut names = Vec::new();
    for _ in 0..2 {
        let (g, _) = guest(addr).await;
        let name = unique_name("Limit");
        assert_eq!(
            claim(addr, &g.token, &name, "the password").await.status,
            200
        );
        names.push(name);
    }
    for _ in 0..3 {
        assert_eq!(
            sign_in(addr, &names[0], "not the password").await.status,
            401
        );
    }
    let refused = sign_in(addr, &names[0], "the password").await;
    assert_eq!(
        (refused.status, refused.code().as_str()),
        (429, "rate_limited")
    );
    // In any case of the name.
    let refused = sign_in(addr, &names[0].to_uppercase(), "the password").await;
    assert_eq!(refused.status, 429);
    // The other account, from the same address, is not affected.
    assert_eq!(sign_in(addr, &names[1], "the password").await.status, 200);

    // Per address: failures on any names count together.
    let limited = Settings {
        max_sign_in_failures_per_account: 0,
        max_sign_in_failures_per_ip: 3,
        ..settings()
    };
    let server = Server::start_on(&db.url(), limited).await;
    for _ in 0..3 {
        let answer = sign_in(server.addr, &unique_name("Ghost"), "whatever pw").await;
        assert_eq!(answer.status, 401);
    }
    let refused = sign_in(server.addr, &names[1], "the password").await;
    assert_eq!(
        (refused.status, refused.code().as_str()),
        (429, "rate_limited")
    );
}

#[tokio::test]
async fn sqlite_sign_in_rate_limits() {
    sign_in_rate_limits(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_sign_in_rate_limits() {
    let Some(db) = Db::postgres() else { return };
    sign_in_rate_limits(&db).await;
}

async fn cross_site_refused(db: &Db) {
    let server = Server::start_on(&db.url(), settings()).await;
    let addr = server.addr;
    let (g, _) = guest(addr).await;
    let cookie = format!("boardcraft_session={}", g.token);
    let body =
        serde_json::json!({"name": unique_name("Victim"), "password": "evil password"}).to_string();
    // A page on another site posts with the browser's cookie: refused, nothing changed.
    let evil = request(
        addr,
        "POST",
        "/api/accounts/claim",
        Some(&body),
        &[("Cookie", &cookie), ("Origin", "https://evil.example")],
    )
    .await;
    assert_eq!(
        (evil.status, evil.code().as_str()),
        (403, "origin_not_allowed")
    );
    assert!(
        me(addr, &[("Cookie", &cookie)])
            .await
            .json::<AccountInfo>()
            .guest
    );
    let evil_out = request(
        addr,
        "DELETE",
        "/api/session",
        None,
        &[("Cookie", &cookie), ("Origin", "https://evil.example")],
    )
    .await;
    assert_eq!(evil_out.status, 403);
    let evil_guest = request(
        addr,
        "POST",
        "/api/accounts/guest",
        None,
        &[("Sec-Fetch-Site", "cross-site")],
    )
    .await;
    assert_eq!(evil_guest.code(), "origin_not_allowed");
    assert_eq!(
        me(addr, &[("Cookie", &cookie)]).await.status,
        200,
        "still signed in"
    );
    // The server's own page may.
    let own_origin = format!("http://{addr}");
    let own = request(
        addr,
        "POST",
        "/api/accounts/claim",
        Some(&body),
        &[("Cookie", &cookie), ("Origin", &own_origin)],
    )
    .await;
    assert_eq!(own.status, 200, "{}", String::from_utf8_lossy(&own.body));
}

#[tokio::test]
async fn sqlite_cross_site_post_refused() {
    cross_site_refused(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_cross_site_post_refused() {
    let Some(db) = Db::postgres() else { return };
    cross_site_refused(&db).await;
}

async fn guests_per_address(db: &Db) {
    let limited = Settings {
        max_new_guests_per_ip_per_hour: 2,
        ..settings()
    };
    let server = Server::start_on(&db.url(), limited).await;
    guest(server.addr).await;
    guest(server.addr).await;
    let third = request(server.addr, "POST", "/api/accounts/guest", None, &[]).await;
    assert_eq!((third.status, third.code().as_str()), (429, "rate_limited"));
}

#[tokio::test]
async fn sqlite_guests_per_address_limited() {
    guests_per_address(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_guests_per_address_limited() {
    let Some(db) = Db::postgres() else { return };
    guests_per_address(&db).await;
}

// ----- Telegram

const TEST_BOT_TOKEN: &str = "123456:TEST-token-for-the-server-tests";

/// Signs fields as Telegram does (core.telegram.org/bots/webapps, "Validating data received
/// via the Mini App"), written here from the specification, and URL-encodes them.
pub(crate) fn telegram_init_data(fields: &[(&str, String)], bot_token: &str) -> String {
    let mut sorted: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
    sorted.sort();
    let mut key = Hmac::<Sha256>::new_from_slice(b"WebAppData").unwrap();
    key.update(bot_token.as_bytes());
    let secret = key.finalize().into_bytes();
    let mut mac = Hmac::<Sha256>::new_from_slice(&secret).unwrap();
    mac.update(sorted.join("\n").as_bytes());
    let hash: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut encoded = form_urlencoded::Serializer::new(String::new());
    for (k, v) in fields {
        encoded.append_pair(k, v);
    }
    encoded.append_pair("hash", &hash);
    encoded.finish()
}

pub(crate) fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn telegram_fields(user_id: i64, auth_date: i64) -> Vec<(&'static str, String)> {
    vec![
        ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc".into()),
        (
            "user",
            format!(
                r#"{{"id":{user_id},"first_name":"Иван","last_name":"","username":"tg{user_id}","language_code":"ru"}}"#
            ),
        ),
        ("auth_date", auth_date.to_string()),
    ]
}

async fn telegram_post(addr: SocketAddr, init_data: &str, auth: &[(&str, &str)]) -> Answer {
    let body = serde_json::json!({ "init_data": init_data }).to_string();
    request(addr, "POST", "/api/session/telegram", Some(&body), auth).await
}

fn random_user_id() -> i64 {
    let mut b = [0u8; 4];
    getrandom::fill(&mut b).unwrap();
    1_000_000 + (u32::from_le_bytes(b) >> 2) as i64
}

async fn telegram_sign_in(db: &Db) {
    let telegram = Settings {
        telegram_bot_token: Some(TelegramBotToken::new(TEST_BOT_TOKEN.into())),
        ..settings()
    };
    let server = Server::start_on(&db.url(), telegram).await;
    let addr = server.addr;
    let user = random_user_id();
    let signed_at = now_secs() - 60;
    let fields = telegram_fields(user, signed_at);
    let good = telegram_init_data(&fields, TEST_BOT_TOKEN);
    let first = telegram_post(addr, &good, &[]).await;
    assert_eq!(
        first.status,
        201,
        "{}",
        String::from_utf8_lossy(&first.body)
    );
    let first: SignedIn = first.json();
    assert!(first.account.telegram && !first.account.guest);
    assert_eq!(
        first.account.name,
        format!("tg{user}"),
        "the Telegram username"
    );
    // The same user again: the same account.
    let again = telegram_post(addr, &good, &[]).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.json::<SignedIn>().account.id, first.account.id);

    let refused = |answer: Answer, what: &str| {
        assert_eq!(
            (answer.status, answer.code().as_str()),
            (401, "telegram_invalid"),
            "{what}"
        );
    };
    // A field altered after signing (another user id).
    let altered = good.replace(&format!("%22id%22%3A{user}"), "%22id%22%3A42");
    assert_ne!(altered, good);
    refused(telegram_post(addr, &altered, &[]).await, "altered user");
    // The hash altered (one digit).
    let at = good.find("hash=").unwrap() + 5;
    let digit = &good[at..at + 1];
    let flipped = if digit == "0" { "1" } else { "0" };
    let bad_hash = format!("{}{flipped}{}", &good[..at], &good[at + 1..]);
    refused(telegram_post(addr, &bad_hash, &[]).await, "altered hash");
    // The date altered after signing.
    let moved = good.replace(
        &format!("auth_date={signed_at}"),
        &format!("auth_date={}", signed_at + 30),
    );
    assert_ne!(moved, good);
    refused(telegram_post(addr, &moved, &[]).await, "altered date");
    // Correctly signed, but two days old.
    let old = telegram_init_data(
        &telegram_fields(user, now_secs() - 2 * 86400),
        TEST_BOT_TOKEN,
    );
    refused(telegram_post(addr, &old, &[]).await, "old");
    // Signed with another bot's token.
    let other = telegram_init_data(&fields, "654321:another-bot");
    refused(telegram_post(addr, &other, &[]).await, "another bot");
    // No hash at all.
    let unsigned = good[..good.find("&hash=").unwrap()].to_owned();
    refused(telegram_post(addr, &unsigned, &[]).await, "unsigned");

    // A signed-in guest who opens the Mini App gets the Telegram user linked to its account.
    let (g, _) = guest(addr).await;
    let newcomer = random_user_id();
    let data = telegram_init_data(&telegram_fields(newcomer, now_secs()), TEST_BOT_TOKEN);
    let linked = telegram_post(addr, &data, &[("Authorization", &bearer(&g.token))]).await;
    assert_eq!(
        linked.status,
        200,
        "{}",
        String::from_utf8_lossy(&linked.body)
    );
    let linked: SignedIn = linked.json();
    assert_eq!(linked.account.id, g.account.id);
    assert!(linked.account.telegram && !linked.account.guest);

    // A server without a token has no Telegram sign-in.
    let plain = Server::start_on(&db.url(), settings()).await;
    let answer = telegram_post(plain.addr, &good, &[]).await;
    assert_eq!(answer.status, 404);
}

#[tokio::test]
async fn sqlite_telegram_sign_in() {
    telegram_sign_in(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_telegram_sign_in() {
    let Some(db) = Db::postgres() else { return };
    telegram_sign_in(&db).await;
}

// ----- restart

fn restart_keeps_accounts(db: &Db) {
    let url = db.url();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let server = Killable::start(&url, settings());
    let name = unique_name("Keep");
    let (g, claimed) = rt.block_on(async {
        let (g, _) = guest(server.addr).await;
        let claimed = claim(server.addr, &g.token, &name, "kept password").await;
        (g, claimed.status)
    });
    assert_eq!(claimed, 200);
    let (other, _) = rt.block_on(guest(server.addr));
    server.kill();

    let server = Killable::start(&url, settings());
    rt.block_on(async {
        let mine = me(server.addr, &[("Authorization", &bearer(&g.token))]).await;
        assert_eq!(mine.status, 200, "the session survives the restart");
        assert_eq!(mine.json::<AccountInfo>().name, name);
        let theirs = me(server.addr, &[("Authorization", &bearer(&other.token))]).await;
        assert_eq!(theirs.json::<AccountInfo>(), other.account, "the guest too");
        assert_eq!(
            sign_in(server.addr, &name, "kept password").await.status,
            200
        );
    });
    server.kill();
}

#[test]
fn sqlite_restart_keeps_accounts_and_sessions() {
    restart_keeps_accounts(&Db::sqlite());
}

#[test]
fn postgres_restart_keeps_accounts_and_sessions() {
    let Some(db) = Db::postgres() else { return };
    restart_keeps_accounts(&db);
}

/// Nodes starting together on an empty PostgreSQL migrate one after the other: every one
/// opens, and each version is applied once.
#[tokio::test]
async fn postgres_nodes_starting_together_migrate_once() {
    let Some(url) = postgres_url() else { return };
    let schema = format!("fresh_{}", boardcraft_server::secrets::game_id());
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
        .batch_execute(&format!("CREATE SCHEMA {schema}"))
        .await
        .unwrap();
    let sep = if url.contains('?') { '&' } else { '?' };
    let scoped = format!("{url}{sep}options=-csearch_path%3D{schema}");
    let opened = futures_util::future::join_all((0..4).map(|_| storage::open(&scoped))).await;
    for store in &opened {
        assert!(store.is_ok(), "{:?}", store.as_ref().err());
    }
    let rows = client
        .query(
            &format!("SELECT version FROM {schema}.schema_migrations ORDER BY version"),
            &[],
        )
        .await
        .unwrap();
    let versions: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
    let expected: Vec<i64> = storage::migrations::MIGRATIONS
        .iter()
        .map(|m| m.version)
        .collect();
    assert_eq!(versions, expected);
    drop(opened);
    client
        .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .await
        .unwrap();
}
