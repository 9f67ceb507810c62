//! Ratings (protocol 2): games between accounts made with `create_paired_game` (what the lobby
//! calls) on a real server on 127.0.0.1:0, played over real websockets; Glicko-2 at the end
//! (checked against skillratings' own computation from the stored ratings before), the abort
//! rule, abandonment, the archive, profile and leaderboard over HTTP, a restart, and an old
//! database migrated. Each case runs on a fresh SQLite file and on PostgreSQL in a schema of
//! its own (dropped at the end), so that other tests' players never show in its leaderboard.
use std::{net::SocketAddr, sync::Arc, time::Duration};

use boardcraft_protocol::{
    ClientMessage, EndCause, GameResult, GameSnapshot, OfferKind, Presence, Rating, RatingChanges,
    ServerMessage, Side, TimeControl,
    http::{Leaderboard, Me, PlayerGames, Profile, SignedIn},
    paths,
};
use boardcraft_rules::checks::SeededMoves;
use boardcraft_server::{
    Settings,
    game::{
        Games,
        paired::{PairedGame, PairedSeats, create_paired_game},
    },
    serve_games, storage,
};
use skillratings::{
    Outcomes,
    glicko2::{Glicko2Config, Glicko2Rating, glicko2},
};
use tokio::net::TcpListener;

use crate::support::{Client, Mirror, http, http_full, postgres_url, settings, wait};

const VARIANT: &str = "ugolki-9qum";

// ----- databases and servers

/// A database for one test: a SQLite file in a temp folder, or a fresh PostgreSQL schema.
pub(crate) enum Db {
    Sqlite(tempfile::TempDir),
    Postgres { url: String, schema: String },
}

impl Db {
    pub(crate) fn sqlite() -> Db {
        Db::Sqlite(tempfile::tempdir().unwrap())
    }

    pub(crate) async fn postgres() -> Option<Db> {
        let url = postgres_url()?;
        let schema = format!("ratings_{}", boardcraft_server::secrets::game_id());
        admin(&url)
            .await
            .batch_execute(&format!("CREATE SCHEMA {schema}"))
            .await
            .unwrap();
        Some(Db::Postgres { url, schema })
    }

    pub(crate) fn url(&self) -> String {
        match self {
            Db::Sqlite(dir) => dir.path().join("server.sqlite3").display().to_string(),
            Db::Postgres { url, schema } => {
                let sep = if url.contains('?') { '&' } else { '?' };
                format!("{url}{sep}options=-csearch_path%3D{schema}")
            }
        }
    }

    pub(crate) async fn finish(self) {
        if let Db::Postgres { url, schema } = self {
            admin(&url)
                .await
                .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
                .await
                .unwrap();
        }
    }
}

async fn admin(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
}

fn rated_settings() -> Settings {
    Settings {
        max_new_guests_per_ip_per_hour: 0,
        grace: Duration::from_millis(300),
        ..settings()
    }
}

/// A server in a runtime of its own (stopped by dropping the runtime, every task with it),
/// with its `Games` handle for making paired games as the lobby does.
pub(crate) struct Rated {
    pub(crate) addr: SocketAddr,
    pub(crate) games: Arc<Games>,
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Rated {
    pub(crate) fn start(url: &str) -> Rated {
        let (ready_tx, ready) = std::sync::mpsc::channel();
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let url = url.to_owned();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.spawn(async move {
                crate::support::logs();
                let store = storage::open(&url).await.expect("the database opens");
                let games = Games::new(store, Arc::new(rated_settings()));
                let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
                ready_tx
                    .send((listener.local_addr().unwrap(), games.clone()))
                    .unwrap();
                serve_games(listener, games, std::future::pending()).await
            });
            let _ = stopped.recv();
            rt.shutdown_background();
        });
        let (addr, games) = ready
            .recv_timeout(Duration::from_secs(20))
            .expect("the server starts");
        Rated {
            addr,
            games,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    pub(crate) fn stop(mut self) {
        self.stop.take();
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }

    async fn pair(&self, white: &SignedIn, black: &SignedIn, rated: bool) -> PairedSeats {
        self.pair_timed(white, black, rated, TimeControl::minutes(5, 3))
            .await
    }

    async fn pair_timed(
        &self,
        white: &SignedIn,
        black: &SignedIn,
        rated: bool,
        time_control: TimeControl,
    ) -> PairedSeats {
        create_paired_game(
            &self.games,
            PairedGame {
                variant: VARIANT.into(),
                time_control: Some(time_control),
                rated,
                white: white.account.id.clone(),
                black: black.account.id.clone(),
            },
        )
        .await
        .expect("a paired game")
    }

    pub(crate) async fn get<T: serde::de::DeserializeOwned>(&self, path: &str) -> T {
        let (status, body) = http(self.addr, "GET", path, None).await;
        assert_eq!(status, 200, "GET {path}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
    }

    pub(crate) async fn guest(&self) -> SignedIn {
        let (status, body) = http(self.addr, "POST", "/api/accounts/guest", None).await;
        assert_eq!(status, 201, "{body}");
        serde_json::from_str(&body).unwrap()
    }

    /// The account's stored rating in the variant (`None`: no rated game yet).
    async fn rating(&self, who: &SignedIn) -> Option<Rating> {
        let auth = format!("Bearer {}", who.token);
        let (status, _, body) = http_full(
            self.addr,
            "GET",
            "/api/me",
            None,
            &[("Authorization", &auth)],
        )
        .await;
        assert_eq!(status, 200);
        let me: Me = serde_json::from_slice(&body).unwrap();
        assert_eq!(me.account.id, who.account.id);
        me.ratings
            .into_iter()
            .find(|r| r.variant == VARIANT && r.seats == 2)
    }

    async fn profile(&self, who: &SignedIn) -> Profile {
        self.get(&format!("/api/players/{}", who.account.name))
            .await
    }
}

impl Drop for Rated {
    fn drop(&mut self) {
        self.stop.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

// ----- playing

/// Both players at the board.
struct Table {
    game: String,
    white: Client,
    black: Client,
    mirror: Mirror,
    picker: SeededMoves,
}

impl Table {
    async fn sit(server: &Rated, seats: &PairedSeats) -> Table {
        let url = format!("ws://{}/ws", server.addr);
        let white = Client::join_url(&url, &seats.game, Some(seats.token(Side::White))).await;
        let black = Client::join_url(&url, &seats.game, Some(seats.token(Side::Black))).await;
        let snapshot = white.welcome_game().clone();
        assert_eq!(snapshot.players.as_ref(), Some(&seats.players));
        Table {
            game: seats.game.clone(),
            mirror: Mirror::of(&snapshot),
            white,
            black,
            picker: SeededMoves::new(7),
        }
    }

    fn client(&mut self, side: Side) -> &mut Client {
        match side {
            Side::White => &mut self.white,
            Side::Black => &mut self.black,
        }
    }

    /// Plays `plies` random legal moves, each acknowledged to both.
    async fn play(&mut self, plies: usize) {
        for _ in 0..plies {
            let ply = self.mirror.moves.len() as u32;
            let side = self.mirror.side();
            let notation = self.mirror.random_move(&mut self.picker);
            self.client(side)
                .send(&ClientMessage::Move {
                    ply,
                    notation: notation.clone(),
                })
                .await;
            for s in Side::BOTH {
                let moved = self
                    .client(s)
                    .recv_until(|m| matches!(m, ServerMessage::Moved { ply: p, .. } if *p == ply))
                    .await;
                if let ServerMessage::Moved { result, .. } = moved {
                    assert_eq!(result, None, "the game goes on");
                }
            }
            self.mirror.apply(&notation);
        }
    }

    /// Both players' game-over message (the same); the result and rating changes.
    async fn over(&mut self) -> (GameResult, Option<RatingChanges>) {
        let mut seen = Vec::new();
        for s in Side::BOTH {
            match self
                .client(s)
                .recv_until(|m| matches!(m, ServerMessage::GameOver { .. }))
                .await
            {
                ServerMessage::GameOver {
                    result, ratings, ..
                } => seen.push((result, ratings)),
                _ => unreachable!(),
            }
        }
        assert_eq!(seen[0], seen[1], "both players hear the same end");
        seen.pop().unwrap()
    }

    async fn resign(&mut self, side: Side) -> (GameResult, Option<RatingChanges>) {
        self.client(side).send(&ClientMessage::Resign).await;
        self.over().await
    }

    async fn agree_draw(&mut self) -> (GameResult, Option<RatingChanges>) {
        self.white
            .send(&ClientMessage::Offer {
                offer: OfferKind::Draw,
                ply: None,
            })
            .await;
        self.black
            .recv_until(|m| matches!(m, ServerMessage::Offer { .. }))
            .await;
        self.black
            .send(&ClientMessage::Accept {
                offer: OfferKind::Draw,
                ply: None,
            })
            .await;
        self.over().await
    }

    async fn close(self) {
        self.white.close().await;
        self.black.close().await;
    }
}

// ----- Glicko-2, computed here with the crate

fn glicko(r: &Option<Rating>) -> Glicko2Rating {
    match r {
        Some(r) => Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        },
        None => Glicko2Rating::new(),
    }
}

fn assert_same(stored: &Option<Rating>, expected: Glicko2Rating, games: u32) {
    let stored = stored.as_ref().expect("a rating after a rated game");
    for (what, a, b) in [
        ("rating", stored.rating, expected.rating),
        ("deviation", stored.deviation, expected.deviation),
        ("volatility", stored.volatility, expected.volatility),
    ] {
        assert!((a - b).abs() < 1e-9, "{what}: stored {a}, skillratings {b}");
    }
    assert_eq!(stored.games, games);
}

fn shown(expected: Glicko2Rating) -> i32 {
    expected.rating.round() as i32
}

/// Plays a rated game between `white` and `black` to `end`, and checks both stored ratings and
/// the announced changes against skillratings from the ratings stored before.
async fn rated_game(
    server: &Rated,
    white: &SignedIn,
    black: &SignedIn,
    end: &str,
) -> (String, GameResult) {
    let before = [server.rating(white).await, server.rating(black).await];
    let games_before = before.clone().map(|r| r.map_or(0, |r| r.games));
    let seats = server.pair(white, black, true).await;
    assert!(seats.players.rated);
    assert_eq!(seats.players.white.name, white.account.name);
    assert_eq!(seats.players.black.name, black.account.name);
    assert_eq!(
        seats.players.white.rating.unwrap().rating,
        before[0].as_ref().map_or(1500, |r| r.rating.round() as i32)
    );
    let mut table = Table::sit(server, &seats).await;
    table.play(4).await;
    let (result, changes, outcome) = match end {
        "white wins" => {
            let (r, c) = table.resign(Side::Black).await;
            (r, c, Outcomes::WIN)
        }
        "black wins" => {
            let (r, c) = table.resign(Side::White).await;
            (r, c, Outcomes::LOSS)
        }
        "draw" => {
            let (r, c) = table.agree_draw().await;
            (r, c, Outcomes::DRAW)
        }
        other => panic!("no end {other}"),
    };
    let (w, b) = glicko2(
        &glicko(&before[0]),
        &glicko(&before[1]),
        &outcome,
        &Glicko2Config::new(),
    );
    let after = [server.rating(white).await, server.rating(black).await];
    assert_same(&after[0], w, games_before[0] + 1);
    assert_same(&after[1], b, games_before[1] + 1);
    let changes = changes.expect("a rated game's end carries the rating changes");
    assert_eq!(changes.white.after.rating, shown(w));
    assert_eq!(changes.black.after.rating, shown(b));
    assert_eq!(
        changes.white.before.rating,
        shown(glicko(&before[0])),
        "white's before"
    );
    assert_eq!(changes.white.after.provisional, w.deviation > 110.0);
    let snapshot: GameSnapshot = server.get(&format!("/api/games/{}", table.game)).await;
    assert_eq!(snapshot.ratings, Some(changes));
    assert_eq!(snapshot.result.as_ref(), Some(&result));
    let game = table.game.clone();
    table.close().await;
    (game, result)
}

// ----- the cases

async fn decisive_and_draw(db: Db) {
    let server = Rated::start(&db.url());
    let (a, b) = (server.guest().await, server.guest().await);
    assert_eq!(server.rating(&a).await, None, "no rated game yet");
    let (_, result) = rated_game(&server, &a, &b, "black wins").await;
    assert_eq!(result.cause, EndCause::Resignation);
    assert_eq!(result.winner, Some(Side::Black));
    // Colours swapped, a draw: from the ratings the first game left.
    let (_, result) = rated_game(&server, &b, &a, "draw").await;
    assert_eq!(result.cause, EndCause::DrawAgreed);
    assert_eq!(result.winner, None);
    server.stop();
    db.finish().await;
}

async fn aborted(db: Db) {
    let server = Rated::start(&db.url());
    let (a, b) = (server.guest().await, server.guest().await);
    let seats = server.pair(&a, &b, true).await;
    let mut table = Table::sit(&server, &seats).await;
    table.play(1).await;
    let (result, changes) = table.resign(Side::Black).await;
    assert_eq!(result.cause, EndCause::Aborted);
    assert_eq!(result.winner, None);
    assert_eq!(changes, None, "an aborted game is not rated");
    // Three moves each side short of two each: aborted too, whoever ends it, even by time
    // or agreement.
    let seats = server.pair(&b, &a, true).await;
    let mut second = Table::sit(&server, &seats).await;
    second.play(3).await;
    let (result, changes) = second.agree_draw().await;
    assert_eq!(result.cause, EndCause::Aborted);
    assert_eq!(changes, None);
    assert_eq!(server.rating(&a).await, None);
    assert_eq!(server.rating(&b).await, None);
    let profile = server.profile(&a).await;
    assert!(profile.ratings.is_empty());
    assert_eq!(
        profile.total,
        Default::default(),
        "aborted games count for nobody"
    );
    assert_eq!(profile.recent.len(), 2, "but they are in the archive");
    assert_eq!(profile.recent[0].result.cause, EndCause::Aborted);
    assert_eq!(profile.recent[0].ratings, None);
    let snapshot: GameSnapshot = server.get(&format!("/api/games/{}", table.game)).await;
    assert_eq!(snapshot.ratings, None);
    assert_eq!(snapshot.result.unwrap().cause, EndCause::Aborted);
    let (status, save) = http(
        server.addr,
        "GET",
        &format!("/api/games/{}/save.ron", table.game),
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert!(save.contains("decided: Some(Aborted)"), "{save}");
    table.close().await;
    second.close().await;
    server.stop();
    db.finish().await;
}

async fn abandoned(db: Db) {
    let server = Rated::start(&db.url());
    let (a, b) = (server.guest().await, server.guest().await);
    let seats = server.pair(&a, &b, true).await;
    let mut table = Table::sit(&server, &seats).await;
    table.play(4).await;
    let Table { white, black, .. } = table;
    let mut white = white;
    black.close().await;
    white
        .recv_until(|m| {
            matches!(
                m,
                ServerMessage::Presence {
                    side: Side::Black,
                    presence: Presence::Gone { claim_in_ms: 0 }
                }
            )
        })
        .await;
    white.send(&ClientMessage::ClaimVictory).await;
    let (result, changes) = match white
        .recv_until(|m| matches!(m, ServerMessage::GameOver { .. }))
        .await
    {
        ServerMessage::GameOver {
            result, ratings, ..
        } => (result, ratings),
        _ => unreachable!(),
    };
    assert_eq!(result.cause, EndCause::Abandoned);
    assert_eq!(result.winner, Some(Side::White));
    let (w, l) = glicko2(
        &Glicko2Rating::new(),
        &Glicko2Rating::new(),
        &Outcomes::WIN,
        &Glicko2Config::new(),
    );
    assert_same(&server.rating(&a).await, w, 1);
    assert_same(&server.rating(&b).await, l, 1);
    let changes = changes.expect("rated");
    assert!(changes.black.delta() < 0, "the leaver loses rating");
    let profile = server.profile(&b).await;
    assert_eq!(profile.total.losses, 1);
    white.close().await;
    server.stop();
    db.finish().await;
}

/// A flag fall is rated: the one whose time ran out loses.
async fn timeout(db: Db) {
    let server = Rated::start(&db.url());
    let (a, b) = (server.guest().await, server.guest().await);
    let seats = server
        .pair_timed(
            &a,
            &b,
            true,
            TimeControl {
                initial_ms: 1500,
                increment_ms: 0,
            },
        )
        .await;
    let mut table = Table::sit(&server, &seats).await;
    table.play(4).await;
    // White is to move and does not.
    let (result, changes) = table.over().await;
    assert_eq!(result.cause, EndCause::Timeout);
    assert_eq!(result.winner, Some(Side::Black));
    let (w, l) = glicko2(
        &Glicko2Rating::new(),
        &Glicko2Rating::new(),
        &Outcomes::LOSS,
        &Glicko2Config::new(),
    );
    assert_same(&server.rating(&a).await, w, 1);
    assert_same(&server.rating(&b).await, l, 1);
    assert!(changes.expect("rated").white.delta() < 0);
    table.close().await;
    server.stop();
    db.finish().await;
}

/// Two games of one player ending at the same moment are rated one after the other: the
/// player's rating is both games applied in turn (in one order or the other), never one of
/// them lost.
async fn simultaneous_ends(db: Db) {
    let server = Rated::start(&db.url());
    let (a, b, c) = (
        server.guest().await,
        server.guest().await,
        server.guest().await,
    );
    let one = server.pair(&a, &b, true).await;
    let two = server.pair(&c, &a, true).await;
    let mut first = Table::sit(&server, &one).await;
    let mut second = Table::sit(&server, &two).await;
    first.play(4).await;
    second.play(4).await;
    // a wins the first (b resigns) and loses the second (a, black, resigns there): both sent
    // before either answer is read.
    first.black.send(&ClientMessage::Resign).await;
    second.black.send(&ClientMessage::Resign).await;
    let (r1, _) = first.over().await;
    let (r2, _) = second.over().await;
    assert_eq!(r1.winner, Some(Side::White));
    assert_eq!(r2.winner, Some(Side::White));
    let fresh = Glicko2Rating::new();
    let config = Glicko2Config::new();
    // Order 1: a–b first, then c–a.
    let (a1, _) = glicko2(&fresh, &fresh, &Outcomes::WIN, &config);
    let (_, a12) = glicko2(&fresh, &a1, &Outcomes::WIN, &config);
    // Order 2: c–a first, then a–b.
    let (_, a2) = glicko2(&fresh, &fresh, &Outcomes::WIN, &config);
    let (a21, _) = glicko2(&a2, &fresh, &Outcomes::WIN, &config);
    let stored = server.rating(&a).await.expect("rated");
    assert_eq!(stored.games, 2);
    let close = |g: Glicko2Rating| {
        (stored.rating - g.rating).abs() < 1e-9 && (stored.deviation - g.deviation).abs() < 1e-9
    };
    assert!(
        close(a12) || close(a21),
        "a's rating {stored:?} is neither order of the two games ({a12:?}, {a21:?})"
    );
    // Whichever came second saw a's rating after the first.
    let c_rating = server.rating(&c).await.unwrap();
    let b_rating = server.rating(&b).await.unwrap();
    if close(a12) {
        let (_, b_after) = glicko2(&fresh, &fresh, &Outcomes::WIN, &config);
        let (c_after, _) = glicko2(&fresh, &a1, &Outcomes::WIN, &config);
        assert_same(&Some(b_rating), b_after, 1);
        assert_same(&Some(c_rating), c_after, 1);
    } else {
        let (_, b_after) = glicko2(&a2, &fresh, &Outcomes::WIN, &config);
        let (c_after, _) = glicko2(&fresh, &fresh, &Outcomes::WIN, &config);
        assert_same(&Some(b_rating), b_after, 1);
        assert_same(&Some(c_rating), c_after, 1);
    }
    first.close().await;
    second.close().await;
    server.stop();
    db.finish().await;
}

async fn archive_profile_leaderboard(db: Db) {
    let server = Rated::start(&db.url());
    let (a, b, c, d) = (
        server.guest().await,
        server.guest().await,
        server.guest().await,
        server.guest().await,
    );
    // a and b play until both are established (deviation at most 110), winning in turn (a
    // player who always wins teaches Glicko-2 little: the result was expected), a winning the
    // first and the last; at least 21 games, for two pages of the archive.
    let mut played = Vec::new();
    for n in 0..45 {
        let (game, _) = if n % 2 == 0 {
            rated_game(&server, &a, &b, "white wins").await
        } else {
            rated_game(&server, &b, &a, "white wins").await
        };
        played.push(game);
        let established = [server.rating(&a).await, server.rating(&b).await]
            .iter()
            .all(|r| !r.as_ref().unwrap().provisional());
        if established && played.len() >= 21 && n % 2 == 0 {
            break;
        }
    }
    let rated_games = played.len() as u32;
    assert!(
        !server.rating(&a).await.unwrap().provisional(),
        "a is established after {rated_games} games"
    );
    // c beats d once: both provisional.
    rated_game(&server, &c, &d, "white wins").await;
    // A casual game a–c, drawn: in the archive and the tallies, no rating change.
    let casual = server.pair(&a, &c, false).await;
    let mut table = Table::sit(&server, &casual).await;
    table.play(4).await;
    let (_, changes) = table.agree_draw().await;
    assert_eq!(changes, None, "a casual game changes no rating");
    table.close().await;
    played.push(casual.game.clone());

    // The profile.
    let profile = server.profile(&a).await;
    assert_eq!(profile.player.name, a.account.name);
    assert!(profile.player.guest && !profile.player.bot);
    assert_eq!(profile.ratings.len(), 1);
    assert_eq!(profile.ratings[0].variant, VARIANT);
    assert_eq!(profile.ratings[0].games, rated_games);
    assert!(!profile.ratings[0].provisional);
    assert_eq!(profile.total.wins, rated_games.div_ceil(2));
    assert_eq!(profile.total.draws, 1);
    assert_eq!(profile.total.losses, rated_games / 2);
    assert_eq!(profile.tallies.len(), 1);
    assert_eq!(profile.tallies[0].tally, profile.total);
    let newest: Vec<&String> = played.iter().rev().take(10).collect();
    assert_eq!(
        profile.recent.iter().map(|g| &g.game).collect::<Vec<_>>(),
        newest
    );
    let b_profile = server.profile(&b).await;
    assert_eq!(b_profile.total.losses, rated_games.div_ceil(2));
    assert_eq!(b_profile.total.wins, rated_games / 2);
    assert_eq!(b_profile.total.draws, 0);

    // The archive: newest first, 20 a page.
    let page1: PlayerGames = server
        .get(&format!("/api/players/{}/games", a.account.name))
        .await;
    let page2: PlayerGames = server
        .get(&format!("/api/players/{}/games?page=2", a.account.name))
        .await;
    assert_eq!(page1.games.len(), 20);
    assert!(page1.more);
    assert_eq!(page2.games.len(), played.len() - 20);
    assert!(!page2.more);
    let listed: Vec<&String> = page1
        .games
        .iter()
        .chain(&page2.games)
        .map(|g| &g.game)
        .collect();
    assert_eq!(listed, played.iter().rev().collect::<Vec<_>>());
    let first = &page1.games[0];
    assert_eq!(first.game, casual.game);
    assert!(!first.rated);
    assert_eq!(first.ratings, None);
    assert_eq!(first.players, casual.players);
    assert_eq!(first.moves, 4);
    assert_eq!(
        first.variant_title,
        boardcraft_rules::shipped_variant(VARIANT).unwrap().title
    );
    assert!(first.ended_ms >= first.started_ms);
    let oldest = page2.games.last().unwrap();
    assert!(oldest.rated);
    assert_eq!(oldest.result.winner, Some(Side::White));
    assert_eq!(oldest.players.white.name, a.account.name);
    assert_eq!(oldest.players.white.rating.unwrap().rating, 1500);
    assert!(oldest.players.white.rating.unwrap().provisional);
    let change = oldest.ratings.expect("rated");
    assert!(change.white.delta() > 0 && change.black.delta() < 0);
    assert_eq!(change.white.before.rating, 1500);
    assert_eq!(oldest.time_control, Some(TimeControl::minutes(5, 3)));
    // Each opens in review: the save file.
    let (status, save) = http(
        server.addr,
        "GET",
        &format!("/api/games/{}/save.ron", oldest.game),
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert!(save.contains(VARIANT), "{save}");
    let (status, _) = http(server.addr, "GET", "/api/players/nobody-here/games", None).await;
    assert_eq!(status, 404);
    let (status, _) = http(
        server.addr,
        "GET",
        &format!("/api/players/{}/games?page=0", a.account.name),
        None,
    )
    .await;
    assert_eq!(status, 400);

    // The leaderboard: the established players only, the better first.
    let board: Leaderboard = server.get(&format!("/api/leaderboard/{VARIANT}")).await;
    assert_eq!(
        board
            .players
            .iter()
            .map(|r| r.player.name.as_str())
            .collect::<Vec<_>>(),
        [a.account.name.as_str(), b.account.name.as_str()],
        "c and d are provisional"
    );
    assert_eq!(board.players[0].rank, 1);
    assert_eq!(board.players[0].games, rated_games);
    assert!(board.players[0].deviation <= 110.0);
    assert!(!board.players[0].player.bot);
    assert!(board.players[0].rating > board.players[1].rating);
    let (status, _) = http(server.addr, "GET", "/api/leaderboard/no-such-game", None).await;
    assert_eq!(status, 404);
    // Per number of seats: two is the board above; a count the variant is not played by is
    // not found; a board of three seats has none of the two-seat players.
    let two: Leaderboard = server.get(&paths::leaderboard_seats(VARIANT, 2)).await;
    assert_eq!(two, board);
    let (_, text) = http(server.addr, "GET", &paths::leaderboard(VARIANT), None).await;
    assert!(!text.contains("\"seats\""), "version 2's body: {text}");
    let three: Leaderboard = server
        .get(&paths::leaderboard_seats("chinese-checkers", 3))
        .await;
    assert_eq!((three.seats, three.players.len()), (3, 0));
    for path in [
        paths::leaderboard_seats(VARIANT, 3),
        paths::leaderboard_seats("chinese-checkers", 5),
        paths::leaderboard_seats("chinese-checkers", 7),
        format!("{}/three", paths::leaderboard("chinese-checkers")),
    ] {
        let (status, text) = http(server.addr, "GET", &path, None).await;
        assert_eq!(status, 404, "{path}: {text}");
        assert!(text.contains("variant_not_found"), "{path}: {text}");
    }
    server.stop();
    db.finish().await;
}

async fn restart(db: Db) {
    let url = db.url();
    let server = Rated::start(&url);
    let (a, b) = (server.guest().await, server.guest().await);
    let (game, _) = rated_game(&server, &a, &b, "white wins").await;
    let rating = server.rating(&a).await;
    let archive: PlayerGames = server
        .get(&format!("/api/players/{}/games", a.account.name))
        .await;
    server.stop();
    let server = Rated::start(&url);
    assert_eq!(server.rating(&a).await, rating, "the rating is kept");
    let again: PlayerGames = server
        .get(&format!("/api/players/{}/games", a.account.name))
        .await;
    assert_eq!(again, archive, "the archive is kept");
    let snapshot: GameSnapshot = server.get(&format!("/api/games/{game}")).await;
    assert!(snapshot.ratings.is_some() && snapshot.players.is_some());
    // And the next game is rated from the stored ratings.
    rated_game(&server, &b, &a, "white wins").await;
    server.stop();
    db.finish().await;
}

/// The schema before migrations (and before accounts), with one finished invite game.
const OLD: &[&str] = &[
    "CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, variant_file TEXT,
        initial_ms BIGINT, increment_ms BIGINT, white_token TEXT NOT NULL,
        black_token TEXT NOT NULL, creator TEXT NOT NULL, invite TEXT UNIQUE,
        joined BOOLEAN NOT NULL, created_ms BIGINT NOT NULL, rematch_of TEXT UNIQUE, result TEXT)",
    "CREATE TABLE moves (game TEXT NOT NULL, ply INTEGER NOT NULL, notation TEXT NOT NULL,
        white_ms BIGINT, black_ms BIGINT, at_ms BIGINT NOT NULL, PRIMARY KEY (game, ply))",
    r#"INSERT INTO games (id, variant, white_token, black_token, creator, invite, joined,
        created_ms, result)
     VALUES ('qqgame2345bb', 'ugolki-9qum', 'wtok', 'btok', 'white', 'oldinvite', TRUE, 7,
        '{"winner":"black","cause":{"kind":"resignation"},"text":"Black wins: White resigned"}')"#,
];

const OLD_MOVE: &str =
    "INSERT INTO moves (game, ply, notation, at_ms) VALUES ('qqgame2345bb', 0, ?1, 8)";

/// A legal first move of the variant (the old game's one stored move).
fn first_move() -> String {
    use boardcraft_rules::Position;
    let position = boardcraft_rules::shipped_variant(VARIANT)
        .unwrap()
        .new_game();
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    position.format_move(&moves[0])
}

async fn old_database(db: Db) {
    match &db {
        Db::Sqlite(_) => {
            let conn = rusqlite::Connection::open(db.url()).unwrap();
            for s in OLD {
                conn.execute(s, []).unwrap();
            }
            conn.execute(OLD_MOVE, [first_move()]).unwrap();
        }
        Db::Postgres { url, schema } => {
            let client = admin(url).await;
            client
                .batch_execute(&format!("SET search_path TO {schema}"))
                .await
                .unwrap();
            for s in OLD {
                client.batch_execute(s).await.unwrap();
            }
            client
                .execute(&OLD_MOVE.replace("?1", "$1"), &[&first_move()])
                .await
                .unwrap();
        }
    }
    let server = Rated::start(&db.url());
    let old: GameSnapshot = server.get("/api/games/qqgame2345bb").await;
    assert_eq!(old.moves, [first_move()]);
    assert_eq!(old.result.unwrap().winner, Some(Side::Black));
    assert_eq!(old.players, None, "an invite game has no accounts");
    assert_eq!(old.ratings, None);
    let (a, b) = (server.guest().await, server.guest().await);
    rated_game(&server, &a, &b, "black wins").await;
    let profile = server.profile(&b).await;
    assert_eq!(profile.total.wins, 1);
    server.stop();
    db.finish().await;
}

/// Invite games are as before: no players, no ratings, no abort rule.
async fn invite_games_unchanged(db: Db) {
    let server = Rated::start(&db.url());
    let view = crate::support::Server::view(server.addr);
    let (game, white, black) = view
        .game(VARIANT, r#","time_control":{"initial_ms":60000}"#)
        .await;
    let url = view.ws_url();
    let mut w = Client::join_url(&url, &game, Some(&white)).await;
    let mut b = Client::join_url(&url, &game, Some(&black)).await;
    assert_eq!(w.welcome_game().players, None);
    let mirror = Mirror::of(w.welcome_game());
    let mut picker = SeededMoves::new(3);
    let notation = mirror.random_move(&mut picker);
    w.send(&ClientMessage::Move { ply: 0, notation }).await;
    b.recv_until(|m| matches!(m, ServerMessage::Moved { .. }))
        .await;
    b.send(&ClientMessage::Resign).await;
    match wait(w.recv_until(|m| matches!(m, ServerMessage::GameOver { .. }))).await {
        ServerMessage::GameOver {
            result, ratings, ..
        } => {
            assert_eq!(result.cause, EndCause::Resignation, "not aborted");
            assert_eq!(ratings, None);
        }
        _ => unreachable!(),
    }
    w.close().await;
    b.close().await;
    server.stop();
    db.finish().await;
}

/// Refusals of `create_paired_game`.
async fn refusals(db: Db) {
    let server = Rated::start(&db.url());
    let a = server.guest().await;
    let b = server.guest().await;
    let ask = |variant: &str, tc: Option<TimeControl>, rated: bool, white: &str, black: &str| {
        create_paired_game(
            &server.games,
            PairedGame {
                variant: variant.into(),
                time_control: tc,
                rated,
                white: white.into(),
                black: black.into(),
            },
        )
    };
    use boardcraft_protocol::ErrorCode;
    use boardcraft_server::refusals::Refusal;
    let tc = Some(TimeControl::minutes(3, 2));
    let (ida, idb) = (a.account.id.as_str(), b.account.id.as_str());
    assert_eq!(
        ask("nope", tc, true, ida, idb).await.unwrap_err().code(),
        ErrorCode::VariantNotFound
    );
    assert_eq!(
        ask("halma-16-partners", tc, true, ida, idb)
            .await
            .unwrap_err()
            .code(),
        ErrorCode::VariantInvalid,
        "a variant for four: games between accounts have two seats"
    );
    assert_eq!(
        ask(VARIANT, None, true, ida, idb).await.unwrap_err().code(),
        ErrorCode::BadRequest
    );
    assert_eq!(
        ask(VARIANT, tc, true, ida, ida).await.unwrap_err().code(),
        ErrorCode::BadRequest
    );
    assert_eq!(
        ask(VARIANT, tc, true, ida, "nobody")
            .await
            .unwrap_err()
            .code(),
        ErrorCode::PlayerNotFound
    );
    // Casual and untimed is fine.
    let seats = ask(VARIANT, None, false, ida, idb).await.unwrap();
    assert!(!seats.players.rated);
    server.stop();
    db.finish().await;
}

both!(
    decisive_and_draw,
    ratings_sqlite_decisive_and_draw,
    ratings_postgres_decisive_and_draw
);
both!(aborted, ratings_sqlite_aborted, ratings_postgres_aborted);
both!(
    abandoned,
    ratings_sqlite_abandoned,
    ratings_postgres_abandoned
);
both!(
    archive_profile_leaderboard,
    ratings_sqlite_archive_profile_leaderboard,
    ratings_postgres_archive_profile_leaderboard
);
both!(restart, ratings_sqlite_restart, ratings_postgres_restart);
both!(timeout, ratings_sqlite_timeout, ratings_postgres_timeout);
both!(
    simultaneous_ends,
    ratings_sqlite_simultaneous_ends,
    ratings_postgres_simultaneous_ends
);
both!(
    old_database,
    ratings_sqlite_old_database,
    ratings_postgres_old_database
);
both!(
    invite_games_unchanged,
    ratings_sqlite_invite_games_unchanged,
    ratings_postgres_invite_games_unchanged
);
both!(refusals, ratings_sqlite_refusals, ratings_postgres_refusals);
