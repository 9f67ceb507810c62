//! Best-reply search's view of a game: with two seats it is the game itself; with more, its
//! moves and undos keep the game exact, the others' replies are every opponent's moves (never a
//! partner's), and the root's game ends when the root has no turns left.
use boardcraft_ai::{
    Budget,
    best_reply::{self, BestReply},
    think,
};
use boardcraft_rules::{
    AnyPosition, IllegalReason, OutOfTurn, Position, Seat, Variant, race::RacePosition,
    shipped_variant,
};

fn race(name: &str, players: usize) -> RacePosition {
    let v = shipped_variant(name)
        .unwrap()
        .with_players(players)
        .unwrap();
    match v.new_game() {
        AnyPosition::Race(p) => p,
        _ => panic!("{name} is not a race game"),
    }
}

fn step(rng: &mut u64) -> u64 {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    *rng
}

/// Random positions of a game (a few plies in), for searches to start from.
fn positions(name: &str, players: usize, count: usize) -> Vec<RacePosition> {
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut pos = race(name, players);
        for _ in 0..(step(&mut rng) % 40) {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(&moves[(step(&mut rng) % moves.len() as u64) as usize]);
        }
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

/// With two seats the only reply is the opponent's move: the view searches the same tree as
/// the game itself, node for node.
#[test]
fn with_two_seats_the_view_searches_the_game_itself() {
    for name in ["ugolki-9qum", "chinese-checkers"] {
        for pos in positions(name, 2, 6) {
            let plain = think(&pos, Budget::nodes(20_000));
            let view = think(&BestReply::new(&pos), Budget::nodes(20_000));
            assert_eq!(
                view.best_move.map(|r| r.mv),
                plain.best_move,
                "{name}\n{pos}"
            );
            assert_eq!(view.score, plain.score, "{name}\n{pos}");
            assert_eq!(view.nodes, plain.nodes, "{name}\n{pos}");
            assert_eq!(view.depth, plain.depth, "{name}\n{pos}");
        }
    }
}

/// A skipped turn goes to the next seat still playing and comes back exactly; any seat's moves
/// are what it would have on its own turn.
#[test]
fn skipped_turns_and_moves_out_of_turn_keep_the_game_exact() {
    for players in [3, 4, 6] {
        for mut pos in positions("chinese-checkers", players, 8) {
            let (hash, side, text) = (pos.hash(), pos.side_to_move(), pos.to_string());
            let mut own = Vec::new();
            pos.legal_moves(&mut own);
            let mut of = Vec::new();
            pos.legal_moves_of(side, &mut of);
            assert_eq!(of, own);
            let skip = pos.skip_turn();
            assert_ne!(pos.side_to_move(), side);
            assert_ne!(pos.hash(), hash);
            let mut theirs = Vec::new();
            pos.legal_moves(&mut theirs);
            let mut of = Vec::new();
            pos.legal_moves_of(pos.side_to_move(), &mut of);
            assert_eq!(of, theirs);
            pos.unskip_turn(skip);
            assert_eq!(
                (pos.hash(), pos.side_to_move(), pos.to_string()),
                (hash, side, text)
            );
        }
    }
}

/// Random walks through the view: the others' replies are the moves of every other seat still
/// playing, after a reply the root is to move again, and undo restores the game exactly.
#[test]
fn replies_are_every_other_seats_moves_and_undo_restores_the_game() {
    for players in [3, 4, 6] {
        for pos in positions("chinese-checkers", players, 4) {
            let root = pos.side_to_move();
            let mut view = BestReply::new(&pos);
            let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ players as u64;
            let mut line = Vec::new();
            let mut snapshots = Vec::new();
            let mut moves = Vec::new();
            for _ in 0..30 {
                if view.is_game_over() {
                    break;
                }
                view.legal_moves(&mut moves);
                if view.side_to_move() == Seat::WHITE {
                    assert_eq!(view.game().side_to_move(), root);
                    assert!(moves.iter().all(|r| r.seat == root));
                } else {
                    let mut expected = 0;
                    let mut of = Vec::new();
                    for s in Seat::all(players).filter(|&s| s != root) {
                        view.game().legal_moves_of(s, &mut of);
                        expected += of.len();
                    }
                    assert_eq!(moves.len(), expected);
                    assert!(moves.iter().all(|r| r.seat != root));
                }
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(step(&mut rng) % moves.len() as u64) as usize];
                snapshots.push((view.hash(), view.game().to_string()));
                let undo = view.play_unchecked(&mv);
                if mv.seat != root && !view.is_game_over() {
                    assert_eq!(
                        view.side_to_move(),
                        Seat::WHITE,
                        "the root moves after a reply"
                    );
                }
                line.push((mv, undo));
            }
            while let Some((mv, undo)) = line.pop() {
                view.undo(&mv, undo);
                assert_eq!(
                    (view.hash(), view.game().to_string()),
                    snapshots.pop().unwrap()
                );
            }
        }
    }
}

/// In Halma for four partners, a partner never replies against its partner.
#[test]
fn a_partner_never_replies() {
    let v: Variant = shipped_variant("halma-16-partners").unwrap();
    let AnyPosition::Race(pos) = v.new_game() else {
        unreachable!()
    };
    let root = pos.side_to_move();
    let mut view = BestReply::new(&pos);
    let mut moves = Vec::new();
    view.legal_moves(&mut moves);
    let first = moves[0];
    view.play_unchecked(&first);
    view.legal_moves(&mut moves);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|r| !pos.same_team(r.seat, root)));
    assert!(moves.iter().any(|r| r.seat == Seat::at(1)));
    assert!(moves.iter().any(|r| r.seat == Seat::at(3)));
}

/// Places already taken are not at stake: with three of six seats finished, Blue (to move, one
/// step from filling its target) finishes fourth at once. Scored among all six seats, fourth is
/// worse than an even race, and every level used to shuffle in its target until the ply cap.
#[test]
fn a_seat_takes_the_best_place_left() {
    let v = shipped_variant("chinese-checkers")
        .unwrap()
        .with_players(6)
        .unwrap();
    let text = "R/RR/RRR/RRRR/OOOO5PPYP/OOO6PPP/OO7PP/1O7P/9/1Y7B/YY7BB/YPY6BBB/YYYY4B1BBB/GGGG/GGG/GG/G b 1000 GPR";
    let AnyPosition::Race(pos) = v.position_from_text(text).unwrap() else {
        panic!("a race position");
    };
    let blue = pos.side_to_move();
    assert!(!pos.has_finished(blue));
    for level in boardcraft_ai::Level::ALL {
        let view = BestReply::new(&pos);
        let chosen = level.think(&view, 1).best_move.expect("Blue has moves");
        let mut after = pos.clone();
        after.play(&chosen.mv).unwrap();
        assert!(
            after.has_finished(blue),
            "{level} played {} and Blue has not finished",
            pos.format_move(&chosen.mv)
        );
        assert_eq!(after.settled_place(blue), Some(4));
    }
}

/// A reply of a seat that cannot make it now is refused, naming that seat.
#[test]
fn a_reply_out_of_turn_is_refused_naming_its_seat() {
    let pos = race("chinese-checkers", 3);
    let other = Seat::at(1);
    let mut moves = Vec::new();
    pos.legal_moves_of(other, &mut moves);
    let mut view = BestReply::new(&pos);
    let err = view
        .play(&best_reply::Reply {
            seat: other,
            mv: moves[0],
        })
        .unwrap_err();
    match err.reason {
        IllegalReason::NotSeatsMove { seat } => {
            assert_eq!(seat.seat, other);
            assert_eq!(seat.name, pos.seat_name(other));
        }
        other => panic!("{other:?}"),
    }
}
