//! Running the game without a person: `--screenshot` (render, save a PNG, exit), the headless
//! app the tests and `--bench-frames` use, and the frame-time benchmark.
use std::{path::PathBuf, time::Duration};

use bevy::{
    app::ScheduleRunnerPlugin,
    prelude::*,
    render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk},
    state::app::StatesPlugin,
    time::TimeUpdateStrategy,
};

use crate::{
    LogicPlugins,
    game::config::{GameConfig, Players},
    game::match_state::{AppState, Match, TurnPhase},
    game::variants::VariantLibrary,
    view::animation::Animating,
};

/// `--screenshot`: where to save and how many settled frames to render before checking.
#[derive(Resource, Clone, Debug)]
pub struct ScreenshotPlan {
    pub path: PathBuf,
    pub frames: u32,
}

/// How often a settled view is captured (in frames) while waiting for a stable picture.
const CAPTURE_EVERY: u32 = 8;
/// Captures before giving up on a stable picture and saving the last one.
const MAX_CAPTURES: u32 = 60;

#[derive(Resource, Default)]
struct ScreenshotProgress {
    settled_frames: u32,
    captures: u32,
    /// Hash of the previous capture that showed something (not blank).
    previous: Option<u64>,
    /// A capture is in flight.
    waiting: bool,
    /// The picture is stable: save the next capture.
    save: bool,
    saved: bool,
    exit_in: u32,
}

/// Takes the screenshot once the game is on screen, no animation runs and the picture has
/// stopped changing (shaders compile over the first frames, slowly on a software renderer),
/// then exits.
pub fn screenshot_plugin(app: &mut App) {
    app.init_resource::<ScreenshotProgress>()
        .add_systems(Last, screenshot_when_settled);
}

fn screenshot_when_settled(
    mut commands: Commands,
    plan: Res<ScreenshotPlan>,
    mut progress: ResMut<ScreenshotProgress>,
    state: Res<State<AppState>>,
    phase: Option<Res<State<TurnPhase>>>,
    animating: Res<Animating>,
    library: Res<VariantLibrary>,
    mut exit: MessageWriter<AppExit>,
) {
    if progress.saved {
        // Let the file write and the log flush before leaving.
        if progress.exit_in == 0 {
            exit.write(AppExit::Success);
        } else {
            progress.exit_in -= 1;
        }
        return;
    }
    let settled = match state.get() {
        AppState::Loading => false,
        AppState::Failed => true,
        // Every board preview can be drawn once the library has loaded.
        AppState::Menu => library.settled(),
        AppState::InGame => {
            !animating.is_running() && phase.is_some_and(|p| *p.get() != TurnPhase::Animating)
        }
    };
    if !settled {
        progress.settled_frames = 0;
        progress.previous = None;
        return;
    }
    progress.settled_frames += 1;
    if progress.waiting
        || progress.settled_frames < plan.frames
        || !progress.settled_frames.is_multiple_of(CAPTURE_EVERY)
    {
        return;
    }
    progress.waiting = true;
    progress.captures += 1;
    if progress.save || progress.captures >= MAX_CAPTURES {
        if !progress.save {
            warn!("the picture never settled; saving the last frame");
        }
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(plan.path.clone()))
            .observe(
                |_: On<ScreenshotCaptured>, mut progress: ResMut<ScreenshotProgress>| {
                    progress.saved = true;
                    progress.exit_in = 2;
                },
            );
        return;
    }
    commands.spawn(Screenshot::primary_window()).observe(
        |shot: On<ScreenshotCaptured>, mut progress: ResMut<ScreenshotProgress>| {
            progress.waiting = false;
            let Some(data) = shot.image.data.as_deref() else {
                return;
            };
            if !shows_something(data) {
                progress.previous = None;
                return;
            }
            let hash = boardcraft_rules::variant::fnv1a(data);
            // Two identical pictures in a row: every pipeline is ready.
            progress.save = progress.previous == Some(hash);
            progress.previous = Some(hash);
        },
    );
}

/// At least a tenth of the pixels differ from the first pixel (the background): the board is
/// drawn, not just the clear colour.
fn shows_something(rgba: &[u8]) -> bool {
    let pixels: Vec<&[u8]> = rgba.chunks_exact(4).collect();
    let Some(first) = pixels.first() else {
        return false;
    };
    let differing = pixels
        .iter()
        .filter(|p| {
            p[..3]
                .iter()
                .zip(&first[..3])
                .any(|(a, b)| a.abs_diff(*b) > 12)
        })
        .count();
    differing * 10 > pixels.len()
}

/// A windowless app with the game's logic: what the tests and the benchmark run.
/// Time advances by `step` per update, so runs are reproducible.
pub fn headless_app(config: GameConfig, players: Players, step: Duration) -> App {
    let mut app = App::new();
    crate::platform::register_sources(&mut app, &config, None);
    app.add_plugins((
        MinimalPlugins.set(ScheduleRunnerPlugin::run_once()),
        StatesPlugin,
        AssetPlugin {
            watch_for_changes_override: Some(false),
            ..default()
        },
        TransformPlugin,
        LogicPlugins,
    ))
    .insert_resource(config)
    .insert_resource(players)
    // Tests and benchmarks never touch the player's saves and settings; a test that wants
    // files inserts its own `Storage` before the first update.
    .insert_resource(crate::persistence::storage::Storage::memory())
    .insert_resource(TimeUpdateStrategy::ManualDuration(step));
    app.finish();
    app.cleanup();
    app
}

/// `--bench-frames`: computer against computer with animations, headless; reports the CPU
/// time of frames while a move is animated (and of all frames).
pub fn bench_frames(config: GameConfig, players: Players, frames: u32) -> AppExit {
    use std::time::Instant;
    let mut app = headless_app(config, players, Duration::from_millis(16));
    // Load the variants and start the game before timing.
    for _ in 0..2000 {
        app.update();
        if app.world().contains_resource::<Match>() {
            break;
        }
    }
    if !app.world().contains_resource::<Match>() {
        eprintln!("bench: the game did not start (see the log)");
        return AppExit::error();
    }
    let mut animating = Vec::new();
    let mut all = Vec::new();
    for _ in 0..frames {
        let was_animating = app.world().resource::<Animating>().is_running();
        let start = Instant::now();
        app.update();
        let spent = start.elapsed();
        all.push(spent);
        if was_animating {
            animating.push(spent);
        }
        let over = app
            .world()
            .get_resource::<State<TurnPhase>>()
            .is_some_and(|p| *p.get() == TurnPhase::GameOver);
        if over {
            eprintln!("bench: the game ended after {} frames", all.len());
            break;
        }
    }
    let plies = app
        .world()
        .get_resource::<Match>()
        .map_or(0, |m| m.history.len());
    println!(
        "frames: {} ({} while animating), plies played: {plies}",
        all.len(),
        animating.len()
    );
    report("animating", &mut animating);
    report("all", &mut all);
    AppExit::Success
}

fn report(label: &str, samples: &mut [Duration]) {
    if samples.is_empty() {
        println!("{label}: no frames");
        return;
    }
    samples.sort();
    let total: Duration = samples.iter().sum();
    let mean = total / samples.len() as u32;
    let pick = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    println!(
        "{label}: mean {:.1} µs, median {:.1} µs, p95 {:.1} µs, max {:.1} µs",
        mean.as_secs_f64() * 1e6,
        pick(0.5).as_secs_f64() * 1e6,
        pick(0.95).as_secs_f64() * 1e6,
        samples.last().unwrap().as_secs_f64() * 1e6
    );
}
