//! The engine protocol end to end: our binary as an engine, and `match` driving it.
use std::{
    io::Write,
    process::{Command, Stdio},
};

const BIN: &str = env!("CARGO_BIN_EXE_boardcraft-cli");

fn engine_session(script: &str) -> Vec<String> {
    let mut child = Command::new(BIN)
        .args(["engine", "--level", "novice"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_session_sets_a_position_and_searches_it() {
    let out = engine_session(
        "variant focus\nposition startpos moves d2-d3 c2-c3\nisready\ngo nodes 2000\neval\nposition startpos moves d2-d9\nquit\n",
    );
    assert_eq!(out[0], "info variant focus (Focus)");
    assert_eq!(out[1], "readyok");
    assert!(out[2].starts_with("info depth "), "{out:?}");
    assert!(out[2].contains(" nodes 2000 "), "{out:?}");
    let best = out[3].strip_prefix("bestmove ").unwrap();
    // The move is legal where it was asked: `moves` lists it, and playing it is accepted.
    let moves = engine_session(&format!(
        "variant focus\nposition startpos moves d2-d3 c2-c3\nmoves\nposition startpos moves d2-d3 c2-c3 {best}\nisready\n"
    ));
    assert!(moves[1].split_whitespace().any(|m| m == best), "{moves:?}");
    assert_eq!(moves[2], "readyok", "{moves:?}");
    assert!(
        out[4].starts_with("eval ") && out[4].ends_with("side White"),
        "{out:?}"
    );
    assert!(
        out[5].starts_with("error "),
        "an illegal move is refused: {out:?}"
    );
}

#[test]
fn match_drives_an_external_engine() {
    let engine = format!("engine:{BIN} engine --level novice");
    let out = Command::new(BIN)
        .args([
            "match",
            "focus-6x6",
            "--a",
            &engine,
            "--b",
            "greedy",
            "--games",
            "2",
            "--opening-plies",
            "2",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record = text
        .lines()
        .find(|l| l.starts_with("A engine:"))
        .unwrap_or_else(|| panic!("{text}"));
    // "+W =D -L": two games in all.
    let counts: Vec<u32> = record
        .split_whitespace()
        .filter_map(|w| w.strip_prefix(['+', '=', '-']).and_then(|n| n.parse().ok()))
        .collect();
    assert_eq!(counts.iter().sum::<u32>(), 2, "{record}");
}
