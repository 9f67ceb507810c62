//! The move list in the game's notation: numbered moves, the position on the board
//! highlighted; a click shows that position (review), the buttons step through the game.
//! The entries it draws are recorded in `drawn` ([`super::shown::UiShown::moves`]).
use bevy::prelude::*;
use bevy_egui::egui;

use crate::{
    game::match_state::Match,
    game::review::{Review, ReviewCommand},
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
            egui::Grid::new("move_list")
                .num_columns(3)
                .striped(true)
                .min_col_width(30.0)
                .spacing(egui::vec2(10.0, 3.0))
                .show(ui, |ui| {
                    ui.label("");
                    for c in [first_side, first_side.other()] {
                        ui.label(egui::RichText::new(side(lang, c)).small().weak());
                    }
                    ui.end_row();
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
                    for (row, pair) in game.history.chunks(2).enumerate() {
                        ui.label(
                            egui::RichText::new(format!("{}.", row + 1))
                                .monospace()
                                .color(colours.accent()),
                        );
                        for (i, played) in pair.iter().enumerate() {
                            // The position after this move is ply `index + 1`.
                            let after = row * 2 + i + 1;
                            let text = egui::RichText::new(&played.notation).monospace();
                            drawn.push(played.notation.clone());
                            let cell =
                                ui.add(egui::Button::selectable(shown == after, text).min_size(
                                    egui::vec2(super::layout::button_height(ui, 0.0), 0.0),
                                ));
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
                        ui.end_row();
                    }
                });
            if len == 0 {
                ui.weak(tr(lang, Key::NoMovesYet));
            }
        });
}
