//! The save/load window, over the persistence messages: save the game under a name, list the
//! saved games ([`SaveSlots`]), load or delete one, and show what became of each request
//! ([`PersistenceResult`]). Storage itself (files, browser storage, the save format and its
//! checks) is `crate::persistence`'s business.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    game::match_state::Match,
    persistence::{
        DeleteRequested, LoadRequested, PersistenceAction, PersistenceResult, SaveRequested,
        SaveSlots, StorageStatus,
    },
    settings::{Language, Settings},
    ui::i18n::{Key, Noun, count, tr, trf},
};

use super::{
    UiColours, UiSystems,
    layout::{self, BoardArea, GameRegions},
    screens::SavesWindow,
    words,
};

/// Things the player should know that came from storage (a damaged file recovered from its
/// backup, settings that could not be read or stored …), shown in a small window until closed.
#[derive(Resource, Debug, Default)]
pub struct StorageNotices(pub Vec<String>);

/// The window's own state.
#[derive(Resource, Debug, Default)]
pub struct SavesUi {
    /// The name typed for the next save.
    pub name: String,
    /// The request waiting for its answer.
    pub pending: Option<(PersistenceAction, String)>,
    /// The last answer: success, and the text shown.
    pub status: Option<(bool, String)>,
    /// Asking whether to delete this slot.
    pub confirm_delete: Option<String>,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<SavesUi>()
        .init_resource::<StorageNotices>()
        .add_systems(
            EguiPrimaryContextPass,
            (
                hear_results,
                saves_window.run_if(in_state(SavesWindow::Open)),
                notices_window,
            )
                .chain()
                .in_set(UiSystems::Windows),
        );
}

/// How the player hears of a persistence answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// The answer to the save window's request: success, and the text.
    Status(bool, String),
    /// Something to show until the player closes it.
    Notice(String),
}

/// What a persistence answer says, in the player's language.
pub fn result_text(language: Language, result: &PersistenceResult) -> Heard {
    match result {
        PersistenceResult::Saved { slot } => {
            Heard::Status(true, trf(language, Key::Saved, &[("slot", slot)]))
        }
        PersistenceResult::Loaded { slot } => {
            Heard::Status(true, trf(language, Key::Loaded, &[("slot", slot)]))
        }
        PersistenceResult::Deleted { slot } => {
            Heard::Status(true, trf(language, Key::Deleted, &[("slot", slot)]))
        }
        PersistenceResult::Failed {
            action,
            slot,
            error,
            ..
        } => {
            let why = words::save_error_text(language, error);
            let key = match action {
                PersistenceAction::Save => Key::SaveFailed,
                PersistenceAction::Load => Key::LoadFailed,
                PersistenceAction::Delete => Key::DeleteFailed,
                PersistenceAction::LoadSettings => {
                    return Heard::Notice(trf(language, Key::SettingsLoadFailed, &[("why", &why)]));
                }
                PersistenceAction::SaveSettings => {
                    return Heard::Notice(trf(language, Key::SettingsSaveFailed, &[("why", &why)]));
                }
            };
            Heard::Status(false, trf(language, key, &[("slot", slot), ("why", &why)]))
        }
        PersistenceResult::Notice {
            action,
            slot,
            notice,
            ..
        } => {
            let notice = words::persistence_notice_text(language, notice);
            Heard::Notice(match action {
                PersistenceAction::LoadSettings | PersistenceAction::SaveSettings => {
                    trf(language, Key::SettingsNotice, &[("notice", &notice)])
                }
                _ => trf(
                    language,
                    Key::SlotNotice,
                    &[("slot", slot), ("notice", &notice)],
                ),
            })
        }
    }
}

fn hear_results(
    mut results: MessageReader<PersistenceResult>,
    mut ui_state: ResMut<SavesUi>,
    mut notices: ResMut<StorageNotices>,
    mut window: ResMut<NextState<SavesWindow>>,
    settings: Res<Settings>,
) {
    for result in results.read() {
        match result_text(settings.language, result) {
            Heard::Status(ok, text) => {
                ui_state.pending = None;
                ui_state.status = Some((ok, text));
            }
            Heard::Notice(text) => {
                if !notices.0.contains(&text) {
                    notices.0.push(text);
                }
            }
        }
        if matches!(result, PersistenceResult::Loaded { .. }) {
            // The loaded game is on the board: the window has done its job.
            window.set(SavesWindow::Closed);
        }
    }
}

/// Storage notices, bottom left, until closed.
fn notices_window(
    colours: Res<UiColours>,
    mut contexts: EguiContexts,
    mut notices: ResMut<StorageNotices>,
    settings: Res<Settings>,
) -> Result {
    if notices.0.is_empty() {
        return Ok(());
    }
    let lang = settings.language;
    let ctx = contexts.ctx_mut()?;
    let mut close = false;
    egui::Window::new(tr(lang, Key::NoticesTitle))
        .id(egui::Id::new("storage_notices"))
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(10.0, -10.0))
        .collapsible(false)
        .resizable(false)
        .default_width(420.0_f32.min(ctx.content_rect().width() - 20.0))
        .max_width(ctx.content_rect().width() - 20.0)
        .show(ctx, |ui| {
            for text in notices.0.iter().rev().take(6) {
                ui.colored_label(colours.warn(), text);
            }
            if ui.button(tr(lang, Key::Close)).clicked() {
                close = true;
            }
        });
    if close {
        notices.0.clear();
    }
    Ok(())
}

/// A name for the next save: the variant's name and the first free number.
fn suggested_name(game: &Match, slots: &SaveSlots) -> String {
    let base = &game.variant.name;
    (1..)
        .map(|n| format!("{base}-{n}"))
        .find(|name| !slots.0.iter().any(|s| &s.slot == name))
        .expect("some number is free")
}

fn saves_window(
    colours: Res<UiColours>,
    mut contexts: EguiContexts,
    mut window: ResMut<NextState<SavesWindow>>,
    mut ui_state: ResMut<SavesUi>,
    slots: Res<SaveSlots>,
    status: Res<StorageStatus>,
    game: Option<Res<Match>>,
    settings: Res<Settings>,
    regions: Res<GameRegions>,
    board: Res<BoardArea>,
    mut save: MessageWriter<SaveRequested>,
    mut load: MessageWriter<LoadRequested>,
    mut delete: MessageWriter<DeleteRequested>,
) -> Result {
    let lang = settings.language;
    if ui_state.name.trim().is_empty()
        && let Some(game) = &game
    {
        ui_state.name = suggested_name(game, &slots);
    }
    let ctx = contexts.ctx_mut()?;
    let over = board.0.map(|_| regions.board);
    layout::dialog(ctx, tr(lang, Key::SavesTitle), "saves", 440.0, over).show(ctx, |ui| {
        let state = &mut *ui_state;
        if game.is_some() {
            ui.horizontal_wrapped(|ui| {
                ui.label(tr(lang, Key::SaveAs));
                let width = 220.0_f32.min(ui.available_width() - 8.0);
                ui.add(egui::TextEdit::singleline(&mut state.name).desired_width(width));
                let name = state.name.trim().to_owned();
                if ui
                    .add_enabled(!name.is_empty(), egui::Button::new(tr(lang, Key::Save)))
                    .clicked()
                {
                    save.write(SaveRequested { slot: name.clone() });
                    state.pending = Some((PersistenceAction::Save, name));
                    state.status = None;
                }
            });
            let name = state.name.trim();
            if slots.0.iter().any(|s| s.slot == name) {
                ui.colored_label(
                    colours.warn(),
                    egui::RichText::new(tr(lang, Key::SaveReplaces)).small(),
                );
            }
        } else {
            ui.weak(tr(lang, Key::NoGameToSave));
        }
        ui.separator();
        ui.label(egui::RichText::new(tr(lang, Key::SavedGames)).strong());
        if slots.0.is_empty() {
            ui.weak(tr(lang, Key::NoSaves));
        }
        // The window scrolls as a whole on a small screen; a list of its own elsewhere.
        egui::ScrollArea::vertical()
            .max_height(300.0)
            .vscroll(ui.ctx().content_rect().height() > 600.0)
            .show(ui, |ui| {
                for info in &slots.0 {
                    // The slot's name and line, its buttons under them.
                    ui.vertical(|ui| {
                        ui.label(egui::RichText::new(&info.slot).strong());
                        let moves = count(lang, info.plies.div_ceil(2) as u64, Noun::Move);
                        let result = words::slot_result_text(lang, &info.result, &info.seats);
                        ui.label(
                            egui::RichText::new(trf(
                                lang,
                                Key::SlotLine,
                                &[
                                    ("title", &info.variant_title),
                                    ("plies", &moves),
                                    ("result", &result),
                                ],
                            ))
                            .small(),
                        );
                        ui.horizontal(|ui| {
                            if ui.button(tr(lang, Key::Load)).clicked() {
                                load.write(LoadRequested {
                                    slot: info.slot.clone(),
                                });
                                state.pending = Some((PersistenceAction::Load, info.slot.clone()));
                                state.status = None;
                            }
                            if ui.button(tr(lang, Key::Delete)).clicked() {
                                state.confirm_delete = Some(info.slot.clone());
                            }
                        });
                    });
                    if state.confirm_delete.as_deref() == Some(info.slot.as_str()) {
                        ui.horizontal_wrapped(|ui| {
                            ui.colored_label(
                                colours.warn(),
                                trf(lang, Key::DeleteQuestion, &[("slot", &info.slot)]),
                            );
                            if ui.button(tr(lang, Key::Delete)).clicked() {
                                delete.write(DeleteRequested {
                                    slot: info.slot.clone(),
                                });
                                state.pending =
                                    Some((PersistenceAction::Delete, info.slot.clone()));
                                state.status = None;
                                state.confirm_delete = None;
                            }
                            if ui.button(tr(lang, Key::Cancel)).clicked() {
                                state.confirm_delete = None;
                            }
                        });
                    }
                    ui.separator();
                }
            });
        if !status.location.is_empty() {
            ui.label(
                egui::RichText::new(trf(
                    lang,
                    Key::StorageLocation,
                    &[("location", &status.location)],
                ))
                .small()
                .weak(),
            );
        }
        if state.pending.is_some() {
            ui.weak(tr(lang, Key::Working));
        } else if let Some((ok, text)) = &state.status {
            ui.colored_label(if *ok { colours.good() } else { colours.bad() }, text);
        }
        if ui.button(tr(lang, Key::Close)).clicked() {
            window.set(SavesWindow::Closed);
        }
    });
    Ok(())
}
