//! Monte-Carlo tree search for race games of more than two seats, with max^n back-up: at its
//! own nodes every seat picks the child best for itself (UCT; Sturtevant, *An analysis of UCT in
//! multi-player games*, 2008; Nijssen and Winands, *Search policies in multi-player games*,
//! 2013). A node's children are made as its visits grow, most forward moves first (progressive
//! widening), and a seat that can finish keeps only its finishing moves. A playout races every
//! seat greedily (the move that gains most towards its target corner, now and then a random
//! one) until one more seat finishes, and each seat is scored by how it stands then
//! ([`Reward`]: by place at tables of up to four, by its lead at larger ones). At larger
//! tables the searching seat looks one own move ahead in its playouts
//! ([`Settings::look_ahead`]), and until five of its pieces are home it plays the move its
//! playouts would play for it ([`Settings::racer_until`]).
//!
//! The playouts race the whole table, so they see what a search of one seat against "the
//! others" misses: that the others race too, over the same pieces as ladders. The search's
//! nodes are the plies it plays, in the tree and in playouts; its score is the mover's mean
//! reward in thousandths (0 … 1000), and its line the most visited path.
use std::{
    cell::RefCell,
    sync::{Arc, Weak},
};

use boardcraft_rules::{
    OutOfTurn, Position, Seat,
    race::{RaceMove, RacePosition, RaceRules},
};

use crate::{
    clock::Clock,
    eval::race::{corner_gains, standings},
    rng::SplitMix64,
    score::Score,
    search::{Budget, Progress, SearchConfig, ThinkResult, search_time},
};

/// Mixed into the search's seed, so that its random draws differ from other searches' of the
/// same seed.
const SEED_SALT: u64 = 0x4d43_5453;

/// A node of the tree: the position after `mv`.
struct Node {
    mv: Option<RaceMove>,
    visits: u32,
    /// Sum of the playouts' rewards, per seat.
    reward: [f32; Seat::MAX],
    /// The node's legal moves, most forward first (filled on the node's second visit), and the
    /// children made so far for the first of them (progressive widening).
    moves: Vec<RaceMove>,
    children: Vec<u32>,
    expanded: bool,
}

impl Node {
    fn new(mv: Option<RaceMove>) -> Node {
        Node {
            mv,
            visits: 0,
            reward: [0.0; Seat::MAX],
            moves: Vec::new(),
            children: Vec::new(),
            expanded: false,
        }
    }
}

/// The search's settings. [`Settings::for_seats`] is what Master plays with; the figures behind
/// them are in docs/measurements.md.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The exploration constant of UCT (rewards lie between 0 and 1).
    pub exploration: f32,
    /// How often, in thousandths, a playout plays a uniformly random move instead of the
    /// greedy one (so that the playouts do not all run the same race).
    pub random_per_mille: u64,
    /// A node with `v` visits has `widening × √(v + 1)` children (most forward moves first):
    /// with a hundred moves a turn, a tree that tried every child once before going deeper
    /// would stay one move deep.
    pub widening: f32,
    /// A playout stops after this many plies per seat even if no seat has finished (a race
    /// blocked by pieces that no greedy move will clear).
    pub plies_per_seat: u32,
    /// How the seats are scored at a playout's end.
    pub reward: Reward,
    /// How much a finish loses for coming later: a seat that finishes in a playout `t` plies
    /// after the root keeps `1 − haste × t / cap` of its reward (and a seat still racing at the
    /// cap `1 − haste`), so that a seat sure of its place still scores more by finishing
    /// sooner. Without it every move of such a seat scored the same and it could dawdle (seen:
    /// two seats left of six, one walled in for good, the other shuffling its pieces for some
    /// 960 plies until the ply cap).
    pub haste: f32,
    /// How many of its most forward moves the searching seat (the one to move at the root)
    /// weighs in its playouts by what they make of its next move: it plays the one whose gain
    /// plus the best gain of its own next move (the others standing still) is largest. 0: it
    /// races greedily like the others. A greedy racer never steps to set up a hop, so a move
    /// that built a ladder for the seat's next move scored as if the seat would not climb it.
    /// The trial moves count as plies of the budget.
    pub look_ahead: usize,
    /// While the searching seat has fewer than this many pieces in its target it plays the move
    /// its playouts would play for it (looking ahead as [`Settings::look_ahead`] says, a
    /// finishing move first), not the search's most visited one; the search still runs, for
    /// the move's value and line. Early in a six-seat race every playout runs some 200 plies,
    /// and the search could not tell its moves apart: from the same position it chose a hop of
    /// eight rows, of six or of four by the seed alone, each scored within a hundredth of the
    /// others. 0: the search's move throughout.
    pub racer_until: u32,
}

/// How the seats are scored at a playout's end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reward {
    /// The finishers are placed in the order they finished and the seats still racing behind
    /// them by the evaluation's standings; a place scores `((n − place) / (n − 1))^power`
    /// (2 weighs first place above an even spread over the places).
    Place { power: i32 },
    /// The first seat to finish since the search began scores 1 (a second one ½). A seat
    /// still racing scores `1 / (1 + e^(−lead / scale))`, its lead being its standing minus
    /// the best standing of the others still racing (of another team; the evaluation's units,
    /// 40 a row of distance), at half the scale of the last finisher's reward; the last seat
    /// racing scores 0. A place says only who is ahead, not by how much, and at six seats most
    /// playouts end with five seats still racing.
    Lead { scale: f32 },
}

impl Settings {
    /// Master's settings at a table of `seats`: at more than four seats the lead as the
    /// reward and the searching seat looking ahead in its playouts, at up to four the place
    /// and greedy playouts, as measured (docs/measurements.md: at six seats the lead was first
    /// in 25 of 50 games where the place was first in 17, and looking ahead first more often
    /// on fresh openings than greedy playouts; at four seats the lead was first in 48 of 75
    /// where the place was first in 55).
    pub fn for_seats(seats: usize) -> Settings {
        if seats > 4 {
            Settings {
                reward: Reward::Lead { scale: 120.0 },
                look_ahead: 8,
                racer_until: 5,
                ..Settings::default()
            }
        } else {
            Settings::default()
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            exploration: 0.3,
            random_per_mille: 100,
            widening: 1.0,
            plies_per_seat: 60,
            reward: Reward::Place { power: 2 },
            haste: 0.3,
            look_ahead: 0,
            racer_until: 0,
        }
    }
}

/// Whether the race of `position`'s rules suits this search: a greedy playout from the start
/// (no random moves) brings some seat to a finish within the playouts' cap. Where it does not,
/// nearly every playout would end at the cap and be scored by the evaluation alone: so on the
/// 16×16 Halma boards, where greedy racers need more than 60 moves a seat, and where this search
/// was measured weaker than best-reply search (docs/measurements.md). Found once per rule set.
pub fn suits(position: &RacePosition) -> bool {
    thread_local! {
        // Keyed by the rules' allocation: the `Weak` keeps the address from being reused.
        static SUITS: RefCell<Vec<(Weak<RaceRules>, bool)>> = const { RefCell::new(Vec::new()) };
    }
    let rules = position.rules();
    SUITS.with(|cell| {
        let mut known = cell.borrow_mut();
        known.retain(|(w, _)| w.strong_count() > 0);
        if let Some((_, suits)) = known
            .iter()
            .find(|(w, _)| std::ptr::eq(w.as_ptr(), Arc::as_ptr(rules)))
        {
            return *suits;
        }
        let mut start = RacePosition::new(Arc::clone(rules));
        let greedy = Settings {
            random_per_mille: 0,
            look_ahead: 0,
            ..Settings::default()
        };
        let cfg = SearchConfig::new(Budget::nodes(1));
        let mut search = Mcts::with_settings(&start, &cfg, greedy);
        search.playout(&mut start);
        let suits = start.is_game_over() || !start.finish_order().is_empty();
        known.push((Arc::downgrade(rules), suits));
        suits
    })
}

/// A resumable Monte-Carlo search of a race position with more than two seats.
pub struct Mcts {
    root: RacePosition,
    /// How many seats had finished at the root: the places the search can still win come
    /// after theirs.
    root_finished: usize,
    nodes: Vec<Node>,
    rng: SplitMix64,
    /// Nodes (plies played) and time; a depth limit does not apply.
    budget: Budget,
    stop_requested: bool,
    /// Plies played, in the tree and in playouts: the search's unit of work.
    plies: u64,
    playouts: u64,
    settings: Settings,
    clock: Clock,
    done: Option<ThinkResult<RaceMove>>,
    moves: Vec<RaceMove>,
    gains: Vec<i32>,
    /// The searching seat's next moves and their gains, for [`Mcts::looking_ahead`].
    next_moves: Vec<RaceMove>,
    next_gains: Vec<i32>,
    path: Vec<u32>,
    deepest: u32,
    /// The move the searching seat plays while it is early in its race
    /// ([`Settings::racer_until`]).
    racer: Option<RaceMove>,
}

impl Mcts {
    pub fn new(position: &RacePosition, cfg: &SearchConfig) -> Mcts {
        Mcts::with_settings(position, cfg, Settings::for_seats(position.seat_count()))
    }

    /// A search with other settings than Master's (for experiments and tests).
    pub fn with_settings(position: &RacePosition, cfg: &SearchConfig, settings: Settings) -> Mcts {
        let mut search = Mcts {
            root: position.clone(),
            root_finished: position.finish_order().len(),
            nodes: vec![Node::new(None)],
            rng: SplitMix64::new(cfg.seed ^ SEED_SALT),
            budget: cfg.budget,
            plies: 0,
            playouts: 0,
            settings,
            stop_requested: false,
            clock: Clock::start(),
            done: None,
            moves: Vec::new(),
            gains: Vec::new(),
            next_moves: Vec::new(),
            next_gains: Vec::new(),
            path: Vec::new(),
            deepest: 0,
            racer: None,
        };
        search.racer = search.racer_move();
        search
    }

    /// The searching seat's move while it is early in its race ([`Settings::racer_until`]):
    /// a finishing move if it has one, else the move its playouts would choose for it.
    fn racer_move(&mut self) -> Option<RaceMove> {
        let seat = self.root.side_to_move();
        let s = self.settings;
        if s.racer_until == 0
            || s.look_ahead == 0
            || self.root.is_game_over()
            || self.root.pieces_in_target(seat) >= s.racer_until
        {
            return None;
        }
        let mut pos = self.root.clone();
        self.moves.clear();
        pos.legal_moves(&mut self.moves);
        if self.moves.is_empty() {
            return None;
        }
        let finishing = self
            .moves
            .iter()
            .copied()
            .find(|mv| finishes(&mut pos, seat, mv));
        Some(finishing.unwrap_or_else(|| {
            let pick = self.looking_ahead(&mut pos, seat);
            self.moves[pick]
        }))
    }

    pub fn nodes(&self) -> u64 {
        self.plies
    }

    /// The longest path from the root into the tree so far.
    pub fn depth(&self) -> u32 {
        self.deepest
    }

    pub fn step(&mut self, plies: u64) -> Progress<RaceMove> {
        if let Some(r) = &self.done {
            return Progress::Done(r.clone());
        }
        if self.root.is_game_over() || self.root.count_legal_moves() == 0 {
            return Progress::Done(self.finish());
        }
        let end = self.plies.saturating_add(plies.max(1));
        while self.plies < end {
            if self.out_of_budget() {
                return Progress::Done(self.finish());
            }
            self.iterate();
        }
        Progress::Running
    }

    pub fn run(mut self) -> ThinkResult<RaceMove> {
        loop {
            if let Progress::Done(r) = self.step(u64::MAX) {
                return r;
            }
        }
    }

    /// Ends the search now with the best result so far.
    pub fn stop(&mut self) -> ThinkResult<RaceMove> {
        self.stop_requested = true;
        self.finish()
    }

    fn out_of_budget(&self) -> bool {
        // At least one playout, so that even a tiny budget gives a move the search has seen.
        if self.playouts == 0 {
            return false;
        }
        self.stop_requested
            || self.budget.nodes.is_some_and(|n| self.plies >= n)
            || self
                .budget
                .time
                .is_some_and(|t| self.clock.elapsed() >= search_time(t))
    }

    fn finish(&mut self) -> ThinkResult<RaceMove> {
        if let Some(r) = &self.done {
            return r.clone();
        }
        let seat = self.root.side_to_move();
        // A node's mean reward for the mover, in thousandths.
        let mean = |n: u32| {
            let node = &self.nodes[n as usize];
            (node.reward[seat.index()] / node.visits.max(1) as f32 * 1000.0).round() as i32
        };
        let most_visited = |n: u32| {
            self.nodes[n as usize]
                .children
                .iter()
                .copied()
                .filter(|&c| self.nodes[c as usize].visits > 0)
                .max_by_key(|&c| self.nodes[c as usize].visits)
        };
        let child_of = |mv: RaceMove| {
            self.nodes[0].children.iter().copied().find(|&c| {
                self.nodes[c as usize].mv == Some(mv) && self.nodes[c as usize].visits > 0
            })
        };
        // The move played, the node its line goes on from and its value: early in the race the
        // racer's move (valued by its child, or by the position where the search made none),
        // else the most visited child.
        let (played, mut at, score) = match self.racer {
            Some(mv) => match child_of(mv) {
                Some(c) => (Some(mv), Some(c), mean(c)),
                None => (Some(mv), None, mean(0)),
            },
            None => match most_visited(0) {
                Some(c) => (self.nodes[c as usize].mv, Some(c), mean(c)),
                None => (None, None, 0),
            },
        };
        let mut pv: Vec<RaceMove> = played.into_iter().collect();
        while let Some(next) = at.and_then(most_visited) {
            pv.push(self.nodes[next as usize].mv.expect("a child has a move"));
            at = Some(next);
        }
        if pv.is_empty() {
            let mut moves = Vec::new();
            self.root.legal_moves(&mut moves);
            pv.extend(moves.into_iter().next());
        }
        let result = ThinkResult {
            best_move: pv.first().copied(),
            score: Score(score),
            depth: pv.len() as u32,
            nodes: self.plies,
            pv,
            elapsed: self.clock.elapsed(),
        };
        self.done = Some(result.clone());
        result
    }

    /// One descent, expansion, playout and back-up.
    fn iterate(&mut self) {
        let mut pos = self.root.clone();
        self.path.clear();
        let mut at = 0u32;
        self.path.push(at);
        loop {
            if pos.is_game_over() {
                break;
            }
            let visits = self.nodes[at as usize].visits;
            if visits == 0 && at != 0 {
                break;
            }
            if !self.nodes[at as usize].expanded {
                self.expand(at, &pos);
            }
            let Some(child) = self.select(at, pos.side_to_move()) else {
                break;
            };
            let mv = self.nodes[child as usize].mv.expect("a child has a move");
            pos.play_unchecked(&mv);
            self.plies += 1;
            at = child;
            self.path.push(at);
        }
        self.deepest = self.deepest.max(self.path.len() as u32 - 1);
        let reward = self.playout(&mut pos);
        self.playouts += 1;
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            for (r, x) in node.reward.iter_mut().zip(reward.iter()) {
                *r += x;
            }
        }
    }

    /// Lists the node's moves, most forward first. Where some of them finish the seat to move
    /// only those are kept: finishing now takes the best place still open, which no later move
    /// can better.
    fn expand(&mut self, at: u32, pos: &RacePosition) {
        let seat = pos.side_to_move();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut probe = pos.clone();
        let finishing: Vec<RaceMove> = moves
            .iter()
            .filter(|mv| finishes(&mut probe, seat, mv))
            .copied()
            .collect();
        if !finishing.is_empty() {
            moves = finishing;
        }
        corner_gains(pos, seat, &moves, &mut self.gains);
        let mut keyed: Vec<(i32, u64, RaceMove)> = moves
            .into_iter()
            .zip(self.gains.iter())
            .map(|(m, &g)| (-g, self.rng.next_u64(), m))
            .collect();
        keyed.sort_unstable_by_key(|&(g, r, _)| (g, r));
        let node = &mut self.nodes[at as usize];
        node.moves = keyed.into_iter().map(|(_, _, m)| m).collect();
        node.expanded = true;
    }

    /// The child to descend into for `seat`, making a new one when the node's visits allow
    /// one more (progressive widening, most forward moves first).
    fn select(&mut self, at: u32, seat: Seat) -> Option<u32> {
        let s = self.settings;
        let (visits, made, available) = {
            let node = &self.nodes[at as usize];
            (node.visits, node.children.len(), node.moves.len())
        };
        let allowed = ((s.widening * ((visits + 1) as f32).sqrt()).ceil() as usize)
            .max(1)
            .min(available);
        if made < allowed {
            let mv = self.nodes[at as usize].moves[made];
            let id = self.nodes.len() as u32;
            self.nodes.push(Node::new(Some(mv)));
            self.nodes[at as usize].children.push(id);
            return Some(id);
        }
        let log = ((visits.max(1)) as f32).ln();
        let node = &self.nodes[at as usize];
        node.children.iter().copied().max_by(|&a, &b| {
            let ucb = |c: u32| {
                let n = &self.nodes[c as usize];
                if n.visits == 0 {
                    return f32::INFINITY;
                }
                let v = n.visits as f32;
                n.reward[seat.index()] / v + s.exploration * (log / v).sqrt()
            };
            ucb(a).total_cmp(&ucb(b))
        })
    }

    /// Races every seat from `pos` until one more seat finishes (or the cap), greedily or, for
    /// the searching seat, looking ahead ([`Settings::look_ahead`]), and scores the seats
    /// ([`Reward`]).
    fn playout(&mut self, pos: &mut RacePosition) -> [f32; Seat::MAX] {
        let seats = pos.seat_count();
        let finished_before = pos.finish_order().len();
        let cap = self.playout_cap(seats);
        let searcher = self.root.side_to_move();
        let mut plies = 0;
        while !pos.is_game_over() && plies < cap {
            let finished = Seat::all(seats).filter(|&s| pos.has_finished(s)).count();
            if finished > finished_before {
                break;
            }
            self.moves.clear();
            pos.legal_moves(&mut self.moves);
            if self.moves.is_empty() {
                break;
            }
            let seat = pos.side_to_move();
            let pick = if self.rng.below(1000) < self.settings.random_per_mille {
                self.rng.below(self.moves.len() as u64) as usize
            } else if seat == searcher && self.settings.look_ahead > 0 {
                self.looking_ahead(pos, seat)
            } else {
                self.most_forward(pos, seat)
            };
            let mv = self.moves[pick];
            pos.play_unchecked(&mv);
            plies += 1;
        }
        self.plies += u64::from(plies);
        let depth = self.path.len().saturating_sub(1) as u32;
        let mut reward = self.rewards(pos);
        self.hasten(pos, &mut reward, depth + plies, plies >= cap);
        reward
    }

    /// The index in `self.moves` of the move that gains most towards `seat`'s target corner
    /// (ties broken at random).
    fn most_forward(&mut self, pos: &RacePosition, seat: Seat) -> usize {
        corner_gains(pos, seat, &self.moves, &mut self.gains);
        let best = *self.gains.iter().max().expect("moves exist");
        let ties = self.gains.iter().filter(|&&g| g == best).count();
        let k = self.rng.below(ties as u64) as usize;
        self.gains
            .iter()
            .enumerate()
            .filter(|&(_, &g)| g == best)
            .nth(k)
            .map(|(i, _)| i)
            .expect("k < ties")
    }

    /// The index in `self.moves` of the move, among `seat`'s [`Settings::look_ahead`] most
    /// forward, whose gain plus the best gain of `seat`'s next move from where it leads (the
    /// other seats standing still) is largest; a move that finishes comes first. The moves it
    /// tries count as plies.
    fn looking_ahead(&mut self, pos: &mut RacePosition, seat: Seat) -> usize {
        corner_gains(pos, seat, &self.moves, &mut self.gains);
        let mut candidates: Vec<(i32, u64, usize)> = self
            .gains
            .iter()
            .enumerate()
            .map(|(i, &g)| (-g, self.rng.next_u64(), i))
            .collect();
        candidates.sort_unstable();
        candidates.truncate(self.settings.look_ahead);
        let (mut best, mut pick) = (i32::MIN, candidates[0].2);
        for &(minus_gain, _, i) in &candidates {
            let mv = self.moves[i];
            let undo = pos.play_unchecked(&mv);
            self.plies += 1;
            let value = if pos.has_finished(seat) {
                i32::MAX
            } else {
                pos.legal_moves_of(seat, &mut self.next_moves);
                corner_gains(pos, seat, &self.next_moves, &mut self.next_gains);
                -minus_gain + self.next_gains.iter().copied().max().unwrap_or(0)
            };
            pos.undo(&mv, undo);
            if value > best {
                (best, pick) = (value, i);
            }
        }
        pick
    }

    /// The most plies a playout plays at a table of `seats`.
    fn playout_cap(&self, seats: usize) -> u32 {
        self.settings.plies_per_seat * seats as u32
    }

    /// Scales the rewards by the playout's length ([`Settings::haste`]): a seat that finished
    /// in the playout `plies` after the root keeps `1 − haste × plies / cap` of its reward, and
    /// a seat still racing when the playout reached its cap keeps `1 − haste`, as if it had
    /// finished there. Only the finishers are scaled otherwise: scaling every seat would have
    /// a seat behind prefer a rival's early finish.
    fn hasten(&self, pos: &RacePosition, reward: &mut [f32; Seat::MAX], plies: u32, capped: bool) {
        let haste = self.settings.haste;
        let cap = self.playout_cap(pos.seat_count());
        let length = (plies as f32 / cap.max(1) as f32).min(1.0);
        let order = pos.finish_order();
        let finishers = order.get(self.root_finished..).unwrap_or_default();
        for s in Seat::all(pos.seat_count()) {
            if finishers.contains(&s) {
                reward[s.index()] *= 1.0 - haste * length;
            } else if capped {
                reward[s.index()] *= 1.0 - haste;
            }
        }
    }

    /// Each seat's reward at a playout's end (see [`Reward`]). Seats that had
    /// finished at the root never move again, so their reward is never read, and nor is that
    /// of a seat that went out (no legal move, where that loses).
    fn rewards(&self, pos: &RacePosition) -> [f32; Seat::MAX] {
        match self.settings.reward {
            Reward::Place { power } => place_rewards(pos, power),
            Reward::Lead { scale } => lead_rewards(pos, self.root_finished, scale),
        }
    }
}

/// Whether `mv` finishes `seat`'s race.
fn finishes(pos: &mut RacePosition, seat: Seat, mv: &RaceMove) -> bool {
    let undo = pos.play_unchecked(mv);
    let done = pos.has_finished(seat);
    pos.undo(mv, undo);
    done
}

fn place_rewards(pos: &RacePosition, power: i32) -> [f32; Seat::MAX] {
    let seats = pos.seat_count();
    let mut place = [0u8; Seat::MAX];
    if let Some(outcome) = pos.outcome() {
        for s in Seat::all(seats) {
            place[s.index()] = outcome.places.of(s);
        }
    } else {
        let order = pos.finish_order();
        for (i, s) in order.iter().enumerate() {
            place[s.index()] = i as u8 + 1;
        }
        let value = standings(pos);
        for s in Seat::all(seats).filter(|s| !order.contains(s)) {
            let better = Seat::all(seats)
                .filter(|o| !order.contains(o) && value[o.index()] > value[s.index()])
                .count();
            place[s.index()] = (order.len() + better + 1) as u8;
        }
    }
    let mut reward = [0.0; Seat::MAX];
    for s in Seat::all(seats) {
        let r = (seats - usize::from(place[s.index()])) as f32 / (seats - 1) as f32;
        reward[s.index()] = r.powi(power);
    }
    reward
}

/// The lead rewards, where the first `finished_before` of the finishing order had finished at
/// the root.
fn lead_rewards(pos: &RacePosition, finished_before: usize, lead_scale: f32) -> [f32; Seat::MAX] {
    let seats = pos.seat_count();
    let rules = pos.rules();
    let order = pos.finish_order();
    let just_finished = order.get(finished_before..).unwrap_or_default();
    let value = standings(pos);
    let racing = |s: Seat| pos.still_plays(s);
    let halved = |k: usize| 0.5f32.powi(k as i32);
    let scale = halved(just_finished.len());
    let mut reward = [0.0; Seat::MAX];
    for s in Seat::all(seats) {
        reward[s.index()] = if let Some(k) = just_finished.iter().position(|&f| f == s) {
            halved(k)
        } else if racing(s) {
            let rival = Seat::all(seats)
                .filter(|&o| racing(o) && rules.team(o) != rules.team(s))
                .map(|o| value[o.index()])
                .max();
            match rival {
                Some(r) => {
                    let lead = (value[s.index()] - r) as f32;
                    scale / (1.0 + (-lead / lead_scale).exp())
                }
                None => 0.0,
            }
        } else {
            0.0
        };
    }
    reward
}

#[cfg(test)]
mod tests {
    use boardcraft_rules::{AnyPosition, shipped_variant};

    use super::*;

    fn star(players: usize) -> RacePosition {
        match shipped_variant("chinese-checkers")
            .unwrap()
            .with_players(players)
            .unwrap()
            .new_game()
        {
            AnyPosition::Race(p) => p,
            _ => unreachable!("Chinese checkers is a race"),
        }
    }

    fn lead(pos: &RacePosition, finished_before: usize) -> [f32; Seat::MAX] {
        lead_rewards(pos, finished_before, 120.0)
    }

    /// The star for `players`, every seat racing greedily until `done` says so.
    fn raced_greedily(players: usize, done: impl Fn(&RacePosition) -> bool) -> RacePosition {
        let mut pos = star(players);
        let mut moves = Vec::new();
        let mut gains = Vec::new();
        while !done(&pos) {
            moves.clear();
            pos.legal_moves(&mut moves);
            let seat = pos.side_to_move();
            corner_gains(&pos, seat, &moves, &mut gains);
            let best = (0..moves.len()).max_by_key(|&i| gains[i]).unwrap();
            pos.play(&moves[best]).unwrap();
        }
        pos
    }

    /// The star for `players`, raced greedily until the first seat finishes.
    fn to_the_first_finish(players: usize) -> RacePosition {
        raced_greedily(players, |pos| !pos.finish_order().is_empty())
    }

    /// Own moves `seat` needs to fill its target on the three-seat star (every target starts
    /// empty) with the others passing, choosing each move as the playouts do without random
    /// moves: by looking ahead among `look_ahead` moves, or greedily with 0.
    fn alone_across_the_star(look_ahead: usize) -> u32 {
        let mut pos = star(3);
        let settings = Settings {
            random_per_mille: 0,
            look_ahead,
            ..Settings::default()
        };
        let cfg = SearchConfig::new(Budget::nodes(1)).with_seed(7);
        let mut search = Mcts::with_settings(&pos, &cfg, settings);
        let seat = pos.side_to_move();
        let mut made = 0;
        while !pos.has_finished(seat) && made < 200 {
            search.moves.clear();
            pos.legal_moves(&mut search.moves);
            let pick = if look_ahead > 0 {
                search.looking_ahead(&mut pos, seat)
            } else {
                search.most_forward(&pos, seat)
            };
            let mv = search.moves[pick];
            pos.play(&mv).unwrap();
            made += 1;
            while !pos.has_finished(seat) && pos.side_to_move() != seat {
                pos.skip_turn();
            }
        }
        made
    }

    #[test]
    fn a_playout_racer_that_looks_one_move_ahead_crosses_the_star_sooner() {
        let (greedy, looking) = (alone_across_the_star(0), alone_across_the_star(8));
        assert!(
            looking + 10 <= greedy,
            "looking ahead {looking}, greedy {greedy}"
        );
    }

    #[test]
    fn the_searching_seat_plays_the_move_whose_next_move_gains_most() {
        // Positions of a six-seat race; in each, the searching seat's pick against every one of
        // its eight most forward moves, by the gain of the move plus its best next gain.
        let mut pos = star(6);
        let settings = Settings::for_seats(6);
        let cfg = SearchConfig::new(Budget::nodes(1));
        let mut search = Mcts::with_settings(&pos, &cfg, settings);
        let two_moves = |pos: &mut RacePosition, mv: RaceMove, seat: Seat| {
            let mut gains = Vec::new();
            corner_gains(pos, seat, &[mv], &mut gains);
            let first = gains[0];
            let undo = pos.play_unchecked(&mv);
            let mut next = Vec::new();
            pos.legal_moves_of(seat, &mut next);
            corner_gains(pos, seat, &next, &mut gains);
            let total = first + gains.iter().copied().max().unwrap_or(0);
            pos.undo(&mv, undo);
            total
        };
        let mut differed = 0;
        for ply in 0..120 {
            let seat = pos.side_to_move();
            search.moves.clear();
            pos.legal_moves(&mut search.moves);
            let picked = search.looking_ahead(&mut pos, seat);
            let forward = search.most_forward(&pos, seat);
            let (picked, forward) = (search.moves[picked], search.moves[forward]);
            let (a, b) = (
                two_moves(&mut pos, picked, seat),
                two_moves(&mut pos, forward, seat),
            );
            assert!(a >= b, "ply {ply}: {a} < {b}");
            differed += usize::from(a > b);
            pos.play(&forward).unwrap();
        }
        // It is not the greedy racer under another name: often the most forward move is not
        // the best start of two.
        assert!(differed >= 10, "{differed} of 120");
    }

    #[test]
    fn master_scores_by_place_up_to_four_seats_and_by_lead_beyond() {
        for seats in 2..=4 {
            let settings = Settings::for_seats(seats);
            assert_eq!(settings.reward, Reward::Place { power: 2 });
            assert_eq!(settings.look_ahead, 0);
            assert_eq!(settings.racer_until, 0);
        }
        let six = Settings::for_seats(6);
        assert_eq!(six.reward, Reward::Lead { scale: 120.0 });
        assert_eq!(six.look_ahead, 8);
        assert_eq!(six.racer_until, 5);
    }

    /// A six-seat race played by greedy racers until the seat to move has `home` pieces in its
    /// target, before any seat has finished.
    fn with_pieces_home(home: u32) -> RacePosition {
        let pos = raced_greedily(6, |pos| {
            pos.pieces_in_target(pos.side_to_move()) >= home || !pos.finish_order().is_empty()
        });
        assert!(pos.finish_order().is_empty(), "nobody has finished yet");
        pos
    }

    #[test]
    fn early_in_its_race_the_seat_plays_its_racers_move_and_later_the_searchs() {
        for home in [0, 3, 4] {
            let pos = with_pieces_home(home);
            let seat = pos.side_to_move();
            let cfg = SearchConfig::new(Budget::nodes(60_000)).with_seed(home.into());
            let search = Mcts::with_settings(&pos, &cfg, Settings::for_seats(6));
            let racer = search.racer.expect("fewer than five pieces home");
            // The racer's move is the one its playouts would play: the best start of two own
            // moves among its eight most forward.
            let mut probe = Mcts::with_settings(&pos, &cfg, Settings::for_seats(6));
            let mut p = pos.clone();
            probe.moves.clear();
            p.legal_moves(&mut probe.moves);
            probe.rng = SplitMix64::new(cfg.seed ^ SEED_SALT);
            let pick = probe.looking_ahead(&mut p, seat);
            assert_eq!(racer, probe.moves[pick], "{home} pieces home");
            let result = search.run();
            assert_eq!(result.best_move, Some(racer), "{home} pieces home");
            assert_eq!(result.pv.first(), Some(&racer));
            assert!((0..=1000).contains(&result.score.0));
        }
        // From five pieces home the search's own choice: its most visited child.
        let pos = with_pieces_home(5);
        let cfg = SearchConfig::new(Budget::nodes(60_000)).with_seed(5);
        let mut search = Mcts::with_settings(&pos, &cfg, Settings::for_seats(6));
        assert_eq!(search.racer, None);
        while let Progress::Running = search.step(10_000) {}
        let most_visited = search.nodes[0]
            .children
            .iter()
            .max_by_key(|&&c| search.nodes[c as usize].visits)
            .map(|&c| search.nodes[c as usize].mv.unwrap());
        assert_eq!(search.finish().best_move, most_visited);
        // Without the setting, the search's choice from the start too.
        let cfg = SearchConfig::new(Budget::nodes(1_000));
        let greedy = Settings {
            racer_until: 0,
            ..Settings::for_seats(6)
        };
        assert_eq!(Mcts::with_settings(&star(6), &cfg, greedy).racer, None);
    }

    #[test]
    fn level_seats_score_a_half_and_a_lead_scores_more() {
        let mut pos = star(6);
        let rewards = lead(&pos, 0);
        assert!(rewards[..6].iter().all(|&r| r == 0.5), "{rewards:?}");
        // The first seat moves forward and the others pass: it leads every other seat by the
        // same, and each of them trails it.
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let seat = pos.side_to_move();
        let mut gains = Vec::new();
        corner_gains(&pos, seat, &moves, &mut gains);
        let best = (0..moves.len()).max_by_key(|&i| gains[i]).unwrap();
        pos.play(&moves[best]).unwrap();
        let rewards = lead(&pos, 0);
        assert!(rewards[seat.index()] > 0.5, "{rewards:?}");
        for other in Seat::all(6).filter(|&o| o != seat) {
            assert!(rewards[other.index()] < 0.5, "{rewards:?}");
        }
    }

    #[test]
    fn the_seat_that_finishes_in_the_playout_scores_one_and_the_others_at_most_a_half() {
        // Greedy play to the first finish; the finishing ply is the playout's end.
        let pos = to_the_first_finish(4);
        let winner = pos.finish_order()[0];
        let rewards = lead(&pos, 0);
        assert_eq!(rewards[winner.index()], 1.0);
        for other in Seat::all(4).filter(|&o| o != winner) {
            assert!(rewards[other.index()] <= 0.5, "{rewards:?}");
        }
        // Had the winner finished before the playout, only the seats still racing would count,
        // and the best of them would lead.
        let rewards = lead(&pos, 1);
        assert_eq!(rewards[winner.index()], 0.0);
        let best = rewards[..4].iter().copied().fold(0.0, f32::max);
        assert!(best > 0.5, "{rewards:?}");
    }

    #[test]
    fn a_finish_scores_less_the_later_it_comes_and_a_capped_playout_least() {
        let pos = to_the_first_finish(4);
        let winner = pos.finish_order()[0];
        let cfg = SearchConfig::new(Budget::nodes(1));
        let search = Mcts::with_settings(&star(4), &cfg, Settings::for_seats(4));
        let cap = search.playout_cap(4);
        let scored = |plies: u32, capped: bool| {
            let mut reward = search.rewards(&pos);
            search.hasten(&pos, &mut reward, plies, capped);
            reward
        };
        let (soon, late) = (scored(40, false), scored(160, false));
        assert!(
            soon[winner.index()] > late[winner.index()],
            "{soon:?} {late:?}"
        );
        assert!(late[winner.index()] >= 1.0 - search.settings.haste);
        // The seats that did not finish are not scaled by when another seat finished.
        for other in Seat::all(4).filter(|&o| o != winner) {
            assert_eq!(soon[other.index()], late[other.index()]);
        }
        // Searched from after that finish, so that nobody finishes in the playout: a seat still
        // racing at the cap keeps 1 − haste of its reward, less than any finish.
        let before = pos.finish_order().len();
        let search = Mcts::with_settings(&pos, &cfg, Settings::for_seats(4));
        assert_eq!(search.root_finished, before);
        let mut reward = search.rewards(&pos);
        let unscaled = reward;
        search.hasten(&pos, &mut reward, cap, true);
        for s in Seat::all(4).filter(|&o| o != winner) {
            let kept = unscaled[s.index()] * (1.0 - search.settings.haste);
            assert!((reward[s.index()] - kept).abs() < 1e-6, "{reward:?}");
        }
    }
}
