//! `online lobby-load`: the lobby's load benchmark. N guest clients (made over HTTP) each keep a
//! lobby websocket open and, for the run's length, get games — most through a quick-pairing
//! pool, some by opening seeks and some by accepting them — and play them over the game
//! websocket with quick moves (mostly the greedy one-ply move, sometimes a random one; one
//! player resigns at a random ply so that games stay short). Then it reports
//!
//! - pairing latency (pool: `join_pool` sent → `paired`; seek: `accept_seek` sent → `paired`),
//! - move round trip (move sent → its `moved`, which means stored),
//! - the server's CPU time and peak RSS (`/proc/<pid>`: the server it started, or
//!   `--server-pid`), games played, and
//! - the ratings check: every rated game in the database is rated again with skillratings'
//!   Glicko-2 from its stored before-ratings and result and compared with its stored
//!   after-ratings; each player's games chain (a game's before is the previous game's after, the
//!   first from 1500/350/0.06) and the last after is the `ratings` row.
//!
//! A same-run normaliser (a fixed perft, timed before and after the load) is printed beside
//! the figures, so runs on different machines or under different load compare.
//!
//! With `--tables 3,4,6` the clients play at tables of more than two instead: pools of those
//! seat counts, the `seated` message and the game websocket of protocol 3 (module `tables`).
//!
//! Without `--server` it starts `boardcraft-server` itself (the binary beside this one, or
//! `--server-bin`) on 127.0.0.1:0 with a fresh SQLite file (or `--database`), with the
//! per-address limits off: every client here comes from one address.
use std::{
    io::{BufRead, BufReader},
    path::PathBuf,
    process::{Child, ExitCode},
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use boardcraft_ai::{greedy, rng::SplitMix64};
use boardcraft_protocol::{
    ClientMessage, ColorChoice, ErrorCode, GameTerms, LobbyClientMessage, LobbyServerMessage,
    PoolKey, ServerMessage, Side, TimeControl, http::SignedIn, parse_lobby_server_message,
};
use boardcraft_rules::{AnyPosition, Position, shipped_variant};
use clap::Args as ClapArgs;
use futures_util::{SinkExt, StreamExt};
use tokio::{
    sync::mpsc,
    time::{Instant, sleep, timeout},
};
use tokio_tungstenite::tungstenite::Message;

use super::{
    mirror::Mirror,
    net::{self, ServerUrl},
};

mod tables;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// A running server (http://host:port). Without it a `boardcraft-server` is started here
    /// on 127.0.0.1:0 with a fresh SQLite file, or with `--database`.
    #[arg(long)]
    server: Option<String>,
    /// The server binary to start (default: `boardcraft-server` beside this program).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// The database: the one the started server uses (default a fresh SQLite file), and the
    /// one the ratings check reads (a running server's: its SQLite file or postgres:// URL).
    #[arg(long)]
    database: Option<String>,
    /// A running server's process id, for its CPU time and memory (a started server's is
    /// known).
    #[arg(long)]
    server_pid: Option<u32>,
    /// Lobby clients (guest accounts).
    #[arg(long, default_value_t = 2000)]
    clients: usize,
    /// How long clients keep getting new games; games in progress then play on for up to
    /// `--drain-secs`, after which they resign.
    #[arg(long, default_value_t = 3.0)]
    minutes: f64,
    #[arg(long, default_value_t = 60)]
    drain_secs: u64,
    /// The variant (a short one).
    #[arg(long, default_value = "ugolki-hg-3x3")]
    variant: String,
    /// The clock of the pool and the seeks, minutes+seconds (whole minutes: pools need them).
    #[arg(long, default_value = "1+1")]
    clock: String,
    /// A client's pause before a move, on average (ms).
    #[arg(long, default_value_t = 500)]
    think_ms: u64,
    /// Share of the clients that pair through seeks (half open seeks, half accept them); the
    /// others use the quick-pairing pool.
    #[arg(long, default_value_t = 0.2)]
    seek_share: f64,
    /// Seconds over which the clients arrive.
    #[arg(long, default_value_t = 20)]
    ramp_secs: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads of the clients' runtime.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The multi-player mix instead of two-seat games: the clients wait in pools of these
    /// seat counts (`3,4,6`, shared out in turn), are seated at tables of `--table-variant`
    /// and play them over the game websocket of protocol 3; `--seek-share` and `--variant`
    /// are not used.
    #[arg(long, value_delimiter = ',')]
    tables: Option<Vec<u8>>,
    /// The variant of the tables (one played by every seat count of `--tables`).
    #[arg(long, default_value = "chinese-checkers")]
    table_variant: String,
    /// With `--tables`: the depth of the chess perft timed as the normaliser (6; less for a
    /// quick try).
    #[arg(long, default_value_t = 6)]
    normaliser_depth: u32,
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.threads.max(1))
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    if args.tables.is_some() {
        runtime.block_on(tables::main(args))
    } else {
        runtime.block_on(main(args))
    }
}

// ----- the normaliser

/// A fixed CPU workload, timed: perft of the ugolki-9qum start to depth 6 (24 million leaves,
/// one thread), five times; the median time.
pub fn normaliser() -> (u64, Duration) {
    let mut pos: AnyPosition = shipped_variant("ugolki-9qum")
        .expect("a shipped variant")
        .new_game();
    let mut times = Vec::new();
    let mut leaves = 0;
    for _ in 0..5 {
        let start = std::time::Instant::now();
        leaves = boardcraft_rules::perft::perft_any(&mut pos, 6);
        times.push(start.elapsed());
    }
    times.sort();
    (leaves, times[2])
}

fn print_normaliser(when: &str) -> f64 {
    let (leaves, took) = normaliser();
    let rate = leaves as f64 / took.as_secs_f64() / 1e6;
    outln!(
        "normaliser ({when}): perft ugolki-9qum depth 6 = {leaves} leaves in {:.3} s (median of 5) = {rate:.1} M leaves/s",
        took.as_secs_f64()
    );
    rate
}

// ----- the server process

struct Started {
    child: Child,
    _dir: Option<tempfile_dir::Dir>,
    database: String,
    log: PathBuf,
}

/// A temporary folder removed on drop (no tempfile dependency in the binary).
mod tempfile_dir {
    use std::path::PathBuf;

    pub struct Dir(pub PathBuf);

    impl Dir {
        pub fn new(prefix: &str) -> std::io::Result<Dir> {
            let mut name = std::env::temp_dir();
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            name.push(format!("{prefix}-{}-{nanos}", std::process::id()));
            std::fs::create_dir_all(&name)?;
            Ok(Dir(name))
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn server_bin(args: &Args) -> Result<PathBuf, String> {
    if let Some(bin) = &args.server_bin {
        return Ok(bin.clone());
    }
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin = me
        .parent()
        .map(|d| d.join("boardcraft-server"))
        .ok_or("no folder of this program")?;
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!(
            "no {} (build it: cargo build --release -p boardcraft-server; or pass --server-bin / --server)",
            bin.display()
        ))
    }
}

fn start_server(args: &Args, pool: &str) -> Result<(Started, ServerUrl), String> {
    let bin = server_bin(args)?;
    let dir = tempfile_dir::Dir::new("boardcraft-lobby-load").map_err(|e| e.to_string())?;
    let database = args
        .database
        .clone()
        .unwrap_or_else(|| dir.0.join("server.sqlite3").display().to_string());
    let log = dir.0.join("server.log");
    let log_file = std::fs::File::create(&log).map_err(|e| e.to_string())?;
    let child = std::process::Command::new(&bin)
        .args(["--listen", "127.0.0.1:0", "--database", &database])
        // Every client comes from this one address: the per-address limits are off.
        .args([
            "--max-connections-per-ip",
            "0",
            "--max-new-guests-per-ip",
            "0",
            "--max-new-games-per-ip",
            "0",
            "--max-sign-in-failures-per-ip",
            "0",
        ])
        .args(["--pools", pool, "--log", "info"])
        .stdout(std::process::Stdio::null())
        .stderr(log_file)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let started = Started {
        child,
        _dir: Some(dir),
        database,
        log: log.clone(),
    };
    // The address it listens on, from its log.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(file) = std::fs::File::open(&log) {
            for line in BufReader::new(file).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("listening on http://").nth(1) {
                    let addr = rest.split_whitespace().next().unwrap_or("");
                    return Ok((started, ServerUrl::parse(addr)?));
                }
            }
        }
        if std::time::Instant::now() > deadline {
            return Err(format!(
                "the server did not start; its log: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Every 15 s until aborted, a line of progress: the seconds since `start`, `line()`, and the
/// server's CPU time and resident size when its process is known.
fn spawn_progress(
    start: Instant,
    pid: Option<u32>,
    line: impl Fn() -> String + Send + 'static,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(15));
        tick.tick().await;
        loop {
            tick.tick().await;
            let stats = pid.and_then(proc_stats);
            outln!(
                "  {:>4} s: {}{}",
                start.elapsed().as_secs(),
                line(),
                stats.map_or(String::new(), |(cpu, _, rss)| format!(
                    ", server CPU {cpu:.0} s, RSS {} MiB",
                    rss / 1024
                )),
            );
        }
    })
}

/// CPU seconds (user + system) and peak and current RSS (KiB) of a process.
fn proc_stats(pid: u32) -> Option<(f64, u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces) in parentheses.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line: 11 and 12 after the name.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kib = |key: &str| {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    // USER_HZ: 100 on Linux (what /proc reports in, whatever the kernel's HZ).
    Some((ticks as f64 / 100.0, kib("VmHWM:"), kib("VmRSS:")))
}

// ----- the clients

#[derive(Default)]
struct Totals {
    guests: AtomicU64,
    lobby_connected: AtomicU64,
    pool_paired: AtomicU64,
    seek_paired: AtomicU64,
    games_ended: AtomicU64,
    resigned: AtomicU64,
    moves: AtomicU64,
    errors: AtomicU64,
    seek_lost_races: AtomicU64,
    /// Pairings that arrived as the run ended (played, resigned at once).
    late_pairings: AtomicU64,
    /// Games a client left unfinished (past the drain and 30 s more).
    abandoned: AtomicU64,
}

struct Shared {
    server: ServerUrl,
    variant: String,
    time_control: TimeControl,
    /// No new pairing after this.
    deadline: Instant,
    /// Games still on resign after this.
    resign_at: Instant,
    think: Duration,
    totals: Totals,
    pool_latency_us: Mutex<Vec<u32>>,
    seek_latency_us: Mutex<Vec<u32>>,
    rtt_us: Mutex<Vec<u32>>,
    /// Open seeks (kept by an observer connection): id.
    seeks: Mutex<Vec<String>>,
    /// Every game a client was paired into, once.
    games: Mutex<std::collections::HashSet<String>>,
}

impl Shared {
    fn error(&self, what: &str) {
        let n = self.totals.errors.fetch_add(1, Ordering::Relaxed);
        if n < 20 {
            eprintln!("lobby-load: {what}");
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    Pool,
    Seeker,
    Accepter,
}

fn us(d: Duration) -> u32 {
    d.as_micros().min(u32::MAX as u128) as u32
}

fn percentile(v: &[u32], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut v = v.to_vec();
    v.sort_unstable();
    v[((v.len() - 1) as f64 * q).round() as usize] as f64 / 1000.0
}

async fn main(args: Args) -> Result<ExitCode, String> {
    shipped_variant(&args.variant).map_err(|e| e.to_string())?;
    let time_control = super::play::time_control(&args.clock)?;
    if time_control.initial_ms % 60_000 != 0 || time_control.initial_ms == 0 {
        return Err("--clock: whole minutes (pools need them), e.g. 1+1".into());
    }
    let pool_text = format!(
        "{} {}+{}",
        args.variant,
        time_control.initial_ms / 60_000,
        time_control.increment_ms / 1000
    );
    let norm_before = print_normaliser("before");
    let (mut started, server) = match &args.server {
        Some(url) => (None, ServerUrl::parse(url)?),
        None => {
            let (s, url) = start_server(&args, &pool_text)?;
            outln!(
                "started {} on {} (database {}; --max-connections-per-ip 0 --max-new-guests-per-ip 0 \
                 --max-new-games-per-ip 0 --pools \"{pool_text}\"; log {})",
                server_bin(&args)?.display(),
                url.authority,
                s.database,
                s.log.display()
            );
            (Some(s), url)
        }
    };
    let pid = started.as_ref().map(|s| s.child.id()).or(args.server_pid);
    let result = drive(&args, server, time_control, pid).await;
    let norm_after = print_normaliser("after");
    outln!("normaliser: {norm_before:.2} / {norm_after:.2} M leaves/s (before / after the load)");
    let database = started
        .as_ref()
        .map(|s| s.database.clone())
        .or(args.database.clone());
    let check = match &database {
        Some(db) => super::rating_check::check(db).await,
        None => {
            outln!("ratings check: skipped (pass --database to read the server's database)");
            Ok(true)
        }
    };
    if let Some(s) = &mut started {
        let _ = s.child.kill();
        let _ = s.child.wait();
    }
    let ok = result? & check?;
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

async fn drive(
    args: &Args,
    server: ServerUrl,
    time_control: TimeControl,
    pid: Option<u32>,
) -> Result<bool, String> {
    let run = Duration::from_secs_f64(args.minutes * 60.0);
    let start = Instant::now();
    let shared = Arc::new(Shared {
        server,
        variant: args.variant.clone(),
        time_control,
        deadline: start + run,
        resign_at: start + run + Duration::from_secs(args.drain_secs),
        think: Duration::from_millis(args.think_ms),
        totals: Totals::default(),
        pool_latency_us: Mutex::new(Vec::new()),
        seek_latency_us: Mutex::new(Vec::new()),
        rtt_us: Mutex::new(Vec::new()),
        seeks: Mutex::new(Vec::new()),
        games: Mutex::new(Default::default()),
    });
    outln!(
        "lobby-load: {} clients for {:.1} min against {} ({} {} pool; {:.0} % through seeks), moves after ~{} ms",
        args.clients,
        args.minutes,
        shared.server.authority,
        args.variant,
        time_control,
        args.seek_share * 100.0,
        args.think_ms
    );
    let cpu_start = pid.and_then(proc_stats);
    // The observer keeps the list of open seeks for the accepters.
    let observer = tokio::spawn(observe_seeks(shared.clone()));
    let mut tasks = Vec::with_capacity(args.clients);
    let share = args.seek_share.clamp(0.0, 1.0);
    let mut seek_clients = 0;
    for i in 0..args.clients {
        // The seek clients spread evenly among the others, seekers and accepters in turn.
        let role = if (i as f64 * share).floor() != ((i + 1) as f64 * share).floor() {
            seek_clients += 1;
            if seek_clients % 2 == 1 {
                Role::Seeker
            } else {
                Role::Accepter
            }
        } else {
            Role::Pool
        };
        let shared = shared.clone();
        let delay =
            Duration::from_secs(args.ramp_secs).mul_f64(i as f64 / args.clients.max(1) as f64);
        let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        tasks.push(tokio::spawn(async move {
            sleep(delay).await;
            if let Err(e) = client(&shared, role, seed).await {
                shared.error(&format!("client {i} ({role:?}): {e}"));
            }
        }));
    }
    let progress = {
        let shared = shared.clone();
        spawn_progress(start, pid, move || {
            let t = &shared.totals;
            format!(
                "{} in the lobby, {} paired by pool, {} by seek, {} games ended, {} moves",
                t.lobby_connected.load(Ordering::Relaxed),
                t.pool_paired.load(Ordering::Relaxed),
                t.seek_paired.load(Ordering::Relaxed),
                t.games_ended.load(Ordering::Relaxed),
                t.moves.load(Ordering::Relaxed),
            )
        })
    };
    for t in tasks {
        let _ = t.await;
    }
    progress.abort();
    observer.abort();
    let elapsed = start.elapsed();
    let cpu_end = pid.and_then(proc_stats);
    let t = &shared.totals;
    outln!("--- lobby-load results ({} clients)", args.clients);
    outln!(
        "clients: {} guests made, {} lobby connections; {:.0} s of pairing + play, {:.0} s in all",
        t.guests.load(Ordering::Relaxed),
        t.lobby_connected.load(Ordering::Relaxed),
        run.as_secs_f64(),
        elapsed.as_secs_f64()
    );
    let pool = shared.pool_latency_us.lock().unwrap().clone();
    let seek = shared.seek_latency_us.lock().unwrap().clone();
    let rtt = shared.rtt_us.lock().unwrap().clone();
    let games = shared.games.lock().unwrap().len();
    outln!(
        "games: {games} paired ({} pool pairings, {} seek pairings, counted per client), {} ended \
         ({} resignations sent), {} moves ({:.0}/s)",
        t.pool_paired.load(Ordering::Relaxed),
        t.seek_paired.load(Ordering::Relaxed),
        t.games_ended.load(Ordering::Relaxed) / 2,
        t.resigned.load(Ordering::Relaxed),
        t.moves.load(Ordering::Relaxed),
        t.moves.load(Ordering::Relaxed) as f64 / elapsed.as_secs_f64()
    );
    outln!(
        "pairing latency, pool (join_pool -> paired): n {} p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        pool.len(),
        percentile(&pool, 0.5),
        percentile(&pool, 0.99),
        percentile(&pool, 1.0)
    );
    outln!(
        "pairing latency, seek (accept_seek -> paired): n {} p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms ({} accepts lost to another accepter)",
        seek.len(),
        percentile(&seek, 0.5),
        percentile(&seek, 0.99),
        percentile(&seek, 1.0),
        t.seek_lost_races.load(Ordering::Relaxed)
    );
    outln!(
        "move round trip (move -> moved): n {} p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        rtt.len(),
        percentile(&rtt, 0.5),
        percentile(&rtt, 0.99),
        percentile(&rtt, 1.0)
    );
    match (cpu_start, cpu_end) {
        (Some((c0, _, _)), Some((c1, peak, rss))) => outln!(
            "server: CPU {:.1} s over {:.0} s = {:.0} % of one core; peak RSS {} MiB (now {} MiB)",
            c1 - c0,
            elapsed.as_secs_f64(),
            (c1 - c0) / elapsed.as_secs_f64() * 100.0,
            peak / 1024,
            rss / 1024
        ),
        _ => outln!("server: CPU and memory unknown (a remote server: pass --server-pid)"),
    }
    let errors = t.errors.load(Ordering::Relaxed);
    outln!(
        "client errors: {errors}; {} pairings as the run ended (played, resigned at once); {} games left unfinished",
        t.late_pairings.load(Ordering::Relaxed),
        t.abandoned.load(Ordering::Relaxed)
    );
    Ok(true)
}

/// One connection that keeps the list of open seeks (for the accepters).
async fn observe_seeks(shared: Arc<Shared>) {
    loop {
        let Ok(guest) = make_guest(&shared.server, shared.deadline).await else {
            sleep(Duration::from_secs(1)).await;
            continue;
        };
        let Ok((mut ws, welcome)) = net::lobby_connect(
            &shared.server,
            &guest.token,
            "lobby-load observer",
            boardcraft_protocol::PROTOCOL_VERSION,
        )
        .await
        else {
            sleep(Duration::from_secs(1)).await;
            continue;
        };
        if let LobbyServerMessage::Welcome { seeks, .. } = welcome {
            *shared.seeks.lock().unwrap() = seeks.into_iter().map(|s| s.id).collect();
        }
        let mut ping = tokio::time::interval(Duration::from_secs(10));
        loop {
            tokio::select! {
                m = net::lobby_recv(&mut ws) => match m {
                    Ok(Some(LobbyServerMessage::SeekAdded { seek })) => {
                        shared.seeks.lock().unwrap().push(seek.id);
                    }
                    Ok(Some(LobbyServerMessage::SeekRemoved { id })) => {
                        shared.seeks.lock().unwrap().retain(|s| *s != id);
                    }
                    Ok(Some(_)) => {}
                    _ => break,
                },
                _ = ping.tick() => {
                    if net::lobby_send(&mut ws, &LobbyClientMessage::Ping { n: 0 }).await.is_err() {
                        break;
                    }
                }
            }
        }
    }
}

/// A new guest account; tried again with backoff until `deadline`.
async fn make_guest(server: &ServerUrl, deadline: Instant) -> Result<SignedIn, String> {
    let mut backoff = Duration::from_millis(200);
    loop {
        match net::json_as::<SignedIn>(
            server,
            "POST",
            boardcraft_protocol::paths::GUEST,
            None,
            None,
            201,
        )
        .await
        {
            Ok(s) => return Ok(s),
            Err(e) if Instant::now() > deadline => return Err(e.text),
            Err(_) => {
                sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(3));
            }
        }
    }
}

/// What a client's lobby reader passes on.
enum LobbyEvent {
    Paired {
        game: String,
        color: Side,
        token: String,
    },
    Refused(ErrorCode),
}

/// A lobby frame worth parsing for a player (the others — seeks, counts, pools — are skipped
/// unparsed: 2 000 clients hear every seek).
fn wanted(text: &str) -> bool {
    text.starts_with(r#"{"type":"paired""#) || text.starts_with(r#"{"type":"error""#)
}

async fn client(shared: &Arc<Shared>, role: Role, seed: u64) -> Result<(), String> {
    let guest = make_guest(&shared.server, shared.deadline).await?;
    shared.totals.guests.fetch_add(1, Ordering::Relaxed);
    let (ws, _) = net::lobby_connect(
        &shared.server,
        &guest.token,
        "lobby-load",
        boardcraft_protocol::PROTOCOL_VERSION,
    )
    .await?;
    shared
        .totals
        .lobby_connected
        .fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut stream) = ws.split();
    let (tx, mut events) = mpsc::unbounded_channel();
    let reader = tokio::spawn(async move {
        while let Some(Ok(frame)) = stream.next().await {
            let Message::Text(t) = frame else { continue };
            if !wanted(&t) {
                continue;
            }
            let event = match parse_lobby_server_message(&t) {
                Ok(LobbyServerMessage::Paired {
                    game, color, token, ..
                }) => LobbyEvent::Paired { game, color, token },
                Ok(LobbyServerMessage::Error { code, .. }) => LobbyEvent::Refused(code),
                _ => continue,
            };
            if tx.send(event).is_err() {
                break;
            }
        }
    });
    let send = |m: LobbyClientMessage| Message::Text(m.to_json().into());
    let mut rng = SplitMix64::new(seed);
    let pool = PoolKey {
        variant: shared.variant.clone(),
        time_control: shared.time_control,
        seats: 2,
    };
    let mut last_ping = Instant::now();
    while Instant::now() < shared.deadline {
        if last_ping.elapsed() > Duration::from_secs(10) {
            sink.send(send(LobbyClientMessage::Ping { n: 0 }))
                .await
                .map_err(|e| e.to_string())?;
            last_ping = Instant::now();
        }
        let asked = Instant::now();
        match role {
            Role::Pool => {
                sink.send(send(LobbyClientMessage::JoinPool { pool: pool.clone() }))
                    .await
                    .map_err(|e| e.to_string())?;
            }
            Role::Seeker => {
                sink.send(send(LobbyClientMessage::Seek {
                    terms: GameTerms {
                        variant: shared.variant.clone(),
                        time_control: Some(shared.time_control),
                        rated: true,
                        color: ColorChoice::Random,
                        seats: 2,
                    },
                }))
                .await
                .map_err(|e| e.to_string())?;
            }
            Role::Accepter => {
                let pick = {
                    let seeks = shared.seeks.lock().unwrap();
                    (!seeks.is_empty())
                        .then(|| seeks[rng.below(seeks.len() as u64) as usize].clone())
                };
                let Some(id) = pick else {
                    sleep(Duration::from_millis(200)).await;
                    continue;
                };
                sink.send(send(LobbyClientMessage::AcceptSeek { id }))
                    .await
                    .map_err(|e| e.to_string())?;
            }
        }
        // Wait for the pairing (an accepter: or its refusal, which the server always sends).
        let patience = shared.deadline.saturating_duration_since(Instant::now());
        let event = match timeout(patience, events.recv()).await {
            Err(_) => None,
            Ok(None) => return Err("the lobby connection closed".into()),
            Ok(Some(LobbyEvent::Refused(code))) => {
                if role == Role::Accepter && code == ErrorCode::SeekNotFound {
                    shared
                        .totals
                        .seek_lost_races
                        .fetch_add(1, Ordering::Relaxed);
                } else {
                    shared.error(&format!("lobby refused ({role:?}): {code}"));
                    sleep(Duration::from_secs(1)).await;
                }
                None
            }
            Ok(Some(e @ LobbyEvent::Paired { .. })) => Some(e),
        };
        let Some(LobbyEvent::Paired { game, color, token }) = event else {
            if Instant::now() >= shared.deadline {
                if role == Role::Pool {
                    let _ = sink.send(send(LobbyClientMessage::LeavePool)).await;
                }
                // A pairing made as the run ended is still played (else its opponent waits).
                if let Ok(Some(LobbyEvent::Paired { game, color, token })) =
                    timeout(Duration::from_secs(3), events.recv()).await
                {
                    shared.games.lock().unwrap().insert(game.clone());
                    if let Err(e) = play(shared, &game, &token, color, &mut rng, 0).await {
                        shared.error(&format!("game {game}: {e}"));
                    }
                    shared.totals.games_ended.fetch_add(1, Ordering::Relaxed);
                    shared.totals.late_pairings.fetch_add(1, Ordering::Relaxed);
                }
            }
            continue;
        };
        let waited = us(asked.elapsed());
        match role {
            Role::Pool => {
                shared.pool_latency_us.lock().unwrap().push(waited);
                shared.totals.pool_paired.fetch_add(1, Ordering::Relaxed);
            }
            Role::Accepter => {
                shared.seek_latency_us.lock().unwrap().push(waited);
                shared.totals.seek_paired.fetch_add(1, Ordering::Relaxed);
            }
            Role::Seeker => {
                shared.totals.seek_paired.fetch_add(1, Ordering::Relaxed);
            }
        }
        shared.games.lock().unwrap().insert(game.clone());
        // The lobby stays open (its messages read by the reader) while the game is played.
        let resign_after = 10 + rng.below(70) as u32;
        if let Err(e) = play(shared, &game, &token, color, &mut rng, resign_after).await {
            shared.error(&format!("game {game}: {e}"));
        }
        shared.totals.games_ended.fetch_add(1, Ordering::Relaxed);
    }
    let _ = sink.close().await;
    reader.abort();
    Ok(())
}

/// Plays a game to its end: quick moves, and a resignation at ply `resign_after` (by whoever
/// is to move then) or when the drain time is up.
async fn play(
    shared: &Shared,
    game: &str,
    token: &str,
    side: Side,
    rng: &mut SplitMix64,
    resign_after: u32,
) -> Result<(), String> {
    let mut reconnects = 0;
    'connect: loop {
        let (mut ws, welcome) =
            match net::connect(&shared.server, game, Some(token), "lobby-load").await {
                Ok(x) => x,
                Err(e) => {
                    reconnects += 1;
                    if reconnects > 5 {
                        return Err(e);
                    }
                    sleep(Duration::from_millis(500)).await;
                    continue;
                }
            };
        let ServerMessage::Welcome { game: snapshot, .. } = welcome else {
            unreachable!("connect returns a welcome")
        };
        if snapshot.result.is_some() {
            return Ok(());
        }
        let mut mirror = Mirror::of(&snapshot)?;
        let mut pending: Option<(u32, Instant)> = None;
        let mut move_at: Option<Instant> = None;
        let mut ping = tokio::time::interval(Duration::from_secs(10));
        loop {
            let my_turn = mirror.side_to_move() == side && !mirror.position.is_game_over();
            if my_turn && pending.is_none() && move_at.is_none() {
                let jitter = 0.5 + rng.below(1000) as f64 / 1000.0;
                move_at = Some(Instant::now() + shared.think.mul_f64(jitter));
            }
            let resign_now = Instant::now() >= shared.resign_at;
            tokio::select! {
                m = net::recv(&mut ws) => {
                    let Some(m) = m? else { continue 'connect };
                    match m {
                        ServerMessage::Moved { ply, notation, .. } => {
                            if ply == mirror.ply() {
                                mirror.apply(&notation)?;
                            }
                            if let Some((p, sent)) = pending
                                && p == ply
                            {
                                shared.rtt_us.lock().unwrap().push(us(sent.elapsed()));
                                shared.totals.moves.fetch_add(1, Ordering::Relaxed);
                                pending = None;
                            }
                        }
                        ServerMessage::GameOver { .. } => return Ok(()),
                        ServerMessage::Snapshot { game: s, .. } => {
                            if s.result.is_some() {
                                return Ok(());
                            }
                            mirror = Mirror::of(&s)?;
                            pending = None;
                        }
                        ServerMessage::Offer { offer, by, .. } if by != side => {
                            net::send(&mut ws, &ClientMessage::Decline { offer }).await?;
                        }
                        ServerMessage::Error { code, message, .. } => {
                            if code == ErrorCode::GameOver {
                                return Ok(());
                            }
                            return Err(format!("refused: {message} ({code})"));
                        }
                        _ => {}
                    }
                }
                _ = sleep_until_opt(move_at), if pending.is_none() => {
                    move_at = None;
                    if mirror.side_to_move() != side || mirror.position.is_game_over() {
                        continue;
                    }
                    let ply = mirror.ply();
                    if ply >= resign_after || resign_now {
                        shared.totals.resigned.fetch_add(1, Ordering::Relaxed);
                        net::send(&mut ws, &ClientMessage::Resign).await?;
                        continue;
                    }
                    let notation = if rng.below(5) == 0 {
                        let mut moves = Vec::new();
                        mirror.position.legal_moves(&mut moves);
                        let mv = &moves[rng.below(moves.len() as u64) as usize];
                        mirror.position.format_move(mv)
                    } else {
                        let best = greedy(&mirror.position, rng.next_u64()).best_move;
                        let Some(mv) = best else { continue };
                        mirror.position.format_move(&mv)
                    };
                    net::send(&mut ws, &ClientMessage::Move { ply, notation }).await?;
                    pending = Some((ply, Instant::now()));
                }
                _ = ping.tick() => {
                    net::send(&mut ws, &ClientMessage::Ping { n: 0 }).await?;
                }
                _ = sleep(Duration::from_secs(1)), if resign_now => {
                    // Past the drain: resign (a player may resign on either turn); past 30 s
                    // more, leave the game.
                    if Instant::now() > shared.resign_at + Duration::from_secs(30) {
                        shared.totals.abandoned.fetch_add(1, Ordering::Relaxed);
                        return Err("the game did not end after resigning".into());
                    }
                    shared.totals.resigned.fetch_add(1, Ordering::Relaxed);
                    net::send(&mut ws, &ClientMessage::Resign).await?;
                }
            }
        }
    }
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}
