//! `analyse`: the evaluation and best line of a position, for the coach in the UI.
use boardcraft_rules::{Position, Seat};

use crate::{
    eval::Evaluate,
    score::Score,
    search::{Budget, ThinkResult, think},
};

/// What the coach shows: who stands better and the line the engine expects.
#[derive(Clone, Debug)]
pub struct Analysis<M> {
    /// Score for the side to move.
    pub score: Score,
    /// The same score from White's point of view (positive = White better).
    pub white_score: Score,
    pub best_move: Option<M>,
    pub pv: Vec<M>,
    /// The principal variation in the game's notation, each move written in its own position.
    pub pv_notation: Vec<String>,
    pub depth: u32,
    pub nodes: u64,
}

/// Analyses `position` at full strength within `budget`.
pub fn analyse<P: Position + Evaluate>(position: &P, budget: Budget) -> Analysis<P::Move> {
    let result = think(position, budget);
    analysis_of(position, result)
}

/// Dresses a search result as an analysis (notation, White's view).
pub fn analysis_of<P: Position>(position: &P, result: ThinkResult<P::Move>) -> Analysis<P::Move> {
    Analysis {
        white_score: match position.side_to_move() {
            Seat::WHITE => result.score,
            _ => result.score.flip(),
        },
        score: result.score,
        pv_notation: notation_of_line(position, &result.pv),
        best_move: result.best_move,
        pv: result.pv,
        depth: result.depth,
        nodes: result.nodes,
    }
}

/// Writes a line of moves, each in the notation of the position it is played in.
pub fn notation_of_line<P: Position>(position: &P, line: &[P::Move]) -> Vec<String> {
    let mut pos = position.clone();
    let mut out = Vec::with_capacity(line.len());
    for mv in line {
        out.push(pos.format_move(mv));
        if pos.play(mv).is_err() {
            break;
        }
    }
    out
}
