//! The settings window: animation, sound volume, view, language, the size of the UI, the
//! graphics and the coach. It edits the [`Settings`] resource; the systems concerned follow it (and persistence
//! stores it). On a narrow screen each setting's name is above its control, in one column.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    settings::{Graphics, Language, Settings, View},
    ui::i18n::{Key, language_name, tr},
};

use super::{
    UiSystems,
    layout::{self, BoardArea},
    screens::SettingsWindow,
};

/// The UI sizes offered (the factor, as a percentage to show).
pub const UI_SCALES: [f32; 4] = [1.0, 1.15, 1.3, 1.5];

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        settings_window
            .run_if(in_state(SettingsWindow::Open))
            .in_set(UiSystems::Windows),
    );
}

fn settings_window(
    mut contexts: EguiContexts,
    mut window: ResMut<NextState<SettingsWindow>>,
    mut settings: ResMut<Settings>,
    regions: Res<layout::GameRegions>,
    board: Res<BoardArea>,
) -> Result {
    let lang = settings.language;
    // Edit a copy, so the resource only counts as changed when something did change.
    let mut edited = settings.clone();
    let mut close = false;
    let ctx = contexts.ctx_mut()?;
    // Centred over the board while a game is on, not the whole window.
    let over = board.0.map(|_| regions.board);
    layout::dialog(ctx, tr(lang, Key::SettingsTitle), "settings", 420.0, over).show(ctx, |ui| {
        let narrow = ui.available_width() < 400.0;
        egui::Grid::new("settings_grid")
            .num_columns(if narrow { 1 } else { 2 })
            .spacing(egui::vec2(16.0, 10.0))
            .show(ui, |ui| {
                // One column: the name above the control.
                let next = |ui: &mut egui::Ui| {
                    if narrow {
                        ui.end_row();
                    }
                };
                ui.label(tr(lang, Key::AnimationSpeed));
                next(ui);
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
                next(ui);
                let mut percent = (edited.effects_volume * 100.0).round();
                if ui
                    .add(egui::Slider::new(&mut percent, 0.0..=100.0).suffix(" %"))
                    .changed()
                {
                    edited.effects_volume = percent / 100.0;
                }
                ui.end_row();

                ui.label(tr(lang, Key::View));
                next(ui);
                ui.horizontal_wrapped(|ui| {
                    ui.radio_value(
                        &mut edited.view,
                        View::Perspective,
                        tr(lang, Key::ViewPerspective),
                    );
                    ui.radio_value(&mut edited.view, View::TopDown, tr(lang, Key::ViewTopDown));
                });
                ui.end_row();

                ui.label(tr(lang, Key::Language));
                next(ui);
                ui.horizontal_wrapped(|ui| {
                    for language in Language::ALL {
                        ui.radio_value(&mut edited.language, language, language_name(language));
                    }
                });
                ui.end_row();

                ui.label(tr(lang, Key::UiScale));
                next(ui);
                ui.horizontal_wrapped(|ui| {
                    for scale in UI_SCALES {
                        let label = format!("{:.0} %", scale * 100.0);
                        let chosen = (edited.ui_scale - scale).abs() < 0.01;
                        if ui.radio(chosen, label).clicked() {
                            edited.ui_scale = scale;
                        }
                    }
                });
                ui.end_row();

                ui.label(tr(lang, Key::Graphics));
                next(ui);
                ui.horizontal_wrapped(|ui| {
                    for graphics in Graphics::ALL {
                        let name = match graphics {
                            Graphics::Auto => tr(lang, Key::GraphicsAuto),
                            Graphics::Full => tr(lang, Key::GraphicsFull),
                            Graphics::Light => tr(lang, Key::GraphicsLight),
                        };
                        ui.radio_value(&mut edited.graphics, graphics, name);
                    }
                });
                ui.end_row();

                ui.label(tr(lang, Key::Coach));
                next(ui);
                ui.checkbox(&mut edited.coach, tr(lang, Key::CoachOn));
                ui.end_row();
            });
        // The coach's hint right under its row, the last one.
        ui.label(egui::RichText::new(tr(lang, Key::CoachHint)).small());
        ui.add_space(4.0);
        let tap = layout::button_height(ui, 0.0);
        if ui
            .add(egui::Button::new(tr(lang, Key::Close)).min_size(egui::vec2(tap, tap)))
            .clicked()
        {
            close = true;
        }
    });
    if edited != *settings {
        *settings = edited;
    }
    if close {
        window.set(SettingsWindow::Closed);
    }
    Ok(())
}
