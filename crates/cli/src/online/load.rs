//! `online load`: a load benchmark. N concurrent games, each between two bot clients on their
//! own websockets, playing random legal moves (after a pause, like people) through the server
//! for a while. It reports the move round trip (sent → the server's `moved` back, which means
//! stored), moves per second, and afterwards checks every game the server stored against what
//! both of its clients saw: no acknowledged move lost, none duplicated.
//!
//! The clients survive the server being killed and restarted: they reconnect, resync from the
//! welcome, and count acknowledged moves missing from what the server then has.
use std::{
    collections::BTreeMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use boardcraft_ai::rng::SplitMix64;
use boardcraft_protocol::{
    ClientMessage, ColorChoice, ServerMessage, Side,
    http::{CreateGame, GameCreated, SeatJoined},
};
use boardcraft_rules::Position;
use clap::Args as ClapArgs;
use tokio::time::{Instant, sleep, timeout};

use super::{
    mirror::Mirror,
    net::{self, ServerUrl, Ws},
};

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The server, e.g. http://127.0.0.1:8787 (start it with --max-connections-per-ip 0
    /// --max-new-games-per-ip 0: every client here has the same address).
    #[arg(long)]
    server: String,
    /// Concurrent games (two websockets each).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// How long to play, e.g. 180s or 3m.
    #[arg(long, default_value = "60s")]
    duration: String,
    /// The variants, used in turn by the games.
    #[arg(long, default_value = "ugolki-hg-3x3,focus-6x6,gipf-basic")]
    variants: String,
    /// Each bot's pause before a move, on average, in ms (0: as fast as the server answers).
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// Seed of the random moves and pauses.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads of the clients' runtime.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, unit) = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .map_or((t, "s"), |i| (&t[..i], &t[i..]));
    let n: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration like 180s or 3m"))?;
    let secs = match unit {
        "s" => n,
        "m" | "min" => n * 60.0,
        "ms" => n / 1000.0,
        _ => return Err(format!("`{text}`: use s, m or ms")),
    };
    Ok(Duration::from_secs_f64(secs))
}

/// What the clients of one game saw.
#[derive(Default)]
struct GameLog {
    id: String,
    /// ply → move, as each side's connection heard it (`moved` events and resync snapshots).
    seen: [BTreeMap<u32, String>; 2],
    /// Moves acknowledged to their mover (a `moved` for the move it sent).
    acked: Vec<(u32, String)>,
    finished: bool,
}

#[derive(Default)]
struct Totals {
    moves: AtomicU64,
    reconnects: AtomicU64,
    errors: AtomicU64,
    games_started: AtomicU64,
    games_finished: AtomicU64,
    /// Acknowledged moves missing when a client came back after a reconnect.
    lost_at_resync: AtomicU64,
}

struct Shared {
    server: ServerUrl,
    deadline: Instant,
    think: Duration,
    totals: Totals,
    rtts_us: Mutex<Vec<u32>>,
    logs: Mutex<Vec<GameLog>>,
}

pub fn run(args: Args) -> Result<std::process::ExitCode, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.threads.max(1))
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(load(args))
}

async fn load(args: Args) -> Result<std::process::ExitCode, String> {
    let server = ServerUrl::parse(&args.server)?;
    let duration = parse_duration(&args.duration)?;
    let variants: Vec<String> = args
        .variants
        .split(',')
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .collect();
    if variants.is_empty() {
        return Err("--variants names no variant".into());
    }
    for v in &variants {
        boardcraft_rules::shipped_variant(v).map_err(|e| e.to_string())?;
    }
    outln!(
        "load: {} games ({} websockets) for {} s against {}, variants {}, bots move after ~{} ms",
        args.games,
        args.games * 2,
        duration.as_secs(),
        server.authority,
        variants.join(", "),
        args.think_ms
    );
    let start = Instant::now();
    let shared = Arc::new(Shared {
        server,
        deadline: start + duration,
        think: Duration::from_millis(args.think_ms),
        totals: Totals::default(),
        rtts_us: Mutex::new(Vec::new()),
        logs: Mutex::new(Vec::new()),
    });
    // The games start spread over the first seconds, as people would arrive.
    let ramp = Duration::from_millis((args.games as u64 * 5).min(10_000));
    let mut tasks = Vec::with_capacity(args.games);
    for slot in 0..args.games {
        let shared = shared.clone();
        let variant = variants[slot % variants.len()].clone();
        let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(slot as u64);
        let delay = ramp.mul_f64(slot as f64 / args.games.max(1) as f64);
        tasks.push(tokio::spawn(async move {
            sleep(delay).await;
            let mut rng = SplitMix64::new(seed);
            while Instant::now() < shared.deadline {
                match one_game(&shared, &variant, &mut rng).await {
                    Ok(()) => {}
                    Err(e) => {
                        shared.totals.errors.fetch_add(1, Ordering::Relaxed);
                        if shared.totals.errors.load(Ordering::Relaxed) <= 20 {
                            eprintln!("game slot {slot}: {e}");
                        }
                        sleep(Duration::from_millis(500)).await;
                    }
                }
            }
        }));
    }
    // Progress every 10 s.
    let progress = {
        let shared = shared.clone();
        tokio::spawn(async move {
            let mut last = 0u64;
            let mut tick = tokio::time::interval(Duration::from_secs(10));
            tick.tick().await;
            loop {
                tick.tick().await;
                let moves = shared.totals.moves.load(Ordering::Relaxed);
                let p99 = {
                    let rtts = shared.rtts_us.lock().unwrap();
                    let recent = &rtts[(last as usize).min(rtts.len())..];
                    percentile(recent, 0.99)
                };
                outln!(
                    "  {:>4} s: {} moves ({:.0}/s in the last 10 s, p99 {:.1} ms), {} reconnects",
                    start.elapsed().as_secs(),
                    moves,
                    (moves - last) as f64 / 10.0,
                    p99 as f64 / 1000.0,
                    shared.totals.reconnects.load(Ordering::Relaxed)
                );
                last = moves;
            }
        })
    };
    for t in tasks {
        let _ = t.await;
    }
    progress.abort();
    let elapsed = start.elapsed();
    report(&shared, elapsed).await
}

fn percentile(sorted_or_not: &[u32], q: f64) -> u32 {
    if sorted_or_not.is_empty() {
        return 0;
    }
    let mut v = sorted_or_not.to_vec();
    v.sort_unstable();
    v[((v.len() - 1) as f64 * q).round() as usize]
}

async fn report(shared: &Arc<Shared>, elapsed: Duration) -> Result<std::process::ExitCode, String> {
    let totals = &shared.totals;
    let rtts = shared.rtts_us.lock().unwrap().clone();
    let moves = totals.moves.load(Ordering::Relaxed);
    outln!(
        "moves acknowledged: {moves} in {:.0} s = {:.0} moves/s",
        elapsed.as_secs_f64(),
        moves as f64 / elapsed.as_secs_f64()
    );
    let ms = |us: u32| us as f64 / 1000.0;
    outln!(
        "move round trip (sent -> stored -> moved back): p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, p99.9 {:.1} ms, max {:.1} ms",
        ms(percentile(&rtts, 0.5)),
        ms(percentile(&rtts, 0.9)),
        ms(percentile(&rtts, 0.99)),
        ms(percentile(&rtts, 0.999)),
        ms(percentile(&rtts, 1.0)),
    );
    outln!(
        "games: {} started, {} finished by their rules; {} reconnects, {} client errors",
        totals.games_started.load(Ordering::Relaxed),
        totals.games_finished.load(Ordering::Relaxed),
        totals.reconnects.load(Ordering::Relaxed),
        totals.errors.load(Ordering::Relaxed),
    );
    // The check: every game the clients played, against the server's record.
    let logs = std::mem::take(&mut *shared.logs.lock().unwrap());
    let logs = Arc::new(logs);
    let next = Arc::new(AtomicU64::new(0));
    let counts = Arc::new(Mutex::new([0u64; 6]));
    let mut checkers = Vec::new();
    for _ in 0..16 {
        let (logs, next, counts, server) = (
            logs.clone(),
            next.clone(),
            counts.clone(),
            shared.server.clone(),
        );
        checkers.push(tokio::spawn(async move {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                let Some(log) = logs.get(i) else { break };
                let stored = match net::snapshot(&server, &log.id).await {
                    Ok(s) => s.moves,
                    Err(e) => {
                        eprintln!("check: game {}: {e}", log.id);
                        counts.lock().unwrap()[5] += 1;
                        continue;
                    }
                };
                let c = compare(log, &stored);
                let mut counts = counts.lock().unwrap();
                for (total, n) in counts.iter_mut().zip(c) {
                    *total += n;
                }
                counts[0] += 1;
            }
        }));
    }
    for c in checkers {
        let _ = c.await;
    }
    let [games, lost, duplicated, differing, unacked, unreadable] = *counts.lock().unwrap();
    let lost_at_resync = totals.lost_at_resync.load(Ordering::Relaxed);
    outln!(
        "check: {games} games compared with the server's record: {lost} acknowledged moves lost, \
         {duplicated} duplicated, {differing} differing from what the clients saw, {unreadable} unreadable; \
         {lost_at_resync} acknowledged moves missing at a resync; {unacked} stored moves whose acknowledgement never arrived"
    );
    let ok =
        lost == 0 && duplicated == 0 && differing == 0 && unreadable == 0 && lost_at_resync == 0;
    outln!("{}", if ok { "check passed" } else { "CHECK FAILED" });
    Ok(if ok {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    })
}

/// `[_, lost, duplicated, differing, stored-but-unacknowledged, _]` for one game.
fn compare(log: &GameLog, stored: &[String]) -> [u64; 6] {
    let mut c = [0u64; 6];
    for (ply, notation) in &log.acked {
        if stored.get(*ply as usize) != Some(notation) {
            c[1] += 1;
        }
    }
    let seen_len = log.seen.iter().map(|s| s.len()).max().unwrap_or(0);
    for (ply, notation) in stored.iter().enumerate() {
        let ply = ply as u32;
        let heard: Vec<&String> = log.seen.iter().filter_map(|s| s.get(&ply)).collect();
        if heard.is_empty() {
            // Stored but no client heard of it: its acknowledgement was lost (a server killed
            // between the commit and the send) — or a move applied that nobody sent.
            if log.acked.iter().any(|(p, _)| *p == ply) || ply as usize >= seen_len {
                c[4] += 1;
            } else {
                c[2] += 1;
            }
        } else if heard.iter().any(|h| *h != notation) {
            c[3] += 1;
        }
    }
    // Both clients must have heard the same game.
    for ply in 0..seen_len as u32 {
        if let (Some(a), Some(b)) = (log.seen[0].get(&ply), log.seen[1].get(&ply))
            && a != b
        {
            c[3] += 1;
        }
    }
    if stored.len() > seen_len + 1 {
        c[2] += (stored.len() - seen_len - 1) as u64;
    }
    c
}

/// The two websockets of a game.
struct Pair {
    ws: [Ws; 2],
}

async fn connect_pair(
    shared: &Shared,
    game: &str,
    tokens: &[String; 2],
) -> Result<(Pair, Mirror, [Vec<String>; 2]), String> {
    let client = "boardcraft-cli load";
    let (white, w) = net::connect(&shared.server, game, Some(&tokens[0]), client).await?;
    let (black, b) = net::connect(&shared.server, game, Some(&tokens[1]), client).await?;
    let (ServerMessage::Welcome { game: gw, .. }, ServerMessage::Welcome { game: gb, .. }) = (w, b)
    else {
        unreachable!("connect returns welcomes")
    };
    let mirror = Mirror::of(&gb)?;
    Ok((Pair { ws: [white, black] }, mirror, [gw.moves, gb.moves]))
}

/// Reconnects both sides after a failure, until the run ends; records what the welcomes say.
async fn reconnect(
    shared: &Shared,
    log: &mut GameLog,
    tokens: &[String; 2],
) -> Option<(Pair, Mirror)> {
    let mut backoff = Duration::from_millis(100);
    while Instant::now() < shared.deadline {
        shared.totals.reconnects.fetch_add(1, Ordering::Relaxed);
        match connect_pair(shared, &log.id, tokens).await {
            Ok((pair, mirror, moves)) => {
                for (side, moves) in moves.iter().enumerate() {
                    for (ply, m) in moves.iter().enumerate() {
                        log.seen[side].insert(ply as u32, m.clone());
                    }
                }
                let lost = log
                    .acked
                    .iter()
                    .filter(|(p, n)| mirror.moves.get(*p as usize) != Some(n))
                    .count();
                if lost > 0 {
                    eprintln!(
                        "game {}: {lost} acknowledged moves missing after reconnecting",
                        log.id
                    );
                    shared
                        .totals
                        .lost_at_resync
                        .fetch_add(lost as u64, Ordering::Relaxed);
                }
                return Some((pair, mirror));
            }
            Err(_) => {
                sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(2));
            }
        }
    }
    None
}

/// Retries an HTTP step until it works or the run ends (the server may be restarting).
async fn retry<T, F, Fut>(shared: &Shared, mut step: F) -> Result<T, String>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, String>>,
{
    let mut backoff = Duration::from_millis(100);
    loop {
        match step().await {
            Ok(v) => return Ok(v),
            Err(e) if Instant::now() >= shared.deadline => return Err(e),
            Err(_) => {
                sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(2));
            }
        }
    }
}

async fn one_game(shared: &Shared, variant: &str, rng: &mut SplitMix64) -> Result<(), String> {
    let body = serde_json::to_string(&CreateGame {
        variant: Some(variant.to_owned()),
        variant_file: None,
        color: ColorChoice::White,
        time_control: None,
        seats: None,
    })
    .map_err(|e| e.to_string())?;
    let created: GameCreated = retry(shared, || {
        net::json(
            &shared.server,
            "POST",
            boardcraft_protocol::paths::GAMES,
            Some(&body),
            201,
        )
    })
    .await?;
    let path = boardcraft_protocol::paths::invite(&created.invite);
    let joined: SeatJoined = match retry(shared, || {
        net::json(&shared.server, "POST", &path, None, 200)
    })
    .await
    {
        Ok(j) => j,
        // A retry after a lost answer finds the seat taken: the game is unusable, start another.
        Err(e) => return Err(e),
    };
    let tokens = [created.token, joined.token];
    shared.totals.games_started.fetch_add(1, Ordering::Relaxed);
    let mut log = GameLog {
        id: created.game.clone(),
        ..GameLog::default()
    };
    let result = play(shared, &mut log, &tokens, rng).await;
    shared.logs.lock().unwrap().push(log);
    result
}

async fn play(
    shared: &Shared,
    log: &mut GameLog,
    tokens: &[String; 2],
    rng: &mut SplitMix64,
) -> Result<(), String> {
    let (mut pair, mut mirror) = match connect_pair(shared, &log.id, tokens).await {
        Ok((p, m, _)) => (p, m),
        Err(_) => match reconnect(shared, log, tokens).await {
            Some(x) => x,
            None => return Ok(()),
        },
    };
    let mut moves = Vec::new();
    while Instant::now() < shared.deadline {
        if mirror.position.is_game_over() {
            log.finished = true;
            shared.totals.games_finished.fetch_add(1, Ordering::Relaxed);
            break;
        }
        if !shared.think.is_zero() {
            let jitter = 0.5 + (rng.below(1000) as f64 / 1000.0);
            sleep(shared.think.mul_f64(jitter)).await;
        }
        mirror.position.legal_moves(&mut moves);
        let mv = &moves[rng.below(moves.len() as u64) as usize];
        let notation = mirror.position.format_move(mv);
        let ply = mirror.ply();
        let side = mirror.side_to_move();
        match exchange(&mut pair, side, ply, &notation).await {
            Ok((rtt, heard)) => {
                for (s, n) in heard.iter().enumerate() {
                    log.seen[s].insert(ply, n.clone());
                }
                mirror.apply(&heard[side.index()])?;
                log.acked.push((ply, notation));
                shared.totals.moves.fetch_add(1, Ordering::Relaxed);
                shared
                    .rtts_us
                    .lock()
                    .unwrap()
                    .push(rtt.as_micros().min(u32::MAX as u128) as u32);
            }
            Err(_) => match reconnect(shared, log, tokens).await {
                Some((p, m)) => {
                    pair = p;
                    mirror = m;
                }
                None => break,
            },
        }
    }
    for ws in &mut pair.ws {
        let _ = ws.close(None).await;
    }
    Ok(())
}

/// Sends a move on the mover's websocket and waits until both websockets heard it; the round
/// trip is until the mover's `moved` (the acknowledgement: the move is stored).
async fn exchange(
    pair: &mut Pair,
    side: Side,
    ply: u32,
    notation: &str,
) -> Result<(Duration, [String; 2]), String> {
    let sent = Instant::now();
    net::send(
        &mut pair.ws[side.index()],
        &ClientMessage::Move {
            ply,
            notation: notation.to_owned(),
        },
    )
    .await?;
    let mut heard: [Option<String>; 2] = [None, None];
    let mut rtt = None;
    let [white, black] = &mut pair.ws;
    let wait = async {
        while heard.iter().any(Option::is_none) {
            let (from, msg) = tokio::select! {
                m = net::recv(white), if heard[0].is_none() => (0, m),
                m = net::recv(black), if heard[1].is_none() => (1, m),
            };
            match msg? {
                None => return Err("closed".to_owned()),
                Some(ServerMessage::Moved {
                    ply: p, notation, ..
                }) if p == ply => {
                    if from == side.index() {
                        rtt = Some(sent.elapsed());
                    }
                    heard[from] = Some(notation);
                }
                Some(ServerMessage::Error { code, message, .. }) => {
                    return Err(format!("refused: {message} ({code})"));
                }
                Some(_) => {}
            }
        }
        Ok(())
    };
    timeout(Duration::from_secs(15), wait)
        .await
        .map_err(|_| "no acknowledgement in 15 s".to_owned())??;
    let [w, b] = heard;
    Ok((rtt.unwrap_or_default(), [w.unwrap(), b.unwrap()]))
}
