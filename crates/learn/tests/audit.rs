//! The audit: a puzzle must teach a sound move. It fails on a "longest jump" that
//! goes back home and on an answer the engine refutes, and passes on the good answers of the
//! same positions.
use boardcraft_learn::{
    audit::{AuditConfig, audit},
    puzzles_from_ron, verify,
};

/// One puzzle in a file of its own.
fn puzzle(
    variant: &str,
    position: &str,
    goal: &str,
    solutions: &[&str],
) -> boardcraft_learn::Puzzle {
    let lines: Vec<String> = solutions.iter().map(|s| format!("\"{s}\"")).collect();
    let text = format!(
        "(format_version: 1, puzzles: [(id: \"t\", variant: \"{variant}\", position: \"{position}\", goal: {goal}, solutions: [{}], difficulty: Easy, title: (en: \"t\", ru: \"t\"), hint: (en: \"h\", ru: \"h\"))])",
        lines.join(", ")
    );
    puzzles_from_ron("t.ron", &text, None).unwrap().remove(0)
}

/// The old `ugolki-9qum-2`: Black's chain with the most jumps, g4:g6:g8:e8, runs back towards
/// Black's own corner.
const BACKWARD: &str = "5B1B/6BB/5B1B/6BB/1W4B1/W1WW4/W2WW3/W1W5 b 7";

#[test]
fn a_longest_jump_back_home_fails_the_audit() {
    let old = puzzle("ugolki-9qum", BACKWARD, "LongestJump", &["g4:g6:g8:e8"]);
    let a = audit(&old.exercise, &AuditConfig::default());
    assert!(!a.passed(), "{a:?}");
    assert_eq!(a.solution.gain, Some(-2));
    assert!(
        a.problems.iter().any(|p| p.contains("gains -2 rows")),
        "{:?}",
        a.problems
    );
    // Nor does it verify any more: the goal is the jump that gains the most ground.
    assert!(verify(&old.exercise).is_err());
}

#[test]
fn the_jump_that_gains_most_passes_the_audit() {
    // Two chains gain 4 rows with 2 jumps each: both are the answer.
    let new = puzzle(
        "ugolki-9qum",
        BACKWARD,
        "LongestJump",
        &["h7:f7:f5", "h6:h4:f4"],
    );
    let proof = verify(&new.exercise).unwrap();
    assert_eq!(proof.first_moves.len(), 2);
    let a = audit(&new.exercise, &AuditConfig::default());
    assert!(a.passed(), "{:?}", a.problems);
    assert_eq!(a.solution.gain, Some(4));
}

/// The old `focus-5`: `+e3` and `e2-e3` capture the most (one piece), but the engine finds
/// `+d6` far better.
const BLUNDER: &str = "4/WW1B1W/1B1(WBBWB)2B1/1WW3W1/1BBW1(BBW)2/1W2(BBWBW)1W1/BBWW1B/4 w 16 reserve=1,0 captured=2,1";

#[test]
fn a_capture_the_engine_refutes_fails_the_audit() {
    let p = puzzle("focus", BLUNDER, "CaptureMost", &["e2-e3", "+e3"]);
    // The goal's measure is satisfied …
    verify(&p.exercise).unwrap();
    // … but the move is a blunder.
    let a = audit(&p.exercise, &AuditConfig::default());
    assert!(!a.passed());
    let sol = a.solution.eval.unwrap();
    let other = a.best_other.as_ref().and_then(|o| o.eval).unwrap();
    assert!(other.0 - sol.0 > AuditConfig::default().margin, "{a:?}");
    assert!(a.problems[0].contains("clearly worse"), "{:?}", a.problems);
}
