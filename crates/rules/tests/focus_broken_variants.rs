//! Every broken Focus variant file under `tests/broken/focus/` is rejected with the expected
//! problems: file label, line (and column for syntax errors), field and message.
use std::path::{Path, PathBuf};

use boardcraft_rules::{Variant, variant::Problem};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/broken/focus")
}

/// `(line, column, field, words the message must contain)` for each expected problem.
type Expected = (usize, Option<usize>, Option<&'static str>, &'static str);

fn expectations() -> Vec<(&'static str, Vec<Expected>)> {
    vec![
        (
            "setup-outside-board.ron",
            vec![(
                15,
                None,
                Some(r#"rules.setup["a4"]"#),
                "a4 is not a square of the board",
            )],
        ),
        (
            "height-limit-zero.ron",
            vec![(
                13,
                None,
                Some("rules.height_limit"),
                "height_limit is 0; it must be between 1 and 15",
            )],
        ),
        (
            "unequal-piece-counts.ron",
            vec![(
                15,
                None,
                Some("rules.setup"),
                "the set-up gives White 2 pieces and Black 1",
            )],
        ),
        (
            "bad-square-name.ron",
            vec![(
                15,
                None,
                Some(r#"rules.setup["c33x"]"#),
                "`c33x` is not a square name",
            )],
        ),
        (
            "duplicate-square.ron",
            vec![(
                15,
                None,
                Some(r#"rules.setup["b3"]"#),
                "b3 is listed twice in the set-up",
            )],
        ),
        (
            "stack-too-tall.ron",
            vec![(
                15,
                None,
                Some(r#"rules.setup["b3"]"#),
                "the stack on b3 has 3 pieces, more than height_limit 2",
            )],
        ),
        (
            "wrong-piece-total.ron",
            vec![(
                14,
                None,
                Some("rules.pieces_per_side"),
                "pieces_per_side is 4, but each side has 2 pieces in the set-up and 1 in reserve",
            )],
        ),
        (
            "ragged-board.ron",
            vec![
                (
                    7,
                    None,
                    Some("rules.board[1]"),
                    "row 2 (\"...\") has 3 characters but the top row has 4",
                ),
                (
                    7,
                    None,
                    Some("rules.board[2]"),
                    "row 3 (\"..o.\") contains `o`",
                ),
            ],
        ),
        (
            "board-too-large.ron",
            vec![(
                7,
                None,
                Some("rules.board[0]"),
                "the top row has 18 files; a board has 1 to 16 files",
            )],
        ),
        (
            "unknown-field.ron",
            vec![(
                19,
                Some(9),
                None,
                "unknown field `max_stack` in `Focus`; the fields allowed here are: board, height_limit",
            )],
        ),
    ]
}

fn matches(p: &Problem, &(line, column, field, words): &Expected) -> bool {
    p.line == Some(line)
        && p.column == column
        && p.field.as_deref() == field
        && p.message.contains(words)
}

#[test]
fn every_broken_focus_file_is_rejected_with_its_problems() {
    let expected = expectations();
    let mut on_disk: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.ends_with(".ron"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = expected.iter().map(|(f, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "every broken file needs an expectation");

    for (file, problems) in expected {
        let path = dir().join(file);
        let err = Variant::from_path(&path).expect_err(file);
        assert_eq!(err.file, path.display().to_string());
        assert_eq!(
            err.problems.len(),
            problems.len(),
            "{file}: expected {} problem(s), got:\n{err}",
            problems.len()
        );
        for (p, want) in err.problems.iter().zip(&problems) {
            assert!(matches(p, want), "{file}: expected {want:?}, got {p:?}");
        }
    }
}

#[test]
fn the_printed_error_names_file_line_field_and_problem() {
    let path = dir().join("setup-outside-board.ron");
    let err = Variant::from_path(&path).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}:15: field `rules.setup[\"a4\"]`: a4 is not a square of the board (outside it, or `#` in `board`)",
            path.display()
        )
    );
}

/// All problems at once: a file with several independent mistakes reports each of them.
#[test]
fn several_problems_are_reported_together() {
    let text = r#"(
        format_version: 1, name: "many", title: "Many",
        rules: Focus(
            board: ["....", "....", "....", "...."],
            height_limit: 99,
            pieces_per_side: 0,
            setup: { "a1": "", "b1": "WX", "q1": "W" },
            first_player: White,
            repetition_draw: Some(1),
            ply_cap: Some(0),
            draw_is_first_player_win: false,
        ),
    )"#;
    let err = Variant::from_ron("many.ron", text).unwrap_err();
    let fields: Vec<_> = err
        .problems
        .iter()
        .map(|p| p.field.clone().unwrap())
        .collect();
    assert_eq!(
        fields,
        [
            "rules.height_limit",
            r#"rules.setup["a1"]"#,
            r#"rules.setup["b1"]"#,
            r#"rules.setup["q1"]"#,
            "rules.pieces_per_side",
            "rules.repetition_draw",
            "rules.ply_cap",
        ],
        "{err}"
    );
    let text = err.to_string();
    for words in [
        "the stack on a1 is empty",
        "`X` is not a piece",
        "`q1` is not a square name",
        "pieces_per_side is 0",
        "repetition_draw is 1",
        "ply_cap 0",
    ] {
        assert!(text.contains(words), "missing {words:?} in\n{text}");
    }
}

#[test]
fn a_board_with_an_isolated_square_is_rejected() {
    let text = r##"(
        format_version: 1, name: "islands", title: "Islands",
        rules: Focus(
            board: ["..#.", "....", "#...", ".#.."],
            height_limit: 5,
            pieces_per_side: 1,
            setup: { "b4": "W", "b3": "B" },
            first_player: White,
            repetition_draw: None,
            ply_cap: None,
        ),
    )"##;
    let err = Variant::from_ron("islands.ron", text).unwrap_err();
    assert_eq!(err.problems.len(), 1, "{err}");
    assert!(err.to_string().contains("isolated: a1"), "{err}");
}
