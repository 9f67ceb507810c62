//! The coach's part of the side panel: its verdict on the last human move and, in variants
//! with a home-clear rule (9qum's 40-move rule), a warning while pieces are still at home near
//! the deadline. The verdict comes from `crate::game::coach`; the deadline from the rules crate.
use bevy_egui::egui;
use boardcraft_rules::AnyPosition;

use crate::{
    game::coach::{Coach, Grade},
    game::config::Players,
    game::match_state::Match,
    settings::Language,
    ui::i18n::{Key, tr, trf},
};

use super::{UiColours, words};

/// Warn when a side has this many turns or fewer left before the home-clear check.
pub const DEADLINE_WARNING_TURNS: u32 = 10;

pub fn show(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    game: &Match,
    coach: &Coach,
    players: &Players,
) {
    ui.label(egui::RichText::new(tr(lang, Key::CoachTitle)).strong());
    if let AnyPosition::Race(position) = &game.position
        && let Some(deadline) = position.home_deadline()
    {
        for side in players.humans() {
            if let Some(warning) =
                words::deadline_warning(lang, &deadline, side, DEADLINE_WARNING_TURNS)
            {
                ui.colored_label(colours.warn(), warning);
            }
        }
    }
    if coach.is_thinking() {
        ui.weak(tr(lang, Key::CoachThinking));
    } else if let Some(verdict) = coach.current(game) {
        let grade = verdict.grade();
        let colour = match grade {
            Grade::Best | Grade::Good => colours.good(),
            Grade::Inaccuracy => colours.warn(),
            Grade::Mistake | Grade::Blunder => colours.bad(),
        };
        ui.colored_label(
            colour,
            egui::RichText::new(words::grade_text(lang, grade)).strong(),
        );
        ui.label(words::verdict_text(lang, verdict));
        if !verdict.played_best() && !verdict.best_line.is_empty() {
            let line: Vec<&str> = verdict
                .best_line
                .iter()
                .take(6)
                .map(String::as_str)
                .collect();
            ui.label(
                egui::RichText::new(trf(lang, Key::CoachLine, &[("line", &line.join(" "))]))
                    .small(),
            );
        }
        ui.label(
            egui::RichText::new(tr(lang, Key::CoachScoreNote))
                .small()
                .weak(),
        );
    }
}
