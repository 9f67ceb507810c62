//! The search on Focus: forced wins found, legal moves only, slicing changes nothing.
mod common;

use std::sync::Arc;

use boardcraft_ai::{Budget, Evaluate, Level, score::WIN, think};
use boardcraft_rules::{
    AnyPosition, FamilyRules, Position, Seat, Variant,
    focus::{FocusPosition, FocusRules, Square, Stack},
};
use common::{
    assert_search_finds_forced_win, check_legal_answer, check_sliced_equals_unsliced,
    random_playout,
};
use proptest::prelude::*;

fn rules_of(name: &str) -> Arc<FocusRules> {
    match Variant::resolve(name).unwrap().rules {
        FamilyRules::Focus(r) => r,
        _ => unreachable!(),
    }
}

fn rules() -> Arc<FocusRules> {
    rules_of("focus")
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// A position from `(square, stack bottom→top)` pairs; pieces not on the board are counted as
/// captured by the opponent so that every side keeps its 18.
fn position(stacks: &[(&str, &str)], reserve: [u16; 2], to_move: Seat) -> FocusPosition {
    let stacks: Vec<(Square, Stack)> = stacks
        .iter()
        .map(|(s, st)| (sq(s), st.parse().unwrap()))
        .collect();
    let mut on_board = [0u16; 2];
    for (_, st) in &stacks {
        for c in Seat::BOTH {
            on_board[c.index()] += u16::from(st.count(c));
        }
    }
    // captured[c] = pieces c took = the opponent's missing pieces.
    let missing = |c: Seat| 18 - on_board[c.index()] - reserve[c.index()];
    let captured = [missing(Seat::BLACK), missing(Seat::WHITE)];
    FocusPosition::from_setup(rules(), &stacks, reserve, captured, to_move).unwrap()
}

#[test]
fn win_in_one_captures_the_last_stack() {
    // Black's only stack is d5 and it has no reserve: d4-d5 takes control and Black cannot
    // move. Moving elsewhere would let Black live on.
    let pos = position(
        &[("d4", "W"), ("d5", "B"), ("g6", "WW")],
        [0, 0],
        Seat::WHITE,
    );
    assert_search_finds_forced_win(&pos, 1);
    let r = think(&pos, Budget::depth(3));
    assert_eq!(pos.format_move(r.best_move.as_ref().unwrap()), "d4-d5");
}

#[test]
fn win_in_two_waits_for_the_cornered_stack() {
    // Black's single on a3 can only go to a4 or b3, both covered by White's b4, which cannot
    // reach a3 itself: White must wait with the g5 piece and capture next move.
    let pos = position(
        &[("b4", "W"), ("a3", "B"), ("g5", "W")],
        [0, 0],
        Seat::WHITE,
    );
    assert_search_finds_forced_win(&pos, 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn search_never_returns_an_illegal_move(
        seed in any::<u64>(),
        plies in 0u64..90,
        nodes in 1u64..3000,
        noise in 0i32..200,
        small in any::<bool>(),
    ) {
        let start = if small {
            FocusPosition::new(rules_of("focus-6x6"))
        } else {
            FocusPosition::new(rules())
        };
        check_legal_answer(&random_playout(&start, plies, seed), nodes, noise, seed);
    }
}

/// The quiescence search written out plainly: stand pat on the static value or try every
/// capture, down to four plies below the horizon (the search's limit), finished games scored by
/// their distance from the root.
fn quiescence(pos: &mut FocusPosition, ply: i32, below: i32) -> i32 {
    if let Some(o) = pos.outcome() {
        return match o.winner() {
            None => 0,
            Some(w) if w == pos.side_to_move() => WIN - ply,
            Some(_) => -(WIN - ply),
        };
    }
    let stand = pos.evaluate();
    if below >= 4 {
        return stand;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.retain(|m| pos.is_noisy(m));
    let mut best = stand;
    for mv in &moves {
        let undo = pos.play_unchecked(mv);
        best = best.max(-quiescence(pos, ply + 1, below + 1));
        pos.undo(mv, undo);
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A one-ply search is the best move's quiescence value exactly: below the horizon the
    /// captures are played out, so a capture that loses the stack back is not taken at face
    /// value.
    #[test]
    fn one_ply_search_resolves_captures(seed in any::<u64>(), plies in 10u64..70) {
        let pos = random_playout(&FocusPosition::new(rules_of("focus-6x6")), plies, seed);
        prop_assume!(!pos.is_game_over());
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut work = pos.clone();
        let exact = moves
            .iter()
            .map(|mv| {
                let undo = work.play_unchecked(mv);
                let v = -quiescence(&mut work, 1, 0);
                work.undo(mv, undo);
                v
            })
            .max()
            .unwrap();
        prop_assert_eq!(think(&pos, Budget::depth(1)).score.0, exact);
    }
}

#[test]
fn sliced_equals_unsliced_on_focus() {
    let start = FocusPosition::new(rules());
    check_sliced_equals_unsliced(&start, 30_000, 997, 0);
    let mut mid = start.clone();
    boardcraft_rules::position::play_line(&mut mid, "d2-d3 c2-c3 d3-d5").unwrap();
    check_sliced_equals_unsliced(&mid, 20_000, 1, 40);
}

#[test]
fn evaluation_is_antisymmetric_in_material_and_delegates_through_any_position() {
    // Same board, White with an extra reserve piece: good for White whoever is to move.
    let w = position(&[("d4", "W"), ("d5", "B")], [1, 0], Seat::WHITE);
    let b = position(&[("d4", "W"), ("d5", "B")], [1, 0], Seat::BLACK);
    assert!(w.evaluate() > 0 && b.evaluate() < 0);
    let any = AnyPosition::Focus(w.clone());
    assert_eq!(any.evaluate(), w.evaluate());
    let r = Level::Novice.think(&any, 3);
    assert!(any.is_legal(r.best_move.as_ref().unwrap()));
}
