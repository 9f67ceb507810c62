//! The Focus tests of rules.md §5 (F-1 … F-10) and the end rules of §8 (A-F5, A-F6).
#![allow(non_upper_case_globals)]
use std::sync::Arc;

const White: Seat = Seat::WHITE;
const Black: Seat = Seat::BLACK;
use boardcraft_rules::{
    EndReason, FamilyRules, IllegalReason, NotationError, Outcome, Position, Seat, Variant,
    focus::{
        Action, Fate, FocusMove, FocusPosition, FocusRules, Illegal, Overflowed, SetupProblem,
        Square, Stack,
    },
    position::play_line,
    shipped_variant,
};

fn rules_of(variant: &Variant) -> Arc<FocusRules> {
    match &variant.rules {
        FamilyRules::Focus(r) => r.clone(),
        other => panic!("not a Focus variant: {}", other.family_name()),
    }
}

fn focus() -> Arc<FocusRules> {
    rules_of(&shipped_variant("focus").unwrap())
}

/// The shipped rules with some fields changed (the file text edited).
fn focus_with(replace: &[(&str, &str)]) -> Arc<FocusRules> {
    let (_, text) = boardcraft_rules::variant::shipped_files()
        .iter()
        .find(|(f, _)| *f == "focus.ron")
        .unwrap();
    let mut text = text.to_string();
    for (from, to) in replace {
        assert!(text.contains(from), "{from} not in focus.ron");
        text = text.replace(from, to);
    }
    rules_of(&Variant::from_ron("edited focus.ron", &text).unwrap_or_else(|e| panic!("{e}")))
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn st(text: &str) -> Stack {
    text.parse().unwrap()
}

/// A position from `(square, stack)` pairs written as text.
fn position(
    stacks: &[(&str, &str)],
    reserve: [u16; 2],
    captured: [u16; 2],
    to_move: Seat,
) -> FocusPosition {
    let stacks: Vec<_> = stacks.iter().map(|(s, t)| (sq(s), st(t))).collect();
    FocusPosition::from_setup(focus(), &stacks, reserve, captured, to_move)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn moves(pos: &FocusPosition) -> Vec<String> {
    let mut mv = Vec::new();
    pos.legal_moves(&mut mv);
    mv.iter().map(|m| pos.format_move(m)).collect()
}

fn is_illegal(pos: &FocusPosition, text: &str) -> bool {
    matches!(pos.parse_move(text), Err(NotationError::Illegal { .. }))
}

#[test]
fn start_position_is_the_standard_pairs_pattern() {
    let pos = FocusPosition::new(focus());
    let white = "b7 c7 f7 g7 d6 e6 b5 c5 f5 g5 d4 e4 b3 c3 f3 g3 d2 e2";
    let black = "d7 e7 b6 c6 f6 g6 d5 e5 b4 c4 f4 g4 d3 e3 b2 c2 f2 g2";
    for name in white.split(' ') {
        assert_eq!(pos.stack(sq(name)), Stack::single(White), "{name}");
    }
    for name in black.split(' ') {
        assert_eq!(pos.stack(sq(name)), Stack::single(Black), "{name}");
    }
    assert_eq!(pos.stacks().count(), 36);
    assert_eq!(pos.rules().board().squares().len(), 52);
    for removed in "a1 b1 a2 g1 h1 h2 a7 a8 b8 h7 g8 h8".split(' ') {
        assert!(!pos.rules().board().contains(sq(removed)), "{removed}");
    }
    assert_eq!(pos.side_to_move(), White);
    assert_eq!((pos.reserve(White), pos.reserve(Black)), (0, 0));
    assert_eq!(pos.outcome(), None);
}

#[test]
fn f1_start_has_68_moves_and_no_move_onto_removed_squares() {
    let pos = FocusPosition::new(focus());
    let list = moves(&pos);
    assert_eq!(list.len(), 68);
    assert_eq!(pos.count_legal_moves(), 68);
    assert!(is_illegal(&pos, "b7-b8"), "{:?}", pos.parse_move("b7-b8"));
    assert!(is_illegal(&pos, "b7-a7"));
    assert!(!list.contains(&"b7-b8".to_string()));
    assert!(!list.contains(&"b7-a7".to_string()));
    // Black's corner pieces are b2 and g2: also 68.
    let undone =
        FocusPosition::from_setup(focus(), focus().setup(), [0, 0], [0, 0], Black).unwrap();
    assert_eq!(undone.count_legal_moves(), 68);
    assert!(is_illegal(&undone, "b2-a2"));
    assert!(is_illegal(&undone, "b2-b1"));
}

#[test]
fn f2_single_piece_onto_an_opponent_piece_makes_a_two_stack() {
    let mut pos = FocusPosition::new(focus());
    let effect = play_line(&mut pos, "d2-d3").unwrap().remove(0);
    assert_eq!(pos.stack(sq("d3")), st("BW"));
    assert_eq!(pos.stack(sq("d3")).top(), Some(White));
    assert!(pos.stack(sq("d2")).is_empty());
    assert_eq!(effect.landed, st("BW"));
    assert!(effect.overflow.is_empty());
    assert_eq!(
        effect.action,
        Action::Move {
            from: sq("d2"),
            to: sq("d3"),
            lifted: st("W"),
            path: vec![sq("d3")],
            left: Stack::EMPTY,
        }
    );
    assert_eq!(pos.controlled_stacks(White), 18);
    assert_eq!(pos.controlled_stacks(Black), 17);
}

#[test]
fn f3_a_two_stack_moves_one_or_two_squares_straight() {
    let mut pos = FocusPosition::new(focus());
    // Black answers far away so White's d3 stack is untouched.
    play_line(&mut pos, "d2-d3 g6-h6").unwrap();
    let mut from_d3: Vec<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.starts_with("d3-"))
        .collect();
    from_d3.sort();
    let mut expected = vec![
        "d3-d5", "d3-d1", "d3-b3", "d3-f3", "d3-d4", "d3-d2", "d3-c3", "d3-e3",
    ];
    expected.sort();
    assert_eq!(from_d3, expected);
    assert!(is_illegal(&pos, "d3-e4"));
    assert!(
        is_illegal(&pos, "d3-d6"),
        "three squares needs three pieces"
    );
    // The whole stack jumps over d4 (White) to d5 (Black): d5 becomes [B, B, W].
    play_line(&mut pos, "d3-d5").unwrap();
    assert!(pos.stack(sq("d3")).is_empty());
    assert_eq!(pos.stack(sq("d4")), st("W"));
    assert_eq!(pos.stack(sq("d5")), st("BBW"));
}

#[test]
fn f3_moving_part_of_a_stack_leaves_the_rest_behind() {
    let mut pos = FocusPosition::new(focus());
    play_line(&mut pos, "d2-d3 g6-h6 d3-e3").unwrap();
    // Only the top piece moved: d3 keeps Black's piece and Black controls it again.
    assert_eq!(pos.stack(sq("d3")), st("B"));
    assert_eq!(pos.stack(sq("e3")), st("BW"));
}

#[test]
fn f4_overflow_of_two_opponent_pieces_captures_both() {
    // White's 3-stack [W,B,W] on c4 moves 3 squares onto Black's 4-stack [B,B,W,B] on f4.
    let mut pos = position(&[("c4", "WBW"), ("f4", "BBWB")], [0, 0], [14, 15], White);
    let effect = play_line(&mut pos, "c4-f4").unwrap().remove(0);
    assert_eq!(pos.stack(sq("f4")), st("WBWBW"));
    assert_eq!(pos.stack(sq("f4")).top(), Some(White));
    assert!(pos.stack(sq("c4")).is_empty());
    assert_eq!(pos.captured_by(White), 16);
    assert_eq!(pos.reserve(White), 0);
    let captured = Overflowed {
        color: Black,
        fate: Fate::CapturedByMover,
    };
    assert_eq!(effect.overflow, vec![captured, captured]);
    assert_eq!(effect.landed, st("WBWBW"));
    match effect.action {
        Action::Move { lifted, path, .. } => {
            assert_eq!(lifted, st("WBW"));
            assert_eq!(path, vec![sq("d4"), sq("e4"), sq("f4")]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn f5_overflow_own_piece_to_reserve_opponent_piece_captured() {
    let mut pos = position(&[("c4", "WBW"), ("f4", "WBWB")], [0, 0], [15, 14], White);
    let effect = play_line(&mut pos, "c4-f4").unwrap().remove(0);
    assert_eq!(pos.stack(sq("f4")), st("WBWBW"));
    assert_eq!(pos.reserve(White), 1);
    assert_eq!(pos.captured_by(White), 16);
    assert_eq!(
        effect.overflow,
        vec![
            Overflowed {
                color: White,
                fate: Fate::MoverReserve
            },
            Overflowed {
                color: Black,
                fate: Fate::CapturedByMover
            },
        ]
    );
}

#[test]
fn f6_drop_onto_a_full_stack_overflows_too() {
    // Bottom piece White: back to White's reserve.
    let mut pos = position(&[("e5", "WBBWB"), ("c3", "B")], [1, 0], [14, 15], White);
    let effect = play_line(&mut pos, "+e5").unwrap().remove(0);
    assert_eq!(effect.action, Action::Drop { to: sq("e5") });
    assert_eq!(pos.stack(sq("e5")), st("BBWBW"));
    assert_eq!(pos.stack(sq("e5")).top(), Some(White));
    assert_eq!(pos.reserve(White), 1);
    assert_eq!(pos.captured_by(White), 14);
    assert_eq!(
        effect.overflow,
        vec![Overflowed {
            color: White,
            fate: Fate::MoverReserve
        }]
    );
    // Bottom piece Black: captured.
    let mut pos = position(&[("e5", "BBBWB"), ("c3", "W")], [1, 0], [14, 15], White);
    let effect = play_line(&mut pos, "+e5").unwrap().remove(0);
    assert_eq!(pos.stack(sq("e5")), st("BBWBW"));
    assert_eq!(pos.reserve(White), 0);
    assert_eq!(pos.captured_by(White), 15);
    assert_eq!(effect.overflow[0].fate, Fate::CapturedByMover);
}

#[test]
fn f7_no_stack_and_no_reserve_loses() {
    let pos = position(&[("d4", "BW"), ("e5", "W")], [0, 0], [17, 16], Black);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(White, EndReason::NoStackNoReserve))
    );
    assert!(moves(&pos).is_empty());
    assert_eq!(pos.count_legal_moves(), 0);
    assert!(pos.parse_move("d4-d5").is_err());
}

#[test]
fn f8_mendelev_fig_64_black_controls_every_stack() {
    // Mendelev's fig. 64 is not in the seed; the text gives its facts: ten Black and seven
    // White pieces on the board in five stacks, all controlled by Black, White without a
    // reserve. This is one position with exactly those facts.
    let pos = position(
        &[
            ("d5", "WWBWB"),
            ("e4", "WBBB"),
            ("c3", "WBB"),
            ("f6", "WBB"),
            ("d2", "WB"),
        ],
        [0, 3],
        [5, 11],
        White,
    );
    assert_eq!(pos.pieces_on_board(Black), 10);
    assert_eq!(pos.pieces_on_board(White), 7);
    assert_eq!(pos.controlled_stacks(Black), 5);
    assert_eq!(pos.stacks().count(), 5);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Black, EndReason::NoStackNoReserve))
    );
    assert!(moves(&pos).is_empty());
    assert!(is_illegal(&pos, "+a3"));
    // Had it been Black's turn, the game would go on.
    let black = position(
        &[
            ("d5", "WWBWB"),
            ("e4", "WBBB"),
            ("c3", "WBB"),
            ("f6", "WBB"),
            ("d2", "WB"),
        ],
        [0, 3],
        [5, 11],
        Black,
    );
    assert_eq!(black.outcome(), None);
}

#[test]
fn f9_no_stack_but_a_reserve_piece_means_52_drops() {
    let pos = position(&[("d4", "BW"), ("e5", "W")], [0, 1], [16, 16], Black);
    assert_eq!(pos.outcome(), None);
    let list = moves(&pos);
    assert_eq!(list.len(), 52);
    assert_eq!(pos.count_legal_moves(), 52);
    assert!(list.iter().all(|m| m.starts_with('+')));
    assert!(list.contains(&"+d4".to_string()));
    assert!(is_illegal(&pos, "+a1"), "a1 is not on the board");
}

/// F-10 over one long deterministic game: for each side, pieces on the board + own reserve +
/// pieces captured by the opponent = 18.
#[test]
fn f10_piece_count_invariant_over_a_long_game() {
    let mut pos = FocusPosition::new(focus());
    let mut seed: u64 = 0x5eed;
    let mut list = Vec::new();
    let mut overflows = 0;
    while pos.outcome().is_none() {
        pos.legal_moves(&mut list);
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = list[(seed >> 33) as usize % list.len()];
        let effect = pos.play(&mv).unwrap();
        overflows += effect.overflow.len();
        for c in [White, Black] {
            let total = pos.pieces_on_board(c)
                + u32::from(pos.reserve(c))
                + u32::from(pos.captured_by(c.other()));
            assert_eq!(total, 18, "{c} after ply {}\n{pos}", pos.ply());
        }
    }
    assert!(overflows > 0, "the game should have produced overflows");
}

#[test]
fn a_move_must_be_made_by_the_controlling_side() {
    let pos = FocusPosition::new(focus());
    let err = pos.parse_move("d3-d4").unwrap_err();
    assert!(
        matches!(&err, NotationError::Illegal { reason, .. } if reason.to_string().contains("controlled by Black")),
        "{err}"
    );
    let err = pos.parse_move("d1-d2").unwrap_err();
    assert!(err.to_string().contains("no stack on d1"), "{err}");
    let err = pos.parse_move("+d1").unwrap_err();
    assert!(err.to_string().contains("no pieces in reserve"), "{err}");
    let err = pos.parse_move("b7-b7").unwrap_err();
    assert!(matches!(err, NotationError::Illegal { .. }));
    let err = pos.parse_move("b7b6").unwrap_err();
    assert!(matches!(err, NotationError::Syntax { .. }));
    let err = pos.parse_move("q7-b6").unwrap_err();
    assert!(matches!(err, NotationError::Syntax { .. }));
    // Checked play refuses with a reason, and the position is unchanged.
    let mut p = pos.clone();
    let bad = FocusMove::Move {
        from: sq("b7"),
        to: sq("b5"),
        count: 2,
    };
    let err = p.play(&bad).unwrap_err();
    assert!(
        err.reason.to_string().contains("has 1 piece"),
        "{}",
        err.reason
    );
    assert_eq!(p.hash(), pos.hash());
    // An inconsistent count is never legal.
    let bad = FocusMove::Move {
        from: sq("b7"),
        to: sq("b6"),
        count: 2,
    };
    assert!(!pos.is_legal(&bad));
}

#[test]
fn threefold_repetition_draws() {
    let mut pos = FocusPosition::new(focus());
    play_line(&mut pos, "d2-d3").unwrap();
    let first = pos.hash();
    // Both sides shuffle a top piece out and back: every 4 plies the position returns.
    let cycle = "e7-f7 d3-d4 f7-e7 d4-d3";
    play_line(&mut pos, cycle).unwrap();
    assert_eq!(pos.hash(), first);
    assert_eq!(pos.outcome(), None, "second occurrence");
    play_line(&mut pos, "e7-f7 d3-d4 f7-e7").unwrap();
    assert_eq!(pos.outcome(), None, "other positions occurred only twice");
    play_line(&mut pos, "d4-d3").unwrap();
    assert_eq!(pos.hash(), first);
    assert_eq!(pos.ply(), 9);
    assert_eq!(pos.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    assert!(moves(&pos).is_empty());
    // Off in a variant without the rule.
    let rules = focus_with(&[("repetition_draw: Some(3)", "repetition_draw: None")]);
    let mut pos = FocusPosition::new(rules);
    play_line(&mut pos, "d2-d3").unwrap();
    play_line(&mut pos, cycle).unwrap();
    play_line(&mut pos, cycle).unwrap();
    play_line(&mut pos, cycle).unwrap();
    assert_eq!(pos.outcome(), None);
}

#[test]
fn ply_cap_draws_and_sackson_option_gives_it_to_the_first_player() {
    let rules = focus_with(&[("ply_cap: Some(400)", "ply_cap: Some(4)")]);
    let mut pos = FocusPosition::new(rules);
    play_line(&mut pos, "d2-d3 e7-f7 d3-d4").unwrap();
    assert_eq!(pos.outcome(), None);
    play_line(&mut pos, "f7-e7").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::draw(EndReason::PlyCap)));

    let rules = focus_with(&[
        ("ply_cap: Some(400)", "ply_cap: Some(4)"),
        (
            "draw_is_first_player_win: false",
            "draw_is_first_player_win: true",
        ),
    ]);
    let mut pos = FocusPosition::new(rules);
    play_line(&mut pos, "d2-d3 e7-f7 d3-d4 f7-e7").unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::win(White, EndReason::PlyCap)));
}

#[test]
fn first_player_is_a_variant_field() {
    let rules = focus_with(&[("first_player: White", "first_player: Black")]);
    let pos = FocusPosition::new(rules);
    assert_eq!(pos.side_to_move(), Black);
    assert!(pos.parse_move("d3-d2").is_ok());
}

#[test]
fn from_setup_rejects_impossible_positions() {
    let err = FocusPosition::from_setup(
        focus(),
        &[(sq("a1"), st("W")), (sq("d4"), st("WBWBWB"))],
        [0, 0],
        [0, 0],
        White,
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("a1 is not a square of the board"), "{text}");
    assert!(text.contains("taller than the height limit 5"), "{text}");
    assert!(text.contains("White has 0 on the board"), "{text}");
    let err = FocusPosition::from_setup(
        focus(),
        &[(sq("d4"), st("W")), (sq("d4"), st("B"))],
        [17, 17],
        [0, 0],
        White,
    )
    .unwrap_err();
    assert!(err.to_string().contains("d4 is given twice"), "{err}");
}

#[test]
fn printout_shows_stacks_reserves_captures_and_turn() {
    let pos = position(&[("c4", "WBW"), ("f4", "BBWB")], [0, 1], [13, 15], White);
    let text = pos.to_string();
    assert!(text.contains("WBW"), "{text}");
    assert!(text.contains("BBWB"), "{text}");
    assert!(text.contains("Reserve:  White 0, Black 1"), "{text}");
    assert!(
        text.contains("Captured: by White 13, by Black 15"),
        "{text}"
    );
    assert!(text.contains("White to move, ply 0"), "{text}");
    // The rank-4 line holds both stacks in file order.
    let rank4 = text
        .lines()
        .find(|l| l.trim_start().starts_with("4 "))
        .unwrap();
    assert!(
        rank4.find("WBW").unwrap() < rank4.find("BBWB").unwrap(),
        "{rank4}"
    );
}

#[test]
fn the_variant_starts_a_focus_game_through_any_position() {
    use boardcraft_rules::{AnyEffect, AnyPosition};
    let variant = shipped_variant("focus").unwrap();
    assert_eq!(variant.title, "Focus");
    let mut game = variant.new_game();
    assert!(matches!(game, AnyPosition::Focus(_)));
    assert_eq!(game.count_legal_moves(), 68);
    let effects = play_line(&mut game, "1. d2-d3 e7-f7 2. d3-d5").unwrap();
    assert!(matches!(effects[2], AnyEffect::Focus(_)));
    assert_eq!(game.ply(), 3);
    assert!(game.to_string().contains("Black to move, ply 3"), "{game}");

    let small = shipped_variant("focus-6x6").unwrap().new_game();
    let AnyPosition::Focus(small) = small else {
        panic!("not Focus")
    };
    assert_eq!(small.rules().board().squares().len(), 32);
    assert_eq!(small.rules().height_limit(), 4);
    // 8 singletons on the central 4×4, every neighbour on the board: 8 × 4.
    assert_eq!(small.count_legal_moves(), 32);
}

#[test]
fn the_hash_covers_side_reserves_and_captures() {
    let stacks = [("d4", "BW"), ("e5", "W"), ("c3", "B")];
    // The piece-count invariant ties captures to reserves, so they change together.
    let base = position(&stacks, [1, 1], [15, 15], White);
    let other_side = position(&stacks, [1, 1], [15, 15], Black);
    let other_reserve = position(&stacks, [0, 2], [14, 16], White);
    let other_captures = position(&stacks, [2, 0], [16, 14], White);
    let other_stack = position(
        &[("d4", "WB"), ("e5", "W"), ("c3", "B")],
        [1, 1],
        [15, 15],
        White,
    );
    let hashes = [
        base.hash(),
        other_side.hash(),
        other_reserve.hash(),
        other_captures.hash(),
        other_stack.hash(),
    ];
    for (i, a) in hashes.iter().enumerate() {
        for b in &hashes[i + 1..] {
            assert_ne!(a, b);
        }
    }
    // The same position reached by different move orders has the same hash.
    let mut one = FocusPosition::new(focus());
    let mut two = FocusPosition::new(focus());
    play_line(&mut one, "d2-d3 e7-f7 c3-c4 d7-c7").unwrap();
    play_line(&mut two, "c3-c4 d7-c7 d2-d3 e7-f7").unwrap();
    assert_eq!(one.hash(), two.hash());
    assert_eq!(one.hash(), one.compute_hash());
}

/// The reason a typed move is refused, as the Focus family's value.
fn focus_reason(pos: &FocusPosition, text: &str) -> Illegal {
    match pos.parse_move(text) {
        Err(NotationError::Illegal {
            reason: IllegalReason::Focus(why),
            ..
        }) => why,
        other => panic!("{text} should be an illegal Focus move, got {other:?}\n{pos}"),
    }
}

#[test]
fn illegal_moves_say_what_is_wrong_as_values() {
    let pos = FocusPosition::new(focus());
    assert_eq!(
        focus_reason(&pos, "c3-f3:2"),
        Illegal::WrongDistance {
            from: sq("c3"),
            to: sq("f3"),
            count: 2,
            distance: 3,
        }
    );
    assert_eq!(
        focus_reason(&pos, "c3-d4"),
        Illegal::NotInLine {
            from: sq("c3"),
            to: sq("d4"),
        }
    );
    assert_eq!(focus_reason(&pos, "b7-b7"), Illegal::SameSquare);
    assert_eq!(
        focus_reason(&pos, "d1-d2"),
        Illegal::NoStack { square: sq("d1") }
    );
    match focus_reason(&pos, "d3-d4") {
        Illegal::NotYourStack {
            square,
            owner,
            to_move,
        } => {
            assert_eq!(square, sq("d3"));
            assert_eq!((owner.seat, to_move.seat), (Black, White));
        }
        other => panic!("d3-d4: {other:?}"),
    }
    assert!(matches!(
        focus_reason(&pos, "+d1"),
        Illegal::NoReserve { seat } if seat.seat == White
    ));
    // A stack of one moved two squares: played, it is refused with the stack's height.
    let mut p = pos.clone();
    let err = p
        .play(&FocusMove::Move {
            from: sq("b7"),
            to: sq("b5"),
            count: 2,
        })
        .unwrap_err();
    assert_eq!(
        err.reason,
        IllegalReason::Focus(Illegal::StackTooLow {
            square: sq("b7"),
            height: 1,
            count: 2,
        })
    );
    assert_eq!(
        err.reason.to_string(),
        "the stack on b7 has 1 piece, so it can move at most 1 square, not 2"
    );
}

#[test]
fn impossible_positions_list_their_problems_as_values() {
    let err = FocusPosition::from_setup(
        focus(),
        &[(sq("a1"), st("W")), (sq("d4"), st("WBWBWB"))],
        [0, 0],
        [0, 0],
        White,
    )
    .unwrap_err();
    assert!(
        err.problems
            .contains(&SetupProblem::OffBoard { square: sq("a1") })
    );
    assert!(err.problems.iter().any(|p| matches!(
        p,
        SetupProblem::TooTall { square, limit: 5, .. } if *square == sq("d4")
    )));
    assert!(err.problems.iter().any(|p| matches!(
        p,
        SetupProblem::Material { seat, on_board: 0, .. } if *seat == White
    )));
}
