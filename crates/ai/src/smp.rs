//! Parallel search: Lazy SMP. Several threads search the same position at once, sharing one
//! transposition table (lock-free, see `tt`); nothing else is shared. The first thread runs
//! the search as asked (its budget, its seed) and its result is the answer; the helpers search
//! without a budget until it is done, half of them skipping every other depth, and what they
//! store in the table lets the first thread cut off and order moves sooner, so it gets deeper
//! in the same time.
//!
//! Only a single thread is reproducible (with a node or depth budget): with more, which
//! entries the helpers store first depends on the operating system's scheduling. The browser
//! has no threads and always searches with one.
use std::sync::{
    Arc,
    atomic::{AtomicBool, AtomicU64, Ordering},
};

use boardcraft_rules::Position;

use crate::{
    eval::Evaluate,
    search::{Budget, Progress, Search, SearchConfig, ThinkResult},
    tt::TransTable,
};

/// Nodes a helper searches between looks at the stop flag.
const HELPER_SLICE: u64 = 1024;

/// Whether this build can start threads (not in the browser).
pub const THREADS_AVAILABLE: bool = !cfg!(all(target_arch = "wasm32", target_os = "unknown"));

/// The default number of search threads: one fewer than the machine's cores (so the program
/// around the search stays responsive), at least one; always one in the browser.
pub fn default_threads() -> usize {
    if !THREADS_AVAILABLE {
        return 1;
    }
    std::thread::available_parallelism()
        .map(|n| n.get().saturating_sub(1))
        .unwrap_or(1)
        .max(1)
}

/// Searches `position` with `threads` threads (Lazy SMP); one thread is exactly
/// [`Search::new`]`(position, cfg).run()`. The result is the first thread's; its `nodes` count
/// every thread's nodes up to the moment it finished. The helpers are detached threads that end
/// within one slice ([`HELPER_SLICE`] nodes) after the answer.
pub fn think_parallel<P: Position + Evaluate>(
    position: &P,
    cfg: SearchConfig,
    threads: usize,
) -> ThinkResult<P::Move> {
    let (search, helpers) = parallel_search(position, cfg, threads);
    let mut result = search.run();
    if let Some(helpers) = helpers {
        result.nodes += helpers.nodes();
    }
    result
}

/// The first thread of a parallel search, for the caller to run or step (the game steps it in
/// slices so that a search it drops ends at once), and the guard of its helpers: `threads - 1`
/// detached threads searching the same position into the same table. Dropping the guard stops
/// them (each within one [`HELPER_SLICE`]); one thread (or no threads in this build) is the plain
/// [`Search::new`] with no guard.
pub fn parallel_search<P: Position + Evaluate>(
    position: &P,
    cfg: SearchConfig,
    threads: usize,
) -> (Search<P>, Option<Helpers>) {
    let threads = if THREADS_AVAILABLE { threads.max(1) } else { 1 };
    if threads == 1 {
        return (Search::new(position, cfg), None);
    }
    let tt = Arc::new(TransTable::new(cfg.tt_bits));
    let helpers = Helpers {
        stop: Arc::new(AtomicBool::new(false)),
        nodes: Arc::new(AtomicU64::new(0)),
    };
    for i in 1..threads {
        let mut helper_cfg = cfg.clone();
        helper_cfg.budget = Budget {
            depth: cfg.budget.depth,
            ..Budget::default()
        };
        let (tt, stop, helper_nodes) = (
            Arc::clone(&tt),
            Arc::clone(&helpers.stop),
            Arc::clone(&helpers.nodes),
        );
        let position = position.clone();
        let stride = if i % 2 == 1 { 2 } else { 1 };
        // Detached: once the first thread is done the answer does not wait for a helper to be
        // scheduled again and see the flag; each helper ends after its current slice.
        std::thread::spawn(move || {
            let mut search = Search::with_table(&position, helper_cfg, tt, stride);
            let mut counted = 0;
            while !stop.load(Ordering::Relaxed) {
                let done = matches!(search.step(HELPER_SLICE), Progress::Done(_));
                helper_nodes.fetch_add(search.nodes() - counted, Ordering::Relaxed);
                counted = search.nodes();
                if done {
                    break;
                }
            }
        });
    }
    (Search::with_table(position, cfg, tt, 1), Some(helpers))
}

/// The helper threads of a [`parallel_search`]; they search until this is dropped.
pub struct Helpers {
    stop: Arc<AtomicBool>,
    nodes: Arc<AtomicU64>,
}

impl Helpers {
    /// The nodes the helpers have searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// A way to see, after the guard is gone, how many helper threads are still running.
    pub fn watch(&self) -> HelperWatch {
        HelperWatch(Arc::downgrade(&self.stop))
    }
}

impl Drop for Helpers {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// See [`Helpers::watch`].
pub struct HelperWatch(std::sync::Weak<AtomicBool>);

impl HelperWatch {
    /// Helper threads still running (each holds the stop flag until it ends).
    pub fn running(&self) -> usize {
        self.0.strong_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use boardcraft_rules::{AnyPosition, shipped_variant};

    fn ugolki() -> boardcraft_rules::race::RacePosition {
        match shipped_variant("ugolki-9qum").unwrap().new_game() {
            AnyPosition::Race(p) => p,
            _ => unreachable!(),
        }
    }

    #[test]
    fn at_least_one_thread() {
        assert!(default_threads() >= 1);
    }

    #[test]
    fn one_thread_is_the_plain_search() {
        let pos = ugolki();
        let cfg = SearchConfig::new(Budget::nodes(20_000)).with_seed(3);
        let plain = Search::new(&pos, cfg.clone()).run();
        let one = think_parallel(&pos, cfg, 1);
        assert_eq!(
            (
                plain.best_move,
                plain.score,
                plain.depth,
                plain.nodes,
                plain.pv
            ),
            (one.best_move, one.score, one.depth, one.nodes, one.pv)
        );
    }

    #[test]
    fn helpers_share_the_work_and_the_answer_is_a_legal_move() {
        let pos = ugolki();
        let cfg = SearchConfig::new(Budget::nodes(50_000));
        let r = think_parallel(&pos, cfg, 3);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        assert!(moves.contains(r.best_move.as_ref().unwrap()));
        assert_eq!(r.pv.first(), r.best_move.as_ref());
        // The first thread spends its budget; the helpers' nodes come on top.
        assert!(r.nodes >= 50_000, "{}", r.nodes);
    }

    #[test]
    fn dropping_the_guard_ends_the_helpers() {
        let pos = ugolki();
        // No budget: only the guard's drop can end the helpers.
        let cfg = SearchConfig::new(Budget::default());
        let (mut search, helpers) = parallel_search(&pos, cfg, 3);
        let helpers = helpers.expect("helpers for three threads");
        assert!(matches!(search.step(5_000), Progress::Running));
        let watch = helpers.watch();
        drop(helpers);
        // Each helper sees the flag after its current slice; the generous limit only keeps a
        // broken stop from hanging the test run.
        let start = std::time::Instant::now();
        while watch.running() > 0 {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(60),
                "{} helpers still running",
                watch.running()
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}
