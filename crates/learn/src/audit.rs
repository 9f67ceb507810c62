//! The audit: does a puzzle teach a good move? [`crate::verify`] proves that the solution is the
//! extreme of the goal's measure; the audit asks whether it is also a sound move by the engine's
//! judgement, so that a player who learns it learns what strong players do.
//!
//! - A race "best jump" (`LongestJump`): the answer must gain at least as much ground towards
//!   the target corner as any other move ([`crate::measure`]) and at least
//!   [`crate::verify::MIN_JUMP_GAIN`] rows — a chain back home fails however long it is.
//! - Every goal that is not a proven win (the best jump, the biggest capture, a row, a
//!   GIPF-piece, pieces into the target, leaving home): every legal move is scored by the
//!   engine (a fixed-depth search after it, the same for every move, so the scores compare);
//!   when another move scores clearly better than the answer (by more than
//!   [`AuditConfig::margin`]), a deeper search of both decides — the puzzle fails only if that
//!   confirms it (the solution is a blunder that a strong player refutes).
//! - `WinIn` and `NoMoveIn` are proven wins: no move is better, the engine is not asked.
use boardcraft_ai::{AnySearch, Budget, Score, SearchConfig};
use boardcraft_rules::{AnyMove, AnyPosition, Position};

use crate::{
    Goal,
    goal::move_scores,
    load::Exercise,
    measure::{BestScore, gain},
    verify::MIN_JUMP_GAIN,
};

/// How hard the engine looks.
#[derive(Copy, Clone, Debug)]
pub struct AuditConfig {
    /// The depth of the search after each legal move (plies, the opponent's reply first).
    pub depth: u32,
    /// A cap on the nodes of each of those searches.
    pub nodes_per_move: u64,
    /// The budget of the confirming search after the answer and after the better-looking move.
    pub confirm_nodes: u64,
    /// How much better (evaluation units, 100 = about one move's worth) another move must
    /// score than the answer for the answer to count as clearly worse.
    pub margin: i32,
}

impl Default for AuditConfig {
    fn default() -> Self {
        AuditConfig {
            depth: 2,
            nodes_per_move: 20_000,
            confirm_nodes: 300_000,
            margin: 150,
        }
    }
}

/// One move as the audit saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAudit {
    pub notation: String,
    /// Race moves: the ground gained towards the target corner, in rows.
    pub gain: Option<i32>,
    /// `LongestJump` and `CaptureMost`: the goal's own score of the move.
    pub score: Option<BestScore>,
    /// The engine's score of the move, for the mover (absent for proven wins).
    pub eval: Option<Score>,
}

/// What the audit found for one exercise.
#[derive(Clone, Debug)]
pub struct Audit {
    pub goal: Goal,
    /// The answer (the worst of the listed first moves by the engine, when several are listed).
    pub solution: MoveAudit,
    /// The best move that is not an answer (by the goal's score for the one-move goals, else by
    /// the engine), if there is one.
    pub best_other: Option<MoveAudit>,
    /// Why the puzzle teaches a bad move; empty when it passes.
    pub problems: Vec<String>,
}

impl Audit {
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }
}

fn eval_after(pos: &AnyPosition, mv: &AnyMove, budget: Budget) -> Score {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    if let Some(o) = after.outcome() {
        let me = pos.side_to_move();
        return Score(match o.winner() {
            Some(w) if w == me => boardcraft_ai::score::WIN - 1,
            Some(_) => -(boardcraft_ai::score::WIN - 1),
            None => 0,
        });
    }
    // No noise, no contempt: the engine's plain judgement.
    let r = AnySearch::new(&after, SearchConfig::new(budget)).run();
    r.score.flip()
}

/// Audits an exercise (see the module docs). Never fails on a position the rules accept; a
/// problem is reported in [`Audit::problems`].
pub fn audit(ex: &Exercise, cfg: &AuditConfig) -> Audit {
    let pos = &ex.position;
    let goal = ex.goal;
    let answers: Vec<&AnyMove> = ex.lines.iter().filter_map(|l| l.first()).collect();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let scores = move_scores(goal, pos);
    let score_of = |m: &AnyMove| {
        scores
            .as_ref()
            .and_then(|s| s.iter().find(|(x, _)| x == m).map(|(_, s)| *s))
    };
    let describe = |m: &AnyMove, eval: Option<Score>| MoveAudit {
        notation: pos.format_move(m),
        gain: gain(pos, m),
        score: score_of(m),
        eval,
    };
    let mut problems = Vec::new();
    let proven_win = matches!(goal, Goal::WinIn(_) | Goal::NoMoveIn(_));
    if proven_win || goal == Goal::Play || answers.is_empty() {
        let best_other = moves
            .iter()
            .filter(|m| !answers.contains(m))
            .max_by_key(|m| score_of(m))
            .map(|m| describe(m, None));
        return Audit {
            goal,
            solution: describe(answers.first().copied().unwrap_or(&moves[0]), None),
            best_other,
            problems,
        };
    }
    // The engine's view of every legal move, at one depth so that the scores compare.
    let budget = Budget::depth(cfg.depth).with_nodes(cfg.nodes_per_move);
    let evals: Vec<(AnyMove, Score)> = moves
        .iter()
        .map(|m| (m.clone(), eval_after(pos, m, budget)))
        .collect();
    let eval_of = |m: &AnyMove| evals.iter().find(|(x, _)| x == m).map(|(_, s)| *s);
    let worst_answer = answers
        .iter()
        .copied()
        .min_by_key(|m| eval_of(m))
        .expect("an exercise has a solution line");
    let mut solution = describe(worst_answer, eval_of(worst_answer));
    let others: Vec<&(AnyMove, Score)> = evals
        .iter()
        .filter(|(m, _)| !answers.contains(&m))
        .collect();
    let engine_best = others
        .iter()
        .max_by_key(|(_, s)| *s)
        .map(|(m, _)| m.clone());
    // For the one-move goals the interesting rival is the runner-up of the goal's own score.
    let goal_best = scores.as_ref().and_then(|_| {
        others
            .iter()
            .max_by_key(|(m, s)| (score_of(m), *s))
            .map(|(m, _)| m.clone())
    });
    let mut best_other = goal_best
        .as_ref()
        .or(engine_best.as_ref())
        .map(|m| describe(m, eval_of(m)));

    if goal == Goal::LongestJump {
        let g = solution.gain.unwrap_or(0);
        if g < MIN_JUMP_GAIN {
            problems.push(format!(
                "the answer {} gains {g:+} rows towards the target: a best jump must go forward at least {MIN_JUMP_GAIN}",
                solution.notation
            ));
        }
        if let Some(o) = moves
            .iter()
            .filter(|m| !answers.contains(m))
            .max_by_key(|m| gain(pos, m))
            && gain(pos, o).unwrap_or(0) > g
        {
            problems.push(format!(
                "the answer {} gains {g:+} rows, but {} gains {:+}",
                solution.notation,
                pos.format_move(o),
                gain(pos, o).unwrap_or(0)
            ));
        }
    }

    if let (Some(rival), Some(sol_eval)) = (&engine_best, solution.eval) {
        let rival_eval = eval_of(rival).unwrap_or(sol_eval);
        if rival_eval.0 - sol_eval.0 > cfg.margin {
            // Confirm with a deeper look at both before calling the answer a blunder.
            let deep = Budget::nodes(cfg.confirm_nodes);
            let sol_deep = eval_after(pos, worst_answer, deep);
            let rival_deep = eval_after(pos, rival, deep);
            if rival_deep.0 - sol_deep.0 > cfg.margin {
                problems.push(format!(
                    "the engine calls the answer {} clearly worse ({sol_deep}) than {} ({rival_deep})",
                    solution.notation,
                    pos.format_move(rival)
                ));
                solution.eval = Some(sol_deep);
                best_other = Some(describe(rival, Some(rival_deep)));
            }
        }
    }
    Audit {
        goal,
        solution,
        best_other,
        problems,
    }
}
