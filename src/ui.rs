//! The (for now minimal) egui UI: the game, the side to move, the thinking indicator, the
//! result, errors (a broken variant file, a game that cannot start), view controls, and the
//! board's coordinates. Systems run in `EguiPrimaryContextPass`; they read state and write
//! messages, never the match itself.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use boardcraft_rules::Position;

use crate::{
    ai::AiThinking,
    animation::{AnimationSettings, SkipAnimation},
    board::Board,
    camera::{OrbitCamera, ToggleTopDown},
    config::Players,
    input::Selection,
    match_state::{AppState, Match, MoveRequested, StartError, TurnPhase},
    variants::VariantLibrary,
};

pub fn plugin(app: &mut App) {
    app.add_plugins(EguiPlugin::default())
        .add_systems(
            EguiPrimaryContextPass,
            (coordinates, status_bar, move_chooser, errors).chain(),
        )
        .add_systems(Update, skip_key);
}

fn skip_key(keys: Res<ButtonInput<KeyCode>>, mut skip: MessageWriter<SkipAnimation>) {
    if keys.just_pressed(KeyCode::Space) {
        skip.write(SkipAnimation);
    }
}

fn panel_frame() -> egui::Frame {
    egui::Frame::new()
        .fill(egui::Color32::from_rgba_unmultiplied(24, 20, 17, 225))
        .corner_radius(6.0)
        .inner_margin(egui::Margin::symmetric(12, 8))
}

fn status_bar(
    mut contexts: EguiContexts,
    game: Option<Res<Match>>,
    state: Res<State<AppState>>,
    phase: Option<Res<State<TurnPhase>>>,
    players: Res<Players>,
    thinking: Res<AiThinking>,
    time: Res<Time<Real>>,
    mut settings: ResMut<AnimationSettings>,
    mut toggle: MessageWriter<ToggleTopDown>,
    mut skip: MessageWriter<SkipAnimation>,
    cameras: Query<&OrbitCamera>,
    selection: Res<Selection>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("status"))
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(10.0, 10.0))
        .show(ctx, |ui| {
            panel_frame().show(ui, |ui| {
                ui.set_max_width(250.0);
                ui.style_mut().visuals.override_text_color = Some(egui::Color32::from_gray(235));
                let Some(game) = game.as_ref() else {
                    ui.label(match state.get() {
                        AppState::Loading => "Loading variants…",
                        _ => "No game",
                    });
                    return;
                };
                ui.heading(&game.variant.title);
                let side = game.position.side_to_move();
                let line = match (game.outcome(), phase.as_ref().map(|p| *p.get())) {
                    (Some(outcome), Some(TurnPhase::GameOver) | None) => {
                        format!("Game over — {outcome}")
                    }
                    _ if thinking.is_thinking() => format!(
                        "{side} ({}) is thinking… {:.1} s",
                        players.of(side).name(),
                        time.elapsed_secs_f64() - thinking.since
                    ),
                    _ => format!(
                        "{side} to move ({}) · move {}",
                        players.of(side).name(),
                        game.position.ply() / 2 + 1
                    ),
                };
                ui.label(egui::RichText::new(line).size(16.0));
                if let Some(last) = game.history.last() {
                    ui.label(format!("Last move: {}", last.notation));
                }
                if let Some(n) = selection.lift {
                    ui.label(format!("Lifting {n} (scroll or click a level to change)"));
                } else if selection.lift_options().len() > 1 {
                    ui.label("Click a level of the tower, or scroll, to choose how many to lift");
                }
                ui.horizontal(|ui| {
                    let top_down = cameras.iter().any(|c| c.top_down);
                    if ui
                        .button(if top_down {
                            "3D view [T]"
                        } else {
                            "Top-down [T]"
                        })
                        .clicked()
                    {
                        toggle.write(ToggleTopDown);
                    }
                    if ui.button("Skip [Space]").clicked() {
                        skip.write(SkipAnimation);
                    }
                });
                ui.horizontal(|ui| {
                    ui.label("Speed");
                    ui.spacing_mut().slider_width = 110.0;
                    ui.add(egui::Slider::new(&mut settings.speed, 0.25..=4.0).logarithmic(true));
                });
            });
        });
    Ok(())
}

/// When the clicks name several moves (a GIPF removal choice, a GIPF-piece or a basic piece),
/// the player picks one here.
fn move_chooser(
    mut contexts: EguiContexts,
    mut selection: ResMut<Selection>,
    game: Option<Res<Match>>,
    mut requests: MessageWriter<MoveRequested>,
) -> Result {
    let Some(game) = game else {
        return Ok(());
    };
    if selection.choices.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut chosen = None;
    let mut cancel = false;
    egui::Window::new("Choose your move")
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 60.0))
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label("These moves start the same way; they differ in what is removed:");
            for (i, path) in selection.choices.iter().enumerate() {
                if ui
                    .button(egui::RichText::new(&path.notation).monospace())
                    .clicked()
                {
                    chosen = Some(i);
                }
            }
            if ui.button("Cancel").clicked() {
                cancel = true;
            }
        });
    if let Some(i) = chosen {
        let mv = selection.choices[i].mv.clone();
        requests.write(MoveRequested {
            mv,
            game_id: game.game_id,
            ply: game.position.ply(),
        });
        selection.clear();
    } else if cancel {
        selection.clear();
    }
    Ok(())
}

fn errors(
    mut contexts: EguiContexts,
    start_error: Res<StartError>,
    library: Res<VariantLibrary>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(why) = &start_error.0 {
        egui::Window::new("The game cannot start")
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(egui::RichText::new(why).monospace());
                ui.label("Fix the variant file and save it: the game reloads it and starts.");
            });
    }
    let broken: Vec<_> = library.broken().collect();
    if !broken.is_empty() || !library.notices.is_empty() {
        egui::Window::new("Variant files")
            .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-10.0, -10.0))
            .default_open(start_error.0.is_none())
            .resizable(true)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(260.0)
                    .show(ui, |ui| {
                        for (entry, why) in &broken {
                            ui.colored_label(
                                egui::Color32::from_rgb(255, 140, 120),
                                format!("{} is broken:", entry.path),
                            );
                            ui.label(egui::RichText::new(*why).monospace().size(12.0));
                            ui.separator();
                        }
                        for notice in library.notices.iter().rev().take(5) {
                            ui.label(notice);
                        }
                    });
            });
    }
    Ok(())
}

/// Coordinates around the board, drawn by egui so they stay crisp in every view.
fn coordinates(
    mut contexts: EguiContexts,
    board: Option<Res<Board>>,
    cameras: Query<(&Camera, &GlobalTransform), With<OrbitCamera>>,
) -> Result {
    let Some(board) = board else {
        return Ok(());
    };
    let Ok((camera, at)) = cameras.single() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let painter = ctx.layer_painter(egui::LayerId::background());
    for (text, pos) in &board.layout.labels {
        let world = board.layout.world(*pos, 0.02);
        if let Ok(screen) = camera.world_to_viewport(at, world) {
            // A dark halo keeps the label readable on light squares and on the wood.
            let font = egui::FontId::proportional(15.0);
            for (dx, dy) in [(-1.0, 0.0), (1.0, 0.0), (0.0, -1.0), (0.0, 1.0)] {
                painter.text(
                    egui::pos2(screen.x + dx, screen.y + dy),
                    egui::Align2::CENTER_CENTER,
                    text,
                    font.clone(),
                    egui::Color32::from_rgba_unmultiplied(30, 20, 12, 200),
                );
            }
            painter.text(
                egui::pos2(screen.x, screen.y),
                egui::Align2::CENTER_CENTER,
                text,
                font,
                egui::Color32::from_rgb(240, 228, 204),
            );
        }
    }
    Ok(())
}
