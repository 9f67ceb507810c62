//! `match`: plays a series of games between two players and measures their difference in
//! strength (W/D/L, score, Elo with a 95 % interval, time and speed per side); with `--seats`,
//! games of a table of two to six, each player taking every seat in turn, reported as each
//! player's places.
use std::{collections::BTreeMap, fs::File, io::Write, process::ExitCode, time::Duration};

use boardcraft_ai::rng::{SplitMix64, mix};
use boardcraft_rules::{AnyPosition, Position, Seat};
use indicatif::{ProgressBar, ProgressStyle};

use crate::{
    common::variant_for,
    game::{GameError, play_game},
    player::{Player, PlayerSpec, parse_duration},
};

#[derive(clap::Args)]
pub struct Args {
    /// A shipped variant name (see `list`) or a path to a variant RON file.
    variant: String,
    /// Player A: novice, amateur, strong, master, greedy, random, or engine:<command line>.
    #[arg(long, required_unless_present = "seats", conflicts_with = "seats")]
    a: Option<PlayerSpec>,
    /// Player B, as for --a.
    #[arg(long, required_unless_present = "seats", conflicts_with = "seats")]
    b: Option<PlayerSpec>,
    /// One player per seat, comma-separated (`master,amateur,amateur`), for a table of that
    /// many (the variant must offer it): the players move one seat on every game, so each
    /// plays every seat, and each game of a round shares its opening.
    #[arg(long, value_delimiter = ',')]
    seats: Vec<PlayerSpec>,
    /// Number of games; colours alternate, and each pair of games shares its opening.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed for the openings and the levels' noise: the same seed replays the same match
    /// (unless a time per move is given).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Think for this long per move (seconds, or e.g. 500ms) instead of the levels' node
    /// budgets. External engines get `go movetime`; without it they get a plain `go`.
    #[arg(long, value_parser = parse_duration)]
    time_per_move: Option<Duration>,
    /// Search threads of each in-process level player (external engines set their own, e.g.
    /// `engine:boardcraft-cli engine --threads 2`). 1, the default, keeps a match with node
    /// budgets reproducible.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Random plies played from the start before the players take over, for variety.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Write every game (opening, moves, result) to this file.
    #[arg(long)]
    log: Option<std::path::PathBuf>,
}

#[derive(Default)]
struct SideStats {
    moves: u64,
    nodes: u64,
    time: Duration,
    cpu: Option<Duration>,
    /// The longest single move (wall clock).
    slowest: Duration,
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if !args.seats.is_empty() {
        return run_seats(&args);
    }
    let (spec_a, spec_b) = match (&args.a, &args.b) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err("give --a and --b, or --seats".into()),
    };
    let variant = variant_for(&args.variant, Some(2))?;
    let start = variant.new_game();
    let mut a = Player::start(spec_a, &args.variant, args.time_per_move)?;
    let mut b = Player::start(spec_b, &args.variant, args.time_per_move)?;
    a.set_threads(args.threads);
    b.set_threads(args.threads);
    let mut log = open_log(&args)?;
    let (label_a, label_b) = (spec_a.label(), spec_b.label());
    outln!(
        "{}: {label_a} (A) vs {label_b} (B), {} games, seed {}, {} random opening plies, {}",
        variant.name,
        args.games,
        args.seed,
        args.opening_plies,
        match args.time_per_move {
            Some(t) => format!("{:.3} s per move", t.as_secs_f64()),
            None => "level budgets".to_owned(),
        }
    );

    let bar = progress_bar(args.games);
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let mut stats = [SideStats::default(), SideStats::default()];
    let mut endings: BTreeMap<String, u32> = BTreeMap::new();
    let mut total_plies = 0u64;
    for game in 0..args.games {
        let pair = u64::from(game / 2);
        let a_is_white = game % 2 == 0;
        let (mut pos, mut line) = opening(&start, args.opening_plies, mix(args.seed ^ mix(pair)));
        let opening_len = line.len();
        a.new_game()?;
        b.new_game()?;
        let mut players = if a_is_white {
            [&mut a, &mut b]
        } else {
            [&mut b, &mut a]
        };
        let seed_of_ply = |ply: u32| mix(args.seed ^ mix(u64::from(game) << 20 ^ u64::from(ply)));
        let played = play_game(
            &mut pos,
            &mut line,
            &mut players,
            seed_of_ply,
            |_, side, choice| {
                let a_moves = (side == Seat::WHITE) == a_is_white;
                let s = &mut stats[if a_moves { 0 } else { 1 }];
                s.moves += 1;
                s.nodes += choice.nodes;
                s.time += choice.elapsed;
                s.slowest = s.slowest.max(choice.elapsed);
                s.cpu = match (s.moves, s.cpu, choice.cpu) {
                    (1, _, c) => c,
                    (_, Some(a), Some(b)) => Some(a + b),
                    _ => None,
                };
                Ok(())
            },
        );
        let label_of = |side: Seat| {
            if (side == Seat::WHITE) == a_is_white {
                &label_a
            } else {
                &label_b
            }
        };
        let outcome = match played {
            Ok(outcome) => outcome,
            Err(GameError::Illegal {
                side,
                notation,
                error,
            }) => {
                return Err(format!(
                    "{} played an illegal move {notation} in game {}: {error}",
                    label_of(side),
                    game + 1
                ));
            }
            Err(GameError::Player { side, message }) => {
                return Err(format!(
                    "{} in game {}: {message}",
                    label_of(side),
                    game + 1
                ));
            }
            Err(GameError::Stopped(message)) => return Err(message),
        };
        total_plies += u64::from(pos.ply());
        *endings.entry(outcome.reason.to_string()).or_default() += 1;
        let a_color = if a_is_white { Seat::WHITE } else { Seat::BLACK };
        match outcome.score_for(a_color) {
            1 => wins += 1,
            0 => draws += 1,
            _ => losses += 1,
        }
        if let Some(f) = log.as_mut() {
            let (white, black) = if a_is_white {
                (&label_a, &label_b)
            } else {
                (&label_b, &label_a)
            };
            writeln!(
                f,
                "game {} White={white} Black={black} opening=[{}] moves=[{}] result={outcome}",
                game + 1,
                line[..opening_len].join(" "),
                line[opening_len..].join(" "),
            )
            .map_err(|e| format!("writing the log: {e}"))?;
        }
        bar.set_message(format!("A +{wins} ={draws} -{losses}"));
        bar.inc(1);
    }
    bar.finish_and_clear();

    let n = f64::from(args.games);
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
    outln!(
        "A {label_a}: +{wins} ={draws} -{losses}  score {:.1} %",
        100.0 * score
    );
    let (elo, lo, hi) = elo_interval(wins, draws, losses);
    outln!(
        "Elo difference A - B: {} (95 % interval {} .. {})",
        fmt_elo(elo),
        fmt_elo(lo),
        fmt_elo(hi)
    );
    outln!(
        "{:<28} {:>8} {:>14} {:>14} {:>12} {:>12}",
        "side",
        "moves",
        "avg wall/move",
        "avg CPU/move",
        "max wall",
        "nodes/s(CPU)"
    );
    for (name, s) in [
        (format!("A {label_a}"), &stats[0]),
        (format!("B {label_b}"), &stats[1]),
    ] {
        print_speed(&name, s);
    }
    outln!("average game length: {:.1} plies", total_plies as f64 / n);
    let endings: Vec<String> = endings.iter().map(|(r, c)| format!("{c}× {r}")).collect();
    outln!("endings: {}", endings.join("; "));
    Ok(ExitCode::SUCCESS)
}

/// A match of a table of `--seats` players: every game the players move one seat on, so that
/// each plays every seat; the report gives each player's places (and how often it came first,
/// with a 95 % interval), its time and speed.
fn run_seats(args: &Args) -> Result<ExitCode, String> {
    let n = args.seats.len();
    let variant = variant_for(&args.variant, Some(n))?;
    let start = variant.new_game();
    let mut players = args
        .seats
        .iter()
        .map(|spec| {
            let mut p = Player::start(spec, &args.variant, args.time_per_move)?;
            p.set_threads(args.threads);
            Ok(p)
        })
        .collect::<Result<Vec<Player>, String>>()?;
    let labels: Vec<String> = args
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{} {}", i + 1, s.label()))
        .collect();
    let mut log = open_log(args)?;
    outln!(
        "{} for {n}: {}; {} games, seats rotating, seed {}, {} random opening plies, {}",
        variant.name,
        labels.join(", "),
        args.games,
        args.seed,
        args.opening_plies,
        match args.time_per_move {
            Some(t) => format!("{:.3} s per move", t.as_secs_f64()),
            None => "level budgets".to_owned(),
        }
    );
    let bar = progress_bar(args.games);
    // places[player][place - 1]: games the player ended in that place (shared places count).
    let mut places = vec![vec![0u32; n]; n];
    let mut stats: Vec<SideStats> = (0..n).map(|_| SideStats::default()).collect();
    let mut endings: BTreeMap<String, u32> = BTreeMap::new();
    let mut total_plies = 0u64;
    for game in 0..args.games {
        let round = u64::from(game) / n as u64;
        let shift = game as usize % n;
        // Player j sits in seat (j + shift) mod n.
        let player_in = |seat: usize| (seat + n - shift) % n;
        let (mut pos, mut line) = opening(&start, args.opening_plies, mix(args.seed ^ mix(round)));
        let opening_len = line.len();
        for p in &mut players {
            p.new_game()?;
        }
        let mut by_seat: Vec<&mut Player> = players.iter_mut().collect();
        by_seat.rotate_right(shift);
        let seed_of_ply = |ply: u32| mix(args.seed ^ mix(u64::from(game) << 20 ^ u64::from(ply)));
        let played = play_game(
            &mut pos,
            &mut line,
            &mut by_seat,
            seed_of_ply,
            |_, side, choice| {
                let s = &mut stats[player_in(side.index())];
                s.moves += 1;
                s.nodes += choice.nodes;
                s.time += choice.elapsed;
                s.slowest = s.slowest.max(choice.elapsed);
                s.cpu = match (s.moves, s.cpu, choice.cpu) {
                    (1, _, c) => c,
                    (_, Some(a), Some(b)) => Some(a + b),
                    _ => None,
                };
                Ok(())
            },
        );
        let outcome = match played {
            Ok(outcome) => outcome,
            Err(GameError::Illegal {
                side,
                notation,
                error,
            }) => {
                return Err(format!(
                    "{} played an illegal move {notation} in game {}: {error}",
                    labels[player_in(side.index())],
                    game + 1
                ));
            }
            Err(GameError::Player { side, message }) => {
                return Err(format!(
                    "{} in game {}: {message}",
                    labels[player_in(side.index())],
                    game + 1
                ));
            }
            Err(GameError::Stopped(message)) => return Err(message),
        };
        total_plies += u64::from(pos.ply());
        *endings.entry(outcome.reason.to_string()).or_default() += 1;
        for seat in Seat::all(n) {
            let place = usize::from(outcome.places.of(seat));
            places[player_in(seat.index())][place - 1] += 1;
        }
        if let Some(f) = log.as_mut() {
            let seats: Vec<String> = Seat::all(n)
                .map(|s| {
                    format!(
                        "{}={}",
                        pos.seat_name(s),
                        args.seats[player_in(s.index())].label()
                    )
                })
                .collect();
            writeln!(
                f,
                "game {} {} opening=[{}] moves=[{}] result={}",
                game + 1,
                seats.join(" "),
                line[..opening_len].join(" "),
                line[opening_len..].join(" "),
                outcome.describe(|s| pos.seat_name(s)),
            )
            .map_err(|e| format!("writing the log: {e}"))?;
        }
        bar.set_message(format!("{} first {}×", labels[0], places[0][0]));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let games = f64::from(args.games);
    let ordinal = |k: usize| boardcraft_rules::outcome::ordinal(k as u8 + 1);
    for (j, label) in labels.iter().enumerate() {
        let row: Vec<String> = places[j]
            .iter()
            .enumerate()
            .map(|(k, c)| format!("{} {c}", ordinal(k)))
            .collect();
        let mean = places[j]
            .iter()
            .enumerate()
            .map(|(k, c)| (k + 1) as f64 * f64::from(*c))
            .sum::<f64>()
            / games;
        let first = f64::from(places[j][0]) / games;
        let (lo, hi) = wilson(places[j][0], args.games);
        outln!(
            "player {label}: {}; first {:.1} % (95 % interval {:.1} .. {:.1} %), mean place {mean:.2}",
            row.join(", "),
            100.0 * first,
            100.0 * lo,
            100.0 * hi
        );
    }
    outln!(
        "{:<28} {:>8} {:>14} {:>14} {:>12} {:>12}",
        "player",
        "moves",
        "avg wall/move",
        "avg CPU/move",
        "max wall",
        "nodes/s(CPU)"
    );
    for (label, s) in labels.iter().zip(&stats) {
        print_speed(label, s);
    }
    outln!(
        "average game length: {:.1} plies",
        total_plies as f64 / games
    );
    let endings: Vec<String> = endings.iter().map(|(r, c)| format!("{c}× {r}")).collect();
    outln!("endings: {}", endings.join("; "));
    Ok(ExitCode::SUCCESS)
}

/// The `--log` file, if one was asked for.
fn open_log(args: &Args) -> Result<Option<File>, String> {
    args.log
        .as_ref()
        .map(|path| File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display())))
        .transpose()
}

/// The match's progress bar: games played, the running score, the time left.
fn progress_bar(games: u32) -> ProgressBar {
    let bar = ProgressBar::new(u64::from(games));
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise} < {eta_precise}]",
        )
        .expect("valid template"),
    );
    bar
}

/// One player's row of the speed table: moves, wall and CPU time per move, the slowest move,
/// nodes per second of CPU.
fn print_speed(name: &str, s: &SideStats) {
    let per_move = |d: Duration| {
        if s.moves > 0 {
            d.as_secs_f64() / s.moves as f64
        } else {
            0.0
        }
    };
    let cpu = s
        .cpu
        .map_or("-".to_owned(), |c| format!("{:.4} s", per_move(c)));
    let busy = s.cpu.unwrap_or(s.time).as_secs_f64();
    let nps = if busy > 0.0 && s.nodes > 0 {
        format!("{:.0}", s.nodes as f64 / busy)
    } else {
        "-".to_owned()
    };
    outln!(
        "{name:<28} {:>8} {:>12.4} s {cpu:>14} {:>10.3} s {nps:>12}",
        s.moves,
        per_move(s.time),
        s.slowest.as_secs_f64()
    );
}

/// The Wilson score interval (95 %) of a rate of `k` in `n`.
fn wilson(k: u32, n: u32) -> (f64, f64) {
    let (k, n) = (f64::from(k), f64::from(n));
    let z = 1.96;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// `plies` random legal moves from the start (re-drawn if they would end the game), as the
/// position and the moves in notation.
fn opening(start: &AnyPosition, plies: u32, seed: u64) -> (AnyPosition, Vec<String>) {
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    for _attempt in 0..100 {
        let mut pos = start.clone();
        let mut line = Vec::new();
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = &moves[rng.below(moves.len() as u64) as usize];
            line.push(pos.format_move(mv));
            pos.play(mv).expect("a generated move is legal");
        }
        if !pos.is_game_over() {
            return (pos, line);
        }
    }
    (start.clone(), Vec::new())
}

/// Elo difference from a W/D/L record with a 95 % interval: the normal approximation of the
/// mean game score with its observed (trinomial) variance, mapped through the logistic Elo
/// curve. When every game ended alike the observed variance is zero; the interval then comes
/// from the Wilson score interval instead.
pub fn elo_interval(wins: u32, draws: u32, losses: u32) -> (f64, f64, f64) {
    let n = f64::from(wins + draws + losses);
    let (w, d, l) = (
        f64::from(wins) / n,
        f64::from(draws) / n,
        f64::from(losses) / n,
    );
    let s = w + d / 2.0;
    let z = 1.96;
    let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
    let (lo, hi) = if var > 0.0 {
        let half = z * (var / n).sqrt();
        (s - half, s + half)
    } else {
        let denom = 1.0 + z * z / n;
        let centre = (s + z * z / (2.0 * n)) / denom;
        let half = z * (s * (1.0 - s) / n + z * z / (4.0 * n * n)).sqrt() / denom;
        // Snap rounding noise so that a perfect record keeps an open end.
        let snap = |x: f64| {
            if x < 1e-12 {
                0.0
            } else if x > 1.0 - 1e-12 {
                1.0
            } else {
                x
            }
        };
        (snap(centre - half), snap(centre + half))
    };
    (elo_of(s), elo_of(lo), elo_of(hi))
}

fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{e:+.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_lopsided_records() {
        let (e, lo, hi) = elo_interval(50, 0, 50);
        assert!(e.abs() < 1e-9);
        assert!(lo < -60.0 && hi > 60.0 && (lo + hi).abs() < 1e-6);
        // 75 % is +191 Elo.
        let (e, lo, hi) = elo_interval(70, 10, 20);
        assert!((e - 190.8).abs() < 0.5, "{e}");
        assert!(lo < e && e < hi);
        // All wins: infinite estimate, finite lower end (Wilson), no upper end.
        let (e, lo, hi) = elo_interval(100, 0, 0);
        assert!(e.is_infinite() && hi.is_infinite());
        assert!(lo > 400.0 && lo < 700.0, "{lo}");
        assert_eq!(fmt_elo(e), "+inf");
    }
}
