//! Taps on a touch screen: a tap on a piece selects it, a tap on one of its targets moves it,
//! as clicks do.
//!
//! Picking's own `Pointer<Click>` for a touch needs the finger to stay down until picking has
//! hovered what is under it; a quick tap (touch start and end in one frame, as browsers
//! deliver them) makes no click at all — seen in the browser test. So taps are read from the
//! touch input and ray-cast here, and picking's touch clicks are ignored (`super::on_click`),
//! so a slow tap does not count twice. Dragging with a finger still goes through picking
//! (`super::drag`).
use bevy::{
    input::touch::{TouchInput, TouchPhase},
    picking::mesh_picking::ray_cast::{MeshRayCast, MeshRayCastSettings, RayCastVisibility},
    platform::collections::HashMap,
    prelude::*,
};
use bevy_egui::input::EguiWantsInput;

use super::{BoardClicked, click_of};
use crate::view::{
    board::CellMarker,
    camera::OrbitCamera,
    pieces::{Piece, PieceAt},
};

/// A touch is a tap if it ends within this distance (logical pixels) and time of its start.
const TAP_DISTANCE: f32 = 16.0;
const TAP_SECONDS: f64 = 0.6;

pub fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        taps.after(bevy::input::InputSystems)
            .run_if(resource_exists::<EguiWantsInput>),
    );
}

fn taps(
    mut touches: MessageReader<TouchInput>,
    mut started: Local<HashMap<u64, (Vec2, f64)>>,
    time: Res<Time<Real>>,
    egui: Res<EguiWantsInput>,
    cameras: Query<(&Camera, &GlobalTransform), With<OrbitCamera>>,
    cells: Query<&CellMarker>,
    pieces: Query<&PieceAt, With<Piece>>,
    mut ray_cast: MeshRayCast,
    mut clicked: MessageWriter<BoardClicked>,
) {
    let now = time.elapsed_secs_f64();
    for touch in touches.read() {
        let tap = match touch.phase {
            TouchPhase::Started => {
                started.insert(touch.id, (touch.position, now));
                None
            }
            TouchPhase::Moved => None,
            TouchPhase::Ended => started.remove(&touch.id).filter(|(at, since)| {
                at.distance(touch.position) <= TAP_DISTANCE && now - since <= TAP_SECONDS
            }),
            TouchPhase::Canceled => {
                started.remove(&touch.id);
                None
            }
        };
        // A tap on an egui panel or window is egui's.
        if tap.is_none() || egui.is_pointer_over_area() {
            continue;
        }
        let Ok((camera, transform)) = cameras.single() else {
            continue;
        };
        let Some(viewport) = camera.logical_viewport_rect() else {
            continue;
        };
        if !viewport.contains(touch.position) {
            continue;
        }
        let Ok(ray) = camera.viewport_to_world(transform, touch.position - viewport.min) else {
            continue;
        };
        let board_only = |e: Entity| cells.contains(e) || pieces.contains(e);
        let settings = MeshRayCastSettings::default()
            .with_filter(&board_only)
            // Spots and dots are invisible discs.
            .with_visibility(RayCastVisibility::Any);
        if let Some(click) = ray_cast
            .cast_ray(ray, &settings)
            .first()
            .and_then(|(e, _)| click_of(*e, &cells, &pieces))
        {
            clicked.write(click);
        }
    }
}
