//! The players a match can pit against each other: our levels, the greedy baseline, and any
//! external program speaking the engine protocol (docs/engine.md, "The engine protocol").
use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
    str::FromStr,
    time::{Duration, Instant},
};

use boardcraft_ai::{AnySearch, Budget, Level, greedy, rng::SplitMix64};
use boardcraft_rules::{AnyMove, AnyPosition, Position};

/// Who plays, as written on the command line: `novice` … `master`, `greedy`, `random`, or
/// `engine:<command line>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    Level(Level),
    Greedy,
    /// A uniformly random legal move: the floor, and the fastest way to reach odd positions.
    Random,
    Engine(String),
}

impl FromStr for PlayerSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if let Some(cmd) = s.strip_prefix("engine:") {
            if cmd.trim().is_empty() {
                return Err(
                    "`engine:` needs a command line, e.g. `engine:boardcraft-cli engine`".into(),
                );
            }
            return Ok(PlayerSpec::Engine(cmd.to_owned()));
        }
        if s.eq_ignore_ascii_case("greedy") {
            return Ok(PlayerSpec::Greedy);
        }
        if s.eq_ignore_ascii_case("random") {
            return Ok(PlayerSpec::Random);
        }
        s.parse::<Level>()
            .map(PlayerSpec::Level)
            .map_err(|_| format!("unknown player `{s}`: use novice, amateur, strong, master, greedy, random or engine:<command>"))
    }
}

impl PlayerSpec {
    pub fn label(&self) -> String {
        match self {
            PlayerSpec::Level(l) => l.name().to_owned(),
            PlayerSpec::Greedy => "greedy".to_owned(),
            PlayerSpec::Random => "random".to_owned(),
            PlayerSpec::Engine(cmd) => format!("engine:{cmd}"),
        }
    }
}

/// One chosen move and what it cost.
pub struct Choice {
    pub mv: AnyMove,
    pub nodes: u64,
    pub elapsed: Duration,
    /// CPU time of this thread (in-process players only; `None` where unknown).
    pub cpu: Option<Duration>,
}

/// CPU time this thread has run, from Linux's scheduler statistics (nanoseconds on the CPU).
/// On a machine shared with other work, wall-clock time overstates what a move costs; this is
/// what it would take on an idle core.
pub fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    (ns > 0).then(|| Duration::from_nanos(ns))
}

pub enum Player {
    Level {
        level: Level,
        time: Option<Duration>,
        /// Search threads (1: reproducible per seed).
        threads: usize,
    },
    Greedy,
    Random,
    Engine(ExternalEngine),
}

impl Player {
    /// `variant` is passed on to external engines as given (a shipped name or a path).
    pub fn start(spec: &PlayerSpec, variant: &str, time: Option<Duration>) -> Result<Self, String> {
        Ok(match spec {
            PlayerSpec::Level(level) => Player::Level {
                level: *level,
                time,
                threads: 1,
            },
            PlayerSpec::Greedy => Player::Greedy,
            PlayerSpec::Random => Player::Random,
            PlayerSpec::Engine(cmd) => Player::Engine(ExternalEngine::spawn(cmd, variant, time)?),
        })
    }

    /// Search threads of an in-process level (other players ignore it).
    pub fn set_threads(&mut self, n: usize) {
        if let Player::Level { threads, .. } = self {
            *threads = n.max(1);
        }
    }

    pub fn new_game(&mut self) -> Result<(), String> {
        if let Player::Engine(e) = self {
            e.send("newgame")?;
        }
        Ok(())
    }

    /// Chooses a move in `pos`, reached from the start by `line` (moves in notation).
    pub fn choose(
        &mut self,
        pos: &AnyPosition,
        line: &[String],
        seed: u64,
    ) -> Result<Choice, String> {
        let start = Instant::now();
        let cpu_start = thread_cpu_time();
        let (mv, nodes) = match self {
            Player::Level {
                level,
                time,
                threads,
            } => {
                let mut cfg = level.config(pos, seed);
                if let Some(t) = time {
                    // A time per move replaces the level's node budget; its noise and depth
                    // cap stay, so the levels keep their character.
                    cfg.budget = Budget {
                        nodes: None,
                        time: Some(*t),
                        depth: cfg.budget.depth,
                    };
                    cfg.tt_bits = 18;
                }
                let r = AnySearch::think_parallel(pos, cfg, *threads);
                (r.best_move, r.nodes)
            }
            Player::Greedy => {
                let r = greedy(pos, seed);
                (r.best_move, r.nodes)
            }
            Player::Random => {
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                let pick = (!moves.is_empty())
                    .then(|| SplitMix64::new(seed).below(moves.len() as u64) as usize);
                (pick.map(|i| moves.swap_remove(i)), 0)
            }
            Player::Engine(e) => e.choose(pos, line)?,
        };
        let mv = mv.ok_or_else(|| format!("no move in a position that is not over:\n{pos}"))?;
        let cpu = match (self, cpu_start, thread_cpu_time()) {
            (Player::Engine(_), _, _) => None,
            (_, Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        };
        Ok(Choice {
            mv,
            nodes,
            elapsed: start.elapsed(),
            cpu,
        })
    }
}

/// A child process speaking the engine protocol.
pub struct ExternalEngine {
    command: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    time: Option<Duration>,
}

impl ExternalEngine {
    pub fn spawn(command: &str, variant: &str, time: Option<Duration>) -> Result<Self, String> {
        let words = split_command_line(command)?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| "empty engine command".to_owned())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start engine `{command}`: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut engine = ExternalEngine {
            command: command.to_owned(),
            child,
            stdin,
            stdout,
            time,
        };
        // A path is resolved here, so that the engine may run in another directory.
        let variant = match std::fs::canonicalize(variant) {
            Ok(p) if variant.ends_with(".ron") => p.display().to_string(),
            _ => variant.to_owned(),
        };
        engine.send(&format!("variant {variant}"))?;
        engine.sync()?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("engine `{}` stopped listening: {e}", self.command))
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) => Err(format!("engine `{}` closed its output", self.command)),
            Ok(_) => Ok(line.trim_end().to_owned()),
            Err(e) => Err(format!("reading from engine `{}`: {e}", self.command)),
        }
    }

    /// `isready` → `readyok`; any `error` line on the way is a failure.
    fn sync(&mut self) -> Result<(), String> {
        self.send("isready")?;
        loop {
            let line = self.read_line()?;
            if line == "readyok" {
                return Ok(());
            }
            if let Some(msg) = line.strip_prefix("error") {
                return Err(format!("engine `{}`: {}", self.command, msg.trim()));
            }
        }
    }

    fn choose(
        &mut self,
        pos: &AnyPosition,
        line: &[String],
    ) -> Result<(Option<AnyMove>, u64), String> {
        let mut position = String::from("position startpos");
        if !line.is_empty() {
            position.push_str(" moves ");
            position.push_str(&line.join(" "));
        }
        self.send(&position)?;
        match self.time {
            Some(t) => self.send(&format!("go movetime {}", t.as_millis().max(1)))?,
            None => self.send("go")?,
        }
        let mut nodes = 0;
        loop {
            let reply = self.read_line()?;
            let mut words = reply.split_whitespace();
            match words.next() {
                Some("info") => {
                    let w: Vec<&str> = words.collect();
                    if let Some(i) = w.iter().position(|&x| x == "nodes") {
                        nodes = w.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(nodes);
                    }
                }
                Some("bestmove") => {
                    let text = words.next().unwrap_or("none");
                    if text == "none" {
                        return Ok((None, nodes));
                    }
                    let mv = pos
                        .parse_move(text)
                        .map_err(|e| format!("engine `{}` played {text}: {e}", self.command))?;
                    return Ok((Some(mv), nodes));
                }
                Some("error") => {
                    return Err(format!("engine `{}`: {reply}", self.command));
                }
                _ => {}
            }
        }
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // Give it a moment to leave on its own before it is killed.
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Splits a command line into words: whitespace separates, single and double quotes group,
/// a backslash escapes the next character (outside single quotes).
pub fn split_command_line(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in `{s}`")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => word.extend(chars.next()),
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in `{s}`")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Reads a duration: plain seconds (`0.5`), or with a unit (`500ms`, `2s`).
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let bad = || format!("`{s}` is not a duration: write seconds like 0.5, or 500ms or 2s");
    let (number, scale) = if let Some(ms) = s.strip_suffix("ms") {
        (ms, 0.001)
    } else if let Some(sec) = s.strip_suffix('s') {
        (sec, 1.0)
    } else {
        (s, 1.0)
    };
    let v: f64 = number.trim().parse().map_err(|_| bad())?;
    if !v.is_finite() || v <= 0.0 || v > 86_400.0 {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(v * scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_and_command_lines() {
        assert_eq!("Master".parse(), Ok(PlayerSpec::Level(Level::Master)));
        assert_eq!("greedy".parse(), Ok(PlayerSpec::Greedy));
        assert_eq!("Random".parse(), Ok(PlayerSpec::Random));
        assert_eq!(
            "engine:./x engine".parse(),
            Ok(PlayerSpec::Engine("./x engine".into()))
        );
        assert!("engine:".parse::<PlayerSpec>().is_err());
        assert!("expert".parse::<PlayerSpec>().is_err());
        assert_eq!(
            split_command_line(r#"a 'b c' "d \"e\"" f\ g"#).unwrap(),
            vec!["a", "b c", "d \"e\"", "f g"]
        );
        assert!(split_command_line("a 'b").is_err());
        assert_eq!(parse_duration("0.5").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("2s").unwrap(), Duration::from_secs(2));
        assert!(parse_duration("-1").is_err());
        assert!(parse_duration("fast").is_err());
    }
}
