//! The failover test and benchmark: bot players play games through the load
//! balancer of a local cluster (`scripts/cluster.sh start`) while nodes are killed with
//! `kill -9` at random moments and started again; then every acknowledged move is checked
//! against PostgreSQL.
//!
//! ```sh
//! scripts/cluster.sh start
//! cargo run --profile ci -p boardcraft-server --example failover -- --games 50 --kills 1
//! ```
//!
//! The games are found the way players find them: every bot signs in as a guest, opens the
//! lobby (`/lobby`) through the load balancer, joins the quick-pairing pool `--pool`, and
//! plays the game its `paired` (or, at a table of more than two, `seated`) names
//! (`--pairing invite`: two-seat games made with an invite instead, as before the lobby). The
//! lobby connections are on any node (round robin), so most tables are made across nodes.
//! `--pool "chinese-checkers 5+3 x3"` plays tables of three (the server's pool spelling): the
//! bots speak protocol 3, which every game has, two-seat ones too.
//!
//! Reports games, moves, the time from each kill until every game it cut off accepts moves
//! again (p50 / p99 / max), the same after each restart (the games move back), acknowledged
//! moves lost and duplicated (exit status 1 unless both are 0), and moves per second.
//! `--kills 0 --duration-secs S` measures throughput alone (compare `NODES=1` and `NODES=3`).
use std::{
    collections::HashMap,
    process::ExitCode,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use boardcraft_protocol::{
    ClientMessage, ErrorCode, SEATS_PROTOCOL_VERSION, SeatIndex, SeatServerMessage,
};
use boardcraft_rules::{AnyPosition, Position, checks::SeededMoves};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use tokio_tungstenite::tungstenite::Message;

#[derive(Parser, Clone)]
struct Args {
    /// The load balancer (scripts/cluster.sh's HAProxy).
    #[arg(long, default_value = "127.0.0.1:9100")]
    lb: String,
    /// The cluster's PostgreSQL, to check the stored moves.
    #[arg(
        long,
        default_value = "postgres://boardcraft:boardcraft@127.0.0.1/boardcraft_cluster"
    )]
    database: String,
    /// Games (tables) to play.
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// Nodes to kill, one after another (0: a throughput run).
    #[arg(long, default_value_t = 1)]
    kills: usize,
    /// Nodes in the cluster (the killed one is picked among them).
    #[arg(long, default_value_t = 3)]
    nodes: usize,
    /// A killed node is started again this long after its kill.
    #[arg(long, default_value_t = 2000)]
    restart_after_ms: u64,
    /// How long the bots play when there are no kills; with kills, until the last restart
    /// plus `--settle-secs`.
    #[arg(long, default_value_t = 10)]
    duration_secs: u64,
    #[arg(long, default_value_t = 3)]
    settle_secs: u64,
    /// A bot's pause before each move.
    #[arg(long, default_value_t = 20)]
    think_ms: u64,
    /// The variant of invite games (`--pairing invite`).
    #[arg(long, default_value = "halma-16")]
    variant: String,
    /// How the bots find their games: `lobby` (quick pairing in `--pool`) or `invite`.
    #[arg(long, default_value = "lobby")]
    pairing: String,
    /// The quick-pairing pool the bots join (one of the server's pools; ` xN` after the
    /// clock: tables of N seats).
    #[arg(long, default_value = "halma-16 10+5")]
    pool: String,
    /// A bot closes its connection and opens a new one every this many plies (as a page
    /// reload does; 0: never), so that games follow the load balancer back to a restarted
    /// node (a handover).
    #[arg(long, default_value_t = 24)]
    reconnect_every: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// scripts/cluster.sh, which kills and starts nodes.
    #[arg(long, default_value = "scripts/cluster.sh")]
    cluster_script: String,
}

/// What one game's bots saw.
#[derive(Default)]
struct GameLog {
    /// The move each ply's mover chose (chosen once, sent again after a reconnect).
    intended: HashMap<u32, String>,
    /// The acknowledged move of each ply (a `moved` any of its bots received).
    acked: HashMap<u32, String>,
    /// Two different moves acknowledged for one ply.
    conflicts: u64,
    /// When a connection of this game was cut (by a kill or a handover).
    drops: Vec<Instant>,
    /// When a `moved` arrived.
    acks: Vec<Instant>,
}

struct Shared {
    stop: AtomicBool,
    moves: AtomicU64,
    reconnects: AtomicU64,
}

/// One HTTP/1.1 request through the load balancer; the status and the body.
async fn http(lb: &str, method: &str, path: &str, body: &str) -> Result<(u16, String), String> {
    let mut stream = TcpStream::connect(lb).await.map_err(|e| e.to_string())?;
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {lb}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .await
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no HTTP status in {text:?}"))?;
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    Ok((status, body))
}

/// Retries a request while the cluster is in flux (a node just died: 502/503).
async fn http_retry(lb: &str, method: &str, path: &str, body: &str) -> String {
    for attempt in 0.. {
        match http(lb, method, path, body).await {
            Ok((200 | 201, body)) => return body,
            other if attempt < 100 => {
                let _ = other;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            other => panic!("{method} {path}: {other:?}"),
        }
    }
    unreachable!()
}

fn replay(variant: &str, seats: usize, moves: &[String]) -> AnyPosition {
    let mut position = boardcraft_rules::shipped_variant(variant)
        .expect("a shipped variant")
        .for_players(seats)
        .expect("a seat count the variant offers")
        .new_game();
    for m in moves {
        let mv = position.parse_move(m).expect("stored moves replay");
        position.play(&mv).expect("stored moves replay");
    }
    position
}

/// One bot: plays its seat's moves of a game until told to stop, reconnecting whenever its
/// connection is cut.
async fn bot(
    args: Arc<Args>,
    shared: Arc<Shared>,
    log: Arc<Mutex<GameLog>>,
    game: String,
    token: String,
    seed: u64,
) {
    let mut picker = SeededMoves::new(seed);
    let mut backoff = Duration::from_millis(20);
    'connect: while !shared.stop.load(Ordering::Relaxed) {
        let url = format!("ws://{}/ws?game={game}", args.lb);
        let Ok(Ok((mut ws, _))) = tokio::time::timeout(
            Duration::from_secs(5),
            tokio_tungstenite::connect_async(url),
        )
        .await
        else {
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_millis(500));
            continue;
        };
        let hello = ClientMessage::Hello {
            protocol: SEATS_PROTOCOL_VERSION,
            game: game.clone(),
            token: Some(token.clone()),
            client: Some("failover bot".into()),
        };
        if ws
            .send(Message::Text(hello.to_json().into()))
            .await
            .is_err()
        {
            continue;
        }
        let mut position: Option<AnyPosition> = None;
        let mut me: Option<SeatIndex> = None;
        let mut seats = 2u32;
        let mut ply = 0u32;
        let mut pending: Option<(u32, Instant)> = None;
        let mut voluntary = false;
        loop {
            // My turn and nothing on its way: think, then send (the same move as before if
            // this ply was chosen already).
            if let (Some(pos), Some(seat)) = (&position, me)
                && pending.is_none()
                && pos.outcome().is_none()
                && pos.side_to_move().index() == usize::from(seat)
            {
                if shared.stop.load(Ordering::Relaxed) {
                    break 'connect;
                }
                tokio::time::sleep(Duration::from_millis(args.think_ms)).await;
                let notation = {
                    let mut log = log.lock().unwrap();
                    log.intended
                        .entry(ply)
                        .or_insert_with(|| {
                            let mut moves = Vec::new();
                            pos.legal_moves(&mut moves);
                            pos.format_move(picker.pick(&moves).expect("a legal move"))
                        })
                        .clone()
                };
                let m = ClientMessage::Move { ply, notation };
                if ws.send(Message::Text(m.to_json().into())).await.is_err() {
                    break;
                }
                pending = Some((ply, Instant::now()));
            }
            let frame = tokio::select! {
                f = ws.next() => f,
                // Unacknowledged for a while: send it again (the protocol's resend).
                _ = tokio::time::sleep(Duration::from_secs(3)), if pending.is_some() => {
                    pending = None;
                    continue;
                }
                _ = tokio::time::sleep(Duration::from_millis(200)), if pending.is_none() => {
                    if shared.stop.load(Ordering::Relaxed) { break 'connect; }
                    continue;
                }
            };
            let text = match frame {
                Some(Ok(Message::Text(t))) => t,
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => continue,
            };
            match boardcraft_protocol::parse_seat_server_message(&text).expect("a server message") {
                SeatServerMessage::Welcome { you, game: g, .. } => {
                    me = you;
                    seats = g.seat_count() as u32;
                    backoff = Duration::from_millis(20);
                    let mut log = log.lock().unwrap();
                    for (p, m) in g.moves.iter().enumerate() {
                        if let Some(sent) = log.intended.get(&(p as u32))
                            && sent != m
                        {
                            log.conflicts += 1;
                        }
                    }
                    ply = g.ply;
                    position = Some(replay(&g.variant, g.seat_count(), &g.moves));
                    if g.result.is_some() {
                        break 'connect;
                    }
                }
                SeatServerMessage::Moved {
                    ply: p, notation, ..
                } => {
                    if p != ply {
                        // Missed something: a fresh welcome puts it right.
                        break;
                    }
                    {
                        let mut log = log.lock().unwrap();
                        if let Some(before) = log.acked.insert(p, notation.clone())
                            && before != notation
                        {
                            log.conflicts += 1;
                        }
                        log.acks.push(Instant::now());
                    }
                    if pending.is_some_and(|(q, _)| q == p) {
                        pending = None;
                        shared.moves.fetch_add(1, Ordering::Relaxed);
                    }
                    if let Some(pos) = &mut position {
                        let mv = pos.parse_move(&notation).expect("an acknowledged move");
                        pos.play(&mv).expect("an acknowledged move");
                    }
                    ply += 1;
                    if position.as_ref().is_some_and(|p| p.outcome().is_some()) {
                        break 'connect;
                    }
                    // The bots of a game at different plies (as people reloading).
                    let offset = args.reconnect_every * u32::from(me.unwrap_or(0)) / seats;
                    if args.reconnect_every > 0
                        && (ply + offset).is_multiple_of(args.reconnect_every)
                    {
                        voluntary = true;
                        let _ = ws.close(None).await;
                        break;
                    }
                }
                SeatServerMessage::Error {
                    code: ErrorCode::GameMoved,
                    ..
                } => break,
                SeatServerMessage::Error { fatal: true, .. } => break,
                SeatServerMessage::Error {
                    code: ErrorCode::PlyAlreadyPlayed | ErrorCode::NotYourTurn,
                    ..
                } => break,
                SeatServerMessage::Error { code, message, .. } => {
                    eprintln!("game {game}: refused {code}: {message}");
                    pending = None;
                }
                SeatServerMessage::GameOver { .. } => break 'connect,
                _ => {}
            }
        }
        if voluntary {
            continue;
        }
        log.lock().unwrap().drops.push(Instant::now());
        shared.reconnects.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_millis(500));
    }
}

/// A bot's seat from the lobby.
struct Seat {
    game: String,
    token: String,
    /// From joining the pool to `paired`.
    waited: Duration,
}

/// `--pool`'s words (`VARIANT M+S [xN]`) as the lobby's pool.
fn pool_of(text: &str) -> boardcraft_protocol::PoolKey {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (variant, clock, seats) = match words[..] {
        [variant, clock] => (variant, clock, 2),
        [variant, clock, seats] => (
            variant,
            clock,
            seats
                .strip_prefix('x')
                .and_then(|n| n.parse().ok())
                .expect("--pool VARIANT M+S xN"),
        ),
        _ => panic!("--pool VARIANT M+S [xN]"),
    };
    let (m, s) = clock.split_once('+').expect("--pool VARIANT M+S");
    boardcraft_protocol::PoolKey {
        variant: variant.to_owned(),
        time_control: boardcraft_protocol::TimeControl::minutes(
            m.parse().expect("minutes"),
            s.parse().expect("seconds"),
        ),
        seats,
    }
}

/// `--games` tables of bots: each signs in as a guest, opens the lobby through the load
/// balancer, joins the pool and waits for `paired` (or `seated`).
async fn quick_pairing(args: &Arc<Args>) -> Vec<Seat> {
    let pool = pool_of(&args.pool);
    let mut tasks = Vec::new();
    for _ in 0..args.games * usize::from(pool.seats) {
        let args = args.clone();
        let pool = pool.clone();
        tasks.push(tokio::spawn(async move {
            for attempt in 0.. {
                match lobby_seat(&args, &pool).await {
                    Ok(seat) => return seat,
                    Err(e) if attempt < 20 => {
                        eprintln!("lobby: {e}; again");
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    Err(e) => panic!("lobby: {e}"),
                }
            }
            unreachable!()
        }));
    }
    let mut seats = Vec::new();
    for t in tasks {
        seats.push(t.await.expect("a bot's pairing"));
    }
    seats
}

async fn lobby_seat(args: &Args, pool: &boardcraft_protocol::PoolKey) -> Result<Seat, String> {
    use boardcraft_protocol::{LobbyClientMessage, LobbyServerMessage};
    let signed: boardcraft_protocol::http::SignedIn =
        serde_json::from_str(&http_retry(&args.lb, "POST", "/api/accounts/guest", "").await)
            .map_err(|e| e.to_string())?;
    let url = format!("ws://{}{}", args.lb, boardcraft_protocol::LOBBY_PATH);
    let (mut ws, _) = tokio::time::timeout(
        Duration::from_secs(5),
        tokio_tungstenite::connect_async(url),
    )
    .await
    .map_err(|_| "the lobby did not open in time".to_owned())?
    .map_err(|e| e.to_string())?;
    let send = |m: LobbyClientMessage| Message::Text(m.to_json().into());
    ws.send(send(LobbyClientMessage::Hello {
        protocol: SEATS_PROTOCOL_VERSION,
        token: Some(signed.token),
        client: Some("failover bot".into()),
    }))
    .await
    .map_err(|e| e.to_string())?;
    let mut joined_at = None;
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(120), ws.next())
            .await
            .map_err(|_| "no pairing within 2 minutes".to_owned())?;
        let text = match frame {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => {
                return Err("the lobby connection closed".into());
            }
            Some(Ok(_)) => continue,
        };
        match boardcraft_protocol::parse_lobby_server_message(&text).map_err(|e| e.to_string())? {
            LobbyServerMessage::Welcome { .. } => {
                ws.send(send(LobbyClientMessage::JoinPool { pool: pool.clone() }))
                    .await
                    .map_err(|e| e.to_string())?;
                joined_at = Some(Instant::now());
            }
            LobbyServerMessage::Paired { game, token, .. }
            | LobbyServerMessage::Seated { game, token, .. } => {
                let _ = ws.close(None).await;
                return Ok(Seat {
                    game,
                    token,
                    waited: joined_at.map(|t| t.elapsed()).unwrap_or_default(),
                });
            }
            LobbyServerMessage::Error { code, message, .. } => {
                return Err(format!("{code}: {message}"));
            }
            _ => {}
        }
    }
}

/// A small seeded generator for the chaos (which node, when).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn cluster(script: &str, what: &str, node: usize) {
    let status = std::process::Command::new(script)
        .args([what, &node.to_string()])
        .status()
        .expect("scripts/cluster.sh runs");
    assert!(status.success(), "{script} {what} {node} failed");
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// For each game cut off in `[from, until)`: the time from `from` (a kill), or from the cut
/// itself (`since_cut`: a handover back to a restarted node, which happens whenever a bot
/// reconnects), to its first `moved` after the cut.
fn recoveries(
    logs: &[Arc<Mutex<GameLog>>],
    from: Instant,
    until: Instant,
    since_cut: bool,
) -> Vec<Duration> {
    let mut out = Vec::new();
    for log in logs {
        let log = log.lock().unwrap();
        let Some(cut) = log.drops.iter().find(|d| **d >= from && **d < until) else {
            continue;
        };
        if let Some(ack) = log.acks.iter().find(|a| *a > cut) {
            out.push(*ack - if since_cut { *cut } else { from });
        }
    }
    out.sort();
    out
}

fn show(what: &str, times: &[Duration]) {
    println!(
        "{what}: {} games cut off; back to accepting moves after p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        times.len(),
        percentile(times, 0.5).as_secs_f64() * 1000.0,
        percentile(times, 0.99).as_secs_f64() * 1000.0,
        times.last().copied().unwrap_or_default().as_secs_f64() * 1000.0
    );
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Arc::new(Args::parse());
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(false),
        moves: AtomicU64::new(0),
        reconnects: AtomicU64::new(0),
    });
    // The games, created and joined through the load balancer (so on any node).
    let mut logs = Vec::new();
    let mut bots = Vec::new();
    let mut ids = Vec::new();
    if args.pairing == "lobby" {
        let pairing_started = Instant::now();
        let seats = quick_pairing(&args).await;
        let mut latencies: Vec<Duration> = seats.iter().map(|s| s.waited).collect();
        latencies.sort();
        println!(
            "lobby: {} bots seated at {} tables of {} by quick pairing in {:.1} s (pairing latency p50 {:.0} ms, p99 {:.0} ms)",
            seats.len(),
            seats.len() / usize::from(pool_of(&args.pool).seats),
            pool_of(&args.pool).seats,
            pairing_started.elapsed().as_secs_f64(),
            percentile(&latencies, 0.5).as_secs_f64() * 1000.0,
            percentile(&latencies, 0.99).as_secs_f64() * 1000.0,
        );
        let mut by_game: HashMap<String, Arc<Mutex<GameLog>>> = HashMap::new();
        for (i, seat) in seats.into_iter().enumerate() {
            let log = by_game
                .entry(seat.game.clone())
                .or_insert_with(|| {
                    ids.push(seat.game.clone());
                    let log = Arc::new(Mutex::new(GameLog::default()));
                    logs.push(log.clone());
                    log
                })
                .clone();
            bots.push(tokio::spawn(bot(
                args.clone(),
                shared.clone(),
                log,
                seat.game,
                seat.token,
                args.seed * 1_000_003 + i as u64,
            )));
        }
    }
    let body = format!(r#"{{"variant":"{}","color":"white"}}"#, args.variant);
    for g in 0..args.games {
        if args.pairing == "lobby" {
            break;
        }
        let created: boardcraft_protocol::http::GameCreated =
            serde_json::from_str(&http_retry(&args.lb, "POST", "/api/games", &body).await)
                .expect("a GameCreated");
        let joined: boardcraft_protocol::http::SeatJoined = serde_json::from_str(
            &http_retry(
                &args.lb,
                "POST",
                &format!("/api/invites/{}", created.invite),
                "",
            )
            .await,
        )
        .expect("a SeatJoined");
        let log = Arc::new(Mutex::new(GameLog::default()));
        for (i, token) in [created.token, joined.token].into_iter().enumerate() {
            bots.push(tokio::spawn(bot(
                args.clone(),
                shared.clone(),
                log.clone(),
                created.game.clone(),
                token,
                args.seed * 1_000_003 + (g * 2 + i) as u64,
            )));
        }
        ids.push(created.game);
        logs.push(log);
    }
    let started = Instant::now();
    // The chaos: kill a random node at a random moment, start it again later.
    let mut rng = Rng(args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut kills = Vec::new();
    for _ in 0..args.kills {
        let wait = Duration::from_millis(1000 + rng.next() % 2000);
        tokio::time::sleep(wait).await;
        let node = 1 + (rng.next() as usize % args.nodes);
        let script = args.cluster_script.clone();
        let killed_at = Instant::now();
        tokio::task::spawn_blocking(move || cluster(&script, "kill-node", node))
            .await
            .unwrap();
        println!(
            "killed node {node} (kill -9) at {:.1} s",
            (killed_at - started).as_secs_f64()
        );
        tokio::time::sleep(Duration::from_millis(args.restart_after_ms)).await;
        let script = args.cluster_script.clone();
        tokio::task::spawn_blocking(move || cluster(&script, "start-node", node))
            .await
            .unwrap();
        let restarted_at = Instant::now();
        println!(
            "node {node} up again at {:.1} s",
            (restarted_at - started).as_secs_f64()
        );
        kills.push((killed_at, restarted_at));
    }
    let play = if args.kills == 0 {
        Duration::from_secs(args.duration_secs)
    } else {
        Duration::from_secs(args.settle_secs)
    };
    tokio::time::sleep(play).await;
    let moves_while_playing = shared.moves.load(Ordering::Relaxed);
    let playing = started.elapsed();
    shared.stop.store(true, Ordering::Relaxed);
    for b in bots {
        let _ = tokio::time::timeout(Duration::from_secs(30), b).await;
    }

    // The record: every acknowledged move stored at its ply, nothing stored that no bot sent.
    let (client, connection) = tokio_postgres::connect(&args.database, tokio_postgres::NoTls)
        .await
        .expect("the cluster's database");
    tokio::spawn(connection);
    let (mut lost, mut duplicated, mut acked_total, mut stored_total) = (0u64, 0u64, 0u64, 0u64);
    for (id, log) in ids.iter().zip(&logs) {
        let rows = client
            .query(
                "SELECT ply, notation FROM moves WHERE game = $1 ORDER BY ply",
                &[id],
            )
            .await
            .expect("the moves");
        let stored: HashMap<u32, String> = rows
            .iter()
            .map(|r| (r.get::<_, i32>(0) as u32, r.get::<_, String>(1)))
            .collect();
        let log = log.lock().unwrap();
        acked_total += log.acked.len() as u64;
        stored_total += stored.len() as u64;
        for (ply, notation) in &log.acked {
            if stored.get(ply) != Some(notation) {
                lost += 1;
            }
        }
        duplicated += log.conflicts;
        for (ply, notation) in &stored {
            if log.intended.get(ply) != Some(notation) {
                duplicated += 1;
            }
        }
        // Plies stored beyond what the bots played would be moves applied twice.
        let expected_plies = log.intended.len().max(log.acked.len());
        if stored.len() > expected_plies {
            duplicated += (stored.len() - expected_plies) as u64;
        }
    }
    println!(
        "games {}, acknowledged moves {acked_total} (stored {stored_total}), connections cut {}",
        ids.len(),
        shared.reconnects.load(Ordering::Relaxed)
    );
    for (i, (killed, restarted)) in kills.iter().enumerate() {
        let next = kills.get(i + 1).map_or(Instant::now(), |k| k.0);
        show(
            &format!("kill {}", i + 1),
            &recoveries(&logs, *killed, *restarted, false),
        );
        show(
            &format!("restart {} (games move back; from the cut)", i + 1),
            &recoveries(&logs, *restarted, next, true),
        );
    }
    let all_kills: Vec<Duration> = {
        let mut v: Vec<Duration> = kills
            .iter()
            .flat_map(|(k, r)| recoveries(&logs, *k, *r, false))
            .collect();
        v.sort();
        v
    };
    if !kills.is_empty() {
        show("all kills", &all_kills);
    }
    println!(
        "throughput: {:.0} moves/s ({moves_while_playing} moves in {:.1} s, {} nodes)",
        moves_while_playing as f64 / playing.as_secs_f64(),
        playing.as_secs_f64(),
        args.nodes
    );
    println!("acknowledged moves lost: {lost}, duplicated: {duplicated}");
    if lost == 0 && duplicated == 0 && acked_total > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
