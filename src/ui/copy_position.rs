//! The "Copy position" button and what became of the copy (the copying itself is
//! `crate::learn::copy_position`'s).
use bevy::prelude::*;
use bevy_egui::egui;

use crate::{
    game::match_state::Match,
    learn::copy_position::{CopiedPosition, CopyPositionRequested},
    settings::Language,
    ui::i18n::{LearnKey, learn_tr, learn_trf},
};

use super::UiColours;

/// The button and, while the position is the one copied, what became of the copy.
pub fn show(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    game: &Match,
    copied: &CopiedPosition,
    requests: &mut MessageWriter<CopyPositionRequested>,
) {
    if ui
        .add(
            egui::Button::new(learn_tr(lang, LearnKey::CopyPosition))
                .min_size(egui::vec2(ui.available_width(), 26.0)),
        )
        .on_hover_text(learn_tr(lang, LearnKey::CopyPositionTip))
        .clicked()
    {
        requests.write(CopyPositionRequested);
    }
    if copied.at != Some((game.game_id, game.history.len())) {
        return;
    }
    let text: &dyn std::fmt::Display = &copied.text;
    let line = match &copied.error {
        None => learn_trf(lang, LearnKey::Copied, &[("text", text)]),
        Some(why) => learn_trf(lang, LearnKey::CopyFailed, &[("why", why), ("text", text)]),
    };
    let colour = if copied.error.is_some() {
        colours.warn()
    } else {
        colours.good()
    };
    ui.add(egui::Label::new(egui::RichText::new(line).small().color(colour)).wrap());
}
