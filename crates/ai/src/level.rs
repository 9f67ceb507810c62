//! The four playing strengths. Each is a node budget (reproducible: the same seed gives the same
//! game) plus, for the weaker ones, deliberate imperfection: a depth cap and evaluation noise.
//!
//! | level | nodes | depth cap | noise (±units) | contempt | character |
//! |---|---|---|---|---|---|
//! | Novice | 2 000 | 1 | 120 | 0 | one-ply look with a blurred judgement: about the greedy baseline |
//! | Amateur | 20 000 | 3 | 40 | 0 | sees short tactics, misjudges close choices |
//! | Strong | 60 000 | — | 15 | 0 | full search, slightly blurred |
//! | Master | 600 000 | — | 0 | 40 | full search, plays on rather than repeat |
//!
//! At race tables of more than two seats Master's search is Monte-Carlo tree search
//! ([`crate::mcts`]), its nodes the plies it plays in the tree and in its playouts; the other
//! levels search best replies there ([`crate::best_reply`]).
//!
//! The node counts are for the 8×8 games, Focus and GIPF; a game whose nodes cost more divides
//! them by its [`Evaluate::node_cost`] (Halma 16×16: by 1.2), so that every level thinks about
//! as long on every board — Master 0.3–1.2 s a move on one core.
//!
//! The steps are measured with `boardcraft-cli match` (each level ≥ 70 % against the one below
//! is the target; docs/engine.md has the figures).
use std::{fmt, str::FromStr};

use boardcraft_rules::Position;

use crate::{
    eval::Evaluate,
    search::{Budget, Search, SearchConfig, ThinkResult},
};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    Novice,
    Amateur,
    Strong,
    Master,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Novice, Level::Amateur, Level::Strong, Level::Master];

    pub fn name(self) -> &'static str {
        match self {
            Level::Novice => "novice",
            Level::Amateur => "amateur",
            Level::Strong => "strong",
            Level::Master => "master",
        }
    }

    /// The level below (Novice has none).
    pub fn below(self) -> Option<Level> {
        match self {
            Level::Novice => None,
            Level::Amateur => Some(Level::Novice),
            Level::Strong => Some(Level::Amateur),
            Level::Master => Some(Level::Strong),
        }
    }

    /// The search settings of this level for a game like `position` (the node budget is divided
    /// by the game's [`Evaluate::node_cost`], so a level thinks about as long on a big board);
    /// `seed` varies the noise (and so the games).
    pub fn config<P: Evaluate>(self, position: &P, seed: u64) -> SearchConfig {
        let (nodes, depth, noise, contempt) = match self {
            Level::Novice => (2_000, Some(1), 120, 0),
            Level::Amateur => (20_000, Some(3), 40, 0),
            Level::Strong => (60_000, None, 15, 0),
            Level::Master => (600_000, None, 0, 40),
        };
        let mut budget = Budget::nodes(nodes * 100 / position.node_cost().max(1));
        if let Some(depth) = depth {
            budget = budget.with_depth(depth);
        }
        // At race tables of more than two seats Master plays by Monte-Carlo tree search: its
        // playouts race the whole table, which a best-reply search of the same time does not
        // see (docs/engine.md). The other levels keep best-reply search.
        SearchConfig::new(budget)
            .with_noise(noise)
            .with_seed(seed)
            .with_contempt(contempt)
            .with_monte_carlo(self == Level::Master)
    }

    /// Chooses a move at this level (one thread: reproducible per seed).
    pub fn think<P: Position + Evaluate>(self, position: &P, seed: u64) -> ThinkResult<P::Move> {
        Search::new(position, self.config(position, seed)).run()
    }

    /// Chooses a move at this level, searching with `threads` threads (see
    /// [`crate::think_parallel`]); the same time as one thread, a deeper search, not
    /// reproducible with more than one.
    pub fn think_threads<P: Position + Evaluate>(
        self,
        position: &P,
        seed: u64,
        threads: usize,
    ) -> ThinkResult<P::Move> {
        crate::smp::think_parallel(position, self.config(position, seed), threads)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown level `{s}`; use novice, amateur, strong or master"))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use boardcraft_rules::{FamilyRules, Variant, race::RacePosition};

    use super::*;

    fn start(name: &str) -> RacePosition {
        match Variant::resolve(name).unwrap().rules {
            FamilyRules::Race(r) => RacePosition::new(Arc::clone(&r)),
            _ => unreachable!(),
        }
    }

    #[test]
    fn big_boards_get_the_budget_divided_by_their_node_cost() {
        let small = start("ugolki-9qum");
        let big = start("halma-16");
        assert_eq!((small.node_cost(), big.node_cost()), (100, 120));
        for level in Level::ALL {
            let nodes = |p: &RacePosition| level.config(p, 1).budget.nodes.unwrap();
            assert_eq!(nodes(&small) * 100 / 120, nodes(&big), "{level}");
        }
        assert_eq!(Level::Master.config(&big, 1).budget.nodes, Some(500_000));
        assert_eq!(Level::Master.config(&small, 1).budget.nodes, Some(600_000));
        assert_eq!(Level::Novice.config(&big, 1).budget.depth, Some(1));
    }
}
