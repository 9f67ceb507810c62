//! Boards drawn flat with egui, for the menu: a variant's start position from its layout (the
//! same [`Layout`] and [`Snapshot`] the 3D board is built from, so a mod's board previews
//! correctly too).
use std::{collections::HashMap, sync::Arc};

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, Pos2, Rect, Stroke};
use boardcraft_rules::{Seat as Side, Variant};

use super::seat_chip;
use crate::{
    game::seat_names::SeatNames,
    view::board::palette,
    view::model::{CellKind, Grid, Layout, Snapshot},
};

/// What the menu shows of a variant: its board, its start position and who moves first.
pub struct Preview {
    pub layout: Layout,
    pub snapshot: Snapshot,
    pub first: Side,
    pub seats: SeatNames,
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
                    seats: SeatNames::of(&start),
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

/// Draws the board and its pieces fitted into `rect`, White at the bottom; the seats' pieces
/// and camps in their colours (`seats` names them).
pub fn draw(
    painter: &egui::Painter,
    rect: Rect,
    layout: &Layout,
    snapshot: &Snapshot,
    seats: &SeatNames,
) {
    let two_seats = seats.count() <= 2;
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
                    // More seats: each camp a light shade of its seat's colour.
                    (Some(seat), _) if !two_seats => {
                        camp_tint(seat_chip::look(seats, seat).colour, cell.dark)
                    }
                    (Some(Side::WHITE), false) => palette::WHITE_CAMP,
                    (Some(Side::WHITE), true) => palette::WHITE_CAMP_DARK,
                    (Some(_), false) => palette::BLACK_CAMP,
                    (Some(_), true) => palette::BLACK_CAMP_DARK,
                    (None, false) => palette::LIGHT_SQUARE,
                    (None, true) => palette::DARK_SQUARE,
                };
                if layout.grid == Grid::Hex {
                    // A pointy-topped hexagon, one cell wide: neighbours touch.
                    let r = scale * 0.98 / 3f32.sqrt();
                    let points = (0..6)
                        .map(|k| {
                            let a = std::f32::consts::FRAC_PI_6
                                + k as f32 * std::f32::consts::FRAC_PI_3;
                            at + egui::vec2(r * a.cos(), r * a.sin())
                        })
                        .collect();
                    painter.add(egui::Shape::convex_polygon(
                        points,
                        colour(fill),
                        Stroke::NONE,
                    ));
                } else {
                    painter.rect_filled(
                        Rect::from_center_size(at, egui::vec2(scale, scale) * 0.98),
                        0.0,
                        colour(fill),
                    );
                }
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
        let look = seat_chip::look(seats, top.color);
        let edge = if look.light {
            Color32::from_gray(90)
        } else {
            Color32::from_gray(160)
        };
        if radius > 6.0 {
            seat_chip::paint(painter, at, radius, look);
        } else {
            painter.circle(at, radius, colour(look.colour), Stroke::new(1.0, edge));
        }
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

/// A camp's tint: the seat's colour mixed into the light square (a shade deeper on dark
/// squares), light enough that pieces of every colour stand out on it.
pub fn camp_tint(seat: Color, dark: bool) -> Color {
    let base = if dark {
        palette::DARK_SQUARE
    } else {
        palette::LIGHT_SQUARE
    };
    base.mix(&seat, 0.45)
}
