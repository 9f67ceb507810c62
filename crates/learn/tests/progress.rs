//! Progress that helps: a wrong try says why, and the next puzzle is the player's
//! level's.
use boardcraft_learn::{
    Difficulty, Puzzle,
    progress::{WhyWrong, next_puzzle, player_level},
    puzzles_from_ron,
};
use boardcraft_rules::Position;

fn puzzle(id: &str, position: &str, goal: &str, solutions: &[&str], difficulty: &str) -> String {
    let lines: Vec<String> = solutions.iter().map(|s| format!("\"{s}\"")).collect();
    format!(
        "(id: \"{id}\", variant: \"ugolki-9qum\", position: \"{position}\", goal: {goal}, solutions: [{}], difficulty: {difficulty}, title: (en: \"t\", ru: \"t\"), hint: (en: \"h\", ru: \"h\"))",
        lines.join(", ")
    )
}

fn file(entries: &[String]) -> Vec<Puzzle> {
    let text = format!("(format_version: 1, puzzles: [{}])", entries.join(", "));
    puzzles_from_ron("t.ron", &text, None).unwrap_or_else(|e| panic!("{e}"))
}

const JUMPS: &str = "5B1B/6BB/5B1B/6BB/1W4B1/W1WW4/W2WW3/W1W5 b 7";

#[test]
fn a_wrong_jump_says_how_much_ground_it_gains_against_the_best() {
    let p = &file(&[puzzle(
        "a",
        JUMPS,
        "LongestJump",
        &["h7:f7:f5", "h6:h4:f4"],
        "Easy",
    )])[0];
    let ex = &p.exercise;
    let back = ex.position.parse_move("g4:g6:g8:e8").unwrap();
    let why = ex.why_wrong(&back).unwrap();
    assert_eq!(
        why,
        WhyWrong::LessGround {
            gain: -2,
            jumps: 3,
            best_gain: 4,
            best_jumps: 2
        }
    );
    assert_eq!(
        why.text("en"),
        "This move goes 2 rows back towards the far corner; a better one gains 4 rows."
    );
    assert!(why.text("ru").contains("4 ряда"), "{}", why.text("ru"));
    let right = ex.position.parse_move("h7:f7:f5").unwrap();
    assert_eq!(ex.why_wrong(&right), None);
}

#[test]
fn a_wrong_try_at_an_in_n_goal_names_the_defence() {
    // The shipped 9qum "into the corner" puzzles: every other first move has a defence.
    let path = boardcraft_learn::shipped_assets().join("puzzles/ugolki-9qum.ron");
    let list = boardcraft_learn::puzzles_from_path(&path).unwrap();
    let p = list
        .iter()
        .find(|p| p.exercise.goal.kind() == "into-corner" && p.exercise.goal.moves() == 2)
        .unwrap();
    let ex = &p.exercise;
    let mut moves = Vec::new();
    ex.position.legal_moves(&mut moves);
    let wrong = moves.iter().find(|m| !ex.is_right_first_move(m)).unwrap();
    match ex.why_wrong(wrong).unwrap() {
        WhyWrong::Escapes { defence } => {
            let mut after = ex.position.clone();
            after.play(wrong).unwrap();
            assert!(after.parse_move(&defence).is_ok(), "{defence}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_next_puzzle_is_an_unsolved_one_of_the_players_level() {
    let e = |id: &str, d: &str| puzzle(id, JUMPS, "LongestJump", &["h7:f7:f5", "h6:h4:f4"], d);
    let list = file(&[
        e("e1", "Easy"),
        e("e2", "Easy"),
        e("m1", "Medium"),
        e("e3", "Easy"),
        e("m2", "Medium"),
        e("h1", "Hard"),
    ]);
    let none = |_: &str| false;
    assert_eq!(player_level(&list, none), Difficulty::Easy);
    assert_eq!(next_puzzle(&list, none, None).unwrap().id, "e1");
    assert_eq!(next_puzzle(&list, none, Some("e2")).unwrap().id, "e3");
    // Two of three easy ones solved: the player is at the medium level now.
    let solved = |id: &str| id == "e1" || id == "e2";
    assert_eq!(player_level(&list, solved), Difficulty::Medium);
    assert_eq!(next_puzzle(&list, solved, Some("e2")).unwrap().id, "m1");
    assert_eq!(next_puzzle(&list, solved, Some("m1")).unwrap().id, "m2");
    let solved = |id: &str| id != "e3" && id != "h1";
    assert_eq!(player_level(&list, solved), Difficulty::Hard);
    assert_eq!(next_puzzle(&list, solved, None).unwrap().id, "h1");
    // Every level mostly solved: the player is an expert, and no expert puzzle is left, so the
    // nearest level's (here the only unsolved one, an easy one).
    let solved = |id: &str| id != "e3";
    assert_eq!(player_level(&list, solved), Difficulty::Expert);
    assert_eq!(next_puzzle(&list, solved, Some("h1")).unwrap().id, "e3");
    assert!(next_puzzle(&list, |_| true, None).is_none());
}
