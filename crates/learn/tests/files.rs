//! Puzzle and lesson files: the shipped ones load and are proven; broken files get their
//! errors (file, line, field); a solution that is not unique or not right fails verification.
use boardcraft_learn::{
    Judgement, is_puzzle_file, lesson_from_ron, manifest_from_ron, puzzles_from_ron,
    shipped_assets, verify,
};

fn shipped(folder: &str) -> Vec<(String, String)> {
    let dir = shipped_assets().join(folder);
    let manifest = std::fs::read_to_string(dir.join("manifest.ron")).unwrap();
    manifest_from_ron("manifest.ron", &manifest)
        .unwrap()
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(dir.join(&f)).unwrap();
            (format!("assets/{folder}/{f}"), text)
        })
        .collect()
}

#[test]
fn every_shipped_puzzle_and_step_is_proven() {
    let mut puzzles = 0;
    for (file, text) in shipped("puzzles") {
        assert!(is_puzzle_file(&text), "{file}");
        for p in puzzles_from_ron(&file, &text, None).unwrap_or_else(|e| panic!("{e}")) {
            verify(&p.exercise).unwrap_or_else(|e| panic!("{file}: {}: {e}", p.id));
            // The listed line is judged right move by move.
            let line = &p.exercise.lines[0];
            for k in (1..=line.len()).step_by(2) {
                let expected = if k == line.len() {
                    Judgement::Solved
                } else {
                    Judgement::Continue {
                        reply: line[k].clone(),
                    }
                };
                assert_eq!(p.exercise.judge(&line[..k]), expected, "{file}: {}", p.id);
            }
            puzzles += 1;
        }
    }
    assert!(puzzles >= 200, "{puzzles} puzzles shipped");
    for (file, text) in shipped("lessons") {
        assert!(!is_puzzle_file(&text), "{file}");
        let lesson = lesson_from_ron(&file, &text, None).unwrap_or_else(|e| panic!("{e}"));
        for (i, s) in lesson.steps.iter().enumerate() {
            verify(&s.exercise).unwrap_or_else(|e| panic!("{file}: step {}: {e}", i + 1));
        }
    }
}

const SAMPLE: &str = r#"(
    format_version: 1,
    puzzles: [
        (
            id: "t-1",
            variant: "ugolki-9qum",
            position: "5B2/5BBB/5BBB/8/8/1B1B4/WWW2W2/WWWW2W1 w 20",
            goal: LongestJump,
            solutions: ["a1:a3:c3:e3"],
            difficulty: Easy,
            title: (en: "t", ru: "т"),
            hint: (en: "h", ru: "х"),
        ),
    ],
)"#;

fn puzzle_error(text: &str) -> String {
    puzzles_from_ron("p.ron", text, None)
        .map(|_| ())
        .unwrap_err()
        .to_string()
}

#[test]
fn broken_puzzle_files_name_file_line_and_field() {
    assert!(puzzles_from_ron("p.ron", SAMPLE, None).is_ok());
    assert_eq!(
        puzzle_error(&SAMPLE.replace("goal:", "gaol:")),
        "p.ron:8:13: unknown field `gaol` in a puzzle; the fields allowed here are: id, variant, position, goal, solutions, difficulty, title, hint, source"
    );
    assert_eq!(
        puzzle_error(&SAMPLE.replace("            difficulty: Easy,\n", "")),
        "p.ron:12:9: the field `difficulty` in a puzzle is missing"
    );
    assert_eq!(
        puzzle_error(&SAMPLE.replace("LongestJump", "LongJump")),
        "p.ron:8:19: `LongJump` is not a known choice for `goal`; use one of: WinIn, LongestJump, ReachTarget, LeaveHome, CaptureMost, NoMoveIn, RowIn, TakeGipfIn, Play"
    );
    assert_eq!(
        puzzle_error(&SAMPLE.replace("WWW2W2/", "WWW2X2/")),
        "p.ron:7: field `puzzles[0].position`: position text, column 29: `X` is not a piece: write `W` (White), `B` (Black) or a number of empty squares"
    );
    assert_eq!(
        puzzle_error(&SAMPLE.replace("a1:a3:c3:e3", "a1:a3:c3:e5")),
        "p.ron:9: field `puzzles[0].solutions[0]`: move 1 of the line: `a1:a3:c3:e5` is not a legal move here: c3 to e5 is diagonal; pieces here move only orthogonally"
    );
    assert_eq!(
        puzzle_error(&SAMPLE.replace("ugolki-9qum", "ugolki-10qum")),
        format!(
            "p.ron:6: field `puzzles[0].variant`: ugolki-10qum: no shipped variant is called `ugolki-10qum`; shipped: {}",
            boardcraft_rules::shipped_variants()
                .collect::<Vec<_>>()
                .join(", ")
        )
    );
    assert_eq!(
        puzzle_error(&SAMPLE.replace("ru: \"х\"", "ru: \" \"")),
        "p.ron:12: field `puzzles[0].hint.ru`: the Russian text is empty"
    );
    assert_eq!(
        puzzle_error(&SAMPLE.replace("\"t-1\"", "\"T 1\"")),
        "p.ron:5: field `puzzles[0].id`: `T 1` is not a usable id: use lower-case letters, digits and '-'"
    );
    let two = SAMPLE.replace(
        "    ],\n)",
        &format!(
            "{}    ],\n)",
            &SAMPLE[SAMPLE.find("        (").unwrap()..SAMPLE.find("    ],").unwrap()]
        ),
    );
    assert_eq!(
        puzzle_error(&two),
        "p.ron:15: field `puzzles[1].id`: the id `t-1` is used by puzzles[0] already"
    );
    assert_eq!(
        puzzle_error(&SAMPLE.replace("format_version: 1", "format_version: 2")),
        "p.ron:2: field `format_version`: format_version 2 is not supported; this version of Boardcraft reads format_version 1"
    );
}

#[test]
fn broken_lesson_files_name_file_line_and_field() {
    let text = std::fs::read_to_string(shipped_assets().join("lessons/ugolki.ron")).unwrap();
    assert!(lesson_from_ron("l.ron", &text, None).is_ok());
    let broken = text.replacen("right:", "rigth:", 1);
    let e = lesson_from_ron("l.ron", &broken, None)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("l.ron:") && e.contains("unknown field `rigth` in a lesson step"),
        "{e}"
    );
    let family = text.replacen("family: \"Race\"", "family: \"Gipf\"", 1);
    let e = lesson_from_ron("l.ron", &family, None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(
            "field `steps[0].variant`: `ugolki-9qum` is a Race game; this lesson teaches Gipf"
        ) || e.contains("is a Race game; this lesson teaches Gipf"),
        "{e}"
    );
}

#[test]
fn a_wrong_or_non_unique_solution_fails() {
    let wrong = SAMPLE.replace("a1:a3:c3:e3", "c1:c3:e3");
    let p = &puzzles_from_ron("p.ron", &wrong, None).unwrap()[0];
    let e = verify(&p.exercise).unwrap_err();
    assert!(e.starts_with("the listed first move(s) "), "{e}");
    // A shipped puzzle with two equal first moves, with one of them left out.
    let mut checked = 0;
    for (file, text) in shipped("puzzles") {
        for p in puzzles_from_ron(&file, &text, None).unwrap() {
            if p.exercise.lines.len() == 2 && checked < 3 {
                let mut ex = p.exercise.clone();
                ex.lines.pop();
                let e = verify(&ex).unwrap_err();
                assert!(
                    e.starts_with("the solution is not unique: "),
                    "{file} {}: {e}",
                    p.id
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3, "shipped puzzles with two solutions");
    // A win-in-N whose line is cut short does not reach the goal.
    let mut cut = 0;
    for (file, text) in shipped("puzzles") {
        for p in puzzles_from_ron(&file, &text, None).unwrap() {
            if p.exercise.lines[0].len() >= 3 && cut == 0 {
                let mut ex = p.exercise.clone();
                ex.lines[0].truncate(1);
                ex.lines.truncate(1);
                let e = verify(&ex).unwrap_err();
                assert!(
                    e.contains("does not reach the goal yet")
                        || e.starts_with("the solution is not unique"),
                    "{file} {}: {e}",
                    p.id
                );
                cut += 1;
            }
        }
    }
    assert_eq!(cut, 1);
    // A wrong first move is judged wrong.
    let right = &puzzles_from_ron("p.ron", SAMPLE, None).unwrap()[0];
    let mut moves = Vec::new();
    use boardcraft_rules::Position;
    right.exercise.position.legal_moves(&mut moves);
    let other = moves
        .iter()
        .find(|m| !right.exercise.is_right_first_move(m))
        .unwrap();
    assert_eq!(
        right.exercise.judge(std::slice::from_ref(other)),
        Judgement::Wrong
    );
}

/// A lesson of two steps; the second draws on the board.
const DRAWING: &str = r#"(
    format_version: 1,
    id: "d",
    family: "Race",
    title: (en: "d", ru: "д"),
    steps: [
        (
            title: (en: "one", ru: "один"),
            variant: "ugolki-9qum",
            position: "5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW5 w 0",
            text: (en: "t", ru: "т"),
            goal: Play,
            solutions: ["a3-a4"],
            right: (en: "r", ru: "р"),
            wrong: (en: "w", ru: "в"),
        ),
        (
            title: (en: "two", ru: "два"),
            variant: "ugolki-9qum",
            position: "5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW5 w 0",
            text: (en: "t", ru: "т"),
            goal: Play,
            solutions: ["b2:b4"],
            right: (en: "r", ru: "р"),
            wrong: (en: "w", ru: "в"),
            marks: ["h8", "MARK"],
            arrows: ["ARROW"],
        ),
    ],
)"#;

#[test]
fn marks_and_arrows_are_read_and_checked_on_the_board() {
    let good = DRAWING.replace("MARK", "g8").replace("ARROW", "b2:b4");
    let lesson = lesson_from_ron("d.ron", &good, None).unwrap_or_else(|e| panic!("{e}"));
    assert!(lesson.steps[0].marks.is_empty() && lesson.steps[0].arrows.is_empty());
    let step = &lesson.steps[1];
    let marks: Vec<String> = step.marks.iter().map(|m| m.to_string()).collect();
    assert_eq!(marks, ["h8", "g8"]);
    assert_eq!(step.arrows.len(), 1);
    let hops: Vec<String> = step.arrows[0]
        .hops()
        .map(|(a, b)| format!("{a}-{b}"))
        .collect();
    assert_eq!(hops, ["b2-b4"]);

    let off = DRAWING.replace("MARK", "i9").replace("ARROW", "b2:b4");
    assert_eq!(
        lesson_from_ron("d.ron", &off, None)
            .unwrap_err()
            .to_string(),
        "d.ron:26: field `steps[1].marks[1]`: `i9` is not a square of this board"
    );
    let malformed = DRAWING.replace("MARK", "g8").replace("ARROW", "b2");
    assert_eq!(
        lesson_from_ron("d.ron", &malformed, None)
            .unwrap_err()
            .to_string(),
        "d.ron:27: field `steps[1].arrows[0]`: `b2` is not an arrow: write two or more squares joined by ':' or '-', e.g. \"e4:c4:a4\""
    );
}

#[test]
fn the_shipped_courses_draw_on_the_board() {
    for course in ["ugolki", "halma", "chinese-checkers", "focus", "gipf"] {
        let path = shipped_assets().join(format!("lessons/{course}.ron"));
        let lesson = boardcraft_learn::lesson_from_path(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            lesson.steps.iter().any(|s| !s.arrows.is_empty()),
            "{course}: no arrow"
        );
        assert!(
            lesson.steps.iter().any(|s| !s.marks.is_empty()),
            "{course}: no marked square"
        );
    }
    // "Jump from b2 over b3 to b4": the jump drawn, the jumped piece marked.
    let ugolki =
        boardcraft_learn::lesson_from_path(&shipped_assets().join("lessons/ugolki.ron")).unwrap();
    let step = ugolki
        .steps
        .iter()
        .find(|s| s.title.en == "Jumping over your own piece")
        .unwrap();
    assert_eq!(step.marks[0].to_string(), "b3");
    let hops: Vec<String> = step.arrows[0]
        .hops()
        .map(|(a, b)| format!("{a}:{b}"))
        .collect();
    assert_eq!(hops, ["b2:b4"]);
}
