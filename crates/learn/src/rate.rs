//! A puzzle's difficulty, measured rather than chosen: from the length of the solution and the
//! effort the solver needed to prove it (its nodes), and for the one-move goals from how long
//! the answer's chain is and whether a tempting wrong move is around. The same puzzle always
//! gets the same rating, so `puzzles mine` writes it and `puzzles audit` reports a file whose
//! difficulty differs.
use crate::{
    Difficulty, Goal, goal::move_scores, load::Exercise, measure::BestScore, verify::Verified,
};

/// The points behind a difficulty (more is harder) and what they came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    pub points: u32,
    pub difficulty: Difficulty,
    /// A short account, e.g. `3 moves, 41 200 solver nodes, one answer`.
    pub why: String,
}

/// Points → difficulty: 0–1 easy, 2 medium, 3–4 hard, 5 and more expert.
fn level(points: u32) -> Difficulty {
    match points {
        0..=1 => Difficulty::Easy,
        2 => Difficulty::Medium,
        3..=4 => Difficulty::Hard,
        _ => Difficulty::Expert,
    }
}

/// Solver effort in points: under 1 000 nodes nothing, then one per tenfold, at most 3.
fn effort_points(nodes: u64) -> u32 {
    let mut points = 0;
    let mut n = nodes / 1_000;
    while n > 0 && points < 3 {
        points += 1;
        n /= 10;
    }
    points
}

/// Rates a verified exercise (`proof` is what [`crate::verify`] returned for it).
pub fn rate(ex: &Exercise, proof: &Verified) -> Rating {
    let answers = proof.first_moves.len();
    match (ex.goal, proof.best) {
        (Goal::LongestJump, Some(BestScore::Jump { gain, jumps })) => {
            // A long chain is hard to see; a chain with more jumps that is not the answer (it
            // goes sideways or back) is the trap the puzzle teaches to avoid; many chains to
            // compare is work.
            let length = match jumps {
                0..=3 => 0,
                4..=5 => 1,
                6..=7 => 2,
                _ => 3,
            };
            let scores = move_scores(ex.goal, &ex.position).unwrap_or_default();
            let best = BestScore::Jump { gain, jumps };
            let trap = scores.iter().any(|(_, s)| match *s {
                BestScore::Jump { gain: g, jumps: j } => {
                    *s != best && (j > jumps || (j >= 2 && g >= gain - 1))
                }
                BestScore::Capture(_) => false,
            });
            let chains = scores
                .iter()
                .filter(|(_, s)| matches!(s, BestScore::Jump { jumps: j, .. } if *j >= 2))
                .count();
            let crowd = u32::from(chains >= 12);
            let points = length + u32::from(trap) + crowd;
            Rating {
                points,
                difficulty: level(points),
                why: format!(
                    "{jumps} jumps gaining {gain} rows, {chains} chains of 2+ jumps{}",
                    if trap { ", a tempting rival" } else { "" }
                ),
            }
        }
        (Goal::CaptureMost, Some(BestScore::Capture(k))) => {
            let mut moves = Vec::new();
            boardcraft_rules::Position::legal_moves(&ex.position, &mut moves);
            let points = k.saturating_sub(1).min(2) + u32::from(moves.len() >= 60);
            Rating {
                points,
                difficulty: level(points),
                why: format!("captures {k}, {} legal moves", moves.len()),
            }
        }
        (goal, _) => {
            let n = goal.moves();
            let effort = effort_points(proof.nodes);
            let unique = n >= 2 && answers == 1;
            let points = n.saturating_sub(1) + effort + u32::from(unique);
            Rating {
                points,
                difficulty: level(points),
                why: format!(
                    "{n} move(s), {} solver nodes{}",
                    proof.nodes,
                    if unique { ", one answer" } else { "" }
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effort_counts_tenfolds() {
        assert_eq!(effort_points(999), 0);
        assert_eq!(effort_points(1_000), 1);
        assert_eq!(effort_points(99_999), 2);
        assert_eq!(effort_points(100_000), 3);
        assert_eq!(effort_points(50_000_000), 3);
        assert_eq!(level(0), Difficulty::Easy);
        assert_eq!(level(5), Difficulty::Expert);
    }
}
