//! The generic search on toy games whose answers are known exactly.
mod common;

use boardcraft_ai::{
    Budget, Evaluate, Level, Progress, Search, SearchConfig, ThinkResult, greedy, score::WIN, think,
};
use boardcraft_rules::Position;
use common::{Mnk, Nim, random_playout};
use proptest::prelude::*;

/// Plain negamax to the end of the game: the exact value with distance-to-result, as the
/// search defines it (win `n` plies from the root = `WIN - n`).
fn solve<P: Position>(pos: &mut P, ply: i32) -> i32 {
    if let Some(o) = pos.outcome() {
        return match o.winner() {
            None => 0,
            Some(w) if w == pos.side_to_move() => WIN - ply,
            Some(_) => -(WIN - ply),
        };
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best = i32::MIN;
    for mv in &moves {
        let undo = pos.play_unchecked(mv);
        best = best.max(-solve(pos, ply + 1));
        pos.undo(mv, undo);
    }
    best
}

/// The exact value of each legal move.
fn solve_moves<P: Position>(pos: &P) -> Vec<(P::Move, i32)> {
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let undo = pos.play_unchecked(&mv);
            let v = -solve(&mut pos, 1);
            pos.undo(&mv, undo);
            (mv, v)
        })
        .collect()
}

/// The reproducible part of a result (everything but the elapsed time).
fn key<M: Clone>(r: &ThinkResult<M>) -> (Option<M>, i32, u32, u64, Vec<M>) {
    (
        r.best_move.clone(),
        r.score.0,
        r.depth,
        r.nodes,
        r.pv.clone(),
    )
}

#[test]
fn nim_is_solved_with_exact_distances() {
    for pile in 1..=21u32 {
        let r = think(&Nim::new(pile), Budget::default());
        let rounds = pile.div_ceil(4) as i32;
        if pile % 4 == 0 {
            // Lost: the loser takes one at a time to last as long as possible.
            assert_eq!(
                r.score.plies_to_result(),
                Some(-(2 * (pile as i32 / 4))),
                "pile {pile}"
            );
        } else {
            assert_eq!(r.best_move, Some(pile % 4), "pile {pile}");
            assert_eq!(
                r.score.plies_to_result(),
                Some(2 * rounds - 1),
                "pile {pile}"
            );
        }
    }
}

#[test]
fn tic_tac_toe_is_a_draw_and_the_pv_is_legal() {
    let start = Mnk::new(3, 3);
    let r = think(&start, Budget::depth(30));
    assert_eq!(r.score.0, 0);
    let mut pos = start.clone();
    for mv in &r.pv {
        pos.play(mv).expect("the principal variation is legal");
    }
    assert_eq!(r.pv.first(), r.best_move.as_ref());
}

#[test]
fn finds_a_win_in_one_over_a_block() {
    // X to move: a3-b3 made, c3 wins at once; blocking O's a2-b2-c2 would be slower.
    let pos = Mnk::from_rows(3, &["XX.", "OO.", "X.O"]);
    let r = think(&pos, Budget::depth(4));
    assert_eq!(pos.format_move(r.best_move.as_ref().unwrap()), "c3");
    assert_eq!(r.score.plies_to_result(), Some(1));
}

#[test]
fn finds_a_win_in_two_by_a_fork() {
    // X to move cannot win at once (c3 is taken) but b2 forks b1 and c1.
    let pos = Mnk::from_rows(3, &["XXO", "O..", "..."]);
    let exact = solve_moves(&pos);
    let best = exact.iter().map(|(_, v)| *v).max().unwrap();
    assert_eq!(
        WIN - best,
        3,
        "the position is a forced win in two moves of X"
    );
    let r = think(&pos, Budget::depth(8));
    assert_eq!(r.score.0, best);
    let chosen = exact
        .iter()
        .find(|(m, _)| Some(m) == r.best_move.as_ref())
        .unwrap();
    assert_eq!(chosen.1, best, "the chosen move wins as fast as possible");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// On tic-tac-toe the search (deep enough that no reduction reaches the horizon) gets
    /// the exact value, distance included, and plays a move that achieves it.
    #[test]
    fn tic_tac_toe_values_are_exact(plies in 0usize..8, seed in any::<u64>()) {
        let pos = random_playout(&Mnk::new(3, 3), plies as u64, seed);
        prop_assume!(!pos.is_game_over());
        let exact = solve_moves(&pos);
        let best = exact.iter().map(|(_, v)| *v).max().unwrap();
        let r = think(&pos, Budget::depth(30));
        prop_assert_eq!(r.score.0, best);
        let chosen = exact.iter().find(|(m, _)| Some(m) == r.best_move.as_ref()).unwrap();
        prop_assert_eq!(chosen.1, best);
    }

    /// Whatever the budget, noise and seed, the move returned is legal in the position.
    #[test]
    fn never_returns_an_illegal_move(
        plies in 0usize..12,
        seed in any::<u64>(),
        nodes in 1u64..4000,
        noise in 0i32..300,
    ) {
        let pos = random_playout(&Mnk::new(4, 4), plies as u64, seed);
        let cfg = SearchConfig::new(Budget::nodes(nodes)).with_noise(noise).with_seed(seed);
        let r = Search::new(&pos, cfg).run();
        match r.best_move {
            Some(mv) => prop_assert!(pos.is_legal(&mv)),
            None => prop_assert!(pos.is_game_over()),
        }
        let g = greedy(&pos, seed);
        if let Some(mv) = g.best_move {
            prop_assert!(pos.is_legal(&mv));
        }
    }

    /// Running the search in slices of any size changes nothing.
    #[test]
    fn sliced_equals_unsliced(
        plies in 0usize..6,
        seed in any::<u64>(),
        nodes in 200u64..6000,
        slice in 1u64..700,
        noise in 0i32..100,
    ) {
        let pos = random_playout(&Mnk::new(4, 4), plies as u64, seed);
        let cfg = SearchConfig::new(Budget::nodes(nodes)).with_noise(noise).with_seed(seed);
        let whole = Search::new(&pos, cfg.clone()).run();
        let mut search = Search::new(&pos, cfg);
        let mut calls = 0u64;
        let sliced = loop {
            calls += 1;
            if let Progress::Done(r) = search.step(slice) {
                break r;
            }
        };
        prop_assert_eq!(key(&whole), key(&sliced));
        prop_assert!(calls >= whole.nodes / slice, "the search paused between slices");
    }
}

#[test]
fn node_budget_is_respected_and_results_are_reproducible() {
    let pos = Mnk::new(4, 4);
    for nodes in [100, 1000, 10_000] {
        let a = think(&pos, Budget::nodes(nodes));
        let b = think(&pos, Budget::nodes(nodes));
        assert_eq!(key(&a), key(&b));
        assert!(a.nodes <= nodes.max(17), "{} > {nodes}", a.nodes);
    }
}

#[test]
fn the_seed_drives_the_noise_and_nothing_else() {
    let pos = Mnk::new(4, 4);
    let run = |seed| {
        let cfg = SearchConfig::new(Budget::nodes(3000))
            .with_noise(200)
            .with_seed(seed);
        Search::new(&pos, cfg).run()
    };
    assert_eq!(key(&run(5)), key(&run(5)));
    let moves: std::collections::HashSet<_> = (0..20).map(|s| run(s).best_move).collect();
    assert!(
        moves.len() > 1,
        "different seeds vary the choice of a noisy level"
    );
}

#[test]
fn stop_returns_the_best_move_so_far() {
    let pos = Mnk::new(4, 4);
    let mut search = Search::new(&pos, SearchConfig::new(Budget::default()));
    assert!(matches!(search.step(5000), Progress::Running));
    let depth = search.depth();
    assert!(depth >= 1);
    let r = search.stop();
    assert!(pos.is_legal(r.best_move.as_ref().unwrap()));
    assert_eq!(r.depth, depth);
    // A stopped search stays stopped.
    assert!(matches!(search.step(10), Progress::Done(_)));
}

#[test]
fn finished_positions_have_no_move() {
    let pos = Mnk::from_rows(3, &["XXX", "OO.", "..."]);
    let r = think(&pos, Budget::nodes(100));
    assert_eq!(r.best_move, None);
    assert_eq!(r.score.plies_to_result(), Some(-0));
    assert_eq!(greedy(&pos, 1).best_move, None);
}

#[test]
fn greedy_takes_a_win_and_breaks_ties_by_seed() {
    let pos = Mnk::from_rows(3, &["XX.", "OO.", "X.O"]);
    assert_eq!(greedy(&pos, 0).best_move, Some(2));
    // On the empty 4×4 board the eight cells on a diagonal (three lines each) evaluate alike
    // and better than the edges (two lines): the seed picks one of them.
    let empty = Mnk::new(4, 4);
    let picks: std::collections::HashSet<_> = (0..32)
        .map(|s| greedy(&empty, s).best_move.unwrap())
        .collect();
    assert!(picks.len() > 1);
    assert!(
        picks
            .iter()
            .all(|&m| [0, 3, 5, 6, 9, 10, 12, 15].contains(&m)),
        "{picks:?}"
    );
    assert_eq!(greedy(&empty, 3).best_move, greedy(&empty, 3).best_move);
}

#[test]
fn levels_play_legal_moves_and_parse() {
    let pos = random_playout(&Mnk::new(4, 4), 3, 9);
    for level in Level::ALL {
        let r = level.think(&pos, 11);
        assert!(pos.is_legal(r.best_move.as_ref().unwrap()), "{level}");
        assert_eq!(level.name().parse::<Level>(), Ok(level));
    }
    assert!("grandmaster".parse::<Level>().is_err());
    // Evaluate is the side to move's view: the same board is +x for one side, -x for the other.
    let a = Mnk::from_rows(4, &["X...", "....", "....", "...."]);
    assert!(a.evaluate() < 0, "O to move faces X's head start");
}

#[test]
fn contempt_makes_a_draw_a_small_loss_for_the_root_side() {
    let start = Mnk::new(3, 3);
    let cfg = SearchConfig::new(Budget::depth(30)).with_contempt(50);
    let r = Search::new(&start, cfg).run();
    assert_eq!(
        r.score.0, -50,
        "every line draws, and a draw is worth -50 to X"
    );
    // Without contempt the same search scores the draw as 0 and the move is still sound.
    assert_eq!(think(&start, Budget::depth(30)).score.0, 0);
}

#[test]
fn searches_can_move_to_a_background_thread() {
    fn is_send<T: Send + 'static>() {}
    is_send::<Search<Mnk>>();
    is_send::<boardcraft_ai::AnySearch>();
    // And actually run there.
    let pos = Mnk::new(4, 4);
    let handle = std::thread::spawn(move || think(&pos, Budget::nodes(2_000)));
    assert!(handle.join().unwrap().best_move.is_some());
}
