//! Keyboard shortcuts of the game: Ctrl+Z / Ctrl+Y (or Ctrl+Shift+Z) undo and redo; ← → step
//! through the moves, Home goes to the start, End or Esc back to the game (with Shift, the
//! arrows and Home move the camera instead: see `camera`); Space skips an animation. They are
//! ignored while egui has the keyboard (typing a save's name).
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;

use crate::{
    GameSystems,
    game::match_state::{AppState, RedoRequested, UndoRequested},
    game::review::ReviewCommand,
    view::animation::SkipAnimation,
};

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        game_keys
            .run_if(in_state(AppState::InGame).and_then(not(egui_wants_any_keyboard_input)))
            .in_set(GameSystems::Input)
            // Before the review cursor moves this frame.
            .before(crate::game::review::ReviewSystems),
    );
}

fn game_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut undo: MessageWriter<UndoRequested>,
    mut redo: MessageWriter<RedoRequested>,
    mut review: MessageWriter<ReviewCommand>,
    mut skip: MessageWriter<SkipAnimation>,
) {
    let ctrl = keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::SuperLeft,
        KeyCode::SuperRight,
    ]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if ctrl {
        if keys.just_pressed(KeyCode::KeyZ) {
            if shift {
                redo.write(RedoRequested);
            } else {
                undo.write(UndoRequested);
            }
        }
        if keys.just_pressed(KeyCode::KeyY) {
            redo.write(RedoRequested);
        }
        return;
    }
    if keys.just_pressed(KeyCode::Space) {
        skip.write(SkipAnimation);
    }
    if shift {
        return;
    }
    for (key, command) in [
        (KeyCode::ArrowLeft, ReviewCommand::Back),
        (KeyCode::ArrowRight, ReviewCommand::Forward),
        (KeyCode::Home, ReviewCommand::First),
        (KeyCode::End, ReviewCommand::Live),
        (KeyCode::Escape, ReviewCommand::Live),
    ] {
        if keys.just_pressed(key) {
            review.write(command);
        }
    }
}
