//! Judging a move against a [`Goal`]: the rules decide (outcomes, pieces in the target, the
//! pieces a move took), the solver in `boardcraft_ai::solver` searches.
use boardcraft_ai::solver;
use boardcraft_rules::{AnyEffect, AnyMove, AnyPosition, EndReason, Outcome, Position, Seat};

use crate::{
    Goal,
    measure::{BestScore, race_gain},
};

/// A [`Goal`] as the solver's goal for the side to move of the puzzle's position.
#[derive(Copy, Clone, Debug)]
pub struct Judge(pub Goal);

impl solver::Goal<AnyPosition> for Judge {
    fn reached(&self, before: &AnyPosition, mv: &AnyMove, after: &AnyPosition) -> bool {
        reached(self.0, before, mv, after)
    }

    fn reached_by_outcome(&self, outcome: Outcome, solver: Seat) -> bool {
        matches!(self.0, Goal::WinIn(_)) && outcome.winner() == Some(solver)
    }
}

/// Whether `mv`, played by the side to move of `before` and leading to `after`, reaches
/// `goal` (for the goals the solver searches: the "in N" ones). A move that loses the game
/// never reaches a goal.
pub fn reached(goal: Goal, before: &AnyPosition, mv: &AnyMove, after: &AnyPosition) -> bool {
    let me = before.side_to_move();
    let outcome = after.outcome();
    let won = outcome.is_some_and(|o| o.winner() == Some(me));
    let lost = outcome.is_some_and(|o| o.winner() == Some(me.other()));
    if lost {
        return false;
    }
    match goal {
        Goal::WinIn(_) => won,
        Goal::NoMoveIn(_) => outcome
            .is_some_and(|o| o.winner() == Some(me) && o.reason == EndReason::NoStackNoReserve),
        Goal::ReachTarget { pieces, .. } => match after {
            AnyPosition::Race(p) => p.pieces_in_target(me) >= pieces,
            _ => false,
        },
        Goal::LeaveHome { .. } => match after {
            AnyPosition::Race(p) => p.pieces_at_home(me).is_empty(),
            _ => false,
        },
        Goal::RowIn(_) => gipf_effect(before, mv).is_some_and(|e| {
            e.removals
                .iter()
                .any(|step| step.by == me && !step.rows.is_empty())
        }),
        Goal::TakeGipfIn(_) => gipf_effect(before, mv).is_some_and(|e| {
            e.removals.iter().flat_map(|s| &s.rows).any(|row| {
                row.removed.iter().any(|r| {
                    r.piece.color == me.other()
                        && r.piece.kind == boardcraft_rules::gipf::PieceKind::Gipf
                        && r.to == boardcraft_rules::gipf::Destination::Captured
                })
            })
        }),
        Goal::LongestJump | Goal::CaptureMost | Goal::Play => false,
    }
}

fn gipf_effect(before: &AnyPosition, mv: &AnyMove) -> Option<boardcraft_rules::gipf::GipfEffect> {
    let mut p = before.clone();
    match p.play(mv) {
        Ok(AnyEffect::Gipf(e)) => Some(e),
        _ => None,
    }
}

/// For the one-move "best move" goals, every legal move with its score: for `LongestJump` the
/// ground it gains towards the target corner, ties broken by the jumps of its longest path
/// ([`crate::measure`]); for `CaptureMost` the opponent pieces it captures. `None` when the
/// goal is not one of them, or the position is too crowded to walk every chain.
pub fn move_scores(goal: Goal, pos: &AnyPosition) -> Option<Vec<(AnyMove, BestScore)>> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    match (goal, pos) {
        (Goal::LongestJump, AnyPosition::Race(p)) => {
            let chains = p.longest_chains(2_000_000)?;
            Some(
                moves
                    .into_iter()
                    .map(|m| {
                        let score = match &m {
                            AnyMove::Race(r) => BestScore::Jump {
                                gain: race_gain(p, r),
                                jumps: chains
                                    .iter()
                                    .find(|c| c.from == r.from() && c.to == r.to())
                                    .map_or(0, |c| c.jumps() as u32),
                            },
                            _ => BestScore::Jump { gain: 0, jumps: 0 },
                        };
                        (m, score)
                    })
                    .collect(),
            )
        }
        (Goal::CaptureMost, AnyPosition::Focus(p)) => {
            let me = p.side_to_move();
            Some(
                moves
                    .into_iter()
                    .map(|m| {
                        let mut after = pos.clone();
                        after.play_unchecked(&m);
                        let took = match &after {
                            AnyPosition::Focus(a) => a.captured_by(me) - p.captured_by(me),
                            _ => 0,
                        };
                        (m, BestScore::Capture(u32::from(took)))
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

/// The longest path of a race move, in notation (`a1:a3:c3:e3`), for the "show the solution"
/// animation of a longest-jump puzzle.
pub fn longest_path(pos: &AnyPosition, mv: &AnyMove) -> Option<String> {
    let (AnyPosition::Race(p), AnyMove::Race(m)) = (pos, mv) else {
        return None;
    };
    p.longest_chains(2_000_000)?
        .into_iter()
        .find(|c| c.from == m.from() && c.to == m.to())
        .map(|c| c.notation())
}
