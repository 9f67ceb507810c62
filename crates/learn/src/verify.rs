//! Verification: the engine proves that an exercise's solution lines reach its goal and that
//! no other first move does.
//!
//! - "In N" goals (win, reach the target, leave home, leave without a move, a row, take a
//!   GIPF-piece): the solver lists every first move that reaches the goal within N own moves
//!   against every defence; that set must equal the first moves of the listed lines, and must
//!   not be reachable in fewer moves (so "in N" is exact). Every line is checked move by move:
//!   each of the player's moves still forces the goal in the moves left, and the last one
//!   reaches it.
//! - One-move "best" goals (the jump that gains the most ground, ties: more jumps; the most
//!   captures): every legal move is scored ([`crate::goal::move_scores`]); the listed moves must
//!   be exactly the best ones, and a jump puzzle's best move a chain that goes forward.
//! - `Play` (lesson steps that show a move): the listed moves are legal and distinct.
use std::collections::HashSet;

use boardcraft_ai::solver::Solver;
use boardcraft_rules::{AnyMove, AnyPosition, FamilyRules, Position};

use crate::{
    Goal,
    goal::{Judge, move_scores, reached},
    load::Exercise,
    measure::BestScore,
};

/// The least ground (rows towards the target corner) a "best jump" puzzle's answer gains: a
/// puzzle teaches a move forward.
pub const MIN_JUMP_GAIN: i32 = 2;

/// The solver's node limit per exercise: a proof that needs more is not accepted.
pub const NODE_LIMIT: u64 = 40_000_000;

/// What a successful verification found.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The right first moves, in notation.
    pub first_moves: Vec<String>,
    /// For best-move goals, the best score (the ground gained and the jumps; the captures).
    pub best: Option<BestScore>,
    pub nodes: u64,
}

fn names(pos: &AnyPosition, moves: &[AnyMove]) -> String {
    let mut v: Vec<String> = moves.iter().map(|m| pos.format_move(m)).collect();
    v.sort();
    v.join(", ")
}

/// Whether `goal` makes sense for the variant's family.
pub fn goal_fits(goal: Goal, rules: &FamilyRules) -> Result<(), String> {
    let family = rules.family_name();
    let ok = match goal {
        Goal::WinIn(_) | Goal::Play => true,
        Goal::LongestJump | Goal::ReachTarget { .. } => family == "Race",
        Goal::LeaveHome { .. } => {
            matches!(rules, FamilyRules::Race(r) if r.home_clear_ply().is_some())
        }
        Goal::CaptureMost | Goal::NoMoveIn(_) => family == "Focus",
        Goal::RowIn(_) => family == "Gipf",
        Goal::TakeGipfIn(_) => {
            matches!(rules, FamilyRules::Gipf(g) if g.gipf_entry != boardcraft_rules::gipf::GipfEntry::Never || g.start.iter().any(|(_, p)| p.kind == boardcraft_rules::gipf::PieceKind::Gipf))
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "the goal {goal:?} does not apply to this variant ({family})"
        ))
    }
}

/// Proves an exercise (see the module docs); the error says what is wrong.
pub fn verify(ex: &Exercise) -> Result<Verified, String> {
    let pos = &ex.position;
    goal_fits(ex.goal, &ex.variant.rules)?;
    if let Some(o) = pos.outcome() {
        return Err(format!("the game is already over in this position ({o})"));
    }
    let firsts: Vec<AnyMove> = ex.lines.iter().map(|l| l[0].clone()).collect();
    let unique: HashSet<&AnyMove> = firsts.iter().collect();
    if unique.len() != firsts.len() {
        return Err(
            "two solution lines start with the same move: list each first move once".into(),
        );
    }
    let goal = ex.goal;
    match goal {
        Goal::Play => {
            if let Some(l) = ex.lines.iter().find(|l| l.len() != 1) {
                return Err(format!(
                    "a `Play` step accepts single moves; a line has {} moves",
                    l.len()
                ));
            }
            Ok(Verified {
                first_moves: firsts.iter().map(|m| pos.format_move(m)).collect(),
                best: None,
                nodes: 0,
            })
        }
        Goal::LongestJump | Goal::CaptureMost => {
            let scores = move_scores(goal, pos)
                .ok_or_else(|| "the position is too crowded to walk every jump path".to_owned())?;
            let best = scores
                .iter()
                .map(|s| s.1)
                .max()
                .ok_or_else(|| "there is no legal move".to_owned())?;
            match best {
                BestScore::Jump { gain, jumps } if jumps < 2 || gain < MIN_JUMP_GAIN => {
                    return Err(format!(
                        "the move that gains the most ground here ({best}) is not a chain of at least 2 jumps gaining at least {MIN_JUMP_GAIN} rows"
                    ));
                }
                BestScore::Capture(0) => return Err("no move captures anything here".into()),
                _ => {}
            }
            let top: Vec<AnyMove> = scores
                .iter()
                .filter(|s| s.1 == best)
                .map(|s| s.0.clone())
                .collect();
            if let Some(l) = ex.lines.iter().find(|l| l.len() != 1) {
                return Err(format!(
                    "this goal is solved in one move; a line has {} moves",
                    l.len()
                ));
            }
            compare(pos, &firsts, &top, &format!("score best ({best})"))?;
            Ok(Verified {
                first_moves: names(pos, &top).split(", ").map(str::to_owned).collect(),
                best: Some(best),
                nodes: scores.len() as u64,
            })
        }
        _ => {
            let n = goal.moves();
            let judge = Judge(goal);
            let mut solver = Solver::new(&judge, NODE_LIMIT);
            let found = solver.solutions(pos, n).map_err(|e| e.to_string())?;
            if found.is_empty() {
                return Err(format!("no first move reaches the goal within {n} move(s)"));
            }
            compare(pos, &firsts, &found, "reach the goal")?;
            if n > 1 && solver.forces(pos, n - 1).map_err(|e| e.to_string())? {
                return Err(format!(
                    "the goal is reached in {} move(s) already: say so in the goal",
                    n - 1
                ));
            }
            for (j, line) in ex.lines.iter().enumerate() {
                check_line(&mut solver, goal, pos, line, n)
                    .map_err(|e| format!("solution line {}: {e}", j + 1))?;
            }
            Ok(Verified {
                first_moves: found.iter().map(|m| pos.format_move(m)).collect(),
                best: None,
                nodes: solver.nodes(),
            })
        }
    }
}

/// The listed first moves must be the proven ones.
fn compare(
    pos: &AnyPosition,
    listed: &[AnyMove],
    proven: &[AnyMove],
    what: &str,
) -> Result<(), String> {
    let extra: Vec<AnyMove> = proven
        .iter()
        .filter(|m| !listed.contains(m))
        .cloned()
        .collect();
    let wrong: Vec<AnyMove> = listed
        .iter()
        .filter(|m| !proven.contains(m))
        .cloned()
        .collect();
    if !wrong.is_empty() {
        return Err(format!(
            "the listed first move(s) {} do not {what}; the moves that do: {}",
            names(pos, &wrong),
            names(pos, proven)
        ));
    }
    if !extra.is_empty() {
        return Err(format!(
            "the solution is not unique: {} also {what}; list every such move, or change the position",
            names(pos, &extra)
        ));
    }
    Ok(())
}

/// A line alternates the player's moves and the opponent's replies; each of the player's
/// moves must still force the goal, and the last must reach it.
fn check_line(
    solver: &mut Solver<'_, AnyPosition, Judge>,
    goal: Goal,
    start: &AnyPosition,
    line: &[AnyMove],
    n: u32,
) -> Result<(), String> {
    if line.len().is_multiple_of(2) {
        return Err("a line ends with the player's move that reaches the goal, so it has an odd number of moves".into());
    }
    if line.len() as u32 > 2 * n - 1 {
        return Err(format!(
            "the line has {} of the player's moves; the goal allows {n}",
            line.len().div_ceil(2)
        ));
    }
    let mut pos = start.clone();
    for (i, mv) in line.iter().enumerate() {
        if i % 2 == 0 {
            let left = n - (i / 2) as u32;
            if !solver
                .move_solves(&pos, mv, left)
                .map_err(|e| e.to_string())?
            {
                return Err(format!(
                    "{} (move {}) does not force the goal in the {left} move(s) left",
                    pos.format_move(mv),
                    i + 1
                ));
            }
            let mut after = pos.clone();
            after.play_unchecked(mv);
            if i + 1 == line.len() && !reached(goal, &pos, mv, &after) {
                return Err(format!(
                    "the line ends with {}, which does not reach the goal yet",
                    pos.format_move(mv)
                ));
            }
            pos = after;
        } else {
            pos.play_unchecked(mv);
        }
    }
    Ok(())
}
