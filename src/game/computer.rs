//! The computer player: when a computer side is to move, its search runs as an async task
//! (off the frame, so the window stays responsive) and its answer becomes a
//! [`MoveRequested`] like a human's click.
use std::time::Duration;

use bevy::{
    platform::time::Instant,
    prelude::*,
    tasks::{AsyncComputeTaskPool, Task, futures::check_ready},
};
use boardcraft_ai::{AnySearch, Progress};
use boardcraft_rules::{AnyMove, AnyPosition, Position, Seat as Side};

use crate::{
    GameSystems,
    game::config::{Level, PlayerKind, Players},
    game::match_state::{Match, MoveRequested, TurnPhase},
    tasks,
};

/// What the computer is doing, for the UI's thinking indicator.
#[derive(Resource, Default)]
pub struct AiThinking {
    task: Option<Task<SearchOutcome>>,
    game_id: u64,
    ply: u32,
    /// The side thinking, while a search runs.
    pub side: Option<Side>,
    /// When the search started (seconds of real time since the app started).
    pub since: f64,
}

impl AiThinking {
    pub fn is_thinking(&self) -> bool {
        self.task.is_some()
    }
}

/// How the finished searches went: how long the longest slice held its thread. In the browser
/// a slice runs on the page's only thread, so this is the longest the computer kept the page
/// from drawing a frame (the browser test reports it).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    pub searches: u32,
    /// The longest slice of any search so far.
    pub longest_slice: Duration,
    /// The last search's wall-clock time and its number of slices.
    pub last_elapsed: Duration,
    pub last_slices: u32,
}

/// How many threads the computer searches with. One (the default here, and always in the
/// browser) runs the search in slices and is reproducible per game; more run the AI crate's
/// parallel search (Lazy SMP) on the desktop: the same time per move, a deeper search. The
/// desktop binary sets cores − 1 (`--threads`).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchThreads(pub usize);

impl Default for SearchThreads {
    fn default() -> Self {
        SearchThreads(1)
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<AiThinking>()
        .init_resource::<SearchStats>()
        .init_resource::<SearchThreads>()
        .init_resource::<Players>()
        .add_systems(
            Update,
            (
                drop_stale_search,
                // While the player reviews earlier positions the game waits: a search
                // already running finishes, but its move is played only back in the game.
                (start_search, poll_search)
                    .chain()
                    .run_if(in_state(TurnPhase::Ready).and_then(crate::game::review::is_live)),
            )
                .chain()
                .in_set(GameSystems::Ai),
        );
}

/// A search for an earlier position (new game, undo) is dropped, which cancels it.
fn drop_stale_search(mut thinking: ResMut<AiThinking>, game: Option<Res<Match>>) {
    let current = game.map(|g| (g.game_id, g.position.ply()));
    if thinking.task.is_some() && current != Some((thinking.game_id, thinking.ply)) {
        *thinking = AiThinking::default();
    }
}

fn start_search(
    mut thinking: ResMut<AiThinking>,
    game: Res<Match>,
    players: Res<Players>,
    threads: Res<SearchThreads>,
    time: Res<Time<Real>>,
) {
    if thinking.task.is_some() {
        return;
    }
    let side = game.position.side_to_move();
    let PlayerKind::Computer(level) = players.of(side) else {
        return;
    };
    let position = game.position.clone();
    // Reproducible play: the seed depends on the game so far, not on the clock.
    let seed = position.hash() ^ u64::from(position.ply()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let threads = threads.0;
    thinking.task =
        Some(AsyncComputeTaskPool::get().spawn(choose_move(position, level, seed, threads)));
    thinking.game_id = game.game_id;
    thinking.ply = game.position.ply();
    thinking.side = Some(side);
    thinking.since = time.elapsed_secs_f64();
}

fn poll_search(
    mut thinking: ResMut<AiThinking>,
    mut stats: ResMut<SearchStats>,
    mut requests: MessageWriter<MoveRequested>,
) {
    let Some(task) = thinking.task.as_mut() else {
        return;
    };
    let Some(outcome) = check_ready(task) else {
        return;
    };
    let (game_id, ply) = (thinking.game_id, thinking.ply);
    *thinking = AiThinking::default();
    stats.searches += 1;
    stats.longest_slice = stats.longest_slice.max(outcome.longest_slice);
    stats.last_elapsed = outcome.elapsed;
    stats.last_slices = outcome.slices;
    match outcome.best_move {
        Some(mv) => {
            requests.write(MoveRequested { mv, game_id, ply });
        }
        None => warn!("the computer found no move (the game should have ended)"),
    }
}

/// Nodes searched between two yields: small enough that a slice stays well under a frame even
/// in the browser, where the task shares the main thread with rendering.
const NODES_PER_SLICE: u64 = 4_000;

/// The computer's move: the AI crate's search at the chosen level, run in slices with a yield
/// between them. Natively the task runs on a worker thread anyway; in the browser (one thread)
/// the yields are what keep frames coming while the computer thinks — they must yield to the
/// browser's event loop, not just to other tasks (see [`tasks::yield_now`]).
///
/// With several threads (desktop only) this task steps the first thread of a parallel search
/// the same way while the helper threads search beside it; the helpers' guard lives in this
/// task, so a search dropped meanwhile (new game, undo: the task is dropped at its next yield)
/// stops its helpers too.
async fn choose_move(
    position: AnyPosition,
    level: Level,
    seed: u64,
    threads: usize,
) -> SearchOutcome {
    let start = Instant::now();
    let cfg = level.config(&position, seed);
    let mut outcome = SearchOutcome::default();
    let (mut search, _helpers) = AnySearch::new_parallel(&position, cfg, threads);
    loop {
        let slice = Instant::now();
        let progress = search.step(NODES_PER_SLICE);
        outcome.slices += 1;
        outcome.longest_slice = outcome.longest_slice.max(slice.elapsed());
        match progress {
            Progress::Running => tasks::yield_now().await,
            Progress::Done(result) => {
                outcome.best_move = result.best_move;
                outcome.elapsed = start.elapsed();
                return outcome;
            }
        }
    }
}

/// A finished search: the move and how the search was sliced.
#[derive(Default)]
struct SearchOutcome {
    best_move: Option<AnyMove>,
    slices: u32,
    longest_slice: Duration,
    elapsed: Duration,
}
