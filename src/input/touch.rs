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

/// A touch is a tap if it ends within this distance (logical pixels) of its start, however
/// long it was held: the touch's time is only known as the frame's, and one slow frame (a
/// shader compiled the first time something is drawn, seen taking seconds under a software
/// GPU) turned quick taps into "presses" that did nothing when a time limit was kept here. A
/// held finger that does not move selects as a held mouse button does.
const TAP_DISTANCE: f32 = 16.0;

pub fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        taps.after(bevy::input::InputSystems)
            .run_if(resource_exists::<EguiWantsInput>),
    );
}

fn taps(
    mut touches: MessageReader<TouchInput>,
    mut started: Local<HashMap<u64, Vec2>>,
    egui: Res<EguiWantsInput>,
    cameras: Query<(&Camera, &GlobalTransform), With<OrbitCamera>>,
    cells: Query<&CellMarker>,
    pieces: Query<&PieceAt, With<Piece>>,
    mut ray_cast: MeshRayCast,
    mut clicked: MessageWriter<BoardClicked>,
) {
    for touch in touches.read() {
        let tap = match touch.phase {
            TouchPhase::Started => {
                started.insert(touch.id, touch.position);
                None
            }
            TouchPhase::Moved => None,
            TouchPhase::Ended => started
                .remove(&touch.id)
                .filter(|at| at.distance(touch.position) <= TAP_DISTANCE),
            TouchPhase::Canceled => {
                started.remove(&touch.id);
                None
            }
        };
        // A tap on an egui panel or window is egui's.
        if tap.is_none() || egui.is_pointer_over_area() {
            if touch.phase == TouchPhase::Ended {
                debug!(
                    "a touch ended at {} (tap: {}), egui has it: {}",
                    touch.position,
                    tap.is_some(),
                    egui.is_pointer_over_area()
                );
            }
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
        // Window coordinates, as Bevy's conversion takes them (it handles the viewport's offset).
        let Ok(ray) = camera.viewport_to_world(transform, touch.position) else {
            continue;
        };
        let board_only = |e: Entity| cells.contains(e) || pieces.contains(e);
        let settings = MeshRayCastSettings::default()
            .with_filter(&board_only)
            // Spots and dots are invisible discs.
            .with_visibility(RayCastVisibility::Any);
        match ray_cast
            .cast_ray(ray, &settings)
            .first()
            .and_then(|(e, _)| click_of(*e, &cells, &pieces))
        {
            Some(click) => {
                debug!("a tap at {} on {click:?}", touch.position);
                clicked.write(click);
            }
            None => debug!("a tap at {} on no cell", touch.position),
        }
    }
}
