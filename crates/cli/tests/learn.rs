//! Learn on the command line: positions as text in every command and the engine protocol,
//! and `puzzles verify` passing on the shipped files and failing on a wrong or non-unique
//! solution.
use std::{
    io::Write,
    process::{Command, Output, Stdio},
};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardcraft-cli"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("boardcraft-cli runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

const AFTER: &str = "5BBB/5BBB/5BBB/8/W7/1WW5/WWW5/WWW5 b 1";

#[test]
fn position_prints_the_text_that_the_other_commands_read() {
    let out = cli(&["position", "ugolki-9qum", "--after", "a3-a4"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), format!("{AFTER}\n"));
    let by_text = stdout(&cli(&["moves", "ugolki-9qum", "--position", AFTER]));
    let by_moves = stdout(&cli(&["moves", "ugolki-9qum", "--after", "a3-a4"]));
    assert_eq!(by_text, by_moves);
    assert!(by_text.lines().count() > 5);
    let show = stdout(&cli(&["show", "ugolki-9qum", "--position", AFTER]));
    assert!(show.contains(&format!("position: {AFTER}")), "{show}");
    let perft = cli(&["perft", "ugolki-9qum", "--position", AFTER, "--depth", "2"]);
    assert!(perft.status.success());
    let think = cli(&[
        "think",
        "ugolki-9qum",
        "--position",
        AFTER,
        "--after",
        "h6-h5",
        "--nodes",
        "2000",
    ]);
    assert!(think.status.success(), "{think:?}");
    let bad = cli(&["moves", "ugolki-9qum", "--position", "5BBB w 0"]);
    assert!(!bad.status.success());
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr).trim(),
        "error: position text, column 1: the board has 1 rows separated by `/`, this variant's has 8"
    );
}

#[test]
fn the_engine_takes_a_position_as_text() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardcraft-cli"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = format!(
        "variant ugolki-9qum\nposition text {AFTER} moves h6-h5\nmoves\nposition text 8 w 0\nquit\n"
    );
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = stdout(&cli(&["moves", "ugolki-9qum", "--after", "a3-a4 h6-h5"]));
    let listed = text
        .lines()
        .find(|l| l.starts_with("moves "))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        listed.trim_start_matches("moves ").split(' ').count(),
        expected.lines().count()
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("error position text, column 1:")
                || l.starts_with("error") && l.contains("column 1")),
        "{text}"
    );
}

#[test]
fn puzzles_verify_passes_on_the_shipped_files() {
    let out = cli(&["puzzles", "verify"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let last = text.lines().last().unwrap();
    assert!(
        last.contains(" puzzles, ") && last.contains(" lesson steps verified"),
        "{last}"
    );
}

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("boardcraft-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const PUZZLE: &str = r#"(
    format_version: 1,
    puzzles: [
        (
            id: "t-1",
            variant: "ugolki-9qum",
            position: "5B2/5BBB/5BBB/8/8/1B1B4/WWW2W2/WWWW2W1 w 20",
            goal: LongestJump,
            solutions: ["SOLUTION"],
            difficulty: Easy,
            title: (en: "t", ru: "т"),
            hint: (en: "h", ru: "х"),
        ),
    ],
)"#;

#[test]
fn puzzles_verify_fails_on_a_wrong_or_incomplete_solution() {
    let right = write("right.ron", &PUZZLE.replace("SOLUTION", "a1:a3:c3:e3"));
    let out = cli(&["puzzles", "verify", right.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("\n1 puzzles, 0 lesson steps verified ("),
        "{}",
        stdout(&out)
    );

    let wrong = write("wrong.ron", &PUZZLE.replace("SOLUTION", "c1:c3:e3"));
    let out = cli(&["puzzles", "verify", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("puzzle `t-1`: FAILED: the listed first move(s) c1:c3:e3 do not score best (gain +6 rows, 3 jump(s)); the moves that do: a1:a3:c3:e3"),
        "{text}"
    );
    assert!(
        text.contains("0 puzzles, 0 lesson steps verified, 1 failed"),
        "{text}"
    );
}

#[test]
fn puzzles_audit_fails_on_a_jump_back_home_and_passes_on_the_best_jump_forward() {
    // The old ugolki-9qum-2: Black's chain with the most jumps goes back towards h8.
    let puzzle = PUZZLE
        .replace(
            "5B2/5BBB/5BBB/8/8/1B1B4/WWW2W2/WWWW2W1 w 20",
            "5B1B/6BB/5B1B/6BB/1W4B1/W1WW4/W2WW3/W1W5 b 7",
        )
        .replace("[\"SOLUTION\"]", "[SOLUTIONS]");
    let back = write("back.ron", &puzzle.replace("SOLUTIONS", "\"g4:g6:g8:e8\""));
    let out = cli(&["puzzles", "audit", back.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("t-1 LongestJump: answer g4:g6:g8:e8 gain -2 rows, 3 jump(s)"),
        "{text}"
    );
    assert!(text.contains("FAILED"), "{text}");
    assert!(text.contains("1 puzzles audited, 1 failed"), "{text}");

    let forward = write(
        "forward.ron",
        &puzzle.replace("SOLUTIONS", "\"h7:f7:f5\", \"h6:h4:f4\""),
    );
    let out = cli(&["puzzles", "audit", forward.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("1 puzzles audited, 0 failed"),
        "{}",
        stdout(&out)
    );
}
