//! The four playing strengths. Each is a node budget (reproducible: the same seed gives the same
//! game) plus, for the weaker ones, deliberate imperfection: a depth cap and evaluation noise.
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
