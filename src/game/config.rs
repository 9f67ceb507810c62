//! How a game is set up: the command line of the game binary (in the browser, the page URL's
//! query string, read by the same definition) and the resources it becomes.
use std::{path::PathBuf, str::FromStr};

use bevy::prelude::*;
use boardcraft_rules::Seat;

use crate::settings::Language;

/// Who plays a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    Human,
    Computer(Level),
    /// A person playing through the online server: their moves arrive from it (see
    /// [`crate::online`]). Never chosen in the menu or on the command line.
    Remote,
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
            PlayerKind::Remote => "online",
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

/// Who plays each seat, in turn order: two to six seats. The two-seat games are the case of
/// two; seats 0 and 1 are White and Black there.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Players {
    seats: Vec<PlayerKind>,
}

impl Players {
    /// The players of a two-seat game.
    pub fn two(white: PlayerKind, black: PlayerKind) -> Self {
        Players {
            seats: vec![white, black],
        }
    }

    /// The players of the seats in turn order; `None` for fewer than two or more than
    /// [`Seat::MAX`].
    pub fn new(seats: Vec<PlayerKind>) -> Option<Self> {
        (2..=Seat::MAX)
            .contains(&seats.len())
            .then_some(Players { seats })
    }

    /// How many seats are filled.
    pub fn count(&self) -> usize {
        self.seats.len()
    }

    /// An online game: a seat (or, for a spectator, every seat) plays through the server.
    pub fn any_remote(&self) -> bool {
        self.seats.contains(&PlayerKind::Remote)
    }

    /// Whether a person plays any seat at this screen.
    pub fn any_human(&self) -> bool {
        self.seats.iter().any(|k| k.is_human())
    }

    /// The seats played by people at this screen.
    pub fn humans(&self) -> impl Iterator<Item = Seat> + '_ {
        self.iter().filter(|(_, k)| k.is_human()).map(|(s, _)| s)
    }

    /// Who plays `seat`; a seat beyond the table is played like the last one.
    pub fn of(&self, seat: Seat) -> PlayerKind {
        let i = seat.index().min(self.seats.len() - 1);
        self.seats[i]
    }

    /// Puts `kind` in `seat` (a seat beyond the table is ignored).
    pub fn set(&mut self, seat: Seat, kind: PlayerKind) {
        if let Some(k) = self.seats.get_mut(seat.index()) {
            *k = kind;
        }
    }

    /// Every seat and who plays it, in turn order.
    pub fn iter(&self) -> impl Iterator<Item = (Seat, PlayerKind)> + '_ {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, &k)| (Seat::at(i), k))
    }

    /// These players at a table of `n` seats: the seats there are keep their players, a new
    /// seat is played like the last seat after the first (so "you against the computer" stays
    /// that at a larger table).
    pub fn fitted(&self, n: usize) -> Players {
        let n = n.clamp(2, Seat::MAX);
        let mut seats = self.seats.clone();
        let filler = *seats.last().expect("at least two seats");
        seats.resize(n, filler);
        Players { seats }
    }
}

impl Default for Players {
    fn default() -> Self {
        Players::two(PlayerKind::Human, PlayerKind::Computer(Level::Amateur))
    }
}

/// The game to start once the variant library has loaded.
#[derive(Resource, Clone, Debug)]
pub struct GameConfig {
    pub variant: VariantChoice,
    /// Moves played (without animation) before the game is shown, in the game's notation.
    pub after: String,
    /// The position the game starts from, as text (the rules' position text); the variant's
    /// start position when `None`. `after` is played from it.
    pub position: Option<String>,
    /// The table asked for (`--players`, `--seats`): the variant is played by that many, or
    /// the game cannot start; `None` for the variant's first table.
    pub players: Option<usize>,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            variant: VariantChoice::Name(DEFAULT_VARIANT.to_owned()),
            after: String::new(),
            position: None,
            players: None,
        }
    }
}

/// The variant started when none is named.
pub const DEFAULT_VARIANT: &str = "ugolki-hg-3x3";

/// The game binary's command line. The browser build reads the same options from the page
/// URL's query string ([`QueryOptions::parse`]), so an option added here works in both.
#[derive(clap::Parser, Debug, Clone)]
#[command(
    name = "boardcraft",
    version,
    about = "Classic abstract board games: Ugolki, Halma, Focus, GIPF"
)]
pub struct Cli {
    /// Start a game of this variant: a name (from assets/variants or mods/) or a path to a
    /// variant file. Without it (and without --after) the game opens the main menu.
    #[arg(long)]
    pub variant: Option<String>,
    /// Who plays White: human, novice, amateur, strong or master.
    #[arg(long, default_value = "human")]
    pub white: PlayerKind,
    /// Who plays Black: human, novice, amateur, strong or master.
    #[arg(long, default_value = "amateur")]
    pub black: PlayerKind,
    /// How many seats the table has, for variants that offer several (Chinese checkers: 2, 3,
    /// 4 or 6); default: the variant's first.
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// Who plays each seat in turn order, comma-separated, e.g. `human,master,human`: sets the
    /// seat count too and overrides --white and --black.
    #[arg(long, value_delimiter = ',', value_name = "KINDS")]
    pub seats: Vec<PlayerKind>,
    /// Moves to play before the game is shown, e.g. "g2:e2 b7:d7".
    #[arg(long, default_value = "")]
    pub after: String,
    /// The position to start from, as text (docs/cli.md, "Positions as text"), e.g.
    /// "5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW5 w 0"; `--after` is played from it.
    #[arg(long)]
    pub position: Option<String>,
    /// Start in the top-down view.
    #[arg(long)]
    pub top_down: bool,
    /// How much the 3D view draws, kept like a choice made in the settings: `full`, `light`
    /// (no multisampling, no shadows) or `auto` (light where the graphics run on the
    /// processor); default: the stored setting.
    #[arg(long, value_enum)]
    pub graphics: Option<crate::settings::Graphics>,
    /// Open the main menu even with --variant (which then preselects that game there).
    #[arg(long)]
    pub menu: bool,
    /// Open Learn instead of starting a game; with a value, start that puzzle or lesson step:
    /// `puzzle:<id>`, `lesson:<id>:<step>` or a lesson id (`puzzles` opens the puzzles' list).
    #[arg(long, num_args = 0..=1, default_missing_value = "", value_name = "EXERCISE")]
    pub learn: Option<String>,
    /// The language of the interface: en or ru, kept like a choice made in the settings
    /// (default: the stored setting, else the system's language).
    #[arg(long, value_parser = parse_language)]
    pub lang: Option<Language>,
    /// Online play (`--server`, `--join`, `--invite` …).
    #[command(flatten)]
    pub online: OnlineOptions,
    /// Options that write files or measure the process: not in the browser.
    #[cfg(not(target_arch = "wasm32"))]
    #[command(flatten)]
    pub native: NativeOptions,
}

/// Online play from the command line (in the browser, from the page URL: `?join=<code>`).
/// See [`crate::online`].
#[derive(clap::Args, Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct OnlineOptions {
    /// The game server, e.g. http://127.0.0.1:8787 (default: that one on the desktop; in the
    /// browser, the server the page came from).
    #[arg(long)]
    pub server: Option<String>,
    /// Join the online game of this invite (its code or the whole invite link). A seat this
    /// player already holds (its token is kept in the data folder) is taken again.
    #[arg(long, value_name = "CODE")]
    pub join: Option<String>,
    /// Create an online game of --variant and invite a friend: the invite code and link are
    /// shown (and printed) while the game waits for them.
    #[arg(long)]
    pub invite: bool,
    /// With --invite: your colour, white, black or random.
    #[arg(long, default_value = "random", value_parser = ["white", "black", "random"])]
    pub color: String,
    /// With --invite: the time control, minutes + increment seconds (`5+3`), or `none`.
    #[arg(long, default_value = "none")]
    pub clock: String,
    /// Watch the online game with this id as a spectator.
    #[arg(long, value_name = "GAME")]
    pub watch: Option<String>,
    /// Open the lobby (Play online: quick pairing, open games, challenges) at the start.
    #[arg(long)]
    pub lobby: bool,
    /// With --lobby: wait in this quick-pairing pool once signed in, written as the server's
    /// `--pools` writes one: `variant minutes+seconds`, and ` xN` for a table of N seats
    /// (`chinese-checkers 5+3 x3`).
    #[arg(long, value_name = "POOL", requires = "lobby")]
    pub pool: Option<String>,
}

/// The options only the desktop binary has.
#[cfg(not(target_arch = "wasm32"))]
#[derive(clap::Args, Debug, Clone)]
pub struct NativeOptions {
    /// Render a few frames, save a screenshot of the window to this PNG file, and exit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Settled frames to render before the picture is checked (it is saved once two captures
    /// in a row are identical).
    #[arg(long, default_value_t = 16)]
    pub screenshot_frames: u32,
    /// The window's size in logical pixels, e.g. `390x844` to see the phone layout (default:
    /// 1280x800).
    #[arg(long, value_name = "WxH", value_parser = parse_window_size)]
    pub window_size: Option<(u32, u32)>,
    /// Run headless (no window) for this many frames of computer-vs-computer play with
    /// animations, then print the CPU time per frame.
    #[arg(long)]
    pub bench_frames: Option<u32>,
    /// Threads the computer searches with (default: the machine's cores − 1, at least 1; 1
    /// makes its play reproducible). The browser always uses one.
    #[arg(long, default_value_t = boardcraft_ai::default_threads())]
    pub threads: usize,
}

/// `WxH` for `--window-size`, each side 200 to 8000.
#[cfg(not(target_arch = "wasm32"))]
pub fn parse_window_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', '×'])
        .ok_or_else(|| format!("`{text}` is not a size such as 390x844"))?;
    let side = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (200..=8000).contains(n))
            .ok_or_else(|| format!("`{text}`: each side must be a number from 200 to 8000"))
    };
    Ok((side(w)?, side(h)?))
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

/// The graphics asked for on the command line (`--graphics`), applied over the stored settings.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct StartGraphics(pub Option<crate::settings::Graphics>);

/// Applies [`StartLanguage`] and [`StartGraphics`] (after Startup, where stored settings are
/// read).
pub fn apply_start_options(
    start: Res<StartLanguage>,
    graphics: Option<Res<StartGraphics>>,
    mut settings: ResMut<crate::settings::Settings>,
) {
    if let Some(language) = start.0 {
        settings.language = language;
    }
    if let Some(graphics) = graphics.and_then(|g| g.0) {
        settings.graphics = graphics;
    }
}

impl Cli {
    pub fn game_config(&self) -> GameConfig {
        GameConfig {
            variant: VariantChoice::parse(self.variant.as_deref().unwrap_or(DEFAULT_VARIANT)),
            after: self.after.clone(),
            position: self.position.clone().filter(|p| !p.trim().is_empty()),
            players: self.seat_count(),
        }
    }

    /// Whether the game opens the main menu rather than a game: a new player starts in the
    /// menu; `--variant` (or `--after`, for the default variant) starts that game directly,
    /// and `--menu` (or `--lobby`, a page of the menu) keeps the menu anyway.
    pub fn opens_menu(&self) -> bool {
        self.menu || self.online.lobby || (self.variant.is_none() && self.after.is_empty())
    }

    /// Who plays the seats: `--seats`, else White and Black (`--white`, `--black`) and the
    /// seats after them played like Black, at a table of `--players` seats.
    pub fn players(&self) -> Players {
        if let Some(players) = Players::new(self.seats.clone()) {
            return players;
        }
        Players::two(self.white, self.black).fitted(self.players.unwrap_or(2))
    }

    /// The seat count asked for on the command line, if any.
    pub fn seat_count(&self) -> Option<usize> {
        (self.seats.len() >= 2)
            .then_some(self.seats.len())
            .or(self.players)
    }
}

/// The command line read from `key=value` pairs (a page URL's query string, decoded):
/// `?variant=gipf-basic&black=master&top-down` means `--variant=gipf-basic --black=master
/// --top-down`. Which keys exist and which take a value comes from the [`Cli`] definition, so
/// every option of the game (but the desktop-only `NativeOptions`) works in the URL without
/// a second list.
#[derive(Debug, Clone)]
pub struct QueryOptions {
    pub cli: Cli,
    /// Keys that are not options, or flags with a value that is not yes/no: skipped.
    pub ignored: Vec<String>,
    /// The options did not parse (e.g. `white=wizard`): the defaults are used instead.
    pub error: Option<String>,
}

impl QueryOptions {
    pub fn parse(pairs: impl IntoIterator<Item = (String, String)>) -> QueryOptions {
        use clap::{CommandFactory, Parser};
        let (args, ignored) = query_args(&Cli::command(), pairs);
        match Cli::try_parse_from(args) {
            Ok(cli) => QueryOptions {
                cli,
                ignored,
                error: None,
            },
            Err(e) => QueryOptions {
                cli: Cli::parse_from(["boardcraft"]),
                ignored,
                error: Some(e.to_string()),
            },
        }
    }
}

/// Turns query pairs into the argument list `command` parses. A key names a long option
/// (`top_down` is accepted for `top-down`); an option that takes no value is given for an
/// empty value or yes/true/on/1 and left out for no/false/off/0. A key given twice counts
/// once, with its last value (as a later URL parameter overrides an earlier one).
pub fn query_args(
    command: &clap::Command,
    pairs: impl IntoIterator<Item = (String, String)>,
) -> (Vec<String>, Vec<String>) {
    let mut args = vec![command.get_name().to_owned()];
    let mut ignored = Vec::new();
    let mut seen: Vec<(String, String)> = Vec::new();
    for (key, value) in pairs {
        let key = key.replace('_', "-");
        seen.retain(|(k, _)| *k != key);
        seen.push((key, value));
    }
    for (key, value) in seen {
        let Some(arg) = command
            .get_arguments()
            .find(|a| a.get_long() == Some(key.as_str()))
        else {
            ignored.push(format!("`{key}` is not an option"));
            continue;
        };
        if arg.get_action().takes_values() {
            args.push(format!("--{key}={value}"));
            continue;
        }
        match value.to_ascii_lowercase().as_str() {
            "" | "1" | "true" | "yes" | "on" => args.push(format!("--{key}")),
            "0" | "false" | "no" | "off" => {}
            _ => ignored.push(format!("`{key}={value}`: a flag is on or off (true/false)")),
        }
    }
    (args, ignored)
}
