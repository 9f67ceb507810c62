//! The lobby (`/lobby`, protocol 2) against real servers on 127.0.0.1:0 and real websocket
//! clients, on SQLite and on PostgreSQL (BOARDCRAFT_TEST_POSTGRES; every PostgreSQL test in a
//! fresh schema of its own, since the lobby is global to its database's schema).
//!
//! Ratings for the quick-pairing test are set by writing the `ratings` table (the ratings
//! work's, migration 4) directly before the players join: the lobby reads a player's rating
//! from it when they join a pool, exactly as after real rated games.
use std::{collections::HashMap, net::SocketAddr, time::Duration};

use boardcraft_protocol::{
    ClientMessage, ColorChoice, ErrorCode, GameTerms, LOBBY_PATH, LobbyClientMessage,
    LobbyServerMessage, PROTOCOL_VERSION, PoolKey, ServerMessage, Side, TimeControl,
    http::SignedIn, parse_lobby_server_message,
};
use boardcraft_server::Settings;
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use crate::support::{
    Client, Killable, Server, WsStream, http, http_full, postgres_url, settings, wait,
};

// ----- the databases

/// A database for one test: a SQLite file in a temp folder, or a fresh PostgreSQL schema.
pub(crate) enum Db {
    Sqlite {
        _dir: tempfile::TempDir,
        path: String,
    },
    Postgres {
        admin: String,
        scoped: String,
        schema: String,
    },
}

impl Db {
    pub(crate) fn sqlite() -> Db {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("server.sqlite3").display().to_string();
        Db::Sqlite { _dir: dir, path }
    }

    pub(crate) async fn postgres() -> Option<Db> {
        let url = postgres_url()?;
        let schema = format!("lobby_{}", boardcraft_server::secrets::game_id());
        let client = pg_client(&url).await;
        client
            .batch_execute(&format!("CREATE SCHEMA {schema}"))
            .await
            .unwrap();
        let sep = if url.contains('?') { '&' } else { '?' };
        let scoped = format!("{url}{sep}options=-csearch_path%3D{schema}");
        Some(Db::Postgres {
            admin: url,
            scoped,
            schema,
        })
    }

    pub(crate) fn url(&self) -> &str {
        match self {
            Db::Sqlite { path, .. } => path,
            Db::Postgres { scoped, .. } => scoped,
        }
    }

    /// Runs a statement (`?1`-style parameters as text) on the test's database.
    pub(crate) async fn execute(&self, sql: &str, params: &[&str]) {
        match self {
            Db::Sqlite { path, .. } => {
                let conn = rusqlite::Connection::open(path).unwrap();
                conn.busy_timeout(Duration::from_secs(10)).unwrap();
                conn.execute(sql, rusqlite::params_from_iter(params.iter()))
                    .unwrap();
            }
            Db::Postgres { scoped, .. } => {
                let client = pg_client(scoped).await;
                let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = params
                    .iter()
                    .map(|p| p as &(dyn tokio_postgres::types::ToSql + Sync))
                    .collect();
                client
                    .execute(&sql.replace('?', "$"), &params)
                    .await
                    .unwrap();
            }
        }
    }

    /// Gives `account` a settled rating in `variant` (deviation 60: not provisional).
    async fn set_rating(&self, account: &str, variant: &str, rating: i32) {
        self.execute(
            "INSERT INTO ratings (account, variant, rating, deviation, volatility, games, updated_ms)
             VALUES (?1, ?2, CAST(CAST(?3 AS TEXT) AS DOUBLE PRECISION), 60.0, 0.06, 30, 1)",
            &[account, variant, &rating.to_string()],
        )
        .await;
    }

    async fn make_bot(&self, account: &str) {
        self.execute("UPDATE accounts SET bot = TRUE WHERE id = ?1", &[account])
            .await;
    }

    pub(crate) async fn drop_schema(self) {
        if let Db::Postgres { admin, schema, .. } = self {
            let client = pg_client(&admin).await;
            let _ = client
                .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
                .await;
        }
    }
}

async fn pg_client(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
}

/// Test settings: the lobby's defaults, but dead nodes noticed within 2 s and short seek
/// grace, so that restarts are quick to test.
pub(crate) fn lobby_settings() -> Settings {
    let mut s = settings();
    s.max_new_guests_per_ip_per_hour = 0;
    s.lobby.node_timeout = Duration::from_secs(2);
    s.lobby.seek_grace = Duration::from_secs(3);
    s
}

// ----- clients

pub(crate) async fn guest(addr: SocketAddr) -> SignedIn {
    let (status, body) = http(addr, "POST", "/api/accounts/guest", None).await;
    assert_eq!(status, 201, "{body}");
    serde_json::from_str(&body).unwrap()
}

pub(crate) struct Lobby {
    pub(crate) ws: WsStream,
    pub(crate) welcome: LobbyServerMessage,
    pub(crate) me: SignedIn,
}

impl Lobby {
    /// A new guest's lobby connection.
    async fn guest(addr: SocketAddr) -> Lobby {
        let me = guest(addr).await;
        Lobby::open(addr, me).await
    }

    async fn open(addr: SocketAddr, me: SignedIn) -> Lobby {
        Lobby::open_with(addr, me, PROTOCOL_VERSION).await
    }

    /// A lobby connection saying hello with `protocol` (3: the tables of more than two).
    pub(crate) async fn open_with(addr: SocketAddr, me: SignedIn, protocol: u32) -> Lobby {
        let (mut ws, _) = wait(tokio_tungstenite::connect_async(format!(
            "ws://{addr}{LOBBY_PATH}"
        )))
        .await
        .expect("the lobby websocket opens");
        let hello = LobbyClientMessage::Hello {
            protocol,
            token: Some(me.token.clone()),
            client: Some("lobby tests".into()),
        };
        ws.send(Message::Text(hello.to_json().into()))
            .await
            .unwrap();
        let mut lobby = Lobby {
            ws,
            welcome: LobbyServerMessage::Pong { n: 0 },
            me,
        };
        let welcome = lobby.recv().await;
        assert!(
            matches!(welcome, LobbyServerMessage::Welcome { .. }),
            "{welcome:?}"
        );
        lobby.welcome = welcome;
        lobby
    }

    pub(crate) fn id(&self) -> &str {
        &self.me.account.id
    }

    pub(crate) fn name(&self) -> &str {
        &self.me.account.name
    }

    pub(crate) async fn send(&mut self, m: LobbyClientMessage) {
        wait(self.ws.send(Message::Text(m.to_json().into())))
            .await
            .unwrap();
    }

    pub(crate) async fn recv(&mut self) -> LobbyServerMessage {
        wait(async {
            loop {
                match self.ws.next().await {
                    Some(Ok(Message::Text(t))) => {
                        return parse_lobby_server_message(&t)
                            .unwrap_or_else(|e| panic!("bad lobby message {t}: {e}"));
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    other => panic!("expected a lobby message, got {other:?}"),
                }
            }
        })
        .await
    }

    pub(crate) async fn until(
        &mut self,
        what: impl Fn(&LobbyServerMessage) -> bool,
    ) -> LobbyServerMessage {
        loop {
            let m = self.recv().await;
            if what(&m) {
                return m;
            }
        }
    }

    pub(crate) async fn error(&mut self) -> ErrorCode {
        match self
            .until(|m| matches!(m, LobbyServerMessage::Error { .. }))
            .await
        {
            LobbyServerMessage::Error { code, .. } => code,
            _ => unreachable!(),
        }
    }

    /// Waits for `paired`: (game, colour, token).
    async fn paired(&mut self) -> (String, Side, String) {
        match self
            .until(|m| matches!(m, LobbyServerMessage::Paired { .. }))
            .await
        {
            LobbyServerMessage::Paired {
                game, color, token, ..
            } => (game, color, token),
            _ => unreachable!(),
        }
    }

    /// Opens a seek and waits for its `seek_added`; its id.
    async fn seek(&mut self, terms: GameTerms) -> String {
        self.send(LobbyClientMessage::Seek { terms }).await;
        let name = self.name().to_owned();
        match self
            .until(|m| matches!(m, LobbyServerMessage::SeekAdded { seek } if seek.by.name == name))
            .await
        {
            LobbyServerMessage::SeekAdded { seek } => seek.id,
            _ => unreachable!(),
        }
    }

    pub(crate) async fn close(mut self) {
        let _ = wait(self.ws.close(None)).await;
    }
}

fn casual(variant: &str) -> GameTerms {
    GameTerms {
        variant: variant.into(),
        time_control: None,
        rated: false,
        color: ColorChoice::White,
        seats: 2,
    }
}

fn pool(variant: &str, m: u64, s: u64) -> PoolKey {
    PoolKey {
        variant: variant.into(),
        time_control: TimeControl::minutes(m, s),
        seats: 2,
    }
}

fn welcome_seeks(l: &Lobby) -> Vec<String> {
    match &l.welcome {
        LobbyServerMessage::Welcome { seeks, .. } => seeks.iter().map(|s| s.id.clone()).collect(),
        _ => unreachable!(),
    }
}

fn welcome_playing(l: &Lobby) -> Vec<String> {
    match &l.welcome {
        LobbyServerMessage::Welcome { playing, .. } => playing.clone(),
        _ => unreachable!(),
    }
}

/// Plays White's first move of a paired game over `/ws` and sees Black get it.
async fn play_a_move(addr: SocketAddr, game: &str, white: &str, black: &str) {
    let server = Server::view(addr);
    let url = format!("ws://{addr}/ws?game={game}");
    let mut w = Client::join_url(&url, game, Some(white)).await;
    let mut b = Client::join(&server, game, Some(black)).await;
    let mirror = crate::support::Mirror::of(w.welcome_game());
    let mut picker = boardcraft_rules::checks::SeededMoves::new(3);
    let notation = mirror.random_move(&mut picker);
    let ply = w.welcome_game().ply;
    w.send(&ClientMessage::Move {
        ply,
        notation: notation.clone(),
    })
    .await;
    b.recv_until(|m| matches!(m, ServerMessage::Moved { ply: p, .. } if *p == ply))
        .await;
}

// ----- seek, accept, play

async fn seek_accept_play(db: &Db) {
    let server = Server::start_on(db.url(), lobby_settings()).await;
    let mut a = Lobby::guest(server.addr).await;
    let mut b = Lobby::guest(server.addr).await;
    let mut watcher = Lobby::guest(server.addr).await;
    let id = a.seek(casual("ugolki-hg-3x3")).await;
    // B sees it too.
    b.until(|m| matches!(m, LobbyServerMessage::SeekAdded { seek } if seek.id == id))
        .await;
    // Accepting one's own seek is refused, and changes nothing.
    a.send(LobbyClientMessage::AcceptSeek { id: id.clone() })
        .await;
    assert_eq!(a.error().await, ErrorCode::NotAllowed);
    b.send(LobbyClientMessage::AcceptSeek { id: id.clone() })
        .await;
    let (game_a, side_a, token_a) = a.paired().await;
    let (game_b, side_b, token_b) = b.paired().await;
    assert_eq!(game_a, game_b);
    assert_eq!(
        (side_a, side_b),
        (Side::White, Side::Black),
        "A asked for white"
    );
    assert_ne!(token_a, token_b, "each gets its own seat token only");
    watcher
        .until(|m| matches!(m, LobbyServerMessage::SeekRemoved { id: s } if *s == id))
        .await;
    play_a_move(server.addr, &game_a, &token_a, &token_b).await;
    // A's new connection lists the game in progress, and the seek no longer.
    let again = Lobby::open(server.addr, a.me.clone_signed()).await;
    assert_eq!(welcome_playing(&again), std::slice::from_ref(&game_a));
    assert!(!welcome_seeks(&again).contains(&id));
    // Unknown seek; a seek of an unknown variant; rated without a clock.
    b.send(LobbyClientMessage::AcceptSeek { id: id.clone() })
        .await;
    assert_eq!(b.error().await, ErrorCode::SeekNotFound);
    b.send(LobbyClientMessage::Seek {
        terms: casual("no-such-variant"),
    })
    .await;
    assert_eq!(b.error().await, ErrorCode::VariantNotFound);
    let mut rated = casual("focus");
    rated.rated = true;
    b.send(LobbyClientMessage::Seek { terms: rated }).await;
    assert_eq!(b.error().await, ErrorCode::NotAllowed);
    // At most 3 open seeks.
    for _ in 0..3 {
        b.seek(casual("focus")).await;
    }
    b.send(LobbyClientMessage::Seek {
        terms: casual("focus"),
    })
    .await;
    assert_eq!(b.error().await, ErrorCode::NotAllowed);
}

pub(crate) trait CloneSigned {
    fn clone_signed(&self) -> SignedIn;
}

impl CloneSigned for SignedIn {
    fn clone_signed(&self) -> SignedIn {
        SignedIn {
            account: self.account.clone(),
            token: self.token.clone(),
        }
    }
}

#[tokio::test]
async fn sqlite_seek_accept_and_play() {
    seek_accept_play(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_seek_accept_and_play() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    seek_accept_play(&db).await;
    db.drop_schema().await;
}

// ----- ratings of more seats

/// The lobby pairs two seats and speaks protocol 2: a player's rating of three-seat games
/// of a variant is neither in its welcome nor the rating its seeks show.
async fn two_seat_ratings_only(db: &Db) {
    let server = Server::start_on(db.url(), lobby_settings()).await;
    let me = guest(server.addr).await;
    let variant = "chinese-checkers";
    db.set_rating(&me.account.id, variant, 1700).await;
    db.execute(
        "INSERT INTO ratings (account, variant, seats, rating, deviation, volatility, games,
            updated_ms)
         VALUES (?1, ?2, 3, 2100.0, 60.0, 0.0, 30, 1)",
        &[&me.account.id, variant],
    )
    .await;
    let mut lobby = Lobby::open(server.addr, me).await;
    let LobbyServerMessage::Welcome { ratings, .. } = &lobby.welcome else {
        unreachable!()
    };
    let mine: Vec<(f64, u8)> = ratings
        .iter()
        .filter(|r| r.variant == variant)
        .map(|r| (r.rating, r.seats))
        .collect();
    assert_eq!(mine, [(1700.0, 2)]);
    lobby
        .send(LobbyClientMessage::Seek {
            terms: casual(variant),
        })
        .await;
    let LobbyServerMessage::SeekAdded { seek } = lobby
        .until(|m| matches!(m, LobbyServerMessage::SeekAdded { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(seek.by.rating.map(|r| r.rating), Some(1700));
    // The account's own ratings list both, the two-seat one first, the other marked.
    let (status, body) = boardcraft_server_me(server.addr, &lobby.me.token).await;
    assert_eq!(status, 200, "{body}");
    let at = |needle: &str| body.find(needle).unwrap_or(usize::MAX);
    assert!(at("1700.0") < at("2100.0"), "{body}");
    assert!(body.contains(r#""games":30,"seats":3}"#), "{body}");
}

/// `GET /api/me` with a bearer session.
async fn boardcraft_server_me(addr: SocketAddr, token: &str) -> (u16, String) {
    let bearer = format!("Bearer {token}");
    let (status, _, body) = http_full(
        addr,
        "GET",
        boardcraft_protocol::paths::ME,
        None,
        &[("Authorization", &bearer)],
    )
    .await;
    (status, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test]
async fn sqlite_two_seat_ratings_only() {
    two_seat_ratings_only(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_two_seat_ratings_only() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    two_seat_ratings_only(&db).await;
    db.drop_schema().await;
}

// ----- two accepters

async fn two_accepters_one_game(db: &Db) {
    let server = Server::start_on(db.url(), lobby_settings()).await;
    let mut seeker = Lobby::guest(server.addr).await;
    let mut b = Lobby::guest(server.addr).await;
    let mut c = Lobby::guest(server.addr).await;
    for round in 0..5 {
        let id = seeker.seek(casual("ugolki-hg-3x3")).await;
        for x in [&mut b, &mut c] {
            x.until(|m| matches!(m, LobbyServerMessage::SeekAdded { seek } if seek.id == id))
                .await;
        }
        let accept = LobbyClientMessage::AcceptSeek { id: id.clone() };
        tokio::join!(b.send(accept.clone()), c.send(accept));
        let outcome = |m: &LobbyServerMessage| {
            matches!(
                m,
                LobbyServerMessage::Paired { .. } | LobbyServerMessage::Error { .. }
            )
        };
        let (rb, rc) = tokio::join!(b.until(outcome), c.until(outcome));
        let won = [&rb, &rc]
            .iter()
            .filter(|m| matches!(m, LobbyServerMessage::Paired { .. }))
            .count();
        assert_eq!(won, 1, "round {round}: {rb:?} / {rc:?}");
        for m in [&rb, &rc] {
            if let LobbyServerMessage::Error { code, .. } = m {
                assert_eq!(*code, ErrorCode::SeekNotFound);
            }
        }
        seeker.paired().await;
    }
}

#[tokio::test]
async fn sqlite_two_accepters_one_game() {
    two_accepters_one_game(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_two_accepters_one_game() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    two_accepters_one_game(&db).await;
    db.drop_schema().await;
}

// ----- quick pairing of 40

/// 40 players in one pool, in 20 rating pairs 200 points apart from each other (the two of a
/// pair 20 apart: 800/820, 1000/1020 … 4600/4620), joining in a scrambled order: all are
/// paired within seconds, each with its own rating neighbour (the range starts at 100 and
/// reaches 200 only after 10 s of waiting).
async fn quick_pairing_of_forty(db: &Db) {
    let server = Server::start_on(db.url(), lobby_settings()).await;
    let key = pool("ugolki-9qum", 3, 2);
    let mut players = Vec::new();
    for i in 0..40 {
        let me = guest(server.addr).await;
        let rating = 800 + 200 * (i / 2) + 20 * (i % 2);
        db.set_rating(&me.account.id, "ugolki-9qum", rating).await;
        players.push((me, rating));
    }
    let ratings: HashMap<String, i32> = players
        .iter()
        .map(|(me, r)| (me.account.id.clone(), *r))
        .collect();
    // A scrambled order: 7 is coprime with 40.
    let mut lobbies = Vec::new();
    for k in 0..40 {
        let (me, _) = &players[(k * 7) % 40];
        lobbies.push(Lobby::open(server.addr, me.clone_signed()).await);
    }
    let started = std::time::Instant::now();
    for l in &mut lobbies {
        l.send(LobbyClientMessage::JoinPool { pool: key.clone() })
            .await;
    }
    let mut games: HashMap<String, Vec<(String, Side)>> = HashMap::new();
    for l in &mut lobbies {
        let (game, side, _) = l.paired().await;
        games
            .entry(game)
            .or_default()
            .push((l.id().to_owned(), side));
    }
    let took = started.elapsed();
    assert_eq!(games.len(), 20, "40 players, 20 games");
    let mut worst = 0;
    for (game, seats) in &games {
        assert_eq!(seats.len(), 2, "{game}: {seats:?}");
        assert_ne!(seats[0].0, seats[1].0, "never oneself");
        assert_ne!(seats[0].1, seats[1].1, "one white, one black");
        let gap = (ratings[&seats[0].0] - ratings[&seats[1].0]).abs();
        worst = worst.max(gap);
    }
    eprintln!("40 players paired in {took:?}; the widest gap {worst}");
    assert_eq!(worst, 20, "each with its rating neighbour");
}

/// A wave's pairs taken at once (`take_pairs`): each pair both or neither, a pair with a
/// player gone (or in another pool, or already taken earlier in the same wave) takes nobody
/// and does not stop the others; two leaders taking the same pairs at once share them out,
/// never a player twice. And a heartbeat's presence written at once (`set_presences`).
async fn wave_takes_pairs_at_once(db: &Db) {
    use boardcraft_server::storage::lobby::{GAME, LobbyStore, PoolEntry};
    let store = boardcraft_server::storage::open(db.url()).await.unwrap();
    let lobby: &dyn LobbyStore = store.as_ref();
    let entry = |account: &str, pool: &str| PoolEntry {
        account: account.into(),
        pool: pool.into(),
        rating: 1500.0,
        joined_ms: 1,
    };
    for a in ["a", "b", "c", "d", "e", "f"] {
        lobby.join_pool(entry(a, "p")).await.unwrap();
    }
    lobby.join_pool(entry("g", "q")).await.unwrap();
    let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    let taken = lobby
        .take_pairs(
            "p".into(),
            vec![
                pair("a", "b"),
                pair("c", "gone"),
                pair("e", "g"),
                pair("a", "d"),
                pair("f", "f"),
                pair("c", "d"),
            ],
        )
        .await
        .unwrap();
    assert_eq!(taken, [true, false, false, false, false, true]);
    let mut left: Vec<String> = lobby
        .pool_entries()
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.account)
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["e", "f", "g"],
        "a failed pair leaves both in the pool"
    );

    // Two leaders for a moment, the same wave: every player taken once.
    let players: Vec<String> = (0..40).map(|i| format!("w{i:02}")).collect();
    for a in &players {
        lobby.join_pool(entry(a, "p")).await.unwrap();
    }
    let pairs: Vec<(String, String)> = players
        .chunks(2)
        .map(|c| (c[0].clone(), c[1].clone()))
        .collect();
    // The second leader pairs them differently (its own view of the pool).
    let shifted: Vec<(String, String)> = players[1..]
        .chunks(2)
        .filter(|c| c.len() == 2)
        .map(|c| (c[0].clone(), c[1].clone()))
        .collect();
    let (one, two) = tokio::join!(
        lobby.take_pairs("p".into(), pairs.clone()),
        lobby.take_pairs("p".into(), shifted.clone())
    );
    let mut seen = std::collections::HashSet::new();
    for (pairs, taken) in [(&pairs, one.unwrap()), (&shifted, two.unwrap())] {
        for ((a, b), taken) in pairs.iter().zip(taken) {
            if taken {
                assert!(seen.insert(a.clone()), "{a} paired twice");
                assert!(seen.insert(b.clone()), "{b} paired twice");
            }
        }
    }
    let still: Vec<String> = lobby
        .pool_entries()
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.account)
        .filter(|a| a.starts_with('w'))
        .collect();
    assert_eq!(
        seen.len() + still.len(),
        players.len(),
        "taken or still waiting"
    );
    assert!(still.iter().all(|a| !seen.contains(a)));

    // Presence: many accounts at once, both ways.
    let node = "node-1".to_owned();
    lobby
        .node_beat(node.clone(), i64::MAX / 2, 0)
        .await
        .unwrap();
    let many: Vec<String> = (0..300).map(|i| format!("p{i}")).collect();
    lobby
        .set_presences(node.clone(), GAME, many.clone(), Vec::new())
        .await
        .unwrap();
    // Again (already present: nothing changes), and half leave.
    lobby
        .set_presences(
            node.clone(),
            GAME,
            many[..10].to_vec(),
            many[150..].to_vec(),
        )
        .await
        .unwrap();
    assert_eq!(lobby.counts(0).await.unwrap().0, 150);
    lobby
        .set_presences(node, GAME, Vec::new(), many.clone())
        .await
        .unwrap();
    assert_eq!(lobby.counts(0).await.unwrap().0, 0);
}

#[tokio::test]
async fn sqlite_wave_takes_pairs_at_once() {
    wave_takes_pairs_at_once(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_wave_takes_pairs_at_once() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    wave_takes_pairs_at_once(&db).await;
    db.drop_schema().await;
}

#[tokio::test]
async fn sqlite_quick_pairing_of_forty() {
    quick_pairing_of_forty(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_quick_pairing_of_forty() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    quick_pairing_of_forty(&db).await;
    db.drop_schema().await;
}

// ----- bots, leaving, the pool counts

async fn pools_bots_and_leaving(db: &Db) {
    let server = Server::start_on(db.url(), lobby_settings()).await;
    let key = pool("focus", 10, 5);
    let me = guest(server.addr).await;
    db.make_bot(&me.account.id).await;
    let mut bot = Lobby::open(server.addr, me.clone_signed()).await;
    bot.send(LobbyClientMessage::JoinPool { pool: key.clone() })
        .await;
    assert_eq!(bot.error().await, ErrorCode::NotAllowed, "bots refused");
    bot.send(LobbyClientMessage::JoinPool {
        pool: pool("focus", 1, 0),
    })
    .await;
    assert_eq!(bot.error().await, ErrorCode::PoolNotFound);
    // A person joins and leaves by closing the page: the count goes 1 and back to 0.
    let mut watcher = Lobby::guest(server.addr).await;
    let mut player = Lobby::guest(server.addr).await;
    player
        .send(LobbyClientMessage::JoinPool { pool: key.clone() })
        .await;
    player
        .until(|m| matches!(m, LobbyServerMessage::PoolJoined { .. }))
        .await;
    let waiting = |n: u32| {
        let key = key.clone();
        move |m: &LobbyServerMessage| {
            matches!(m, LobbyServerMessage::Pools { pools }
                if pools.iter().any(|p| p.pool == key && p.waiting == n))
        }
    };
    watcher.until(waiting(1)).await;
    player.close().await;
    watcher.until(waiting(0)).await;
    // With --allow-bots-in-pools (another server on the same database), the bot may wait.
    let mut allowing = lobby_settings();
    allowing.lobby.allow_bots_in_pools = true;
    drop(bot);
    let other = Server::start_on(db.url(), allowing).await;
    let mut bot = Lobby::open(other.addr, me.clone_signed()).await;
    bot.send(LobbyClientMessage::JoinPool { pool: key.clone() })
        .await;
    bot.until(|m| matches!(m, LobbyServerMessage::PoolJoined { .. }))
        .await;
}

#[tokio::test]
async fn sqlite_pools_bots_and_leaving() {
    pools_bots_and_leaving(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_pools_bots_and_leaving() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    pools_bots_and_leaving(&db).await;
    db.drop_schema().await;
}

// ----- challenges

async fn challenges(db: &Db) {
    let server = Server::start_on(db.url(), lobby_settings()).await;
    let mut a = Lobby::guest(server.addr).await;
    let mut b = Lobby::guest(server.addr).await;
    // B's second connection sees the challenges too.
    let mut b2 = Lobby::open(server.addr, b.me.clone_signed()).await;
    let challenge = |to: &str| LobbyClientMessage::Challenge {
        to: to.to_owned(),
        terms: GameTerms {
            variant: "ugolki-9qum".into(),
            time_control: Some(TimeControl::minutes(5, 3)),
            rated: true,
            color: ColorChoice::Black,
            seats: 2,
        },
    };
    a.send(challenge("Nobody-is-called-this")).await;
    assert_eq!(a.error().await, ErrorCode::PlayerNotFound);
    let me = a.name().to_owned();
    a.send(challenge(&me)).await;
    assert_eq!(a.error().await, ErrorCode::NotAllowed);
    // Declined.
    let to = b.name().to_owned();
    a.send(challenge(&to)).await;
    let id = |m: LobbyServerMessage| match m {
        LobbyServerMessage::Challenge { challenge } => challenge.id,
        other => panic!("{other:?}"),
    };
    let is_challenge = |m: &LobbyServerMessage| matches!(m, LobbyServerMessage::Challenge { .. });
    let first = id(a.until(is_challenge).await);
    assert_eq!(id(b.until(is_challenge).await), first);
    assert_eq!(id(b2.until(is_challenge).await), first);
    a.send(LobbyClientMessage::AcceptChallenge { id: first.clone() })
        .await;
    assert_eq!(
        a.error().await,
        ErrorCode::ChallengeNotFound,
        "not A's to accept"
    );
    b.send(LobbyClientMessage::DeclineChallenge { id: first.clone() })
        .await;
    let declined = |m: &LobbyServerMessage| {
        matches!(m, LobbyServerMessage::ChallengeRemoved { why, .. }
            if *why == boardcraft_protocol::ChallengeEnd::Declined)
    };
    a.until(declined).await;
    b2.until(declined).await;
    // Accepted: both paired, A (the challenger) black as asked.
    a.send(challenge(&to)).await;
    let second = id(b2.until(is_challenge).await);
    b2.send(LobbyClientMessage::AcceptChallenge { id: second })
        .await;
    let (game, side_a, token_a) = a.paired().await;
    let (game_b, side_b, token_b) = b.paired().await;
    let (game_b2, _, _) = b2.paired().await;
    assert_eq!(
        (game_b.as_str(), game_b2.as_str()),
        (game.as_str(), game.as_str())
    );
    assert_eq!((side_a, side_b), (Side::Black, Side::White));
    play_a_move(server.addr, &game, &token_b, &token_a).await;
    // The snapshot names both players, rated.
    let snapshot = server.snapshot(&game).await;
    let players = snapshot.players.expect("a lobby game names its players");
    assert!(players.rated);
    assert_eq!(players.black.name, me);
}

#[tokio::test]
async fn sqlite_challenges() {
    challenges(&Db::sqlite()).await;
}

#[tokio::test]
async fn postgres_challenges() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    challenges(&db).await;
    db.drop_schema().await;
}

// ----- a restart mid-lobby

/// Kills the server (every task at once, as `kill -9`) with two open seeks and a paired game
/// in progress, and starts it again on the same database: the seeks are listed; the one whose
/// owner comes back within the grace stays, the other goes after the grace; the paired game
/// goes on with its acknowledged move.
async fn restart_mid_lobby(db: &Db) {
    let first = Killable::start(db.url(), lobby_settings());
    let mut stays = Lobby::guest(first.addr).await;
    let mut goes = Lobby::guest(first.addr).await;
    let kept = stays.seek(casual("focus")).await;
    let dropped = goes.seek(casual("focus")).await;
    let mut a = Lobby::guest(first.addr).await;
    let mut b = Lobby::guest(first.addr).await;
    let seek = a.seek(casual("ugolki-hg-3x3")).await;
    b.send(LobbyClientMessage::AcceptSeek { id: seek }).await;
    let (game, _, white) = a.paired().await;
    let (_, _, black) = b.paired().await;
    play_a_move(first.addr, &game, &white, &black).await;
    let (stays_me, a_me) = (stays.me.clone_signed(), a.me.clone_signed());
    drop((stays, goes, a, b));
    first.kill();

    let second = Killable::start(db.url(), lobby_settings());
    let stays = Lobby::open(second.addr, stays_me).await;
    let seeks = welcome_seeks(&stays);
    assert!(seeks.contains(&kept), "{seeks:?}");
    assert!(
        seeks.contains(&dropped),
        "listed until the grace is over: {seeks:?}"
    );
    let a = Lobby::open(second.addr, a_me).await;
    assert_eq!(welcome_playing(&a), std::slice::from_ref(&game));
    // Past the grace (3 s; and on PostgreSQL the 2 s before the old node is taken for dead).
    let mut watcher = Lobby::guest(second.addr).await;
    watcher
        .until(|m| matches!(m, LobbyServerMessage::SeekRemoved { id } if *id == dropped))
        .await;
    let late = Lobby::guest(second.addr).await;
    let seeks = welcome_seeks(&late);
    assert!(
        seeks.contains(&kept),
        "the owner came back in time: {seeks:?}"
    );
    assert!(!seeks.contains(&dropped), "{seeks:?}");
    // The game goes on: Black's move after White's acknowledged one.
    let on = Server::view(second.addr);
    let mut w = Client::join(&on, &game, Some(&white)).await;
    let mut bl = Client::join(&on, &game, Some(&black)).await;
    assert_eq!(w.welcome_game().ply, 1, "White's move was kept");
    let mirror = crate::support::Mirror::of(bl.welcome_game());
    let notation = mirror.random_move(&mut boardcraft_rules::checks::SeededMoves::new(9));
    bl.send(&ClientMessage::Move { ply: 1, notation }).await;
    w.recv_until(|m| matches!(m, ServerMessage::Moved { ply: 1, .. }))
        .await;
    drop((stays, a, watcher, late));
    second.kill();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_restart_mid_lobby() {
    restart_mid_lobby(&Db::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restart_mid_lobby() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    restart_mid_lobby(&db).await;
    db.drop_schema().await;
}

// ----- two nodes

/// Two nodes on one PostgreSQL (a fresh schema): a seek made on A is listed on B and
/// accepted from B; two players on different nodes are paired by the pool; the counts reach
/// both nodes.
#[tokio::test]
async fn postgres_two_nodes_share_one_lobby() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    let a_node = Server::start_on(db.url(), lobby_settings()).await;
    let b_node = Server::start_on(db.url(), lobby_settings()).await;
    let mut on_a = Lobby::guest(a_node.addr).await;
    let mut on_b = Lobby::guest(b_node.addr).await;
    let id = on_a.seek(casual("ugolki-hg-3x3")).await;
    on_b.until(|m| matches!(m, LobbyServerMessage::SeekAdded { seek } if seek.id == id))
        .await;
    on_b.send(LobbyClientMessage::AcceptSeek { id: id.clone() })
        .await;
    let (game, side_a, token_a) = on_a.paired().await;
    let (game_b, _, token_b) = on_b.paired().await;
    assert_eq!(game, game_b);
    // Both nodes' views lost the seek (B accepted it; A heard so over NOTIFY).
    for node in [&a_node, &b_node] {
        let fresh = Lobby::guest(node.addr).await;
        assert!(!welcome_seeks(&fresh).contains(&id));
    }
    // The game is played on B (made on A's request: any node serves it).
    let (white, black) = if side_a == Side::White {
        (token_a, token_b)
    } else {
        (token_b, token_a)
    };
    play_a_move(b_node.addr, &game, &white, &black).await;
    // Pools across nodes.
    let key = pool("grasshopper", 3, 2);
    let mut c = Lobby::guest(a_node.addr).await;
    let mut d = Lobby::guest(b_node.addr).await;
    c.send(LobbyClientMessage::JoinPool { pool: key.clone() })
        .await;
    d.send(LobbyClientMessage::JoinPool { pool: key.clone() })
        .await;
    let (gc, _, _) = c.paired().await;
    let (gd, _, _) = d.paired().await;
    assert_eq!(gc, gd, "paired across nodes");
    // The counts: 4 players connected on the two nodes, seen from both.
    let four = |m: &LobbyServerMessage| matches!(m, LobbyServerMessage::Counts { counts } if counts.players >= 4);
    on_a.until(four).await;
    on_b.until(four).await;
    db.drop_schema().await;
}
