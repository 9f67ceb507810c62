//! Variants as Bevy assets: a RON loader that validates through the rules crate, the shipped
//! manifest (natively; the browser takes the shipped files compiled into the game), the
//! native `mods/` folder, a variant file named on the command line, and hot reload. A broken
//! file becomes a visible error (in [`VariantLibrary`] and, if it is the game's variant,
//! [`AppState::Failed`]); it never panics.
use std::{marker::PhantomData, path::PathBuf, sync::Arc};

use bevy::{
    asset::{AssetLoader, LoadContext, io::Reader},
    prelude::*,
};
use boardcraft_rules::{Variant, VariantError};
use serde::{Deserialize, de::DeserializeOwned};

use crate::{
    GameSystems,
    game::config::{GameConfig, Players, VariantChoice},
    game::match_state::{AppState, Match, StartError, StartGame, replay, seated},
};

/// Start a new game of the library entry `path` (its asset path) with these players: what the
/// main menu's Start asks for.
#[derive(Message, Clone, Debug)]
pub struct NewGameRequested {
    pub path: String,
    pub players: Players,
}

/// The shipped manifest, relative to the asset root.
pub const MANIFEST_PATH: &str = "variants/manifest.ron";
/// Asset source for the native `mods/` folder beside `assets/`.
pub const MODS_SOURCE: &str = "mods";
/// Asset source for the folder of a variant file given on the command line.
pub const CLI_SOURCE: &str = "cli";

/// A variant file as loaded: its validated rules, or every problem found in it. A broken file
/// is still a loaded asset, so hot reload keeps watching it and a fix shows up at once.
#[derive(Asset, TypePath, Debug)]
pub struct VariantAsset {
    pub result: Result<Arc<Variant>, VariantError>,
}

/// `assets/variants/manifest.ron`: the list of shipped variant files, in menu order.
#[derive(Asset, TypePath, Debug, Deserialize)]
pub struct VariantManifest {
    pub variants: Vec<String>,
}

#[derive(Default, TypePath)]
pub struct VariantLoader;

#[derive(Debug, thiserror::Error)]
pub enum VariantLoadError {
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
}

impl AssetLoader for VariantLoader {
    type Asset = VariantAsset;
    type Settings = ();
    type Error = VariantLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<VariantAsset, VariantLoadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let label = load_context.path().to_string();
        let result = match std::str::from_utf8(&bytes) {
            Ok(text) => Variant::from_ron(&label, text).map(Arc::new),
            Err(e) => Err(VariantError {
                file: label,
                problems: vec![boardcraft_rules::variant::Problem {
                    line: None,
                    column: None,
                    field: None,
                    message: format!("the file is not UTF-8 text: {e}"),
                }],
            }),
        };
        Ok(VariantAsset { result })
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// Reads a manifest (the list of shipped files, in RON; browsers cannot list folders) as the
/// asset `T`: the variants' here, the lessons' and puzzles' in `crate::learn`.
#[derive(TypePath)]
pub struct ManifestLoader<T>(PhantomData<fn() -> T>);

impl<T> Default for ManifestLoader<T> {
    fn default() -> Self {
        ManifestLoader(PhantomData)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ManifestLoadError {
    #[error("cannot read the manifest: {0}")]
    Io(#[from] std::io::Error),
    #[error("the manifest is not valid RON: {0}")]
    Ron(#[from] ron::error::SpannedError),
}

impl<T: Asset + DeserializeOwned> AssetLoader for ManifestLoader<T> {
    type Asset = T;
    type Settings = ();
    type Error = ManifestLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        _load_context: &mut LoadContext<'_>,
    ) -> Result<T, ManifestLoadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        Ok(ron::de::from_bytes(&bytes)?)
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// Where a library entry comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Listed in the shipped manifest (in the browser: compiled into the game, the same files).
    Shipped,
    /// Compiled into the binary (used only when the manifest itself cannot be read).
    Embedded,
    /// A file in the native `mods/` folder.
    Mod,
    /// The file named with `--variant <path>`.
    CommandLine,
}

#[derive(Clone, Debug)]
pub enum EntryState {
    Loading,
    Ready(Arc<Variant>),
    /// The file could not be read or did not validate: every problem, ready to show.
    Broken(String),
}

#[derive(Clone, Debug)]
pub struct Entry {
    /// The asset path (`variants/halma-16.ron`, `mods://my.ron`, `cli://file.ron`).
    pub path: String,
    pub origin: Origin,
    pub handle: Option<Handle<VariantAsset>>,
    pub state: EntryState,
}

impl Entry {
    /// The file name without `.ron`, which is also the expected variant name.
    pub fn stem(&self) -> &str {
        let file = self.path.rsplit(['/', ':']).next().unwrap_or(&self.path);
        file.strip_suffix(".ron").unwrap_or(file)
    }

    pub fn variant(&self) -> Option<&Arc<Variant>> {
        match &self.state {
            EntryState::Ready(v) => Some(v),
            _ => None,
        }
    }
}

/// Something the player should know about the variant library (the UI words it in the
/// player's language; `Display` is the English text for logs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The manifest could not be read; the variants built into the game are used instead.
    ManifestUnreadable { why: String },
    /// Two files define the same variant name; the first one is used.
    DuplicateName {
        first: String,
        second: String,
        name: String,
    },
    /// The file of the game being played changed; the game was replayed on the new rules.
    Replayed { path: String },
    /// The file changed and the game's moves no longer fit it; a new game was started.
    Restarted { path: String },
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Notice::ManifestUnreadable { why } => {
                write!(f, "{why}. Using the variants built into the game instead.")
            }
            Notice::DuplicateName {
                first,
                second,
                name,
            } => write!(
                f,
                "{first} and {second} both define the variant `{name}`; the game uses {first}"
            ),
            Notice::Replayed { path } => {
                write!(f, "{path} changed; the game was replayed on the new rules")
            }
            Notice::Restarted { path } => write!(
                f,
                "{path} changed and the game's moves no longer fit it; a new game was started"
            ),
        }
    }
}

/// Every variant the game knows, loaded or broken.
#[derive(Resource, Debug, Default)]
pub struct VariantLibrary {
    pub manifest: Option<Handle<VariantManifest>>,
    /// `None` while the manifest loads; `Some(Err)` if it could not be read.
    pub manifest_state: Option<Result<(), String>>,
    pub entries: Vec<Entry>,
    /// The asset path of the entry the current game was started from.
    pub playing: Option<String>,
    /// Messages about the library for the UI (duplicate names, reloads …), newest last.
    pub notices: Vec<Notice>,
}

impl VariantLibrary {
    /// True when nothing is loading any more.
    pub fn settled(&self) -> bool {
        self.manifest_state.is_some()
            && self
                .entries
                .iter()
                .all(|e| !matches!(e.state, EntryState::Loading))
    }

    /// The playable variants, in menu order (shipped first, then mods).
    pub fn ready(&self) -> impl Iterator<Item = (&Entry, &Arc<Variant>)> {
        self.entries
            .iter()
            .filter_map(|e| e.variant().map(|v| (e, v)))
    }

    /// The playable entries whose files have warnings (a `name` that differs from the file
    /// name), with them.
    pub fn warned(&self) -> impl Iterator<Item = (&Entry, &Arc<Variant>)> {
        self.ready().filter(|(_, v)| !v.warnings.is_empty())
    }

    /// The broken entries, with their errors.
    pub fn broken(&self) -> impl Iterator<Item = (&Entry, &str)> {
        self.entries.iter().filter_map(|e| match &e.state {
            EntryState::Broken(why) => Some((e, why.as_str())),
            _ => None,
        })
    }

    fn entry_mut(&mut self, id: AssetId<VariantAsset>) -> Option<&mut Entry> {
        self.entries
            .iter_mut()
            .find(|e| e.handle.as_ref().is_some_and(|h| h.id() == id))
    }

    fn add(&mut self, server: &AssetServer, path: String, origin: Origin) {
        if self.entries.iter().any(|e| e.path == path) {
            return;
        }
        let handle = server.load::<VariantAsset>(path.clone());
        self.entries.push(Entry {
            path,
            origin,
            handle: Some(handle),
            state: EntryState::Loading,
        });
    }

    /// The entry a [`VariantChoice`] names, if it is known (whatever its state).
    pub fn find(&self, choice: &VariantChoice) -> Option<&Entry> {
        match choice {
            VariantChoice::Path(path) => {
                let file = path.file_name()?.to_string_lossy();
                let wanted = format!("{CLI_SOURCE}://{file}");
                self.entries.iter().find(|e| e.path == wanted)
            }
            // The name first, then a former name (`aliases`: a save or a `--variant` from
            // before a rename), then the file name of an entry still loading.
            VariantChoice::Name(name) => self
                .entries
                .iter()
                .find(|e| e.variant().is_some_and(|v| &v.name == name))
                .or_else(|| {
                    self.entries
                        .iter()
                        .find(|e| e.variant().is_some_and(|v| v.is_called(name)))
                })
                .or_else(|| self.entries.iter().find(|e| e.stem() == name)),
        }
    }
}

/// Native only: the `mods/` folder to scan, if it exists.
#[derive(Resource, Debug, Default, Clone)]
pub struct ModsFolder(pub Option<PathBuf>);

/// The file and its folder for `--variant <path>`.
#[derive(Resource, Debug, Default, Clone)]
pub struct CommandLineFile(pub Option<PathBuf>);

/// Registers the asset sources the library reads from. Must run before `AssetPlugin` (i.e.
/// before `DefaultPlugins`). `asset_root` is the folder holding `assets/` (and `mods/`).
#[cfg(not(target_arch = "wasm32"))]
pub fn register_sources(app: &mut App, config: &GameConfig, mods: Option<PathBuf>) {
    use bevy::asset::io::AssetSourceBuilder;
    if let Some(mods) = mods.filter(|m| m.is_dir()) {
        let path = mods.to_string_lossy().into_owned();
        app.register_asset_source(
            MODS_SOURCE,
            AssetSourceBuilder::platform_default(&path, None),
        );
        app.insert_resource(ModsFolder(Some(mods)));
    }
    if let VariantChoice::Path(file) = &config.variant {
        // The file's own folder becomes a source, so the file loads (and hot-reloads) like any
        // asset without opening the asset server to arbitrary paths.
        let absolute = std::path::absolute(file).unwrap_or_else(|_| file.clone());
        let folder = absolute
            .parent()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|| ".".to_owned());
        app.register_asset_source(
            CLI_SOURCE,
            AssetSourceBuilder::platform_default(&folder, None),
        );
        app.insert_resource(CommandLineFile(Some(absolute)));
    }
}

pub fn plugin(app: &mut App) {
    app.init_asset::<VariantAsset>()
        .init_asset::<VariantManifest>()
        .init_asset_loader::<VariantLoader>()
        .init_asset_loader::<ManifestLoader<VariantManifest>>()
        .init_resource::<VariantLibrary>()
        .init_resource::<ModsFolder>()
        .init_resource::<CommandLineFile>()
        .init_resource::<GameConfig>()
        .init_resource::<Players>()
        .add_message::<NewGameRequested>()
        .add_systems(Startup, load_library)
        .add_systems(
            Update,
            (
                read_manifest,
                track_variants,
                #[cfg(not(target_arch = "wasm32"))]
                scan_mods,
                // Not in the menu: there the player chooses the game.
                start_chosen_game
                    .run_if(in_state(AppState::Loading).or_else(in_state(AppState::Failed))),
                reload_current_game.run_if(in_state(AppState::InGame)),
                start_requested_game,
            )
                .chain()
                .in_set(GameSystems::Variants),
        );
}

fn load_library(
    mut library: ResMut<VariantLibrary>,
    server: Res<AssetServer>,
    cli_file: Res<CommandLineFile>,
) {
    // In the browser the shipped files are taken from the game itself: the page's copies
    // (b/<build>/assets/variants) come from the same build, browsers have no mods folder and
    // no hot reload, and reading them would cost a fetch of the manifest, then of each file,
    // and the frames in between before the first game can start.
    if cfg!(target_arch = "wasm32") {
        library.entries = built_in_entries(Origin::Shipped);
        library.manifest_state = Some(Ok(()));
        return;
    }
    library.manifest = Some(server.load::<VariantManifest>(MANIFEST_PATH));
    if let Some(file) = cli_file.0.as_ref().and_then(|f| f.file_name()) {
        let path = format!("{CLI_SOURCE}://{}", file.to_string_lossy());
        library.add(&server, path, Origin::CommandLine);
    }
}

/// Turns the loaded manifest into library entries; if it cannot be read, falls back to the
/// variants compiled into the binary so the game still starts.
fn read_manifest(
    mut library: ResMut<VariantLibrary>,
    server: Res<AssetServer>,
    manifests: Res<Assets<VariantManifest>>,
    mut failed: MessageReader<bevy::asset::AssetLoadFailedEvent<VariantManifest>>,
) {
    if library.manifest_state.is_some() {
        failed.clear();
        return;
    }
    let Some(handle) = library.manifest.clone() else {
        return;
    };
    if let Some(manifest) = manifests.get(&handle) {
        for file in &manifest.variants {
            library.add(&server, format!("variants/{file}"), Origin::Shipped);
        }
        library.manifest_state = Some(Ok(()));
        return;
    }
    if let Some(event) = failed.read().find(|e| e.id == handle.id()) {
        let why = format!("{MANIFEST_PATH}: {}", event.error);
        error!("{why}; using the variants built into the game");
        library
            .notices
            .push(Notice::ManifestUnreadable { why: why.clone() });
        library.entries.extend(built_in_entries(Origin::Embedded));
        library.manifest_state = Some(Err(why));
    }
}

/// The variant files compiled into the game, in manifest order, read.
fn built_in_entries(origin: Origin) -> Vec<Entry> {
    boardcraft_rules::variant::shipped_files()
        .iter()
        .map(|(file, text)| {
            let path = format!("variants/{file}");
            // Read as the asset loader reads a file (its problems logged the same way).
            let asset = VariantAsset {
                result: Variant::from_ron(&path, text).map(Arc::new),
            };
            Entry {
                state: loaded_state(&asset),
                path,
                origin,
                handle: None,
            }
        })
        .collect()
}

/// An entry's state from its loaded asset (its problems logged).
fn loaded_state(asset: &VariantAsset) -> EntryState {
    let state = match &asset.result {
        Ok(v) => EntryState::Ready(v.clone()),
        Err(e) => EntryState::Broken(e.to_string()),
    };
    match &state {
        EntryState::Broken(why) => warn!("variant file rejected:\n{why}"),
        EntryState::Ready(v) => v.warnings.iter().for_each(|w| warn!("{w}")),
        EntryState::Loading => {}
    }
    state
}

/// Keeps each entry's state in step with its asset: loaded, reloaded, or failed.
fn track_variants(
    mut library: ResMut<VariantLibrary>,
    assets: Res<Assets<VariantAsset>>,
    mut events: MessageReader<AssetEvent<VariantAsset>>,
    mut failed: MessageReader<bevy::asset::AssetLoadFailedEvent<VariantAsset>>,
) {
    // A file that finished loading this frame is taken at once: its `Added` event only comes
    // at the end of the frame (PostUpdate), which would start the first game a frame later
    // (in the browser under a software renderer, a frame at start-up is a few hundred ms).
    for entry in &mut library.entries {
        if matches!(entry.state, EntryState::Loading)
            && let Some(asset) = entry.handle.as_ref().and_then(|h| assets.get(h))
        {
            entry.state = loaded_state(asset);
        }
    }
    for event in events.read() {
        let (AssetEvent::Added { id } | AssetEvent::Modified { id }) = *event else {
            continue;
        };
        // Added: taken above when it loaded (only a file still loading is new here).
        if matches!(event, AssetEvent::Added { .. })
            && library
                .entry_mut(id)
                .is_some_and(|e| !matches!(e.state, EntryState::Loading))
        {
            continue;
        }
        let Some(asset) = assets.get(id) else {
            continue;
        };
        let state = loaded_state(asset);
        if let Some(entry) = library.entry_mut(id) {
            entry.state = state;
        }
    }
    for event in failed.read() {
        let why = format!("{}: {}", event.path, event.error);
        warn!("variant file failed to load: {why}");
        if let Some(entry) = library.entry_mut(event.id) {
            entry.state = EntryState::Broken(why);
        }
    }
    // Two files may claim one name; the first (shipped before mods) wins. Say so once.
    let mut seen = std::collections::HashMap::new();
    let mut duplicates = Vec::new();
    for e in &library.entries {
        if let Some(v) = e.variant()
            && let Some(first) = seen.insert(v.name.clone(), e.path.clone())
        {
            duplicates.push(Notice::DuplicateName {
                first: first.clone(),
                second: e.path.clone(),
                name: v.name.clone(),
            });
            seen.insert(v.name.clone(), first);
        }
    }
    for d in duplicates {
        if !library.notices.contains(&d) {
            library.notices.push(d);
        }
    }
}

/// Native only: picks up variant files added to `mods/` while the game runs (changes to known
/// files arrive through the asset server's file watcher).
#[cfg(not(target_arch = "wasm32"))]
fn scan_mods(
    mut library: ResMut<VariantLibrary>,
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
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<String> = read
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| name.ends_with(".ron"))
        .collect();
    files.sort();
    for file in files {
        library.add(&server, format!("{MODS_SOURCE}://{file}"), Origin::Mod);
    }
}

/// Starts the game named by [`GameConfig`] once its variant is known, or explains why not.
fn start_chosen_game(
    library: Res<VariantLibrary>,
    config: Res<GameConfig>,
    mut start: MessageWriter<StartGame>,
    mut error: ResMut<StartError>,
    state: Res<State<AppState>>,
    mut next_state: ResMut<NextState<AppState>>,
    mut last_failure: Local<Option<String>>,
    mut last_started: Local<Option<u64>>,
) {
    let failure = match library.find(&config.variant) {
        Some(entry) => match &entry.state {
            EntryState::Ready(variant) => {
                // Start each version of the file once: if it cannot start (a bad `--after`),
                // wait for the file to change rather than retrying every frame.
                if *last_started == Some(variant.content_hash) {
                    return;
                }
                *last_started = Some(variant.content_hash);
                let path = entry.path.clone();
                // The table asked for on the command line, if the variant offers it.
                let variant = match config.players.map(|n| variant.for_players(n)) {
                    None => variant.clone(),
                    Some(Ok(seated)) => Arc::new(seated),
                    Some(Err(e)) => {
                        let failure = e.to_string();
                        error!("cannot start the game: {failure}");
                        error.0 = Some(failure.clone());
                        next_state.set(AppState::Failed);
                        *last_failure = Some(failure);
                        return;
                    }
                };
                // `--position`: read by the rules; a text that is not a position of this
                // variant is shown like any other reason the game cannot start.
                let from = match config
                    .position
                    .as_deref()
                    .map(|t| variant.position_from_text(t))
                {
                    None => None,
                    Some(Ok(position)) => Some(position),
                    Some(Err(e)) => {
                        let failure =
                            format!("--position is not a position of {}: {e}", variant.name);
                        error!("cannot start the game: {failure}");
                        error.0 = Some(failure.clone());
                        next_state.set(AppState::Failed);
                        *last_failure = Some(failure);
                        return;
                    }
                };
                start.write(StartGame {
                    from,
                    ..StartGame::new(variant.clone(), config.after.clone()).following(path)
                });
                *last_failure = None;
                return;
            }
            EntryState::Loading => return,
            EntryState::Broken(why) => why.clone(),
        },
        None if library.settled() => {
            let known: Vec<&str> = library.ready().map(|(_, v)| v.name.as_str()).collect();
            match &config.variant {
                VariantChoice::Name(name) => format!(
                    "no variant is called `{name}`; known variants: {}",
                    if known.is_empty() {
                        "none".to_owned()
                    } else {
                        known.join(", ")
                    }
                ),
                VariantChoice::Path(path) => format!("cannot load {}", path.display()),
            }
        }
        None => return,
    };
    if last_failure.as_ref() != Some(&failure) || *state.get() != AppState::Failed {
        error!("cannot start the game: {failure}");
        error.0 = Some(failure.clone());
        next_state.set(AppState::Failed);
        *last_failure = Some(failure);
    }
}

/// Hot reload of the variant being played: a fixed or changed file restarts the game with the
/// same moves (or from the start if they no longer replay); a broken one leaves the game as it
/// is and shows the error.
fn reload_current_game(
    mut library: ResMut<VariantLibrary>,
    game: Option<Res<Match>>,
    mut start: MessageWriter<StartGame>,
) {
    let (Some(game), Some(playing)) = (game, library.playing.clone()) else {
        return;
    };
    let Some(entry) = library.entries.iter().find(|e| e.path == playing) else {
        return;
    };
    let EntryState::Ready(variant) = &entry.state else {
        return;
    };
    if variant.content_hash == game.variant.content_hash {
        return;
    }
    // The same table: the reloaded file at the game's seat count.
    let variant = seated(
        variant,
        boardcraft_rules::Position::seat_count(&game.position),
    );
    let line = game.line();
    // A game started from a position (`--position`) keeps it: its text read by the new rules
    // (or, if the new rules cannot read it, the variant's start).
    let from = (game.start.to_text() != game.variant.new_game().to_text())
        .then(|| variant.position_from_text(&game.start.to_text()).ok())
        .flatten();
    let mut position = from.clone().unwrap_or_else(|| variant.new_game());
    // The same game goes on: its moves, and its resignation or decided end if one ended it.
    let (after, resigned, decided) = if replay(&mut position, &line).is_ok() {
        library.notices.push(Notice::Replayed {
            path: playing.clone(),
        });
        (line, game.resigned, game.decided)
    } else {
        library.notices.push(Notice::Restarted {
            path: playing.clone(),
        });
        (String::new(), None, None)
    };
    info!("{playing} reloaded");
    start.write(StartGame {
        from,
        resigned,
        decided,
        ..StartGame::new(variant, after)
    });
}

/// Starts the game the menu asked for: the players take their seats, the variant becomes the
/// one the game follows for hot reload, and the game's choice (for retries, should it fail).
fn start_requested_game(
    mut requests: MessageReader<NewGameRequested>,
    library: Res<VariantLibrary>,
    mut config: ResMut<GameConfig>,
    mut start: MessageWriter<StartGame>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    let Some(variant) = library
        .entries
        .iter()
        .find(|e| e.path == request.path)
        .and_then(Entry::variant)
        .cloned()
    else {
        warn!(
            "cannot start {}: it is not a playable variant",
            request.path
        );
        return;
    };
    config.variant = VariantChoice::Name(variant.name.clone());
    config.after.clear();
    config.position = None;
    start.write(
        StartGame::new(variant, String::new())
            .with_players(request.players.clone())
            .following(request.path.clone()),
    );
}
