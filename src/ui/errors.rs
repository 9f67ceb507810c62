//! Problems the player should see: a game that cannot start, and broken variant files (their
//! details are the rules engine's own words, for the file's author).
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    game::match_state::{AppState, StartError},
    game::variants::VariantLibrary,
    settings::Settings,
    ui::i18n::{Key, tr, trf},
};

use super::{UiColours, UiSystems};

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, errors.in_set(UiSystems::Windows));
}

fn errors(
    colours: Res<UiColours>,
    mut contexts: EguiContexts,
    start_error: Res<StartError>,
    library: Res<VariantLibrary>,
    settings: Res<Settings>,
    state: Res<State<AppState>>,
    mut next_state: ResMut<NextState<AppState>>,
) -> Result {
    let lang = settings.language;
    let ctx = contexts.ctx_mut()?;
    if *state.get() == AppState::Failed
        && let Some(why) = &start_error.0
    {
        super::layout::dialog(
            ctx,
            tr(lang, Key::CannotStartTitle),
            "cannot_start",
            520.0,
            None,
        )
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(why).monospace());
            ui.label(tr(lang, Key::CannotStartHint));
            if ui.button(tr(lang, Key::Menu)).clicked() {
                next_state.set(AppState::Menu);
            }
        });
    }
    let broken: Vec<_> = library.broken().collect();
    let warned: Vec<_> = library.warned().collect();
    if !broken.is_empty() || !warned.is_empty() || !library.notices.is_empty() {
        egui::Window::new(tr(lang, Key::VariantFilesTitle))
            .id(egui::Id::new("variant_files"))
            .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(10.0, -10.0))
            .max_width(ctx.content_rect().width() - 20.0)
            .default_open(start_error.0.is_none())
            .resizable(true)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(260.0)
                    .show(ui, |ui| {
                        for (entry, why) in &broken {
                            ui.colored_label(
                                colours.bad(),
                                trf(lang, Key::FileBroken, &[("file", &entry.path)]),
                            );
                            ui.label(egui::RichText::new(*why).monospace().size(12.0));
                            ui.separator();
                        }
                        for (entry, variant) in &warned {
                            ui.label(trf(lang, Key::FileWarnings, &[("file", &entry.path)]));
                            for w in &variant.warnings {
                                let text = w.to_string();
                                ui.label(egui::RichText::new(text).monospace().size(12.0));
                            }
                            ui.separator();
                        }
                        for notice in library.notices.iter().rev().take(5) {
                            ui.label(crate::ui::i18n::notice(lang, notice));
                        }
                    });
            });
    }
    Ok(())
}
