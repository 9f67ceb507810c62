//! The single source of truth: the game being played ([`Match`]), and the only system that
//! changes it ([`apply_requests`]).
//!
//! Data flows one way: input or the AI write [`MoveRequested`]; this module asks the rules
//! whether the move is legal, plays it and writes [`MoveApplied`]; the view (pieces, animation,
//! sound, UI) reacts to that. A new game arrives as [`StartGame`] and leaves as [`GameStarted`]:
//! every way of starting one (the first game, the menu, a rematch, a loaded save, a hot
//! reload, an online game, a Learn exercise, an archived game) sends that one message, and
//! [`start_games`] alone sets the seats ([`Players`]), the library entry the game follows
//! ([`VariantLibrary::playing`]), the position and the [`TurnPhase`]. Going back to the game
//! in progress from the menu is [`ContinueGame`].
//! Taking moves back and forth ([`UndoRequested`], [`RedoRequested`]) and resigning
//! ([`ResignRequested`]) are changes of the game too, so they are handled here as well; a
//! position set without playing a move is announced with [`PositionReset`].
use std::sync::Arc;

use bevy::prelude::*;
use boardcraft_rules::{
    AnyEffect, AnyMove, AnyPosition, EndReason, Outcome, Places, Position, Seat, Variant, position,
};

use crate::{
    GameSystems,
    game::{config::Players, review::Review, variants::VariantLibrary},
};

/// Where the app is: waiting for the variant library, in the main menu, playing, or unable to
/// start the game.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AppState {
    #[default]
    Loading,
    /// The main menu (`--menu`, or opened from a game, which keeps the game to return to).
    Menu,
    InGame,
    /// The Learn screen: courses and puzzles (a lesson step or puzzle is played `InGame`).
    Learn,
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
    /// The side that played it.
    pub side: Seat,
    pub mv: AnyMove,
    /// The move in the game's notation.
    pub notation: String,
    pub effect: AnyEffect,
}

/// The game being played: the rules state and its history. Only the systems of this module
/// ([`apply_requests`], [`start_games`], [`take_back`]) write it.
#[derive(Resource, Clone, Debug)]
pub struct Match {
    pub variant: Arc<Variant>,
    /// The position before the first move of `history`.
    pub start: AnyPosition,
    pub position: AnyPosition,
    pub history: Vec<PlayedMove>,
    /// Moves taken back, the next one to replay last. Cleared when another move is played.
    pub redo: Vec<PlayedMove>,
    /// The side that resigned, if one did. Resignation ends the game without being a rule
    /// of it, so it lives here and not in the rules crate's [`Outcome`].
    pub resigned: Option<Seat>,
    /// An end decided outside the rules and the board: by the online server (a flag fall, a
    /// game abandoned and claimed, a draw agreed). Set only through [`GameDecided`].
    pub decided: Option<GameEnd>,
    /// Counts games started in this run, so stale requests (an AI answer for an earlier game)
    /// can be told apart.
    pub game_id: u64,
}

/// How a game ended: every seat's place, and what ended it (a rule of the game, a
/// resignation, the online server).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub places: Places,
    pub cause: EndCause,
}

impl GameEnd {
    /// The end of a two-seat game: `winner` won, or nobody did.
    pub fn two(winner: Option<Seat>, cause: EndCause) -> GameEnd {
        GameEnd {
            places: winner.map_or_else(|| Places::shared(2), |w| Places::win(w, 2)),
            cause,
        }
    }

    /// The seat alone in first place, if one is.
    pub fn winner(&self) -> Option<Seat> {
        self.places.winner()
    }

    /// The end of a game in `position` with its resignation and an end decided outside the
    /// rules (online). A resignation comes first (it can only come before the rules end the
    /// game); a decided end next (the server ends a game only while its rules have not); then
    /// the rules' outcome.
    pub fn of(
        position: &AnyPosition,
        resigned: Option<Seat>,
        decided: Option<GameEnd>,
    ) -> Option<GameEnd> {
        if let Some(seat) = resigned {
            return Some(GameEnd {
                places: position.places_after_resignation(seat),
                cause: EndCause::Resigned(seat),
            });
        }
        if decided.is_some() {
            return decided;
        }
        position.outcome().map(|o| GameEnd {
            places: o.places,
            cause: EndCause::Rules(o.reason),
        })
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndCause {
    /// The rules ended the game (see [`EndReason`] for each rule).
    Rules(EndReason),
    /// This side resigned.
    Resigned(Seat),
    /// Online: this side's clock ran out.
    Timeout(Seat),
    /// Online: this side left the game and the opponent claimed it after the grace period.
    Abandoned(Seat),
    /// Online: both players agreed to a draw.
    DrawAgreed,
    /// Online: the game ended before both sides made two moves (a player left or ran out of
    /// time early): nobody wins and the ratings do not change.
    Aborted,
}

impl Match {
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    /// The end of the game, if it is over: a resignation, or the rules' outcome.
    pub fn end(&self) -> Option<GameEnd> {
        GameEnd::of(&self.position, self.resigned, self.decided)
    }

    /// The phase a game in this state waits in (when no move is being animated).
    pub fn resting_phase(&self) -> TurnPhase {
        if self.end().is_some() {
            TurnPhase::GameOver
        } else {
            TurnPhase::Ready
        }
    }

    /// The side to move after `ply` plies of the history.
    pub fn side_at(&self, ply: usize) -> Seat {
        self.history
            .get(ply)
            .map_or_else(|| self.position.side_to_move(), |m| m.side)
    }

    /// The position after the first `ply` moves of the history (replayed from the start
    /// through the rules; `ply` beyond the history gives the current position).
    pub fn position_at(&self, ply: usize) -> AnyPosition {
        if ply >= self.history.len() {
            return self.position.clone();
        }
        let mut position = self.start.clone();
        for played in &self.history[..ply] {
            if let Err(e) = position.play(&played.mv) {
                // The history was played through the rules, so this cannot happen; say so
                // loudly rather than show a wrong board.
                error!("history does not replay at {}: {e}", played.notation);
                break;
            }
        }
        position
    }

    /// How many plies one undo takes back: one, and more while that leaves a computer side to
    /// move (so against the computer an undo returns to the human's last turn). 0 when there is
    /// nothing to take back; a resignation is taken back first (see [`UndoRequested`]).
    /// An online game takes moves back only through the server (a takeback request): 0.
    pub fn undo_plies(&self, players: &Players) -> usize {
        let len = self.history.len();
        if len == 0 || self.resigned.is_some() || players.any_remote() {
            return 0;
        }
        let any_human = players.any_human();
        let mut n = 1;
        while any_human && n < len && !players.of(self.side_at(len - n)).is_human() {
            n += 1;
        }
        n
    }

    /// How many plies one redo replays: one, and more while that leaves a computer side to
    /// move with moves still to replay.
    pub fn redo_plies(&self, players: &Players) -> usize {
        let len = self.redo.len();
        if len == 0 || players.any_remote() {
            return 0;
        }
        let any_human = players.any_human();
        let mut n = 1;
        // After n replays, the next move to replay is redo[len - 1 - n], played by its side.
        while any_human && n < len && !players.of(self.redo[len - 1 - n].side).is_human() {
            n += 1;
        }
        n
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
    /// The position the game starts from (`--position`, a puzzle); the variant's start
    /// position when `None`.
    pub from: Option<AnyPosition>,
    pub after: String,
    /// The side that had resigned (a loaded save): the game starts over. Ignored when the
    /// moves of `after` already end the game by its rules, as a resignation then is.
    pub resigned: Option<Seat>,
    /// An end decided outside the rules (a loaded save of an online game that ended on time,
    /// by abandonment or by an agreed draw). Ignored, like `resigned`, when the game had ended
    /// otherwise.
    pub decided: Option<GameEnd>,
    /// Who plays each side; `None` keeps the seats as they are (a rematch, a hot reload).
    pub players: Option<Players>,
    /// Which entry of the variant library the game follows for hot reload.
    pub follows: Follows,
}

/// The library entry a started game follows ([`VariantLibrary::playing`]): a changed file
/// restarts the game with the same moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Follows {
    /// The entry followed so far (a rematch, a hot reload of that entry).
    #[default]
    Same,
    /// The entry at this asset path.
    Entry(String),
    /// None: the game is not restarted when a variant file changes (a Learn exercise, whose
    /// position is not the variant's).
    Nothing,
}

impl StartGame {
    /// A game of `variant` after the moves `after`, nobody having resigned, with the seats and
    /// the followed library entry as they are.
    pub fn new(variant: Arc<Variant>, after: impl Into<String>) -> Self {
        StartGame {
            variant,
            from: None,
            after: after.into(),
            resigned: None,
            decided: None,
            players: None,
            follows: Follows::Same,
        }
    }

    /// The same request with these players in the seats.
    pub fn with_players(self, players: Players) -> Self {
        StartGame {
            players: Some(players),
            ..self
        }
    }

    /// The same request, the game following the library entry at `path`.
    pub fn following(self, path: impl Into<String>) -> Self {
        StartGame {
            follows: Follows::Entry(path.into()),
            ..self
        }
    }

    /// A game of `variant` from the position `from` (read from its text by the rules).
    pub fn from_position(variant: Arc<Variant>, from: AnyPosition) -> Self {
        StartGame {
            from: Some(from),
            ..StartGame::new(variant, String::new())
        }
    }
}

/// Back from the menu to the game in progress, in the phase it rests in (waiting for a move,
/// or over).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ContinueGame;

/// A game was started (or restarted); the view rebuilds the board from [`Match`].
#[derive(Message, Clone, Debug)]
pub struct GameStarted {
    pub game_id: u64,
}

/// Take back moves: against the computer, back to the human's last turn (see
/// [`Match::undo_plies`]). After a resignation, the first undo takes back the resignation.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct UndoRequested;

/// Replay moves taken back (see [`Match::redo_plies`]).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct RedoRequested;

/// `side` resigns the current game.
#[derive(Message, Clone, Copy, Debug)]
pub struct ResignRequested {
    pub side: Seat,
}

/// The online server ended the game outside its rules (time, abandonment, agreed draw): see
/// [`Match::decided`]. Ignored when the game is already over.
#[derive(Message, Clone, Copy, Debug)]
pub struct GameDecided(pub GameEnd);

/// The game's position was set without playing a move (undo, redo): any animation is
/// cancelled and the view rebuilds from [`Match`].
#[derive(Message, Clone, Copy, Debug)]
pub struct PositionReset {
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
        .add_message::<ContinueGame>()
        .add_message::<GameStarted>()
        .add_message::<UndoRequested>()
        .add_message::<RedoRequested>()
        .add_message::<ResignRequested>()
        .add_message::<GameDecided>()
        .add_message::<PositionReset>()
        .init_resource::<Players>()
        .add_systems(
            Update,
            (
                start_games,
                (continue_game, apply_requests, take_back).run_if(resource_exists::<Match>),
            )
                .chain()
                .in_set(GameSystems::Rules),
        )
        .add_systems(
            Update,
            enter_first_game
                .run_if(in_state(AppState::Loading))
                .after(GameSystems::Rules)
                .before(GameSystems::Rebuild),
        );
}

/// The first game (or the reason it cannot start) takes over in the frame it starts, instead
/// of at the next frame's `StateTransition`: the frame in between would draw a loading screen
/// nobody needs, and in the browser that frame (its render, the GPU's work on it) delayed the
/// first frame of the game by 0.6–1.0 s. Later state changes keep Bevy's usual timing.
fn enter_first_game(world: &mut World) {
    if !matches!(
        *world.resource::<NextState<AppState>>(),
        NextState::Unchanged
    ) {
        world.run_schedule(StateTransition);
    }
}

/// Starts the newest requested game: the only system that sets up a game. When its moves do
/// not replay, nothing changes but the error ([`AppState::Failed`]).
fn start_games(
    mut commands: Commands,
    mut requests: MessageReader<StartGame>,
    current: Option<Res<Match>>,
    mut players: ResMut<Players>,
    library: Option<ResMut<VariantLibrary>>,
    mut started: MessageWriter<GameStarted>,
    mut app_state: ResMut<NextState<AppState>>,
    mut phase: ResMut<NextState<TurnPhase>>,
    mut error: ResMut<StartError>,
) {
    let Some(request) = requests.read().last() else {
        return;
    };
    // The table: the variant's table for the players asked for, when it offers one; without
    // players (a rematch, a hot reload) the variant's table as it comes, the seated players
    // fitted to it.
    let variant = match &request.players {
        Some(asked) => seated(&request.variant, asked.count()),
        None => request.variant.clone(),
    };
    let seats = request.players.clone().unwrap_or_else(|| players.clone());
    let start = request.from.clone().unwrap_or_else(|| variant.new_game());
    let seats = seats.fitted(start.seat_count());
    let mut position = start.clone();
    let history = match replay(&mut position, &request.after) {
        Ok(history) => history,
        Err(e) => {
            let message = format!(
                "cannot play the moves given with --after in {}: {e}",
                variant.name
            );
            error!("{message}");
            error.0 = Some(message);
            app_state.set(AppState::Failed);
            return;
        }
    };
    let game_id = current.map_or(1, |m| m.game_id + 1);
    // As in play: a side may resign only a game the rules have not ended.
    let resigned = request.resigned.filter(|_| !position.is_game_over());
    let decided = request
        .decided
        .filter(|_| !position.is_game_over() && resigned.is_none());
    let game = Match {
        variant,
        start,
        position,
        history,
        redo: Vec::new(),
        resigned,
        decided,
        game_id,
    };
    let game_over = game.end().is_some();
    commands.insert_resource(game);
    // Written only when they change, so that systems watching the seats see real changes.
    if *players != seats {
        *players = seats;
    }
    if let Some(mut library) = library {
        match &request.follows {
            Follows::Same => {}
            Follows::Entry(path) => library.playing = Some(path.clone()),
            Follows::Nothing => library.playing = None,
        }
    }
    error.0 = None;
    app_state.set(AppState::InGame);
    // A sub-state keeps its value while its source stays put, so reset it explicitly.
    phase.set(if game_over {
        TurnPhase::GameOver
    } else {
        TurnPhase::Ready
    });
    started.write(GameStarted { game_id });
    info!(
        "new game: {} for {} (game {game_id})",
        request.variant.name,
        players.count()
    );
}

/// `variant` at its table of `seats` seats, if it offers one; else as it is.
pub fn seated(variant: &Arc<Variant>, seats: usize) -> Arc<Variant> {
    if variant.players() == seats {
        return variant.clone();
    }
    variant
        .with_players(seats)
        .map_or_else(|| variant.clone(), Arc::new)
}

/// Back to the game in progress: the app shows it again, in the phase it rests in (a sub-state
/// starts at its default when its source state is entered, so the phase is set with it).
fn continue_game(
    mut requests: MessageReader<ContinueGame>,
    game: Res<Match>,
    mut app_state: ResMut<NextState<AppState>>,
    mut phase: ResMut<NextState<TurnPhase>>,
) {
    if requests.read().count() == 0 {
        return;
    }
    app_state.set(AppState::InGame);
    phase.set(game.resting_phase());
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
        let side = position.side_to_move();
        let effect = position
            .play(&mv)
            .map_err(|e| position::NotationError::illegal(token, e.reason))?;
        history.push(PlayedMove {
            side,
            mv,
            notation,
            effect,
        });
    }
    Ok(history)
}

/// The only system that plays moves: plays the first acceptable request of the frame.
/// Requests are accepted only while the game waits for a move and shows the live position
/// (not while the player reviews earlier positions).
fn apply_requests(
    mut requests: MessageReader<MoveRequested>,
    mut game: ResMut<Match>,
    review: Option<Res<Review>>,
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
        } else if review.as_ref().is_some_and(|r| !r.is_live()) {
            Some("reviewing an earlier position".to_owned())
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
                    side: before.side_to_move(),
                    mv: request.mv.clone(),
                    notation,
                    effect,
                };
                game.history.push(played.clone());
                // A new move starts a new line: the moves taken back are gone.
                game.redo.clear();
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

/// Undo, redo and resignation: changes of the game that play no move. Undo and redo set the
/// position from the history (replayed through the rules), cancel whatever was animating or
/// thinking for the old position (the AI drops a search whose ply no longer matches) and ask
/// the view to rebuild.
fn take_back(
    mut undo: MessageReader<UndoRequested>,
    mut redo: MessageReader<RedoRequested>,
    mut resign: MessageReader<ResignRequested>,
    mut decided: MessageReader<GameDecided>,
    mut game: ResMut<Match>,
    players: Res<Players>,
    phase: Option<Res<State<TurnPhase>>>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
    mut reset: MessageWriter<PositionReset>,
) {
    let undos = undo.read().count();
    let redos = redo.read().count();
    let resignation = resign.read().last().copied();
    let decision = decided.read().last().copied();
    // Only while a game is on (not in the menu, where the phase does not exist).
    let Some(phase) = phase.map(|p| *p.get()) else {
        return;
    };
    let mut changed = false;
    for _ in 0..undos {
        if game.resigned.take().is_some() {
            next_phase.set(game.resting_phase());
            continue;
        }
        let n = game.undo_plies(&players);
        if n == 0 {
            continue;
        }
        let keep = game.history.len() - n;
        let position = game.position_at(keep);
        let taken = game.history.split_off(keep);
        game.redo.extend(taken.into_iter().rev());
        game.position = position;
        changed = true;
    }
    for _ in 0..redos {
        if game.resigned.is_some() {
            continue;
        }
        for _ in 0..game.redo_plies(&players) {
            let Some(played) = game.redo.pop() else {
                break;
            };
            if let Err(e) = game.position.play(&played.mv) {
                error!("cannot replay {}: {e}", played.notation);
                game.redo.clear();
                break;
            }
            game.history.push(played);
            changed = true;
        }
    }
    if changed {
        next_phase.set(game.resting_phase());
        reset.write(PositionReset {
            game_id: game.game_id,
        });
    }
    // An online game ends by the server's word only (the session forwards the resignation,
    // and the board shows the end the server sends back: at a table of more than two the
    // others may play on).
    if let Some(ResignRequested { side }) = resignation
        && game.end().is_none()
        && phase != TurnPhase::GameOver
        && !players.any_remote()
    {
        info!("{side} resigns");
        game.resigned = Some(side);
        next_phase.set(TurnPhase::GameOver);
    }
    if let Some(GameDecided(end)) = decision
        && game.end().is_none()
    {
        info!("the game is decided: {end:?}");
        game.decided = Some(end);
        // An animation still running ends in the resting phase, which is now GameOver.
        if phase != TurnPhase::Animating {
            next_phase.set(TurnPhase::GameOver);
        }
    }
}
