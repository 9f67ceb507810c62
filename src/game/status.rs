//! A plain-text summary of the game (state, variant, moves played, side to move, last move,
//! thinking side, result, variants loaded, how the computer's searches were sliced) for observers outside the ECS. The browser build publishes it as
//! `data-*` attributes of the page's `<body>` (the loading indicator and the browser test read
//! them); computing it here keeps that logic shared and testable headless.
use bevy::prelude::*;
use boardcraft_rules::Position;

use crate::{
    game::computer::{AiThinking, SearchStats},
    game::match_state::{AppState, Match, StartError, TurnPhase},
    game::variants::VariantLibrary,
};

/// The game as text. Changes only when something in it changes (so observers can watch
/// `is_changed`).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct GameStatus {
    /// `loading`, `in-game` or `failed`.
    pub app_state: &'static str,
    /// The variant's name, once a game is on.
    pub variant: String,
    /// Moves played so far (`--after` moves included).
    pub ply: usize,
    /// `White` or `Black` while the game goes on; empty once it is over.
    pub to_move: String,
    /// The last move in the game's notation; empty before the first.
    pub last_move: String,
    /// Every move so far, in notation, separated by spaces (what `--after` accepts).
    pub line: String,
    /// `ready`, `animating` or `game-over`.
    pub phase: &'static str,
    /// The side whose computer player is searching; empty otherwise.
    pub thinking: String,
    /// The result (`White wins: …`, `draw: …`); empty while the game goes on.
    pub outcome: String,
    /// Why the game cannot start; empty otherwise.
    pub error: String,
    /// Variant files loaded and playable, and loaded but rejected (the menu lists both).
    pub variants: usize,
    pub broken_variants: usize,
    /// Computer searches finished, the longest slice of any of them (ms: the longest the
    /// computer held the thread; in the browser, the page), and the last one's time (ms).
    pub searches: u32,
    pub longest_slice_ms: u64,
    pub last_search_ms: u64,
}

impl GameStatus {
    /// The fields as `(name, value)` pairs; the page's attribute is `data-<name>`.
    pub fn fields(&self) -> [(&'static str, String); 15] {
        [
            ("app-state", self.app_state.to_owned()),
            ("variant", self.variant.clone()),
            ("ply", self.ply.to_string()),
            ("to-move", self.to_move.clone()),
            ("last-move", self.last_move.clone()),
            ("line", self.line.clone()),
            ("phase", self.phase.to_owned()),
            ("thinking", self.thinking.clone()),
            ("outcome", self.outcome.clone()),
            ("error", self.error.clone()),
            ("variants", self.variants.to_string()),
            ("broken-variants", self.broken_variants.to_string()),
            ("searches", self.searches.to_string()),
            ("longest-slice-ms", self.longest_slice_ms.to_string()),
            ("last-search-ms", self.last_search_ms.to_string()),
        ]
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<GameStatus>()
        .add_systems(PostUpdate, update_status);
}

fn update_status(
    mut status: ResMut<GameStatus>,
    state: Res<State<AppState>>,
    phase: Option<Res<State<TurnPhase>>>,
    game: Option<Res<Match>>,
    thinking: Res<AiThinking>,
    error: Res<StartError>,
    library: Res<VariantLibrary>,
    searches: Res<SearchStats>,
) {
    let mut next = GameStatus {
        app_state: match state.get() {
            AppState::Loading => "loading",
            AppState::InGame => "in-game",
            AppState::Failed => "failed",
            AppState::Menu => "menu",
            AppState::Learn => "learn",
        },
        phase: match phase.map(|p| *p.get()) {
            Some(TurnPhase::Ready) => "ready",
            Some(TurnPhase::Animating) => "animating",
            Some(TurnPhase::GameOver) => "game-over",
            None => "",
        },
        thinking: thinking.side.map(|s| s.to_string()).unwrap_or_default(),
        error: error.0.clone().unwrap_or_default(),
        variants: library.ready().count(),
        broken_variants: library.broken().count(),
        searches: searches.searches,
        // Whole milliseconds round up: a slice that ran at all shows as at least 1.
        longest_slice_ms: searches.longest_slice.as_micros().div_ceil(1000) as u64,
        last_search_ms: searches.last_elapsed.as_millis() as u64,
        ..default()
    };
    if let Some(game) = game {
        next.variant = game.variant.name.clone();
        next.ply = game.history.len();
        next.last_move = game
            .history
            .last()
            .map(|m| m.notation.clone())
            .unwrap_or_default();
        next.line = game.line();
        match game.outcome() {
            Some(outcome) => next.outcome = outcome.to_string(),
            None => next.to_move = game.position.seat_name(game.position.side_to_move()),
        }
    }
    status.set_if_neq(next);
}
