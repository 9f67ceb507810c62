//! The player moves the camera: orbit (right or middle drag, Shift + arrow keys), zoom (wheel,
//! +/-), `T` for the top-down view and back. (The plain arrow keys step through the move list:
//! see the UI.)
use bevy::{
    input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit},
    prelude::*,
};
use bevy_egui::input::{egui_wants_any_input, egui_wants_any_keyboard_input};

use crate::{
    GameSystems,
    input::Selection,
    view::camera::{CameraSystems, OrbitCamera, ToggleTopDown},
};

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            // The mouse over a panel or window belongs to egui; the keys only while egui has
            // the keyboard (a text field).
            orbit_controls.run_if(not(egui_wants_any_input)),
            keyboard_controls.run_if(not(egui_wants_any_keyboard_input)),
        )
            .chain()
            .in_set(GameSystems::Sync)
            .after(CameraSystems::Fit)
            .before(CameraSystems::Place),
    );
}

fn orbit_controls(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    selection: Option<Res<Selection>>,
    mut cameras: Query<&mut OrbitCamera>,
) {
    // While a Focus tower is selected the wheel chooses how many pieces to lift.
    let wheel_taken = selection.is_some_and(|s| !s.lift_options().is_empty());
    let dragging = buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle);
    let wheel = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    for mut cam in &mut cameras {
        if dragging && !cam.top_down {
            cam.yaw -= motion.delta.x * 0.006;
            cam.pitch = (cam.pitch + motion.delta.y * 0.004).clamp(0.25, 1.45);
        }
        if wheel != 0.0 && !wheel_taken {
            cam.zoom = (cam.zoom * (1.0 - wheel * 0.08)).clamp(0.45, 2.5);
        }
    }
}

fn keyboard_controls(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut cameras: Query<&mut OrbitCamera>,
    mut toggle: MessageWriter<ToggleTopDown>,
) {
    if keys.just_pressed(KeyCode::KeyT) {
        toggle.write(ToggleTopDown);
    }
    let dt = time.delta_secs();
    // The arrows orbit with Shift held; alone they step through the move list.
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for mut cam in &mut cameras {
        if shift {
            if keys.pressed(KeyCode::ArrowLeft) {
                cam.yaw += dt * 1.2;
            }
            if keys.pressed(KeyCode::ArrowRight) {
                cam.yaw -= dt * 1.2;
            }
            if keys.pressed(KeyCode::ArrowUp) {
                cam.pitch = (cam.pitch + dt * 0.8).min(1.45);
            }
            if keys.pressed(KeyCode::ArrowDown) {
                cam.pitch = (cam.pitch - dt * 0.8).max(0.25);
            }
            if keys.just_pressed(KeyCode::Home) {
                *cam = OrbitCamera {
                    fit: cam.fit,
                    top_down: cam.top_down,
                    facing: cam.facing,
                    ..default()
                };
            }
        }
        if keys.pressed(KeyCode::Equal) || keys.pressed(KeyCode::NumpadAdd) {
            cam.zoom = (cam.zoom * (1.0 - dt)).max(0.45);
        }
        if keys.pressed(KeyCode::Minus) || keys.pressed(KeyCode::NumpadSubtract) {
            cam.zoom = (cam.zoom * (1.0 + dt)).min(2.5);
        }
    }
}
