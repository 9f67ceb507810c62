//! Coordinates around the board, drawn by egui so they stay crisp in every view.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{game::match_state::AppState, view::board::Board, view::camera::OrbitCamera};

use super::UiSystems;

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        coordinates
            .run_if(in_state(AppState::InGame))
            .in_set(UiSystems::Background),
    );
}

fn coordinates(
    mut contexts: EguiContexts,
    board: Option<Res<Board>>,
    cameras: Query<(&Camera, &GlobalTransform), With<OrbitCamera>>,
) -> Result {
    let Some(board) = board else {
        return Ok(());
    };
    let Ok((camera, at)) = cameras.single() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let painter = ctx.layer_painter(egui::LayerId::background());
    for (text, pos) in &board.layout.labels {
        let world = board.layout.world(*pos, 0.02);
        if let Ok(screen) = camera.world_to_viewport(at, world) {
            // A dark halo keeps the label readable on light squares and on the wood.
            let font = egui::FontId::proportional(15.0);
            for (dx, dy) in [(-1.0, 0.0), (1.0, 0.0), (0.0, -1.0), (0.0, 1.0)] {
                painter.text(
                    egui::pos2(screen.x + dx, screen.y + dy),
                    egui::Align2::CENTER_CENTER,
                    text,
                    font.clone(),
                    egui::Color32::from_rgba_unmultiplied(30, 20, 12, 200),
                );
            }
            painter.text(
                egui::pos2(screen.x, screen.y),
                egui::Align2::CENTER_CENTER,
                text,
                font,
                egui::Color32::from_rgb(240, 228, 204),
            );
        }
    }
    Ok(())
}
