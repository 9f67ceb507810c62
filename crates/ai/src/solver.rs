//! A proof solver for puzzles: does the side to move reach a goal within N of its own moves
//! against every defence? An AND-OR search to a fixed depth (the solver's moves OR, the
//! opponent's replies AND) with a cache of proven and refuted positions and a node limit, so
//! a puzzle is accepted only when the proof is complete.
//!
//! The goal is anything that can judge one of the solver's moves ([`Goal`]): "the game is won",
//! "a row of four was taken", "five pieces stand in the target" … A first move is a solution
//! when it reaches the goal at once or when, after every reply, a solution of one move fewer
//! exists. [`Solver::solutions`] lists every such first move, which is what puzzle files are
//! checked against (the solution must be unique, or all equal ones listed).
use std::collections::HashMap;

use boardcraft_rules::{Outcome, Position, Seat};

/// What the solver must achieve with one of its moves.
pub trait Goal<P: Position> {
    /// Whether the solver's move `mv`, played in `before` (the solver to move) and leading to
    /// `after`, reaches the goal.
    fn reached(&self, before: &P, mv: &P::Move, after: &P) -> bool;

    /// Whether a game that ended on the opponent's move counts as the goal reached for
    /// `solver` (for "win": the opponent moved into a lost position). Default: no.
    fn reached_by_outcome(&self, _outcome: Outcome, _solver: Seat) -> bool {
        false
    }
}

/// The search ran out of nodes before the proof was complete.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the solver gave up after {0} nodes")]
pub struct OutOfNodes(pub u64);

/// Proves goals in positions of one game (see the module docs).
pub struct Solver<'g, P: Position, G: Goal<P>> {
    goal: &'g G,
    node_limit: u64,
    nodes: u64,
    /// `(hash, ply, own moves left)` → whether the side to move forces the goal. The ply is
    /// part of the key because rules count plies (9qum's 40-move check).
    cache: HashMap<(u64, u32, u32), bool>,
    _game: std::marker::PhantomData<fn(&P)>,
}

impl<'g, P: Position, G: Goal<P>> Solver<'g, P, G> {
    pub fn new(goal: &'g G, node_limit: u64) -> Self {
        Solver {
            goal,
            node_limit,
            nodes: 0,
            cache: HashMap::new(),
            _game: std::marker::PhantomData,
        }
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Every first move of the side to move that reaches the goal within `moves` own moves
    /// against every defence, in the order of `legal_moves`.
    pub fn solutions(&mut self, pos: &P, moves: u32) -> Result<Vec<P::Move>, OutOfNodes> {
        let mut list = Vec::new();
        pos.legal_moves(&mut list);
        let mut out = Vec::new();
        for mv in list {
            if self.move_solves(pos, &mv, moves)? {
                out.push(mv);
            }
        }
        Ok(out)
    }

    /// Whether the side to move can reach the goal within `moves` own moves.
    pub fn forces(&mut self, pos: &P, moves: u32) -> Result<bool, OutOfNodes> {
        if moves == 0 || pos.is_game_over() {
            return Ok(false);
        }
        let key = (pos.hash(), pos.ply(), moves);
        if let Some(&known) = self.cache.get(&key) {
            return Ok(known);
        }
        let mut list = Vec::new();
        pos.legal_moves(&mut list);
        let mut found = false;
        // Moves that reach the goal at once first: they end the search without replies.
        for mv in &list {
            if self.reaches_now(pos, mv)? {
                found = true;
                break;
            }
        }
        if !found && moves > 1 {
            for mv in &list {
                if self.move_solves(pos, mv, moves)? {
                    found = true;
                    break;
                }
            }
        }
        // A smaller budget proven false says nothing about this one, and vice versa: the key
        // holds the budget.
        self.cache.insert(key, found);
        Ok(found)
    }

    fn count(&mut self) -> Result<(), OutOfNodes> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            Err(OutOfNodes(self.node_limit))
        } else {
            Ok(())
        }
    }

    fn reaches_now(&mut self, pos: &P, mv: &P::Move) -> Result<bool, OutOfNodes> {
        self.count()?;
        let mut after = pos.clone();
        after.play_unchecked(mv);
        Ok(self.goal.reached(pos, mv, &after))
    }

    /// Whether `mv` (legal in `pos`, the solver to move) reaches the goal within `moves` own
    /// moves, this one included, against every reply.
    pub fn move_solves(&mut self, pos: &P, mv: &P::Move, moves: u32) -> Result<bool, OutOfNodes> {
        if moves == 0 {
            return Ok(false);
        }
        self.count()?;
        let solver = pos.side_to_move();
        let mut after = pos.clone();
        after.play_unchecked(mv);
        if self.goal.reached(pos, mv, &after) {
            return Ok(true);
        }
        if moves == 1 || after.is_game_over() {
            return Ok(false);
        }
        let mut replies = Vec::new();
        after.legal_moves(&mut replies);
        for r in &replies {
            self.count()?;
            let mut next = after.clone();
            next.play_unchecked(r);
            if let Some(o) = next.outcome() {
                if self.goal.reached_by_outcome(o, solver) {
                    continue;
                }
                return Ok(false);
            }
            if !self.forces(&next, moves - 1)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// "Win the game": the solver's move ends the game with the solver winning.
pub struct Win;

impl<P: Position> Goal<P> for Win {
    fn reached(&self, before: &P, _mv: &P::Move, after: &P) -> bool {
        after
            .outcome()
            .is_some_and(|o| o.winner() == Some(before.side_to_move()))
    }

    fn reached_by_outcome(&self, outcome: Outcome, solver: Seat) -> bool {
        outcome.winner() == Some(solver)
    }
}

/// A goal from a closure over `(before, move, after)`.
pub struct GoalFn<F>(pub F);

impl<P: Position, F: Fn(&P, &P::Move, &P) -> bool> Goal<P> for GoalFn<F> {
    fn reached(&self, before: &P, mv: &P::Move, after: &P) -> bool {
        (self.0)(before, mv, after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardcraft_rules::shipped_variant;

    #[test]
    fn a_move_that_fills_the_target_wins_in_one_and_only_it() {
        // ugolki-hg-3x3: White has eight pieces in its target a6–c8 and one on d8, next to
        // the empty c8; Black has eight in its target and one on e4.
        let v = shipped_variant("ugolki-hg-3x3").unwrap();
        let pos = v
            .position_from_text("WW1W4/WWW5/WWW5/8/4B3/5BBB/5BBB/5BB1 w 40")
            .unwrap_or_else(|e| panic!("{e}"));
        let mut solver = Solver::new(&Win, 1_000_000);
        let sols = solver.solutions(&pos, 1).unwrap();
        let names: Vec<String> = sols.iter().map(|m| pos.format_move(m)).collect();
        assert_eq!(names, ["d8-c8"], "{pos}");
        assert!(solver.forces(&pos, 1).unwrap());
    }
}
