//! Lessons and puzzles as Bevy assets: the shipped manifests (`assets/lessons/manifest.ron`,
//! `assets/puzzles/manifest.ron`; browsers cannot list folders), the native `mods/lessons/` and
//! `mods/puzzles/` folders, and hot reload. A file is read and checked by `boardcraft_learn`
//! (positions and moves through the rules); a broken one becomes a visible error in
//! [`LearnLibrary`], never a panic.
use std::sync::Arc;

use bevy::{
    asset::{AssetLoader, LoadContext, io::Reader},
    prelude::*,
};
use boardcraft_learn::{Difficulty, Goal, Manifest, Text};
use boardcraft_rules::{AnyMove, AnyPosition, Variant};

use crate::game::match_state::AppState;
use crate::game::variants::{MODS_SOURCE, ManifestLoader, ModsFolder};

/// The shipped manifests, relative to the asset root.
pub const PUZZLE_MANIFEST: &str = "puzzles/manifest.ron";
pub const LESSON_MANIFEST: &str = "lessons/manifest.ron";

/// Which kind of file: the folder it is in says (`puzzles/…`, `lessons/…`, also under
/// `mods://`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    Puzzles,
    Lesson,
}

impl FileKind {
    pub fn folder(self) -> &'static str {
        match self {
            FileKind::Puzzles => "puzzles",
            FileKind::Lesson => "lessons",
        }
    }

    /// The kind of the file at this asset path (without its source).
    pub fn of_path(path: &str) -> FileKind {
        if path.starts_with("lessons/") {
            FileKind::Lesson
        } else {
            FileKind::Puzzles
        }
    }
}

/// A lesson step or a puzzle, by what it is called: the key progress is kept under.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExerciseId {
    Puzzle(String),
    /// Step `step` (0-based) of the lesson `lesson`.
    Step {
        lesson: String,
        step: usize,
    },
}

impl ExerciseId {
    /// Reads a key written by [`ExerciseId::key`] (`puzzle:<id>`, `lesson:<id>:<step>`), or a
    /// bare lesson id (its first step).
    pub fn from_key(key: &str) -> Option<ExerciseId> {
        if let Some(id) = key.strip_prefix("puzzle:") {
            return (!id.is_empty()).then(|| ExerciseId::Puzzle(id.to_owned()));
        }
        let rest = key.strip_prefix("lesson:").unwrap_or(key);
        let (lesson, step) = match rest.rsplit_once(':') {
            Some((lesson, n)) => (lesson, n.parse::<usize>().ok()?.checked_sub(1)?),
            None => (rest, 0),
        };
        (!lesson.is_empty()).then(|| ExerciseId::Step {
            lesson: lesson.to_owned(),
            step,
        })
    }

    /// The progress key: `puzzle:<id>` or `lesson:<id>:<step number from 1>`.
    pub fn key(&self) -> String {
        match self {
            ExerciseId::Puzzle(id) => format!("puzzle:{id}"),
            ExerciseId::Step { lesson, step } => format!("lesson:{lesson}:{}", step + 1),
        }
    }
}

/// One thing to play: a lesson step or a puzzle, as checked by `boardcraft_learn` — its
/// variant, start position, goal and solution lines (moves read by the rules).
#[derive(Clone, Debug)]
pub struct Exercise {
    pub id: ExerciseId,
    /// The exercise as `boardcraft_learn` checked it (what judges the player's moves).
    pub checked: Arc<boardcraft_learn::Exercise>,
    pub variant: Arc<Variant>,
    pub start: AnyPosition,
    pub goal: Goal,
    /// The solution lines (player, reply, player …); the first is shown by "show the solution".
    pub solutions: Vec<Vec<AnyMove>>,
    pub title: Text,
    /// A lesson step's explanation.
    pub text: Option<Text>,
    pub hint: Option<Text>,
    /// What a lesson step tells after a right and a wrong try (puzzles use the UI's words).
    pub right: Option<Text>,
    pub wrong: Option<Text>,
    /// A puzzle's difficulty.
    pub difficulty: Option<Difficulty>,
    /// What a lesson step draws on the board: marked squares and arrows (hop by hop).
    pub marks: Vec<boardcraft_learn::BoardSquare>,
    pub arrows: Vec<boardcraft_learn::Arrow>,
}

impl Exercise {
    /// The family the exercise's variant belongs to (`Race`, `Focus`, `Gipf`).
    pub fn family(&self) -> &'static str {
        self.variant.rules.family_name()
    }
}

/// A course: one lesson file.
#[derive(Clone, Debug)]
pub struct Course {
    pub id: String,
    pub family: String,
    pub title: Text,
    pub description: Option<Text>,
    pub steps: Vec<Exercise>,
}

/// What a file holds once read and checked.
#[derive(Clone, Debug)]
pub enum FileContent {
    Puzzles(Vec<Exercise>),
    Lesson(Course),
}

/// A lesson or puzzle file as loaded: its checked content, or every problem found in it (as
/// `boardcraft_learn` words them: file, line, field). A broken file is still a loaded asset,
/// so hot reload keeps watching it.
#[derive(Asset, TypePath, Debug)]
pub struct LearnFileAsset {
    pub result: Result<FileContent, String>,
}

/// A manifest of lesson or puzzle files.
#[derive(Asset, TypePath, Debug, serde::Deserialize)]
#[serde(transparent)]
pub struct LearnManifest(pub Manifest);

/// Reads lesson and puzzle files; knows the `mods/` folder (natively) so a mod's puzzle can
/// name a variant file beside it.
#[derive(TypePath)]
pub struct LearnFileLoader {
    mods: Option<std::path::PathBuf>,
}

impl FromWorld for LearnFileLoader {
    fn from_world(world: &mut World) -> Self {
        LearnFileLoader {
            mods: world.get_resource::<ModsFolder>().and_then(|m| m.0.clone()),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LearnLoadError {
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
}

impl AssetLoader for LearnFileLoader {
    type Asset = LearnFileAsset;
    type Settings = ();
    type Error = LearnLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<LearnFileAsset, LearnLoadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let label = load_context.path().to_string();
        let kind = FileKind::of_path(&load_context.path().path().to_string_lossy());
        let is_mod = load_context
            .path()
            .source()
            .as_str()
            .is_some_and(|s| s == MODS_SOURCE);
        let base = self
            .mods
            .as_ref()
            .filter(|_| is_mod)
            .map(|m| m.join(kind.folder()));
        let result = match std::str::from_utf8(&bytes) {
            Ok(text) => read_file(&label, kind, text, base.as_deref()),
            Err(e) => Err(format!("{label}: the file is not UTF-8 text: {e}")),
        };
        Ok(LearnFileAsset { result })
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// Reads and checks one file through `boardcraft_learn` (the one place the game turns the
/// crate's checked types into [`Exercise`]s). `base` is the folder a mod's variant file paths
/// are relative to.
pub fn read_file(
    label: &str,
    kind: FileKind,
    text: &str,
    base: Option<&std::path::Path>,
) -> Result<FileContent, String> {
    let exercise = |id: ExerciseId, e: &boardcraft_learn::Exercise| Exercise {
        id,
        checked: Arc::new(e.clone()),
        variant: Arc::new(e.variant.clone()),
        start: e.position.clone(),
        goal: e.goal,
        solutions: e.lines.clone(),
        title: Text {
            en: String::new(),
            ru: String::new(),
        },
        text: None,
        hint: None,
        right: None,
        wrong: None,
        difficulty: None,
        marks: Vec::new(),
        arrows: Vec::new(),
    };
    match kind {
        FileKind::Puzzles => {
            let puzzles =
                boardcraft_learn::puzzles_from_ron(label, text, base).map_err(|e| e.to_string())?;
            Ok(FileContent::Puzzles(
                puzzles
                    .into_iter()
                    .map(|p| Exercise {
                        title: p.title.clone(),
                        hint: Some(p.hint.clone()),
                        difficulty: Some(p.difficulty),
                        ..exercise(ExerciseId::Puzzle(p.id.clone()), &p.exercise)
                    })
                    .collect(),
            ))
        }
        FileKind::Lesson => {
            let lesson =
                boardcraft_learn::lesson_from_ron(label, text, base).map_err(|e| e.to_string())?;
            let steps = lesson
                .steps
                .iter()
                .enumerate()
                .map(|(i, s)| Exercise {
                    title: s.title.clone(),
                    text: Some(s.text.clone()),
                    hint: s.hint.clone(),
                    right: Some(s.right.clone()),
                    wrong: Some(s.wrong.clone()),
                    marks: s.marks.clone(),
                    arrows: s.arrows.clone(),
                    ..exercise(
                        ExerciseId::Step {
                            lesson: lesson.id.clone(),
                            step: i,
                        },
                        &s.exercise,
                    )
                })
                .collect();
            Ok(FileContent::Lesson(Course {
                id: lesson.id.clone(),
                family: lesson.family.clone(),
                title: lesson.title.clone(),
                description: lesson.description.clone(),
                steps,
            }))
        }
    }
}

/// How the player's latest move went (`boardcraft_learn`'s judgement).
pub use boardcraft_learn::Judgement;

/// Judges the moves played since the exercise's start (player, reply, player …; the last one
/// is the player's) with `boardcraft_learn::Exercise::judge`: a first move is right only if it
/// is one of the engine-proven first moves, a later one if it still forces the goal in the
/// moves left (the solver checks it); the reply is the line's, or the toughest defence.
pub fn judge(exercise: &Exercise, played: &[AnyMove]) -> Judgement {
    exercise.checked.judge(played)
}

/// Where a file comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Shipped,
    Mod,
}

#[derive(Clone, Debug)]
pub enum FileState {
    Loading,
    Ready(FileContent),
    Broken(String),
}

#[derive(Clone, Debug)]
pub struct LearnFile {
    /// The asset path (`puzzles/ugolki-9qum.ron`, `mods://lessons/my.ron`).
    pub path: String,
    pub origin: Origin,
    pub kind: FileKind,
    pub handle: Handle<LearnFileAsset>,
    pub state: FileState,
}

/// Every lesson and puzzle file the game knows, loaded or broken, in menu order (shipped
/// first, then mods).
#[derive(Resource, Debug, Default)]
pub struct LearnLibrary {
    pub manifests: Vec<(FileKind, Handle<LearnManifest>)>,
    /// Per manifest: `None` while it loads, `Some(Err)` if it could not be read.
    pub manifest_states: Vec<(FileKind, Result<(), String>)>,
    pub files: Vec<LearnFile>,
}

impl LearnLibrary {
    /// True when nothing is loading any more.
    pub fn settled(&self) -> bool {
        !self.manifests.is_empty()
            && self.manifest_states.len() == self.manifests.len()
            && self
                .files
                .iter()
                .all(|f| !matches!(f.state, FileState::Loading))
    }

    /// The courses, in menu order, with the file they come from.
    pub fn courses(&self) -> impl Iterator<Item = (&LearnFile, &Course)> {
        self.files.iter().filter_map(|f| match &f.state {
            FileState::Ready(FileContent::Lesson(c)) => Some((f, c)),
            _ => None,
        })
    }

    /// Every puzzle, in menu order, with the file it comes from. A puzzle id given twice is
    /// listed once (the first file wins, as for variants).
    pub fn puzzles(&self) -> impl Iterator<Item = (&LearnFile, &Exercise)> {
        let mut seen = std::collections::HashSet::new();
        self.files
            .iter()
            .filter_map(|f| match &f.state {
                FileState::Ready(FileContent::Puzzles(p)) => Some(p.iter().map(move |p| (f, p))),
                _ => None,
            })
            .flatten()
            .filter(move |(_, p)| seen.insert(p.id.clone()))
    }

    /// The broken files and manifests, with their errors.
    pub fn broken(&self) -> Vec<(String, String)> {
        let manifests = self.manifest_states.iter().filter_map(|(kind, state)| {
            state
                .as_ref()
                .err()
                .map(|why| (format!("{}/manifest.ron", kind.folder()), why.clone()))
        });
        let files = self.files.iter().filter_map(|f| match &f.state {
            FileState::Broken(why) => Some((f.path.clone(), why.clone())),
            _ => None,
        });
        manifests.chain(files).collect()
    }

    /// The exercise called `id`, if it is loaded.
    pub fn exercise(&self, id: &ExerciseId) -> Option<&Exercise> {
        match id {
            ExerciseId::Puzzle(_) => self.puzzles().map(|(_, p)| p).find(|p| &p.id == id),
            ExerciseId::Step { lesson, step } => self
                .courses()
                .find(|(_, c)| &c.id == lesson)
                .and_then(|(_, c)| c.steps.get(*step)),
        }
    }

    /// What comes after `id`: the lesson's next step, or the next puzzle of the same family
    /// (in menu order).
    pub fn next_after(&self, id: &ExerciseId) -> Option<ExerciseId> {
        match id {
            ExerciseId::Step { lesson, step } => {
                let course = self.course(lesson)?;
                (step + 1 < course.steps.len()).then(|| ExerciseId::Step {
                    lesson: lesson.clone(),
                    step: step + 1,
                })
            }
            ExerciseId::Puzzle(_) => {
                let family = self.exercise(id)?.family();
                self.puzzles()
                    .map(|(_, p)| p)
                    .filter(|p| p.family() == family)
                    .skip_while(|p| &p.id != id)
                    .nth(1)
                    .map(|p| p.id.clone())
            }
        }
    }

    /// What "next" offers after `id`: for a lesson step the next step; for a puzzle the next
    /// unsolved puzzle of the player's level in the same family
    /// (`boardcraft_learn::progress::next_of_level`: the easiest level they have not mostly
    /// solved), else the next one in the list.
    pub fn next_for_player(
        &self,
        id: &ExerciseId,
        progress: &crate::learn::progress::LearnProgress,
    ) -> Option<ExerciseId> {
        let ExerciseId::Puzzle(current) = id else {
            return self.next_after(id);
        };
        let family = self.exercise(id)?.family();
        let list: Vec<&Exercise> = self
            .puzzles()
            .map(|(_, p)| p)
            .filter(|p| p.family() == family)
            .collect();
        let solved = |name: &str| progress.is_solved(&ExerciseId::Puzzle(name.to_owned()).key());
        boardcraft_learn::progress::next_of_level(
            &list,
            |p| match &p.id {
                ExerciseId::Puzzle(name) => {
                    (name.as_str(), p.difficulty.unwrap_or(Difficulty::Easy))
                }
                ExerciseId::Step { lesson, .. } => (lesson.as_str(), Difficulty::Easy),
            },
            solved,
            Some(current),
        )
        .filter(|p| &p.id != id)
        .map(|p| p.id.clone())
        .or_else(|| self.next_after(id))
    }

    /// The course called `id`.
    pub fn course(&self, id: &str) -> Option<&Course> {
        self.courses().map(|(_, c)| c).find(|c| c.id == id)
    }

    fn add(&mut self, server: &AssetServer, path: String, origin: Origin, kind: FileKind) {
        if self.files.iter().any(|f| f.path == path) {
            return;
        }
        let handle = server.load::<LearnFileAsset>(path.clone());
        self.files.push(LearnFile {
            path,
            origin,
            kind,
            handle,
            state: FileState::Loading,
        });
    }
}

pub fn plugin(app: &mut App) {
    app.init_asset::<LearnFileAsset>()
        .init_asset::<LearnManifest>()
        .init_asset_loader::<LearnFileLoader>()
        .init_asset_loader::<ManifestLoader<LearnManifest>>()
        .init_resource::<LearnLibrary>()
        .init_resource::<ModsFolder>()
        .add_systems(
            Update,
            (
                load_manifests,
                read_manifests,
                track_files,
                #[cfg(not(target_arch = "wasm32"))]
                scan_mods,
            )
                .chain()
                .in_set(crate::GameSystems::Variants),
        );
}

/// Lessons and puzzles load once the variants have and the first screen is on (the browser
/// has its variants at once): the game's first start, and the frames that first draw it, do
/// not wait behind a few hundred puzzles.
fn load_manifests(
    mut library: ResMut<LearnLibrary>,
    variants: Res<crate::game::variants::VariantLibrary>,
    state: Res<State<AppState>>,
    server: Res<AssetServer>,
) {
    if !library.manifests.is_empty() || !variants.settled() || *state.get() == AppState::Loading {
        return;
    }
    library.manifests = vec![
        (FileKind::Lesson, server.load(LESSON_MANIFEST)),
        (FileKind::Puzzles, server.load(PUZZLE_MANIFEST)),
    ];
}

/// Turns each loaded manifest into files to load; a manifest that cannot be read is shown as
/// an error (there is nothing built in to fall back to: Learn is then empty, the games play).
fn read_manifests(
    mut library: ResMut<LearnLibrary>,
    server: Res<AssetServer>,
    manifests: Res<Assets<LearnManifest>>,
    mut failed: MessageReader<bevy::asset::AssetLoadFailedEvent<LearnManifest>>,
) {
    let failures: Vec<(AssetId<LearnManifest>, String)> = failed
        .read()
        .map(|e| (e.id, format!("{}: {}", e.path, e.error)))
        .collect();
    for (kind, handle) in library.manifests.clone() {
        if library.manifest_states.iter().any(|(k, _)| *k == kind) {
            continue;
        }
        if let Some(manifest) = manifests.get(&handle) {
            for file in &manifest.0.files {
                let path = format!("{}/{file}", kind.folder());
                library.add(&server, path, Origin::Shipped, kind);
            }
            library.manifest_states.push((kind, Ok(())));
        } else if let Some((_, why)) = failures.iter().find(|(id, _)| *id == handle.id()) {
            error!("{why}");
            library.manifest_states.push((kind, Err(why.clone())));
        }
    }
}

/// Keeps each file's state in step with its asset: loaded, reloaded, or failed.
fn track_files(
    mut library: ResMut<LearnLibrary>,
    assets: Res<Assets<LearnFileAsset>>,
    mut events: MessageReader<AssetEvent<LearnFileAsset>>,
    mut failed: MessageReader<bevy::asset::AssetLoadFailedEvent<LearnFileAsset>>,
) {
    for event in events.read() {
        let (AssetEvent::Added { id } | AssetEvent::Modified { id }) = *event else {
            continue;
        };
        let Some(asset) = assets.get(id) else {
            continue;
        };
        let state = match &asset.result {
            Ok(content) => FileState::Ready(content.clone()),
            Err(why) => {
                warn!("lesson or puzzle file rejected:\n{why}");
                FileState::Broken(why.clone())
            }
        };
        if let Some(file) = library.files.iter_mut().find(|f| f.handle.id() == id) {
            file.state = state;
        }
    }
    for event in failed.read() {
        let why = format!("{}: {}", event.path, event.error);
        warn!("lesson or puzzle file failed to load: {why}");
        if let Some(file) = library.files.iter_mut().find(|f| f.handle.id() == event.id) {
            file.state = FileState::Broken(why);
        }
    }
}

/// Native only: picks up files added to `mods/lessons/` and `mods/puzzles/` while the game
/// runs (changes to known files arrive through the asset server's file watcher). Variant files
/// stay directly in `mods/`, so the two never mix.
#[cfg(not(target_arch = "wasm32"))]
fn scan_mods(
    mut library: ResMut<LearnLibrary>,
    server: Res<AssetServer>,
    folder: Res<ModsFolder>,
    time: Res<Time<Real>>,
    mut next_scan: Local<f64>,
) {
    let Some(dir) = &folder.0 else {
        return;
    };
    let now = time.elapsed_secs_f64();
    if now < *next_scan {
        return;
    }
    *next_scan = now + 2.0;
    for kind in [FileKind::Lesson, FileKind::Puzzles] {
        let Ok(read) = std::fs::read_dir(dir.join(kind.folder())) else {
            continue;
        };
        let mut files: Vec<String> = read
            .filter_map(Result::ok)
            .filter(|e| e.path().is_file())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|name| name.ends_with(".ron"))
            .collect();
        files.sort();
        for file in files {
            let path = format!("{MODS_SOURCE}://{}/{file}", kind.folder());
            library.add(&server, path, Origin::Mod, kind);
        }
    }
}
