//! Undo, redo and resignation: changes of the game that play no move, handled by the match
//! (the single writer) and shown by rebuilding the view.
use bevy::prelude::*;
use boardcraft::{
    game::computer::{AiThinking, SearchThreads},
    game::config::{Level, PlayerKind, Players},
    game::match_state::{
        EndCause, GameEnd, Match, RedoRequested, ResignRequested, TurnPhase, UndoRequested,
    },
    view::pieces::ViewRepairs,
};
use boardcraft_rules::{Position, Seat};

use crate::common::*;

fn human_vs_computer() -> Players {
    Players::two(PlayerKind::Human, PlayerKind::Computer(Level::Novice))
}

fn game(app: &App) -> &Match {
    app.world().resource::<Match>()
}

/// Waits until nothing moves: no animation, no search, for a few frames in a row.
fn settle(app: &mut App) {
    let calm_frames = std::cell::Cell::new(0);
    run_until(app, 4_000, "a settled game", |w| {
        let calm = stable_phase(w).is_some_and(|p| p != TurnPhase::Animating)
            && !w.resource::<AiThinking>().is_thinking();
        calm_frames.set(if calm { calm_frames.get() + 1 } else { 0 });
        calm_frames.get() >= 3
    });
}

fn assert_view_is_the_game(app: &mut App) {
    let (view, rules) = (view_snapshot(app.world_mut()), rules_snapshot(app.world()));
    assert_same_pieces(&view, &rules);
    assert_eq!(*app.world().resource::<ViewRepairs>(), ViewRepairs(0));
}

#[test]
fn undo_takes_back_the_computer_reply_and_the_human_move_and_redo_replays_both() {
    let mut app = app_for("ugolki-hg-3x3", "", human_vs_computer());
    start(&mut app);
    let start_hash = game(&app).position.hash();
    play_animated(&mut app, "g2:e2");
    // The computer answers.
    run_until(&mut app, 4_000, "the computer's reply", |w| {
        w.resource::<Match>().history.len() == 2
    });
    settle(&mut app);
    let after_reply = game(&app).clone();
    assert_eq!(after_reply.history[1].side, Seat::BLACK);

    app.world_mut().write_message(UndoRequested);
    settle(&mut app);
    let undone = game(&app);
    assert!(undone.history.is_empty(), "both plies are taken back");
    assert_eq!(undone.position.hash(), start_hash);
    assert_eq!(undone.position.side_to_move(), Seat::WHITE);
    assert_eq!(undone.redo.len(), 2);
    assert_eq!(phase(app.world()), Some(TurnPhase::Ready));
    assert_view_is_the_game(&mut app);
    // The human is to move: the computer waits.
    for _ in 0..30 {
        app.update();
    }
    assert!(game(&app).history.is_empty());

    app.world_mut().write_message(RedoRequested);
    settle(&mut app);
    let redone = game(&app);
    assert_eq!(redone.history.len(), 2, "both plies are replayed");
    assert_eq!(redone.position.hash(), after_reply.position.hash());
    assert_eq!(redone.line(), after_reply.line());
    assert!(redone.redo.is_empty());
    assert_eq!(game(&app).game_id, after_reply.game_id);
    assert_view_is_the_game(&mut app);
}

#[test]
fn undo_while_the_computer_thinks_returns_to_the_human_turn() {
    undo_while_the_computer_thinks(1);
}

/// The same with a parallel search (the desktop's default on a machine with three or more
/// cores): the dropped search's task holds its helpers' guard, so they stop with it.
#[test]
fn undo_while_a_parallel_search_thinks_returns_to_the_human_turn() {
    undo_while_the_computer_thinks(2);
}

fn undo_while_the_computer_thinks(threads: usize) {
    let mut app = app_for(
        "ugolki-9qum",
        "",
        Players::two(PlayerKind::Human, PlayerKind::Computer(Level::Master)),
    );
    app.insert_resource(SearchThreads(threads));
    start(&mut app);
    request(&mut app, "c3-c4");
    // Undo as soon as the move is played: during its animation or the computer's search
    // (if the reply was already in, the undo takes it back too).
    run_until(&mut app, 100, "the move", |w| {
        !w.resource::<Match>().history.is_empty()
    });
    app.world_mut().write_message(UndoRequested);
    settle(&mut app);
    assert!(game(&app).history.is_empty());
    assert_eq!(game(&app).position.side_to_move(), Seat::WHITE);
    for _ in 0..40 {
        app.update();
    }
    assert!(
        game(&app).history.is_empty(),
        "a search for the taken-back position must not play"
    );
    assert_view_is_the_game(&mut app);
}

#[test]
fn between_humans_undo_takes_back_one_ply_and_a_new_move_forgets_the_redo() {
    let mut app = app_for("ugolki-hg-3x3", "g2:e2 b7:d7 f3-f4", humans());
    start(&mut app);
    app.world_mut().write_message(UndoRequested);
    settle(&mut app);
    assert_eq!(game(&app).line(), "g2:e2 b7:d7");
    assert_eq!(game(&app).redo.len(), 1);
    assert_view_is_the_game(&mut app);
    play_animated(&mut app, "e2-d2");
    assert_eq!(game(&app).line(), "g2:e2 b7:d7 e2-d2");
    assert!(game(&app).redo.is_empty(), "a new move starts a new line");
    app.world_mut().write_message(RedoRequested);
    settle(&mut app);
    assert_eq!(game(&app).line(), "g2:e2 b7:d7 e2-d2");
}

#[test]
fn undo_and_redo_amounts_follow_the_players() {
    let v = boardcraft_rules::shipped_variant("ugolki-hg-3x3").unwrap();
    let mut app = app_for("ugolki-hg-3x3", "g2:e2 b7:d7 f3-f4", humans());
    start(&mut app);
    let g = game(&app).clone();
    assert_eq!(g.variant.name, v.name);
    let computers = Players::two(
        PlayerKind::Computer(Level::Novice),
        PlayerKind::Computer(Level::Novice),
    );
    assert_eq!(g.undo_plies(&humans()), 1);
    assert_eq!(g.undo_plies(&computers), 1, "no human: one ply");
    // Black (human) to move after White's f3-f4: back to Black's previous turn.
    let black_human = Players::two(PlayerKind::Computer(Level::Novice), PlayerKind::Human);
    assert_eq!(g.undo_plies(&black_human), 2);
    // White human, Black to move (thinking): one ply, back to White's turn.
    assert_eq!(g.undo_plies(&human_vs_computer()), 1);
}

#[test]
fn resigning_ends_the_game_and_an_undo_takes_the_resignation_back() {
    let mut app = app_for("focus", "d4-d5", humans());
    start(&mut app);
    let line = game(&app).line();
    app.world_mut()
        .write_message(ResignRequested { side: Seat::BLACK });
    app.update();
    app.update();
    assert_eq!(phase(app.world()), Some(TurnPhase::GameOver));
    assert_eq!(
        game(&app).end(),
        Some(GameEnd::two(
            Some(Seat::WHITE),
            EndCause::Resigned(Seat::BLACK)
        ))
    );
    // No move is played in a finished game.
    request(&mut app, "b2-b3");
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(game(&app).line(), line);

    app.world_mut().write_message(UndoRequested);
    app.update();
    app.update();
    assert_eq!(game(&app).resigned, None);
    assert_eq!(game(&app).end(), None);
    assert_eq!(
        game(&app).line(),
        line,
        "only the resignation is taken back"
    );
    assert_eq!(phase(app.world()), Some(TurnPhase::Ready));
    play_animated(&mut app, "b2-b3");
    assert_eq!(game(&app).history.len(), 2);
}

#[test]
fn resign_is_for_the_human_side() {
    use boardcraft::ui::hud::resigning_side;
    let mut app = app_for("ugolki-hg-3x3", "g2:e2", humans());
    start(&mut app);
    let g = game(&app);
    // Between humans, the side to move (Black here) resigns.
    assert_eq!(resigning_side(g, &humans()), Some(Seat::BLACK));
    // Against the computer, the human resigns even when it is not their turn.
    assert_eq!(resigning_side(g, &human_vs_computer()), Some(Seat::WHITE));
    let computers = Players::two(
        PlayerKind::Computer(Level::Novice),
        PlayerKind::Computer(Level::Novice),
    );
    assert_eq!(resigning_side(g, &computers), None);
}
