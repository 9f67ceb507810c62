//! The coach: after each human move (when [`Settings::coach`] is on) the AI judges it: the
//! score of the move played, and the move it would have chosen with its score. Both searches
//! run at full strength on a small node budget, in slices with a yield between them (like the
//! computer player), so no frame waits for them and the browser keeps drawing.
use bevy::{
    prelude::*,
    tasks::{AsyncComputeTaskPool, Task, futures::check_ready, futures_lite},
};
use boardcraft_ai::{AnySearch, Budget, Evaluate, Progress, Score, SearchConfig, ThinkResult};
use boardcraft_rules::{AnyMove, AnyPosition, Position, Seat};

use crate::{
    GameSystems,
    game::config::Players,
    game::match_state::{Match, MoveApplied},
    settings::Settings,
};

/// Nodes for each of the coach's two searches: enough for a sound opinion on every shipped
/// game (about depth 5–7 on the 8×8 boards) in a few dozen milliseconds of one core.
pub const COACH_NODES: u64 = 50_000;
/// Nodes between two yields (as in `ai.rs`).
const NODES_PER_SLICE: u64 = 4_000;

/// The coach's opinion of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub game_id: u64,
    /// The move's number in the history (1 = the first move of the game).
    pub ply: usize,
    pub side: Seat,
    /// The move played, in notation, and its score for `side`.
    pub played: String,
    pub played_score: Score,
    /// The AI's choice in the same position and its score for `side` (`None` if the search
    /// found no move, which only happens in a finished position).
    pub best: Option<String>,
    pub best_score: Score,
    /// The line the AI expected after its choice, in notation.
    pub best_line: Vec<String>,
}

impl Verdict {
    /// The move played was the AI's choice.
    pub fn played_best(&self) -> bool {
        self.best.as_deref() == Some(self.played.as_str())
    }

    /// How much the move played gives away against the AI's choice, in evaluation units
    /// (0 when it is as good or the searches disagree in its favour).
    pub fn loss(&self) -> i32 {
        if self.played_best() {
            return 0;
        }
        (self.best_score.0 - self.played_score.0).max(0)
    }

    /// How the move rates: from the loss against the best move (100 units ≈ one move).
    pub fn grade(&self) -> Grade {
        if self.played_best() {
            return Grade::Best;
        }
        let losing_a_won_game = self.best_score.is_decisive()
            && self.best_score.0 > 0
            && !(self.played_score.is_decisive() && self.played_score.0 > 0);
        match self.loss() {
            _ if losing_a_won_game => Grade::Blunder,
            0..=30 => Grade::Good,
            31..=100 => Grade::Inaccuracy,
            101..=300 => Grade::Mistake,
            _ => Grade::Blunder,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Grade {
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

/// What the coach is doing: the search running for the last human move, and its verdict.
#[derive(Resource, Default)]
pub struct Coach {
    task: Option<(u64, usize, Task<Verdict>)>,
    /// The newest verdict (it stays until the next one, or until its move is taken back).
    pub latest: Option<Verdict>,
}

impl Coach {
    pub fn is_thinking(&self) -> bool {
        self.task.is_some()
    }

    /// The verdict if it still belongs to the game's history.
    pub fn current(&self, game: &Match) -> Option<&Verdict> {
        self.latest.as_ref().filter(|v| {
            v.game_id == game.game_id
                && game
                    .history
                    .get(v.ply.wrapping_sub(1))
                    .is_some_and(|m| m.notation == v.played && m.side == v.side)
        })
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Coach>()
        .init_resource::<Players>()
        .add_systems(
            Update,
            (start_verdicts, poll_verdict)
                .chain()
                .run_if(resource_exists::<Match>)
                .after(GameSystems::Rules)
                .before(GameSystems::Rebuild),
        );
}

fn start_verdicts(
    mut applied: MessageReader<MoveApplied>,
    mut coach: ResMut<Coach>,
    settings: Res<Settings>,
    players: Res<Players>,
    game: Res<Match>,
) {
    // A verdict for a move that was taken back (or another game) is dropped with its task.
    if let Some((game_id, ply, _)) = &coach.task
        && coach_target_gone(&game, *game_id, *ply)
    {
        coach.task = None;
    }
    for m in applied.read() {
        if !settings.coach || m.game_id != game.game_id || !players.of(m.played.side).is_human() {
            continue;
        }
        let ply = m.before.ply() as usize + 1;
        let task = AsyncComputeTaskPool::get().spawn(judge(
            m.game_id,
            ply,
            m.before.clone(),
            m.played.mv.clone(),
        ));
        // A newer move replaces the verdict still being worked out.
        coach.task = Some((m.game_id, ply, task));
    }
}

fn coach_target_gone(game: &Match, game_id: u64, ply: usize) -> bool {
    game_id != game.game_id || ply > game.history.len()
}

fn poll_verdict(mut coach: ResMut<Coach>) {
    let Some((_, _, task)) = coach.task.as_mut() else {
        return;
    };
    if let Some(verdict) = check_ready(task) {
        coach.task = None;
        coach.latest = Some(verdict);
    }
}

/// Searches the position before the move (for the best move) and after it (for the move
/// played), both for the mover.
async fn judge(game_id: u64, ply: usize, before: AnyPosition, played: AnyMove) -> Verdict {
    let side = before.side_to_move();
    let mut after = before.clone();
    let notation = before.format_move(&played);
    let _ = after.play(&played);
    let best = search(&before).await;
    let played_score = if before.seat_count() == 2 {
        // The reply's search scores the opponent, who moves next: its negation is the mover's.
        search(&after).await.score.flip()
    } else {
        // At a larger table the next seat's search scores that seat against the strongest of
        // the others, which says little of the mover: the move played is scored against the
        // best one by how much worse the mover stands after it than after the best (the
        // evaluation of the mover's standing, on the search's scale).
        match &best.best_move {
            Some(b) if *b != played => {
                let mut after_best = before.clone();
                let _ = after_best.play(b);
                let lost = after_best.evaluate_for(side) - after.evaluate_for(side);
                Score(best.score.0 - lost.max(0))
            }
            _ => best.score,
        }
    };
    Verdict {
        game_id,
        ply,
        side,
        played: notation,
        played_score,
        best: best.best_move.as_ref().map(|m| before.format_move(m)),
        best_score: best.score,
        best_line: boardcraft_ai::notation_of_line(&before, &best.pv),
    }
}

async fn search(position: &AnyPosition) -> ThinkResult<AnyMove> {
    let mut search = AnySearch::new(position, SearchConfig::new(Budget::nodes(COACH_NODES)));
    loop {
        match search.step(NODES_PER_SLICE) {
            Progress::Running => futures_lite::future::yield_now().await,
            Progress::Done(result) => return result,
        }
    }
}
