//! The camera by touch: two fingers on the board pinch to zoom and, in the 3D view, drag
//! together to turn the board (sideways) and tilt it (up and down); a double tap on the board
//! resets the view. One finger keeps playing: taps (`super::touch`) and drags (`super::drag`)
//! move pieces, and a tap that is part of a double tap still is a tap.
use bevy::{input::touch::Touches, prelude::*};

use crate::{
    GameSystems,
    input::drag::Dragged,
    view::camera::{CameraSystems, OrbitCamera},
};

/// A second tap within this time (seconds) and distance (logical pixels) of the first is a
/// double tap.
const DOUBLE_TAP_SECONDS: f64 = 0.35;
const DOUBLE_TAP_DISTANCE: f32 = 24.0;
/// How far a finger may move and still tap.
const TAP_DISTANCE: f32 = 16.0;

/// The two-finger gesture in progress: the fingers' distance and midpoint last frame.
#[derive(Resource, Debug, Default)]
pub struct TouchGesture {
    last: Option<(f32, Vec2)>,
    /// The last tap: where and when (real seconds).
    last_tap: Option<(Vec2, f64)>,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<TouchGesture>().add_systems(
        Update,
        touch_camera
            .in_set(GameSystems::Sync)
            .after(CameraSystems::Fit)
            .before(CameraSystems::Place),
    );
}

/// Whether a tap at `at`, seen in a frame `frame` seconds long at `now`, and the tap before it
/// (where and when it was seen) make a double tap. A tap is seen in the first frame after it,
/// so the time between two sightings can overstate the time between the taps by up to a frame:
/// on a slow phone (or a software renderer) a quick double tap is seen a whole frame apart, and
/// must still count.
pub fn is_double_tap(before: (Vec2, f64), at: Vec2, now: f64, frame: f64) -> bool {
    let (was, when) = before;
    now - when <= DOUBLE_TAP_SECONDS + frame.max(0.0) && was.distance(at) <= DOUBLE_TAP_DISTANCE
}

/// Zoom factor for fingers that were `before` apart and are `now` apart: apart zooms in.
pub fn pinch_zoom(zoom: f32, before: f32, now: f32) -> f32 {
    if before <= 1.0 || now <= 1.0 {
        return zoom;
    }
    (zoom * before / now).clamp(0.45, 2.5)
}

fn touch_camera(
    touches: Res<Touches>,
    time: Res<Time<Real>>,
    dragged: Option<Res<Dragged>>,
    mut gesture: ResMut<TouchGesture>,
    mut cameras: Query<(&mut OrbitCamera, &Camera)>,
) {
    let Ok((mut cam, camera)) = cameras.single_mut() else {
        return;
    };
    let board = camera.logical_viewport_rect();
    let on_board = |p: Vec2| board.is_none_or(|r| r.contains(p));
    let now = time.elapsed_secs_f64();
    // Double tap: two quick taps close together on the board.
    for touch in touches.iter_just_released() {
        let moved = touch.start_position().distance(touch.position());
        if moved > TAP_DISTANCE || !on_board(touch.start_position()) {
            continue;
        }
        let at = touch.position();
        match gesture.last_tap {
            Some(before) if is_double_tap(before, at, now, time.delta_secs_f64()) => {
                *cam = OrbitCamera {
                    fit: cam.fit,
                    top_down: cam.top_down,
                    facing: cam.facing,
                    ..default()
                };
                gesture.last_tap = None;
            }
            _ => gesture.last_tap = Some((at, now)),
        }
    }
    let fingers: Vec<Vec2> = touches
        .iter()
        .filter(|t| on_board(t.start_position()))
        .map(|t| t.position())
        .collect();
    if fingers.len() != 2 || dragged.is_some_and(|d| d.is_dragging()) {
        gesture.last = None;
        return;
    }
    let distance = fingers[0].distance(fingers[1]);
    let middle = (fingers[0] + fingers[1]) / 2.0;
    if let Some((before, was)) = gesture.last {
        cam.zoom = pinch_zoom(cam.zoom, before, distance);
        if !cam.top_down {
            let moved = middle - was;
            cam.yaw -= moved.x * 0.008;
            cam.pitch = (cam.pitch + moved.y * 0.005).clamp(0.25, 1.45);
        }
    }
    gesture.last = Some((distance, middle));
}
