//! `online lobby-load --tables 3,4,6`: the lobby's load benchmark at tables of more than two.
//! Each guest client keeps a lobby websocket of protocol 3 open and, for the run's length,
//! waits in the quick-pairing pool of its seat count (the counts of `--tables` shared out in
//! turn), is `seated` at a table, joins the game over the game websocket with a hello of
//! protocol 3 and plays random legal moves for its seat when the rules give it the turn; after
//! a few moves of its own (3 to 8) it resigns, which leaves the others playing on against the
//! computer in its seat, until one seat is left and the game ends. Then it reports
//!
//! - table fill latency (`join_pool` sent → `seated`), in all and per seat count,
//! - move round trip (move sent → its `moved`, which means stored),
//! - tables formed per seat count and how many ended, moves, errors,
//! - the server's CPU time and peak RSS (`/proc/<pid>`), as the two-seat benchmark does, and
//! - the project's normaliser, chess perft(6) with shakmaty, timed before and after.
//!
//! Every client keeps its own copy of each game (the rules crate; the seats of those who
//! resigned are played on by the server's computer, whose moves arrive as anyone's) and compares every `moved` hash with it: a difference is
//! counted and makes the exit status 1. Ratings at tables are Weng-Lin's, which the server's
//! tests check; the two-seat Glicko-2 check is not run here.
use std::{
    collections::{BTreeMap, HashMap, HashSet},
    process::ExitCode,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use boardcraft_ai::rng::SplitMix64;
use boardcraft_protocol::{
    ClientMessage, ErrorCode, LobbyClientMessage, LobbyServerMessage, PoolKey,
    SEATS_PROTOCOL_VERSION, SeatIndex, SeatServerMessage, SeatSnapshot, TimeControl,
    parse_lobby_server_message, parse_seat_server_message,
};
use boardcraft_rules::{Position, shipped_variant};
use futures_util::{SinkExt, StreamExt};
use tokio::{
    sync::mpsc,
    time::{Instant, sleep, timeout},
};
use tokio_tungstenite::tungstenite::Message;

use super::{
    Args, make_guest, net, percentile, proc_stats, server_bin, sleep_until_opt, spawn_progress,
    start_server, us,
};
use crate::online::{
    mirror::SeatMirror,
    net::{ServerUrl, Ws},
};

// ----- the normaliser

/// Chess perft from the start position with shakmaty, best of three: the normaliser printed
/// beside the project's speed figures (docs/measurements.md); M leaves per second.
fn chess_normaliser(when: &str, depth: u32) -> f64 {
    let pos = shakmaty::Chess::default();
    let mut best = f64::INFINITY;
    let mut leaves = 0;
    for _ in 0..3 {
        let start = std::time::Instant::now();
        leaves = shakmaty::perft(&pos, depth);
        best = best.min(start.elapsed().as_secs_f64());
    }
    let rate = leaves as f64 / best / 1e6;
    outln!(
        "normaliser ({when}): chess perft({depth}) {leaves} leaves in {best:.3} s (best of 3) = {rate:.1} M leaves/s"
    );
    rate
}

// ----- a seat's copy of the game: the bot's (`online::mirror`), and a random move in it

/// A uniformly random legal move of the position, in notation; `None` when there is none.
fn random_move(mirror: &SeatMirror, rng: &mut SplitMix64) -> Option<String> {
    let mut moves = Vec::new();
    mirror.position.legal_moves(&mut moves);
    (!moves.is_empty()).then(|| {
        mirror
            .position
            .format_move(&moves[rng.below(moves.len() as u64) as usize])
    })
}

// ----- the clients

#[derive(Default)]
struct Totals {
    guests: AtomicU64,
    lobby_connected: AtomicU64,
    seated: AtomicU64,
    /// Seats whose game ended while the client was at it, or which it left by resigning.
    seats_done: AtomicU64,
    resigned: AtomicU64,
    moves: AtomicU64,
    errors: AtomicU64,
    /// `moved` hashes that differ from the client's own copy of the game.
    mismatches: AtomicU64,
    /// Seatings that arrived as the run ended (joined, resigned at once).
    late_seatings: AtomicU64,
    /// Seats a client left without the game confirming its resignation.
    abandoned: AtomicU64,
}

/// A fill this slow counts as late in the report (µs).
const LATE_FILL_US: u32 = 5_000_000;
/// The rating range quick pairing starts from (the server's default `Range::start`).
const RANGE_START: i32 = 100;

struct Shared {
    server: ServerUrl,
    variant: String,
    time_control: TimeControl,
    /// No new pool join after this.
    deadline: Instant,
    /// Seats still playing resign after this.
    resign_at: Instant,
    think: Duration,
    totals: Totals,
    /// Table fill latency (µs) per seat count.
    fill_us: Mutex<BTreeMap<u8, Vec<u32>>>,
    /// Every seating's fill latency (µs) with its table's rating spread (the highest rating
    /// less the lowest), to tell a fill that waited for the rating range to widen from one
    /// that waited for players.
    fill_spread: Mutex<Vec<(u32, i32)>>,
    rtt_us: Mutex<Vec<u32>>,
    /// Every table a client was seated at: its seat count and how many of its seats clients
    /// of this run were given.
    tables: Mutex<HashMap<String, (u8, usize)>>,
    /// Tables whose end a client saw.
    ended: Mutex<HashSet<String>>,
}

impl Shared {
    fn error(&self, what: &str) {
        let n = self.totals.errors.fetch_add(1, Ordering::Relaxed);
        if n < 20 {
            eprintln!("lobby-load: {what}");
        }
    }
}

pub(super) async fn main(args: Args) -> Result<ExitCode, String> {
    let mut counts = args.tables.clone().unwrap_or_default();
    counts.sort_unstable();
    counts.dedup();
    if counts.is_empty() {
        return Err("--tables: seat counts, e.g. 3,4,6".into());
    }
    let variant = shipped_variant(&args.table_variant).map_err(|e| e.to_string())?;
    for &n in &counts {
        if !(3..=6).contains(&n) {
            return Err(format!(
                "--tables: {n} seats; tables have 3 to 6 (two seats: leave out --tables)"
            ));
        }
        variant
            .for_players(usize::from(n))
            .map_err(|e| format!("--tables: {} at {n} seats: {e}", args.table_variant))?;
    }
    let time_control = crate::online::play::time_control(&args.clock)?;
    if time_control.initial_ms % 60_000 != 0 || time_control.initial_ms == 0 {
        return Err("--clock: whole minutes (pools need them), e.g. 1+1".into());
    }
    let pool_text = counts
        .iter()
        .map(|n| {
            format!(
                "{} {}+{} x{n}",
                args.table_variant,
                time_control.initial_ms / 60_000,
                time_control.increment_ms / 1000
            )
        })
        .collect::<Vec<_>>()
        .join(",");
    let norm_before = chess_normaliser("before", args.normaliser_depth);
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
    let result = drive(&args, &counts, server, time_control, pid).await;
    let norm_after = chess_normaliser("after", args.normaliser_depth);
    outln!("normaliser: {norm_before:.1} / {norm_after:.1} M leaves/s (before / after the load)");
    outln!(
        "ratings check: not run at tables (Weng-Lin; the server's tests check it against skillratings)"
    );
    if let Some(s) = &mut started {
        let _ = s.child.kill();
        let _ = s.child.wait();
    }
    Ok(if result? {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

async fn drive(
    args: &Args,
    counts: &[u8],
    server: ServerUrl,
    time_control: TimeControl,
    pid: Option<u32>,
) -> Result<bool, String> {
    let run = Duration::from_secs_f64(args.minutes * 60.0);
    let start = Instant::now();
    let shared = Arc::new(Shared {
        server,
        variant: args.table_variant.clone(),
        time_control,
        deadline: start + run,
        resign_at: start + run + Duration::from_secs(args.drain_secs),
        think: Duration::from_millis(args.think_ms),
        totals: Totals::default(),
        fill_us: Mutex::new(BTreeMap::new()),
        fill_spread: Mutex::new(Vec::new()),
        rtt_us: Mutex::new(Vec::new()),
        tables: Mutex::new(HashMap::new()),
        ended: Mutex::new(HashSet::new()),
    });
    let sizes = counts
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    outln!(
        "lobby-load: {} clients for {:.1} min against {} ({} {} pools of {sizes} seats, protocol 3), moves after ~{} ms",
        args.clients,
        args.minutes,
        shared.server.authority,
        args.table_variant,
        time_control,
        args.think_ms
    );
    let cpu_start = pid.and_then(proc_stats);
    let mut tasks = Vec::with_capacity(args.clients);
    for i in 0..args.clients {
        let seats = counts[i % counts.len()];
        let shared = shared.clone();
        let delay =
            Duration::from_secs(args.ramp_secs).mul_f64(i as f64 / args.clients.max(1) as f64);
        let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        tasks.push(tokio::spawn(async move {
            sleep(delay).await;
            if let Err(e) = client(&shared, seats, seed).await {
                shared.error(&format!("client {i} (x{seats}): {e}"));
            }
        }));
    }
    let progress = {
        let shared = shared.clone();
        spawn_progress(start, pid, move || {
            let t = &shared.totals;
            format!(
                "{} in the lobby, {} seatings, {} tables, {} moves",
                t.lobby_connected.load(Ordering::Relaxed),
                t.seated.load(Ordering::Relaxed),
                shared.tables.lock().unwrap().len(),
                t.moves.load(Ordering::Relaxed),
            )
        })
    };
    for t in tasks {
        let _ = t.await;
    }
    progress.abort();
    let elapsed = start.elapsed();
    let cpu_end = pid.and_then(proc_stats);
    let t = &shared.totals;
    outln!(
        "--- lobby-load results, tables ({} clients; {sizes} seats)",
        args.clients
    );
    outln!(
        "clients: {} guests made, {} lobby connections; {:.0} s of seating + play, {:.0} s in all",
        t.guests.load(Ordering::Relaxed),
        t.lobby_connected.load(Ordering::Relaxed),
        run.as_secs_f64(),
        elapsed.as_secs_f64()
    );
    let tables = shared.tables.lock().unwrap().clone();
    let ended = shared.ended.lock().unwrap().clone();
    let mut per_size: BTreeMap<u8, (usize, usize, usize)> = BTreeMap::new();
    for (game, (seats, ours)) in &tables {
        let e = per_size.entry(*seats).or_default();
        e.0 += 1;
        if ended.contains(game) {
            e.1 += 1;
        }
        if *ours != usize::from(*seats) {
            e.2 += 1;
        }
    }
    let formed = per_size
        .iter()
        .map(|(n, (f, _, _))| format!("x{n} {f}"))
        .collect::<Vec<_>>()
        .join(", ");
    let short: usize = per_size.values().map(|v| v.2).sum();
    outln!(
        "tables: {} formed ({formed}), {} seen to end; {} seatings; {} tables with a seat this run did not see seated",
        tables.len(),
        ended.len(),
        t.seated.load(Ordering::Relaxed),
        short
    );
    let rtt = shared.rtt_us.lock().unwrap().clone();
    outln!(
        "moves: {} ({:.0}/s); {} resignations sent, {} seats played until they left or the game ended",
        t.moves.load(Ordering::Relaxed),
        t.moves.load(Ordering::Relaxed) as f64 / elapsed.as_secs_f64(),
        t.resigned.load(Ordering::Relaxed),
        t.seats_done.load(Ordering::Relaxed)
    );
    let fill = shared.fill_us.lock().unwrap().clone();
    let all: Vec<u32> = fill.values().flatten().copied().collect();
    outln!(
        "table fill latency (join_pool -> seated): n {} p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        all.len(),
        percentile(&all, 0.5),
        percentile(&all, 0.99),
        percentile(&all, 1.0)
    );
    for (n, v) in &fill {
        outln!(
            "  x{n}: n {} p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
            v.len(),
            percentile(v, 0.5),
            percentile(v, 0.99),
            percentile(v, 1.0)
        );
    }
    // The pool's rating range starts at RANGE_START points and widens as the longest-waiting
    // player waits: a late fill at a table whose ratings spread wider than that waited for
    // the range; one within it waited for players.
    let spreads = shared.fill_spread.lock().unwrap().clone();
    let late: Vec<i32> = spreads
        .iter()
        .filter(|(us, _)| *us >= LATE_FILL_US)
        .map(|(_, spread)| *spread)
        .collect();
    let wide = late.iter().filter(|s| **s > RANGE_START).count();
    let mut late_spreads = late.clone();
    late_spreads.sort_unstable();
    outln!(
        "  fills of {} s or more: {} ({} at tables whose ratings spread over {RANGE_START}, the pool's starting range); their spread p50 {}, max {}",
        LATE_FILL_US / 1_000_000,
        late.len(),
        wide,
        late_spreads
            .get(late_spreads.len() / 2)
            .copied()
            .unwrap_or(0),
        late_spreads.last().copied().unwrap_or(0)
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
    let mismatches = t.mismatches.load(Ordering::Relaxed);
    outln!(
        "client errors: {}; {mismatches} positions differing from the rules'; {} seatings as the run ended (joined, resigned at once); {} seats left unconfirmed",
        t.errors.load(Ordering::Relaxed),
        t.late_seatings.load(Ordering::Relaxed),
        t.abandoned.load(Ordering::Relaxed)
    );
    Ok(mismatches == 0)
}

/// What a client's lobby reader passes on.
enum LobbyEvent {
    Seated {
        game: String,
        seat: SeatIndex,
        token: String,
        seats: usize,
        /// The highest rating at the table less the lowest.
        spread: i32,
    },
    Refused(ErrorCode),
}

/// A lobby frame worth parsing for a player (the others are skipped unparsed).
fn wanted(text: &str) -> bool {
    text.starts_with(r#"{"type":"seated""#) || text.starts_with(r#"{"type":"error""#)
}

async fn client(shared: &Arc<Shared>, seats: u8, seed: u64) -> Result<(), String> {
    let guest = make_guest(&shared.server, shared.deadline).await?;
    shared.totals.guests.fetch_add(1, Ordering::Relaxed);
    let (ws, _) = net::lobby_connect(
        &shared.server,
        &guest.token,
        "lobby-load",
        SEATS_PROTOCOL_VERSION,
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
                Ok(LobbyServerMessage::Seated {
                    game,
                    seat,
                    token,
                    players,
                    ..
                }) => {
                    let ratings = || players.seats.iter().filter_map(|p| p.rating);
                    let high = ratings().map(|r| r.rating).max().unwrap_or(0);
                    let low = ratings().map(|r| r.rating).min().unwrap_or(0);
                    LobbyEvent::Seated {
                        game,
                        seat,
                        token,
                        seats: players.seats.len(),
                        spread: high - low,
                    }
                }
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
        seats,
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
        sink.send(send(LobbyClientMessage::JoinPool { pool: pool.clone() }))
            .await
            .map_err(|e| e.to_string())?;
        // Wait for the seating (at most until the run ends; a ping on the way).
        let event = loop {
            let patience = shared
                .deadline
                .saturating_duration_since(Instant::now())
                .min(Duration::from_secs(10));
            match timeout(patience, events.recv()).await {
                Err(_) if Instant::now() < shared.deadline => {
                    sink.send(send(LobbyClientMessage::Ping { n: 0 }))
                        .await
                        .map_err(|e| e.to_string())?;
                    last_ping = Instant::now();
                }
                Err(_) => break None,
                Ok(None) => return Err("the lobby connection closed".into()),
                Ok(Some(LobbyEvent::Refused(code))) => {
                    shared.error(&format!("lobby refused (x{seats}): {code}"));
                    sleep(Duration::from_secs(1)).await;
                    break None;
                }
                Ok(Some(e @ LobbyEvent::Seated { .. })) => break Some(e),
            }
        };
        let Some(LobbyEvent::Seated {
            game,
            seat,
            token,
            seats: at,
            spread,
        }) = event
        else {
            if Instant::now() >= shared.deadline {
                let _ = sink.send(send(LobbyClientMessage::LeavePool)).await;
                // A seating made as the run ended is still joined (else its table waits for
                // the seat): the client resigns at its first turn.
                if let Ok(Some(LobbyEvent::Seated {
                    game,
                    seat,
                    token,
                    seats: at,
                    ..
                })) = timeout(Duration::from_secs(3), events.recv()).await
                {
                    seated(shared, &game, at);
                    shared.totals.late_seatings.fetch_add(1, Ordering::Relaxed);
                    if let Err(e) = play(shared, &game, &token, seat, &mut rng, 0).await {
                        shared.error(&format!("game {game}: {e}"));
                    }
                }
            }
            continue;
        };
        shared
            .fill_us
            .lock()
            .unwrap()
            .entry(seats)
            .or_default()
            .push(us(asked.elapsed()));
        shared
            .fill_spread
            .lock()
            .unwrap()
            .push((us(asked.elapsed()), spread));
        seated(shared, &game, at);
        // The lobby stays open (its messages read by the reader) while the game is played.
        let own_moves = 3 + rng.below(6) as u32;
        if let Err(e) = play(shared, &game, &token, seat, &mut rng, own_moves).await {
            shared.error(&format!("game {game}: {e}"));
        }
    }
    let _ = sink.close().await;
    reader.abort();
    Ok(())
}

fn seated(shared: &Shared, game: &str, seats: usize) {
    shared.totals.seated.fetch_add(1, Ordering::Relaxed);
    shared
        .tables
        .lock()
        .unwrap()
        .entry(game.to_owned())
        .or_insert((seats as u8, 0))
        .1 += 1;
}

/// Opens the game websocket and says hello with protocol 3; the welcome's seat and snapshot.
async fn connect(
    shared: &Shared,
    game: &str,
    token: &str,
) -> Result<(Ws, Option<SeatIndex>, SeatSnapshot), String> {
    let work = async {
        // `?game=` as clients behind the cluster's load balancer send it.
        let url = format!("{}?game={game}", shared.server.ws());
        let (mut ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .map_err(|e| format!("websocket: {e}"))?;
        net::send(
            &mut ws,
            &ClientMessage::Hello {
                protocol: SEATS_PROTOCOL_VERSION,
                game: game.to_owned(),
                token: Some(token.to_owned()),
                client: Some("lobby-load".to_owned()),
            },
        )
        .await?;
        match recv(&mut ws).await? {
            Some(SeatServerMessage::Welcome { you, game, .. }) => Ok((ws, you, game)),
            Some(SeatServerMessage::Error { code, message, .. }) => {
                Err(format!("refused: {message} ({code})"))
            }
            other => Err(format!("expected a welcome, got {other:?}")),
        }
    };
    timeout(Duration::from_secs(30), work)
        .await
        .map_err(|_| "no welcome in 30 s".to_owned())?
}

/// The next protocol-3 message; `None` when the connection closed.
async fn recv(ws: &mut Ws) -> Result<Option<SeatServerMessage>, String> {
    loop {
        match ws.next().await {
            None | Some(Ok(Message::Close(_))) => return Ok(None),
            Some(Err(e)) => return Err(format!("websocket: {e}")),
            Some(Ok(Message::Text(t))) => {
                return parse_seat_server_message(&t)
                    .map(Some)
                    .map_err(|e| format!("bad server message {t}: {e}"));
            }
            Some(Ok(_)) => continue,
        }
    }
}

/// Plays seat `seat` of a table: a random legal move at each of its turns, and at its turn
/// after `own_moves` moves (or once the drain time is up, at any turn) it resigns. Returns when
/// the server has taken the seat out of the game (its `seat_left` snapshot) or the game ended.
async fn play(
    shared: &Shared,
    game: &str,
    token: &str,
    seat: SeatIndex,
    rng: &mut SplitMix64,
    own_moves: u32,
) -> Result<(), String> {
    let mut reconnects = 0;
    let mut made = 0;
    let mut resigned_at: Option<Instant> = None;
    let done = |shared: &Shared| {
        shared.totals.seats_done.fetch_add(1, Ordering::Relaxed);
        shared.ended.lock().unwrap().insert(game.to_owned());
    };
    'connect: loop {
        let (mut ws, you, snapshot) = match connect(shared, game, token).await {
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
        if you != Some(seat) {
            return Err(format!(
                "the welcome gives seat {you:?}, `seated` said {seat}"
            ));
        }
        if snapshot.result.is_some() {
            done(shared);
            return Ok(());
        }
        if snapshot.left.iter().any(|l| l.seat == seat) {
            shared.totals.seats_done.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        let mut mirror = SeatMirror::of(&snapshot)?;
        let mut pending: Option<(u32, Instant)> = None;
        let mut move_at: Option<Instant> = None;
        let mut ping = tokio::time::interval(Duration::from_secs(10));
        // A resignation sent before a reconnect is sent again.
        if resigned_at.is_some() {
            net::send(&mut ws, &ClientMessage::Resign).await?;
        }
        loop {
            let my_turn = mirror.seat_to_move() == seat && !mirror.position.is_game_over();
            if my_turn && pending.is_none() && move_at.is_none() && resigned_at.is_none() {
                let jitter = 0.5 + rng.below(1000) as f64 / 1000.0;
                move_at = Some(Instant::now() + shared.think.mul_f64(jitter));
            }
            let drain = Instant::now() >= shared.resign_at && resigned_at.is_none();
            tokio::select! {
                m = recv(&mut ws) => {
                    let Some(m) = m? else { continue 'connect };
                    match m {
                        SeatServerMessage::Moved { ply, notation, hash, result, .. } => {
                            if ply == mirror.ply() {
                                mirror.apply(&notation)?;
                                if hash != mirror.hash() {
                                    shared.totals.mismatches.fetch_add(1, Ordering::Relaxed);
                                    return Err(format!(
                                        "ply {ply}: the server's hash {hash} is not the rules' {}",
                                        mirror.hash()
                                    ));
                                }
                            }
                            if let Some((p, sent)) = pending
                                && p == ply
                            {
                                shared.rtt_us.lock().unwrap().push(us(sent.elapsed()));
                                shared.totals.moves.fetch_add(1, Ordering::Relaxed);
                                pending = None;
                            }
                            if result.is_some() {
                                done(shared);
                                return Ok(());
                            }
                        }
                        SeatServerMessage::GameOver { .. } => {
                            done(shared);
                            return Ok(());
                        }
                        SeatServerMessage::Snapshot { game: s, .. } => {
                            if s.result.is_some() {
                                done(shared);
                                return Ok(());
                            }
                            if s.left.iter().any(|l| l.seat == seat) {
                                // This seat is out; the others play on without it.
                                shared.totals.seats_done.fetch_add(1, Ordering::Relaxed);
                                return Ok(());
                            }
                            mirror = SeatMirror::of(&s).inspect_err(|_| {
                                shared.totals.mismatches.fetch_add(1, Ordering::Relaxed);
                            })?;
                            pending = None;
                            move_at = None;
                        }
                        SeatServerMessage::Offer { offer, by, .. } if by != seat => {
                            net::send(&mut ws, &ClientMessage::Decline { offer }).await?;
                        }
                        SeatServerMessage::Error { code, message, .. } => {
                            if code == ErrorCode::GameOver {
                                done(shared);
                                return Ok(());
                            }
                            return Err(format!("refused: {message} ({code})"));
                        }
                        _ => {}
                    }
                }
                _ = sleep_until_opt(move_at), if pending.is_none() => {
                    move_at = None;
                    if mirror.seat_to_move() != seat
                        || mirror.position.is_game_over()
                        || resigned_at.is_some()
                    {
                        continue;
                    }
                    if made >= own_moves {
                        shared.totals.resigned.fetch_add(1, Ordering::Relaxed);
                        net::send(&mut ws, &ClientMessage::Resign).await?;
                        resigned_at = Some(Instant::now());
                        continue;
                    }
                    let Some(notation) = random_move(&mirror, rng) else { continue };
                    let ply = mirror.ply();
                    net::send(&mut ws, &ClientMessage::Move { ply, notation }).await?;
                    pending = Some((ply, Instant::now()));
                    made += 1;
                }
                _ = ping.tick() => {
                    net::send(&mut ws, &ClientMessage::Ping { n: 0 }).await?;
                }
                _ = sleep(Duration::from_millis(200)), if drain => {
                    // Past the drain: resign at once, whoever's turn it is.
                    shared.totals.resigned.fetch_add(1, Ordering::Relaxed);
                    net::send(&mut ws, &ClientMessage::Resign).await?;
                    resigned_at = Some(Instant::now());
                }
                _ = sleep(Duration::from_secs(1)), if resigned_at.is_some() => {
                    // The server answers a resignation at once; 30 s without it, leave.
                    if resigned_at.is_some_and(|t| t.elapsed() > Duration::from_secs(30)) {
                        shared.totals.abandoned.fetch_add(1, Ordering::Relaxed);
                        return Err("the resignation was not confirmed in 30 s".into());
                    }
                }
            }
        }
    }
}
