//! Placement badges painted over the board: each [`PlacementBadge`] (kept by the view over
//! the target of a seat that finished) drawn where the camera sees it, in the seat's colour,
//! with its place in the player's language.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    settings::{Language, Settings},
    view::{badges::PlacementBadge, board::Board, camera::OrbitCamera},
};

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, paint_badges);
}

/// "1st" in English, "1-е" (место) in Russian: the places the game-over list names.
pub fn place_text(place: u8, language: Language) -> String {
    super::i18n::place(language, place)
}

fn paint_badges(
    mut contexts: EguiContexts,
    board: Option<Res<Board>>,
    settings: Option<Res<Settings>>,
    badges: Query<(&PlacementBadge, &Transform)>,
    cameras: Query<(&Camera, &GlobalTransform), With<OrbitCamera>>,
) -> Result {
    if badges.is_empty() {
        return Ok(());
    }
    let Some(board) = board else {
        return Ok(());
    };
    let Ok((camera, at)) = cameras.single() else {
        return Ok(());
    };
    let language = settings.map_or(Language::English, |s| s.language);
    let ctx = contexts.ctx_mut()?;
    let zoom = ctx.zoom_factor();
    let painter = ctx.layer_painter(egui::LayerId::background());
    let font = egui::FontId::proportional(17.0);
    for (badge, transform) in &badges {
        let Ok(logical) = camera.world_to_viewport(at, transform.translation) else {
            continue;
        };
        let Some(look) = board.looks.get(badge.seat.index()) else {
            continue;
        };
        let [r, g, b, _] = look.colour.to_srgba().to_u8_array();
        let fill = egui::Color32::from_rgb(r, g, b);
        let ink = if look.light {
            egui::Color32::from_rgb(25, 22, 20)
        } else {
            egui::Color32::from_rgb(250, 248, 240)
        };
        let centre = egui::pos2(logical.x / zoom, logical.y / zoom);
        let text = place_text(badge.place, language);
        let galley = painter.layout_no_wrap(text, font.clone(), ink);
        let rect = egui::Rect::from_center_size(centre, galley.size() + egui::vec2(16.0, 8.0));
        painter.rect(
            rect,
            8.0,
            fill,
            egui::Stroke::new(2.0, egui::Color32::from_rgb(30, 22, 16)),
            egui::StrokeKind::Outside,
        );
        painter.galley(rect.center() - galley.size() / 2.0, galley, ink);
    }
    Ok(())
}
