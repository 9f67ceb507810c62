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

#[test]
fn show_prints_the_board_and_side_to_move() {
    let out = cli(&["show", "focus", "--after", "d2-d3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("Black to move"), "{text}");
}
