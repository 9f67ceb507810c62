//! A real server on 127.0.0.1:0 and real clients: HTTP over a TCP socket, websockets with
//! tokio-tungstenite (the tungstenite axum uses).
use std::{net::SocketAddr, sync::Arc, time::Duration};

use boardcraft_protocol::{
    ClientMessage, ErrorCode, GameSnapshot, PROTOCOL_VERSION, SEATS_PROTOCOL_VERSION,
    SeatServerMessage, ServerMessage, Side,
    http::{GameCreated, SeatJoined},
    parse_seat_server_message, parse_server_message,
};
use boardcraft_rules::{AnyPosition, Position, Variant, checks::SeededMoves};
use boardcraft_server::{Settings, serve, storage};
use futures_util::{FutureExt, SinkExt, StreamExt};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};
use tokio_tungstenite::{
    MaybeTlsStream, WebSocketStream,
    tungstenite::{self, Message, client::IntoClientRequest, protocol::CloseFrame},
};

/// How long a test waits for a message before it fails (real time).
const WAIT: Duration = Duration::from_secs(20);

thread_local! {
    static PAUSED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Call first in a `start_paused` test. Waiting is then done by polling and yielding, never by
/// awaiting a socket: while every task awaits (the database thread is writing, a frame is on
/// its way), a paused clock would jump to the next timer and fire it early.
pub fn paused_time() {
    PAUSED.with(|p| p.set(true));
}

fn paused() -> bool {
    PAUSED.with(|p| p.get())
}

/// Waits for `f`: by awaiting with a timeout, or (paused time) by polling it and yielding.
pub async fn wait<F: std::future::Future>(f: F) -> F::Output {
    if !paused() {
        return tokio::time::timeout(WAIT, f)
            .await
            .expect("an answer in time");
    }
    let mut f = std::pin::pin!(f);
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        if let Some(v) = f.as_mut().now_or_never() {
            return v;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "an answer in time (paused)"
        );
        tokio::task::yield_now().await;
    }
}

/// The PostgreSQL URL for the storage tests (`.ci/run` sets it). Without it the PostgreSQL
/// tests print SKIP and pass, except under CI (`CI` set), where they fail.
pub fn postgres_url() -> Option<String> {
    match std::env::var("BOARDCRAFT_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            if std::env::var_os("CI").is_some() {
                panic!(
                    "CI is set but BOARDCRAFT_TEST_POSTGRES is not: the PostgreSQL tests must run in CI"
                );
            }
            eprintln!(
                "SKIP: BOARDCRAFT_TEST_POSTGRES is not set, so this PostgreSQL test did not run \
                 (set it to e.g. postgres://boardcraft:boardcraft@127.0.0.1/boardcraft_test)"
            );
            None
        }
    }
}

/// Settings for tests: the defaults, with limits that tests hit on purpose.
pub fn settings() -> Settings {
    let mut settings = Settings {
        max_new_games_per_ip_per_minute: 0,
        max_connections_per_ip: 0,
        // A test's clients answer at once, faster than a person (a whole game in well under a
        // second): the per-connection message rate is tested on its own (abuse.rs).
        messages_per_second: 1000,
        message_burst: 2000,
        ..Settings::default()
    };
    // The computer in the seats it fills or takes over answers at once at its first level.
    settings.lobby.bot_level = boardcraft_ai::Level::Novice;
    settings
}

/// The server's log on stderr when BOARDCRAFT_TEST_LOG is set (`debug`, `info` …).
pub fn logs() {
    if let Ok(filter) = std::env::var("BOARDCRAFT_TEST_LOG") {
        let filter: tracing_subscriber::filter::Targets = filter.parse().unwrap();
        use tracing_subscriber::prelude::*;
        let _ = tracing_subscriber::registry()
            .with(tracing_subscriber::fmt::layer().with_test_writer())
            .with(filter)
            .try_init();
    }
}

/// A server running in the test's runtime (so paused time applies to it).
pub struct Server {
    pub addr: SocketAddr,
    _dir: Option<Arc<tempfile::TempDir>>,
}

impl Server {
    /// A server on a fresh SQLite file.
    pub async fn start(settings: Settings) -> Server {
        let dir = Arc::new(tempfile::tempdir().expect("a temp dir"));
        let db = dir.path().join("server.sqlite3").display().to_string();
        let mut server = Server::start_on(&db, settings).await;
        server._dir = Some(dir);
        server
    }

    /// A server on the database at `url` (a SQLite path or a PostgreSQL URL).
    pub async fn start_on(url: &str, settings: Settings) -> Server {
        logs();
        let store = storage::open(url).await.expect("the database opens");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let addr = listener.local_addr().unwrap();
        tokio::spawn(serve(listener, store, settings, std::future::pending()));
        Server { addr, _dir: None }
    }

    pub async fn create(&self, body: &str) -> GameCreated {
        let (status, text) = http(self.addr, "POST", "/api/games", Some(body)).await;
        assert_eq!(status, 201, "{text}");
        serde_json::from_str(&text).expect("a GameCreated body")
    }

    pub async fn join(&self, invite: &str) -> SeatJoined {
        let (status, text) = http(self.addr, "POST", &format!("/api/invites/{invite}"), None).await;
        assert_eq!(status, 200, "{text}");
        serde_json::from_str(&text).expect("a SeatJoined body")
    }

    pub async fn snapshot(&self, game: &str) -> GameSnapshot {
        let (status, text) = http(self.addr, "GET", &format!("/api/games/{game}"), None).await;
        assert_eq!(status, 200, "{text}");
        serde_json::from_str(&text).expect("a GameSnapshot body")
    }

    /// A game of `variant` with both seats taken: (game, white's token, black's token).
    pub async fn game(&self, variant: &str, extra: &str) -> (String, String, String) {
        let created = self
            .create(&format!(
                r#"{{"variant":"{variant}","color":"white"{extra}}}"#
            ))
            .await;
        let joined = self.join(&created.invite).await;
        assert_eq!(joined.color, Side::Black);
        (created.game, created.token, joined.token)
    }

    pub fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }
}

/// A server in its own runtime on its own thread, which can be killed at once (the runtime is
/// dropped with every task in it, as a `kill -9` would stop them) and started again.
pub struct Killable {
    pub addr: SocketAddr,
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Killable {
    pub fn start(url: &str, settings: Settings) -> Killable {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let url = url.to_owned();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.spawn(async move {
                let store = storage::open(&url).await.expect("the database opens");
                let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                serve(listener, store, settings, std::future::pending()).await
            });
            let _ = stopped.recv();
            rt.shutdown_background();
        });
        let addr = addr_rx.recv_timeout(WAIT).expect("the server starts");
        Killable {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    pub fn kill(mut self) {
        self.stop.take();
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }
}

/// A server left running at the end of a test stops with it (its database connections
/// closed), as one killed.
impl Drop for Killable {
    fn drop(&mut self) {
        self.stop.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// One HTTP/1.1 request; the status and the body.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let (status, _, body) = http_full(addr, method, path, body, &[]).await;
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// One HTTP/1.1 request with extra headers; the status, the headers (lower-case names) and
/// the body bytes.
pub async fn http_full(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &[(&str, &str)],
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = wait(TcpStream::connect(addr)).await.expect("connect");
    let body = body.unwrap_or("");
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    wait(stream.write_all(request.as_bytes())).await.unwrap();
    let mut raw = Vec::new();
    wait(stream.read_to_end(&mut raw)).await.unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("HTTP headers");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut payload = raw[split + 4..].to_vec();
    let mut lines = head.lines();
    let status: u16 = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    if headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"))
    {
        payload = dechunk(&payload);
    }
    (status, headers, payload)
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(std::str::from_utf8(&data[..end]).unwrap().trim(), 16)
            .unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[end + 2..end + 2 + size]);
        data = &data[end + 2 + size + 2..];
    }
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;
/// A raw websocket client stream (tests that speak the protocol frame by frame).
pub type WsStream = Ws;

/// What a connection ended with.
#[derive(Debug)]
pub enum Ended {
    Closed(Option<CloseFrame>),
    Dropped,
}

/// A websocket client of the protocol.
pub struct Client {
    ws: Ws,
    pub welcome: Option<ServerMessage>,
}

impl Client {
    /// A websocket with no hello sent yet.
    pub async fn open(url: &str) -> Client {
        let (ws, _) = wait(tokio_tungstenite::connect_async(url))
            .await
            .expect("the websocket opens");
        Client { ws, welcome: None }
    }

    /// The upgrade with extra headers; the HTTP error if refused.
    pub async fn open_with(
        url: &str,
        headers: &[(&'static str, &str)],
    ) -> Result<Client, tungstenite::Error> {
        let mut request = url.into_client_request().unwrap();
        for (name, value) in headers {
            request.headers_mut().insert(*name, value.parse().unwrap());
        }
        let (ws, _) = wait(tokio_tungstenite::connect_async(request)).await?;
        Ok(Client { ws, welcome: None })
    }

    /// Says hello and waits for the welcome.
    pub async fn join(server: &Server, game: &str, token: Option<&str>) -> Client {
        Client::join_url(&server.ws_url(), game, token).await
    }

    pub async fn join_url(url: &str, game: &str, token: Option<&str>) -> Client {
        let mut client = Client::open(url).await;
        client
            .send(&ClientMessage::Hello {
                protocol: PROTOCOL_VERSION,
                game: game.to_owned(),
                token: token.map(str::to_owned),
                client: Some("server tests".into()),
            })
            .await;
        let welcome = client.recv().await;
        assert!(
            matches!(welcome, ServerMessage::Welcome { .. }),
            "expected a welcome, got {welcome:?}"
        );
        client.welcome = Some(welcome);
        client
    }

    /// Says hello with protocol 3 and waits for the welcome, which it answers.
    pub async fn join_seats(
        server: &Server,
        game: &str,
        token: Option<&str>,
    ) -> (Client, SeatServerMessage) {
        let mut client = Client::open(&server.ws_url()).await;
        client
            .send(&ClientMessage::Hello {
                protocol: SEATS_PROTOCOL_VERSION,
                game: game.to_owned(),
                token: token.map(str::to_owned),
                client: Some("server tests, protocol 3".into()),
            })
            .await;
        let welcome = client.recv_seats().await;
        assert!(
            matches!(welcome, SeatServerMessage::Welcome { .. }),
            "expected a welcome, got {welcome:?}"
        );
        (client, welcome)
    }

    /// The next text frame as it came (ping/pong frames skipped), in time.
    pub async fn recv_text(&mut self) -> String {
        wait(async {
            loop {
                match self.ws.next().await {
                    Some(Ok(Message::Text(t))) => return t.to_string(),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    other => panic!("expected a message, got {other:?}"),
                }
            }
        })
        .await
    }

    /// The next message of protocol 3, in time.
    pub async fn recv_seats(&mut self) -> SeatServerMessage {
        let text = self.recv_text().await;
        parse_seat_server_message(&text)
            .unwrap_or_else(|e| panic!("bad protocol-3 message {text}: {e}"))
    }

    /// Skips protocol-3 messages until one matches (all in time).
    pub async fn recv_seats_until(
        &mut self,
        what: impl Fn(&SeatServerMessage) -> bool,
    ) -> SeatServerMessage {
        loop {
            let m = self.recv_seats().await;
            if what(&m) {
                return m;
            }
        }
    }

    pub fn welcome_game(&self) -> &GameSnapshot {
        match &self.welcome {
            Some(ServerMessage::Welcome { game, .. }) => game,
            _ => panic!("no welcome"),
        }
    }

    pub async fn send(&mut self, msg: &ClientMessage) {
        self.send_text(&msg.to_json()).await;
    }

    pub async fn send_text(&mut self, text: &str) {
        wait(self.ws.send(Message::Text(text.to_owned().into())))
            .await
            .expect("send");
    }

    pub async fn send_raw(&mut self, msg: Message) {
        wait(self.ws.send(msg)).await.expect("send");
    }

    /// The next protocol message (ping/pong frames skipped); panics on a close.
    async fn recv_any(&mut self) -> ServerMessage {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    return parse_server_message(&t)
                        .unwrap_or_else(|e| panic!("bad server message {t}: {e}"));
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                other => panic!("expected a message, got {other:?}"),
            }
        }
    }

    /// The next protocol message, in time.
    pub async fn recv(&mut self) -> ServerMessage {
        wait(self.recv_any()).await
    }

    /// Skips messages until one matches (all in time).
    pub async fn recv_until(&mut self, what: impl Fn(&ServerMessage) -> bool) -> ServerMessage {
        wait(async {
            loop {
                let m = self.recv_any().await;
                if what(&m) {
                    return m;
                }
            }
        })
        .await
    }

    /// The next error's code (other messages skipped).
    pub async fn error_code(&mut self) -> (ErrorCode, bool) {
        match self
            .recv_until(|m| matches!(m, ServerMessage::Error { .. }))
            .await
        {
            ServerMessage::Error { code, fatal, .. } => (code, fatal),
            _ => unreachable!(),
        }
    }

    /// The next protocol-3 error's code and whether it is fatal.
    pub async fn error_code_seats(&mut self) -> (ErrorCode, bool) {
        match self
            .recv_seats_until(|m| matches!(m, SeatServerMessage::Error { .. }))
            .await
        {
            SeatServerMessage::Error { code, fatal, .. } => (code, fatal),
            _ => unreachable!(),
        }
    }

    /// Reads until the server closes the connection.
    pub async fn ended(&mut self) -> Ended {
        wait(async {
            loop {
                match self.ws.next().await {
                    Some(Ok(Message::Close(frame))) => return Ended::Closed(frame),
                    None | Some(Err(_)) => return Ended::Dropped,
                    Some(Ok(_)) => continue,
                }
            }
        })
        .await
    }

    /// Whether a message arrives within `d` (real time; not for paused tests).
    pub async fn quiet_for(&mut self, d: Duration) -> bool {
        loop {
            match tokio::time::timeout(d, self.ws.next()).await {
                Err(_) => return true,
                Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
                Ok(_) => return false,
            }
        }
    }

    pub async fn close(mut self) {
        let _ = wait(self.ws.close(None)).await;
    }
}

/// A client's own copy of the game, replayed with the rules from what the server sent: what
/// a real client does, and the check that the server's hashes agree with it.
pub struct Mirror {
    pub position: AnyPosition,
    pub moves: Vec<String>,
}

impl Mirror {
    pub fn of(snapshot: &GameSnapshot) -> Mirror {
        let variant: Variant = boardcraft_rules::shipped_variant(&snapshot.variant)
            .or_else(|_| {
                Variant::from_ron("posted", snapshot.variant_file.as_deref().unwrap_or(""))
            })
            .expect("the variant");
        let mut m = Mirror {
            position: variant.new_game(),
            moves: Vec::new(),
        };
        for mv in &snapshot.moves {
            m.apply(mv);
        }
        assert_eq!(
            boardcraft_protocol::hash_text(m.position.hash()),
            snapshot.hash,
            "the snapshot's hash is the replayed position's"
        );
        m
    }

    pub fn apply(&mut self, notation: &str) {
        let mv = self.position.parse_move(notation).expect("a legal move");
        self.position.play(&mv).expect("a legal move");
        self.moves.push(notation.to_owned());
    }

    pub fn hash(&self) -> String {
        boardcraft_protocol::hash_text(self.position.hash())
    }

    pub fn side(&self) -> Side {
        match self.position.side_to_move() {
            boardcraft_rules::Seat::WHITE => Side::White,
            _ => Side::Black,
        }
    }

    /// A random legal move in notation.
    pub fn random_move(&self, picker: &mut SeededMoves) -> String {
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        let mv = picker.pick(&moves).expect("a legal move");
        self.position.format_move(mv)
    }
}

impl Server {
    /// Talks to a server started elsewhere (a [`Killable`]).
    pub fn view(addr: SocketAddr) -> Server {
        Server { addr, _dir: None }
    }
}

/// The real `boardcraft-server` program, started as a process (its own log on stderr, its
/// own limits), killed when dropped.
pub struct Binary {
    pub addr: SocketAddr,
    pub child: std::process::Child,
    log: Arc<std::sync::Mutex<Vec<String>>>,
    _dir: tempfile::TempDir,
}

impl Binary {
    /// Starts it with a soft open-file limit of `soft_nofile` (as many systems have) and the
    /// given extra flags, on a fresh SQLite file unless a `--database` is among them.
    pub fn start(soft_nofile: u32, args: &[&str]) -> Binary {
        use std::io::BufRead;
        let dir = tempfile::tempdir().unwrap();
        let mut command = std::process::Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -Sn {soft_nofile} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_boardcraft-server"))
            .args(["--listen", "127.0.0.1:0", "--log", "info"])
            .arg("--data")
            .arg(dir.path())
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        let mut child = command.spawn().expect("the server starts");
        let stderr = child.stderr.take().unwrap();
        let log = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let lines = log.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(rest) = line.split("listening on http://").nth(1) {
                    let addr = rest.split_whitespace().next().unwrap_or("");
                    let _ = addr_tx.send(addr.parse::<SocketAddr>().unwrap());
                }
                lines.lock().unwrap().push(line);
            }
        });
        let addr = addr_rx
            .recv_timeout(WAIT)
            .expect("the server says where it listens");
        Binary {
            addr,
            child,
            log,
            _dir: dir,
        }
    }

    /// The log's lines so far.
    pub fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// Waits until a log line contains `text`.
    pub async fn wait_for_log(&self, text: &str) {
        wait(async {
            while !self.log().iter().any(|l| l.contains(text)) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A JSON error body's `code`, as text (so that a test reads codes any server version sends).
pub fn error_code_text(body: &[u8]) -> String {
    let value: serde_json::Value = serde_json::from_slice(body).unwrap_or_else(|e| {
        panic!(
            "not a JSON error body ({e}): {}",
            String::from_utf8_lossy(body)
        )
    });
    value["code"]
        .as_str()
        .unwrap_or_else(|| panic!("no code in {value}"))
        .to_owned()
}
