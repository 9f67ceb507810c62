//! The race family in the app: a jump chain animated hop by hop, and computer games.
use bevy::prelude::*;
use boardcraft::{
    game::computer::AiThinking,
    game::config::{Level, PlayerKind, Players},
    game::match_state::{Match, MoveRequested, TurnPhase},
    view::animation::AnimationSettings,
    view::board::Board,
    view::model::{PhaseKind, Place},
    view::pieces::{BoardView, ViewRepairs, rest_translation},
};
use boardcraft_rules::Position;

use crate::common::*;

#[test]
fn a_three_hop_chain_lands_three_times_in_order_and_ends_on_its_target() {
    // rules.md HG-7: after 1. e3-e4 d6-d5, White's e1 jumps e3, e5 and (over d5) c5.
    let mut app = app_for("ugolki-hg-3x4", "e3-e4 d6-d5", humans());
    start(&mut app);
    record_landings(&mut app);
    let layout = app.world().resource::<Board>().layout.clone();
    let e1 = layout.id("e1").unwrap();
    let c5 = layout.id("c5").unwrap();
    let piece = app.world().resource::<BoardView>().stacks[e1.index()][0];

    request(&mut app, "e1:e3:e5:c5");
    let mut highest = 0.0_f32;
    let mut frames = 0;
    // The rules apply the move in this frame; the phase changes at the next transition.
    app.update();
    app.update();
    assert_eq!(phase(app.world()), Some(TurnPhase::Animating));
    while phase(app.world()) == Some(TurnPhase::Animating) {
        app.update();
        highest = highest.max(app.world().get::<Transform>(piece).unwrap().translation.y);
        frames += 1;
        assert!(frames < 400, "the animation does not end");
    }

    let landings = &app.world().resource::<Landings>().0;
    let cells: Vec<&str> = landings
        .iter()
        .map(|(_, l)| layout.cell(l.cell.unwrap()).name.as_str())
        .collect();
    assert_eq!(cells, ["e3", "e5", "c5"]);
    for (i, (_, l)) in landings.iter().enumerate() {
        assert_eq!((l.index, l.of, l.kind, l.ply), (i, 3, PhaseKind::Hop, 3));
        assert!(!l.skipped);
    }
    // Each hop is its own arc: the landings happen in different frames, one after another.
    assert!(landings.windows(2).all(|w| w[0].0 < w[1].0), "{landings:?}");
    let rest = rest_translation(&layout, Place::Cell(c5), 0);
    assert!(
        highest > rest.y + 0.3,
        "the piece never left the board ({highest})"
    );

    // The same entity now stands on c5, exactly at rest; e1 is empty; nothing was repaired.
    let view = app.world().resource::<BoardView>();
    assert_eq!(view.stacks[c5.index()], vec![piece]);
    assert!(view.stacks[e1.index()].is_empty());
    assert_eq!(
        app.world().get::<Transform>(piece).unwrap().translation,
        rest
    );
    assert_eq!(*app.world().resource::<ViewRepairs>(), ViewRepairs(0));
    let (view, rules) = (view_snapshot(app.world_mut()), rules_snapshot(app.world()));
    assert_same_pieces(&view, &rules);
    assert_eq!(phase(app.world()), Some(TurnPhase::Ready));
}

#[test]
fn skipping_still_lands_every_hop_in_order() {
    let mut app = app_for("ugolki-hg-3x4", "e3-e4 d6-d5", humans());
    start(&mut app);
    record_landings(&mut app);
    app.world_mut().resource_mut::<AnimationSettings>().enabled = false;
    request(&mut app, "e1:e3:e5:c5");
    app.update();
    app.update();
    assert_eq!(phase(app.world()), Some(TurnPhase::Ready));
    let landings = &app.world().resource::<Landings>().0;
    assert_eq!(landings.len(), 3);
    assert!(landings.iter().all(|(_, l)| l.skipped));
    assert!(landings.iter().enumerate().all(|(i, (_, l))| l.index == i));
}

#[test]
fn an_illegal_or_stale_request_changes_nothing() {
    let mut app = app_for("ugolki-hg-3x3", "", humans());
    start(&mut app);
    let game = app.world().resource::<Match>().clone();
    let before = game.position.hash();
    // `e1-d1` is a move only once a piece stands on e1: build it in that position and send it
    // in the start position, where it is illegal.
    let f1e1 = game.position.parse_move("f1-e1").unwrap();
    let mut later = game.position.clone();
    boardcraft_rules::position::play_line(&mut later, "f1-e1 b7:d7").unwrap();
    let e1d1 = later.parse_move("e1-d1").unwrap();
    assert!(!game.position.is_legal(&e1d1));
    app.world_mut().write_message(MoveRequested {
        mv: e1d1,
        game_id: game.game_id,
        ply: 0,
    });
    // A legal move for an earlier game is stale.
    app.world_mut().write_message(MoveRequested {
        mv: f1e1,
        game_id: game.game_id + 7,
        ply: 0,
    });
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(app.world().resource::<Match>().position.hash(), before);
    assert!(app.world().resource::<Match>().history.is_empty());
    assert_eq!(phase(app.world()), Some(TurnPhase::Ready));
}

#[test]
fn halma_computer_against_computer_runs_to_a_move_limit() {
    const PLIES: usize = 60;
    let computer = PlayerKind::Computer(Level::Novice);
    let mut app = app_for("halma-16", "", Players::two(computer, computer));
    start(&mut app);
    app.world_mut().resource_mut::<AnimationSettings>().speed = 4.0;
    run_until(&mut app, 20_000, "the move limit", |w| {
        w.resource::<Match>().history.len() >= PLIES || phase(w) == Some(TurnPhase::GameOver)
    });
    // Stop the computers, then let a move still in flight (a search that was running, a move
    // applied whose animation starts next frame) finish: the view must then equal the rules.
    app.insert_resource(humans());
    let settled = std::cell::Cell::new(0);
    run_until(&mut app, 4_000, "the last animation", |w| {
        let calm = stable_phase(w).is_some_and(|p| p != TurnPhase::Animating)
            && !w.resource::<AiThinking>().is_thinking();
        settled.set(if calm { settled.get() + 1 } else { 0 });
        settled.get() >= 3
    });
    assert!(app.world().resource::<Match>().history.len() >= PLIES);
    assert_eq!(*app.world().resource::<ViewRepairs>(), ViewRepairs(0));
    let (view, rules) = (view_snapshot(app.world_mut()), rules_snapshot(app.world()));
    assert_same_pieces(&view, &rules);
}
