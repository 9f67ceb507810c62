//! `soak`: many games per variant between players drawn from a mix of levels, with the rules'
//! invariants checked at every move (`boardcraft_rules::checks`, the same checks the fuzz
//! targets run). A panic is caught and counted per game, with what reproduces it, instead of
//! ending the run. Exit status 1 if any move was illegal, any invariant broke or anything
//! panicked.
use std::{
    cell::RefCell,
    collections::BTreeMap,
    fmt,
    fs::File,
    io::Write,
    panic::{self, AssertUnwindSafe},
    path::PathBuf,
    process::ExitCode,
    str::FromStr,
    time::{Duration, Instant},
};

use boardcraft_ai::rng::{SplitMix64, mix};
use boardcraft_rules::{
    AnyPosition, EndReason, Outcome, Position, Seat, Variant,
    checks::{Violation, check_move, check_position},
    shipped_variant, shipped_variants,
    variant::fnv1a,
};
use indicatif::{ProgressBar, ProgressStyle};

use crate::{
    game::{GameError, play_game},
    player::{Choice, Player, PlayerSpec, thread_cpu_time},
};

/// Mostly fast players, so that thousands of games fit in minutes, with enough searching ones
/// that the positions real play reaches are covered too.
const DEFAULT_MIX: &str = "random:6,greedy:5,novice:5,amateur:1";

#[derive(clap::Args)]
pub struct Args {
    /// `all`, a family (`race`, `focus`, `gipf`), a shipped variant name or a variant file.
    variant: String,
    /// Games per variant.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed of the games (players drawn, levels' noise, random moves): the same seed, mix and
    /// game numbers replay the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of the first game: `--first-game K --games 1` replays game K of a soak alone.
    #[arg(long, default_value_t = 0)]
    first_game: u32,
    /// Who plays: each side of each game is drawn from these players (novice, amateur,
    /// strong, master, greedy, random), each with an optional weight (`name:weight`).
    #[arg(long, default_value = DEFAULT_MIX)]
    levels: Mix,
    /// Write every game (number, players, moves, result) to this file.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Only this number of players (default: every seat count each variant offers).
    #[arg(long)]
    players: Option<usize>,
}

/// Players with weights, as `random:4,greedy:3,novice`.
#[derive(Clone, Debug)]
pub struct Mix(Vec<(PlayerSpec, u32)>);

impl FromStr for Mix {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let mut players = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, weight) = match part.split_once(':') {
                Some((name, w)) => {
                    let w = w
                        .parse::<u32>()
                        .map_err(|_| format!("`{part}`: the weight must be a whole number"))?;
                    (name, w)
                }
                None => (part, 1),
            };
            let spec: PlayerSpec = name.parse()?;
            if matches!(spec, PlayerSpec::Engine(_)) {
                return Err("soak plays in-process players only, not engines".into());
            }
            if weight > 0 {
                players.push((spec, weight));
            }
        }
        if players.is_empty() {
            return Err("--levels needs at least one player with a weight above 0".into());
        }
        Ok(Mix(players))
    }
}

impl fmt::Display for Mix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(p, w)| format!("{}:{w}", p.label()))
            .collect();
        f.write_str(&parts.join(","))
    }
}

impl Mix {
    fn draw(&self, rng: &mut SplitMix64) -> &PlayerSpec {
        let total: u64 = self.0.iter().map(|(_, w)| u64::from(*w)).sum();
        let mut x = rng.below(total);
        for (spec, w) in &self.0 {
            if x < u64::from(*w) {
                return spec;
            }
            x -= u64::from(*w);
        }
        unreachable!("x < total")
    }
}

/// What went wrong in a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Illegal,
    Invariant,
    Panic,
    /// A player could not move (no move found in a live position).
    Player,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Illegal => "illegal move",
            Kind::Invariant => "invariant broken",
            Kind::Panic => "panic",
            Kind::Player => "player failed",
        })
    }
}

/// One failed game, with what reproduces it.
struct Failure {
    kind: Kind,
    variant: String,
    game: u32,
    /// Who played each seat.
    players: Vec<String>,
    /// The table's size.
    seats: usize,
    moves: Vec<String>,
    message: String,
}

/// The figures of one variant.
#[derive(Default)]
struct Tally {
    games: u32,
    plies: u64,
    /// First places (alone) by seat, and games every seat shared (draws).
    wins: [u32; Seat::MAX],
    /// The table's size.
    seats: usize,
    draws: u32,
    /// "White wins: …" / "draw: …" → games.
    endings: BTreeMap<String, u32>,
    failures: BTreeMap<&'static str, u32>,
    wall: Duration,
    cpu: Option<Duration>,
}

impl Tally {
    fn count(&self, kind: Kind) -> u32 {
        self.failures.get(kind_key(kind)).copied().unwrap_or(0)
    }

    fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.seats = self.seats.max(other.seats);
        self.plies += other.plies;
        self.draws += other.draws;
        for c in 0..Seat::MAX {
            self.wins[c] += other.wins[c];
        }
        for (k, n) in &other.failures {
            *self.failures.entry(k).or_default() += n;
        }
        self.wall += other.wall;
        self.cpu = match (self.cpu, other.cpu) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
    }
}

fn kind_key(kind: Kind) -> &'static str {
    match kind {
        Kind::Illegal => "illegal",
        Kind::Invariant => "invariant",
        Kind::Panic => "panic",
        Kind::Player => "player",
    }
}

thread_local! {
    /// The message and place of the last panic on this thread (the soak's panic hook keeps
    /// them here instead of printing over the progress bar).
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The variants `<variant|all>` names, each at every seat count it offers (or only at
/// `players`).
fn select(which: &str, players: Option<usize>) -> Result<Vec<Variant>, String> {
    let family = match which.to_ascii_lowercase().as_str() {
        "all" => Some(None),
        f @ ("race" | "focus" | "gipf") => Some(Some(f.to_owned())),
        _ => None,
    };
    let variants: Vec<Variant> = match family {
        Some(family) => shipped_variants()
            .map(|name| shipped_variant(name).map_err(|e| e.to_string()))
            .filter(|v| match (&family, v) {
                (Some(f), Ok(v)) => v.rules.family_name().eq_ignore_ascii_case(f),
                _ => true,
            })
            .collect::<Result<_, _>>()?,
        None => vec![Variant::resolve(which).map_err(|e| e.to_string())?],
    };
    let mut tables = Vec::new();
    for v in variants {
        for n in v.player_counts() {
            if players.is_none_or(|p| p == n) {
                tables.push(v.with_players(n).expect("a count the variant offers"));
            }
        }
    }
    if tables.is_empty() {
        return Err(format!(
            "no variant of `{which}` is played by {} players",
            players.unwrap_or(0)
        ));
    }
    Ok(tables)
}

/// A variant and its table size, as the tables print it: `halma-16` for its fewest seats,
/// `halma-16/4p` for the others.
fn table_name(v: &Variant) -> String {
    if v.players() == v.player_counts()[0] {
        v.name.clone()
    } else {
        format!("{}/{}p", v.name, v.players())
    }
}

/// The seed of game `game` of `variant`: independent of which other variants run with it.
fn game_seed(seed: u64, variant: &str, game: u32) -> u64 {
    mix(seed ^ mix(fnv1a(variant.as_bytes()) ^ mix(u64::from(game))))
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let variants = select(&args.variant, args.players)?;
    let mut log = match &args.log {
        Some(path) => {
            Some(File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?)
        }
        None => None,
    };
    outln!(
        "soak {}: {} variant(s) × {} games (games {}..{}), seed {}, each side drawn from {}",
        args.variant,
        variants.len(),
        args.games,
        args.first_game,
        u64::from(args.first_game) + u64::from(args.games) - 1,
        args.seed,
        args.levels
    );
    outln!(
        "checked at every move: hash = recomputation, material, move list, game over ⇔ no move, the move chosen is legal, notation round trip, play = play_unchecked, undo restores, ply + 1"
    );
    let bar = ProgressBar::new(variants.len() as u64 * u64::from(args.games));
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise} < {eta_precise}]",
        )
        .expect("valid template"),
    );

    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(info.to_string()));
    }));
    let mut tallies = Vec::new();
    let mut failures = Vec::new();
    let mut total_failed = 0;
    for variant in &variants {
        let mut tally = Tally::default();
        let start_wall = Instant::now();
        let start_cpu = thread_cpu_time();
        let start = variant.new_game();
        for game in args.first_game..args.first_game.saturating_add(args.games) {
            let name = table_name(variant);
            bar.set_message(format!("{name}  failed {total_failed}"));
            let seed = game_seed(args.seed, &name, game);
            let mut rng = SplitMix64::new(seed);
            let specs: Vec<&PlayerSpec> = (0..variant.players())
                .map(|_| args.levels.draw(&mut rng))
                .collect();
            let labels: Vec<String> = specs.iter().map(|s| s.label()).collect();
            let GameRun {
                moves: line,
                result,
            } = run_game(&start, &specs, &variant.name, seed, &checks_at_every_move);
            tally.games += 1;
            tally.plies += line.len() as u64;
            let verdict = match result {
                Ok(outcome) => {
                    match outcome.winner() {
                        Some(c) => tally.wins[c.index()] += 1,
                        None if outcome.is_draw() => tally.draws += 1,
                        None => {}
                    }
                    *tally.endings.entry(ending(&outcome, &start)).or_default() += 1;
                    outcome.describe(|s| start.seat_name(s))
                }
                Err((kind, message)) => {
                    *tally.failures.entry(kind_key(kind)).or_default() += 1;
                    total_failed += 1;
                    let failure = Failure {
                        kind,
                        variant: variant.name.clone(),
                        seats: variant.players(),
                        game,
                        players: labels.clone(),
                        moves: line.clone(),
                        message,
                    };
                    // `suspend`, not `println`: a hidden bar (output not a terminal) prints
                    // nothing with `println`, and a failure must always be seen.
                    bar.suspend(|| eprintln!("{}", describe(&failure, &args)));
                    failures.push(failure);
                    format!("FAILED ({kind})")
                }
            };
            if let Some(f) = log.as_mut() {
                writeln!(
                    f,
                    "{name} game {game} {} moves=[{}] result={verdict}",
                    seat_list(start.seat_count(), &labels, |s| start.seat_name(s)),
                    line.join(" ")
                )
                .map_err(|e| format!("writing the log: {e}"))?;
            }
            bar.inc(1);
        }
        tally.wall = start_wall.elapsed();
        tally.cpu = match (start_cpu, thread_cpu_time()) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        };
        bar.suspend(|| {
            eprintln!(
                "{}: {} games, {} plies, {} failed, {:.1} s",
                table_name(variant),
                tally.games,
                tally.plies,
                tally.failures.values().sum::<u32>(),
                tally.wall.as_secs_f64()
            )
        });
        tally.seats = variant.players();
        tallies.push((table_name(variant), tally));
    }
    panic::set_hook(default_hook);
    bar.finish_and_clear();
    report(&tallies, &failures, &args);
    Ok(if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// How a game ended, for the endings table: the outcome in words, without the counts that
/// 9qum's count rule names (they would make every count its own line).
fn ending(outcome: &Outcome, pos: &AnyPosition) -> String {
    match (outcome.reason, outcome.winner()) {
        (EndReason::PieceCount { .. }, Some(w)) => {
            format!("{} wins: count after move 100", pos.seat_name(w))
        }
        (EndReason::PieceCount { .. }, None) => "draw: count after move 100".to_owned(),
        // More seats: who came first, not every place (too many combinations to tabulate).
        (reason, winner) if outcome.places.seats() > 2 => match winner {
            Some(w) => format!("seat {} first: {reason}", w.index() + 1),
            None => format!("first place shared: {reason}"),
        },
        _ => outcome.describe(|s| pos.seat_name(s)),
    }
}

/// One game of a soak: the moves played and how it ended (or what went wrong).
struct GameRun {
    moves: Vec<String>,
    result: Result<Outcome, (Kind, String)>,
}

/// What a soak checks when a player has chosen a move, before it is played.
type MoveCheck = dyn Fn(&mut AnyPosition, &Choice) -> Result<(), (Kind, String)>;

/// The soak's checks: the position keeps every invariant, the chosen move is one of its legal
/// moves, and the move passes every move check.
fn checks_at_every_move(pos: &mut AnyPosition, choice: &Choice) -> Result<(), (Kind, String)> {
    let broken = |v: Violation| (Kind::Invariant, v.to_string());
    let moves = check_position(pos).map_err(broken)?;
    if !moves.contains(&choice.mv) {
        return Err((
            Kind::Illegal,
            format!(
                "the player chose {:?}, which legal_moves does not list\n{pos}",
                choice.mv
            ),
        ));
    }
    check_move(pos, &choice.mv).map_err(broken)
}

/// Plays one game from `start` between the players `specs` (one per seat) with `check` at
/// every move, and at the end checks the final position (no move left, the outcome stays, one
/// ply per move). A panic anywhere in the game is caught and reported as a failure.
fn run_game(
    start: &AnyPosition,
    specs: &[&PlayerSpec],
    variant: &str,
    seed: u64,
    check: &MoveCheck,
) -> GameRun {
    let mut pos = start.clone();
    let mut line = Vec::new();
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        let player_failed = |message| (Kind::Player, message);
        let mut players = specs
            .iter()
            .map(|spec| Player::start(spec, variant, None))
            .collect::<Result<Vec<Player>, String>>()
            .map_err(player_failed)?;
        let mut seats: Vec<&mut Player> = players.iter_mut().collect();
        // The observer's error travels as text through `play_game`; its kind waits here.
        let kind = std::cell::Cell::new(Kind::Invariant);
        let outcome = play_game(
            &mut pos,
            &mut line,
            &mut seats,
            |ply| mix(seed ^ mix(u64::from(ply))),
            |pos, _, choice| {
                check(pos, choice).map_err(|(k, message)| {
                    kind.set(k);
                    message
                })
            },
        )
        .map_err(|e| match e {
            GameError::Illegal {
                notation, error, ..
            } => (Kind::Illegal, format!("{notation}: {error}")),
            GameError::Player { message, .. } => (Kind::Player, message),
            GameError::Stopped(message) => (kind.get(), message),
        })?;
        let broken = |message| (Kind::Invariant, message);
        check_position(&pos).map_err(|v| broken(v.to_string()))?;
        if pos.outcome() != Some(outcome) {
            return Err(broken(format!(
                "the game ended with {outcome}, the position says {:?}",
                pos.outcome()
            )));
        }
        if pos.ply() as usize != line.len() {
            return Err(broken(format!(
                "{} moves were played but the ply count is {}",
                line.len(),
                pos.ply()
            )));
        }
        Ok(outcome)
    }));
    let result = result.unwrap_or_else(|payload| {
        let message = LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "a panic without a message".into());
        Err((Kind::Panic, message))
    });
    GameRun {
        moves: line,
        result,
    }
}

/// Who played each seat: `White=novice Black=random` (the seats' names as the game calls
/// them).
fn seat_list(seats: usize, labels: &[String], name: impl Fn(Seat) -> String) -> String {
    Seat::all(seats)
        .zip(labels)
        .map(|(s, l)| format!("{}={l}", name(s)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A failure as printed when it happens: what broke, and how to replay it.
fn describe(f: &Failure, args: &Args) -> String {
    format!(
        "FAILED {} in {} game {} ({}) after {} plies: {}\n  moves: {}\n  replay: boardcraft-cli soak {} --players {} --games 1 --first-game {} --seed {} --levels {}",
        f.kind,
        f.variant,
        f.game,
        seat_list(f.seats, &f.players, |s| format!("seat {}", s.index() + 1)),
        f.moves.len(),
        f.message,
        f.moves.join(" "),
        f.variant,
        f.seats,
        f.game,
        args.seed,
        args.levels,
    )
}

fn report(tallies: &[(String, Tally)], failures: &[Failure], args: &Args) {
    outln!(
        "{:<22} {:>7} {:>9} {:>7} {:>17} {:>6} {:>7} {:>9} {:>6} {:>8} {:>8}",
        "variant",
        "games",
        "plies",
        "avg",
        "wins by seat",
        "draws",
        "illegal",
        "broken",
        "panics",
        "wall s",
        "CPU s"
    );
    let mut total = Tally {
        cpu: Some(Duration::ZERO),
        ..Tally::default()
    };
    let row = |name: &str, t: &Tally| {
        outln!(
            "{:<22} {:>7} {:>9} {:>7.1} {:>17} {:>6} {:>7} {:>9} {:>6} {:>8.1} {:>8}",
            name,
            t.games,
            t.plies,
            t.plies as f64 / f64::from(t.games.max(1)),
            t.wins[..t.seats.max(2)]
                .iter()
                .map(|w| w.to_string())
                .collect::<Vec<_>>()
                .join("/"),
            t.draws,
            t.count(Kind::Illegal),
            t.count(Kind::Invariant) + t.count(Kind::Player),
            t.count(Kind::Panic),
            t.wall.as_secs_f64(),
            t.cpu
                .map_or("-".to_owned(), |c| format!("{:.1}", c.as_secs_f64())),
        );
    };
    for (name, t) in tallies {
        row(name, t);
        total.add(t);
    }
    if tallies.len() > 1 {
        row("total", &total);
    }
    outln!("endings:");
    for (name, t) in tallies {
        let endings: Vec<String> = t.endings.iter().map(|(e, n)| format!("{n}× {e}")).collect();
        outln!("  {name}: {}", endings.join("; "));
    }
    if !failures.is_empty() {
        outln!("failures ({}):", failures.len());
        for f in failures.iter().take(20) {
            outln!("{}", describe(f, args));
        }
        if failures.len() > 20 {
            outln!("… and {} more", failures.len() - 20);
        }
    }
    outln!(
        "result: {} games, {} plies, {} illegal moves, {} broken invariants, {} panics",
        total.games,
        total.plies,
        total.count(Kind::Illegal),
        total.count(Kind::Invariant) + total.count(Kind::Player),
        total.count(Kind::Panic)
    );
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use boardcraft_rules::shipped_variant;

    use super::*;

    fn start() -> AnyPosition {
        shipped_variant("focus-6x6").unwrap().new_game()
    }

    fn run(check: &MoveCheck) -> GameRun {
        run_game(
            &start(),
            &[&PlayerSpec::Random, &PlayerSpec::Greedy],
            "focus-6x6",
            3,
            check,
        )
    }

    #[test]
    fn a_sound_game_ends_with_its_outcome() {
        let game = run(&checks_at_every_move);
        let outcome = game.result.expect("every check passes");
        let mut pos = start();
        boardcraft_rules::position::play_line(&mut pos, &game.moves.join(" ")).unwrap();
        assert_eq!(pos.outcome(), Some(outcome));
    }

    #[test]
    fn a_panic_is_caught_with_the_moves_before_it() {
        let game = run(&|pos, _| {
            if pos.ply() == 5 {
                panic!("boom at ply {}", pos.ply());
            }
            Ok(())
        });
        let (kind, message) = game.result.unwrap_err();
        assert_eq!(kind, Kind::Panic);
        assert!(message.contains("boom at ply 5"), "{message}");
        assert_eq!(game.moves.len(), 5);
    }

    #[test]
    fn a_broken_check_stops_the_game_with_its_kind() {
        let game = run(&|pos, _| {
            if pos.ply() == 2 {
                Err((Kind::Invariant, "broken on purpose".into()))
            } else {
                Ok(())
            }
        });
        assert_eq!(
            game.result.unwrap_err(),
            (Kind::Invariant, "broken on purpose".into())
        );
        assert_eq!(game.moves.len(), 2);
    }

    #[test]
    fn a_move_from_another_position_is_illegal() {
        let mut pos = start();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let first = moves[0].clone();
        pos.play(&first).unwrap();
        let choice = Choice {
            mv: first,
            nodes: 0,
            elapsed: Duration::ZERO,
            cpu: None,
        };
        let (kind, _) = checks_at_every_move(&mut pos, &choice).unwrap_err();
        assert_eq!(kind, Kind::Illegal);
    }

    #[test]
    fn mixes_have_weights() {
        let mix: Mix = "random:3, greedy".parse().unwrap();
        assert_eq!(
            mix.0,
            vec![(PlayerSpec::Random, 3), (PlayerSpec::Greedy, 1)]
        );
        assert_eq!(mix.to_string(), "random:3,greedy:1");
        for bad in ["random:0", "random:x", "engine:prog", ""] {
            assert!(bad.parse::<Mix>().is_err(), "{bad}");
        }
        let only: Mix = "novice".parse().unwrap();
        let mut rng = SplitMix64::new(1);
        assert_eq!(
            only.draw(&mut rng),
            &PlayerSpec::Level(boardcraft_ai::Level::Novice)
        );
    }
}
