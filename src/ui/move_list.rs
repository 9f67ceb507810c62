//! The move list in the game's notation: numbered moves, the position on the board
//! highlighted; a click shows that position (review), the buttons step through the game.
//! The entries it draws are recorded in `drawn` ([`super::shown::UiShown::moves`]).
use bevy::prelude::*;
use bevy_egui::egui;

use crate::{
    game::match_state::Match,
    game::review::{Review, ReviewCommand},
    game::seat_names::SeatNames,
    settings::Language,
    ui::i18n::{Key, side, tr},
};

use super::UiColours;

/// Remembers which ply the list last scrolled to, so it follows the game (or the review)
/// without fighting the player's own scrolling.
#[derive(Default)]
pub struct ListState {
    scrolled_to: Option<(u64, usize)>,
}

pub fn show(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    game: &Match,
    review: &Review,
    commands: &mut MessageWriter<ReviewCommand>,
    state: &mut ListState,
    drawn: &mut Vec<String>,
) {
    let len = game.history.len();
    let shown = review.shown_ply(game);
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(tr(lang, Key::MovesTitle)).strong());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            // Right to left: the last button first.
            let nav = [
                (
                    "»",
                    Key::LivePositionTip,
                    ReviewCommand::Live,
                    !review.is_live(),
                ),
                ("›", Key::NextTip, ReviewCommand::Forward, !review.is_live()),
                ("‹", Key::PreviousTip, ReviewCommand::Back, shown > 0),
                ("«", Key::FirstPositionTip, ReviewCommand::First, shown > 0),
            ];
            for (label, tip, command, enabled) in nav {
                let button = egui::Button::new(egui::RichText::new(label).strong())
                    .min_size(egui::vec2(super::layout::button_height(ui, 28.0), 22.0));
                if ui
                    .add_enabled(enabled, button)
                    .on_hover_text(tr(lang, tip))
                    .clicked()
                {
                    commands.write(command);
                }
            }
        });
    });
    let scroll_key = (game.game_id, shown);
    let scroll_now = state.scrolled_to != Some(scroll_key);
    state.scrolled_to = Some(scroll_key);
    // Both ways: a GIPF move with its removals can be wider than the panel.
    egui::ScrollArea::both()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let first_side = game.history.first().map_or_else(
                || boardcraft_rules::Position::side_to_move(&game.start),
                |m| m.side,
            );
            let seats = SeatNames::of(&game.position);
            let n = seats.count();
            // A round per row (every seat's move once) for two seats, and for more as long as
            // a round of the longest move played fits the panel; else one move per row. Beyond
            // two seats each move carries its seat's chip: a seat that finished is skipped, so
            // columns need not stay one seat's.
            let chips = n > 2;
            let per_row = if n <= 2 || round_fits(ui, &game.history, n) {
                n
            } else {
                1
            };
            egui::Grid::new("move_list")
                .num_columns(per_row + 1)
                .striped(true)
                .min_col_width(30.0)
                .spacing(egui::vec2(10.0, 3.0))
                .show(ui, |ui| {
                    // Column heads for two seats; beyond, each move's chip names its seat.
                    if !chips {
                        ui.label("");
                        let mut c = first_side;
                        for _ in 0..per_row {
                            ui.label(egui::RichText::new(side(lang, &seats, c)).small().weak());
                            c = c.next(n);
                        }
                        ui.end_row();
                    }
                    ui.label("");
                    let start = ui.add(egui::Button::selectable(
                        shown == 0,
                        egui::RichText::new(tr(lang, Key::StartPosition)).small(),
                    ));
                    if start.clicked() {
                        commands.write(ReviewCommand::Go(0));
                    }
                    if shown == 0 && scroll_now {
                        start.scroll_to_me(Some(egui::Align::Center));
                    }
                    ui.label("");
                    ui.end_row();
                    for (row, pair) in game.history.chunks(per_row).enumerate() {
                        ui.label(
                            egui::RichText::new(format!("{}.", row * per_row / n + 1))
                                .monospace()
                                .color(colours.accent()),
                        );
                        for (i, played) in pair.iter().enumerate() {
                            // The position after this move is ply `index + 1`.
                            let after = row * per_row + i + 1;
                            if chips {
                                ui.horizontal(|ui| {
                                    super::seat_chip::chip(
                                        ui,
                                        super::seat_chip::look(&seats, played.side),
                                        12.0,
                                    );
                                    move_cell(
                                        ui, commands, drawn, played, shown, after, len, scroll_now,
                                    );
                                });
                                continue;
                            }
                            move_cell(ui, commands, drawn, played, shown, after, len, scroll_now);
                        }
                        ui.end_row();
                    }
                });
            if len == 0 {
                ui.weak(tr(lang, Key::NoMovesYet));
            }
        });
}

/// Whether a row of `n` moves, each as wide as the longest played so far with its seat's chip,
/// fits beside the move numbers in the width left.
fn round_fits(ui: &egui::Ui, history: &[crate::game::match_state::PlayedMove], n: usize) -> bool {
    let longest = history
        .iter()
        .map(|m| m.notation.chars().count())
        .max()
        .unwrap_or(0);
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let text = ui
        .painter()
        .layout_no_wrap("0".repeat(longest), font, egui::Color32::WHITE)
        .size()
        .x;
    let spacing = ui.spacing();
    let button = (text + 2.0 * spacing.button_padding.x).max(super::layout::button_height(ui, 0.0));
    // The chip (12 px and the gap after it), the button, the gap to the next column.
    let column = 12.0 + spacing.item_spacing.x + button + 10.0;
    // The move numbers' column: at least the grid's narrowest column.
    let numbers = 30.0 + 10.0;
    numbers + n as f32 * column <= ui.available_width()
}

/// One move of the list: its notation, a button to review the position after it.
#[allow(clippy::too_many_arguments)]
fn move_cell(
    ui: &mut egui::Ui,
    commands: &mut MessageWriter<ReviewCommand>,
    drawn: &mut Vec<String>,
    played: &crate::game::match_state::PlayedMove,
    shown: usize,
    after: usize,
    len: usize,
    scroll_now: bool,
) {
    let text = egui::RichText::new(&played.notation).monospace();
    drawn.push(played.notation.clone());
    let cell = ui.add(
        egui::Button::selectable(shown == after, text)
            .min_size(egui::vec2(super::layout::button_height(ui, 0.0), 0.0)),
    );
    if cell.clicked() {
        commands.write(if after == len {
            ReviewCommand::Live
        } else {
            ReviewCommand::Go(after)
        });
    }
    if shown == after && scroll_now {
        cell.scroll_to_me(Some(egui::Align::Center));
    }
}
