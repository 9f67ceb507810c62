//! The single source of truth: the game being played ([`Match`]), and the only system that
//! changes it ([`apply_requests`]).
//!
//! Data flows one way: input or the AI write [`MoveRequested`]; this module asks the rules
//! whether the move is legal, plays it and writes [`MoveApplied`]; the view (pieces, animation,
//! sound, UI) reacts to that. A new game arrives as [`StartGame`] and leaves as [`GameStarted`].
use std::sync::Arc;

use bevy::prelude::*;
use boardcraft_rules::{AnyEffect, AnyMove, AnyPosition, Outcome, Position, Variant, position};

use crate::GameSystems;

/// Where the app is: waiting for the variant library, playing, or unable to start the game.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AppState {
    #[default]
    Loading,
    InGame,
    /// The chosen variant cannot be played (broken file, unknown name, bad `--after`); the
    /// UI shows why. Fixing the file (hot reload) starts the game.
    Failed,
}

/// The turn cycle while a game is on.
#[derive(SubStates, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[source(AppState = AppState::InGame)]
pub enum TurnPhase {
    /// Waiting for a move from the side to move (a human or the computer).
    #[default]
    Ready,
    /// A played move is being animated; no new move is accepted.
    Animating,
    GameOver,
}

/// A move that was played, as the history keeps it.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub mv: AnyMove,
    /// The move in the game's notation.
    pub notation: String,
    pub effect: AnyEffect,
}

/// The game being played: the rules state and its history. Only [`apply_requests`] and
/// [`start_games`] write it.
#[derive(Resource, Clone, Debug)]
pub struct Match {
    pub variant: Arc<Variant>,
    /// The position before the first move of `history`.
    pub start: AnyPosition,
    pub position: AnyPosition,
    pub history: Vec<PlayedMove>,
    /// Counts games started in this run, so stale requests (an AI answer for an earlier game)
    /// can be told apart.
    pub game_id: u64,
}

impl Match {
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    /// The history in notation, moves separated by spaces (what `--after` accepts).
    pub fn line(&self) -> String {
        self.history
            .iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Ask for a move to be played in the current game.
#[derive(Message, Clone, Debug)]
pub struct MoveRequested {
    pub mv: AnyMove,
    /// The game and ply the move was chosen for; a request for another game or ply is stale
    /// and ignored.
    pub game_id: u64,
    pub ply: u32,
}

/// A move was played. `before` is the position it was played in (the view needs it to know,
/// e.g., what a lifted stack held).
#[derive(Message, Clone, Debug)]
pub struct MoveApplied {
    pub game_id: u64,
    pub before: AnyPosition,
    pub played: PlayedMove,
}

/// A request that was not played, and why (shown to the player; logged).
#[derive(Message, Clone, Debug)]
pub struct MoveRejected {
    pub reason: String,
}

/// Start a new game of `variant`, first playing `after` (in notation) without animation.
#[derive(Message, Clone, Debug)]
pub struct StartGame {
    pub variant: Arc<Variant>,
    pub after: String,
}

/// A game was started (or restarted); the view rebuilds the board from [`Match`].
#[derive(Message, Clone, Debug)]
pub struct GameStarted {
    pub game_id: u64,
}

/// Why the game cannot be shown, for the UI. Set together with [`AppState::Failed`].
#[derive(Resource, Clone, Debug, Default)]
pub struct StartError(pub Option<String>);

pub fn plugin(app: &mut App) {
    app.init_state::<AppState>()
        .add_sub_state::<TurnPhase>()
        .init_resource::<StartError>()
        .add_message::<MoveRequested>()
        .add_message::<MoveApplied>()
        .add_message::<MoveRejected>()
        .add_message::<StartGame>()
        .add_message::<GameStarted>()
        .add_systems(
            Update,
            (start_games, apply_requests.run_if(resource_exists::<Match>))
                .chain()
                .in_set(GameSystems::Rules),
        );
}

/// Starts the newest requested game.
fn start_games(
    mut commands: Commands,
    mut requests: MessageReader<StartGame>,
    current: Option<Res<Match>>,
    mut started: MessageWriter<GameStarted>,
    mut app_state: ResMut<NextState<AppState>>,
    mut phase: ResMut<NextState<TurnPhase>>,
    mut error: ResMut<StartError>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    let start = request.variant.new_game();
    let mut position = start.clone();
    let history = match replay(&mut position, &request.after) {
        Ok(history) => history,
        Err(e) => {
            let message = format!(
                "cannot play the moves given with --after in {}: {e}",
                request.variant.name
            );
            error!("{message}");
            error.0 = Some(message);
            app_state.set(AppState::Failed);
            return;
        }
    };
    let game_id = current.map_or(1, |m| m.game_id + 1);
    let game_over = position.is_game_over();
    commands.insert_resource(Match {
        variant: request.variant.clone(),
        start,
        position,
        history,
        game_id,
    });
    error.0 = None;
    app_state.set(AppState::InGame);
    // A sub-state keeps its value while its source stays put, so reset it explicitly.
    phase.set(if game_over {
        TurnPhase::GameOver
    } else {
        TurnPhase::Ready
    });
    started.write(GameStarted { game_id });
    info!("new game: {} (game {game_id})", request.variant.name);
}

/// Plays a line of moves, keeping each move's notation and effect.
pub fn replay(
    position: &mut AnyPosition,
    line: &str,
) -> Result<Vec<PlayedMove>, position::NotationError> {
    let mut history = Vec::new();
    for token in line.split_whitespace() {
        // Move numbers (`1.`, `2...`) are skipped, as `play_line` does.
        if token
            .trim_end_matches('.')
            .chars()
            .all(|c| c.is_ascii_digit())
        {
            continue;
        }
        let mv = position.parse_move(token)?;
        let notation = position.format_move(&mv);
        let effect = position
            .play(&mv)
            .map_err(|e| position::NotationError::illegal(token, e.why))?;
        history.push(PlayedMove {
            mv,
            notation,
            effect,
        });
    }
    Ok(history)
}

/// The only system that changes the rules state: plays the first acceptable request of the
/// frame. Requests are accepted only while the game waits for a move.
fn apply_requests(
    mut requests: MessageReader<MoveRequested>,
    mut game: ResMut<Match>,
    phase: Option<Res<State<TurnPhase>>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    mut applied: MessageWriter<MoveApplied>,
    mut rejected: MessageWriter<MoveRejected>,
) {
    let mut ready = phase.is_some_and(|p| *p.get() == TurnPhase::Ready);
    for request in requests.read() {
        let reason = if request.game_id != game.game_id {
            Some(format!("stale move for game {}", request.game_id))
        } else if request.ply != game.position.ply() {
            Some(format!(
                "stale move for ply {} (now {})",
                request.ply,
                game.position.ply()
            ))
        } else if !ready {
            Some("not accepting moves now".to_owned())
        } else {
            None
        };
        if let Some(reason) = reason {
            debug!("move request ignored: {reason}");
            rejected.write(MoveRejected { reason });
            continue;
        }
        let before = game.position.clone();
        let notation = before.format_move(&request.mv);
        match game.position.play(&request.mv) {
            Ok(effect) => {
                let played = PlayedMove {
                    mv: request.mv.clone(),
                    notation,
                    effect,
                };
                game.history.push(played.clone());
                applied.write(MoveApplied {
                    game_id: game.game_id,
                    before,
                    played,
                });
                // The animation plugin turns this into Ready or GameOver when it is done.
                next_phase.set(TurnPhase::Animating);
                ready = false;
            }
            Err(e) => {
                warn!("illegal move request: {e}");
                rejected.write(MoveRejected {
                    reason: e.to_string(),
                });
            }
        }
    }
}
