//! The game's side panel, on the right of the window: the game and its players, whose turn it
//! is (or who is thinking, or how it ended), the game's buttons, the coach and the move list.
//! The board is drawn beside it, not under it: the camera's viewport leaves the panel out.
use bevy::{camera::Viewport, ecs::system::SystemParam, prelude::*, window::PrimaryWindow};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use boardcraft_rules::{Color, Position};

use crate::{
    GameSystems,
    game::coach::Coach,
    game::computer::AiThinking,
    game::config::Players,
    game::match_state::{
        AppState, Match, RedoRequested, ResignRequested, TurnPhase, UndoRequested,
    },
    game::review::{Review, ReviewCommand},
    input::Selection,
    settings::{Language, Settings, View},
    ui::i18n::{Key, side, side_lower, tr, trf, variant_text},
    view::animation::SkipAnimation,
    view::camera::{OrbitCamera, ToggleTopDown},
};

use super::{
    UiSystems, UiWindows, coach, colours, move_list, panel_frame, shown::UiDrawing, words,
};

/// The panel's width in logical pixels.
pub const PANEL_WIDTH: f32 = 310.0;

/// How much of the window's right side the panel takes (logical pixels; 0 when hidden).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct PanelWidth(pub f32);

/// How much of the window's left side a panel takes (the online game's panel; logical pixels,
/// 0 when there is none). The board is drawn between the two panels, never under one.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct LeftPanelWidth(pub f32);

pub fn plugin(app: &mut App) {
    app.init_resource::<PanelWidth>()
        .init_resource::<LeftPanelWidth>()
        .add_systems(
            EguiPrimaryContextPass,
            (
                // An exercise has its own panel (`ui::learn`).
                side_panel.run_if(
                    in_state(AppState::InGame).and_then(not(crate::learn::session::in_exercise)),
                ),
                confirm_resign.run_if(in_state(AppState::InGame)),
            )
                .in_set(UiSystems::Panels),
        )
        .add_systems(
            OnExit(AppState::InGame),
            |mut w: ResMut<PanelWidth>, mut left: ResMut<LeftPanelWidth>| {
                w.0 = 0.0;
                left.0 = 0.0;
            },
        )
        .add_systems(Update, fit_viewport.in_set(GameSystems::Sync));
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
    pub windows: ResMut<'w, UiWindows>,
    pub copy: MessageWriter<'w, crate::learn::copy_position::CopyPositionRequested>,
}

/// The side a "Resign" button resigns for: the only human, or the human to move when both
/// sides are human; nobody when the computer plays both sides.
pub fn resigning_side(game: &Match, players: &Players) -> Option<Color> {
    let humans: Vec<Color> = Color::BOTH
        .into_iter()
        .filter(|c| players.of(*c).is_human())
        .collect();
    match humans.as_slice() {
        [only] => Some(*only),
        [_, _] => Some(game.position.side_to_move()),
        _ => None,
    }
}

/// The variant's title in the player's language (a mod's own title otherwise).
pub fn variant_title(language: Language, variant: &boardcraft_rules::Variant) -> String {
    variant_text(language, &variant.name)
        .map_or_else(|| variant.title.clone(), |t| t.title.to_owned())
}

fn side_panel(
    mut contexts: EguiContexts,
    state: PanelState,
    mut actions: PanelActions,
    mut width: ResMut<PanelWidth>,
    mut list: Local<move_list::ListState>,
    mut drawing: ResMut<UiDrawing>,
) -> Result {
    let Some(game) = state.game.as_deref() else {
        return Ok(());
    };
    let lang = state.settings.language;
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let panel = egui::Area::new(egui::Id::new("side_panel"))
        .order(egui::Order::Background)
        .fixed_pos(egui::pos2(screen.right() - PANEL_WIDTH, screen.top()))
        .show(ctx, |ui| {
            panel_frame().corner_radius(0.0).show(ui, |ui| {
                let inner = PANEL_WIDTH - 24.0;
                ui.set_width(inner);
                ui.set_min_height(screen.height() - 20.0);
                ui.style_mut().visuals.override_text_color = Some(colours::TEXT);
                header(ui, lang, game, &state.players);
                ui.separator();
                status(ui, lang, game, &state, &mut actions);
                ui.separator();
                buttons(ui, lang, game, &state, &mut actions);
                super::copy_position::show(ui, lang, game, &state.copied, &mut actions.copy);
                if state.settings.coach {
                    ui.separator();
                    coach::show(ui, lang, game, &state.coach, &state.players);
                }
                ui.separator();
                move_list::show(
                    ui,
                    lang,
                    game,
                    &state.review,
                    &mut actions.review,
                    &mut list,
                    &mut drawing.0.moves,
                );
            });
        });
    drawing.main_rect(panel.response.rect);
    if width.0 != PANEL_WIDTH {
        width.0 = PANEL_WIDTH;
    }
    Ok(())
}

fn header(ui: &mut egui::Ui, lang: Language, game: &Match, players: &Players) {
    ui.heading(variant_title(lang, &game.variant));
    for c in Color::BOTH {
        ui.label(
            egui::RichText::new(trf(
                lang,
                Key::PlayerOfSide,
                &[
                    ("Side", &side(lang, c)),
                    ("player", &crate::ui::i18n::player(lang, players.of(c))),
                ],
            ))
            .small(),
        );
    }
}

fn status(
    ui: &mut egui::Ui,
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
        ui.label(big(text).color(colours::ACCENT));
        if ui.button(tr(lang, Key::BackToGame)).clicked() {
            actions.review.write(ReviewCommand::Live);
        }
        return;
    }
    let to_move = game.position.side_to_move();
    let over = state
        .phase
        .as_ref()
        .is_some_and(|p| *p.get() == TurnPhase::GameOver);
    if let (Some(end), true) = (game.end(), over) {
        let text = words::end_text(lang, end, &game.variant, to_move);
        ui.label(big(text.headline).color(colours::ACCENT));
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
                ("Side", &side(lang, thinking_side)),
                ("side", &side_lower(lang, thinking_side)),
                ("seconds", &seconds),
            ],
        )));
    } else {
        ui.label(big(trf(
            lang,
            Key::ToMove,
            &[
                ("Side", &side(lang, to_move)),
                ("side", &side_lower(lang, to_move)),
            ],
        )));
    }
    ui.horizontal(|ui| {
        ui.label(trf(
            lang,
            Key::MoveNumber,
            &[("n", &(game.position.ply() / 2 + 1))],
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
    let size = egui::vec2(half, 26.0);
    let button = |text: &str| egui::Button::new(text).min_size(size);
    egui::Grid::new("game_buttons")
        .num_columns(2)
        .spacing(ui.spacing().item_spacing)
        .show(ui, |ui| {
            let can_undo = game.undo_plies(players) > 0 || game.resigned.is_some();
            if ui
                .add_enabled(can_undo, button(tr(lang, Key::Undo)))
                .on_hover_text(tr(lang, Key::UndoTip))
                .clicked()
            {
                actions.undo.write(UndoRequested);
            }
            let can_redo = game.redo_plies(players) > 0 && game.resigned.is_none();
            if ui
                .add_enabled(can_redo, button(tr(lang, Key::Redo)))
                .on_hover_text(tr(lang, Key::RedoTip))
                .clicked()
            {
                actions.redo.write(RedoRequested);
            }
            ui.end_row();

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
                actions.windows.confirm_resign = true;
            }
            ui.end_row();

            // Both open the save/load window, which does either.
            for key in [Key::Save, Key::Load] {
                if ui
                    .add(button(tr(lang, key)))
                    .on_hover_text(tr(lang, Key::SaveLoadTip))
                    .clicked()
                {
                    actions.windows.saves = true;
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
                actions.windows.settings = !actions.windows.settings;
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
    mut windows: ResMut<UiWindows>,
    game: Option<Res<Match>>,
    players: Res<Players>,
    settings: Res<Settings>,
    mut resign: MessageWriter<ResignRequested>,
) -> Result {
    if !windows.confirm_resign {
        return Ok(());
    }
    let Some(game) = game else {
        return Ok(());
    };
    let Some(side_resigning) = resigning_side(&game, &players).filter(|_| game.end().is_none())
    else {
        windows.confirm_resign = false;
        return Ok(());
    };
    let lang = settings.language;
    let ctx = contexts.ctx_mut()?;
    egui::Window::new(tr(lang, Key::Resign))
        .id(egui::Id::new("confirm_resign"))
        .anchor(
            egui::Align2::CENTER_CENTER,
            egui::vec2(-PANEL_WIDTH / 2.0, 0.0),
        )
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(trf(
                lang,
                Key::ResignQuestion,
                &[
                    ("Side", &side(lang, side_resigning)),
                    ("side", &side_lower(lang, side_resigning)),
                ],
            ));
            ui.horizontal(|ui| {
                if ui.button(tr(lang, Key::Resign)).clicked() {
                    resign.write(ResignRequested {
                        side: side_resigning,
                    });
                    windows.confirm_resign = false;
                }
                if ui.button(tr(lang, Key::Cancel)).clicked() {
                    windows.confirm_resign = false;
                }
            });
        });
    Ok(())
}

/// Keeps the board out from under the panels: the camera draws (and picks) only in the part of
/// the window between them.
fn fit_viewport(
    width: Res<PanelWidth>,
    left: Res<LeftPanelWidth>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<&mut Camera, With<OrbitCamera>>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = window.physical_size();
    let physical = |w: f32| (w * window.scale_factor()).round() as u32;
    let (right, left) = (physical(width.0), physical(left.0));
    let wanted = (right + left > 0 && right + left + 64 < size.x).then(|| Viewport {
        physical_position: UVec2::new(left, 0),
        physical_size: UVec2::new(size.x - right - left, size.y.max(1)),
        ..default()
    });
    for mut camera in &mut cameras {
        let current = camera
            .viewport
            .as_ref()
            .map(|v| (v.physical_position, v.physical_size));
        let next = wanted
            .as_ref()
            .map(|v| (v.physical_position, v.physical_size));
        if current != next {
            camera.viewport = wanted.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use bevy::{ecs::system::RunSystemOnce, window::WindowResolution};

    use super::*;

    fn viewport(right: f32, left: f32) -> Option<(UVec2, UVec2)> {
        let mut world = World::new();
        world.spawn((
            Window {
                resolution: WindowResolution::new(1280, 800).with_scale_factor_override(1.0),
                ..default()
            },
            PrimaryWindow,
        ));
        let camera = world
            .spawn((Camera::default(), OrbitCamera::default()))
            .id();
        world.insert_resource(PanelWidth(right));
        world.insert_resource(LeftPanelWidth(left));
        world.run_system_once(fit_viewport).unwrap();
        let camera = world.get::<Camera>(camera).unwrap();
        camera
            .viewport
            .as_ref()
            .map(|v| (v.physical_position, v.physical_size))
    }

    #[test]
    fn the_board_is_drawn_between_the_panels() {
        assert_eq!(
            viewport(PANEL_WIDTH, 0.0),
            Some((UVec2::ZERO, UVec2::new(1280 - 310, 800)))
        );
        // The online panel at the left: the board starts right of it.
        assert_eq!(
            viewport(PANEL_WIDTH, 240.0),
            Some((UVec2::new(240, 0), UVec2::new(1280 - 310 - 240, 800)))
        );
        assert_eq!(viewport(0.0, 0.0), None);
    }
}
