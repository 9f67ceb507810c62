//! GIPF rules: the tests G-1…G-12 of rules.md §6.7, the start counts of §6.6, Appendix A, and
//! the binding decisions A-G5…A-G16.
mod gipf_support;

use std::collections::HashSet;

use boardcraft_rules::{
    EndReason, IllegalReason, NotationError, Outcome, Position, Seat,
    gipf::{
        ActionEffect, Destination, Dot, GipfMove, Illegal, PieceKind, SetupError,
        geometry::geometry,
    },
};
use gipf_support::*;

// ----- geometry -----------------------------------------------------------------------------

/// Appendix A of rules.md, verbatim: dot | entry spot | line in push order | far dot.
const APPENDIX_A: &str = "
| a1 | b2 | b2 c3 d4 e5 f5 g5 h5 | i5 |
| a2 | b2 | b2 c2 d2 e2 | f1 |
| a2 | b3 | b3 c4 d5 e6 f6 g6 | h6 |
| a3 | b3 | b3 c3 d3 e3 f2 | g1 |
| a3 | b4 | b4 c5 d6 e7 f7 | g7 |
| a4 | b4 | b4 c4 d4 e4 f3 g2 | h1 |
| a4 | b5 | b5 c6 d7 e8 | f8 |
| a5 | b5 | b5 c5 d5 e5 f4 g3 h2 | i1 |
| b1 | b2 | b2 b3 b4 b5 | b6 |
| b1 | c2 | c2 d3 e4 f4 g4 h4 | i4 |
| b6 | b5 | b5 b4 b3 b2 | b1 |
| b6 | c6 | c6 d6 e6 f5 g4 h3 | i2 |
| c1 | c2 | c2 c3 c4 c5 c6 | c7 |
| c1 | d2 | d2 e3 f3 g3 h3 | i3 |
| c7 | c6 | c6 c5 c4 c3 c2 | c1 |
| c7 | d7 | d7 e7 f6 g5 h4 | i3 |
| d1 | d2 | d2 d3 d4 d5 d6 d7 | d8 |
| d1 | e2 | e2 f2 g2 h2 | i2 |
| d8 | d7 | d7 d6 d5 d4 d3 d2 | d1 |
| d8 | e8 | e8 f7 g6 h5 | i4 |
| e1 | e2 | e2 e3 e4 e5 e6 e7 e8 | e9 |
| e9 | e8 | e8 e7 e6 e5 e4 e3 e2 | e1 |
| f1 | e2 | e2 d2 c2 b2 | a2 |
| f1 | f2 | f2 f3 f4 f5 f6 f7 | f8 |
| f8 | e8 | e8 d7 c6 b5 | a4 |
| f8 | f7 | f7 f6 f5 f4 f3 f2 | f1 |
| g1 | f2 | f2 e3 d3 c3 b3 | a3 |
| g1 | g2 | g2 g3 g4 g5 g6 | g7 |
| g7 | f7 | f7 e7 d6 c5 b4 | a3 |
| g7 | g6 | g6 g5 g4 g3 g2 | g1 |
| h1 | g2 | g2 f3 e4 d4 c4 b4 | a4 |
| h1 | h2 | h2 h3 h4 h5 | h6 |
| h6 | g6 | g6 f6 e6 d5 c4 b3 | a2 |
| h6 | h5 | h5 h4 h3 h2 | h1 |
| i1 | h2 | h2 g3 f4 e5 d5 c5 b5 | a5 |
| i2 | h2 | h2 g2 f2 e2 | d1 |
| i2 | h3 | h3 g4 f5 e6 d6 c6 | b6 |
| i3 | h3 | h3 g3 f3 e3 d2 | c1 |
| i3 | h4 | h4 g5 f6 e7 d7 | c7 |
| i4 | h4 | h4 g4 f4 e4 d3 c2 | b1 |
| i4 | h5 | h5 g6 f7 e8 | d8 |
| i5 | h5 | h5 g5 f5 e5 d4 c3 b2 | a1 |
";

#[test]
fn the_42_entry_moves_are_appendix_a() {
    let expected: Vec<String> = APPENDIX_A
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| {
            l.split('|')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect();
    let computed: Vec<String> = geometry()
        .entries
        .iter()
        .map(|e| {
            let line: Vec<String> = e.ray.spots().iter().map(|s| s.to_string()).collect();
            format!(
                "{} | {} | {} | {}",
                e.dot,
                e.spot,
                line.join(" "),
                e.far_dot
            )
        })
        .collect();
    assert_eq!(expected.len(), 42);
    assert_eq!(computed, expected);
    // Every entry's dot and entry spot round-trip through the notation.
    let pos = start("gipf-basic");
    for e in &geometry().entries {
        let text = format!("{}-{}", e.dot, e.spot);
        let mv = pos.parse_move(&text).unwrap();
        assert_eq!(mv.action().unwrap().entry_points(), Some((e.dot, e.spot)));
    }
    assert_eq!(Dot::all().count(), 24);
}

// ----- start counts (§6.6) -------------------------------------------------------------------

fn distinct_results(name: &str) -> (usize, usize) {
    let mut pos = start(name);
    let mut moves: Vec<GipfMove> = Vec::new();
    pos.legal_moves(&mut moves);
    let mut hashes = HashSet::new();
    for m in &moves {
        let undo = pos.play_unchecked(m);
        hashes.insert(pos.hash());
        pos.undo(m, undo);
    }
    (moves.len(), hashes.len())
}

#[test]
fn start_counts_basic_standard_tournament() {
    assert_eq!(distinct_results("gipf-basic"), (42, 24));
    assert_eq!(distinct_results("gipf-standard"), (42, 30));
    assert_eq!(distinct_results("gipf-tournament"), (42, 18));
    // Tournament: all 42 are GIPF-piece entries.
    let pos = start("gipf-tournament");
    assert!(legal_texts(&pos).iter().all(|t| t.starts_with('G')));
}

#[test]
fn start_counts_steps() {
    let pos = start("gipf-steps");
    let texts = legal_texts(&pos);
    assert_eq!(texts.len(), 51);
    let mut steps: Vec<&str> = texts
        .iter()
        .map(String::as_str)
        .filter(|t| {
            let from = &t[..2];
            boardcraft_rules::gipf::Spot::from_name(from).is_some()
        })
        .collect();
    steps.sort_unstable();
    assert_eq!(
        steps,
        [
            "b5-b4", "b5-c5", "b5-c6", "e2-d2", "e2-e3", "e2-f2", "h5-g5", "h5-g6", "h5-h4"
        ]
    );
    // With 3 GIPF-pieces in reserve every entry exists twice.
    assert_eq!(
        legal_texts(&start("gipf-steps-gipf-pieces")).len(),
        42 * 2 + 9
    );
}

// ----- G-1 … G-12 ---------------------------------------------------------------------------

#[test]
fn g01_a1_b2_pushes_black_to_c3() {
    let mut pos = start("gipf-basic");
    let effect = play(&mut pos, "a1-b2");
    assert_eq!(at(&pos, "b2"), 'o');
    assert_eq!(at(&pos, "c3"), 'x');
    assert_eq!(pos.reserve(Seat::WHITE), 11);
    assert_eq!(pos.side_to_move(), Seat::BLACK);
    match effect.action {
        Some(ActionEffect::Entry {
            dot,
            spot: s,
            piece,
        }) => {
            assert_eq!((dot.to_string(), s), ("a1".to_owned(), spot("b2")));
            assert_eq!((piece.color, piece.kind), (Seat::WHITE, PieceKind::Basic));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(effect.shifts.len(), 1);
    assert_eq!(
        (effect.shifts[0].from, effect.shifts[0].to),
        (spot("b2"), spot("c3"))
    );
    assert!(effect.removals.is_empty());
}

#[test]
fn g02_b1_b2_pushes_black_to_b3() {
    let mut pos = start("gipf-basic");
    play(&mut pos, "b1-b2");
    assert_eq!((at(&pos, "b2"), at(&pos, "b3")), ('o', 'x'));
}

fn after_g3() -> boardcraft_rules::gipf::GipfPosition {
    let mut pos = start("gipf-basic");
    play(&mut pos, "b1-b2");
    play(&mut pos, "b6-b5");
    pos
}

#[test]
fn g03_b6_b5_pushes_white_to_b4() {
    let pos = after_g3();
    let column: String = ["b2", "b3", "b4", "b5"]
        .iter()
        .map(|s| at(&pos, s))
        .collect();
    assert_eq!(column, "oxox");
}

#[test]
fn g03b_full_line_cannot_be_entered() {
    let pos = after_g3();
    let why = illegal_reason(&pos, "b1-b2");
    assert!(why.contains("full"), "{why}");
    assert!(why.contains("b5") && why.contains("b6"), "{why}");
    assert!(pos.parse_move("b1-c2").is_ok());
    assert!(!legal_texts(&pos).contains(&"b1-b2".to_owned()));
}

#[test]
fn g04_full_column_blocks_both_ends_only() {
    for name in VARIANTS {
        let pos = setup(
            name,
            "White: e2 e4 e6 e8 Gb5; Black: e3 e5 e7 Gh2",
            [5, 5],
            Seat::WHITE,
        );
        assert!(illegal_reason(&pos, "e1-e2").contains("full"), "{name}");
        assert!(illegal_reason(&pos, "e9-e8").contains("full"), "{name}");
        let mut moved = pos.clone();
        play(&mut moved, "d1-e2");
        assert_eq!((at(&moved, "e2"), at(&moved, "f2")), ('o', 'o'), "{name}");
    }
}

#[test]
fn g05_row_with_extension_goes_whole() {
    let mut pos = setup(
        "gipf-basic",
        "White: e2 e3 e4 e7; Black: e6",
        [5, 10],
        Seat::WHITE,
    );
    // The row is forced: no removal list needed, and the written one is accepted too.
    let written = pos.parse_move("e1-e2;xe2,e3,e4,e5,e6,e7").unwrap();
    assert_eq!(pos.parse_move("e1-e2").unwrap(), written);
    assert_eq!(pos.format_move(&written), "e1-e2");
    let lost_before = pos.captured(Seat::BLACK);
    let effect = play(&mut pos, "e1-e2");
    for s in ["e2", "e3", "e4", "e5", "e6", "e7", "e8"] {
        assert_eq!(at(&pos, s), '.', "{s}");
    }
    assert_eq!(pos.reserve(Seat::WHITE), 5 - 1 + 5);
    assert_eq!(pos.captured(Seat::BLACK), lost_before + 1);
    assert_eq!(pos.reserve(Seat::BLACK), 10);
    let step = &effect.removals[0];
    assert_eq!(step.by, Seat::WHITE);
    assert_eq!(step.rows.len(), 1);
    let row = &step.rows[0];
    assert_eq!(row.run.len(), 6);
    let captured: Vec<_> = row
        .removed
        .iter()
        .filter(|r| r.to == Destination::Captured)
        .map(|r| r.spot)
        .collect();
    assert_eq!(captured, [spot("e6")]);
    assert_eq!(row.removed.len(), 6);
}

#[test]
fn g06_crossing_rows_take_one_of_them() {
    let pos = setup(
        "gipf-basic",
        "White: c3 d4 f5 e2 e3 e4",
        [5, 12],
        Seat::WHITE,
    );
    let mut choices: Vec<String> = legal_texts(&pos)
        .into_iter()
        .filter(|t| t.starts_with("e1-e2"))
        .collect();
    choices.sort();
    assert_eq!(choices, ["e1-e2;xc3,d4,e5,f5", "e1-e2;xe2,e3,e4,e5"]);
    let why = illegal_reason(&pos, "e1-e2");
    assert!(why.contains("choice"), "{why}");
    for (choice, left) in [
        ("e1-e2;xe2,e3,e4,e5", ["c3", "d4", "f5"]),
        ("e1-e2;xc3,d4,e5,f5", ["e2", "e3", "e4"]),
    ] {
        let mut p = pos.clone();
        let effect = play(&mut p, choice);
        assert_eq!(effect.removals.len(), 1);
        assert_eq!(effect.removals[0].rows.len(), 1, "the other row is broken");
        for s in left {
            assert_eq!(at(&p, s), 'o', "{choice}: {s}");
        }
        assert_eq!(at(&p, "e5"), '.');
        assert_eq!(p.board_units(Seat::WHITE), 3);
        assert_eq!(p.reserve(Seat::WHITE), 5 - 1 + 4);
    }
}

#[test]
fn g07_push_makes_a_black_row_black_takes_it() {
    let mut pos = setup(
        "gipf-basic",
        "White: e2 e3 c3; Black: e4 d4 f5 g5",
        [5, 5],
        Seat::WHITE,
    );
    let lost_before = pos.captured(Seat::WHITE);
    let effect = play(&mut pos, "e1-e2");
    assert_eq!(effect.removals.len(), 1);
    assert_eq!(effect.removals[0].by, Seat::BLACK);
    assert!(effect.pending_for.is_none());
    for s in ["c3", "d4", "e5", "f5", "g5"] {
        assert_eq!(at(&pos, s), '.', "{s}");
    }
    assert_eq!(pos.reserve(Seat::BLACK), 5 + 4);
    assert_eq!(pos.captured(Seat::WHITE), lost_before + 1);
    assert_eq!(pos.side_to_move(), Seat::BLACK);
    assert!(pos.outcome().is_none());
}

#[test]
fn g08_empty_reserve_loses_at_the_start_of_the_turn() {
    let pos = setup("gipf-basic", "White: e2; Black: e8", [0, 0], Seat::WHITE);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::BLACK, EndReason::ReserveExhausted))
    );
    assert_eq!(pos.count_legal_moves(), 0);
    // One piece left: White plays it, then Black (empty) loses.
    let mut pos = setup("gipf-basic", "White: e2; Black: e8", [1, 0], Seat::WHITE);
    play(&mut pos, "a1-b2");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::WHITE, EndReason::ReserveExhausted))
    );
}

#[test]
fn g09_gipf_piece_in_a_row_is_optional_and_returns_as_two() {
    let pos = setup(
        "gipf-standard",
        "White: e2 Ge3 e4 Gb5; Black: Gb2 Gh2",
        [5, 5],
        Seat::WHITE,
    );
    let mut choices: Vec<String> = legal_texts(&pos)
        .into_iter()
        .filter(|t| t.starts_with("e1-e2"))
        .collect();
    choices.sort();
    assert_eq!(choices, ["e1-e2;xe2,e3,e4,e5", "e1-e2;xe2,e3,e5"]);
    let mut take = pos.clone();
    play(&mut take, "e1-e2;xe2,e3,e4,e5");
    assert_eq!(take.reserve(Seat::WHITE), 5 - 1 + 3 + 2);
    assert_eq!(take.gipf_on_board(Seat::WHITE), 1);
    let mut keep = pos.clone();
    play(&mut keep, "e1-e2;xe2,e3,e5");
    assert_eq!(keep.reserve(Seat::WHITE), 5 - 1 + 3);
    assert_eq!(at(&keep, "e4"), 'O');
    assert!(keep.outcome().is_none());
}

#[test]
fn g10_losing_the_last_gipf_piece_loses() {
    let pos = setup(
        "gipf-standard",
        "White: e2 e3 e4 Gb5; Black: Ge6 b2",
        [5, 5],
        Seat::WHITE,
    );
    let mut p = pos.clone();
    play(&mut p, "e1-e2;xe2,e3,e4,e5,e6");
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Seat::WHITE, EndReason::NoGipfPiece))
    );
    assert_eq!(p.captured(Seat::BLACK), pos.captured(Seat::BLACK) + 2);
    let mut p = pos.clone();
    play(&mut p, "e1-e2;xe2,e3,e4,e5");
    assert_eq!(p.outcome(), None);
    assert_eq!(at(&p, "e6"), 'X');
}

#[test]
fn g11_tournament_gipf_first_then_no_gipf_after_a_basic_piece() {
    let mut pos = start("gipf-tournament");
    let why = illegal_reason(&pos, "e1-e2");
    assert!(why.contains("first turn"), "{why}");
    play(&mut pos, "Ge1-e2");
    assert_eq!(pos.reserve(Seat::WHITE), 16);
    assert!(illegal_reason(&pos, "e9-e8").contains("first turn"));
    play(&mut pos, "Ge9-e8");
    // Second turn: either kind.
    assert!(pos.parse_move("Ga1-b2").is_ok());
    play(&mut pos, "a1-b2");
    play(&mut pos, "Gi5-h5");
    let why = illegal_reason(&pos, "Gb1-c2");
    assert!(why.contains("basic piece already"), "{why}");
    assert!(legal_texts(&pos).iter().all(|t| !t.starts_with('G')));
    // Black has not entered a basic piece: he still may.
    play(&mut pos, "b1-c2");
    assert!(pos.parse_move("Gi1-h2").is_ok());
}

#[test]
fn g12_material_is_conserved_in_the_shipped_games() {
    // Deterministic pseudo-random games (the proptest covers many more).
    for (name, total) in [
        ("gipf-basic", 15),
        ("gipf-standard", 18),
        ("gipf-tournament", 18),
    ] {
        let mut pos = start(name);
        let mut seed = 0x1234_5678_u64;
        let mut moves = Vec::new();
        while pos.outcome().is_none() && pos.ply() < 300 {
            pos.legal_moves(&mut moves);
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = moves[(seed >> 33) as usize % moves.len()];
            pos.play(&mv).unwrap();
            for c in Seat::BOTH {
                assert_eq!(material(&pos, c), total, "{name} ply {}\n{pos}", pos.ply());
            }
        }
    }
}

// ----- binding decisions -----------------------------------------------------------------------

/// A-G16: rows of the opponent's colour with a choice become his decision, written first.
#[test]
fn opponents_choice_is_made_at_the_start_of_his_turn() {
    let mut pos = setup(
        "gipf-basic",
        "White: h5; Black: e2 e3 e4 e6 c3 d4 f5",
        [5, 5],
        Seat::WHITE,
    );
    let effect = play(&mut pos, "e1-e2");
    assert_eq!(effect.pending_for, Some(Seat::BLACK));
    assert!(effect.removals.is_empty());
    assert_eq!(pos.side_to_move(), Seat::BLACK);
    assert_eq!(pos.outcome(), None);
    let opts: Vec<String> = pos
        .pending_removal()
        .unwrap()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(opts, ["c3,d4,e5,f5", "e2,e3,e4,e5,e6"]);
    // Every move starts with the decision.
    assert!(legal_texts(&pos).iter().all(|t| t.starts_with('x')));
    assert_eq!(legal_texts(&pos).len(), 2 * 42);
    let why = illegal_reason(&pos, "a1-b2");
    assert!(why.contains("must first decide"), "{why}");
    assert!(pos.parse_move("xe5;a1-b2").is_err());
    let effect = play(&mut pos, "xe2,e3,e4,e5,e6;a1-b2");
    let pre = effect.pre_removal.unwrap();
    assert_eq!(pre.by, Seat::BLACK);
    assert_eq!(pre.rows[0].removed.len(), 5);
    assert_eq!(
        pos.captured(Seat::WHITE),
        15 - 1 - 5 + 1,
        "White's e2 was in the extension"
    );
    assert_eq!(pos.reserve(Seat::BLACK), 5 + 4 - 1);
    assert_eq!(
        (at(&pos, "c3"), at(&pos, "d4"), at(&pos, "f5")),
        ('x', 'x', 'x')
    );
    // The decision is gone; no decision may be written now.
    assert!(pos.pending_removal().is_none());
    assert!(illegal_reason(&pos, "xe2;a1-b2").contains("no rows"));
}

/// A-G16: the opponent's empty-reserve check comes after his decision (it refills him).
#[test]
fn pending_decision_comes_before_the_reserve_check() {
    let mut pos = setup(
        "gipf-basic",
        "White: h5; Black: e2 e3 e4 e6 c3 d4 f5",
        [5, 0],
        Seat::WHITE,
    );
    play(&mut pos, "e1-e2");
    assert_eq!(pos.outcome(), None, "Black's reserve refills with his row");
    play(&mut pos, "xc3,d4,e5,f5;a1-b2");
    assert_eq!(pos.reserve(Seat::BLACK), 3);
}

/// A-G12: a removal step that leaves both players without GIPF-pieces loses for its maker;
/// taking the opponent's last one wins at once.
#[test]
fn last_gipf_pieces_of_both_players() {
    let pos = setup(
        "gipf-standard",
        "White: e2 e3 Ge4; Black: Ge6 b2",
        [5, 5],
        Seat::WHITE,
    );
    let mut choices: Vec<String> = legal_texts(&pos)
        .into_iter()
        .filter(|t| t.starts_with("e1-e2"))
        .collect();
    choices.sort();
    assert_eq!(
        choices,
        [
            "e1-e2;xe2,e3,e4",
            "e1-e2;xe2,e3,e4,e5",
            "e1-e2;xe2,e3,e4,e5,e6",
            "e1-e2;xe2,e3,e4,e6"
        ]
    );
    let result = |text: &str| {
        let mut p = pos.clone();
        play(&mut p, text);
        p.outcome()
    };
    let black = Some(Outcome::win(Seat::BLACK, EndReason::NoGipfPiece));
    let white = Some(Outcome::win(Seat::WHITE, EndReason::NoGipfPiece));
    assert_eq!(result("e1-e2;xe2,e3,e4,e5,e6"), black);
    assert_eq!(result("e1-e2;xe2,e3,e4,e5"), black);
    assert_eq!(result("e1-e2;xe2,e3,e4,e6"), white);
    assert_eq!(result("e1-e2;xe2,e3,e4"), None);
}

/// A-G14: a row whose owner keeps every piece is not offered again until its line changes.
#[test]
fn row_kept_whole_is_settled_until_its_line_changes() {
    let mut s = boardcraft_rules::gipf::GipfSetup::parse("White: Ge2 Ge3 Ge4; Black: Gh2 h4")
        .unwrap_err_or_setup();
    s.reserve = [6, 6];
    s.basic_entered = [false, true];
    let mut pos =
        boardcraft_rules::gipf::GipfPosition::from_setup(rules("gipf-tournament"), &s).unwrap();
    let choices: Vec<String> = legal_texts(&pos)
        .into_iter()
        .filter(|t| t.starts_with("Ge1-e2"))
        .collect();
    assert_eq!(
        choices.len(),
        16,
        "every subset of the four GIPF-pieces: {choices:?}"
    );
    assert!(choices.contains(&"Ge1-e2;x".to_owned()));
    play(&mut pos, "Ge1-e2;x");
    assert_eq!(pos.settled_rows().len(), 1);
    assert!(pos.pending_removal().is_none());
    // Black plays elsewhere: the row stays settled, White is not asked again.
    play(&mut pos, "a1-b2");
    assert!(pos.pending_removal().is_none());
    assert_eq!(pos.settled_rows().len(), 1);
    play(&mut pos, "i1-h2");
    // Black enters on the row's line: it changed, so White is asked again.
    play(&mut pos, "e9-e8");
    assert!(pos.settled_rows().is_empty());
    assert_eq!(pos.pending_removal().map(|o| o.len()), Some(16));
    assert!(pos.to_string().contains("first removes"));
}

trait SetupExt {
    fn unwrap_err_or_setup(self) -> boardcraft_rules::gipf::GipfSetup;
}
impl SetupExt for Result<boardcraft_rules::gipf::GipfSetup, String> {
    fn unwrap_err_or_setup(self) -> boardcraft_rules::gipf::GipfSetup {
        self.unwrap_or_else(|e| panic!("{e}"))
    }
}

#[test]
fn ply_cap_draws() {
    let mut s = boardcraft_rules::gipf::GipfSetup::parse("White: e2; Black: e8").unwrap();
    s.reserve = [5, 5];
    s.ply = 999;
    let mut pos =
        boardcraft_rules::gipf::GipfPosition::from_setup(rules("gipf-basic"), &s).unwrap();
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "a1-b2");
    assert_eq!(pos.outcome(), Some(Outcome::draw(EndReason::PlyCap)));
    assert_eq!(pos.count_legal_moves(), 0);
}

/// `ply_cap: None` switches the guard off; any other cap is the file's number.
#[test]
fn ply_cap_none_never_draws_and_the_cap_is_the_files() {
    let gipf_with = |setting: &str| {
        let text = boardcraft_rules::variant::shipped_files()
            .iter()
            .find(|(f, _)| *f == "gipf-basic.ron")
            .unwrap()
            .1
            .replace("ply_cap: Some(1000)", setting);
        match boardcraft_rules::Variant::from_ron("gipf-cap.ron", &text)
            .unwrap_or_else(|e| panic!("{e}"))
            .rules
        {
            boardcraft_rules::FamilyRules::Gipf(r) => r,
            _ => unreachable!(),
        }
    };
    let mut s = boardcraft_rules::gipf::GipfSetup::parse("White: e2; Black: e8").unwrap();
    s.reserve = [5, 5];
    s.ply = 1_000_000;
    let uncapped =
        boardcraft_rules::gipf::GipfPosition::from_setup(gipf_with("ply_cap: None"), &s).unwrap();
    assert_eq!(uncapped.outcome(), None);
    s.ply = 9;
    let mut capped =
        boardcraft_rules::gipf::GipfPosition::from_setup(gipf_with("ply_cap: Some(10)"), &s)
            .unwrap();
    assert_eq!(capped.outcome(), None);
    play(&mut capped, "a1-b2");
    assert_eq!(capped.outcome(), Some(Outcome::draw(EndReason::PlyCap)));
}

// ----- the variants with steps on the board (the Russian retelling, rules.md §6.4) -------------

#[test]
fn steps_push_and_never_reach_a_dot() {
    let mut pos = start("gipf-steps");
    let why = illegal_reason(&pos, "b5-a5");
    assert!(why.contains("dot"), "{why}");
    assert!(illegal_reason(&pos, "b5-b3").contains("not next to"));
    assert!(illegal_reason(&pos, "e8-e7").contains("not White's"));
    let effect = play(&mut pos, "b5-b4");
    assert!(matches!(effect.action, Some(ActionEffect::Step { .. })));
    assert_eq!((at(&pos, "b5"), at(&pos, "b4")), ('.', 'o'));
    assert_eq!(pos.reserve(Seat::WHITE), 12, "a step uses no reserve");
    // Black steps b2-b3 pushing into White's b4: b4 → b5.
    play(&mut pos, "b2-b3");
    let column: String = ["b2", "b3", "b4", "b5"]
        .iter()
        .map(|s| at(&pos, s))
        .collect();
    assert_eq!(column, ".xo.");
    // Official variants have no steps.
    let basic = start("gipf-basic");
    assert!(illegal_reason(&basic, "b5-b4").contains("do not move"));
}

#[test]
fn steps_empty_reserve_is_no_loss_but_annihilation_is() {
    let pos = setup("gipf-steps", "White: e2; Black: e8", [0, 0], Seat::WHITE);
    assert_eq!(pos.outcome(), None);
    assert!(legal_texts(&pos).iter().all(|t| t.starts_with("e2-")));
    let mut pos = setup(
        "gipf-steps",
        "White: e2 e3 e4; Black: e6",
        [3, 0],
        Seat::WHITE,
    );
    play(&mut pos, "e1-e2");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::WHITE, EndReason::Annihilated))
    );
}

#[test]
fn steps_gipf_pieces_enemy_gipf_is_mandatory_own_is_optional_and_returns_as_gipf() {
    let mut s =
        boardcraft_rules::gipf::GipfSetup::parse("White: e2 Ge3 e4; Black: Ge6 b2").unwrap();
    s.reserve = [5, 5];
    s.gipf_reserve = [1, 1];
    let pos = boardcraft_rules::gipf::GipfPosition::from_setup(rules("gipf-steps-gipf-pieces"), &s)
        .unwrap();
    let mut choices: Vec<String> = legal_texts(&pos)
        .into_iter()
        .filter(|t| t.starts_with("e1-e2"))
        .collect();
    choices.sort();
    // Own GIPF-piece (now on e4) optional; Black's GIPF-piece on e6 always goes.
    assert_eq!(choices, ["e1-e2;xe2,e3,e4,e5,e6", "e1-e2;xe2,e3,e5,e6"]);
    let mut p = pos.clone();
    play(&mut p, "e1-e2;xe2,e3,e4,e5,e6");
    assert_eq!(p.gipf_reserve(Seat::WHITE), 2);
    assert_eq!(p.reserve(Seat::WHITE), 5 - 1 + 3);
    assert_eq!(p.captured(Seat::BLACK), pos.captured(Seat::BLACK) + 2);
    assert_eq!(
        p.outcome(),
        None,
        "no last-GIPF-piece rule in gipf-steps-gipf-pieces"
    );
    play(&mut p, "Ga1-b2");
    assert_eq!(p.gipf_reserve(Seat::BLACK), 0);
}

// ----- notation ----------------------------------------------------------------------------------

#[test]
fn notation_errors_say_what_is_wrong() {
    let pos = start("gipf-basic");
    for bad in [
        "",
        "e1e2",
        "z1-e2",
        "e1-",
        "e1-e2;",
        "e1-e2;xq9",
        "e1-e2;xe1",
        "x;x;e1-e2",
    ] {
        assert!(
            matches!(pos.parse_move(bad), Err(NotationError::Syntax { .. })),
            "{bad:?}: {:?}",
            pos.parse_move(bad)
        );
    }
    assert!(illegal_reason(&pos, "a1-c3").contains("not next to"));
    assert!(illegal_reason(&pos, "e2-e1").contains("dot"));
    assert!(illegal_reason(&pos, "Ge1-e2").contains("not brought into play"));
    assert!(illegal_reason(&pos, "e1-e2;xe2").contains("forms no row"));
    // Upper-case official coordinates and a lower-case `g` column both read right.
    assert_eq!(
        pos.parse_move("B1-B2").unwrap(),
        pos.parse_move("b1-b2").unwrap()
    );
    assert!(pos.parse_move("g1-f2").is_ok());
    assert!(pos.parse_move("G1-F2").is_ok());
}

#[test]
fn every_legal_move_round_trips_through_notation() {
    for name in VARIANTS {
        let pos = start(name);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        for m in &moves {
            let text = pos.format_move(m);
            assert_eq!(pos.parse_move(&text).as_ref(), Ok(m), "{name}: {text}");
        }
    }
}

#[test]
fn printout_shows_board_reserves_and_turn() {
    let mut pos = start("gipf-standard");
    play(&mut pos, "a1-b2");
    let text = pos.to_string();
    assert!(text.contains("a   b   c   d   e   f   g   h   i"), "{text}");
    assert!(text.contains("White (o, O = GIPF): reserve 11"), "{text}");
    assert!(text.contains("Ply 1: Black to move"), "{text}");
    // b2 now holds White basic, c3 Black's GIPF-piece; both rows are labelled.
    assert!(
        text.lines()
            .any(|l| l.contains('X') && l.ends_with("a2 c3 e4 g3 i2")),
        "{text}"
    );
}

/// Formatting a move of another position must not panic (it is outside input to this one).
#[test]
fn formatting_a_foreign_move_does_not_panic() {
    let mut full = after_g3();
    let mut other = start("gipf-basic");
    let mv = other.parse_move("b1-b2").unwrap();
    assert_eq!(full.format_move(&mv), "b1-b2");
    assert!(full.play(&mv).is_err());
    other.play(&mv).unwrap();
    let empty = setup("gipf-basic", "White: e2; Black: e8", [0, 0], Seat::WHITE);
    assert_eq!(empty.format_move(&mv), "b1-b2");
}

/// The reason a typed move is refused, as the GIPF family's value.
fn gipf_reason(pos: &boardcraft_rules::gipf::GipfPosition, text: &str) -> Illegal {
    match pos.parse_move(text) {
        Err(NotationError::Illegal {
            reason: IllegalReason::Gipf(why),
            ..
        }) => why,
        other => panic!("{text} should be an illegal GIPF move, got {other:?}\n{pos}"),
    }
}

#[test]
fn illegal_moves_say_what_is_wrong_as_values() {
    // A full line: the push would move b5's piece off the board onto b6.
    match gipf_reason(&after_g3(), "b1-b2") {
        Illegal::LineFull {
            spot: entry,
            last,
            far_dot,
        } => {
            assert_eq!((entry, last), (spot("b2"), spot("b5")));
            assert_eq!(far_dot.to_string(), "b6");
        }
        other => panic!("b1-b2: {other:?}"),
    }
    let pos = start("gipf-basic");
    assert!(matches!(
        gipf_reason(&pos, "a1-c3"),
        Illegal::EntryNotAdjacent { .. }
    ));
    assert!(matches!(
        gipf_reason(&pos, "xe2;a1-b2"),
        Illegal::NothingToRemoveFirst { seat } if seat == Seat::WHITE
    ));
}

#[test]
fn impossible_positions_say_what_is_wrong_as_values() {
    let mut s = boardcraft_rules::gipf::GipfSetup::parse("White: e2; Black: e6").unwrap();
    s.pieces.push(s.pieces[0]);
    let err =
        boardcraft_rules::gipf::GipfPosition::from_setup(rules("gipf-basic"), &s).unwrap_err();
    assert_eq!(err, SetupError::TwoPieces { spot: spot("e2") });
    let s = boardcraft_rules::gipf::GipfSetup::parse("White: e2 e3 e4 e5; Black: e6").unwrap();
    let err =
        boardcraft_rules::gipf::GipfPosition::from_setup(rules("gipf-basic"), &s).unwrap_err();
    assert_eq!(err, SetupError::RowOfFour { seat: Seat::WHITE });
    assert_eq!(
        err.to_string(),
        "White has a row of four on the board; it would have been taken"
    );
}
