//! Boardcraft's computer opponent: one search for every game family, generic over
//! [`boardcraft_rules::Position`].
//!
//! - [`Search`]: principal-variation alpha-beta with iterative deepening, aspiration windows,
//!   transposition table, killer/history ordering, late-move reductions, reverse futility and
//!   late-move pruning near the horizon and a quiescence search over captures (Focus), run
//!   cooperatively in node slices
//!   ([`Search::step`]) so a browser can think between frames; [`think`] runs it to the end.
//! - [`AnySearch`]: the same for [`boardcraft_rules::AnyPosition`], dispatched once to the
//!   family's own position type (full speed).
//! - [`Evaluate`]: the static evaluation, implemented per family and for
//!   [`boardcraft_rules::AnyPosition`].
//! - [`Level`]: Novice, Amateur, Strong, Master — reproducible node budgets plus noise and
//!   depth caps for the weaker ones.
//! - [`mcts`]: Master's Monte-Carlo tree search at race tables of more than two seats (the
//!   other levels search best replies there, [`best_reply`]).
//! - [`analyse`]: score and best line for the coach; [`greedy`]: the one-ply baseline.
//! - [`think_parallel`]: the same search on several threads (Lazy SMP over a shared
//!   transposition table); [`default_threads`] is the machine's cores − 1, one in the browser.
//!
//! No Bevy, no I/O. A [`Search`] runs on the caller's thread (in slices if it likes); only
//! [`think_parallel`] starts threads, and only for the duration of the call.

mod analysis;
mod any_search;
pub mod best_reply;
mod clock;
pub mod eval;
mod greedy;
mod level;
pub mod mcts;
pub mod rng;
pub mod score;
mod search;
mod smp;
pub mod solver;
mod tt;

pub use analysis::{Analysis, analyse, analysis_of, notation_of_line};
pub use any_search::AnySearch;
pub use eval::Evaluate;
pub use greedy::greedy;
pub use level::Level;
pub use score::Score;
pub use search::{Budget, MAX_DEPTH, Progress, Search, SearchConfig, ThinkResult, think};
pub use smp::{
    HelperWatch, Helpers, THREADS_AVAILABLE, default_threads, parallel_search, think_parallel,
};
