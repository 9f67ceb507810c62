//! Boardcraft's computer opponent: one search for every game family, generic over
//! [`boardcraft_rules::Position`].
//!
//! - [`Search`]: principal-variation alpha-beta with iterative deepening, transposition table,
//!   killer/history ordering and late-move reductions, run cooperatively in node slices
//!   ([`Search::step`]) so a browser can think between frames; [`think`] runs it to the end.
//! - [`AnySearch`]: the same for [`boardcraft_rules::AnyPosition`], dispatched once to the
//!   family's own position type (full speed).
//! - [`Evaluate`]: the static evaluation, implemented per family and for
//!   [`boardcraft_rules::AnyPosition`].
//! - [`Level`]: Novice, Amateur, Strong, Master — reproducible node budgets plus noise and
//!   depth caps for the weaker ones.
//! - [`analyse`]: score and best line for the coach; [`greedy`]: the one-ply baseline.
//!
//! No Bevy, no threads, no I/O: the caller decides where the search runs.

mod analysis;
mod any_search;
mod clock;
pub mod eval;
mod greedy;
mod level;
pub mod rng;
pub mod score;
mod search;
pub mod solver;
mod tt;

pub use analysis::{Analysis, analyse, analysis_of, notation_of_line};
pub use any_search::AnySearch;
pub use eval::Evaluate;
pub use greedy::greedy;
pub use level::Level;
pub use score::Score;
pub use search::{Budget, MAX_DEPTH, Progress, Search, SearchConfig, ThinkResult, think};
