//! Coordinates around the board, drawn by egui so they stay crisp in every view. Only inside
//! the board's region, and never over one another: on a board too small for every label, a
//! label that would overlap one already drawn is left out (every other one shows).
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
    let zoom = ctx.zoom_factor();
    // The board's region on the screen (logical pixels): labels outside it are not drawn.
    let Some(view) = camera.logical_viewport_rect() else {
        return Ok(());
    };
    let painter = ctx.layer_painter(egui::LayerId::background());
    let size = 15.0;
    let font = egui::FontId::proportional(size);
    // Where labels were drawn (points) with their half widths: a label that would overlap
    // one is left out, so on a small board every other label shows rather than a smudge.
    let mut drawn: Vec<(egui::Pos2, f32)> = Vec::new();
    for (text, pos) in &board.layout.labels {
        let world = board.layout.world(*pos, 0.02);
        // Window coordinates (logical pixels): Bevy adds the viewport's corner itself.
        let Ok(logical) = camera.world_to_viewport(at, world) else {
            continue;
        };
        let half = 0.3 * size * text.chars().count() as f32 + 2.0;
        if logical.x - half < view.min.x
            || logical.x + half > view.max.x
            || logical.y - size < view.min.y
            || logical.y + size > view.max.y
        {
            continue;
        }
        let screen = egui::pos2(logical.x / zoom, logical.y / zoom);
        let overlaps = drawn.iter().any(|(p, h)| {
            (p.x - screen.x).abs() < (h + half) / zoom + 3.0 && (p.y - screen.y).abs() < size + 2.0
        });
        if overlaps {
            continue;
        }
        drawn.push((screen, half));
        // A dark halo keeps the label readable on light squares and on the wood.
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
            screen,
            egui::Align2::CENTER_CENTER,
            text,
            font.clone(),
            egui::Color32::from_rgb(240, 228, 204),
        );
    }
    Ok(())
}
