//! `boardcraft-cli online bot` against a real server (the `boardcraft-server` library on
//! 127.0.0.1:0 with a SQLite file in a temporary folder): the bot is the real binary in a child
//! process; the person is a raw websocket client here, playing seeded random legal moves with
//! the rules crate. At tables of three (lobby and game protocol 3) two such people and the bot
//! fill a table from a seek or from a pool, and every move of the bot's seat is checked by
//! the people's own copies of the game: in its turn, legal, the server's hash — at two tables
//! at once, after a seat left, and after the bot was killed and started again.
use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::{Arc, Mutex},
    time::Duration,
};

use boardcraft_protocol::{
    ClientMessage, GameTerms, LobbyClientMessage, LobbyServerMessage, PROTOCOL_VERSION, PoolKey,
    SEATS_PROTOCOL_VERSION, SeatIndex, SeatPlayers, SeatResult, SeatServerMessage, SeatSnapshot,
    ServerMessage, Side, TimeControl, hash_text, http::SignedIn, parse_lobby_server_message,
    parse_seat_server_message, parse_server_message,
};
use boardcraft_rules::{AnyPosition, Position, Seat, shipped_variant};
use boardcraft_server::{Settings, serve, storage};
use futures_util::{SinkExt, StreamExt};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, tungstenite::Message};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

const WAIT: Duration = Duration::from_secs(60);
const VARIANT: &str = "ugolki-hg-3x3";

struct Server {
    addr: SocketAddr,
    store: Arc<dyn storage::Storage>,
    dir: tempfile::TempDir,
}

async fn start_server() -> Server {
    start_server_with(|_| {}).await
}

/// A server whose settings `change` adjusts (pools, bots in them).
async fn start_server_with(change: impl FnOnce(&mut Settings)) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("server.sqlite3").display().to_string();
    let store = storage::open(&db).await.expect("the database opens");
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let settings = Settings {
        max_connections_per_ip: 0,
        max_new_games_per_ip_per_minute: 0,
        max_new_guests_per_ip_per_hour: 0,
        messages_per_second: 1000,
        message_burst: 2000,
        ..Settings::default()
    };
    let mut settings = settings;
    change(&mut settings);
    tokio::spawn(serve(
        listener,
        store.clone(),
        settings,
        std::future::pending(),
    ));
    Server { addr, store, dir }
}

async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    token: Option<&str>,
) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_owned();
    (status, body)
}

async fn guest(addr: SocketAddr) -> SignedIn {
    let (status, body) = http(addr, "POST", "/api/accounts/guest", None, None).await;
    assert_eq!(status, 201, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// The bot binary, its output collected line by line.
struct Bot {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Bot {
    fn start(server: &Server, token_file: &Path, extra: &[&str]) -> Bot {
        Bot::start_at(server.addr, token_file, extra)
    }

    fn start_at(addr: SocketAddr, token_file: &Path, extra: &[&str]) -> Bot {
        // The tests' variant unless the test names its own.
        let variants: &[&str] = if extra.contains(&"--variants") {
            &[]
        } else {
            &["--variants", VARIANT]
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardcraft-cli"))
            .args(["online", "bot", "--server"])
            .arg(format!("http://{addr}"))
            .args(["--level", "novice"])
            .args(variants)
            .arg("--token-file")
            .arg(token_file)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the bot starts");
        let lines = Arc::new(Mutex::new(Vec::new()));
        for out in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let lines = lines.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    eprintln!("[bot] {line}");
                    lines.lock().unwrap().push(line);
                }
            });
        }
        Bot { child, lines }
    }

    fn output(&self) -> String {
        self.lines.lock().unwrap().join("\n")
    }

    async fn wait_for_line(&self, needle: &str) {
        let deadline = std::time::Instant::now() + WAIT;
        while !self.output().contains(needle) {
            assert!(
                std::time::Instant::now() < deadline,
                "the bot never printed `{needle}`:\n{}",
                self.output()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Makes a bot account the way docs/cli.md tells the operator: the first run makes a guest
/// and stops (not a bot yet), the operator marks it, the second run names it and plays.
async fn bot_account(server: &Server, name: &str) -> PathBuf {
    bot_account_at(server.addr, server.dir.path(), &server.store, name).await
}

async fn bot_account_at(
    addr: SocketAddr,
    dir: &Path,
    store: &Arc<dyn storage::Storage>,
    name: &str,
) -> PathBuf {
    let token_file = dir.join("bot.token");
    let password_file = dir.join("bot.password");
    std::fs::write(&password_file, "correct horse battery\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_boardcraft-cli"))
        .args(["online", "bot", "--server"])
        .arg(format!("http://{addr}"))
        .args(["--name", name, "--password-file"])
        .arg(&password_file)
        .arg("--token-file")
        .arg(&token_file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let guest_name = stderr
        .split("account make-bot ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no make-bot advice in {stderr}"))
        .to_owned();
    assert!(guest_name.starts_with("Guest-"), "{guest_name}");
    assert!(
        store.set_bot(guest_name, true).await.unwrap(),
        "the guest exists"
    );
    token_file
}

/// A person in the lobby: a signed-in lobby websocket.
async fn lobby(addr: SocketAddr, token: &str) -> (Ws, LobbyServerMessage) {
    lobby_with(addr, token, PROTOCOL_VERSION).await
}

/// A person in the lobby that speaks lobby protocol `protocol` (3 sees the tables).
async fn lobby_with(addr: SocketAddr, token: &str, protocol: u32) -> (Ws, LobbyServerMessage) {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/lobby"))
        .await
        .unwrap();
    lobby_send(
        &mut ws,
        LobbyClientMessage::Hello {
            protocol,
            token: Some(token.to_owned()),
            client: Some("test person".into()),
        },
    )
    .await;
    let welcome = lobby_recv(&mut ws).await;
    assert!(
        matches!(welcome, LobbyServerMessage::Welcome { .. }),
        "{welcome:?}"
    );
    (ws, welcome)
}

async fn lobby_send(ws: &mut Ws, m: LobbyClientMessage) {
    ws.send(Message::Text(m.to_json().into())).await.unwrap();
}

async fn lobby_recv(ws: &mut Ws) -> LobbyServerMessage {
    loop {
        let frame = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a lobby message in time")
            .expect("the lobby is open")
            .unwrap();
        if let Message::Text(t) = frame {
            return parse_lobby_server_message(&t).unwrap();
        }
    }
}

/// Waits for a lobby message `pick` accepts (others are skipped).
async fn lobby_until<T>(ws: &mut Ws, mut pick: impl FnMut(LobbyServerMessage) -> Option<T>) -> T {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "the lobby message never came"
        );
        if let Some(t) = pick(lobby_recv(ws).await) {
            return t;
        }
    }
}

struct Paired {
    game: String,
    color: Side,
    token: String,
}

fn paired(m: LobbyServerMessage) -> Option<Paired> {
    match m {
        LobbyServerMessage::Paired {
            game, color, token, ..
        } => Some(Paired { game, color, token }),
        LobbyServerMessage::Error { message, .. } => panic!("the lobby refused: {message}"),
        _ => None,
    }
}

async fn game_send(ws: &mut Ws, m: ClientMessage) {
    ws.send(Message::Text(m.to_json().into())).await.unwrap();
}

async fn game_recv(ws: &mut Ws) -> ServerMessage {
    loop {
        let frame = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a game message in time (the bot answers)")
            .expect("the game is open")
            .unwrap();
        if let Message::Text(t) = frame {
            return parse_server_message(&t).unwrap();
        }
    }
}

/// The person's side of a game: random legal moves (seeded) until the game ends or, with
/// `stop_after`, until that many plies are played. Returns the plies played and the result
/// text if it ended.
async fn play(
    addr: SocketAddr,
    p: &Paired,
    seed: u64,
    stop_after: Option<u32>,
) -> (u32, Option<String>) {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .unwrap();
    game_send(
        &mut ws,
        ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            game: p.game.clone(),
            token: Some(p.token.clone()),
            client: Some("test person".into()),
        },
    )
    .await;
    let ServerMessage::Welcome { game: snapshot, .. } = game_recv(&mut ws).await else {
        panic!("no welcome")
    };
    let mut position: AnyPosition = shipped_variant(VARIANT).unwrap().new_game();
    for m in &snapshot.moves {
        let mv = position.parse_move(m).unwrap();
        position.play(&mv).unwrap();
    }
    let mut ply = snapshot.moves.len() as u32;
    if let Some(result) = snapshot.result {
        return (ply, Some(result.text));
    }
    let mut rng = seed | 1;
    let mut moves = Vec::new();
    let mut sent_for = None;
    loop {
        if stop_after.is_some_and(|n| ply >= n) {
            return (ply, None);
        }
        let mine = matches!(
            (position.side_to_move(), p.color),
            (Seat::WHITE, Side::White) | (Seat::BLACK, Side::Black)
        );
        if mine && !position.is_game_over() && sent_for != Some(ply) {
            position.legal_moves(&mut moves);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = &moves[(rng % moves.len() as u64) as usize];
            game_send(
                &mut ws,
                ClientMessage::Move {
                    ply,
                    notation: position.format_move(mv),
                },
            )
            .await;
            sent_for = Some(ply);
        }
        let m = game_recv(&mut ws).await;
        if std::env::var_os("BOT_TEST_DEBUG").is_some() {
            eprintln!("[person] {m:?}");
        }
        match m {
            ServerMessage::Moved {
                ply: p, notation, ..
            } if p == ply => {
                let mv = position.parse_move(&notation).unwrap();
                position.play(&mv).unwrap();
                ply += 1;
            }
            ServerMessage::GameOver { result, .. } => return (ply, Some(result.text)),
            ServerMessage::Error { message, .. } => panic!("refused: {message}"),
            _ => {}
        }
    }
}

fn terms() -> GameTerms {
    GameTerms {
        variant: VARIANT.into(),
        time_control: None,
        rated: false,
        color: Default::default(),
        seats: 2,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_accepted_and_played_to_the_end_and_other_variants_declined() {
    let server = start_server().await;
    let token_file = bot_account(&server, "TestBot").await;
    let password_file = server.dir.path().join("bot.password");
    let bot = Bot::start(
        &server,
        &token_file,
        &[
            "--no-seeks",
            "--name",
            "TestBot",
            "--password-file",
            password_file.to_str().unwrap(),
        ],
    );
    bot.wait_for_line("the account is now named TestBot").await;
    bot.wait_for_line("in the lobby as TestBot").await;
    let person = guest(server.addr).await;
    let (mut ws, _) = lobby(server.addr, &person.token).await;
    // A variant the bot does not play: declined.
    lobby_send(
        &mut ws,
        LobbyClientMessage::Challenge {
            to: "TestBot".into(),
            terms: GameTerms {
                variant: "focus".into(),
                ..terms()
            },
        },
    )
    .await;
    let why = lobby_until(&mut ws, |m| match m {
        LobbyServerMessage::ChallengeRemoved { why, .. } => Some(why),
        _ => None,
    })
    .await;
    assert_eq!(why, boardcraft_protocol::ChallengeEnd::Declined);
    // Its variant: accepted, and played to the end.
    lobby_send(
        &mut ws,
        LobbyClientMessage::Challenge {
            to: "TestBot".into(),
            terms: terms(),
        },
    )
    .await;
    let p = lobby_until(&mut ws, paired).await;
    let (plies, result) = play(server.addr, &p, 7, None).await;
    let result = result.expect("the game ended");
    assert!(plies >= 4, "{plies} plies: {result}");
    bot.wait_for_line(&format!("game {} end:", p.game)).await;
    let out = bot.output();
    assert!(out.contains(&format!("game {} start:", p.game)), "{out}");
    // The game is over: the bot's state file no longer holds it.
    let state = std::fs::read_to_string(format!("{}.games.json", token_file.display())).unwrap();
    assert!(!state.contains(&p.game), "{state}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bots_seek_is_in_the_lobby_and_opens_again_after_a_game() {
    let server = start_server().await;
    let token_file = bot_account(&server, "SeekBot").await;
    let bot = Bot::start(&server, &token_file, &["--seek-clock", "1+1"]);
    let person = guest(server.addr).await;
    let (mut ws, welcome) = lobby(server.addr, &person.token).await;
    let LobbyServerMessage::Welcome { seeks, .. } = welcome else {
        unreachable!()
    };
    let is_bots = |s: &boardcraft_protocol::Seek| {
        s.by.bot && s.variant == VARIANT && s.rated && s.time_control.is_some()
    };
    let seek = match seeks.into_iter().find(is_bots) {
        Some(s) => s,
        None => {
            lobby_until(&mut ws, |m| match m {
                LobbyServerMessage::SeekAdded { seek } if is_bots(&seek) => Some(seek),
                _ => None,
            })
            .await
        }
    };
    lobby_send(
        &mut ws,
        LobbyClientMessage::AcceptSeek {
            id: seek.id.clone(),
        },
    )
    .await;
    // The pairing, and the bot's new seek (it has room for more games), in either order.
    let mut p = None;
    let mut again = None;
    let deadline = std::time::Instant::now() + WAIT;
    while p.is_none() || again.is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "no pairing or no new seek"
        );
        match lobby_recv(&mut ws).await {
            LobbyServerMessage::SeekAdded { seek } if is_bots(&seek) => again = Some(seek),
            m => {
                if let Some(x) = paired(m) {
                    p = Some(x);
                }
            }
        }
    }
    let (p, again) = (p.unwrap(), again.unwrap());
    assert_ne!(again.id, seek.id);
    let (plies, result) = play(server.addr, &p, 11, None).await;
    assert!(result.is_some());
    bot.wait_for_line(&format!("game {} end:", p.game)).await;
    // A rated game (a seek with a clock): the end line has the bot's rating change.
    let out = bot.output();
    let end = out
        .lines()
        .find(|l| l.starts_with(&format!("game {} end:", p.game)))
        .unwrap();
    assert!(plies < 4 || end.contains(", rating 1500? -> "), "{end}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_bot_resumes_its_game() {
    let server = start_server().await;
    let token_file = bot_account(&server, "ResumeBot").await;
    let mut bot = Bot::start(&server, &token_file, &["--no-seeks"]);
    bot.wait_for_line("in the lobby as").await;
    let person = guest(server.addr).await;
    let (mut ws, _) = lobby(server.addr, &person.token).await;
    let bot_name = {
        let (status, body) = http(
            server.addr,
            "GET",
            "/api/me",
            None,
            Some(std::fs::read_to_string(&token_file).unwrap().trim()),
        )
        .await;
        assert_eq!(status, 200);
        serde_json::from_str::<boardcraft_protocol::http::AccountInfo>(&body)
            .unwrap()
            .name
    };
    lobby_send(
        &mut ws,
        LobbyClientMessage::Challenge {
            to: bot_name,
            terms: terms(),
        },
    )
    .await;
    let p = lobby_until(&mut ws, paired).await;
    // A few moves, then the bot is killed (kill -9) and started again.
    let (plies, result) = play(server.addr, &p, 3, Some(4)).await;
    assert!(result.is_none() && plies >= 4);
    bot.wait_for_line(&format!("game {} start:", p.game)).await;
    bot.kill();
    let state = std::fs::read_to_string(format!("{}.games.json", token_file.display())).unwrap();
    assert!(
        state.contains(&p.game),
        "the state file keeps the game: {state}"
    );
    let bot = Bot::start(&server, &token_file, &["--no-seeks"]);
    bot.wait_for_line(&format!("game {} resume:", p.game)).await;
    // The bot plays on: the game reaches its end.
    let (more, result) = play(server.addr, &p, 5, None).await;
    assert!(result.is_some(), "the game ended");
    assert!(more > plies, "{more} plies after {plies}");
    bot.wait_for_line(&format!("game {} end:", p.game)).await;
}

/// A server in its own runtime on its own thread: stopped at once (every task dropped, as a
/// crash would) and started again on the same address and database.
struct Killable {
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Killable {
    fn start(db: &str, addr: SocketAddr) -> (Killable, SocketAddr) {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let db = db.to_owned();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.spawn(async move {
                let store = storage::open(&db).await.expect("the database opens");
                let listener = TcpListener::bind(addr).await.expect("the address is free");
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                let settings = Settings {
                    max_connections_per_ip: 0,
                    max_new_guests_per_ip_per_hour: 0,
                    messages_per_second: 1000,
                    message_burst: 2000,
                    ..Settings::default()
                };
                serve(listener, store, settings, std::future::pending()).await
            });
            let _ = stopped.recv();
            rt.shutdown_background();
        });
        let addr = addr_rx.recv_timeout(WAIT).expect("the server starts");
        (
            Killable {
                stop: Some(stop),
                thread: Some(thread),
            },
            addr,
        )
    }

    fn kill(&mut self) {
        self.stop.take();
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }
}

impl Drop for Killable {
    fn drop(&mut self) {
        self.kill();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_comes_back_after_the_server_went_away() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("server.sqlite3").display().to_string();
    let (mut server, addr) = Killable::start(&db, "127.0.0.1:0".parse().unwrap());
    // The operator's command opens the database beside the running server.
    let store = storage::open(&db).await.unwrap();
    let token_file = bot_account_at(addr, dir.path(), &store, "BackBot").await;
    let bot = Bot::start_at(addr, &token_file, &["--no-seeks"]);
    bot.wait_for_line("in the lobby as").await;
    let person = guest(addr).await;
    let (mut ws, _) = lobby(addr, &person.token).await;
    let bot_name = {
        let token = std::fs::read_to_string(&token_file).unwrap();
        let (_, body) = http(addr, "GET", "/api/me", None, Some(token.trim())).await;
        serde_json::from_str::<boardcraft_protocol::http::AccountInfo>(&body)
            .unwrap()
            .name
    };
    lobby_send(
        &mut ws,
        LobbyClientMessage::Challenge {
            to: bot_name,
            terms: terms(),
        },
    )
    .await;
    let p = lobby_until(&mut ws, paired).await;
    let (plies, _) = play(addr, &p, 9, Some(4)).await;
    drop(ws);
    // The server goes away for two seconds and comes back on the same address and database.
    server.kill();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (_server, again) = Killable::start(&db, addr);
    assert_eq!(again, addr);
    // The bot's lobby connection comes back …
    let lobbies = bot.output().matches("in the lobby as").count();
    let deadline = std::time::Instant::now() + WAIT;
    while bot.output().matches("in the lobby as").count() == lobbies {
        assert!(std::time::Instant::now() < deadline, "{}", bot.output());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // … and so does its game: it plays on to the end.
    let (more, result) = play(addr, &p, 13, None).await;
    assert!(
        result.is_some() && more > plies,
        "{more} plies after {plies}"
    );
    bot.wait_for_line(&format!("game {} end:", p.game)).await;
    assert!(bot.output().contains("reconnecting"), "{}", bot.output());
}

// ----- tables of more than two

const TABLE_VARIANT: &str = "chinese-checkers";

/// What `seated` told a person.
#[derive(Clone, Debug)]
struct Seated {
    game: String,
    seat: SeatIndex,
    token: String,
    players: SeatPlayers,
}

fn seated(m: LobbyServerMessage) -> Option<Seated> {
    match m {
        LobbyServerMessage::Seated {
            game,
            seat,
            token,
            players,
            ..
        } => Some(Seated {
            game,
            seat,
            token,
            players,
        }),
        LobbyServerMessage::Error { message, .. } => panic!("the lobby refused: {message}"),
        _ => None,
    }
}

/// A person's copy of a table's game: the moves replayed with the rules, as a client of
/// protocol 3 does (the server's computer plays the seats of those who left).
struct TableMirror {
    position: AnyPosition,
    ply: u32,
    departed: Vec<SeatIndex>,
    /// The seat that played each move.
    movers: Vec<SeatIndex>,
}

impl TableMirror {
    fn of(snapshot: &SeatSnapshot) -> TableMirror {
        let variant = shipped_variant(&snapshot.variant)
            .unwrap()
            .for_players(snapshot.seat_count())
            .unwrap();
        let mut m = TableMirror {
            position: variant.new_game(),
            ply: 0,
            departed: Vec::new(),
            movers: Vec::new(),
        };
        for mv in &snapshot.moves {
            m.play(mv);
        }
        m.departed = snapshot.left.iter().map(|l| l.seat).collect();
        assert_eq!(hash_text(m.position.hash()), snapshot.hash);
        assert_eq!(m.to_move(), snapshot.to_move);
        m
    }

    fn play(&mut self, notation: &str) {
        let mv = self
            .position
            .parse_move(notation)
            .unwrap_or_else(|e| panic!("`{notation}` is not legal here: {e}"));
        self.movers.push(self.to_move());
        self.position
            .play(&mv)
            .unwrap_or_else(|e| panic!("`{notation}` is not legal here: {e}"));
        self.ply += 1;
    }

    fn to_move(&self) -> SeatIndex {
        self.position.side_to_move().index() as SeatIndex
    }
}

async fn seats_recv(ws: &mut Ws) -> SeatServerMessage {
    loop {
        let frame = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a game message in time (the bot answers)")
            .expect("the game is open")
            .unwrap();
        if let Message::Text(t) = frame {
            return parse_seat_server_message(&t).unwrap();
        }
    }
}

/// What a person saw of a table.
#[derive(Debug)]
struct TableSeen {
    /// Plies played when it stopped.
    plies: u32,
    /// Moves the bot's seat played, each checked: in its turn, legal, the server's hash.
    bot_moves: u32,
    /// The result, when the game ended while the person was there.
    result: Option<SeatResult>,
}

/// A person's seat at a table (protocol 3): random legal moves (seeded) in its turns, every
/// move of every seat checked against its own copy of the game (the seat whose turn it is,
/// legal, the same hash), until `plies` are played; then, with `resign`, it resigns and
/// watches until its seat has left or the game is over.
async fn sit(
    addr: SocketAddr,
    me: &Seated,
    bot_seat: SeatIndex,
    seed: u64,
    plies: u32,
    resign: bool,
) -> TableSeen {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws?game={}", me.game))
        .await
        .unwrap();
    game_send(
        &mut ws,
        ClientMessage::Hello {
            protocol: SEATS_PROTOCOL_VERSION,
            game: me.game.clone(),
            token: Some(me.token.clone()),
            client: Some("test person".into()),
        },
    )
    .await;
    let SeatServerMessage::Welcome {
        you,
        game: snapshot,
        ..
    } = seats_recv(&mut ws).await
    else {
        panic!("no welcome")
    };
    assert_eq!(you, Some(me.seat));
    assert_eq!(snapshot.seat_count(), 3);
    let mut mirror = TableMirror::of(&snapshot);
    let mut rng = seed | 1;
    let mut moves = Vec::new();
    let mut sent_for = None;
    let mut resigned = false;
    // What it saw: the moves it checked, the bot's among them.
    let seen = |mirror: &TableMirror, result| TableSeen {
        plies: mirror.ply,
        bot_moves: mirror.movers.iter().filter(|s| **s == bot_seat).count() as u32,
        result,
    };
    loop {
        if mirror.ply >= plies && !resign {
            return seen(&mirror, None);
        }
        if mirror.ply >= plies && resign && !resigned {
            game_send(&mut ws, ClientMessage::Resign).await;
            resigned = true;
        }
        let mine = mirror.to_move() == me.seat && !mirror.departed.contains(&me.seat);
        if !resigned && mine && !mirror.position.is_game_over() && sent_for != Some(mirror.ply) {
            mirror.position.legal_moves(&mut moves);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = &moves[(rng % moves.len() as u64) as usize];
            game_send(
                &mut ws,
                ClientMessage::Move {
                    ply: mirror.ply,
                    notation: mirror.position.format_move(mv),
                },
            )
            .await;
            sent_for = Some(mirror.ply);
        }
        match seats_recv(&mut ws).await {
            SeatServerMessage::Moved {
                ply,
                notation,
                seat,
                hash,
                ..
            } if ply == mirror.ply => {
                assert_eq!(
                    seat,
                    mirror.to_move(),
                    "ply {ply}: {notation} played in turn"
                );
                mirror.play(&notation);
                assert_eq!(
                    hash_text(mirror.position.hash()),
                    hash,
                    "ply {ply}: {notation}"
                );
            }
            SeatServerMessage::Snapshot { game, .. } => {
                if let Some(result) = game.result {
                    return seen(&mirror, Some(result));
                }
                if game.left.iter().any(|l| l.seat == me.seat) {
                    return seen(&mirror, None);
                }
                mirror = TableMirror::of(&game);
            }
            SeatServerMessage::GameOver { result, .. } => {
                return seen(&mirror, Some(result));
            }
            SeatServerMessage::Error { message, .. } => panic!("refused: {message}"),
            _ => {}
        }
    }
}

/// A table of three from a seek: one person opens it, the bot takes a seat, a second person
/// the last one; both people's `seated`.
async fn fill_table(addr: SocketAddr, bot_name: &str) -> (Seated, Seated) {
    let seeker = guest(addr).await;
    let (mut a, _) = lobby_with(addr, &seeker.token, SEATS_PROTOCOL_VERSION).await;
    let other = guest(addr).await;
    let (mut b, _) = lobby_with(addr, &other.token, SEATS_PROTOCOL_VERSION).await;
    lobby_send(
        &mut a,
        LobbyClientMessage::Seek {
            terms: GameTerms {
                variant: TABLE_VARIANT.into(),
                seats: 3,
                ..terms()
            },
        },
    )
    .await;
    // The bot sits down at the seek: everyone sees it seated.
    let id = lobby_until(&mut b, |m| match m {
        LobbyServerMessage::SeekAdded { seek }
            if seek.by.name == seeker.account.name
                && seek.seated.iter().any(|p| p.name == bot_name) =>
        {
            assert_eq!(seek.seats, 3);
            assert_eq!(seek.seated.len(), 2, "{seek:?}");
            Some(seek.id)
        }
        _ => None,
    })
    .await;
    lobby_send(&mut b, LobbyClientMessage::AcceptSeek { id }).await;
    let sa = lobby_until(&mut a, seated).await;
    let sb = lobby_until(&mut b, seated).await;
    assert_eq!(sa.game, sb.game);
    assert_eq!(sa.players.seats.len(), 3);
    assert_ne!(sa.seat, sb.seat);
    (sa, sb)
}

/// The seat left to the bot at a table of three.
fn bot_seat(a: &Seated, b: &Seated, bot_name: &str) -> SeatIndex {
    let seat = (0..3).find(|s| *s != a.seat && *s != b.seat).unwrap();
    assert_eq!(
        a.players.seats[usize::from(seat)].name,
        bot_name,
        "{:?}",
        a.players
    );
    seat
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_bot_takes_seats_at_two_tables_of_three_and_plays_them_in_turn() {
    let server = start_server().await;
    let token_file = bot_account(&server, "TableBot").await;
    let password_file = server.dir.path().join("bot.password");
    let bot = Bot::start(
        &server,
        &token_file,
        &[
            "--no-seeks",
            "--variants",
            TABLE_VARIANT,
            "--seats",
            "3,6",
            "--name",
            "TableBot",
            "--password-file",
            password_file.to_str().unwrap(),
        ],
    );
    bot.wait_for_line("in the lobby as TableBot").await;
    // A table of four, a size it does not play (`--seats 3,6`): it never sits down there.
    let four = guest(server.addr).await;
    let (mut four_ws, _) = lobby_with(server.addr, &four.token, SEATS_PROTOCOL_VERSION).await;
    lobby_send(
        &mut four_ws,
        LobbyClientMessage::Seek {
            terms: GameTerms {
                variant: TABLE_VARIANT.into(),
                seats: 4,
                ..terms()
            },
        },
    )
    .await;
    let four_id = lobby_until(&mut four_ws, |m| match m {
        LobbyServerMessage::SeekAdded { seek } if seek.by.name == four.account.name => {
            Some(seek.id)
        }
        _ => None,
    })
    .await;
    // The first table: a person's seek, the bot in a seat, another person in the last.
    let (a, b) = fill_table(server.addr, "TableBot").await;
    let first = bot_seat(&a, &b, "TableBot");
    bot.wait_for_line(&format!(
        "game {} start: {TABLE_VARIANT} untimed casual at seat {first} of 3 vs",
        a.game
    ))
    .await;
    // The second table while the first is on: the bot plays a seat in each.
    let (c, d) = fill_table(server.addr, "TableBot").await;
    assert_ne!(c.game, a.game);
    let second = bot_seat(&c, &d, "TableBot");
    bot.wait_for_line(&format!("game {} start:", c.game)).await;
    // The bot took its seats at the tables of three after the table of four was open (it reads
    // the lobby in order), and took none there: its seek still has its seeker alone.
    lobby_send(&mut four_ws, LobbyClientMessage::Ping { n: 7 }).await;
    lobby_until(&mut four_ws, |m| match m {
        LobbyServerMessage::SeekAdded { seek } if seek.id == four_id => {
            panic!("the table of four changed: {seek:?}")
        }
        LobbyServerMessage::Pong { n: 7 } => Some(()),
        _ => None,
    })
    .await;
    assert!(!bot.output().contains(&four_id), "{}", bot.output());
    // Four rounds at both tables at once. At the first, one person resigns after two rounds:
    // its seat leaves, the server's computer plays it, and the bot and the other person play
    // on (the bot's moves still in turn), until the other person resigns too and the bot is
    // left first.
    const PLIES: u32 = 12;
    const LEAVES: u32 = 6;
    const LAST: u32 = 16;
    let addr = server.addr;
    let (sa, sb, sc, sd) = tokio::join!(
        sit(addr, &a, first, 3, LEAVES, true),
        sit(addr, &b, first, 5, LAST, true),
        sit(addr, &c, second, 7, PLIES, false),
        sit(addr, &d, second, 9, PLIES, false),
    );
    for seen in [&sc, &sd] {
        assert!(seen.plies >= PLIES, "{seen:?}");
        assert!(
            seen.bot_moves >= PLIES / 3,
            "the bot moved in each round: {seen:?}"
        );
    }
    assert!(sa.plies >= LEAVES && sa.bot_moves >= 2, "{sa:?}");
    assert!(sa.result.is_none(), "the game went on without it: {sa:?}");
    // From the first resignation on, the bot still had every third turn.
    assert!(sb.plies >= LAST, "{sb:?}");
    assert!(
        sb.bot_moves >= 2 + (LAST - LEAVES - 1) / 3,
        "the bot played on after a seat left: {sb:?}"
    );
    let result = sb
        .result
        .expect("the game ended when the second person resigned");
    assert_eq!(result.place_of(first), Some(1), "{result:?}");
    assert_eq!(result.winner(), Some(first));
    assert_eq!(result.place_of(b.seat), Some(2), "{result:?}");
    assert_eq!(result.place_of(a.seat), Some(3), "{result:?}");
    bot.wait_for_line(&format!("game {} end:", a.game)).await;
    let out = bot.output();
    let end = out
        .lines()
        .find(|l| l.starts_with(&format!("game {} end:", a.game)))
        .unwrap();
    assert!(
        end.contains(&format!("at seat {first}")) && end.contains("place 1 of 3"),
        "{end}"
    );
    // The second table plays on: the bot has not left it.
    assert!(!out.contains(&format!("game {} end:", c.game)), "{out}");
    let state = std::fs::read_to_string(format!("{}.games.json", token_file.display())).unwrap();
    assert!(
        state.contains(&c.game) && !state.contains(&a.game),
        "{state}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_bot_waits_in_a_table_pool_is_seated_with_two_people_and_waits_again() {
    let pool = PoolKey {
        seats: 3,
        ..PoolKey::new(TABLE_VARIANT, TimeControl::minutes(5, 3))
    };
    let server = start_server_with(|s| {
        s.lobby.pools = vec![pool.clone()];
        s.lobby.allow_bots_in_pools = true;
    })
    .await;
    let token_file = bot_account(&server, "PoolBot").await;
    let password_file = server.dir.path().join("bot.password");
    let bot = Bot::start(
        &server,
        &token_file,
        &[
            "--no-seeks",
            "--variants",
            TABLE_VARIANT,
            "--pool",
            "chinese-checkers 5+3 x3",
            "--name",
            "PoolBot",
            "--password-file",
            password_file.to_str().unwrap(),
        ],
    );
    bot.wait_for_line("waiting in the pool chinese-checkers 300+3 x3")
        .await;
    let mut people = Vec::new();
    for _ in 0..2 {
        let me = guest(server.addr).await;
        let (mut ws, _) = lobby_with(server.addr, &me.token, SEATS_PROTOCOL_VERSION).await;
        lobby_send(&mut ws, LobbyClientMessage::JoinPool { pool: pool.clone() }).await;
        people.push(ws);
    }
    let a = lobby_until(&mut people[0], seated).await;
    let b = lobby_until(&mut people[1], seated).await;
    assert_eq!(a.game, b.game);
    assert!(a.players.rated, "pool tables are rated");
    let seat = bot_seat(&a, &b, "PoolBot");
    bot.wait_for_line(&format!(
        "game {} start: {TABLE_VARIANT} {} rated at seat {seat} of 3 vs",
        a.game, pool.time_control
    ))
    .await;
    // Two rounds, the bot's moves checked; and it waits in the pool again (room for more).
    let (sa, sb) = tokio::join!(
        sit(server.addr, &a, seat, 21, 6, false),
        sit(server.addr, &b, seat, 23, 6, false),
    );
    for seen in [&sa, &sb] {
        assert!(seen.bot_moves >= 2, "{seen:?}");
    }
    let deadline = std::time::Instant::now() + WAIT;
    while bot.output().matches("waiting in the pool").count() < 2 {
        assert!(std::time::Instant::now() < deadline, "{}", bot.output());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_restarted_bot_resumes_its_seat_at_a_table() {
    let server = start_server().await;
    let token_file = bot_account(&server, "SeatBot").await;
    let password_file = server.dir.path().join("bot.password");
    let args = [
        "--no-seeks",
        "--variants",
        TABLE_VARIANT,
        "--name",
        "SeatBot",
        "--password-file",
        password_file.to_str().unwrap(),
    ];
    let mut bot = Bot::start(&server, &token_file, &args);
    bot.wait_for_line("in the lobby as SeatBot").await;
    let (a, b) = fill_table(server.addr, "SeatBot").await;
    let seat = bot_seat(&a, &b, "SeatBot");
    bot.wait_for_line(&format!("game {} start:", a.game)).await;
    // A round, then the bot is killed (kill -9) and started again.
    let (sa, sb) = tokio::join!(
        sit(server.addr, &a, seat, 31, 3, false),
        sit(server.addr, &b, seat, 33, 3, false),
    );
    assert!(sa.bot_moves >= 1 && sb.bot_moves >= 1, "{sa:?} {sb:?}");
    bot.kill();
    let state = std::fs::read_to_string(format!("{}.games.json", token_file.display())).unwrap();
    let kept: serde_json::Value = serde_json::from_str(&state).unwrap();
    assert_eq!(
        kept["games"][&a.game]["seat"],
        serde_json::json!(seat),
        "the state file keeps the game and the seat: {state}"
    );
    let bot = Bot::start(&server, &token_file, &args);
    bot.wait_for_line(&format!(
        "game {} resume: {TABLE_VARIANT} at seat {seat}",
        a.game
    ))
    .await;
    // The bot plays its seat on: two more rounds, its moves checked.
    let (sa, sb) = tokio::join!(
        sit(server.addr, &a, seat, 35, 9, false),
        sit(server.addr, &b, seat, 37, 9, false),
    );
    for seen in [&sa, &sb] {
        assert!(seen.plies >= 9 && seen.bot_moves >= 3, "{seen:?}");
    }
}
