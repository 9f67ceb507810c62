//! The game-over dialog: who won and why, in the rules' own terms, with rematch, review and
//! new game.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use boardcraft_rules::Position;

use crate::{
    game::match_state::{AppState, Match, StartGame, TurnPhase},
    game::review::{Review, ReviewCommand},
    settings::Settings,
    ui::i18n::{Key, tr},
};

use super::{UiSystems, UiWindows, colours, hud::PANEL_WIDTH, words};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        game_over_dialog
            .run_if(in_state(TurnPhase::GameOver))
            .in_set(UiSystems::Windows),
    );
}

fn game_over_dialog(
    mut contexts: EguiContexts,
    game: Option<Res<Match>>,
    review: Res<Review>,
    settings: Res<Settings>,
    mut windows: ResMut<UiWindows>,
    mut start: MessageWriter<StartGame>,
    mut review_commands: MessageWriter<ReviewCommand>,
    mut next_state: ResMut<NextState<AppState>>,
) -> Result {
    let Some(game) = game else {
        return Ok(());
    };
    let Some(end) = game.end() else {
        return Ok(());
    };
    let key = (game.game_id, game.history.len(), game.resigned.is_some());
    if !review.is_live() || windows.game_over_closed == Some(key) {
        return Ok(());
    }
    let lang = settings.language;
    let text = words::end_text(lang, end, &game.variant, game.position.side_to_move());
    let ctx = contexts.ctx_mut()?;
    egui::Window::new(tr(lang, Key::GameOverTitle))
        .id(egui::Id::new("game_over"))
        .anchor(
            egui::Align2::CENTER_CENTER,
            egui::vec2(-PANEL_WIDTH / 2.0, 0.0),
        )
        .collapsible(false)
        .resizable(false)
        .default_width(440.0)
        .show(ctx, |ui| {
            ui.set_max_width(440.0);
            ui.style_mut().visuals.override_text_color = Some(colours::TEXT);
            ui.label(
                egui::RichText::new(&text.headline)
                    .size(24.0)
                    .strong()
                    .color(colours::ACCENT),
            );
            ui.label(egui::RichText::new(&text.reason).size(16.0));
            ui.add_space(8.0);
            ui.horizontal_wrapped(|ui| {
                if ui.button(tr(lang, Key::Rematch)).clicked() {
                    start.write(StartGame::new(game.variant.clone(), String::new()));
                }
                if ui.button(tr(lang, Key::ReviewGame)).clicked() {
                    review_commands.write(ReviewCommand::First);
                    windows.game_over_closed = Some(key);
                }
                if ui.button(tr(lang, Key::NewGame)).clicked() {
                    next_state.set(AppState::Menu);
                }
                if ui.button(tr(lang, Key::Close)).clicked() {
                    windows.game_over_closed = Some(key);
                }
            });
        });
    Ok(())
}
