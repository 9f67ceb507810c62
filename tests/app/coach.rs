//! The coach: after a human move (with the setting on) the AI's verdict arrives, names the
//! move played and the AI's own choice, and is forgotten when its move is taken back.
use bevy::prelude::*;
use boardcraft::{
    game::coach::{Coach, Grade},
    game::match_state::{Match, UndoRequested},
    settings::Settings,
};
use boardcraft_rules::Position;

use crate::common::*;

fn coach_on(app: &mut App) {
    app.world_mut().resource_mut::<Settings>().coach = true;
}

#[test]
fn a_human_move_gets_a_verdict_with_the_best_alternative() {
    let mut app = app_for("ugolki-9qum", "", humans());
    start(&mut app);
    coach_on(&mut app);
    let before = app.world().resource::<Match>().position.clone();
    play_animated(&mut app, "a3-a4");
    run_until(&mut app, 4_000, "the verdict", |w| {
        w.resource::<Coach>().latest.is_some()
    });
    let coach = app.world().resource::<Coach>();
    let game = app.world().resource::<Match>();
    let verdict = coach
        .current(game)
        .expect("the verdict is for this game's last move");
    assert_eq!((verdict.ply, verdict.played.as_str()), (1, "a3-a4"));
    let best = verdict
        .best
        .as_deref()
        .expect("the start position has moves");
    assert!(before.parse_move(best).is_ok(), "{best} is a legal move");
    assert_eq!(verdict.best_line.first().map(String::as_str), Some(best));
    assert_eq!(verdict.played_best(), best == "a3-a4");
    let best = best.to_owned();

    // Taking the move back makes the verdict stale.
    app.world_mut().write_message(UndoRequested);
    app.update();
    app.update();
    let game = app.world().resource::<Match>();
    assert!(app.world().resource::<Coach>().current(game).is_none());

    // The AI's own choice, played instead, is rated the best move, with nothing lost (the
    // coach's search has a fixed node budget, so it chooses the same move again).
    assert_best_when_played(&mut app, &best);
}

/// Plays `best` (the coach's own choice) and checks that its verdict rates it the best move,
/// nothing lost.
fn assert_best_when_played(app: &mut App, best: &str) {
    play_animated(app, best);
    run_until(app, 4_000, "the verdict on the AI's choice", |w| {
        let game = w.resource::<Match>();
        w.resource::<Coach>()
            .current(game)
            .is_some_and(|v| v.played == best)
    });
    let game = app.world().resource::<Match>();
    let verdict = app.world().resource::<Coach>().current(game).unwrap();
    assert!(verdict.played_best(), "{verdict:?}");
    assert_eq!((verdict.grade(), verdict.loss()), (Grade::Best, 0));
}

#[test]
fn without_the_setting_the_coach_is_silent() {
    let mut app = app_for("ugolki-9qum", "", humans());
    start(&mut app);
    play_animated(&mut app, "a3-a4");
    for _ in 0..30 {
        app.update();
    }
    let coach = app.world().resource::<Coach>();
    assert!(coach.latest.is_none() && !coach.is_thinking());
}

/// At a table of three the coach rates a person's move against the computer's choice from the
/// mover's own standing: a step back loses ground, the computer's choice loses nothing.
#[test]
fn at_a_larger_table_the_coach_rates_the_movers_own_standing() {
    let players = boardcraft::game::config::Players::new(vec![
        boardcraft::game::config::PlayerKind::Human;
        3
    ])
    .unwrap();
    let mut app = app_for("chinese-checkers", "", players);
    start(&mut app);
    coach_on(&mut app);
    assert_eq!(app.world().resource::<Match>().position.seat_count(), 3);
    // A step sideways out of the home point's tip, gaining nothing.
    play_animated(&mut app, "j4-i5");
    run_until(&mut app, 4_000, "the verdict", |w| {
        let game = w.resource::<Match>();
        w.resource::<Coach>().current(game).is_some()
    });
    let game = app.world().resource::<Match>();
    let verdict = app
        .world()
        .resource::<Coach>()
        .current(game)
        .unwrap()
        .clone();
    let best = verdict.best.clone().expect("a best move");
    assert_ne!(best, "j4-i5");
    assert!(verdict.loss() > 0, "{verdict:?}");
    // The computer's choice, played instead, loses nothing.
    app.world_mut().write_message(UndoRequested);
    app.update();
    app.update();
    assert_best_when_played(&mut app, &best);
}
