//! The settings window: animation, sound volume, view, language and the coach. It edits the
//! [`Settings`] resource; the systems concerned follow it (and persistence stores it).
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    settings::{Language, Settings, View},
    ui::i18n::{Key, language_name, tr},
};

use super::{UiSystems, UiWindows, hud::PanelWidth};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        settings_window.in_set(UiSystems::Windows),
    );
}

fn settings_window(
    mut contexts: EguiContexts,
    mut windows: ResMut<UiWindows>,
    mut settings: ResMut<Settings>,
    panel: Res<PanelWidth>,
) -> Result {
    if !windows.settings {
        return Ok(());
    }
    let lang = settings.language;
    // Edit a copy, so the resource only counts as changed when something did change.
    let mut edited = settings.clone();
    let mut open = true;
    let mut close = false;
    let ctx = contexts.ctx_mut()?;
    egui::Window::new(tr(lang, Key::SettingsTitle))
        .id(egui::Id::new("settings"))
        .open(&mut open)
        // Centred over the board, not the whole window.
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(-panel.0 / 2.0, 0.0))
        .collapsible(false)
        .resizable(false)
        .default_width(360.0)
        .show(ctx, |ui| {
            egui::Grid::new("settings_grid")
                .num_columns(2)
                .spacing(egui::vec2(16.0, 10.0))
                .show(ui, |ui| {
                    ui.label(tr(lang, Key::AnimationSpeed));
                    ui.vertical(|ui| {
                        let mut animate = edited.animation_speed > 0.0;
                        if ui
                            .checkbox(&mut animate, tr(lang, Key::AnimateMoves))
                            .changed()
                        {
                            edited.animation_speed = if animate { 1.0 } else { 0.0 };
                        }
                        ui.add_enabled_ui(animate, |ui| {
                            let mut speed = edited.animation_speed.max(0.25);
                            if ui
                                .add(
                                    egui::Slider::new(&mut speed, 0.25..=4.0)
                                        .logarithmic(true)
                                        .suffix("×"),
                                )
                                .changed()
                            {
                                edited.animation_speed = speed;
                            }
                        });
                    });
                    ui.end_row();

                    ui.label(tr(lang, Key::EffectsVolume));
                    let mut percent = (edited.effects_volume * 100.0).round();
                    if ui
                        .add(egui::Slider::new(&mut percent, 0.0..=100.0).suffix(" %"))
                        .changed()
                    {
                        edited.effects_volume = percent / 100.0;
                    }
                    ui.end_row();

                    ui.label(tr(lang, Key::View));
                    ui.horizontal(|ui| {
                        ui.radio_value(
                            &mut edited.view,
                            View::Perspective,
                            tr(lang, Key::ViewPerspective),
                        );
                        ui.radio_value(&mut edited.view, View::TopDown, tr(lang, Key::ViewTopDown));
                    });
                    ui.end_row();

                    ui.label(tr(lang, Key::Language));
                    ui.horizontal(|ui| {
                        for language in Language::ALL {
                            ui.radio_value(&mut edited.language, language, language_name(language));
                        }
                    });
                    ui.end_row();

                    ui.label(tr(lang, Key::Coach));
                    ui.checkbox(&mut edited.coach, "");
                    ui.end_row();
                });
            ui.label(egui::RichText::new(tr(lang, Key::CoachHint)).small());
            ui.add_space(4.0);
            if ui.button(tr(lang, Key::Close)).clicked() {
                close = true;
            }
        });
    if edited != *settings {
        *settings = edited;
    }
    if !open || close {
        windows.settings = false;
    }
    Ok(())
}
