//! Boardcraft's Learn content: puzzles and lessons as RON files (see [`format`]), loaded with
//! errors that name the file, the line and the field, and verified by the engine's solver
//! (`boardcraft_ai::solver`). No Bevy: the game's Learn screen, the CLI (`puzzles verify`,
//! `puzzles mine`) and the tests share this crate.
pub mod format;

pub use format::{
    Difficulty, Goal, LessonFile, Manifest, PuzzleEntry, PuzzleFile, StepEntry, Text,
};

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

    fn read(path: &str) -> String {
        std::fs::read_to_string(format!("{ROOT}/{path}")).unwrap()
    }

    #[test]
    fn the_sample_files_follow_the_schema() {
        let manifest: Manifest = ron::from_str(&read("assets/puzzles/manifest.ron")).unwrap();
        for f in &manifest.files {
            let file: PuzzleFile = ron::from_str(&read(&format!("assets/puzzles/{f}"))).unwrap();
            assert!(!file.puzzles.is_empty());
        }
        let manifest: Manifest = ron::from_str(&read("assets/lessons/manifest.ron")).unwrap();
        for f in &manifest.files {
            let file: LessonFile = ron::from_str(&read(&format!("assets/lessons/{f}"))).unwrap();
            assert!(!file.steps.is_empty());
        }
    }
}
