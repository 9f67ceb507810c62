//! `puzzles verify` and `puzzles mine`: the Learn content's proofs and its source.
use std::{
    collections::{HashMap, HashSet},
    path::{Path, PathBuf},
    process::ExitCode,
    time::Instant,
};

use boardcraft_learn::{
    FileError, PuzzleEntry, PuzzleFile,
    format::FORMAT_VERSION,
    is_puzzle_file, lesson_from_ron, manifest_from_ron,
    mine::{Kinds, MineOptions, mine},
    puzzles_from_ron, shipped_assets, verify,
};
use boardcraft_rules::Variant;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Prove every puzzle and lesson step (the shipped ones when no file is given): the
    /// solution reaches the goal and no other first move does. Exit status 1 on any failure.
    Verify {
        /// Puzzle or lesson files (RON); default: every file in the shipped manifests.
        files: Vec<PathBuf>,
    },
    /// Ask the engine whether each puzzle teaches a good move: prints per puzzle the goal, the
    /// answer's gain (race) or evaluation and the best other move's; exit status 1 when an
    /// answer is clearly worse than another move (a jump back home, a blunder).
    Audit {
        /// Puzzle files; default: every shipped puzzle file and every file in `mods/puzzles/`.
        files: Vec<PathBuf>,
    },
    /// Print each puzzle's measured difficulty (solver effort, solution length); `--write` sets
    /// it in the files.
    Rate {
        /// Puzzle files; default: every shipped puzzle file.
        files: Vec<PathBuf>,
        /// Rewrite the files' `difficulty` fields with the measured ones.
        #[arg(long)]
        write: bool,
    },
    /// Make again every puzzle of the files that fails `verify` or `audit` (same position and
    /// goal, the answer found anew); a position that no longer makes a good puzzle is dropped.
    Remake {
        /// Puzzle files to rewrite.
        files: Vec<PathBuf>,
    },
    /// Find new puzzles in self-play games; only proven ones are written.
    Mine {
        /// A shipped variant name or a path to a variant RON file.
        variant: String,
        /// How many puzzles to find.
        #[arg(long, default_value_t = 10)]
        count: usize,
        /// Seed of the self-play games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Give up after this many games.
        #[arg(long, default_value_t = 200)]
        max_games: u32,
        /// Append to this puzzle file (created if missing; positions already in it are
        /// skipped) instead of printing the puzzles.
        #[arg(long)]
        out: Option<PathBuf>,
        /// The two levels that play the games, e.g. `master,master` for puzzles from strong
        /// play (slower: about a second a move).
        #[arg(long, default_value = "novice,amateur")]
        levels: String,
        /// Only goals of two or more moves (wins, rows, pieces into the corner in 2–4).
        #[arg(long)]
        deep: bool,
        /// Only goals of this kind: win, best-jump, into-corner, leave-home, capture-most,
        /// no-move, row, take-gipf.
        #[arg(long)]
        kind: Option<String>,
        /// Stop after this many seconds and write what was found (a game under way is not
        /// finished).
        #[arg(long)]
        seconds: Option<u64>,
    },
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    match args.command {
        Command::Verify { files } => verify_files(files),
        Command::Audit { files } => audit_files(files),
        Command::Rate { files, write } => rate_files(files, write),
        Command::Remake { files } => remake_files(files),
        Command::Mine {
            variant,
            count,
            seed,
            max_games,
            out,
            levels,
            deep,
            kind,
            seconds,
        } => {
            let levels: Vec<boardcraft_ai::Level> = levels
                .split(',')
                .map(str::parse)
                .collect::<Result<_, _>>()?;
            let [a, b] = levels[..] else {
                return Err("--levels takes two levels, e.g. master,master".into());
            };
            let options = MineOptions {
                count,
                seed,
                max_games,
                levels: [a, b],
                kinds: if deep { Kinds::Deep } else { Kinds::All },
                only: kind,
                deadline: seconds.map(|s| Instant::now() + std::time::Duration::from_secs(s)),
            };
            mine_cmd(&variant, options, out.as_deref())
        }
    }
}

/// The files of the shipped manifests.
fn shipped_files() -> Result<Vec<PathBuf>, String> {
    let root = if Path::new("assets/puzzles/manifest.ron").exists() {
        PathBuf::from("assets")
    } else {
        shipped_assets()
    };
    let mut out = Vec::new();
    for folder in ["puzzles", "lessons"] {
        let path = root.join(folder).join("manifest.ron");
        let label = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{label}: {e}"))?;
        let files = manifest_from_ron(&label, &text).map_err(|e| e.to_string())?;
        out.extend(files.into_iter().map(|f| root.join(folder).join(f)));
    }
    Ok(out)
}

/// The shipped puzzle files and those of the `mods/puzzles/` folder beside `assets/` (if any).
fn puzzle_files_with_mods() -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = shipped_files()?
        .into_iter()
        .filter(|p| p.parent().and_then(|d| d.file_name()) == Some("puzzles".as_ref()))
        .collect();
    if let Ok(dir) = std::fs::read_dir("mods/puzzles") {
        let mut mods: Vec<PathBuf> = dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        mods.sort();
        out.extend(mods);
    }
    Ok(out)
}

/// Reads puzzle files for `audit` and `rate`; a file that does not load counts as a failure.
fn load_puzzles(
    files: &[PathBuf],
    failed: &mut usize,
) -> Vec<(PathBuf, Vec<boardcraft_learn::Puzzle>)> {
    let mut out = Vec::new();
    for path in files {
        match boardcraft_learn::puzzles_from_path(path) {
            Ok(list) => out.push((path.clone(), list)),
            Err(e) => print_file_error(&e, failed),
        }
    }
    out
}

fn audit_files(files: Vec<PathBuf>) -> Result<ExitCode, String> {
    use boardcraft_learn::audit::{AuditConfig, MoveAudit, audit};
    let files = if files.is_empty() {
        puzzle_files_with_mods()?
    } else {
        files
    };
    let started = Instant::now();
    let mut failed = 0usize;
    let mut count = 0usize;
    let cfg = AuditConfig::default();
    let show = |m: &MoveAudit| {
        let mut parts = vec![m.notation.clone()];
        if let Some(s) = m.score {
            parts.push(s.to_string());
        } else if let Some(g) = m.gain {
            parts.push(format!("gain {g:+} rows"));
        }
        if let Some(e) = m.eval {
            parts.push(format!("eval {e}"));
        }
        parts.join(" ")
    };
    for (path, list) in load_puzzles(&files, &mut failed) {
        let label = path.display().to_string();
        let t = Instant::now();
        let mut bad = 0;
        for p in &list {
            let a = audit(&p.exercise, &cfg);
            count += 1;
            let other = a
                .best_other
                .as_ref()
                .map_or_else(|| "none".to_owned(), show);
            outln!(
                "{} {:?}: answer {} | best other {} | {}",
                p.id,
                a.goal,
                show(&a.solution),
                other,
                if a.passed() { "ok" } else { "FAILED" }
            );
            for problem in &a.problems {
                outln!("  {label}: puzzle `{}`: {problem}", p.id);
            }
            if !a.passed() {
                bad += 1;
            }
        }
        failed += bad;
        outln!(
            "{label}: {} of {} puzzles teach a sound move ({:.1} s)",
            list.len() - bad,
            list.len(),
            t.elapsed().as_secs_f64()
        );
    }
    let time = started.elapsed().as_secs_f64();
    outln!("{count} puzzles audited, {failed} failed ({time:.1} s)");
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn rate_files(files: Vec<PathBuf>, write: bool) -> Result<ExitCode, String> {
    let files = if files.is_empty() {
        puzzle_files_with_mods()?
    } else {
        files
    };
    let mut failed = 0usize;
    let (mut changed, mut total) = (0usize, 0usize);
    for (path, list) in load_puzzles(&files, &mut failed) {
        let mut rated = HashMap::new();
        for p in &list {
            total += 1;
            match verify(&p.exercise) {
                Ok(proof) => {
                    let r = boardcraft_learn::rate::rate(&p.exercise, &proof);
                    let mark = if r.difficulty == p.difficulty {
                        ""
                    } else {
                        changed += 1;
                        " (the file says "
                    };
                    outln!(
                        "{} {:?}: {:?} ({} points: {}){mark}{}",
                        p.id,
                        p.exercise.goal,
                        r.difficulty,
                        r.points,
                        r.why,
                        if mark.is_empty() {
                            String::new()
                        } else {
                            format!("{:?})", p.difficulty)
                        }
                    );
                    rated.insert(p.id.clone(), r.difficulty);
                }
                Err(e) => {
                    outln!("{}: puzzle `{}`: FAILED: {e}", path.display(), p.id);
                    failed += 1;
                }
            }
        }
        if write {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut file: PuzzleFile =
                ron::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            for p in &mut file.puzzles {
                if let Some(d) = rated.get(&p.id) {
                    p.difficulty = *d;
                }
            }
            let header: String = text
                .lines()
                .take_while(|l| l.starts_with("//"))
                .map(|l| format!("{l}\n"))
                .collect();
            write_puzzle_file(&path, &header, &file)?;
        }
    }
    outln!("{total} puzzles rated, {changed} differ from their file, {failed} failed");
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn remake_files(files: Vec<PathBuf>) -> Result<ExitCode, String> {
    use boardcraft_learn::audit::{AuditConfig, audit};
    let cfg = AuditConfig::default();
    for path in files {
        let label = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{label}: {e}"))?;
        let mut file: PuzzleFile = ron::from_str(&text).map_err(|e| format!("{label}: {e}"))?;
        let checked = puzzles_from_ron(&label, &text, path.parent()).map_err(|e| e.to_string())?;
        let (mut kept, mut remade, mut dropped) = (0, 0, 0);
        let mut out = Vec::new();
        for (entry, puzzle) in file.puzzles.drain(..).zip(&checked) {
            let proof = verify(&puzzle.exercise)
                .ok()
                .filter(|_| audit(&puzzle.exercise, &cfg).passed());
            if let Some(proof) = proof {
                kept += 1;
                let mut entry = entry;
                // The title and hint speak of the goal's measure: written anew, so that a kept
                // puzzle says what this build checks.
                let ex = &puzzle.exercise;
                entry.title = boardcraft_learn::mine::title_for(ex.goal);
                entry.hint = boardcraft_learn::mine::hint_for(
                    ex.goal,
                    &ex.position,
                    &ex.lines[0][0],
                    proof.best,
                );
                out.push(entry);
                continue;
            }
            match boardcraft_learn::mine::remake(&puzzle.exercise.variant, &entry) {
                Some(p) => {
                    outln!(
                        "{}: remade: {} (was {})",
                        entry.id,
                        p.solutions.join(" / "),
                        entry.solutions.join(" / ")
                    );
                    remade += 1;
                    out.push(p);
                }
                None => {
                    outln!(
                        "{}: dropped (no good puzzle for {:?} in this position)",
                        entry.id,
                        entry.goal
                    );
                    dropped += 1;
                }
            }
        }
        file.puzzles = out;
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with("//"))
            .map(|l| format!("{l}\n"))
            .collect();
        write_puzzle_file(&path, &header, &file)?;
        outln!("{label}: {kept} kept, {remade} remade, {dropped} dropped");
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes a puzzle file: the header comment lines, then the RON.
fn write_puzzle_file(path: &Path, header: &str, file: &PuzzleFile) -> Result<(), String> {
    let pretty = ron::ser::PrettyConfig::new().indentor("    ".to_owned());
    let body = ron::ser::to_string_pretty(file, pretty).map_err(|e| e.to_string())?;
    std::fs::write(path, format!("{header}{body}\n"))
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn verify_files(files: Vec<PathBuf>) -> Result<ExitCode, String> {
    let files = if files.is_empty() {
        shipped_files()?
    } else {
        files
    };
    let started = Instant::now();
    let (mut puzzles, mut steps, mut failed) = (0usize, 0usize, 0usize);
    let mut ids: HashMap<String, String> = HashMap::new();
    for path in &files {
        let label = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                outln!("{label}: cannot read the file: {e}");
                failed += 1;
                continue;
            }
        };
        let t = Instant::now();
        let report =
            |failed: &mut usize, what: &str, result: Result<boardcraft_learn::Verified, String>| {
                if let Err(e) = result {
                    outln!("{label}: {what}: FAILED: {e}");
                    *failed += 1;
                    false
                } else {
                    true
                }
            };
        let base = path.parent();
        if is_puzzle_file(&text) {
            match puzzles_from_ron(&label, &text, base) {
                Ok(list) => {
                    let mut ok = 0;
                    for p in &list {
                        if let Some(other) = ids.insert(p.id.clone(), label.clone()) {
                            outln!(
                                "{label}: puzzle `{}`: FAILED: the id is used in {other} too",
                                p.id
                            );
                            failed += 1;
                            continue;
                        }
                        if report(
                            &mut failed,
                            &format!("puzzle `{}`", p.id),
                            verify(&p.exercise),
                        ) {
                            ok += 1;
                        }
                    }
                    puzzles += ok;
                    outln!(
                        "{label}: {ok} of {} puzzles verified ({:.1} s)",
                        list.len(),
                        t.elapsed().as_secs_f64()
                    );
                }
                Err(e) => print_file_error(&e, &mut failed),
            }
        } else {
            match lesson_from_ron(&label, &text, base) {
                Ok(lesson) => {
                    let mut ok = 0;
                    for (i, s) in lesson.steps.iter().enumerate() {
                        if report(
                            &mut failed,
                            &format!("step {} ({})", i + 1, s.title.en),
                            verify(&s.exercise),
                        ) {
                            ok += 1;
                        }
                    }
                    steps += ok;
                    outln!(
                        "{label}: {ok} of {} lesson steps verified ({:.1} s)",
                        lesson.steps.len(),
                        t.elapsed().as_secs_f64()
                    );
                }
                Err(e) => print_file_error(&e, &mut failed),
            }
        }
    }
    let time = started.elapsed().as_secs_f64();
    if failed > 0 {
        outln!("{puzzles} puzzles, {steps} lesson steps verified, {failed} failed ({time:.1} s)");
        Ok(ExitCode::FAILURE)
    } else {
        outln!("{puzzles} puzzles, {steps} lesson steps verified ({time:.1} s)");
        Ok(ExitCode::SUCCESS)
    }
}

fn print_file_error(e: &FileError, failed: &mut usize) {
    outln!("{e}");
    *failed += e.problems.len().max(1);
}

fn mine_cmd(variant: &str, options: MineOptions, out: Option<&Path>) -> Result<ExitCode, String> {
    let v = Variant::resolve(variant).map_err(|e| e.to_string())?;
    let mut existing: Vec<PuzzleEntry> = Vec::new();
    if let Some(path) = out.filter(|p| p.exists()) {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file: PuzzleFile =
            ron::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        existing = file.puzzles;
    }
    let known: HashSet<String> = existing.iter().map(|p| p.position.clone()).collect();
    let started = Instant::now();
    let found = mine(&v, options, &known, |p| {
        eprintln!(
            "games {:>4}  puzzles {:>3}  ({:.0} s)",
            p.games,
            p.found,
            started.elapsed().as_secs_f64()
        )
    });
    let mut next = existing.len() + 1;
    let taken: HashSet<String> = existing.iter().map(|p| p.id.clone()).collect();
    let mut all = existing;
    for mut p in found.clone() {
        loop {
            let id = format!("{}-{next}", v.name);
            next += 1;
            if !taken.contains(&id) {
                p.id = id;
                break;
            }
        }
        all.push(p);
    }
    let file = PuzzleFile {
        format_version: FORMAT_VERSION,
        puzzles: all,
    };
    let pretty = ron::ser::PrettyConfig::new().indentor("    ".to_owned());
    let body = ron::ser::to_string_pretty(&file, pretty).map_err(|e| e.to_string())?;
    let text = format!(
        "// Puzzles for {} ({}), mined from self-play games by `boardcraft-cli puzzles mine`\n// and proven by `boardcraft-cli puzzles verify` (the listed first moves reach the goal\n// against every defence; no other first move does).\n{body}\n",
        v.name, v.title
    );
    match out {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            outln!(
                "{}: {} new puzzles, {} in the file ({:.0} s)",
                path.display(),
                found.len(),
                file.puzzles.len(),
                started.elapsed().as_secs_f64()
            );
        }
        None => out!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
