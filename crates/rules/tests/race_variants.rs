//! Variant files of the race family: the shipped ones load and mean what they say; broken ones
//! are rejected with every problem located and explained.
mod race_support;

use std::path::Path;

use boardcraft_rules::{
    Seat, Variant, VariantError,
    race::{Directions, NoLegalMove, RaceRules, TargetLock, WinRule},
    shipped_variants,
};
use race_support::*;

fn load_broken(file: &str) -> VariantError {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/broken/race")
        .join(file);
    match Variant::from_path(&path) {
        Ok(_) => panic!("{file} should be rejected"),
        Err(e) => e,
    }
}

/// The file is rejected with exactly these problems: (line, column, field, message part).
fn assert_problems(file: &str, expected: &[(usize, Option<usize>, Option<&str>, &str)]) {
    let err = load_broken(file);
    assert!(
        err.file.ends_with(&format!("tests/broken/race/{file}")),
        "{}",
        err.file
    );
    assert_eq!(err.problems.len(), expected.len(), "{file}: {err}");
    for (p, (line, column, field, message)) in err.problems.iter().zip(expected) {
        assert_eq!(p.line, Some(*line), "{file}: {err}");
        assert_eq!(p.column, *column, "{file}: {err}");
        assert_eq!(p.field.as_deref(), *field, "{file}: {err}");
        assert!(
            p.message.contains(message),
            "{file}: `{}` lacks `{message}`",
            p.message
        );
    }
    // The rendered error names the file and line for every problem.
    let text = err.to_string();
    for (line, ..) in expected {
        assert!(text.contains(&format!("{file}:{line}")), "{text}");
    }
}

#[test]
fn broken_syntax_error() {
    assert_problems(
        "syntax-error.ron",
        &[(10, Some(9), None, "syntax error: Expected comma")],
    );
}

#[test]
fn broken_unknown_field() {
    assert_problems(
        "unknown-field.ron",
        &[(
            15,
            Some(9),
            None,
            "unknown field `diagonal_jumps` in `rules: Race(…)`; the fields allowed here are: width, height, board, directions",
        )],
    );
}

#[test]
fn broken_camp_outside_the_board() {
    assert_problems(
        "camp-outside-board.ron",
        &[(
            11,
            None,
            Some("rules.white_camp[0]"),
            "`f1:i3` reaches outside the 8×8 board (i1, i2, i3 are not on it; the board runs from a1 to h8)",
        )],
    );
}

#[test]
fn broken_overlapping_camps() {
    assert_problems(
        "overlapping-camps.ron",
        &[(
            12,
            None,
            Some("rules.black_camp[3]"),
            "g3 is in both camps; a square can belong to one camp only",
        )],
    );
}

#[test]
fn broken_unequal_camp_sizes() {
    assert_problems(
        "unequal-camps.ron",
        &[(
            12,
            None,
            Some("rules.black_camp"),
            "the camps must be the same size (each side has one piece per square of its camp): white_camp has 9 squares, black_camp has 12",
        )],
    );
}

#[test]
fn broken_bad_square_name() {
    assert_problems(
        "bad-square-name.ron",
        &[(
            11,
            None,
            Some("rules.white_camp[3]"),
            "`hh3` is not a square name; squares are a file letter a–s and a rank 1–19",
        )],
    );
}

#[test]
fn broken_board_too_big() {
    assert_problems(
        "board-too-big.ron",
        &[(
            8,
            None,
            Some("rules.width"),
            "the board must be 1 to 19 squares wide; 20 is not supported",
        )],
    );
}

#[test]
fn broken_wrong_format_version() {
    assert_problems(
        "wrong-format-version.ron",
        &[(
            3,
            None,
            Some("format_version"),
            "format_version 2 is not supported; this version of Boardcraft reads format_version 1",
        )],
    );
}

#[test]
fn broken_unknown_direction() {
    assert_problems(
        "unknown-direction.ron",
        &[(
            10,
            Some(21),
            None,
            "`Hexagonal` is not a known choice for `Directions`; use one of: Orthogonal, Diagonal, All",
        )],
    );
}

#[test]
fn broken_home_clear_after_the_ply_cap() {
    assert_problems(
        "home-clear-after-cap.ron",
        &[(
            18,
            None,
            Some("rules.home_clear_ply"),
            "home_clear_ply (500) is not before ply_cap (400)",
        )],
    );
}

#[test]
fn broken_empty_camp() {
    assert_problems(
        "empty-camp.ron",
        &[(
            11,
            None,
            Some("rules.white_camp"),
            "White's camp is empty; list the squares where White's pieces start",
        )],
    );
}

#[test]
fn broken_duplicate_square() {
    assert_problems(
        "duplicate-square.ron",
        &[(
            11,
            None,
            Some("rules.white_camp[1]"),
            "g2 is listed more than once in white_camp",
        )],
    );
}

#[test]
fn broken_file_reports_every_problem() {
    assert_problems(
        "several-problems.ron",
        &[
            (
                9,
                None,
                Some("rules.height"),
                "the board must be 1 to 19 squares high; 0 is not supported",
            ),
            (
                12,
                None,
                Some("rules.black_camp[1]"),
                "`x1` is not a square name",
            ),
            (
                22,
                None,
                Some("rules.ply_cap"),
                "ply_cap is 0; use a number of plies from 1 to 1000000",
            ),
        ],
    );
}

#[test]
fn manifest_lists_the_race_variants_in_order() {
    let names: Vec<_> = shipped_variants().collect();
    let race: Vec<_> = names
        .iter()
        .copied()
        .filter(|n| {
            [
                "ugolki-hg-3x3",
                "ugolki-hg-3x4",
                "ugolki-9qum",
                "halma-16",
                "halma-16-parlett",
                "grasshopper",
            ]
            .contains(n)
        })
        .collect();
    assert_eq!(
        race,
        [
            "ugolki-hg-3x3",
            "ugolki-hg-3x4",
            "ugolki-9qum",
            "halma-16",
            "halma-16-parlett",
            "grasshopper"
        ]
    );
}

#[test]
fn shipped_files_say_what_rules_md_says() {
    for name in ["ugolki-hg-3x3", "ugolki-hg-3x4"] {
        let r = rules(name);
        assert_eq!(
            (r.width(), r.height(), r.directions()),
            (8, 8, Directions::Orthogonal)
        );
        assert!(r.no_return_home());
        assert_eq!(r.target_lock(), TargetLock::StartOfTurn);
        assert_eq!(r.win(), WinRule::FullWithAnyOwn);
        assert!(!r.equalising_reply());
        assert_eq!(r.repetition_draw(), Some(3));
        assert_eq!(r.ply_cap(), Some(400));
        assert_eq!(r.no_legal_move(), NoLegalMove::Loses);
        assert_eq!(r.first_player(), Seat::WHITE);
    }
    assert_eq!(
        rules("ugolki-hg-3x3").camp(Seat::WHITE),
        squares("f1 g1 h1 f2 g2 h2 f3 g3 h3")
    );
    assert_eq!(
        rules("ugolki-hg-3x3").camp(Seat::BLACK),
        squares("a6 b6 c6 a7 b7 c7 a8 b8 c8")
    );
    assert_eq!(
        rules("ugolki-hg-3x4").camp(Seat::WHITE),
        squares("e1 f1 g1 h1 e2 f2 g2 h2 e3 f3 g3 h3")
    );
    assert_eq!(
        rules("ugolki-hg-3x4").target(Seat::WHITE),
        squares("a6 b6 c6 d6 a7 b7 c7 d7 a8 b8 c8 d8")
    );
    let q = rules("ugolki-9qum");
    assert_eq!(q.camp(Seat::WHITE), squares("a1 b1 c1 a2 b2 c2 a3 b3 c3"));
    assert_eq!(q.camp(Seat::BLACK), squares("f6 g6 h6 f7 g7 h7 f8 g8 h8"));
    assert!(!q.no_return_home());
    assert_eq!(q.target_lock(), TargetLock::Off);
    assert_eq!(q.win(), WinRule::FillWithOwn);
    assert!(q.equalising_reply());
    assert_eq!((q.home_clear_ply(), q.count_ply()), (Some(80), Some(200)));
    let h = rules("halma-16");
    assert_eq!(
        (h.width(), h.height(), h.directions()),
        (16, 16, Directions::All)
    );
    assert_eq!(
        h.camp(Seat::WHITE),
        squares("l1 m1 n1 o1 p1 l2 m2 n2 o2 p2 m3 n3 o3 p3 n4 o4 p4 o5 p5")
    );
    let mut black = h.camp(Seat::BLACK).to_vec();
    black.sort();
    let mut expected =
        squares("a16 b16 c16 d16 e16 a15 b15 c15 d15 e15 a14 b14 c14 d14 a13 b13 c13 a12 b12");
    expected.sort();
    assert_eq!(black, expected);
    assert_eq!(h.target_lock(), TargetLock::PerLanding);
    assert_eq!(h.win(), WinRule::FillWithOwn);
    assert_eq!(h.ply_cap(), Some(400));
    assert_eq!(h.repetition_draw(), Some(3));
    // A-H7: halma-16-parlett is halma-16 but for Parlett's anti-spoiling win.
    let p = rules("halma-16-parlett");
    assert_eq!(p.win(), WinRule::FullWithAnyOwn);
    let all_but_win = |r: &RaceRules| {
        (
            (r.width(), r.height(), r.directions(), r.first_player()),
            Seat::BOTH.map(|c| r.camp(c).to_vec()),
            (r.no_return_home(), r.target_lock(), r.equalising_reply()),
            (r.home_clear_ply(), r.count_ply(), r.no_legal_move()),
            (r.repetition_draw(), r.ply_cap()),
        )
    };
    assert_eq!(all_but_win(&p), all_but_win(&h));
    let g = rules("grasshopper");
    assert_eq!(g.pieces_per_side(), 10);
    assert_eq!(
        g.camp(Seat::WHITE),
        squares("a1 b1 c1 d1 a2 b2 c2 a3 b3 a4")
    );
}

/// A mod may use any board up to 16×16, Black first, diagonal moves, and the wider bit sets.
#[test]
fn a_mod_with_an_odd_board_works() {
    let text = r#"(
        format_version: 1,
        name: "diagonal-mod",
        title: "Diagonal 10×11",
        rules: Race(
            width: 10, height: 11, directions: Diagonal,
            white_camp: ["a1:c2"], black_camp: ["h10:j11"],
            first_player: Black, win: FillWithOwn, ply_cap: Some(300),
        ),
    )"#;
    let v = Variant::from_ron("diagonal-mod.ron", text).unwrap_or_else(|e| panic!("{e}"));
    let boardcraft_rules::FamilyRules::Race(r) = v.rules else {
        panic!()
    };
    let pos = boardcraft_rules::race::RacePosition::new(r.clone());
    assert_eq!(boardcraft_rules::Position::side_to_move(&pos), Seat::BLACK);
    // Compare with the reference generator for a few plies.
    let g = RefGame::from_position(&pos);
    let mut p = pos.clone();
    assert_eq!(
        boardcraft_rules::perft::perft(&mut p, 3),
        ref_perft(&r, &g, None, 3)
    );
    assert!(
        engine_pairs(&pos)
            .iter()
            .all(|(f, t)| f.file() != t.file() && f.rank() != t.rank())
    );
}

#[test]
fn broken_star_region_outside_the_board() {
    assert_problems(
        "star-region-outside.ron",
        &[(
            10,
            None,
            Some("rules.regions[0].cells[0]"),
            "`a1` reaches outside the board (a1 is not on it)",
        )],
    );
}

#[test]
fn broken_seat_without_a_target() {
    assert_problems(
        "seat-without-target.ron",
        &[(
            12,
            Some(42),
            None,
            "the field `target` in a seat of `seats`",
        )],
    );
}

#[test]
fn broken_seats_sharing_a_home() {
    assert_problems(
        "seats-share-a-home.ron",
        &[
            (
                13,
                None,
                Some("rules.seats.3[2].target"),
                "there is no region called `north`",
            ),
            (
                12,
                None,
                Some("rules.seats.3[1].home"),
                "seats 0 and 1 share the home `S`; each seat starts in its own",
            ),
        ],
    );
}

#[test]
fn broken_unreachable_target() {
    assert_problems(
        "unreachable-target.ron",
        &[(
            16,
            None,
            Some("rules.seats.2[0].target"),
            "a5 of the target `top` cannot be reached from the home `bottom` moving orthogonally",
        )],
    );
}
