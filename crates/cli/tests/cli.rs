//! The CLI as a user runs it: real process, real arguments, checked output and exit status.
use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardcraft-cli"))
        .args(args)
        .output()
        .expect("boardcraft-cli runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn rules_dir() -> String {
    format!("{}/../rules", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn list_names_every_shipped_variant() {
    let out = cli(&["list"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for name in boardcraft_rules::shipped_variants() {
        assert!(
            text.lines().any(|l| l.starts_with(name)),
            "{name} missing from:\n{text}"
        );
    }
    assert!(!text.contains("INVALID"), "{text}");
}

#[test]
fn moves_of_the_focus_start_are_68_sorted_lines() {
    let out = cli(&["moves", "focus"]);
    assert!(out.status.success());
    let lines: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 68);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"d2-d3".to_owned()));
}

#[test]
fn moves_json_reports_side_and_moves() {
    let out = cli(&["moves", "focus", "--after", "d2-d3", "--json"]);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["variant"], "focus");
    assert_eq!(doc["side_to_move"], "Black");
    assert_eq!(doc["ply"], 1);
    assert!(doc["outcome"].is_null());
    assert!(!doc["moves"].as_array().unwrap().is_empty());
}

#[test]
fn an_illegal_after_line_fails_with_a_reason() {
    let out = cli(&["moves", "focus", "--after", "b7-b8"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("b7-b8"), "{err}");
}

#[test]
fn perft_prints_counts_per_depth() {
    let out = cli(&["perft", "focus", "--depth", "2"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let counts: Vec<u64> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts, vec![68, 4460]);
}

#[test]
fn validate_accepts_shipped_files_and_rejects_broken_ones() {
    let assets = format!("{}/../../assets/variants", env!("CARGO_MANIFEST_DIR"));
    let good = cli(&["validate", &format!("{assets}/focus.ron")]);
    assert!(good.status.success(), "{}", stdout(&good));
    let broken = format!("{}/tests/broken/focus/height-limit-zero.ron", rules_dir());
    let bad = cli(&["validate", &broken]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stdout(&bad).contains("height_limit"), "{}", stdout(&bad));
}

/// A `name` that differs from the file name is a warning in the errors' form: the file still
/// validates (exit status 0) unless `--deny-warnings` asks for a clean file.
#[test]
fn validate_warns_when_the_name_differs_from_the_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(format!(
        "{}/../../assets/variants/halma-16.ron",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let copy = dir.path().join("my-halma.ron");
    std::fs::write(&copy, &text).unwrap();
    let copy = copy.to_str().unwrap();
    let out = cli(&["validate", copy]);
    assert!(out.status.success(), "{}", stdout(&out));
    let text_out = stdout(&out);
    let lines: Vec<&str> = text_out.lines().collect();
    assert_eq!(lines.len(), 2, "{text_out}");
    assert!(
        lines[0].starts_with(&format!("{copy}:6: warning: field `name`: the variant is called `halma-16` but its file is `my-halma.ron`")),
        "{text_out}"
    );
    assert!(
        lines[1].starts_with(&format!("{copy}: ok, 1 warning — halma-16 (")),
        "{text_out}"
    );
    let strict = cli(&["validate", "--deny-warnings", copy]);
    assert_eq!(strict.status.code(), Some(1), "{}", stdout(&strict));
    // Named after its file: no warning, also under --deny-warnings.
    let named = dir.path().join("halma-16.ron");
    std::fs::write(&named, &text).unwrap();
    let clean = cli(&["validate", "--deny-warnings", named.to_str().unwrap()]);
    assert!(clean.status.success());
    assert!(!stdout(&clean).contains("warning"), "{}", stdout(&clean));
}

/// The renamed GIPF variants answer to their old names on the command line.
#[test]
fn former_variant_names_still_work_on_the_command_line() {
    let old = cli(&["moves", "gipf-seed"]);
    let new = cli(&["moves", "gipf-steps"]);
    assert!(
        old.status.success(),
        "{}",
        String::from_utf8_lossy(&old.stderr)
    );
    assert_eq!(stdout(&old), stdout(&new));
    assert_eq!(stdout(&new).lines().count(), 51);
    let list = stdout(&cli(&["list"]));
    assert!(
        list.lines()
            .any(|l| l.starts_with("gipf-steps ") && l.ends_with("(formerly gipf-seed)")),
        "{list}"
    );
}

#[test]
fn show_prints_the_board_and_side_to_move() {
    let out = cli(&["show", "focus", "--after", "d2-d3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("Black to move"), "{text}");
}

/// The soak's row for `name`: games, plies, illegal moves, broken invariants, panics.
fn soak_row(text: &str, name: &str) -> (u32, u64, u32, u32, u32) {
    let row = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no row for {name} in:\n{text}"));
    let f: Vec<&str> = row.split_whitespace().collect();
    (
        f[1].parse().unwrap(),
        f[2].parse().unwrap(),
        f[6].parse().unwrap(),
        f[7].parse().unwrap(),
        f[8].parse().unwrap(),
    )
}

#[test]
fn soak_plays_every_variant_with_every_check_passing() {
    let out = cli(&[
        "soak",
        "all",
        "--games",
        "2",
        "--levels",
        "random:2,greedy,novice",
    ]);
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut total_plies = 0;
    // Every shipped variant at every seat count it offers: `halma-16` for two, `halma-16/4p`.
    let mut tables = 0;
    for name in boardcraft_rules::shipped_variants() {
        let counts = boardcraft_rules::shipped_variant(name)
            .unwrap()
            .player_counts();
        for (i, n) in counts.iter().enumerate() {
            let row = if i == 0 {
                name.to_owned()
            } else {
                format!("{name}/{n}p")
            };
            let (games, plies, illegal, broken, panics) = soak_row(&text, &row);
            assert_eq!((games, illegal, broken, panics), (2, 0, 0, 0), "{row}");
            assert!(plies > 0, "{row}");
            total_plies += plies;
            tables += 1;
        }
    }
    assert!(tables > boardcraft_rules::shipped_variants().count());
    let games = 2 * tables;
    assert!(
        text.contains(&format!(
            "result: {games} games, {total_plies} plies, 0 illegal moves, 0 broken invariants, 0 panics"
        )),
        "{text}"
    );
    assert!(text.contains("endings:"), "{text}");
}

#[test]
fn a_soak_game_replays_alone_from_its_number() {
    let dir = std::env::temp_dir().join(format!("boardcraft-soak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (all, one) = (dir.join("all.log"), dir.join("one.log"));
    let args = [
        "soak",
        "focus-6x6",
        "--seed",
        "7",
        "--levels",
        "random,greedy",
    ];
    let first = cli(&[&args[..], &["--games", "3", "--log", all.to_str().unwrap()]].concat());
    assert!(first.status.success(), "{}", stdout(&first));
    let again = cli(&[
        &args[..],
        &["--games", "1", "--first-game", "2"],
        &["--log", one.to_str().unwrap()],
    ]
    .concat());
    assert!(again.status.success(), "{}", stdout(&again));
    let all = std::fs::read_to_string(&all).unwrap();
    let one = std::fs::read_to_string(&one).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(all.lines().count(), 3, "{all}");
    assert_eq!(all.lines().nth(2), one.lines().next(), "{all}\n{one}");
    assert!(one.starts_with("focus-6x6 game 2 White="), "{one}");
}

#[test]
fn soak_refuses_engines_and_empty_mixes() {
    for levels in ["engine:boardcraft-cli engine", "random:0", "wizard"] {
        let out = cli(&["soak", "focus", "--games", "1", "--levels", levels]);
        assert!(!out.status.success(), "{levels}");
    }
}

/// A reader that closes early (`| head`): the command ends quietly, killed by SIGPIPE as `seq`
/// or `yes` would be, with nothing on stderr (no "failed printing to stdout" panic, no
/// backtrace). Two commands that go on printing after the reader has gone: the engine, asked
/// again once its stdout is closed, and a soak, which prints a line per variant as it goes.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader, Write};
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;

    let spawn = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_boardcraft-cli"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first_line = |child: &mut std::process::Child| {
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        line
    };

    let mut engine = spawn(&["engine"]);
    let mut stdin = engine.stdin.take().unwrap();
    writeln!(stdin, "variant ugolki-9qum").unwrap();
    assert!(first_line(&mut engine).contains("ugolki-9qum"));
    drop(engine.stdout.take());
    // The engine answers into the closed pipe (its death may close stdin under us).
    let _ = writeln!(stdin, "moves");
    let _ = writeln!(stdin, "isready");
    drop(stdin);

    let mut soak = spawn(&["soak", "all", "--games", "5", "--seed", "1"]);
    assert!(first_line(&mut soak).starts_with("soak all"));
    drop(soak.stdout.take());

    for (what, child) in [("engine", engine), ("soak", soak)] {
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.signal(),
            Some(libc::SIGPIPE),
            "{what}: {:?}",
            out.status
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{what}: {stderr}"
        );
    }
}
