//! The game's panel: the game and its players, whose turn it is (or who is thinking, or how it
//! ended), the game's buttons, the coach and the move list. Where it goes is the layout's
//! ([`super::layout::GameRegions`]): at the right of a wide window with everything in one
//! column; under the board in portrait and beside it in short landscape as a compact bar (the
//! status line and the main buttons) over two tabs, the move list and the rest of the game's
//! actions. The board is drawn beside it, never under it: the camera's viewport is the board's
//! region.
use bevy::{ecs::system::SystemParam, prelude::*};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use boardcraft_rules::{Position, Seat};

use crate::{
    game::coach::Coach,
    game::computer::AiThinking,
    game::config::Players,
    game::match_state::{
        AppState, Match, RedoRequested, ResignRequested, TurnPhase, UndoRequested,
    },
    game::review::{Review, ReviewCommand},
    game::seat_names::SeatNames,
    input::Selection,
    settings::{Language, Settings, View},
    ui::i18n::{Key, side, side_lower, tr, trf, variant_text},
    view::animation::SkipAnimation,
    view::camera::ToggleTopDown,
};

use super::{
    UiColours, UiSystems, coach,
    layout::{self, GameRegions, Shape},
    move_list,
    screens::{ResignDialog, SavesWindow, SettingsWindow},
    seat_chip,
    shown::UiDrawing,
    words,
};

/// What the compact panel (portrait, short landscape) shows under its bar.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Sheet {
    #[default]
    Moves,
    Game,
}

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            // An exercise has its own panel (`ui::learn`).
            side_panel.run_if(
                in_state(AppState::InGame).and_then(not(crate::learn::session::in_exercise)),
            ),
            confirm_resign.run_if(in_state(ResignDialog::Asking)),
        )
            .in_set(UiSystems::Panels),
    );
}

/// What the panel shows.
#[derive(SystemParam)]
pub struct PanelState<'w> {
    pub game: Option<Res<'w, Match>>,
    pub players: Res<'w, Players>,
    pub phase: Option<Res<'w, State<TurnPhase>>>,
    pub review: Res<'w, Review>,
    pub thinking: Res<'w, AiThinking>,
    pub coach: Res<'w, Coach>,
    pub settings: Res<'w, Settings>,
    pub time: Res<'w, Time<Real>>,
    pub selection: Res<'w, Selection>,
    pub copied: Res<'w, crate::learn::copy_position::CopiedPosition>,
    /// The online session, whose players name the seats of an online game.
    pub online: Option<Res<'w, crate::online::Online>>,
}

/// What the panel's buttons do.
#[derive(SystemParam)]
pub struct PanelActions<'w> {
    pub undo: MessageWriter<'w, UndoRequested>,
    pub redo: MessageWriter<'w, RedoRequested>,
    pub review: MessageWriter<'w, ReviewCommand>,
    pub toggle_view: MessageWriter<'w, ToggleTopDown>,
    pub skip: MessageWriter<'w, SkipAnimation>,
    pub next_state: ResMut<'w, NextState<AppState>>,
    pub settings_window: Res<'w, State<SettingsWindow>>,
    pub open_settings: ResMut<'w, NextState<SettingsWindow>>,
    pub open_saves: ResMut<'w, NextState<SavesWindow>>,
    pub resign_dialog: ResMut<'w, NextState<ResignDialog>>,
    pub copy: MessageWriter<'w, crate::learn::copy_position::CopyPositionRequested>,
}

impl PanelActions<'_> {
    /// The Settings button opens the settings window, or closes it when it is open.
    fn toggle_settings(&mut self) {
        self.open_settings.set(match self.settings_window.get() {
            SettingsWindow::Open => SettingsWindow::Closed,
            SettingsWindow::Closed => SettingsWindow::Open,
        });
    }
}

/// The seat a "Resign" button resigns for: the only human still playing, or the human to move
/// when several people play at this screen; nobody when the computer plays every seat (or no
/// person is to move among several).
pub fn resigning_side(game: &Match, players: &Players) -> Option<Seat> {
    let finished = game.position.finish_order();
    let humans: Vec<Seat> = players.humans().filter(|s| !finished.contains(s)).collect();
    let to_move = game.position.side_to_move();
    match humans.as_slice() {
        [] => None,
        [only] => Some(*only),
        _ if humans.contains(&to_move) => Some(to_move),
        _ => None,
    }
}

/// In hot-seat (several people at one screen): the person to move when the device must change
/// hands, that is when the last person to move sat in another seat.
pub fn pass_to(game: &Match, players: &Players) -> Option<Seat> {
    if players.humans().count() < 2 || game.end().is_some() {
        return None;
    }
    let to_move = game.position.side_to_move();
    if !players.of(to_move).is_human() {
        return None;
    }
    let last_human = game
        .history
        .iter()
        .rev()
        .map(|m| m.side)
        .find(|s| players.of(*s).is_human())?;
    (last_human != to_move).then_some(to_move)
}

/// The variant's title in the player's language (a mod's own title otherwise).
pub fn variant_title(language: Language, variant: &boardcraft_rules::Variant) -> String {
    variant_text(language, &variant.name)
        .map_or_else(|| variant.title.clone(), |t| t.title.to_owned())
}

fn side_panel(
    colours: Res<UiColours>,
    mut contexts: EguiContexts,
    state: PanelState,
    mut actions: PanelActions,
    regions: Res<GameRegions>,
    mut list: Local<move_list::ListState>,
    mut sheet: Local<Sheet>,
    mut drawing: ResMut<UiDrawing>,
) -> Result {
    let Some(game) = state.game.as_deref() else {
        return Ok(());
    };
    let lang = state.settings.language;
    let ctx = contexts.ctx_mut()?;
    let region = regions.panel;
    let panel = egui::Area::new(egui::Id::new("side_panel"))
        .order(egui::Order::Background)
        .fixed_pos(region.min)
        .show(ctx, |ui| {
            colours.panel_frame().corner_radius(0.0).show(ui, |ui| {
                ui.set_width(region.width() - 24.0);
                ui.set_min_height(region.height() - 20.0);
                ui.set_max_height(region.height() - 20.0);
                ui.style_mut().visuals.override_text_color = Some(colours.text);
                let bottom = region.bottom() - 10.0;
                // The full column on a wide window, unless its controls are touch-sized and the
                // window is short (a tablet held sideways): then the compact bar, which scrolls.
                let roomy = region.height() >= 700.0 || ui.spacing().interact_size.y < layout::TAP;
                if regions.shape == Shape::Wide && roomy {
                    header(ui, lang, game, &state);
                    ui.separator();
                    status(ui, &colours, lang, game, &state, &mut actions);
                    ui.separator();
                    buttons(ui, lang, game, &state, &mut actions);
                    super::copy_position::show(
                        ui,
                        &colours,
                        lang,
                        game,
                        &state.copied,
                        &mut actions.copy,
                    );
                    if state.settings.coach {
                        ui.separator();
                        coach::show(ui, &colours, lang, game, &state.coach, &state.players);
                    }
                    ui.separator();
                    move_list::show(
                        ui,
                        &colours,
                        lang,
                        game,
                        &state.review,
                        &mut actions.review,
                        &mut list,
                        &mut drawing.0.moves,
                    );
                } else {
                    // All of it scrolls when the panel is too short for it (a small phone):
                    // the list keeps room for a few moves.
                    egui::ScrollArea::vertical()
                        .id_salt("compact_panel")
                        .max_height(region.height() - 20.0)
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            status(ui, &colours, lang, game, &state, &mut actions);
                            main_buttons(ui, lang, game, &state, &mut actions);
                            tabs(ui, lang, &mut sheet);
                            let rest = (bottom - ui.cursor().top()).max(160.0);
                            match *sheet {
                                Sheet::Moves => {
                                    ui.allocate_ui(egui::vec2(ui.available_width(), rest), |ui| {
                                        ui.set_max_height(rest);
                                        move_list::show(
                                            ui,
                                            &colours,
                                            lang,
                                            game,
                                            &state.review,
                                            &mut actions.review,
                                            &mut list,
                                            &mut drawing.0.moves,
                                        );
                                    });
                                }
                                Sheet::Game => {
                                    header(ui, lang, game, &state);
                                    ui.separator();
                                    more_buttons(ui, lang, game, &state, &mut actions);
                                    super::copy_position::show(
                                        ui,
                                        &colours,
                                        lang,
                                        game,
                                        &state.copied,
                                        &mut actions.copy,
                                    );
                                    if state.settings.coach {
                                        ui.separator();
                                        coach::show(
                                            ui,
                                            &colours,
                                            lang,
                                            game,
                                            &state.coach,
                                            &state.players,
                                        );
                                    }
                                }
                            }
                        });
                }
            });
        });
    drawing.main_rect(panel.response.rect);
    Ok(())
}

/// The compact panel's tabs: the move list, or the rest of the game's actions.
fn tabs(ui: &mut egui::Ui, lang: Language, sheet: &mut Sheet) {
    let half = (ui.available_width() - ui.spacing().item_spacing.x) / 2.0;
    let height = layout::button_height(ui, 26.0);
    ui.horizontal(|ui| {
        for (tab, key) in [(Sheet::Moves, Key::MovesTitle), (Sheet::Game, Key::GameTab)] {
            let label = egui::RichText::new(tr(lang, key)).strong();
            let button =
                egui::Button::selectable(*sheet == tab, label).min_size(egui::vec2(half, height));
            if ui.add(button).clicked() {
                *sheet = tab;
            }
        }
    });
}

/// The compact bar's buttons: undo, redo and the view.
fn main_buttons(
    ui: &mut egui::Ui,
    lang: Language,
    game: &Match,
    state: &PanelState,
    actions: &mut PanelActions,
) {
    let players = &*state.players;
    // The short names of the views (the settings' words), so the three fit in one row.
    let view_key = match state.settings.view {
        View::Perspective => Key::ViewTopDown,
        View::TopDown => Key::ViewPerspective,
    };
    let local = !players.any_remote();
    let view = tr(lang, view_key);
    let labels = if local {
        vec![tr(lang, Key::Undo), tr(lang, Key::Redo), view]
    } else {
        vec![view]
    };
    let columns = layout::columns_for(ui, &labels, labels.len());
    let gap = ui.spacing().item_spacing.x;
    let width = (ui.available_width() - gap * (columns - 1) as f32) / columns as f32;
    let size = egui::vec2(width, layout::button_height(ui, 26.0));
    egui::Grid::new("main_buttons")
        .num_columns(columns)
        .spacing(ui.spacing().item_spacing)
        .show(ui, |ui| {
            let mut n = 0;
            let mut next = |ui: &mut egui::Ui| {
                n += 1;
                if n % columns == 0 {
                    ui.end_row();
                }
            };
            // Online, a move is taken back by the opponent's consent (the online strip's
            // Take back): the local undo and redo would only ever be disabled.
            if local {
                undo_redo(ui, lang, game, state, actions, size, &mut next);
            }
            if ui.add(egui::Button::new(view).min_size(size)).clicked() {
                actions.toggle_view.write(ToggleTopDown);
            }
            next(ui);
        });
}

/// Undo and Redo, in the wide panel and the compact bar alike: each enabled when there is a
/// ply to take back or to play again. `after_each` runs after each button (ends a grid row).
fn undo_redo(
    ui: &mut egui::Ui,
    lang: Language,
    game: &Match,
    state: &PanelState,
    actions: &mut PanelActions,
    size: egui::Vec2,
    after_each: &mut dyn FnMut(&mut egui::Ui),
) {
    let players = &*state.players;
    let can_undo = game.undo_plies(players) > 0 || game.resigned.is_some();
    if ui
        .add_enabled(
            can_undo,
            egui::Button::new(tr(lang, Key::Undo)).min_size(size),
        )
        .on_hover_text(tr(lang, Key::UndoTip))
        .clicked()
    {
        actions.undo.write(UndoRequested);
    }
    after_each(ui);
    let can_redo = game.redo_plies(players) > 0 && game.resigned.is_none();
    if ui
        .add_enabled(
            can_redo,
            egui::Button::new(tr(lang, Key::Redo)).min_size(size),
        )
        .on_hover_text(tr(lang, Key::RedoTip))
        .clicked()
    {
        actions.redo.write(RedoRequested);
    }
    after_each(ui);
}

/// The compact panel's other actions: a new game, resign, save and load, settings, skip the
/// animation, the menu.
fn more_buttons(
    ui: &mut egui::Ui,
    lang: Language,
    game: &Match,
    state: &PanelState,
    actions: &mut PanelActions,
) {
    let players = &*state.players;
    let keys = [
        Key::NewGame,
        Key::Resign,
        Key::Save,
        Key::Load,
        Key::Settings,
        Key::Skip,
        Key::Menu,
    ];
    let labels: Vec<&str> = keys.iter().map(|k| tr(lang, *k)).collect();
    let columns = layout::columns_for(ui, &labels, 3);
    let gap = ui.spacing().item_spacing.x;
    let width = (ui.available_width() - gap * (columns - 1) as f32) / columns as f32;
    let size = egui::vec2(width, layout::button_height(ui, 26.0));
    let animating = state
        .phase
        .as_ref()
        .is_some_and(|p| *p.get() == TurnPhase::Animating);
    let can_resign = game.end().is_none() && resigning_side(game, players).is_some();
    egui::Grid::new("more_buttons")
        .num_columns(columns)
        .spacing(ui.spacing().item_spacing)
        .show(ui, |ui| {
            for (i, key) in keys.into_iter().enumerate() {
                let enabled = match key {
                    Key::Resign => can_resign,
                    Key::Skip => animating,
                    _ => true,
                };
                if ui
                    .add_enabled(enabled, egui::Button::new(labels[i]).min_size(size))
                    .clicked()
                {
                    match key {
                        Key::NewGame | Key::Menu => actions.next_state.set(AppState::Menu),
                        Key::Resign => actions.resign_dialog.set(ResignDialog::Asking),
                        Key::Save | Key::Load => actions.open_saves.set(SavesWindow::Open),
                        Key::Settings => actions.toggle_settings(),
                        Key::Skip => {
                            actions.skip.write(SkipAnimation);
                        }
                        _ => {}
                    }
                }
                if (i + 1) % columns == 0 {
                    ui.end_row();
                }
            }
        });
}

/// Who plays a seat as the panel names them: the player's name in an online game (from the
/// server), else the kind of player ("Human", "Computer · amateur").
fn who_plays(lang: Language, game: &Match, state: &PanelState, seat: Seat) -> String {
    state
        .online
        .as_deref()
        .filter(|online| online.shows(game))
        .and_then(|online| online.players.as_ref())
        .and_then(|players| players.seats.get(seat.index()))
        .map(|player| player.name.clone())
        .unwrap_or_else(|| crate::ui::i18n::player(lang, state.players.of(seat)).to_owned())
}

fn header(ui: &mut egui::Ui, lang: Language, game: &Match, state: &PanelState) {
    ui.heading(variant_title(lang, &game.variant));
    let seats = SeatNames::of(&game.position);
    let finished = game.position.finish_order();
    let to_move = game.position.side_to_move();
    for c in Seat::all(seats.count()) {
        ui.horizontal(|ui| {
            seat_chip::chip(ui, seat_chip::look(&seats, c), 14.0);
            let text = egui::RichText::new(trf(
                lang,
                Key::PlayerOfSide,
                &[
                    ("Side", &side(lang, &seats, c)),
                    ("player", &who_plays(lang, game, state, c)),
                ],
            ))
            .small();
            ui.label(if c == to_move && game.end().is_none() {
                text.strong()
            } else {
                text
            });
            // A seat that has finished while the others play on for the places.
            if let Some(i) = finished.iter().position(|s| *s == c) {
                ui.label(
                    egui::RichText::new(crate::ui::i18n::place(lang, i as u8 + 1))
                        .small()
                        .strong(),
                );
            }
        });
    }
}

fn status(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    game: &Match,
    state: &PanelState,
    actions: &mut PanelActions,
) {
    let big = |text: String| egui::RichText::new(text).size(17.0).strong();
    if let Some(ply) = state.review.ply {
        let text = match ply.checked_sub(1) {
            None => tr(lang, Key::ReviewStart).to_owned(),
            Some(prev) => trf(
                lang,
                Key::ReviewAfter,
                &[
                    ("move", &game.history[prev].notation),
                    ("ply", &ply),
                    ("total", &game.history.len()),
                ],
            ),
        };
        ui.label(big(text).color(colours.accent()));
        if ui.button(tr(lang, Key::BackToGame)).clicked() {
            actions.review.write(ReviewCommand::Live);
        }
        return;
    }
    let to_move = game.position.side_to_move();
    let seats = SeatNames::of(&game.position);
    let over = state
        .phase
        .as_ref()
        .is_some_and(|p| *p.get() == TurnPhase::GameOver);
    if let (Some(end), true) = (game.end(), over) {
        let text = words::end_text(lang, end, &game.variant, to_move);
        ui.label(big(text.headline).color(colours.accent()));
        ui.label(text.reason);
    } else if state.thinking.is_thinking() {
        let thinking_side = state.thinking.side.unwrap_or(to_move);
        let seconds = format!(
            "{:.1}",
            (state.time.elapsed_secs_f64() - state.thinking.since).max(0.0)
        );
        let seconds = match lang {
            Language::English => seconds,
            Language::Russian => seconds.replace('.', ","),
        };
        ui.label(big(trf(
            lang,
            Key::Thinking,
            &[
                ("Side", &side(lang, &seats, thinking_side)),
                ("side", &side_lower(lang, &seats, thinking_side)),
                ("seconds", &seconds),
            ],
        )));
    } else {
        ui.horizontal(|ui| {
            seat_chip::chip(ui, seat_chip::look(&seats, to_move), 20.0);
            ui.label(big(trf(
                lang,
                Key::ToMove,
                &[
                    ("Side", &side(lang, &seats, to_move)),
                    ("side", &side_lower(lang, &seats, to_move)),
                ],
            )));
        });
        if let Some(next) = pass_to(game, &state.players) {
            ui.label(
                egui::RichText::new(trf(
                    lang,
                    Key::PassDevice,
                    &[
                        ("Side", &side(lang, &seats, next)),
                        ("side", &side_lower(lang, &seats, next)),
                    ],
                ))
                .color(colours.accent())
                .strong(),
            );
        }
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(trf(
            lang,
            Key::MoveNumber,
            // A move number counts rounds: every seat moves once in each.
            &[("n", &(game.position.ply() as usize / seats.count() + 1))],
        ));
        if let Some(last) = game.history.last() {
            ui.label("·");
            ui.label(trf(lang, Key::LastMove, &[("move", &last.notation)]));
        }
    });
    if let Some(n) = state.selection.lift {
        ui.label(egui::RichText::new(trf(lang, Key::Lifting, &[("n", &n)])).small());
    } else if state.selection.lift_options().len() > 1 {
        ui.label(egui::RichText::new(tr(lang, Key::LiftHint)).small());
    }
}

fn buttons(
    ui: &mut egui::Ui,
    lang: Language,
    game: &Match,
    state: &PanelState,
    actions: &mut PanelActions,
) {
    let players = &*state.players;
    let half = (ui.available_width() - ui.spacing().item_spacing.x) / 2.0;
    let size = egui::vec2(half, layout::button_height(ui, 26.0));
    let button = |text: &str| egui::Button::new(text).min_size(size);
    egui::Grid::new("game_buttons")
        .num_columns(2)
        .spacing(ui.spacing().item_spacing)
        .show(ui, |ui| {
            // Online, the online panel's Take back asks the opponent instead.
            if !players.any_remote() {
                undo_redo(ui, lang, game, state, actions, size, &mut |_| {});
                ui.end_row();
            }

            if ui
                .add(button(tr(lang, Key::NewGame)))
                .on_hover_text(tr(lang, Key::NewGameTip))
                .clicked()
            {
                actions.next_state.set(AppState::Menu);
            }
            let can_resign = game.end().is_none() && resigning_side(game, players).is_some();
            if ui
                .add_enabled(can_resign, button(tr(lang, Key::Resign)))
                .on_hover_text(tr(lang, Key::ResignTip))
                .clicked()
            {
                actions.resign_dialog.set(ResignDialog::Asking);
            }
            ui.end_row();

            // Both open the save/load window, which does either.
            for key in [Key::Save, Key::Load] {
                if ui
                    .add(button(tr(lang, key)))
                    .on_hover_text(tr(lang, Key::SaveLoadTip))
                    .clicked()
                {
                    actions.open_saves.set(SavesWindow::Open);
                }
            }
            ui.end_row();

            let view_key = match state.settings.view {
                View::Perspective => Key::ViewTopDownButton,
                View::TopDown => Key::View3dButton,
            };
            if ui
                .add(button(tr(lang, view_key)))
                .on_hover_text(tr(lang, Key::ViewTip))
                .clicked()
            {
                actions.toggle_view.write(ToggleTopDown);
            }
            if ui.add(button(tr(lang, Key::Settings))).clicked() {
                actions.toggle_settings();
            }
            ui.end_row();

            let animating = state
                .phase
                .as_ref()
                .is_some_and(|p| *p.get() == TurnPhase::Animating);
            if ui
                .add_enabled(animating, button(tr(lang, Key::Skip)))
                .on_hover_text(tr(lang, Key::SkipTip))
                .clicked()
            {
                actions.skip.write(SkipAnimation);
            }
            if ui.add(button(tr(lang, Key::Menu))).clicked() {
                actions.next_state.set(AppState::Menu);
            }
            ui.end_row();
        });
}

/// "Does White resign?" with Resign / Cancel.
fn confirm_resign(
    mut contexts: EguiContexts,
    mut dialog: ResMut<NextState<ResignDialog>>,
    game: Option<Res<Match>>,
    players: Res<Players>,
    settings: Res<Settings>,
    mut resign: MessageWriter<ResignRequested>,
    regions: Res<GameRegions>,
) -> Result {
    let Some(game) = game else {
        return Ok(());
    };
    let Some(side_resigning) = resigning_side(&game, &players).filter(|_| game.end().is_none())
    else {
        dialog.set(ResignDialog::Closed);
        return Ok(());
    };
    let lang = settings.language;
    let seats = SeatNames::of(&game.position);
    let ctx = contexts.ctx_mut()?;
    layout::dialog(
        ctx,
        tr(lang, Key::Resign),
        "confirm_resign",
        320.0,
        Some(regions.board),
    )
    .show(ctx, |ui| {
        ui.label(trf(
            lang,
            Key::ResignQuestion,
            &[
                ("Side", &side(lang, &seats, side_resigning)),
                ("side", &side_lower(lang, &seats, side_resigning)),
            ],
        ));
        ui.horizontal_wrapped(|ui| {
            if ui.button(tr(lang, Key::Resign)).clicked() {
                resign.write(ResignRequested {
                    side: side_resigning,
                });
                dialog.set(ResignDialog::Closed);
            }
            if ui.button(tr(lang, Key::Cancel)).clicked() {
                dialog.set(ResignDialog::Closed);
            }
        });
    });
    Ok(())
}
