//! Boards drawn flat with egui, for the menu: a variant's start position from its layout (the
//! same [`Layout`] and [`Snapshot`] the 3D board is built from, so a mod's board previews
//! correctly too).
use std::{collections::HashMap, sync::Arc};

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, Pos2, Rect, Stroke};
use boardcraft_rules::{Seat as Side, Variant};

use crate::{
    view::board::palette,
    view::model::{CellKind, Layout, Snapshot},
};

/// What the menu shows of a variant: its board, its start position and who moves first.
pub struct Preview {
    pub layout: Layout,
    pub snapshot: Snapshot,
    pub first: Side,
}

/// Previews per variant file (by content hash), built on first use.
#[derive(Resource, Default)]
pub struct Previews(HashMap<(u64, usize), Arc<Preview>>);

impl Previews {
    pub fn of(&mut self, variant: &Variant) -> Arc<Preview> {
        self.0
            .entry((variant.content_hash, variant.players()))
            .or_insert_with(|| {
                let layout = Layout::for_variant(variant);
                let start = variant.new_game();
                let snapshot = Snapshot::of(&start, &layout);
                Arc::new(Preview {
                    layout,
                    snapshot,
                    first: boardcraft_rules::Position::side_to_move(&start),
                })
            })
            .clone()
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Previews>();
}

fn colour(c: Color) -> Color32 {
    let s = c.to_srgba();
    Color32::from_rgb(
        (s.red * 255.0) as u8,
        (s.green * 255.0) as u8,
        (s.blue * 255.0) as u8,
    )
}

/// Draws the board and its pieces fitted into `rect`, White at the bottom.
pub fn draw(painter: &egui::Painter, rect: Rect, layout: &Layout, snapshot: &Snapshot) {
    let span = (layout.max - layout.min).max(Vec2::ONE) + Vec2::splat(1.0);
    let scale = (rect.width() / span.x).min(rect.height() / span.y);
    let centre = layout.centre();
    let to_screen = |at: Vec2| -> Pos2 {
        let d = (at - centre) * scale;
        Pos2::new(rect.center().x + d.x, rect.center().y - d.y)
    };
    let frame = Rect::from_center_size(rect.center(), egui::vec2(span.x * scale, span.y * scale));
    painter.rect_filled(frame, 3.0, colour(palette::FRAME));
    for (a, b) in &layout.lines {
        painter.line_segment(
            [to_screen(*a), to_screen(*b)],
            Stroke::new(1.0, colour(palette::LINE)),
        );
    }
    for cell in &layout.cells {
        let at = to_screen(cell.at);
        match cell.kind {
            CellKind::Square => {
                let fill = match (cell.camp, cell.dark) {
                    (Some(Side::WHITE), false) => palette::WHITE_CAMP,
                    (Some(Side::WHITE), true) => palette::WHITE_CAMP_DARK,
                    (Some(_), false) => palette::BLACK_CAMP,
                    (Some(_), true) => palette::BLACK_CAMP_DARK,
                    (None, false) => palette::LIGHT_SQUARE,
                    (None, true) => palette::DARK_SQUARE,
                };
                painter.rect_filled(
                    Rect::from_center_size(at, egui::vec2(scale, scale) * 0.98),
                    0.0,
                    colour(fill),
                );
            }
            CellKind::Spot => {
                painter.circle_filled(at, scale * 0.2, colour(palette::HEX_FACE));
            }
            CellKind::Dot => {
                painter.circle_filled(at, scale * 0.1, colour(palette::DOT));
            }
        }
    }
    for (i, stack) in snapshot.stacks.iter().enumerate() {
        let Some(top) = stack.last() else {
            continue;
        };
        let at = to_screen(layout.cells[i].at);
        let radius = scale * layout.piece.radius.min(0.42);
        let (fill, edge) = match top.color {
            Side::WHITE => (colour(palette::WHITE_PIECE), Color32::from_gray(90)),
            _ => (colour(palette::BLACK_PIECE), Color32::from_gray(160)),
        };
        painter.circle(at, radius, fill, Stroke::new(1.0, edge));
        if top.gipf {
            painter.circle_stroke(
                at,
                radius * 0.55,
                Stroke::new(1.5, Color32::from_rgb(205, 160, 65)),
            );
        }
        if stack.len() > 1 && radius > 5.0 {
            painter.text(
                at,
                egui::Align2::CENTER_CENTER,
                stack.len().to_string(),
                egui::FontId::proportional(radius * 1.1),
                edge,
            );
        }
    }
}
