//! The Learn screens: the courses with their steps and the puzzles by family and difficulty
//! (with solved marks and broken files' errors), and the panel beside the board while a step or
//! a puzzle is played (its text and goal, what the last try got, hint, show the solution,
//! retry, next). They read [`LearnLibrary`], [`LearnProgress`] and [`LearnSession`] and write
//! the session's messages; the checking is `crate::learn::session`'s.
use std::{collections::HashMap, sync::Arc};

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use boardcraft_learn::{Difficulty, Text};
use boardcraft_rules::{AnyMove, AnyPosition, Position};

use crate::{
    game::match_state::{AppState, Match},
    game::review::{Review, ReviewCommand},
    game::seat_names::SeatNames,
    learn::content::{Exercise, ExerciseId, LearnLibrary, Origin},
    learn::copy_position::{CopiedPosition, CopyPositionRequested},
    learn::progress::{LearnProgress, ProgressStatus},
    learn::session::{
        Feedback, LearnSession, LeaveExercise, Progress, ShowSolution, StartExercise,
    },
    settings::{Language, Settings},
    ui::i18n::{
        Key, LearnKey, difficulty_name, family_name, goal_text, learn_tr, learn_trf, side,
        side_lower, trf,
    },
    view::model::{Layout, Snapshot},
};

use super::{
    UiColours, UiSystems,
    hud::variant_title,
    layout::{self, GameRegions, ONE_COLUMN_BELOW, ONE_COLUMN_SHORTER},
    shown::UiDrawing,
};

/// Which list the Learn screen shows.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum LearnTab {
    #[default]
    Courses,
    Puzzles,
}

/// The choices made on the Learn screen (kept while a step or puzzle is played, so "Back to
/// Learn" returns to the same list).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct LearnDraft {
    pub tab: LearnTab,
    /// The course shown (its id).
    pub course: Option<String>,
    /// The puzzles' family shown (`Race`, `Focus`, `Gipf`).
    pub family: Option<String>,
    /// `None`: every difficulty.
    pub difficulty: Option<Difficulty>,
    /// The puzzle whose board is shown.
    pub puzzle: Option<ExerciseId>,
}

/// Drawings of exercises' start positions, by exercise key.
#[derive(Resource, Default)]
pub struct ExercisePreviews(HashMap<String, Arc<(Layout, Snapshot)>>);

impl ExercisePreviews {
    fn of(&mut self, exercise: &Exercise) -> Arc<(Layout, Snapshot)> {
        self.0
            .entry(exercise.id.key())
            .or_insert_with(|| {
                let layout = Layout::for_variant(&exercise.variant);
                let snapshot = Snapshot::of(&exercise.start, &layout);
                Arc::new((layout, snapshot))
            })
            .clone()
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<LearnDraft>()
        .init_resource::<ExercisePreviews>()
        .add_systems(
            OnEnter(AppState::Learn),
            |open: Option<Res<crate::learn::session::OpenExercise>>,
             mut draft: ResMut<LearnDraft>,
             mut done: Local<bool>| {
                // `--learn puzzles` opens the puzzles, once.
                if !*done && open.is_some_and(|o| o.puzzles) {
                    draft.tab = LearnTab::Puzzles;
                }
                *done = true;
            },
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                learn_screen.run_if(in_state(AppState::Learn)),
                exercise_panel.run_if(
                    in_state(AppState::InGame).and_then(crate::learn::session::in_exercise),
                ),
            )
                .in_set(UiSystems::Panels),
        );
}

/// The file's text in the player's language.
fn text(lang: Language, t: &Text) -> &str {
    t.get(lang.code())
}

fn learn_screen(
    colours: Res<UiColours>,
    mut contexts: EguiContexts,
    mut draft: ResMut<LearnDraft>,
    library: Res<LearnLibrary>,
    progress: Res<LearnProgress>,
    status: Res<ProgressStatus>,
    settings: Res<Settings>,
    mut previews: ResMut<ExercisePreviews>,
    mut start: MessageWriter<StartExercise>,
    mut next_state: ResMut<NextState<AppState>>,
) -> Result {
    let lang = settings.language;
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    ctx.layer_painter(egui::LayerId::background())
        .rect_filled(screen, 0.0, colours.backdrop);
    // One scrolling column on a narrow or short screen (a phone), else the lists beside the
    // details.
    let narrow = screen.width() < ONE_COLUMN_BELOW || screen.height() < ONE_COLUMN_SHORTER;
    let size = if narrow {
        screen.size() - egui::vec2(16.0, 16.0)
    } else {
        egui::vec2(
            (screen.width() - 40.0).clamp(320.0, 1080.0),
            (screen.height() - 40.0).clamp(320.0, 720.0),
        )
    };
    let mut chosen: Option<ExerciseId> = None;
    let loading = !library.settled() && library.files.is_empty();
    let broken = library.broken();
    let mut body = |ui: &mut egui::Ui, draft: &mut LearnDraft| {
        if loading {
            ui.label(learn_tr(lang, LearnKey::Loading));
            return;
        }
        chosen = match draft.tab {
            LearnTab::Courses => courses(
                ui,
                &colours,
                narrow,
                lang,
                &library,
                &progress,
                draft,
                &mut previews,
            ),
            LearnTab::Puzzles => puzzles(
                ui,
                &colours,
                narrow,
                lang,
                &library,
                &progress,
                draft,
                &mut previews,
            ),
        };
    };
    let footer = |ui: &mut egui::Ui, next_state: &mut NextState<AppState>| {
        if !broken.is_empty() {
            ui.separator();
            ui.colored_label(colours.bad(), learn_tr(lang, LearnKey::BrokenFiles));
            egui::ScrollArea::vertical()
                .id_salt("learn_broken")
                .max_height(100.0)
                .vscroll(!narrow)
                .show(ui, |ui| {
                    for (path, why) in &broken {
                        ui.colored_label(
                            colours.bad(),
                            trf(lang, Key::FileBroken, &[("file", path)]),
                        );
                        ui.label(egui::RichText::new(why).monospace().size(12.0));
                    }
                });
        }
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            if ui.button(learn_tr(lang, LearnKey::BackToMenu)).clicked() {
                next_state.set(AppState::Menu);
            }
            if let Some(problem) = &status.problem {
                ui.colored_label(colours.warn(), problem);
            }
        });
    };
    egui::Area::new(egui::Id::new("learn_screen"))
        .order(egui::Order::Background)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            colours.panel_frame().show(ui, |ui| {
                ui.set_width(size.x - 24.0);
                ui.set_height(size.y - 20.0);
                ui.style_mut().visuals.override_text_color = Some(colours.text);
                ui.horizontal_wrapped(|ui| {
                    super::wordmark(ui, &colours, learn_tr(lang, LearnKey::Title));
                    ui.add_space(24.0);
                    let height = layout::button_height(ui, 0.0);
                    for (tab, key) in [
                        (LearnTab::Courses, LearnKey::Courses),
                        (LearnTab::Puzzles, LearnKey::Puzzles),
                    ] {
                        let label = egui::RichText::new(learn_tr(lang, key)).size(17.0);
                        let button = egui::Button::selectable(draft.tab == tab, label)
                            .min_size(egui::vec2(height, height));
                        if ui.add(button).clicked() {
                            draft.tab = tab;
                        }
                    }
                });
                ui.separator();
                if narrow {
                    egui::ScrollArea::vertical()
                        .id_salt("learn_column")
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            body(ui, &mut draft);
                            footer(ui, &mut next_state);
                        });
                    return;
                }
                let bottom_bar = layout::button_height(ui, 26.0)
                    + 18.0
                    + if broken.is_empty() { 0.0 } else { 120.0 };
                let body_height = (ui.available_height() - bottom_bar).max(100.0);
                ui.allocate_ui(egui::vec2(ui.available_width(), body_height), |ui| {
                    ui.set_height(body_height);
                    body(ui, &mut draft);
                });
                footer(ui, &mut next_state);
            });
        });
    // The game screen follows once the exercise's game has started (`match_state` enters it
    // then): entered here, at the next frame's state transition, it would come before the
    // game and the systems of a game on screen would find none (the first lesson opened from
    // a fresh menu panicked so).
    if let Some(id) = chosen {
        start.write(StartExercise(id));
    }
    Ok(())
}

/// Steps solved out of all, for a course.
fn course_progress(progress: &LearnProgress, steps: &[Exercise]) -> (usize, usize) {
    let done = steps
        .iter()
        .filter(|s| progress.is_solved(&s.id.key()))
        .count();
    (done, steps.len())
}

fn solved_mark(ui: &mut egui::Ui, colours: &UiColours, solved: bool) {
    let (mark, colour) = if solved {
        ("✔", colours.good())
    } else {
        ("○", egui::Color32::from_gray(120))
    };
    ui.label(egui::RichText::new(mark).color(colour));
}

/// The courses on the left, the chosen course's steps on the right. Returns a step to start.
fn courses(
    ui: &mut egui::Ui,
    colours: &UiColours,
    narrow: bool,
    lang: Language,
    library: &LearnLibrary,
    progress: &LearnProgress,
    draft: &mut LearnDraft,
    previews: &mut ExercisePreviews,
) -> Option<ExerciseId> {
    let list: Vec<_> = library.courses().collect();
    if list.is_empty() {
        ui.label(learn_tr(lang, LearnKey::Nothing));
        return None;
    }
    // The first course is chosen once every file has loaded (before, it was whichever had
    // loaded first).
    if library.settled()
        && draft
            .course
            .as_ref()
            .is_none_or(|c| !list.iter().any(|(_, course)| &course.id == c))
    {
        draft.course = list.first().map(|(_, c)| c.id.clone());
    }
    let mut chosen = None;
    let height = ui.available_height();
    layout::row_or_column(ui, narrow, |ui| {
        let list_width = if narrow {
            ui.available_width()
        } else {
            (ui.available_width() * 0.38).clamp(220.0, 380.0)
        };
        ui.vertical(|ui| {
            ui.set_width(list_width);
            egui::ScrollArea::vertical()
                .id_salt("learn_courses")
                .vscroll(!narrow)
                .max_height(height)
                .auto_shrink([false, narrow])
                .show(ui, |ui| {
                    for (file, course) in &list {
                        let selected = draft.course.as_deref() == Some(course.id.as_str());
                        let (done, total) = course_progress(progress, &course.steps);
                        let mut title = egui::RichText::new(text(lang, &course.title));
                        if selected {
                            title = title.strong().color(colours.accent());
                        }
                        let tag = if file.origin == Origin::Mod {
                            learn_tr(lang, LearnKey::ModTag)
                        } else {
                            ""
                        };
                        let button = egui::Button::selectable(selected, title)
                            .right_text(egui::RichText::new(tag).small().weak())
                            .wrap()
                            .min_size(egui::vec2(
                                ui.available_width(),
                                layout::button_height(ui, 30.0),
                            ));
                        if ui.add(button).clicked() {
                            draft.course = Some(course.id.clone());
                        }
                        ui.label(
                            egui::RichText::new(learn_trf(
                                lang,
                                LearnKey::StepsDone,
                                &[("done", &done), ("total", &total)],
                            ))
                            .small(),
                        );
                        ui.add_space(4.0);
                    }
                });
        });
        ui.separator();
        ui.vertical(|ui| {
            let Some(course) = draft.course.as_deref().and_then(|id| library.course(id)) else {
                return;
            };
            ui.heading(text(lang, &course.title));
            if let Some(d) = &course.description {
                ui.label(text(lang, d));
            }
            let (done, total) = course_progress(progress, &course.steps);
            let first_open = course
                .steps
                .iter()
                .find(|s| !progress.is_solved(&s.id.key()));
            ui.horizontal_wrapped(|ui| {
                let key = match (done, first_open) {
                    (_, None) => LearnKey::CourseDone,
                    (0, _) => LearnKey::StartCourse,
                    _ => LearnKey::ContinueCourse,
                };
                let target = first_open.or(course.steps.first());
                let button =
                    egui::Button::new(egui::RichText::new(learn_tr(lang, key)).size(17.0).strong())
                        .min_size(egui::vec2(200.0_f32.min(ui.available_width()), 32.0));
                if ui.add_enabled(target.is_some(), button).clicked() {
                    chosen = target.map(|s| s.id.clone());
                }
                // Whole, beside the button or under it (a phone's width broke it in two).
                ui.add(
                    egui::Label::new(learn_trf(
                        lang,
                        LearnKey::StepsDone,
                        &[("done", &done), ("total", &total)],
                    ))
                    .wrap_mode(egui::TextWrapMode::Extend),
                );
            });
            ui.add_space(6.0);
            // The steps on the left; the board of the step under the pointer (else the next
            // one to do) on the right.
            let mut shown = first_open.or(course.steps.first());
            layout::row_or_column(ui, narrow, |ui| {
                let steps_width = if narrow {
                    ui.available_width()
                } else {
                    (ui.available_width() * 0.5).max(200.0)
                };
                ui.vertical(|ui| {
                    ui.set_width(steps_width);
                    ui.label(egui::RichText::new(learn_tr(lang, LearnKey::Steps)).strong());
                    egui::ScrollArea::vertical()
                        .id_salt("learn_steps")
                        .vscroll(!narrow)
                        .auto_shrink([false, narrow])
                        .show(ui, |ui| {
                            for (i, step) in course.steps.iter().enumerate() {
                                ui.horizontal(|ui| {
                                    solved_mark(ui, colours, progress.is_solved(&step.id.key()));
                                    let label = format!(
                                        "{} · {}",
                                        learn_trf(lang, LearnKey::StepNumber, &[("n", &(i + 1))]),
                                        text(lang, &step.title)
                                    );
                                    let link = ui.add(
                                        egui::Button::new(
                                            egui::RichText::new(label)
                                                .color(ui.visuals().hyperlink_color),
                                        )
                                        .frame(false)
                                        .wrap()
                                        .min_size(
                                            egui::vec2(
                                                ui.available_width(),
                                                layout::button_height(ui, 0.0),
                                            ),
                                        ),
                                    );
                                    if link.hovered() {
                                        shown = Some(step);
                                    }
                                    if link.clicked() {
                                        chosen = Some(step.id.clone());
                                    }
                                });
                            }
                        });
                });
                if let Some(step) = shown {
                    ui.vertical(|ui| {
                        ui.label(egui::RichText::new(text(lang, &step.title)).strong());
                        ui.label(egui::RichText::new(goal_text(lang, step.goal)).small());
                        let side_px = ui.available_width().min(ui.available_height() - 10.0);
                        let side_px = side_px.clamp(100.0, 360.0);
                        let (rect, _) = ui.allocate_exact_size(
                            egui::vec2(side_px, side_px),
                            egui::Sense::hover(),
                        );
                        let preview = previews.of(step);
                        super::preview::draw(
                            ui.painter(),
                            rect,
                            &preview.0,
                            &preview.1,
                            &SeatNames::of(&step.start),
                        );
                    });
                }
            });
        });
    });
    chosen
}

/// The puzzles: families, a difficulty filter, the list, and the chosen puzzle's board.
fn puzzles(
    ui: &mut egui::Ui,
    colours: &UiColours,
    narrow: bool,
    lang: Language,
    library: &LearnLibrary,
    progress: &LearnProgress,
    draft: &mut LearnDraft,
    previews: &mut ExercisePreviews,
) -> Option<ExerciseId> {
    let all: Vec<&Exercise> = library.puzzles().map(|(_, p)| p).collect();
    if all.is_empty() {
        ui.label(learn_tr(lang, LearnKey::Nothing));
        return None;
    }
    let mut families: Vec<&'static str> = Vec::new();
    for p in &all {
        if !families.contains(&p.family()) {
            families.push(p.family());
        }
    }
    if library.settled()
        && draft
            .family
            .as_deref()
            .is_none_or(|f| !families.contains(&f))
    {
        draft.family = families.first().map(|f| (*f).to_owned());
    }
    let family = draft.family.clone().unwrap_or_default();
    let mut chosen = None;
    let tap = layout::button_height(ui, 0.0);
    ui.horizontal_wrapped(|ui| {
        for f in &families {
            let of_family: Vec<_> = all.iter().filter(|p| p.family() == *f).collect();
            let done = of_family
                .iter()
                .filter(|p| progress.is_solved(&p.id.key()))
                .count();
            let label = format!("{} ({done}/{})", family_name(lang, f), of_family.len());
            let button =
                egui::Button::selectable(family == *f, label).min_size(egui::vec2(tap, tap));
            if ui.add(button).clicked() {
                draft.family = Some((*f).to_owned());
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        let all = egui::Button::selectable(
            draft.difficulty.is_none(),
            learn_tr(lang, LearnKey::AllDifficulties),
        )
        .min_size(egui::vec2(tap, tap));
        if ui.add(all).clicked() {
            draft.difficulty = None;
        }
        for d in Difficulty::ALL {
            let button =
                egui::Button::selectable(draft.difficulty == Some(d), difficulty_name(lang, d))
                    .min_size(egui::vec2(tap, tap));
            if ui.add(button).clicked() {
                draft.difficulty = Some(d);
            }
        }
    });
    ui.separator();
    let shown: Vec<&Exercise> = all
        .iter()
        .copied()
        .filter(|p| p.family() == family)
        .filter(|p| draft.difficulty.is_none() || p.difficulty == draft.difficulty)
        .collect();
    let done = shown
        .iter()
        .filter(|p| progress.is_solved(&p.id.key()))
        .count();
    if draft
        .puzzle
        .as_ref()
        .is_none_or(|id| !shown.iter().any(|p| &p.id == id))
    {
        draft.puzzle = shown.first().map(|p| p.id.clone());
    }
    let height = ui.available_height();
    layout::row_or_column(ui, narrow, |ui| {
        let list_width = if narrow {
            ui.available_width()
        } else {
            (ui.available_width() * 0.42).clamp(240.0, 440.0)
        };
        ui.vertical(|ui| {
            ui.set_width(list_width);
            ui.label(learn_trf(
                lang,
                LearnKey::SolvedCount,
                &[("done", &done), ("total", &shown.len())],
            ));
            if shown.is_empty() {
                ui.label(learn_tr(lang, LearnKey::NoPuzzlesHere));
            }
            egui::ScrollArea::vertical()
                .id_salt("learn_puzzles")
                .vscroll(!narrow)
                .max_height(height - 24.0)
                .auto_shrink([false, narrow])
                .show(ui, |ui| {
                    for (n, p) in shown.iter().enumerate() {
                        let selected = draft.puzzle.as_ref() == Some(&p.id);
                        ui.horizontal(|ui| {
                            solved_mark(ui, colours, progress.is_solved(&p.id.key()));
                            let mut title =
                                egui::RichText::new(format!("{}. {}", n + 1, text(lang, &p.title)));
                            if selected {
                                title = title.strong().color(colours.accent());
                            }
                            // The variant (a family has several) and the difficulty.
                            let about = format!(
                                "{} · {}",
                                variant_title(lang, &p.variant),
                                p.difficulty.map_or("", |d| difficulty_name(lang, d))
                            );
                            let button = egui::Button::selectable(selected, title)
                                .right_text(egui::RichText::new(about).small().weak())
                                .wrap()
                                .min_size(egui::vec2(
                                    ui.available_width(),
                                    layout::button_height(ui, 26.0),
                                ));
                            let response = ui.add(button);
                            if response.clicked() {
                                draft.puzzle = Some(p.id.clone());
                            }
                            if response.double_clicked() {
                                chosen = Some(p.id.clone());
                            }
                        });
                    }
                });
        });
        ui.separator();
        ui.vertical(|ui| {
            let Some(p) = draft.puzzle.as_ref().and_then(|id| library.exercise(id)) else {
                return;
            };
            ui.heading(text(lang, &p.title));
            ui.label(egui::RichText::new(variant_title(lang, &p.variant)).small());
            ui.label(goal_text(lang, p.goal));
            let to_move = p.start.side_to_move();
            ui.label(
                egui::RichText::new(learn_trf(
                    lang,
                    LearnKey::YourSide,
                    &[
                        ("Side", &side(lang, &SeatNames::of(&p.start), to_move)),
                        ("side", &side_lower(lang, &SeatNames::of(&p.start), to_move)),
                    ],
                ))
                .small(),
            );
            let solved = progress.is_solved(&p.id.key());
            ui.label(
                egui::RichText::new(learn_tr(
                    lang,
                    if solved {
                        LearnKey::Solved
                    } else {
                        LearnKey::NotSolved
                    },
                ))
                .small()
                .color(if solved { colours.good() } else { colours.text }),
            );
            let board_side = (ui.available_height() - 28.0 - layout::button_height(ui, 32.0))
                .min(ui.available_width())
                .clamp(120.0, 420.0)
                .min(ui.available_width());
            let (rect, _) = ui.allocate_exact_size(
                egui::vec2(ui.available_width(), board_side),
                egui::Sense::hover(),
            );
            let board =
                egui::Rect::from_center_size(rect.center(), egui::vec2(board_side, board_side));
            let preview = previews.of(p);
            super::preview::draw(
                ui.painter(),
                board,
                &preview.0,
                &preview.1,
                &SeatNames::of(&p.start),
            );
            ui.add_space(6.0);
            let button = egui::Button::new(
                egui::RichText::new(learn_tr(lang, LearnKey::SolvePuzzle))
                    .size(17.0)
                    .strong(),
            )
            .min_size(egui::vec2(200.0_f32.min(ui.available_width()), 32.0));
            if ui.add(button).clicked() {
                chosen = Some(p.id.clone());
            }
        });
    });
    chosen
}

/// The moves of `line` in notation, played from `start`.
fn line_text(start: &AnyPosition, line: &[AnyMove]) -> String {
    let mut position = start.clone();
    let mut words = Vec::new();
    for mv in line {
        words.push(position.format_move(mv));
        if position.play(mv).is_err() {
            break;
        }
    }
    words.join(" ")
}

/// The moves of the exercise's game, as the game's panel lists them (with the review cursor),
/// and what the UI drew, for the browser test.
#[derive(bevy::ecs::system::SystemParam)]
pub struct ExerciseMoves<'w, 's> {
    review: Res<'w, Review>,
    commands: MessageWriter<'w, ReviewCommand>,
    list: Local<'s, super::move_list::ListState>,
    drawing: ResMut<'w, UiDrawing>,
}

/// The panel beside the board while a step or a puzzle is played.
fn exercise_panel(
    colours: Res<UiColours>,
    mut moves: ExerciseMoves,
    mut contexts: EguiContexts,
    session: Res<LearnSession>,
    library: Res<LearnLibrary>,
    game: Option<Res<Match>>,
    settings: Res<Settings>,
    regions: Res<GameRegions>,
    mut start: MessageWriter<StartExercise>,
    mut show: MessageWriter<ShowSolution>,
    mut leave: MessageWriter<LeaveExercise>,
    copied: Res<CopiedPosition>,
    mut copy: MessageWriter<CopyPositionRequested>,
    mut hint_open: Local<Option<ExerciseId>>,
    progress: Res<LearnProgress>,
) -> Result {
    let Some(active) = session.active.as_ref() else {
        return Ok(());
    };
    let lang = settings.language;
    let exercise = &active.exercise;
    let ctx = contexts.ctx_mut()?;
    let region = regions.panel;
    let panel = egui::Area::new(egui::Id::new("exercise_panel"))
        .order(egui::Order::Background)
        .fixed_pos(region.min)
        .show(ctx, |ui| {
            colours.panel_frame().corner_radius(0.0).show(ui, |ui| {
                ui.set_width(region.width() - 24.0);
                ui.set_min_height(region.height() - 20.0);
                ui.set_max_height(region.height() - 20.0);
                ui.style_mut().visuals.override_text_color = Some(colours.text);
                // Everything in one column, scrolling when it is taller than the panel.
                egui::ScrollArea::vertical()
                    .id_salt("exercise_scroll")
                    .auto_shrink([false, false])
                    .max_height(region.height() - 20.0)
                    .show(ui, |ui| {
                        // Where the exercise is: the course and step, or the puzzle's family and
                        // difficulty.
                        let place = match &active.id {
                            ExerciseId::Step { lesson, step } => {
                                let course = library.course(lesson);
                                let total = course.map_or(0, |c| c.steps.len());
                                let title = course.map_or("", |c| text(lang, &c.title));
                                format!(
                                    "{title} · {}",
                                    learn_trf(
                                        lang,
                                        LearnKey::StepOf,
                                        &[("n", &(step + 1)), ("total", &total)]
                                    )
                                )
                            }
                            ExerciseId::Puzzle(_) => format!(
                                "{} · {}",
                                variant_title(lang, &exercise.variant),
                                exercise.difficulty.map_or("", |d| difficulty_name(lang, d))
                            ),
                        };
                        ui.label(egui::RichText::new(place).small());
                        ui.heading(text(lang, &exercise.title));
                        ui.separator();
                        if let Some(t) = &exercise.text {
                            ui.label(text(lang, t));
                            ui.add_space(4.0);
                        }
                        ui.label(egui::RichText::new(goal_text(lang, exercise.goal)).strong());
                        let player = active.player;
                        ui.label(learn_trf(
                            lang,
                            LearnKey::YourSide,
                            &[
                                ("Side", &side(lang, &SeatNames::of(&exercise.start), player)),
                                (
                                    "side",
                                    &side_lower(lang, &SeatNames::of(&exercise.start), player),
                                ),
                            ],
                        ));
                        if active.solved_before && active.progress != Progress::Solved {
                            ui.label(
                                egui::RichText::new(learn_tr(lang, LearnKey::SolvedBefore))
                                    .small()
                                    .color(colours.good()),
                            );
                        }
                        ui.separator();
                        feedback(ui, &colours, lang, active, game.as_deref());
                        if hint_open.as_ref() == Some(&active.id) {
                            ui.add_space(4.0);
                            let hint = exercise
                                .hint
                                .as_ref()
                                .map_or(learn_tr(lang, LearnKey::NoHint), |h| text(lang, h));
                            ui.label(egui::RichText::new(hint).italics().color(colours.accent()));
                        }
                        ui.separator();
                        let next = library.next_for_player(&active.id, &progress);
                        let next_key = match active.id {
                            ExerciseId::Step { .. } => LearnKey::NextStep,
                            ExerciseId::Puzzle(_) => LearnKey::NextPuzzle,
                        };
                        // Two buttons a row where their words fit (a wider button would push
                        // the panel over the board), else one a row.
                        let labels = [
                            LearnKey::Hint,
                            LearnKey::ShowSolution,
                            LearnKey::Retry,
                            next_key,
                        ]
                        .map(|k| learn_tr(lang, k));
                        let half = (ui.available_width() - ui.spacing().item_spacing.x) / 2.0;
                        let font = egui::TextStyle::Button.resolve(ui.style());
                        let widest = labels
                            .iter()
                            .map(|t| {
                                ui.painter()
                                    .layout_no_wrap(
                                        (*t).to_owned(),
                                        font.clone(),
                                        egui::Color32::WHITE,
                                    )
                                    .size()
                                    .x
                            })
                            .fold(0.0, f32::max);
                        let columns = if widest + 2.0 * ui.spacing().button_padding.x <= half {
                            2
                        } else {
                            1
                        };
                        let width = if columns == 2 {
                            half
                        } else {
                            ui.available_width()
                        };
                        let size = egui::vec2(width, layout::button_height(ui, 26.0));
                        let button = |t: &str| egui::Button::new(t.to_owned()).min_size(size);
                        let demonstrating = matches!(active.progress, Progress::Showing { .. });
                        let row_end = |ui: &mut egui::Ui, second: bool| {
                            if second || columns == 1 {
                                ui.end_row();
                            }
                        };
                        egui::Grid::new("exercise_buttons")
                            .num_columns(columns)
                            .spacing(ui.spacing().item_spacing)
                            .show(ui, |ui| {
                                if ui.add(button(learn_tr(lang, LearnKey::Hint))).clicked() {
                                    *hint_open = Some(active.id.clone());
                                }
                                row_end(ui, false);
                                if ui
                                    .add_enabled(
                                        !demonstrating && !exercise.solutions.is_empty(),
                                        button(learn_tr(lang, LearnKey::ShowSolution)),
                                    )
                                    .clicked()
                                {
                                    show.write(ShowSolution);
                                }
                                row_end(ui, true);
                                if ui.add(button(learn_tr(lang, LearnKey::Retry))).clicked() {
                                    start.write(StartExercise(active.id.clone()));
                                }
                                row_end(ui, false);
                                if ui
                                    .add_enabled(next.is_some(), button(learn_tr(lang, next_key)))
                                    .clicked()
                                    && let Some(next) = next
                                {
                                    start.write(StartExercise(next));
                                }
                                ui.end_row();
                            });
                        if let Some(game) = game.as_deref() {
                            super::copy_position::show(
                                ui, &colours, lang, game, &copied, &mut copy,
                            );
                        }
                        if ui
                            .add(
                                egui::Button::new(learn_tr(lang, LearnKey::BackToLearn)).min_size(
                                    egui::vec2(
                                        ui.available_width(),
                                        layout::button_height(ui, 26.0),
                                    ),
                                ),
                            )
                            .clicked()
                        {
                            leave.write(LeaveExercise);
                        }
                        // The moves played so far (a lesson's or puzzle's line, the computer's
                        // answers included), to read back or step through as in a game.
                        if let Some(game) = game.as_deref() {
                            ui.separator();
                            let ExerciseMoves {
                                review,
                                commands,
                                list,
                                drawing,
                            } = &mut moves;
                            super::move_list::show(
                                ui,
                                &colours,
                                lang,
                                game,
                                review,
                                commands,
                                list,
                                &mut drawing.0.moves,
                            );
                        }
                    });
            });
        });
    moves.drawing.main_rect(panel.response.rect);
    Ok(())
}

/// What the player was told about their last try, or what the solution is.
fn feedback(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    active: &crate::learn::session::Active,
    game: Option<&Match>,
) {
    let exercise = &active.exercise;
    let big = |t: &str| egui::RichText::new(t.to_owned()).size(17.0).strong();
    match &active.progress {
        Progress::Showing { .. } | Progress::Shown => {
            let line = exercise
                .solutions
                .first()
                .map(|l| line_text(&exercise.start, l))
                .unwrap_or_default();
            ui.label(
                big(&learn_trf(lang, LearnKey::Showing, &[("line", &line)]))
                    .color(colours.accent()),
            );
            if active.progress == Progress::Shown {
                ui.label(learn_tr(lang, LearnKey::Shown));
            }
            return;
        }
        Progress::Solved => {
            let right = exercise
                .right
                .as_ref()
                .map_or(learn_tr(lang, LearnKey::RightDefault), |t| text(lang, t));
            ui.label(big(right).color(colours.good()));
            return;
        }
        Progress::Trying | Progress::Wrong => {}
    }
    match &active.feedback {
        Some(Feedback::Wrong) => {
            let wrong = exercise
                .wrong
                .as_ref()
                .map_or(learn_tr(lang, LearnKey::WrongDefault), |t| text(lang, t));
            ui.label(big(wrong).color(colours.bad()));
            // Why, in data from boardcraft_learn ("this chain gains 2 rows, a better one 5").
            if let Some(why) = &active.why_wrong {
                ui.label(why.text(lang.code()));
            }
        }
        Some(Feedback::GoOn) => {
            let to_move = game.map(|g| g.position.side_to_move());
            let key = if to_move == Some(active.player) {
                LearnKey::GoodGoOn
            } else {
                LearnKey::OpponentAnswers
            };
            ui.label(big(learn_tr(lang, key)).color(colours.good()));
        }
        Some(Feedback::CannotCheck(why)) => {
            ui.colored_label(
                colours.warn(),
                learn_trf(lang, LearnKey::CannotCheck, &[("why", why)]),
            );
        }
        Some(Feedback::Right) | None => {}
    }
}
