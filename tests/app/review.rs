//! The review cursor: the board shows an earlier position while the live game stays as it
//! is, and nothing (human or computer) moves until the cursor is back.
use bevy::prelude::*;
use boardcraft::{
    game::computer::AiThinking,
    game::config::{Level, PlayerKind, Players},
    game::match_state::{Match, TurnPhase},
    game::review::{Review, ReviewCommand},
    view::board::Board,
    view::model::Snapshot,
    view::pieces::ViewRepairs,
};
use boardcraft_rules::Position;

use crate::common::*;

const LINE: &str = "g2:e2 b7:d7 f3-f4 a7:a5";

fn command(app: &mut App, c: ReviewCommand) {
    app.world_mut().write_message(c);
    app.update();
    app.update();
}

fn review(app: &App) -> Option<usize> {
    app.world().resource::<Review>().ply
}

/// The view shows the position after `ply` moves of the game.
fn assert_view_shows(app: &mut App, ply: usize) {
    let game = app.world().resource::<Match>().clone();
    let layout = app.world().resource::<Board>().layout.clone();
    let expected = Snapshot::of(&game.position_at(ply), &layout);
    let view = view_snapshot(app.world_mut());
    assert_same_pieces(&view, &expected);
}

#[test]
fn the_review_cursor_shows_earlier_positions_and_never_changes_the_game() {
    let mut app = app_for("ugolki-hg-3x3", LINE, humans());
    start(&mut app);
    let live = app.world().resource::<Match>().clone();

    command(&mut app, ReviewCommand::Go(1));
    assert_eq!(review(&app), Some(1));
    assert_view_shows(&mut app, 1);
    command(&mut app, ReviewCommand::Back);
    assert_eq!(review(&app), Some(0));
    assert_view_shows(&mut app, 0);
    command(&mut app, ReviewCommand::Back);
    assert_eq!(review(&app), Some(0), "the start is as far back as it goes");
    command(&mut app, ReviewCommand::Forward);
    command(&mut app, ReviewCommand::Forward);
    command(&mut app, ReviewCommand::Forward);
    assert_eq!(review(&app), Some(3));
    assert_view_shows(&mut app, 3);

    // The live game is untouched by all of it.
    let now = app.world().resource::<Match>();
    assert_eq!(now.position.hash(), live.position.hash());
    assert_eq!(now.line(), live.line());
    assert_eq!(now.game_id, live.game_id);
    // Showing another position on purpose is not a repair of the view.
    assert_eq!(*app.world().resource::<ViewRepairs>(), ViewRepairs(0));

    // Stepping past the last move is the live game again.
    command(&mut app, ReviewCommand::Forward);
    assert_eq!(review(&app), None);
    assert_view_shows(&mut app, 4);
    let (view, rules) = (view_snapshot(app.world_mut()), rules_snapshot(app.world()));
    assert_same_pieces(&view, &rules);
}

#[test]
fn no_move_is_played_while_reviewing() {
    let mut app = app_for("ugolki-hg-3x3", LINE, humans());
    start(&mut app);
    command(&mut app, ReviewCommand::First);
    // A legal move of the live position, sent while the board shows the start.
    request(&mut app, "f2-f3");
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(app.world().resource::<Match>().line(), LINE);
    assert_eq!(phase(app.world()), Some(TurnPhase::Ready));
    command(&mut app, ReviewCommand::Live);
    play_animated(&mut app, "f2-f3");
    assert_eq!(app.world().resource::<Match>().history.len(), 5);
}

#[test]
fn the_computer_waits_while_the_player_reviews() {
    // Black (the computer) is to move after White's first move.
    let mut app = app_for("ugolki-hg-3x3", "g2:e2", humans());
    start(&mut app);
    command(&mut app, ReviewCommand::Go(0));
    app.insert_resource(Players::two(
        PlayerKind::Human,
        PlayerKind::Computer(Level::Novice),
    ));
    for _ in 0..60 {
        app.update();
    }
    assert_eq!(app.world().resource::<Match>().history.len(), 1);
    assert!(!app.world().resource::<AiThinking>().is_thinking());
    command(&mut app, ReviewCommand::Live);
    run_until(&mut app, 4_000, "the computer's move", |w| {
        w.resource::<Match>().history.len() == 2
    });
}

#[test]
fn a_new_game_or_an_undo_ends_the_review() {
    let mut app = app_for("ugolki-hg-3x3", LINE, humans());
    start(&mut app);
    command(&mut app, ReviewCommand::Go(2));
    app.world_mut()
        .write_message(boardcraft::game::match_state::UndoRequested);
    app.update();
    app.update();
    assert_eq!(review(&app), None);
    assert_eq!(app.world().resource::<Match>().history.len(), 3);
    let (view, rules) = (view_snapshot(app.world_mut()), rules_snapshot(app.world()));
    assert_same_pieces(&view, &rules);
}
