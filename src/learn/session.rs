//! Playing a lesson step or a puzzle. The exercise is an ordinary game started from its
//! position ([`StartGame::from_position`]); the player's moves go through the normal move flow
//! (input → [`MoveRequested`] → rules → [`MoveApplied`] → animation), and after each of them
//! this module asks `boardcraft_learn` how it went ([`content::judge`]):
//!
//! - solved: the progress is marked and the file's "right" text is shown;
//! - wrong: the file's "wrong" text is shown and the move is taken back, so the player can try
//!   again from the same position;
//! - on the way: the computer plays the reply the solver chose, as a move request like any
//!   other (so it is animated hop by hop).
//!
//! "Show the solution" restarts the exercise and plays its first solution line move by move
//! through the same flow. While an exercise is on, both seats are "human" (the computer
//! player stays out; the replies come from here) and the players chosen in the menu are put
//! back when the player leaves.
use bevy::prelude::*;
use boardcraft_rules::{AnyMove, Position, Seat};

use crate::{
    GameSystems,
    game::config::{PlayerKind, Players},
    game::match_state::{
        AppState, Follows, GameStarted, Match, MoveApplied, MoveRequested, PositionReset,
        StartGame, TurnPhase, UndoRequested,
    },
    learn::content::{self, Exercise, ExerciseId, Judgement, LearnLibrary},
    learn::progress::LearnProgress,
};

/// Start (or restart: "retry") a lesson step or a puzzle.
#[derive(Message, Clone, Debug)]
pub struct StartExercise(pub ExerciseId);

/// Restart the exercise and play its solution, move by move.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ShowSolution;

/// Leave the exercise for the Learn screen; the menu's players take their seats again.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct LeaveExercise;

/// Where the player is in the exercise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The player is to find the move(s).
    Trying,
    /// The last try was wrong; it is being taken back (the player tries again after that).
    Wrong,
    /// The goal was reached by the player.
    Solved,
    /// The solution is being played: `next` moves of it are requested so far.
    Showing { next: usize },
    /// The solution was played to its end.
    Shown,
}

/// What the player was last told about their moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feedback {
    /// A right move that does not finish the exercise yet: the opponent answers.
    GoOn,
    Right,
    Wrong,
    /// The move could not be judged (the solver's error, in its words).
    CannotCheck(String),
}

/// The exercise being played.
#[derive(Clone, Debug)]
pub struct Active {
    pub id: ExerciseId,
    pub exercise: Exercise,
    /// The side the player plays: the side to move in the start position.
    pub player: Seat,
    /// The game the exercise is played in, once it started.
    pub game_id: Option<u64>,
    pub progress: Progress,
    pub feedback: Option<Feedback>,
    /// The player asked for the hint.
    pub hint_shown: bool,
    /// It was solved in an earlier try or run.
    pub solved_before: bool,
    /// Tries judged wrong in this exercise so far.
    pub wrong_tries: u32,
    /// Why the last wrong first move was wrong (`boardcraft_learn`'s explanation), if known.
    pub why_wrong: Option<boardcraft_learn::progress::WhyWrong>,
    /// The computer's answer, to be played when the board is ready.
    pending_reply: Option<AnyMove>,
    /// A wrong try to take back when the board is ready.
    pending_undo: bool,
}

impl Active {
    /// The solution is being (or was) shown rather than played by the player.
    pub fn is_demonstration(&self) -> bool {
        matches!(self.progress, Progress::Showing { .. } | Progress::Shown)
    }
}

/// The exercise being played, if any; and the players to restore afterwards.
#[derive(Resource, Debug, Default)]
pub struct LearnSession {
    pub active: Option<Active>,
    /// The players as chosen in the menu before the exercise took the seats.
    saved_players: Option<Players>,
}

impl LearnSession {
    /// True while the solution is being shown (the player's input waits).
    pub fn is_demonstrating(&self) -> bool {
        self.active
            .as_ref()
            .is_some_and(|a| matches!(a.progress, Progress::Showing { .. }))
    }
}

/// Run condition: an exercise is on (the game's own panel and game-over dialog step aside).
pub fn in_exercise(session: Option<Res<LearnSession>>) -> bool {
    session.is_some_and(|s| s.active.is_some())
}

/// Run condition: the player may move (not while the solution is shown).
pub fn accepts_player_moves(session: Option<Res<LearnSession>>) -> bool {
    session.is_none_or(|s| !s.is_demonstrating())
}

/// `--learn [exercise]`: the exercise to start once the lessons and puzzles have loaded, or
/// (`--learn puzzles`) the list to open.
#[derive(Resource, Clone, Debug, Default)]
pub struct OpenExercise {
    pub exercise: Option<ExerciseId>,
    /// Open the puzzles rather than the courses.
    pub puzzles: bool,
}

/// Opens Learn at start-up instead of a game (`--learn`, `?learn` in the page URL); with an
/// exercise key (`puzzle:<id>`, `lesson:<id>:<step>`, a lesson id) that exercise starts as soon
/// as it is loaded (an unknown one leaves the Learn screen open, with a warning).
pub fn open_learn(app: &mut App, exercise: &str) {
    app.insert_state(AppState::Learn);
    let text = exercise.trim();
    if text == "puzzles" || text == "courses" {
        app.insert_resource(OpenExercise {
            exercise: None,
            puzzles: text == "puzzles",
        });
        return;
    }
    let id = ExerciseId::from_key(text);
    if id.is_none() && !text.is_empty() {
        warn!("--learn {exercise}: not a puzzle or lesson step (puzzle:<id>, lesson:<id>:<step>)");
    }
    app.insert_resource(OpenExercise {
        exercise: id,
        puzzles: false,
    });
}

/// Starts the `--learn` exercise once the library has settled.
fn start_opened_exercise(
    mut open: ResMut<OpenExercise>,
    library: Res<LearnLibrary>,
    mut start: MessageWriter<StartExercise>,
    mut next_state: ResMut<NextState<AppState>>,
) {
    if open.exercise.is_none() || !library.settled() {
        return;
    }
    let Some(id) = open.exercise.take() else {
        return;
    };
    if library.exercise(&id).is_some() {
        start.write(StartExercise(id));
        next_state.set(AppState::InGame);
    } else {
        warn!("--learn: no puzzle or lesson step {} is loaded", id.key());
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<LearnSession>()
        .init_resource::<OpenExercise>()
        .add_systems(
            Update,
            start_opened_exercise
                .run_if(in_state(AppState::Learn))
                .before(GameSystems::Input)
                .after(GameSystems::Variants),
        )
        .add_message::<StartExercise>()
        .add_message::<ShowSolution>()
        .add_message::<LeaveExercise>()
        .add_systems(
            Update,
            (start_exercises, leave_exercise)
                .chain()
                .in_set(GameSystems::Input),
        )
        .add_systems(
            Update,
            (track_game, follow_take_backs, judge_moves)
                .chain()
                .after(GameSystems::Rules)
                .before(GameSystems::Rebuild),
        )
        .add_systems(Update, drive_board.in_set(GameSystems::Ai));
}

/// The exercise's game: both seats human (the replies come from [`drive_board`]), started
/// from the exercise's position. The variant library stops following a game for hot reload
/// (an exercise is not restarted from the variant's start).
fn start_exercises(
    mut requests: MessageReader<StartExercise>,
    mut solution: MessageReader<ShowSolution>,
    mut session: ResMut<LearnSession>,
    library: Res<LearnLibrary>,
    progress: Res<LearnProgress>,
    players: Res<Players>,
    mut start: MessageWriter<StartGame>,
) {
    let show = solution.read().count() > 0;
    let request = requests.read().last().cloned().map(|r| r.0);
    let id = match (request, show, &session.active) {
        (Some(id), _, _) => id,
        (None, true, Some(active)) => active.id.clone(),
        _ => return,
    };
    let Some(exercise) = library.exercise(&id).cloned() else {
        warn!("cannot start {}: no such lesson step or puzzle", id.key());
        return;
    };
    if session.saved_players.is_none() {
        session.saved_players = Some(players.clone());
    }
    let key = id.key();
    let demonstrate = show && request_is_current(&session, &id);
    let wrong_tries = session
        .active
        .as_ref()
        .filter(|a| a.id == id)
        .map_or(0, |a| a.wrong_tries);
    start.write(StartGame {
        players: Some(Players::two(PlayerKind::Human, PlayerKind::Human)),
        follows: Follows::Nothing,
        ..StartGame::from_position(exercise.variant.clone(), exercise.start.clone())
    });
    info!("learn: {key}");
    session.active = Some(Active {
        player: exercise.start.side_to_move(),
        solved_before: progress.is_solved(&key),
        id,
        exercise,
        game_id: None,
        progress: if demonstrate {
            Progress::Showing { next: 0 }
        } else {
            Progress::Trying
        },
        feedback: None,
        hint_shown: false,
        wrong_tries,
        why_wrong: None,
        pending_reply: None,
        pending_undo: false,
    });
}

fn request_is_current(session: &LearnSession, id: &ExerciseId) -> bool {
    session.active.as_ref().is_some_and(|a| &a.id == id)
}

/// Back to the Learn screen with the menu's players.
fn leave_exercise(
    mut requests: MessageReader<LeaveExercise>,
    mut session: ResMut<LearnSession>,
    mut players: ResMut<Players>,
    mut next_state: ResMut<NextState<AppState>>,
) {
    if requests.read().count() == 0 {
        return;
    }
    session.active = None;
    if let Some(saved) = session.saved_players.take() {
        *players = saved;
    }
    next_state.set(AppState::Learn);
}

/// Notes which game the exercise is played in (the first one started after the request). Any
/// later game (the menu's new game, a loaded save) ends the exercise; the players of that
/// game are the ones it chose, so they stay.
fn track_game(mut started: MessageReader<GameStarted>, mut session: ResMut<LearnSession>) {
    for s in started.read() {
        let Some(active) = session.active.as_mut() else {
            continue;
        };
        match active.game_id {
            None => active.game_id = Some(s.game_id),
            Some(id) if id != s.game_id => {
                info!("learn: {} left for another game", active.id.key());
                session.active = None;
                session.saved_players = None;
            }
            Some(_) => {}
        }
    }
}

/// The player took moves back (undo): the exercise goes on from there, and a take-back that
/// stops on the opponent's turn goes one more move back, to the player's own turn.
fn follow_take_backs(
    mut resets: MessageReader<PositionReset>,
    mut session: ResMut<LearnSession>,
    game: Option<Res<Match>>,
) {
    let Some(game) = game else {
        resets.clear();
        return;
    };
    for reset in resets.read() {
        let Some(active) = session.active.as_mut() else {
            continue;
        };
        if active.game_id != Some(reset.game_id) || active.is_demonstration() {
            continue;
        }
        active.pending_reply = None;
        active.progress = Progress::Trying;
        if game.position.side_to_move() != active.player && !game.history.is_empty() {
            active.pending_undo = true;
        }
    }
}

/// Judges each move the player makes, through `boardcraft_learn`.
fn judge_moves(
    mut applied: MessageReader<MoveApplied>,
    mut session: ResMut<LearnSession>,
    game: Option<Res<Match>>,
    mut progress: ResMut<LearnProgress>,
) {
    let Some(game) = game else {
        applied.clear();
        return;
    };
    for m in applied.read() {
        let Some(active) = session.active.as_mut() else {
            continue;
        };
        if active.game_id != Some(m.game_id)
            || m.played.side != active.player
            || active.progress != Progress::Trying
        {
            continue;
        }
        let played: Vec<AnyMove> = game.history.iter().map(|p| p.mv.clone()).collect();
        match content::judge(&active.exercise, &played) {
            Judgement::Solved => {
                active.progress = Progress::Solved;
                active.feedback = Some(Feedback::Right);
                let key = active.id.key();
                if !progress.is_solved(&key) {
                    progress.solved.insert(key);
                }
            }
            Judgement::Wrong => {
                active.why_wrong = match played.as_slice() {
                    [first] => active.exercise.checked.why_wrong(first),
                    _ => None,
                };
                active.progress = Progress::Wrong;
                active.feedback = Some(Feedback::Wrong);
                active.wrong_tries += 1;
                active.pending_undo = true;
            }
            Judgement::Continue { reply } => {
                active.feedback = Some(Feedback::GoOn);
                active.pending_reply = Some(reply);
            }
        }
    }
}

/// Plays what the exercise plays on the board once it is ready for a move (the previous one
/// animated): the computer's reply, the take-back of a wrong try, the next solution move.
fn drive_board(
    mut session: ResMut<LearnSession>,
    game: Option<Res<Match>>,
    phase: Option<Res<State<TurnPhase>>>,
    review: Option<Res<crate::game::review::Review>>,
    mut requests: MessageWriter<MoveRequested>,
    mut undo: MessageWriter<UndoRequested>,
) {
    let (Some(game), Some(phase)) = (game, phase) else {
        return;
    };
    // While the player looks at an earlier position in the move list, the board takes no
    // move (the match refuses it): the reply or the next solution move waits.
    if review.is_some_and(|r| !r.is_live()) {
        return;
    }
    let Some(active) = session.active.as_mut() else {
        return;
    };
    if active.game_id != Some(game.game_id) || *phase.get() == TurnPhase::Animating {
        return;
    }
    if active.pending_undo {
        active.pending_undo = false;
        active.progress = Progress::Trying;
        undo.write(UndoRequested);
        return;
    }
    let line_len = active.exercise.solutions.first().map_or(0, Vec::len);
    if let Progress::Showing { next } = active.progress
        && next >= line_len
    {
        // The last move of the line is played (and may have ended the game).
        active.progress = Progress::Shown;
        return;
    }
    if *phase.get() != TurnPhase::Ready {
        return;
    }
    let request = |mv: AnyMove| MoveRequested {
        mv,
        game_id: game.game_id,
        ply: game.position.ply(),
    };
    if let Some(reply) = active.pending_reply.take() {
        requests.write(request(reply));
        return;
    }
    if let Progress::Showing { next } = active.progress
        && let Some(mv) = active.exercise.solutions.first().and_then(|l| l.get(next))
    {
        requests.write(request(mv.clone()));
        active.progress = Progress::Showing { next: next + 1 };
    }
}
