//! Invariant checks over any position, shared by the fuzz targets (`fuzz/`), the CLI's `soak`
//! and the test that replays the committed fuzz seeds on the stable toolchain. Behind the
//! `checks` feature: the game does not need them.
//!
//! - [`check_position`]: what must hold in every position (hash, material, move list, end);
//! - [`check_move`]: what must hold for one legal move (notation, play, undo);
//! - [`fuzz`]: the fuzz targets' bodies, taking raw bytes and panicking on a violation;
//! - [`SeededMoves`]: reproducible random games for tests and tools.
pub mod fuzz;
mod invariants;
mod seeded;

pub use invariants::{Violation, check_move, check_position, fresh_hash, same_position};
pub use seeded::SeededMoves;
