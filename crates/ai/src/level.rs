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
//! The steps are measured with `boardcraft-cli match` (each level ≥ 70 % against the one below
//! is the target); Master's 600 000 nodes take well under a second on one core for the 8×8
//! games, Focus and GIPF (0.2–0.7 s) and about a second for Halma 16×16.
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

    /// The search settings of this level; `seed` varies the noise (and so the games).
    pub fn config(self, seed: u64) -> SearchConfig {
        let (budget, noise, contempt) = match self {
            Level::Novice => (Budget::nodes(2_000).with_depth(1), 120, 0),
            Level::Amateur => (Budget::nodes(20_000).with_depth(3), 40, 0),
            Level::Strong => (Budget::nodes(60_000), 15, 0),
            Level::Master => (Budget::nodes(600_000), 0, 40),
        };
        SearchConfig::new(budget)
            .with_noise(noise)
            .with_seed(seed)
            .with_contempt(contempt)
    }

    /// Chooses a move at this level.
    pub fn think<P: Position + Evaluate>(self, position: &P, seed: u64) -> ThinkResult<P::Move> {
        Search::new(position, self.config(seed)).run()
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
