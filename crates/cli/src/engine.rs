//! `engine`: the engine protocol on stdin/stdout (specified in docs/engine.md, "The engine protocol"), so our
//! AI can play under other programs and other programs can play in `match`.
use std::{
    io::{self, BufRead, Write},
    process::ExitCode,
    time::Duration,
};

use boardcraft_ai::{
    AnySearch, Budget, Evaluate, Level, Score, SearchConfig, notation_of_line, rng::mix,
    score::WIN_THRESHOLD,
};
use boardcraft_rules::{AnyPosition, Position, Seat, Variant, position::play_line};

#[derive(clap::Args)]
pub struct Args {
    /// The level a plain `go` plays at (novice, amateur, strong, master).
    #[arg(long, default_value = "master")]
    level: Level,
    /// Seed of the levels' noise (changed with the `seed` command).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search threads (changed with `setoption threads N`; default: the machine's cores − 1,
    /// at least 1). Only one thread is reproducible.
    #[arg(long, default_value_t = boardcraft_ai::default_threads())]
    threads: usize,
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    serve_threads(
        stdin.lock(),
        // A reader gone away ends the engine quietly instead of an "engine I/O" error.
        crate::out::Out(stdout.lock()),
        args.level,
        args.seed,
        args.threads,
    )
    .map_err(|e| format!("engine I/O: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

struct State {
    variant: Option<Variant>,
    pos: Option<AnyPosition>,
    level: Level,
    seed: u64,
    threads: usize,
}

/// Answers protocol commands from `input` until `quit` or end of input, searching with one
/// thread unless told otherwise (`setoption threads N`).
#[cfg_attr(not(test), allow(dead_code))]
pub fn serve(input: impl BufRead, out: impl Write, level: Level, seed: u64) -> io::Result<()> {
    serve_threads(input, out, level, seed, 1)
}

/// As [`serve`], starting with `threads` search threads.
pub fn serve_threads(
    input: impl BufRead,
    mut out: impl Write,
    level: Level,
    seed: u64,
    threads: usize,
) -> io::Result<()> {
    let mut state = State {
        variant: None,
        pos: None,
        level,
        seed,
        threads: threads.max(1),
    };
    for line in input.lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else {
            continue;
        };
        if command == "quit" {
            break;
        }
        let reply = state.handle(command, rest);
        for l in reply {
            writeln!(out, "{l}")?;
        }
        out.flush()?;
    }
    Ok(())
}

impl State {
    fn handle(&mut self, command: &str, rest: &[&str]) -> Vec<String> {
        let result = match command {
            "protocol" => Ok(vec![format!(
                "protocol boardcraft 1 engine boardcraft-cli {}",
                env!("CARGO_PKG_VERSION")
            )]),
            "isready" => Ok(vec!["readyok".to_owned()]),
            "help" => Ok(HELP.lines().map(|l| format!("info {l}")).collect()),
            "variant" => self.variant(rest),
            "players" => self.players(rest),
            "newgame" => self.position(&["startpos"]),
            "position" => self.position(rest),
            "level" => match rest.first().map(|s| s.parse::<Level>()) {
                Some(Ok(l)) => {
                    self.level = l;
                    Ok(Vec::new())
                }
                Some(Err(e)) => Err(e),
                None => Err("level needs a name: novice, amateur, strong or master".into()),
            },
            "seed" => match rest.first().map(|s| s.parse::<u64>()) {
                Some(Ok(s)) => {
                    self.seed = s;
                    Ok(Vec::new())
                }
                _ => Err("seed needs a non-negative integer".into()),
            },
            "setoption" => self.set_option(rest),
            "moves" => self.current().map(|pos| {
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                let mut text: Vec<String> = moves.iter().map(|m| pos.format_move(m)).collect();
                text.sort();
                vec![format!("moves {}", text.join(" ")).trim_end().to_owned()]
            }),
            "show" => self.current().map(|pos| {
                pos.to_string()
                    .lines()
                    .map(|l| format!("info {l}"))
                    .collect()
            }),
            "eval" => self.current().map(|pos| {
                vec![match pos.outcome() {
                    // Two seats: the winner or `draw`; more: every seat's place.
                    Some(o) if pos.seat_count() > 2 => format!(
                        "eval over places {} {}",
                        Seat::all(pos.seat_count())
                            .map(|s| format!("{}={}", pos.seat_name(s), o.places.of(s)))
                            .collect::<Vec<_>>()
                            .join(","),
                        o.reason
                    ),
                    Some(o) => format!(
                        "eval over {} {}",
                        o.winner().map_or("draw".to_owned(), |c| pos.seat_name(c)),
                        o.reason
                    ),
                    None => format!(
                        "eval {} side {}",
                        pos.evaluate(),
                        pos.seat_name(pos.side_to_move())
                    ),
                }]
            }),
            "go" => self.go(rest),
            other => Err(format!("unknown command `{other}` (try `help`)")),
        };
        match result {
            Ok(lines) => lines,
            Err(e) => vec![format!("error {e}")],
        }
    }

    /// `setoption threads N`, or UCI's `setoption name Threads value N`.
    fn set_option(&mut self, rest: &[&str]) -> Result<Vec<String>, String> {
        let (name, value) = match rest {
            [name, value] => (*name, *value),
            [n, name, v, value]
                if n.eq_ignore_ascii_case("name") && v.eq_ignore_ascii_case("value") =>
            {
                (*name, *value)
            }
            _ => return Err("setoption needs `threads N` (or `name threads value N`)".into()),
        };
        if !name.eq_ignore_ascii_case("threads") {
            return Err(format!("unknown option `{name}` (the engine has: threads)"));
        }
        match value.parse::<usize>() {
            Ok(n) if (1..=256).contains(&n) => {
                self.threads = n;
                Ok(Vec::new())
            }
            _ => Err("setoption threads needs a whole number from 1 to 256".into()),
        }
    }

    fn current(&self) -> Result<&AnyPosition, String> {
        self.pos
            .as_ref()
            .ok_or_else(|| "no variant chosen yet: send `variant <name|path>` first".to_owned())
    }

    fn variant(&mut self, rest: &[&str]) -> Result<Vec<String>, String> {
        let name = rest.join(" ");
        if name.is_empty() {
            return Err("variant needs a shipped name or a path to a RON file".into());
        }
        let v = Variant::resolve(&name).map_err(|e| e.to_string().replace('\n', " | "))?;
        let reply = format!("info variant {} ({})", v.name, v.title);
        self.pos = Some(v.new_game());
        self.variant = Some(v);
        Ok(vec![reply])
    }

    /// `players N`: the current variant played by N seats (back to its start).
    fn players(&mut self, rest: &[&str]) -> Result<Vec<String>, String> {
        let variant = self
            .variant
            .as_ref()
            .ok_or_else(|| "no variant chosen yet: send `variant <name|path>` first".to_owned())?;
        let n = match rest {
            [n] => n
                .parse::<usize>()
                .map_err(|_| "players needs a number of players".to_owned())?,
            _ => return Err("players needs a number of players".into()),
        };
        let v = variant.for_players(n).map_err(|e| e.to_string())?;
        let seats: Vec<String> = {
            let pos = v.new_game();
            Seat::all(n).map(|s| pos.seat_name(s)).collect()
        };
        self.pos = Some(v.new_game());
        self.variant = Some(v);
        Ok(vec![format!("info players {n} seats {}", seats.join(","))])
    }

    fn position(&mut self, rest: &[&str]) -> Result<Vec<String>, String> {
        let variant = self
            .variant
            .as_ref()
            .ok_or_else(|| "no variant chosen yet: send `variant <name|path>` first".to_owned())?;
        // `startpos` or `text <the position's fields>`, then optionally `moves …`.
        let moves_at = rest
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(rest.len());
        let mut pos = match rest.first() {
            Some(&"startpos") if moves_at == 1 => variant.new_game(),
            Some(&"startpos") => {
                return Err(format!(
                    "expected `moves` after startpos, got `{}`",
                    rest[1]
                ));
            }
            Some(&"text") => variant
                .position_from_text(&rest[1..moves_at].join(" "))
                .map_err(|e| e.to_string())?,
            _ => {
                return Err(
                    "position needs `startpos [moves …]` or `text <position> [moves …]`".into(),
                );
            }
        };
        if moves_at < rest.len() {
            play_line(&mut pos, &rest[moves_at + 1..].join(" ")).map_err(|e| e.to_string())?;
        }
        self.pos = Some(pos);
        Ok(Vec::new())
    }

    fn go(&mut self, rest: &[&str]) -> Result<Vec<String>, String> {
        let pos = self.current()?.clone();
        let mut budget = Budget::default();
        let mut level = None;
        let mut i = 0;
        while i < rest.len() {
            let value = rest.get(i + 1).copied();
            let number = |what: &str| -> Result<u64, String> {
                value
                    .and_then(|v| v.parse::<u64>().ok())
                    .filter(|&v| v > 0)
                    .ok_or_else(|| format!("go {what} needs a positive integer"))
            };
            match rest[i] {
                "nodes" => budget.nodes = Some(number("nodes")?),
                "movetime" => budget.time = Some(Duration::from_millis(number("movetime")?)),
                "depth" => budget.depth = Some(number("depth")?.min(u64::from(u32::MAX)) as u32),
                "level" => {
                    level = Some(value.ok_or("go level needs a name")?.parse::<Level>()?);
                }
                other => return Err(format!("unknown go option `{other}`")),
            }
            i += 2;
        }
        if pos.is_game_over() {
            return Ok(vec!["bestmove none".to_owned()]);
        }
        // Vary the noise from move to move, reproducibly.
        let seed = mix(self.seed ^ u64::from(pos.ply()));
        let cfg = match level {
            Some(l) => l.config(&pos, seed),
            None if budget == Budget::default() => self.level.config(&pos, seed),
            // Full strength: Master's kind of search within the budget given.
            None => SearchConfig::new(budget)
                .with_seed(seed)
                .with_monte_carlo(true),
        };
        let r = AnySearch::think_parallel(&pos, cfg, self.threads);
        let ms = r.elapsed.as_millis();
        let nps = (r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-6)) as u64;
        let pv = notation_of_line(&pos, &r.pv).join(" ");
        let best = r
            .best_move
            .as_ref()
            .map_or_else(|| "none".to_owned(), |m| pos.format_move(m));
        Ok(vec![
            format!(
                "info depth {} score {} nodes {} time {ms} nps {nps} pv {pv}",
                r.depth,
                protocol_score(r.score),
                r.nodes
            )
            .trim_end()
            .to_owned(),
            format!("bestmove {best}"),
        ])
    }
}

/// `cp <n>` (hundredths), `win <plies>` or `loss <plies>`.
fn protocol_score(s: Score) -> String {
    match s.plies_to_result() {
        Some(n) if s.0 >= WIN_THRESHOLD => format!("win {n}"),
        Some(n) => format!("loss {}", -n),
        None => format!("cp {}", s.0),
    }
}

const HELP: &str = "\
protocol                      -> protocol boardcraft 1 …
isready                       -> readyok
variant <name|path.ron>       choose the game (and reset to its start)
players <n>                   the variant for n seats, if it offers them -> info players n seats <names>
newgame                       back to the start position
position startpos [moves …]   set the position by moves from the start
position text <text> [moves …]  set the position from its text (see docs/cli.md), then moves
go [nodes N] [movetime MS] [depth D] [level L]   -> info … / bestmove <move|none>
eval                          -> eval <static score> side <seat> | eval over <winner|draw> <reason>
                                 (more than two seats: eval over places <seat>=<place>,… <reason>)
moves                         -> moves <legal moves, sorted>
show                          the board, as info lines
level <novice|amateur|strong|master>   level of a plain `go`
seed <n>                      seed of the levels' noise
setoption threads <n>         search threads (also `setoption name threads value <n>`)
quit";

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(script: &str) -> Vec<String> {
        let mut out = Vec::new();
        serve(script.as_bytes(), &mut out, Level::Novice, 1).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn errors_are_reported_and_the_engine_goes_on() {
        let out = talk(
            "isready\ngo\nfoo\nvariant no-such-game\nposition startpos\nisready\nquit\nisready\n",
        );
        assert_eq!(out[0], "readyok");
        assert!(out[1].starts_with("error no variant"), "{out:?}");
        assert!(out[2].starts_with("error unknown command `foo`"));
        assert!(out[3].starts_with("error "));
        assert!(out[4].starts_with("error no variant"));
        assert_eq!(out[5], "readyok");
        assert_eq!(out.len(), 6, "nothing is answered after quit");
    }

    #[test]
    fn threads_are_an_option() {
        let out = talk(
            "setoption threads 2\nsetoption name Threads value 1\nsetoption threads 0\nsetoption hash 4\nvariant ugolki-hg-3x3\nsetoption threads 2\ngo nodes 3000\nquit\n",
        );
        assert!(
            out[0].starts_with("error setoption threads needs"),
            "{out:?}"
        );
        assert!(out[1].starts_with("error unknown option `hash`"), "{out:?}");
        assert!(out[3].starts_with("info depth"), "{out:?}");
        assert!(out[4].starts_with("bestmove "), "{out:?}");
        assert_eq!(out.len(), 5, "{out:?}");
    }
}
