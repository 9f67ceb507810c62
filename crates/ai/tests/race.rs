//! The search on race games: forced wins found, legal moves only, slicing changes nothing.
mod common;

use std::sync::Arc;

use boardcraft_ai::{Budget, Evaluate, think};
use boardcraft_rules::{
    FamilyRules, Position, Seat, Variant,
    race::{RacePosition, RaceRules, Square},
};
use common::{
    assert_search_finds_forced_win, check_legal_answer, check_sliced_equals_unsliced,
    random_playout,
};
use proptest::prelude::*;

fn rules(name: &str) -> Arc<RaceRules> {
    match Variant::resolve(name).unwrap().rules {
        FamilyRules::Race(r) => r,
        _ => unreachable!(),
    }
}

fn squares(names: &str) -> Vec<Square> {
    names
        .split_whitespace()
        .map(|n| Square::parse(n).unwrap())
        .collect()
}

/// Halma: every target square but the listed holes, White to move at ply `ply`.
fn halma_endgame(holes: &str, white_outside: &str) -> RacePosition {
    let r = rules("halma-16");
    let holes = squares(holes);
    let mut white: Vec<Square> = r
        .target(Seat::WHITE)
        .iter()
        .copied()
        .filter(|s| !holes.contains(s))
        .collect();
    white.extend(squares(white_outside));
    // Black: 18 pieces home in White's camp (one square free) and one far behind on h8, so it
    // is nowhere near winning or blocking.
    let mut black: Vec<Square> = r.target(Seat::BLACK).iter().copied().skip(1).collect();
    black.extend(squares("h8"));
    RacePosition::from_board(r, &white, &black, Seat::WHITE, 100).unwrap()
}

#[test]
fn halma_win_in_one_completes_the_camp() {
    let pos = halma_endgame("b12", "c11");
    assert_search_finds_forced_win(&pos, 1);
    let r = think(&pos, Budget::depth(3));
    assert_eq!(pos.format_move(r.best_move.as_ref().unwrap()), "c11-b12");
}

#[test]
fn halma_win_in_two_fills_both_holes() {
    let pos = halma_endgame("b12 d14", "c11 e13");
    assert_search_finds_forced_win(&pos, 3);
}

/// Halma with Parlett's rule (halma-16-parlett): Black never moved a16 and b16, White holds the
/// other 15 target squares but b12 and d14, with c11 and e13 beside them. Two steps fill the
/// target (any colour, White pieces in it): a win in 3 plies, which the search finds and plays.
/// Under halma-16 the same position is no win at all: Black's two pieces spoil the target.
#[test]
fn halma_parlett_plays_for_the_full_target_the_spoiler_cannot_stop() {
    let position = |name: &str| {
        let r = rules(name);
        let left = squares("a16 b16 b12 d14");
        let mut white: Vec<Square> = r
            .target(Seat::WHITE)
            .iter()
            .copied()
            .filter(|s| !left.contains(s))
            .collect();
        white.extend(squares("c11 e13 o16 p16"));
        let black = squares("a16 b16 f6 g6 h6 i6 j6 k6 l6 m6 n6 o6 f7 g7 h7 i7 j7 k7 l7");
        RacePosition::from_board(r, &white, &black, Seat::WHITE, 120).unwrap()
    };
    let parlett = position("halma-16-parlett");
    assert_search_finds_forced_win(&parlett, 3);
    let spoiled = position("halma-16");
    let r = think(&spoiled, Budget::depth(5).with_nodes(2_000_000));
    assert_eq!(r.score.plies_to_result(), None, "score {}", r.score);
}

#[test]
fn ugolki_anti_blocking_win_in_one() {
    // HG-10: Black's eight pieces never left a6–c8; White lands on the ninth square and wins,
    // because a full target holding one White piece counts as reached.
    let r = rules("ugolki-hg-3x3");
    let black = squares("a6 b6 c6 a7 b7 c7 a8 b8 h4");
    let white = squares("d8 d1 d2 d3 e1 e2 e3 e4 e5");
    let pos = RacePosition::from_board(r, &white, &black, Seat::WHITE, 60).unwrap();
    assert_search_finds_forced_win(&pos, 1);
    let r = think(&pos, Budget::depth(3));
    assert_eq!(pos.format_move(r.best_move.as_ref().unwrap()), "d8-c8");
}

#[test]
fn a_piece_beside_the_target_is_not_rated_as_one_inside_it() {
    // White has filled the six deepest squares of its target (a6–d8); a4 and c6 are both four
    // steps from a8, but a4 is still two steps from the target while c6 is in it. Matched by
    // distance to the corner alone, the two would look alike.
    let r = rules("ugolki-hg-3x4");
    let black = squares("e5 f5 g5 h5 e6 f6 g6 h6 e7 f7 g7 h7");
    let eval_with = |piece: &str| {
        let white = squares(&format!("a8 a7 b8 a6 b7 c8 e1 f1 g1 h1 e2 {piece}"));
        RacePosition::from_board(r.clone(), &white, &black, Seat::WHITE, 40)
            .unwrap()
            .evaluate()
    };
    let (inside, beside) = (eval_with("c6"), eval_with("a4"));
    assert!(inside > beside, "c6 {inside} vs a4 {beside}");
}

#[test]
fn a_lead_is_worth_less_while_an_opponent_piece_is_walled_in_inside_the_target() {
    // Halma: White has filled its target (a12–e16) but for b16, where a Black straggler sits.
    // With White on d14 the straggler can neither step nor jump (a16 c16 a15 b15 c15 around
    // it, d16 b14 d14 behind them): White can never fill b16, and its big lead is worth little.
    // With that piece one step back on d13 the straggler can jump out over c15, and White is
    // better off although its piece is further from home.
    let r = rules("halma-16");
    let target = r.target(Seat::WHITE).to_vec();
    let black: Vec<Square> = r
        .target(Seat::BLACK)
        .iter()
        .copied()
        .skip(1)
        .chain(squares("b16"))
        .collect();
    let eval_with = |moved: &str| {
        let mut white: Vec<Square> = target
            .iter()
            .copied()
            .filter(|&s| s != Square::parse("b16").unwrap() && s != Square::parse("d14").unwrap())
            .collect();
        white.extend(squares(&format!("h9 {moved}")));
        RacePosition::from_board(r.clone(), &white, &black, Seat::WHITE, 200)
            .unwrap()
            .evaluate()
    };
    let (walled_in, open) = (eval_with("d14"), eval_with("d13"));
    assert!(walled_in < open, "walled in {walled_in} vs open {open}");
}

#[test]
fn halma_pieces_leave_home_although_their_camp_walls_them_in() {
    // At the start the pieces inside each camp are walled in by their own side: that must not
    // count as the opponent's doing, or each side would rather keep its home shut than move
    // out. After 40 plies of shallow search both sides have left home with most pieces.
    let mut pos = RacePosition::new(rules("halma-16"));
    for _ in 0..40 {
        let mv = think(&pos, Budget::depth(2)).best_move.unwrap();
        pos.play(&mv).unwrap();
    }
    for side in Seat::BOTH {
        let at_home = pos
            .piece_squares(side)
            .filter(|&s| pos.rules().in_camp(side, s))
            .count();
        assert!(
            at_home <= 10,
            "{side:?} still has {at_home} of 19 pieces at home"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn search_never_returns_an_illegal_move(
        variant in prop::sample::select(vec![
            "ugolki-hg-3x3", "ugolki-hg-3x4", "ugolki-9qum", "grasshopper", "halma-16",
        ]),
        seed in any::<u64>(),
        plies in 0u64..160,
        nodes in 1u64..3000,
        noise in 0i32..200,
    ) {
        let start = RacePosition::new(rules(variant));
        check_legal_answer(&random_playout(&start, plies, seed), nodes, noise, seed);
    }
}

#[test]
fn sliced_equals_unsliced_on_race_games() {
    check_sliced_equals_unsliced(&RacePosition::new(rules("ugolki-9qum")), 30_000, 333, 0);
    check_sliced_equals_unsliced(&RacePosition::new(rules("halma-16")), 10_000, 1, 30);
}

#[test]
fn evaluation_prefers_progress_and_fears_the_forty_move_rule() {
    let r = rules("ugolki-9qum");
    let start = RacePosition::new(r.clone());
    // After a3-a4 (White's turn is over), Black to move is behind by a step.
    let mut after = start.clone();
    after.play(&after.parse_move("a3-a4").unwrap()).unwrap();
    assert!(after.evaluate() < 0, "{}", after.evaluate());
    // Near ply 80, a White piece still at home weighs heavily against White.
    let white_away = squares("d4 d5 d6 e4 e5 e6 f4 f5 f3");
    let white_home = squares("a1 d5 d6 e4 e5 e6 f4 f5 f3");
    let black = squares("c4 c5 c6 b4 b5 b6 a4 a5 a6");
    let away = RacePosition::from_board(r.clone(), &white_away, &black, Seat::WHITE, 70).unwrap();
    let home = RacePosition::from_board(r, &white_home, &black, Seat::WHITE, 70).unwrap();
    assert!(away.evaluate() - home.evaluate() > 300);
}

#[test]
fn any_search_matches_the_family_search_and_slices_alike() {
    use boardcraft_ai::{AnySearch, Progress, Search, SearchConfig};
    use boardcraft_rules::{AnyMove, AnyPosition};
    let pos = RacePosition::new(rules("ugolki-hg-3x4"));
    assert_eq!(
        pos.piece_squares(Seat::WHITE).collect::<Vec<_>>(),
        pos.pieces(Seat::WHITE)
    );
    let cfg = SearchConfig::new(Budget::nodes(15_000))
        .with_seed(3)
        .with_noise(20);
    let family = Search::new(&pos, cfg.clone()).run();
    let any = AnyPosition::Race(pos);
    let whole = AnySearch::new(&any, cfg.clone()).run();
    assert_eq!(whole.best_move, family.best_move.map(AnyMove::Race));
    assert_eq!((whole.score, whole.nodes), (family.score, family.nodes));
    let mut sliced = AnySearch::new(&any, cfg);
    let r = loop {
        if let Progress::Done(r) = sliced.step(123) {
            break r;
        }
    };
    assert_eq!(
        (r.best_move, r.score, r.nodes, r.pv),
        (whole.best_move, whole.score, whole.nodes, whole.pv)
    );
}

/// A seat that has finished never moves again: its pieces left at home stay in the target of
/// the seat opposite for good, and under the anti-blocking rule they fill it. Green (four
/// seats) has finished with four pieces left at home in Red's target, so Red needs six pieces
/// there, and where its other four stand cannot change its standing.
#[test]
fn a_finished_seats_pieces_left_at_home_fill_the_target_for_good() {
    let v = boardcraft_rules::shipped_variant("chinese-checkers")
        .unwrap()
        .with_players(4)
        .unwrap();
    let red = |text: &str| {
        let boardcraft_rules::AnyPosition::Race(pos) = v.position_from_text(text).unwrap() else {
            panic!("a race position");
        };
        assert!(pos.has_finished(Seat::at(2)), "Green has finished");
        pos.evaluate_for(pos.side_to_move())
    };
    // Red's four pieces still at home in Green's (full) target: on the deepest cell, or
    // three rows nearer its own target.
    let deep = red("R/RR/RR1/GGGG/5R3YYYY/9YYY/9YY/9Y/9/P9/PP9/PPP9/PPPP9/GGGG/RGG/RR/R r 300 G");
    let near = red("R/RR/RR1/GGGG/5R3YYYY/9YYY/9YY/9Y/9/P9/PP9/PPP9/PPPP9/RGGG/RGG/RR/G r 300 G");
    assert_eq!(deep, near);
    // The sixth piece nearer its last free cell is progress.
    let farther =
        red("R/RR/RR1/GGGG/9YYYY/9YYY/9YY/4R4Y/9/P9/PP9/PPP9/PPPP9/GGGG/RGG/RR/R r 300 G");
    assert!(deep > farther, "{deep} > {farther}");
}
