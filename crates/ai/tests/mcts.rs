//! Monte-Carlo tree search at race tables of more than two seats: who plays by it, that it is
//! reproducible and keeps to its budget whether run whole or in slices, that it takes a
//! finish when one is there, and that a seat sure of its place still races home.
use boardcraft_ai::{
    AnySearch, Budget, Level, Progress, SearchConfig, greedy,
    mcts::{Mcts, Settings},
};
use boardcraft_rules::{AnyPosition, Position, Seat, race::RacePosition, shipped_variant};

fn game(name: &str, players: usize) -> AnyPosition {
    shipped_variant(name)
        .unwrap()
        .with_players(players)
        .unwrap()
        .new_game()
}

fn race(name: &str, players: usize) -> RacePosition {
    match game(name, players) {
        AnyPosition::Race(p) => p,
        _ => panic!("{name} is not a race game"),
    }
}

/// A position a few plies into a game, every seat having moved.
fn opening(name: &str, players: usize, plies: usize) -> RacePosition {
    let mut pos = race(name, players);
    for ply in 0..plies {
        let mv = greedy(&pos, ply as u64).best_move.unwrap();
        pos.play(&mv).unwrap();
    }
    pos
}

#[test]
fn master_searches_by_monte_carlo_only_at_race_tables_of_more_than_two() {
    for (name, players, expected) in [
        ("chinese-checkers", 2, false),
        ("chinese-checkers", 3, true),
        ("chinese-checkers", 6, true),
        ("chinese-checkers-long", 4, true),
        // Greedy racers do not finish on the 16×16 boards within the playouts' cap.
        ("halma-16", 4, false),
        ("halma-16-parlett", 4, false),
        ("ugolki-9qum", 2, false),
        ("focus", 4, false),
    ] {
        let pos = game(name, players);
        for level in Level::ALL {
            let cfg = level.config(&pos, 1);
            assert_eq!(
                AnySearch::plays_monte_carlo(&pos, &cfg),
                expected && level == Level::Master,
                "{name} for {players}, {level}"
            );
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_search_whole_or_in_slices() {
    for (name, players) in [
        ("chinese-checkers", 4),
        ("chinese-checkers", 6),
        ("halma-16", 4),
    ] {
        let pos = opening(name, players, 2 * players);
        let cfg = SearchConfig::new(Budget::nodes(30_000))
            .with_seed(7)
            .with_monte_carlo(true);
        let whole = Mcts::new(&pos, &cfg).run();
        let again = Mcts::new(&pos, &cfg).run();
        let mut sliced = Mcts::new(&pos, &cfg);
        let in_slices = loop {
            if let Progress::Done(r) = sliced.step(997) {
                break r;
            }
        };
        for other in [&again, &in_slices] {
            assert_eq!(whole.best_move, other.best_move, "{name} for {players}");
            assert_eq!(whole.pv, other.pv, "{name} for {players}");
            assert_eq!(whole.nodes, other.nodes, "{name} for {players}");
            assert_eq!(whole.score, other.score, "{name} for {players}");
        }
        assert!(pos.is_legal(&whole.best_move.unwrap()));
        // The line is a game: each of its moves legal after the ones before.
        let mut line = pos.clone();
        for mv in &whole.pv {
            assert!(line.is_legal(mv), "{name} for {players}: {mv:?}");
            line.play(mv).unwrap();
        }
    }
}

#[test]
fn it_keeps_to_its_node_budget() {
    let pos = opening("chinese-checkers", 4, 8);
    let seats = pos.seat_count() as u64;
    // A playout's plies, and the moves the searching seat tries at each of its own.
    let settings = Settings::default();
    let per_seat = u64::from(settings.plies_per_seat);
    let longest_playout = per_seat * seats + per_seat * settings.look_ahead as u64;
    for budget in [1, 5_000, 40_000] {
        let cfg = SearchConfig::new(Budget::nodes(budget)).with_monte_carlo(true);
        let r = Mcts::new(&pos, &cfg).run();
        assert!(r.best_move.is_some());
        // It runs until the budget is spent (one playout at least).
        assert!(r.nodes >= budget, "{budget}: {}", r.nodes);
        // It stops at the first playout past the budget: at most one descent and one playout
        // beyond it.
        assert!(
            r.nodes <= budget + longest_playout + 64,
            "{budget}: {}",
            r.nodes
        );
    }
}

/// Plays greedy moves from the start until the seat to move has a move that finishes it.
fn one_move_from_a_finish(name: &str, players: usize) -> (RacePosition, Seat) {
    let mut pos = race(name, players);
    let mut moves = Vec::new();
    for ply in 0..2_000u64 {
        let seat = pos.side_to_move();
        pos.legal_moves(&mut moves);
        let finishes = moves.iter().any(|mv| {
            let mut after = pos.clone();
            after.play(mv).unwrap();
            after.has_finished(seat)
        });
        if finishes {
            return (pos, seat);
        }
        let mv = greedy(&pos, ply).best_move.unwrap();
        pos.play(&mv).unwrap();
        assert!(
            !pos.is_game_over(),
            "{name}: the game ended before a finish"
        );
    }
    panic!("{name}: no seat came within a move of finishing");
}

#[test]
fn it_takes_a_finish_when_one_is_there() {
    for (name, players) in [("chinese-checkers", 3), ("chinese-checkers", 4)] {
        let (pos, seat) = one_move_from_a_finish(name, players);
        let cfg = SearchConfig::new(Budget::nodes(20_000))
            .with_seed(3)
            .with_monte_carlo(true);
        let mv = Mcts::new(&pos, &cfg).run().best_move.unwrap();
        let mut after = pos.clone();
        after.play(&mv).unwrap();
        assert!(
            after.has_finished(seat),
            "{name} for {players}: {} does not finish {}",
            pos.format_move(&mv),
            pos.seat_name(seat)
        );
    }
}

/// Six seats, four finished (Blue, Red, Yellow, Purple). Green cannot finish: its last piece
/// stands on the apex of its own home, walled in by Red's finished pieces. Orange is sure of
/// fifth place, four pieces in its target and six still near its own home. Every playout ends
/// with Orange finishing, so without a reward for finishing sooner every move scored the same
/// and Orange shuffled its pieces to and fro until the ply cap (seen in a match: some 960
/// plies from the fourth finish).
const ORANGE_SURE_OF_FIFTH: &str = "G/RR/RRR/RRRR/3B5PPPP/1OO6PPP/1O7PP/O8P/8O/Y6O1B/YY6OOB/\
                                    YYY5OBBB/YYYY3RBBOBB/G1GG/GGG/GG/G o 604 BRYP";

#[test]
fn a_seat_sure_of_its_place_races_home() {
    let variant = shipped_variant("chinese-checkers")
        .unwrap()
        .with_players(6)
        .unwrap();
    let AnyPosition::Race(mut pos) = variant.position_from_text(ORANGE_SURE_OF_FIFTH).unwrap()
    else {
        unreachable!("Chinese checkers is a race")
    };
    let orange = pos.side_to_move();
    assert_eq!(pos.seat_name(orange), "Orange");
    let mut own_moves = 0;
    while !pos.has_finished(orange) && !pos.is_game_over() {
        let seed = pos.ply() as u64;
        let mv = if pos.side_to_move() == orange {
            own_moves += 1;
            let cfg = SearchConfig::new(Budget::nodes(40_000))
                .with_seed(seed)
                .with_monte_carlo(true);
            Mcts::new(&pos, &cfg).run().best_move.unwrap()
        } else {
            greedy(&pos, seed).best_move.unwrap()
        };
        pos.play(&mv).unwrap();
        assert!(own_moves <= 60, "Orange has not finished in 60 moves");
    }
    assert!(pos.has_finished(orange));
}
