//! [`AnySearch`]: a search of an [`AnyPosition`] that runs on the family's own position type.
//!
//! `Search<AnyPosition>` works too, but every node then pays for the enum: move lists are
//! generated into a family vector and re-wrapped, and each call dispatches. Choosing the family
//! once, when the search starts, makes the CLI and the app search at the family's full speed.
//! A race game of more than two seats is searched by best-reply search ([`crate::best_reply`]).
use boardcraft_rules::{
    AnyMove, AnyPosition, Position, focus::FocusPosition, gipf::GipfPosition, race::RacePosition,
};

use crate::{
    best_reply::{BestReply, Reply},
    mcts::Mcts,
    search::{Progress, Search, SearchConfig, ThinkResult},
    smp::{Helpers, parallel_search, think_parallel},
};

/// A resumable search of an [`AnyPosition`]; see [`Search`] for the contract.
// Holds its position inline, as `AnyPosition` does (a race position is the largest).
#[allow(clippy::large_enum_variant)]
pub enum AnySearch {
    Race(Search<RacePosition>),
    /// A race game of more than two seats, searched by best-reply search.
    RaceReplies(Search<BestReply<RacePosition>>),
    /// A race game of more than two seats, searched by Monte-Carlo tree search.
    RaceMcts(Box<Mcts>),
    Focus(Search<FocusPosition>),
    Gipf(Search<GipfPosition>),
}

macro_rules! each {
    ($self:expr, $s:ident => $body:expr) => {
        match $self {
            AnySearch::Race($s) => $body,
            AnySearch::RaceReplies($s) => $body,
            AnySearch::RaceMcts($s) => $body,
            AnySearch::Focus($s) => $body,
            AnySearch::Gipf($s) => $body,
        }
    };
}

/// A best-reply search's move as the game's.
fn race_reply(r: Reply<boardcraft_rules::race::RaceMove>) -> AnyMove {
    AnyMove::Race(r.mv)
}

fn wrap<M>(r: ThinkResult<M>, f: fn(M) -> AnyMove) -> ThinkResult<AnyMove> {
    ThinkResult {
        best_move: r.best_move.map(f),
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
        pv: r.pv.into_iter().map(f).collect(),
        elapsed: r.elapsed,
    }
}

fn wrap_progress<M>(p: Progress<M>, f: fn(M) -> AnyMove) -> Progress<AnyMove> {
    match p {
        Progress::Running => Progress::Running,
        Progress::Done(r) => Progress::Done(wrap(r, f)),
    }
}

impl AnySearch {
    /// Whether `cfg` searches `position` by Monte-Carlo tree search: a race game of more than
    /// two seats whose race suits it ([`crate::mcts::suits`]) with [`SearchConfig::monte_carlo`]
    /// on (every other game is searched by alpha-beta, best replies at a larger table).
    pub fn plays_monte_carlo(position: &AnyPosition, cfg: &SearchConfig) -> bool {
        cfg.monte_carlo
            && matches!(position, AnyPosition::Race(p) if p.seat_count() > 2 && crate::mcts::suits(p))
    }

    pub fn new(position: &AnyPosition, cfg: SearchConfig) -> Self {
        match position {
            AnyPosition::Race(p) if Self::plays_monte_carlo(position, &cfg) => {
                AnySearch::RaceMcts(Box::new(Mcts::new(p, &cfg)))
            }
            AnyPosition::Race(p) if p.seat_count() > 2 => {
                AnySearch::RaceReplies(Search::new(&BestReply::new(p), cfg))
            }
            AnyPosition::Race(p) => AnySearch::Race(Search::new(p, cfg)),
            AnyPosition::Focus(p) => AnySearch::Focus(Search::new(p, cfg)),
            AnyPosition::Gipf(p) => AnySearch::Gipf(Search::new(p, cfg)),
        }
    }

    /// Searches `position` with `threads` threads (Lazy SMP, see [`crate::think_parallel`]);
    /// one thread is the same as `AnySearch::new(position, cfg).run()`.
    pub fn think_parallel(
        position: &AnyPosition,
        cfg: SearchConfig,
        threads: usize,
    ) -> ThinkResult<AnyMove> {
        match position {
            AnyPosition::Race(p) if Self::plays_monte_carlo(position, &cfg) => {
                wrap(Mcts::new(p, &cfg).run(), AnyMove::Race)
            }
            AnyPosition::Race(p) if p.seat_count() > 2 => {
                wrap(think_parallel(&BestReply::new(p), cfg, threads), race_reply)
            }
            AnyPosition::Race(p) => wrap(think_parallel(p, cfg, threads), AnyMove::Race),
            AnyPosition::Focus(p) => wrap(think_parallel(p, cfg, threads), AnyMove::Focus),
            AnyPosition::Gipf(p) => wrap(think_parallel(p, cfg, threads), AnyMove::Gipf),
        }
    }

    /// The first thread of a parallel search and its helpers' guard (see
    /// [`crate::parallel_search`]): step the search; dropping the guard stops the helpers.
    pub fn new_parallel(
        position: &AnyPosition,
        cfg: SearchConfig,
        threads: usize,
    ) -> (Self, Option<Helpers>) {
        match position {
            AnyPosition::Race(p) if Self::plays_monte_carlo(position, &cfg) => {
                (AnySearch::RaceMcts(Box::new(Mcts::new(p, &cfg))), None)
            }
            AnyPosition::Race(p) if p.seat_count() > 2 => {
                let (s, h) = parallel_search(&BestReply::new(p), cfg, threads);
                (AnySearch::RaceReplies(s), h)
            }
            AnyPosition::Race(p) => {
                let (s, h) = parallel_search(p, cfg, threads);
                (AnySearch::Race(s), h)
            }
            AnyPosition::Focus(p) => {
                let (s, h) = parallel_search(p, cfg, threads);
                (AnySearch::Focus(s), h)
            }
            AnyPosition::Gipf(p) => {
                let (s, h) = parallel_search(p, cfg, threads);
                (AnySearch::Gipf(s), h)
            }
        }
    }

    /// Runs at most `nodes` more nodes; see [`Search::step`].
    pub fn step(&mut self, nodes: u64) -> Progress<AnyMove> {
        match self {
            AnySearch::Race(s) => wrap_progress(s.step(nodes), AnyMove::Race),
            AnySearch::RaceReplies(s) => wrap_progress(s.step(nodes), race_reply),
            AnySearch::RaceMcts(s) => wrap_progress(s.step(nodes), AnyMove::Race),
            AnySearch::Focus(s) => wrap_progress(s.step(nodes), AnyMove::Focus),
            AnySearch::Gipf(s) => wrap_progress(s.step(nodes), AnyMove::Gipf),
        }
    }

    /// Runs the search to its end.
    pub fn run(self) -> ThinkResult<AnyMove> {
        match self {
            AnySearch::Race(s) => wrap(s.run(), AnyMove::Race),
            AnySearch::RaceReplies(s) => wrap(s.run(), race_reply),
            AnySearch::RaceMcts(s) => wrap((*s).run(), AnyMove::Race),
            AnySearch::Focus(s) => wrap(s.run(), AnyMove::Focus),
            AnySearch::Gipf(s) => wrap(s.run(), AnyMove::Gipf),
        }
    }

    /// Ends the search now with the best result so far; see [`Search::stop`].
    pub fn stop(&mut self) -> ThinkResult<AnyMove> {
        match self {
            AnySearch::Race(s) => wrap(s.stop(), AnyMove::Race),
            AnySearch::RaceReplies(s) => wrap(s.stop(), race_reply),
            AnySearch::RaceMcts(s) => wrap(s.stop(), AnyMove::Race),
            AnySearch::Focus(s) => wrap(s.stop(), AnyMove::Focus),
            AnySearch::Gipf(s) => wrap(s.stop(), AnyMove::Gipf),
        }
    }

    pub fn nodes(&self) -> u64 {
        each!(self, s => s.nodes())
    }

    pub fn depth(&self) -> u32 {
        each!(self, s => s.depth())
    }
}
