//! `puzzles verify` and `puzzles mine`: the Learn content's proofs and its source.
use std::{
    collections::{HashMap, HashSet},
    path::{Path, PathBuf},
    process::ExitCode,
    time::Instant,
};

use boardcraft_learn::{
    FileError, PuzzleEntry, PuzzleFile, format::FORMAT_VERSION, is_puzzle_file, lesson_from_ron,
    manifest_from_ron, mine::mine, puzzles_from_ron, shipped_assets, verify,
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
    },
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    match args.command {
        Command::Verify { files } => verify_files(files),
        Command::Mine {
            variant,
            count,
            seed,
            max_games,
            out,
        } => mine_cmd(&variant, count, seed, max_games, out.as_deref()),
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
                println!("{label}: cannot read the file: {e}");
                failed += 1;
                continue;
            }
        };
        let t = Instant::now();
        let report =
            |failed: &mut usize, what: &str, result: Result<boardcraft_learn::Verified, String>| {
                if let Err(e) = result {
                    println!("{label}: {what}: FAILED: {e}");
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
                            println!(
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
                    println!(
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
                    println!(
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
        println!("{puzzles} puzzles, {steps} lesson steps verified, {failed} failed ({time:.1} s)");
        Ok(ExitCode::FAILURE)
    } else {
        println!("{puzzles} puzzles, {steps} lesson steps verified ({time:.1} s)");
        Ok(ExitCode::SUCCESS)
    }
}

fn print_file_error(e: &FileError, failed: &mut usize) {
    println!("{e}");
    *failed += e.problems.len().max(1);
}

fn mine_cmd(
    variant: &str,
    count: usize,
    seed: u64,
    max_games: u32,
    out: Option<&Path>,
) -> Result<ExitCode, String> {
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
    let found = mine(&v, count, seed, max_games, &known, |p| {
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
            println!(
                "{}: {} new puzzles, {} in the file ({:.0} s)",
                path.display(),
                found.len(),
                file.puzzles.len(),
                started.elapsed().as_secs_f64()
            );
        }
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
