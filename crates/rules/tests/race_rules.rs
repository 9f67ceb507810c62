//! The rules.md test tables for the race family: HG-1…HG-13 (Happy-Games Ugolki), Q-1…Q-11
//! (9qum Ugolki), H-1…H-11 (Halma, H-11 with Parlett's rule), plus notation and camp-rule details.
mod race_support;

use boardcraft_rules::{
    EndReason, IllegalReason, NotationError, Outcome, Position, Seat,
    race::{Illegal, MoveKind, RacePosition, SetupError},
};
use race_support::*;

/// Parses and plays `text`, returning the effect.
fn play(pos: &mut RacePosition, text: &str) -> boardcraft_rules::race::RaceEffect {
    let mv = pos
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} should be legal: {e}\n{pos}"));
    pos.play(&mv).unwrap_or_else(|e| panic!("{e}"))
}

/// `text` is rejected as illegal with a reason containing `why`.
fn assert_illegal(pos: &RacePosition, text: &str, why: &str) {
    match pos.parse_move(text) {
        Err(NotationError::Illegal { reason, .. }) => {
            let got = reason.to_string();
            assert!(got.contains(why), "{text}: reason `{got}` lacks `{why}`")
        }
        other => panic!("{text} should be illegal ({why}), got {other:?}\n{pos}"),
    }
}

fn dests(pos: &RacePosition, from: &str) -> Vec<String> {
    let mut d: Vec<String> = pos
        .destinations(sq(from))
        .iter()
        .map(|s| s.to_string())
        .collect();
    d.sort();
    d
}

fn count(pos: &RacePosition, side: Seat) -> usize {
    pos.pieces(side).len()
}

// ---------------------------------------------------------------- Happy-Games Ugolki (§3.2)

#[test]
fn hg_1_jump_over_own_piece_leaves_it() {
    let mut pos = start("ugolki-hg-3x3");
    let effect = play(&mut pos, "g2:e2");
    assert_eq!(effect.kind, MoveKind::Jump);
    assert_eq!(effect.path, squares("g2 e2"));
    assert_eq!(effect.jumped, squares("f2"));
    assert_eq!(pos.piece_at(sq("f2")), Some(Seat::WHITE));
    assert_eq!(pos.piece_at(sq("e2")), Some(Seat::WHITE));
    assert_eq!(pos.piece_at(sq("g2")), None);
}

#[test]
fn hg_2_no_jump_over_an_empty_square() {
    assert_illegal(
        &start("ugolki-hg-3x3"),
        "f2:d2",
        "no piece on e2 to jump over",
    );
}

#[test]
fn hg_3_jump_in_3x4() {
    let mut pos = start("ugolki-hg-3x4");
    play(&mut pos, "f2:d2");
    assert_eq!(pos.piece_at(sq("e2")), Some(Seat::WHITE));
}

#[test]
fn hg_4_no_landing_on_a_piece() {
    assert_illegal(&start("ugolki-hg-3x4"), "g2:e2", "e2 is occupied");
}

#[test]
fn hg_5_first_moves_3x3() {
    let pos = after("ugolki-hg-3x3", "1. g2:e2 b7:d7");
    assert_eq!((count(&pos, Seat::WHITE), count(&pos, Seat::BLACK)), (9, 9));
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.ply(), 2);
}

#[test]
fn hg_6_first_moves_3x4() {
    let pos = after("ugolki-hg-3x4", "1. f2:d2 c7:e7");
    assert_eq!(
        (count(&pos, Seat::WHITE), count(&pos, Seat::BLACK)),
        (12, 12)
    );
    assert_eq!(pos.outcome(), None);
}

#[test]
fn hg_7_chain_from_home_with_early_stop_and_extension() {
    let mut pos = after("ugolki-hg-3x4", "1. e3-e4 d6-d5");
    for line in ["e1:e3", "e1:e3:e5", "e1:e3:e5:c5"] {
        let mv = pos.parse_move(line).unwrap();
        assert!(pos.is_legal(&mv), "{line}");
        assert_eq!(pos.format_move(&mv), line, "the spelled path is kept");
    }
    let effect = play(&mut pos, "e1:e3:e5");
    assert_eq!(effect.path, squares("e1 e3 e5"));
    assert_eq!(effect.jumped, squares("e2 e4"));
}

#[test]
fn hg_8_no_return_home_depends_on_the_camp_size() {
    let pos = after("ugolki-hg-3x3", "1. f1-e1 b7:d7");
    assert_illegal(
        &pos,
        "e1-f1",
        "f1 is in White's home camp and the piece has left it",
    );
    assert_eq!(dests(&pos, "e1"), ["d1", "e2"]);
    // In 3×4, e1–e3 are home squares: a piece that never left may move onto them.
    let r34 = rules("ugolki-hg-3x4");
    let r33 = rules("ugolki-hg-3x3");
    for s in ["e1", "e2", "e3"] {
        assert!(r34.in_camp(Seat::WHITE, sq(s)));
        assert!(!r33.in_camp(Seat::WHITE, sq(s)));
    }
    let mut pos = after("ugolki-hg-3x4", "1. e3-e4 a6-a5");
    play(&mut pos, "f3-e3");
}

#[test]
fn hg_9_no_return_after_leaving_3x4() {
    let pos = after("ugolki-hg-3x4", "1. e1-d1 c7:e7");
    assert_illegal(
        &pos,
        "d1-e1",
        "e1 is in White's home camp and the piece has left it",
    );
    assert_eq!(dests(&pos, "d1"), ["c1", "d2"]);
}

#[test]
fn hg_no_return_applies_mid_chain() {
    // e1 leaves over e2 to e3 (home), on over e4 to e5 (out); the piece may not come back
    // into home later in the same chain: e5 over e4 to e3 is forbidden.
    let pos = after("ugolki-hg-3x4", "1. e3-e4 d6-d5");
    assert_illegal(&pos, "e1:e3:e5:e3", "twice");
    // e2 steps out to d2, then over e…: from d2 the piece may jump d2:d4 but never land on a
    // home square again, neither by a step nor inside a chain.
    let pos = board(
        "ugolki-hg-3x4",
        "d3 e1 f1 g1 h1 e2 f2 g2 h2 f3 g3 h3",
        "d4 a6 b6 c6 d6 a7 b7 c7 d7 a8 b8 c8",
        Seat::WHITE,
        10,
    );
    assert_illegal(
        &pos,
        "d3-e3",
        "e3 is in White's home camp and the piece has left it",
    );
    play(&mut pos.clone(), "d3:d5");
    // From home, f3 may step to e3 (never left) and jump f3:d3? d3 is occupied; f1:d1 leaves.
    play(&mut pos.clone(), "f3-e3");
}

#[test]
fn hg_10_anti_blocking_win() {
    // Black's eight home pieces have never left a6–c8; c6 is empty; White steps in.
    let mut pos = board(
        "ugolki-hg-3x3",
        "d6 f1 g1 h1 f2 g2 h2 f3 g3",
        "a6 b6 a7 b7 c7 a8 b8 c8 h8",
        Seat::WHITE,
        40,
    );
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "d6-c6");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(
            Seat::WHITE,
            EndReason::TargetBlockedButReached
        ))
    );
    assert_eq!(pos.count_legal_moves(), 0);
}

#[test]
fn hg_10_anti_blocking_win_can_come_early_in_3x4() {
    // Black's d6 stepped out, White jumped into the hole: a6–d8 is full with a White piece.
    let mut pos = after("ugolki-hg-3x4", "e2:e4 d6-d5");
    play(&mut pos, "f2:f4:d4:d6");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(
            Seat::WHITE,
            EndReason::TargetBlockedButReached
        ))
    );
}

#[test]
fn hg_all_pieces_in_target_is_target_filled() {
    let mut pos = board(
        "ugolki-hg-3x3",
        "a6 b6 c6 a7 b7 c7 a8 b8 d8",
        "f1 g1 h1 f2 g2 h2 f3 g3 e5",
        Seat::WHITE,
        60,
    );
    play(&mut pos, "d8-c8");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::WHITE, EndReason::TargetFilled))
    );
}

#[test]
fn hg_11_piece_starting_in_target_stays_there() {
    let pos = board(
        "ugolki-hg-3x3",
        "c6 f1 g1 h1 f2 g2 h2 f3 g3",
        "d6 a7 b7 c7 a8 b8 c8 h8 c5",
        Seat::WHITE,
        30,
    );
    assert_illegal(&pos, "c6:e6", "must stay inside it; e6 is outside");
    // c5, c7 and d6 are Black's, so the only move left is the step inside the camp.
    assert_eq!(dests(&pos, "c6"), ["b6"]);
    let mut p = pos.clone();
    play(&mut p, "c6-b6");
    // A step out is refused the same way.
    let pos = board(
        "ugolki-hg-3x3",
        "c6 f1 g1 h1 f2 g2 h2 f3 g3",
        "a7 b7 c7 a8 b8 c8 h8 h7 h6",
        Seat::WHITE,
        30,
    );
    assert_illegal(&pos, "c6-c5", "must stay inside it; c5 is outside");
    assert_illegal(&pos, "c6-d6", "must stay inside it; d6 is outside");
    assert_eq!(dests(&pos, "c6"), ["b6"]);
}

#[test]
fn hg_11_chain_may_pass_through_the_target_a_u1() {
    // c4 over c5 into c6 (target), on over d6 to e6 (outside): legal, the piece did not start
    // its turn in the target.
    let pos = board(
        "ugolki-hg-3x3",
        "c4 f1 g1 h1 f2 g2 h2 f3 g3",
        "c5 d6 a7 b7 c7 a8 b8 c8 h8",
        Seat::WHITE,
        30,
    );
    let mut p = pos.clone();
    let effect = play(&mut p, "c4:c6:e6");
    assert_eq!(effect.path, squares("c4 c6 e6"));
    assert!(pos.destinations(sq("c4")).contains(&sq("e6")));
}

#[test]
fn hg_12_start_move_lists() {
    assert_eq!(
        move_names(&start("ugolki-hg-3x3")),
        sorted("f1-e1 f2-e2 f3-e3 f3-f4 g3-g4 h3-h4 g1:e1 g2:e2 g3:e3 f2:f4 g2:g4 h2:h4")
    );
    assert_eq!(
        move_names(&start("ugolki-hg-3x4")),
        sorted(
            "e1-d1 e2-d2 e3-d3 e3-e4 f3-f4 g3-g4 h3-h4 f1:d1 f2:d2 f3:d3 e2:e4 f2:f4 g2:g4 h2:h4"
        )
    );
    // Black has as many by symmetry (before White's move changes the board, so mirror it:
    // a Black-first copy of the variant is not shipped; count Black's replies to a far move).
    let black = move_names(&after("ugolki-hg-3x3", "h3-h4"));
    assert_eq!(black.len(), 12, "{black:?}");
}

#[test]
fn hg_13_piece_counts_never_change() {
    for name in ["ugolki-hg-3x3", "ugolki-hg-3x4"] {
        let n = rules(name).pieces_per_side();
        let mut pos = start(name);
        let mut moves = Vec::new();
        for ply in 0..300u32 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[(ply as usize * 7 + 3) % moves.len()];
            pos.play(&mv).unwrap();
            assert_eq!(count(&pos, Seat::WHITE), n, "{name} ply {ply}");
            assert_eq!(count(&pos, Seat::BLACK), n, "{name} ply {ply}");
        }
    }
}

// ---------------------------------------------------------------- 9qum Ugolki (§3.3)

#[test]
fn q_1_start_moves() {
    assert_eq!(
        move_names(&start("ugolki-9qum")),
        sorted("a3-a4 b3-b4 c3-c4 c1-d1 c2-d2 c3-d3 a2:a4 b2:b4 c2:c4 b1:d1 b2:d2 b3:d3")
    );
}

#[test]
fn q_2_no_diagonal_steps() {
    assert_illegal(
        &start("ugolki-9qum"),
        "c3-d4",
        "diagonal; pieces here move only orthogonally",
    );
}

#[test]
fn q_3_notation_example() {
    assert_illegal(
        &start("ugolki-9qum"),
        "b3:d3:d5",
        "no piece on d4 to jump over",
    );
    let mut pos = board(
        "ugolki-9qum",
        "a1 b1 c1 a2 b2 c2 a3 b3 c3",
        "d4 f6 g6 h6 f7 g7 h7 f8 g8",
        Seat::WHITE,
        10,
    );
    let effect = play(&mut pos, "b3:d3:d5");
    assert_eq!(effect.path, squares("b3 d3 d5"));
    assert_eq!(effect.jumped, squares("c3 d4"));
}

#[test]
fn q_4_jumping_an_opponent_captures_nothing() {
    let mut pos = board(
        "ugolki-9qum",
        "a1 b1 c1 a2 b2 c2 a3 b3 c3",
        "d4 f6 g6 h6 f7 g7 h7 f8 g8",
        Seat::WHITE,
        10,
    );
    play(&mut pos, "b3:d3:d5");
    assert_eq!(pos.piece_at(sq("d4")), Some(Seat::BLACK));
    assert_eq!(count(&pos, Seat::BLACK), 9);
}

/// White has eight pieces in f6–h8 and e8 next to the empty f8; Black eight in a1–c3 and d3
/// next to the empty c3. White to move at ply 60.
fn q5_position() -> RacePosition {
    board(
        "ugolki-9qum",
        "f6 g6 h6 f7 g7 h7 g8 h8 e8",
        "a1 b1 c1 a2 b2 c2 a3 b3 d3",
        Seat::WHITE,
        60,
    )
}

#[test]
fn q_5_equalising_reply_draws() {
    let mut pos = q5_position();
    play(&mut pos, "e8-f8");
    assert_eq!(pos.outcome(), None, "Black still has its equalising reply");
    play(&mut pos, "d3-c3");
    assert_eq!(pos.outcome(), Some(Outcome::draw(EndReason::BothFinished)));
}

#[test]
fn q_6_no_equaliser_white_wins() {
    let mut pos = q5_position();
    play(&mut pos, "e8-f8");
    play(&mut pos, "d3-d4");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::WHITE, EndReason::TargetFilled))
    );
}

#[test]
fn q_7_black_finishing_first_wins_at_once() {
    let mut pos = board(
        "ugolki-9qum",
        "f6 g6 h6 f7 g7 h7 g8 e8 e7",
        "a1 b1 c1 a2 b2 c2 a3 b3 d3",
        Seat::BLACK,
        61,
    );
    play(&mut pos, "d3-c3");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::BLACK, EndReason::TargetFilled))
    );
}

#[test]
fn q_8_forty_move_rule_loser() {
    // Ply 79, Black to move; White still has a1 at home, Black has left f6–h8.
    let mut pos = board(
        "ugolki-9qum",
        "a1 d4 e4 f4 g4 h4 d5 e5 f5",
        "a4 b4 c4 a5 b5 c5 d2 e2 h1",
        Seat::BLACK,
        79,
    );
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "h1-h2");
    assert_eq!(pos.ply(), 80);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::BLACK, EndReason::HomeNotVacated))
    );
}

#[test]
fn q_9_forty_move_rule_both_at_home_draws() {
    let mut pos = board(
        "ugolki-9qum",
        "a1 d4 e4 f4 g4 h4 d5 e5 f5",
        "a4 b4 c4 a5 b5 c5 d2 e2 h8",
        Seat::BLACK,
        79,
    );
    play(&mut pos, "e2-e1");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::draw(EndReason::HomeNotVacated))
    );
    // Checked once: the same pieces at home at ply 82 end nothing.
    let mut later = board(
        "ugolki-9qum",
        "a1 d4 e4 f4 g4 h4 d5 e5 f5",
        "a4 b4 c4 a5 b5 c5 d2 e2 h8",
        Seat::BLACK,
        81,
    );
    play(&mut later, "e2-e1");
    assert_eq!(later.outcome(), None);
}

#[test]
fn q_10_count_after_ply_200() {
    // White 7 in f6–h8, Black 6 in a1–c3.
    let mut pos = board(
        "ugolki-9qum",
        "f6 g6 h6 f7 g7 h7 f8 d5 d6",
        "a1 b1 c1 a2 b2 c2 e3 e4 e5",
        Seat::BLACK,
        199,
    );
    play(&mut pos, "e3-e2");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(
            Seat::WHITE,
            EndReason::PieceCount { white: 7, black: 6 }
        ))
    );
    // 6–6 draws.
    let mut pos = board(
        "ugolki-9qum",
        "f6 g6 h6 f7 g7 h7 d5 d6 d7",
        "a1 b1 c1 a2 b2 c2 e3 e4 e5",
        Seat::BLACK,
        199,
    );
    play(&mut pos, "e3-e2");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::draw(EndReason::PieceCount { white: 6, black: 6 }))
    );
}

#[test]
fn q_11_no_legal_move_loses() {
    // Black closes the last gap around White's only mobile piece a1.
    let mut pos = board(
        "ugolki-9qum",
        "a1",
        "a2 b1 a3 c2 f6 g6 h6 f7 g7",
        Seat::BLACK,
        21,
    );
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "c2-c1");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::BLACK, EndReason::NoLegalMoves))
    );
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

// ---------------------------------------------------------------- Halma (§4)

#[test]
fn h_1_start_moves() {
    assert_eq!(
        move_names(&start("halma-16")),
        sorted(
            "l1-k1 l1-k2 l1:l3 l2-k1 l2-k2 l2-k3 l2-l3 m1:k1 m1:k3 m2-l3 m2:k2 m2:m4 m3-l3 m3-l4 m3-m4 m3:k1 \
             n1:l3 n2:l4 n3-m4 n3:l3 n3:n5 n4-m4 n4-m5 n4-n5 n4:p6 o2:m4 o3:m5 o4-n5 o4:m4 o4:o6 o5-n5 o5-n6 o5-o6 o5-p6 \
             p3:n5 p4:n6 p4:p6 p5-o6 p5-p6 p5:n5"
        )
    );
}

#[test]
fn h_2_diagonal_step() {
    let mut pos = start("halma-16");
    let effect = play(&mut pos, "l2-k3");
    assert_eq!(effect.kind, MoveKind::Step);
}

#[test]
fn h_3_diagonal_jump_over_own_piece() {
    let mut pos = start("halma-16");
    let effect = play(&mut pos, "m1:k3");
    assert_eq!(effect.jumped, squares("l2"));
}

#[test]
fn h_4_chain_ends_on_p6() {
    let pos = start("halma-16");
    assert_eq!(dests(&pos, "n4"), ["m4", "m5", "n5", "p6"]);
    let mut p = pos.clone();
    play(&mut p, "n4:p6");
}

#[test]
fn h_5_piece_in_target_cannot_step_out() {
    let pos = board(
        "halma-16",
        "e16 l1 m1 n1 o1 p1 l2 m2 n2 o2 p2 m3 n3 o3 p3 n4 o4 p4 o5",
        "a7 b7 c7 d7 e7 f7 g7 h7 i7 j7 a8 b8 c8 d8 e8 f8 g8 h8 i8",
        Seat::WHITE,
        100,
    );
    assert_eq!(dests(&pos, "e16"), ["d15", "d16", "e15"]);
    assert_illegal(&pos, "e16-f16", "may not leave it; f16 is outside");
}

#[test]
fn h_6_per_landing_lock_mid_chain() {
    let pos = board(
        "halma-16",
        "f15 l1 m1 n1 o1 p1 l2 m2 n2 o2 p2 m3 n3 o3 p3 n4 o4 p4 o5",
        "e15 d14 c7 d7 e7 f7 g7 h7 i7 j7 a8 b8 c8 d8 e8 f8 g8 h8 i8",
        Seat::WHITE,
        100,
    );
    let mut p = pos.clone();
    play(&mut p, "f15:d15");
    assert_illegal(
        &pos,
        "f15:d15:d13",
        "has entered White's target camp and may not leave it; d13 is outside",
    );
    assert!(!pos.destinations(sq("f15")).contains(&sq("d13")));
}

#[test]
fn h_7_filling_the_target_wins() {
    let mut pos = board(
        "halma-16",
        "a16 b16 c16 d16 e16 a15 b15 c15 d15 e15 a14 b14 c14 d14 a13 b13 c13 b12 a11",
        "l1 m1 n1 o1 p1 l2 m2 n2 o2 p2 m3 n3 o3 p3 n4 o4 p4 o5 g8",
        Seat::WHITE,
        150,
    );
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "a11-a12");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::WHITE, EndReason::TargetFilled))
    );
}

/// White's 17 pieces on the target (all but a16 and b12), c11 next to b12 and one far piece;
/// Black's a16 never left its camp.
fn h8_position(name_or_rules: std::sync::Arc<boardcraft_rules::race::RaceRules>) -> RacePosition {
    RacePosition::from_board(
        name_or_rules,
        &squares("b16 c16 d16 e16 a15 b15 c15 d15 e15 a14 b14 c14 d14 a13 b13 c13 a12 c11 h1"),
        &squares("a16 l1 m1 n1 o1 p1 l2 m2 n2 o2 p2 m3 n3 o3 p3 n4 o4 p4 o5"),
        Seat::WHITE,
        150,
    )
    .unwrap()
}

#[test]
fn h_8_no_anti_spoiling_rule_by_default() {
    let mut pos = h8_position(rules("halma-16"));
    play(&mut pos, "c11-b12");
    assert_eq!(
        pos.outcome(),
        None,
        "a16 is Black's: the target is full but not White's"
    );
}

/// H-11 (A-H7): in `halma-16-parlett` Black keeps one piece at home (a16) and White fills the
/// other 18 target squares: White wins on that ply (the target is full, any colour, with White
/// pieces in it) — the position of H-8, where `halma-16` plays on.
#[test]
fn h_11_parlett_full_target_with_an_own_piece_wins() {
    let mut pos = h8_position(rules("halma-16-parlett"));
    assert_eq!(pos.outcome(), None, "b12 is still empty");
    play(&mut pos, "c11-b12");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(
            Seat::WHITE,
            EndReason::TargetBlockedButReached
        ))
    );
    // All 19 own pieces is still a plain fill.
    let mut pos = board(
        "halma-16-parlett",
        "a16 b16 c16 d16 e16 a15 b15 c15 d15 e15 a14 b14 c14 d14 a13 b13 c13 b12 a11",
        "l1 m1 n1 o1 p1 l2 m2 n2 o2 p2 m3 n3 o3 p3 n4 o4 p4 o5 g8",
        Seat::WHITE,
        150,
    );
    play(&mut pos, "a11-a12");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::WHITE, EndReason::TargetFilled))
    );
}

/// Under Parlett's rule a full target needs one of the mover's pieces in it: White's camp
/// full of White's own pieces (none has left yet) is no Black win.
#[test]
fn parlett_a_target_full_of_the_owners_pieces_is_not_reached() {
    let mut pos = board(
        "halma-16-parlett",
        "l1 m1 n1 o1 p1 l2 m2 n2 o2 p2 m3 n3 o3 p3 n4 o4 p4 o5 p5",
        "a16 b16 c16 d16 e16 a15 b15 c15 d15 e15 a14 b14 c14 d14 a13 b13 c13 a12 b12",
        Seat::BLACK,
        1,
    );
    play(&mut pos, "b12-c11");
    assert_eq!(pos.outcome(), None);
}

/// The rule is judged for both sides after every ply (mover first): a White piece that steps
/// back into the last hole of its own camp, which Black's pieces fill, completes Black's target
/// and Black wins on White's ply (halma-16 has no rule against re-entering one's camp).
#[test]
fn parlett_filling_the_opponents_target_for_him_loses() {
    let mut pos = board(
        "halma-16-parlett",
        "o6 a8 b8 c8 d8 e8 f8 g8 h8 i8 j8 a9 b9 c9 d9 e9 f9 g9 h9",
        "l1 m1 n1 o1 p1 l2 m2 n2 o2 p2 m3 n3 o3 p3 n4 o4 p4 o5 a1",
        Seat::WHITE,
        100,
    );
    play(&mut pos, "o6-p5");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(
            Seat::BLACK,
            EndReason::TargetBlockedButReached
        ))
    );
}

#[test]
fn h_9_threefold_repetition_draws() {
    let mut pos = start("halma-16");
    let cycle = "l2-k3 e15-f14 k3-l2 f14-e15";
    play_all(&mut pos, cycle);
    assert_eq!(pos.occurrences(), 2);
    assert_eq!(pos.outcome(), None);
    let before = pos.clone();
    let mut moves = Vec::new();
    for (i, m) in cycle.split_whitespace().enumerate() {
        let mv = pos.parse_move(m).unwrap();
        let undo = pos.play_unchecked(&mv);
        moves.push((mv, undo));
        if i < 3 {
            assert_eq!(pos.outcome(), None);
        }
    }
    assert_eq!(pos.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    assert_eq!(pos.count_legal_moves(), 0);
    while let Some((mv, undo)) = moves.pop() {
        pos.undo(&mv, undo);
    }
    assert_eq!(pos.outcome(), None, "undo restores the history");
    assert_eq!(pos.hash(), before.hash());
    assert_eq!(pos.occurrences(), 2);
}

/// The occurrence that draws is the variant's `repetition_draw` count, not a fixed three.
#[test]
fn repetition_draw_counts_the_variants_occurrences() {
    let halma_with = |setting: &str| {
        let text = boardcraft_rules::variant::shipped_files()
            .iter()
            .find(|(f, _)| *f == "halma-16.ron")
            .unwrap()
            .1
            .replace("repetition_draw: Some(3)", setting);
        match boardcraft_rules::Variant::from_ron("halma-rep.ron", &text)
            .unwrap_or_else(|e| panic!("{e}"))
            .rules
        {
            boardcraft_rules::FamilyRules::Race(r) => RacePosition::new(r),
            _ => unreachable!(),
        }
    };
    let cycle = "l2-k3 e15-f14 k3-l2 f14-e15";
    let mut twofold = halma_with("repetition_draw: Some(2)");
    play_all(&mut twofold, cycle);
    assert_eq!(
        twofold.outcome(),
        Some(Outcome::draw(EndReason::Repetition))
    );
    let mut fourfold = halma_with("repetition_draw: Some(4)");
    play_all(&mut fourfold, cycle);
    play_all(&mut fourfold, cycle);
    assert_eq!((fourfold.occurrences(), fourfold.outcome()), (3, None));
    play_all(&mut fourfold, cycle);
    assert_eq!(
        fourfold.outcome(),
        Some(Outcome::draw(EndReason::Repetition))
    );
    let mut off = halma_with("repetition_draw: None");
    for _ in 0..4 {
        play_all(&mut off, cycle);
    }
    assert_eq!((off.occurrences(), off.outcome()), (5, None));
}

fn play_all(pos: &mut RacePosition, line: &str) {
    for m in line.split_whitespace() {
        play(pos, m);
    }
}

#[test]
fn h_10_ply_cap_draws() {
    let white = "l1 m1 n1 o1 p1 l2 m2 n2 o2 p2 m3 n3 o3 p3 n4 o4 p4 o5 p5";
    let black = "a16 b16 c16 d16 e16 a15 b15 c15 d15 e15 a14 b14 c14 d14 a13 b13 c13 a12 h8";
    let mut pos = board("halma-16", white, black, Seat::WHITE, 398);
    play(&mut pos, "l2-k3");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "h8-h7");
    assert_eq!(pos.ply(), 400);
    assert_eq!(pos.outcome(), Some(Outcome::draw(EndReason::PlyCap)));
}

// ---------------------------------------------------------------- notation and details

#[test]
fn notation_errors_say_what_is_wrong() {
    let pos = start("ugolki-hg-3x3");
    for (text, why) in [
        ("", "empty"),
        ("e4", "write a step"),
        ("e4-", "missing"),
        ("z9-a1", "`z9` is not a square"),
        ("a1-b2:c3", "not both"),
        ("a1-a2-a3", "a step names two squares"),
        ("f3-t20", "`t20` is not a square"),
    ] {
        match pos.parse_move(text) {
            Err(NotationError::Syntax { why: got, .. }) => {
                assert!(got.contains(why), "{text}: {got}")
            }
            other => panic!("{text}: expected a syntax error, got {other:?}"),
        }
    }
    assert_illegal(&pos, "i3-i4", "i3 is not on the 8×8 board");
    assert_illegal(&pos, "e4-e5", "there is no piece on e4");
    assert_illegal(
        &pos,
        "a6-a5",
        "a6 holds a Black piece, but it is White's turn",
    );
    assert_illegal(&pos, "f3:f4", "f3 to f4 is a step; write it f3-f4");
    assert_illegal(&pos, "f2-f4", "not neighbours");
    assert_illegal(&pos, "g2:e2:g2", "where the piece started");
    assert_illegal(&pos, "f3:d5", "no chain of jumps leads from f3 to d5");
    // Upper case and spaces around the text are accepted.
    assert!(pos.parse_move(" G2:E2 ").is_ok());
}

#[test]
fn from_to_chains_use_the_representative_path() {
    let pos = after("ugolki-hg-3x4", "1. e3-e4 d6-d5");
    let mv = pos.parse_move("e1:c5").unwrap();
    assert_eq!(pos.format_move(&mv), "e1:e3:e5:c5");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let generated = moves.iter().find(|m| **m == mv).unwrap();
    assert_eq!(generated.path(), mv.path());
}

#[test]
fn every_generated_move_round_trips_through_notation() {
    let race = boardcraft_rules::shipped_variants().filter(|name| {
        matches!(
            boardcraft_rules::shipped_variant(name).map(|v| v.rules),
            Ok(boardcraft_rules::FamilyRules::Race(_))
        )
    });
    for name in race {
        let pos = start(name);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        for mv in &moves {
            let text = pos.format_move(mv);
            let back = pos.parse_move(&text).unwrap();
            assert_eq!(back, *mv);
            assert_eq!(back.path(), mv.path(), "{name} {text}");
        }
    }
}

#[test]
fn game_over_refuses_moves() {
    let mut pos = q5_position();
    play(&mut pos, "e8-f8");
    play(&mut pos, "d3-d4");
    assert_illegal(&pos, "d4-d5", "the game is over (White wins");
    let mv = after("ugolki-9qum", "").parse_move("a3-a4").unwrap();
    let err = pos.clone().play(&mv).unwrap_err();
    assert!(
        err.reason.to_string().contains("the game is over"),
        "{}",
        err.reason
    );
}

#[test]
fn from_board_is_validated() {
    let r = rules("ugolki-hg-3x3");
    let err =
        RacePosition::from_board(r.clone(), &squares("a1 a1"), &[], Seat::WHITE, 0).unwrap_err();
    assert!(err.to_string().contains("a1 is given twice"), "{err}");
    let err = RacePosition::from_board(r.clone(), &squares("a1"), &squares("a1"), Seat::WHITE, 0)
        .unwrap_err();
    assert!(err.to_string().contains("a1 is given twice"), "{err}");
    let err = RacePosition::from_board(r.clone(), &squares("i1"), &[], Seat::WHITE, 0).unwrap_err();
    assert!(
        err.to_string().contains("i1 is not on the 8×8 board"),
        "{err}"
    );
    let err =
        RacePosition::from_board(r, &squares("a1"), &squares("h8"), Seat::BLACK, 0).unwrap_err();
    assert!(
        err.to_string().contains("after 0 plies it is White's turn"),
        "{err}"
    );
}

#[test]
fn display_shows_board_camps_and_turn() {
    let pos = after("ugolki-hg-3x3", "g2:e2");
    let text = pos.to_string();
    assert!(text.contains("  8  B B B . . . . .  8"), "{text}");
    assert!(text.contains("  2  . . . . W W w W  2"), "{text}");
    assert!(text.contains("     a b c d e f g h"), "{text}");
    assert!(text.ends_with("Black to move, ply 1"), "{text}");
    let halma = start("halma-16").to_string();
    assert!(
        halma.contains(" 16  B B B B B . . . . . . . . . . .  16"),
        "{halma}"
    );
}

// ------------------------------------------ the 40-move deadline, as the coach reads it (§3.3)

#[test]
fn q_home_deadline_counts_turns_and_pieces_at_home() {
    let mut pos = start("ugolki-9qum");
    let d = pos.home_deadline().expect("9qum has the 40-move rule");
    assert_eq!((d.check_ply, d.plies_left), (80, 80));
    assert_eq!(d.turns_left, [40, 40]);
    assert_eq!(d.at_home[Seat::WHITE.index()].len(), 9);
    assert_eq!(d.at_home[Seat::BLACK.index()].len(), 9);
    play(&mut pos, "a3-a4");
    let d = pos.home_deadline().unwrap();
    assert_eq!(d.plies_left, 79);
    // Black is to move: it has the odd ply left over.
    assert_eq!(d.turns_left, [39, 40]);
    assert_eq!(d.at_home[Seat::WHITE.index()].len(), 8);
    assert!(!d.at_home[Seat::WHITE.index()].contains(&sq("a3")));
}

#[test]
fn q_home_deadline_names_the_pieces_the_rule_will_judge() {
    // One ply before the check: White's a1 is still at home, Black's home is clear.
    let pos = board(
        "ugolki-9qum",
        "a1 d4 e4 f4 g4 h4 d5 e5 f5",
        "a4 b4 c4 a5 b5 c5 d2 e2 h1",
        Seat::BLACK,
        79,
    );
    let d = pos.home_deadline().unwrap();
    assert_eq!((d.plies_left, d.turns_left), (1, [0, 1]));
    assert_eq!(d.at_home[Seat::WHITE.index()], squares("a1"));
    assert!(d.at_home[Seat::BLACK.index()].is_empty());
    // The deadline agrees with the rule: after Black's move, White (a1 at home) loses.
    let mut after = pos.clone();
    play(&mut after, "h1-h2");
    assert_eq!(
        after.outcome(),
        Some(Outcome::win(Seat::BLACK, EndReason::HomeNotVacated))
    );
    assert_eq!(after.home_deadline(), None, "the check is behind");
}

#[test]
fn home_deadline_is_none_without_the_rule() {
    assert_eq!(start("ugolki-hg-3x3").home_deadline(), None);
    assert_eq!(start("halma-16").home_deadline(), None);
}

/// The reason a move is refused, as the race family's value.
fn race_reason(pos: &RacePosition, text: &str) -> Illegal {
    match pos.parse_move(text) {
        Err(NotationError::Illegal {
            reason: IllegalReason::Race(why),
            ..
        }) => why,
        other => panic!("{text} should be an illegal race move, got {other:?}\n{pos}"),
    }
}

#[test]
fn illegal_moves_say_what_is_wrong_as_values() {
    let pos = start("ugolki-hg-3x3");
    assert_eq!(
        race_reason(&pos, "e4-e5"),
        Illegal::NoPiece { square: sq("e4") }
    );
    assert_eq!(
        race_reason(&pos, "a6-a5"),
        Illegal::NotYourPiece {
            square: sq("a6"),
            owner: Seat::BLACK,
            to_move: Seat::WHITE,
        }
    );
    assert_eq!(
        race_reason(&pos, "i3-i4"),
        Illegal::OffBoardOf {
            square: sq("i3"),
            width: 8,
            height: 8,
        }
    );
    assert!(matches!(
        race_reason(&pos, "f2-f4"),
        Illegal::NotNeighbours {
            jump_hint: true,
            ..
        }
    ));
    assert_eq!(
        race_reason(&pos, "f3:f4"),
        Illegal::IsAStep {
            from: sq("f3"),
            to: sq("f4"),
        }
    );
    // `from:to` names any chain; none leads there, and the single jump has nothing to jump.
    assert_eq!(
        race_reason(&pos, "f2:d2"),
        Illegal::NoChainJumpFails {
            from: sq("f2"),
            to: sq("d2"),
            jump: Box::new(Illegal::NothingToJump {
                over: sq("e2"),
                left_by_mover: false,
            }),
        }
    );
    assert_eq!(
        race_reason(&pos, "g2:e2:g2"),
        Illegal::ReturnsToStart { square: sq("g2") }
    );
    match race_reason(&pos, "f3:d5") {
        Illegal::NoChainJumpFails { from, to, jump } => {
            assert_eq!((from, to), (sq("f3"), sq("d5")));
            assert!(matches!(
                *jump,
                Illegal::WrongDirection { diagonal: true, .. }
            ));
        }
        other => panic!("f3:d5: {other:?}"),
    }
    // The value displays as the sentence the player reads.
    assert_eq!(
        Illegal::NoPiece { square: sq("e4") }.to_string(),
        "there is no piece on e4"
    );
}

#[test]
fn a_finished_game_refuses_moves_as_game_over() {
    let mut pos = q5_position();
    play(&mut pos, "e8-f8");
    play(&mut pos, "d3-d4");
    let outcome = pos.outcome().expect("the game is over");
    assert_eq!(race_reason(&pos, "d4-d5"), Illegal::GameOver(outcome));
    let mv = after("ugolki-9qum", "").parse_move("a3-a4").unwrap();
    let err = pos.clone().play(&mv).unwrap_err();
    assert_eq!(err.reason, IllegalReason::Race(Illegal::GameOver(outcome)));
    assert_eq!(err.notation, "a3-a4");
}

#[test]
fn hand_made_positions_say_what_is_wrong_as_values() {
    let r = rules("ugolki-hg-3x3");
    let err =
        RacePosition::from_board(r.clone(), &squares("a1 a1"), &[], Seat::WHITE, 0).unwrap_err();
    assert_eq!(err, SetupError::GivenTwice { square: sq("a1") });
    let err = RacePosition::from_board(r.clone(), &squares("i1"), &[], Seat::WHITE, 0).unwrap_err();
    assert!(matches!(err, SetupError::OffBoardOf { width: 8, .. }));
    let err =
        RacePosition::from_board(r, &squares("a1"), &squares("h8"), Seat::BLACK, 0).unwrap_err();
    assert_eq!(
        err,
        SetupError::WrongTurn {
            ply: 0,
            expected: Seat::WHITE,
            first: Seat::WHITE,
        }
    );
}

#[test]
fn a_move_of_another_game_is_refused_as_such() {
    let mut focus = boardcraft_rules::shipped_variant("focus")
        .unwrap()
        .new_game();
    let race = boardcraft_rules::shipped_variant("ugolki-hg-3x3")
        .unwrap()
        .new_game();
    let mut moves = Vec::new();
    race.legal_moves(&mut moves);
    let err = focus.play(&moves[0]).unwrap_err();
    assert_eq!(err.reason, IllegalReason::OtherGame);
    assert_eq!(err.reason.to_string(), "the move belongs to another game");
}
