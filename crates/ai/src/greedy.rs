//! The one-ply greedy baseline: the move whose resulting position evaluates best, ties broken
//! by the seed. The yardstick the levels are measured against.
use std::time::Duration;

use boardcraft_rules::Position;

use crate::{
    eval::Evaluate,
    rng::{SplitMix64, mix},
    score::{Score, WIN},
    search::ThinkResult,
};

/// The greedy choice in `position` (`None` when there is no legal move).
pub fn greedy<P: Position + Evaluate>(position: &P, seed: u64) -> ThinkResult<P::Move> {
    let mut pos = position.clone();
    let me = pos.side_to_move();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best = i32::MIN;
    let mut ties: Vec<usize> = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let undo = pos.play_unchecked(mv);
        let value = match pos.outcome() {
            Some(o) => o.score_for(me) * (WIN - 1),
            // The evaluation is for the side to move, which is now the opponent (or still us
            // in a game where a side can move twice).
            None if pos.side_to_move() == me => pos.evaluate(),
            None => -pos.evaluate(),
        };
        pos.undo(mv, undo);
        if value > best {
            best = value;
            ties.clear();
        }
        if value == best {
            ties.push(i);
        }
    }
    let nodes = moves.len() as u64;
    let pick = if ties.is_empty() {
        None
    } else {
        let mut rng = SplitMix64::new(mix(seed) ^ position.hash());
        Some(ties[rng.below(ties.len() as u64) as usize])
    };
    let best_move = pick.map(|i| moves.swap_remove(i));
    ThinkResult {
        pv: best_move.iter().cloned().collect(),
        best_move,
        score: Score(if best == i32::MIN { 0 } else { best }),
        depth: 1,
        nodes,
        elapsed: Duration::ZERO,
    }
}
