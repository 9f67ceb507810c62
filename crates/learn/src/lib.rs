//! Boardcraft's Learn content: puzzles and lessons as RON files (see [`format`]), loaded with
//! errors that name the file, the line and the field ([`load`]), judged with the rules
//! ([`goal`]) and verified by the engine's solver ([`verify`], `boardcraft_ai::solver`). No
//! Bevy: the game's Learn screen, the CLI (`puzzles verify`, `puzzles mine`) and the tests share
//! this crate.
pub mod audit;
pub mod drawing;
pub mod error;
pub mod format;
pub mod goal;
pub mod load;
pub mod measure;
pub mod mine;
pub mod progress;
pub mod rate;
pub mod verify;

pub use drawing::{Arrow, BoardSquare};
pub use error::FileError;
pub use format::{
    Difficulty, Goal, LessonFile, Manifest, PuzzleEntry, PuzzleFile, StepEntry, Text,
};
pub use load::{
    Exercise, Judgement, Lesson, Puzzle, Step, is_puzzle_file, lesson_from_path, lesson_from_ron,
    manifest_from_ron, puzzles_from_path, puzzles_from_ron,
};
pub use verify::{Verified, verify};

/// The shipped puzzle and lesson folders (`assets/puzzles`, `assets/lessons`) of this source
/// tree, for the CLI and the tests.
pub fn shipped_assets() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}
