//! A seat's chip in the panels: a disc in the seat's colour carrying its mark, the same look its
//! pieces have on the board (see [`crate::view::seat_look`]), so a seat is found by shape as
//! well as by colour.
use bevy_egui::egui::{self, Color32, Pos2, Stroke, Vec2};
use boardcraft_rules::Seat;

use crate::{
    game::seat_names::SeatNames,
    view::seat_look::{Mark, SeatLook, seat_look},
};

/// The look of `seat` at the table named by `seats`.
pub fn look(seats: &SeatNames, seat: Seat) -> SeatLook {
    seat_look(seats.english(seat), seat, seats.count())
}

/// The egui colour of a Bevy colour.
pub fn colour32(colour: bevy::color::Color) -> Color32 {
    let c = colour.to_srgba();
    Color32::from_rgb(
        (c.red * 255.0).round() as u8,
        (c.green * 255.0).round() as u8,
        (c.blue * 255.0).round() as u8,
    )
}

/// Draws the chip, `size` points across, in the current line.
pub fn chip(ui: &mut egui::Ui, look: SeatLook, size: f32) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(size), egui::Sense::hover());
    paint(ui.painter(), rect.center(), size * 0.5, look);
    response
}

/// Paints a chip of radius `r` at `c`.
pub fn paint(painter: &egui::Painter, c: Pos2, r: f32, look: SeatLook) {
    let fill = colour32(look.colour);
    let ink = if look.light {
        Color32::from_rgb(30, 30, 34)
    } else {
        Color32::from_rgb(245, 242, 235)
    };
    painter.circle(c, r, fill, Stroke::new(1.0, Color32::from_gray(20)));
    let m = r * 0.5;
    let poly = |points: Vec<Pos2>| egui::Shape::convex_polygon(points, ink, Stroke::NONE);
    match look.mark {
        Mark::None => {}
        Mark::Dot => {
            painter.circle_filled(c, m * 0.7, ink);
        }
        Mark::Triangle => {
            painter.add(poly(vec![
                c + Vec2::new(0.0, -m),
                c + Vec2::new(m * 0.9, m * 0.6),
                c + Vec2::new(-m * 0.9, m * 0.6),
            ]));
        }
        Mark::Square => {
            painter.rect_filled(
                egui::Rect::from_center_size(c, Vec2::splat(m * 1.3)),
                0.0,
                ink,
            );
        }
        Mark::Diamond => {
            painter.add(poly(vec![
                c + Vec2::new(0.0, -m),
                c + Vec2::new(m, 0.0),
                c + Vec2::new(0.0, m),
                c + Vec2::new(-m, 0.0),
            ]));
        }
        Mark::Cross => {
            let w = m * 0.35;
            painter.rect_filled(
                egui::Rect::from_center_size(c, Vec2::new(2.0 * m, 2.0 * w)),
                0.0,
                ink,
            );
            painter.rect_filled(
                egui::Rect::from_center_size(c, Vec2::new(2.0 * w, 2.0 * m)),
                0.0,
                ink,
            );
        }
        Mark::Ring => {
            painter.circle_stroke(c, m * 0.75, Stroke::new(m * 0.35, ink));
        }
    }
}
