//! The player's progress in Learn: which puzzles and lesson steps they solved. Kept with the
//! settings, in the same store (`learn-progress.ron` beside `settings.ron` natively, browser
//! storage on the web) and by the same policy (the previous version kept as a backup, a damaged
//! file reported and left as it is).
use std::collections::BTreeSet;

use bevy::prelude::*;
use boardcraft_saves::{SaveError, parse_ron_bytes, store};
use serde::{Deserialize, Serialize};

use crate::persistence::storage::Storage;

/// The progress' key in the store.
pub const PROGRESS_KEY: &str = "learn-progress.ron";

/// What the player solved, by exercise key (`puzzle:<id>`, `lesson:<id>:<step>`, see
/// [`super::content::ExerciseId::key`]). Missing fields take their defaults, so a file written
/// by another version still loads.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LearnProgress {
    pub solved: BTreeSet<String>,
}

impl LearnProgress {
    pub fn is_solved(&self, key: &str) -> bool {
        self.solved.contains(key)
    }
}

/// What became of reading or writing the progress, for the Learn screen to mention.
#[derive(Resource, Clone, Debug, Default)]
pub struct ProgressStatus {
    /// The stored progress could not be read (the file is left as it is; progress starts
    /// empty or from the backup).
    pub problem: Option<String>,
    /// What the store holds, as far as this run knows.
    stored: Option<LearnProgress>,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<LearnProgress>()
        .init_resource::<ProgressStatus>()
        .add_systems(Startup, load_progress)
        .add_systems(
            Update,
            store_progress.run_if(resource_changed::<LearnProgress>),
        );
}

fn load_progress(
    storage: Res<Storage>,
    mut progress: ResMut<LearnProgress>,
    mut status: ResMut<ProgressStatus>,
) {
    match store::read(
        storage.raw(),
        PROGRESS_KEY,
        parse_ron_bytes::<LearnProgress>,
    ) {
        Ok(loaded) => {
            *progress = loaded.value;
            if let Some(problem) = loaded.recovered {
                warn!("{PROGRESS_KEY} is damaged ({problem}); its previous version is used");
                status.problem = Some(problem.to_string());
            }
        }
        Err(SaveError::Missing) => {}
        Err(error) => {
            warn!("{PROGRESS_KEY} cannot be used ({error}); progress starts afresh");
            status.problem = Some(error.to_string());
        }
    }
    status.stored = Some(progress.clone());
}

/// The text of the progress file: a comment, then the progress in RON.
pub fn progress_text(progress: &LearnProgress) -> String {
    let body = ron::ser::to_string_pretty(progress, ron::ser::PrettyConfig::default())
        .expect("progress always serialises");
    format!("// Boardcraft: the lessons and puzzles you solved. Written by the game.\n{body}\n")
}

/// Solving is rare (a click at most), so every change is written at once.
fn store_progress(
    progress: Res<LearnProgress>,
    mut status: ResMut<ProgressStatus>,
    storage: Res<Storage>,
) {
    if status.stored.as_ref() == Some(&*progress) {
        return;
    }
    let text = progress_text(&progress);
    let is_valid = |bytes: &[u8]| parse_ron_bytes::<LearnProgress>(bytes).is_ok();
    match store::write(storage.raw(), PROGRESS_KEY, text.as_bytes(), is_valid) {
        Ok(_) => status.stored = Some(progress.clone()),
        Err(error) => {
            warn!("cannot save the Learn progress: {error}");
            status.problem = Some(error.to_string());
        }
    }
}
