//! How a game is set up: the command line of the game binary and the resource it becomes.
use std::{path::PathBuf, str::FromStr};

use bevy::prelude::*;
use boardcraft_rules::Color;

use crate::settings::Language;

/// Who plays a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    Human,
    Computer(Level),
}

/// The computer's strength: the AI crate's four levels.
pub use boardcraft_ai::Level;

impl PlayerKind {
    pub fn is_human(self) -> bool {
        self == PlayerKind::Human
    }

    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Human => "human",
            PlayerKind::Computer(level) => level.name(),
        }
    }
}

impl FromStr for PlayerKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s.eq_ignore_ascii_case("human") {
            return Ok(PlayerKind::Human);
        }
        Level::ALL
            .into_iter()
            .find(|l| s.eq_ignore_ascii_case(l.name()))
            .map(PlayerKind::Computer)
            .ok_or_else(|| {
                format!("`{s}` is not a player: use human, novice, amateur, strong or master")
            })
    }
}

/// Which variant to play: a name from the manifest or the mods folder, or a file path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantChoice {
    Name(String),
    Path(PathBuf),
}

impl VariantChoice {
    /// Same reading as the CLI's `Variant::resolve`: anything that looks like a file is a path.
    pub fn parse(text: &str) -> Self {
        if text.ends_with(".ron") || text.contains('/') || text.contains(std::path::MAIN_SEPARATOR)
        {
            VariantChoice::Path(PathBuf::from(text))
        } else {
            VariantChoice::Name(text.to_owned())
        }
    }
}

/// The players of both sides.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Players {
    pub white: PlayerKind,
    pub black: PlayerKind,
}

impl Players {
    pub fn of(&self, side: Color) -> PlayerKind {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

impl Default for Players {
    fn default() -> Self {
        Players {
            white: PlayerKind::Human,
            black: PlayerKind::Computer(Level::Amateur),
        }
    }
}

/// The game to start once the variant library has loaded.
#[derive(Resource, Clone, Debug)]
pub struct GameConfig {
    pub variant: VariantChoice,
    /// Moves played (without animation) before the game is shown, in the game's notation.
    pub after: String,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            variant: VariantChoice::Name(DEFAULT_VARIANT.to_owned()),
            after: String::new(),
        }
    }
}

/// The variant started when none is named.
pub const DEFAULT_VARIANT: &str = "ugolki-hg-3x3";

/// The game binary's command line.
#[derive(clap::Parser, Debug, Clone)]
#[command(
    name = "boardcraft",
    version,
    about = "Classic abstract board games: Ugolki, Halma, Focus, GIPF"
)]
pub struct Cli {
    /// A variant name (from assets/variants or mods/) or a path to a variant file.
    #[arg(long, default_value = DEFAULT_VARIANT)]
    pub variant: String,
    /// Who plays White: human, novice, amateur, strong or master.
    #[arg(long, default_value = "human")]
    pub white: PlayerKind,
    /// Who plays Black: human, novice, amateur, strong or master.
    #[arg(long, default_value = "amateur")]
    pub black: PlayerKind,
    /// Moves to play before the game is shown, e.g. "g2:e2 b7:d7".
    #[arg(long, default_value = "")]
    pub after: String,
    /// Render a few frames, save a screenshot of the window to this PNG file, and exit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Settled frames to render before the picture is checked (it is saved once two captures
    /// in a row are identical).
    #[arg(long, default_value_t = 16)]
    pub screenshot_frames: u32,
    /// Start in the top-down view.
    #[arg(long)]
    pub top_down: bool,
    /// Run headless (no window) for this many frames of computer-vs-computer play with
    /// animations, then print the CPU time per frame.
    #[arg(long)]
    pub bench_frames: Option<u32>,
    /// Open the main menu instead of starting a game.
    #[arg(long)]
    pub menu: bool,
    /// The language of the interface: en or ru, kept like a choice made in the settings
    /// (default: the stored setting, else the system's language).
    #[arg(long, value_parser = parse_language)]
    pub lang: Option<Language>,
}

/// `en`/`ru` (or a locale such as `ru-RU`) for `--lang`; anything else is an error, not a
/// silent fallback.
pub fn parse_language(text: &str) -> Result<Language, String> {
    let language = Language::from_locale(text);
    let primary = text.split(['-', '_', '.']).next().unwrap_or_default();
    if primary.eq_ignore_ascii_case(language.code()) {
        Ok(language)
    } else {
        let codes: Vec<&str> = Language::ALL.iter().map(|l| l.code()).collect();
        Err(format!(
            "`{text}` is not a language of the game; use {}",
            codes.join(" or ")
        ))
    }
}

/// The language of the system (the user's locale) if the game speaks it, else English.
pub fn system_language() -> Language {
    sys_locale::get_locale().map_or(Language::default(), |l| Language::from_locale(&l))
}

/// `--lang`: the language for this run, applied over the stored settings once they are read.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct StartLanguage(pub Option<Language>);

/// Applies [`StartLanguage`] (after Startup, where stored settings are read).
pub fn apply_start_language(
    start: Res<StartLanguage>,
    mut settings: ResMut<crate::settings::Settings>,
) {
    if let Some(language) = start.0 {
        settings.language = language;
    }
}

impl Cli {
    pub fn game_config(&self) -> GameConfig {
        GameConfig {
            variant: VariantChoice::parse(&self.variant),
            after: self.after.clone(),
        }
    }

    pub fn players(&self) -> Players {
        Players {
            white: self.white,
            black: self.black,
        }
    }
}
