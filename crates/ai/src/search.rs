//! Principal-variation search (negamax alpha-beta) with iterative deepening and aspiration
//! windows, a transposition table, killer and history move ordering (with a malus for the moves
//! that failed before a cut), late-move reductions, reverse futility and late-move pruning at
//! null-window nodes near the horizon, and — for games whose [`Evaluate::QUIESCENCE`] is on — a
//! quiescence search over noisy moves below it; written as an explicit state machine instead of
//! recursion, so that it can stop after any node and resume later.
//!
//! That is what makes the search *cooperative*: [`Search::step`] runs at most a given number of
//! nodes and returns, keeping the whole tree walk (the stack of frames, the moves played on the
//! working position) inside the `Search` value. Because nothing depends on where a slice ends,
//! a search run in slices visits exactly the same nodes in the same order as one run in a single
//! call: with the same node budget and seed it returns the same move, score and principal
//! variation. Only time budgets make a search non-reproducible.
//!
//! Draws by repetition and by the ply cap depend on the path to a position, which the Zobrist
//! hash does not cover. The search scores a position that repeats one earlier on the current
//! search path as a draw (continuing the cycle cannot gain anything) and never stores such a
//! leaf or a finished game in the table; scores backed up from them can still reach the table,
//! the usual compromise of game-playing programs (the error is bounded by the draw score and
//! only affects positions met again through another path).
use std::{
    hash::{Hash, Hasher},
    sync::Arc,
    time::Duration,
};

use boardcraft_rules::{Outcome, Position, Seat};

use crate::{
    clock::Clock,
    eval::Evaluate,
    rng::mix,
    score::{INFINITY, Score, WIN, WIN_THRESHOLD, from_tt, to_tt},
    tt::{Bound, TransTable},
};

/// How much a search may spend. Every limit that is set applies; with none set the search runs
/// to [`MAX_DEPTH`] (only sensible for tiny games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Total nodes (positions entered). Reproducible: the same budget gives the same result.
    pub nodes: Option<u64>,
    /// Wall-clock time; for play, not reproducible.
    pub time: Option<Duration>,
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
}

impl Budget {
    pub fn nodes(n: u64) -> Self {
        Budget {
            nodes: Some(n),
            ..Budget::default()
        }
    }

    pub fn time(t: Duration) -> Self {
        Budget {
            time: Some(t),
            ..Budget::default()
        }
    }

    pub fn depth(d: u32) -> Self {
        Budget {
            depth: Some(d),
            ..Budget::default()
        }
    }

    pub fn with_depth(mut self, d: u32) -> Self {
        self.depth = Some(d);
        self
    }

    pub fn with_nodes(mut self, n: u64) -> Self {
        self.nodes = Some(n);
        self
    }

    pub fn with_time(mut self, t: Duration) -> Self {
        self.time = Some(t);
        self
    }
}

/// The deepest iteration the search ever starts.
pub const MAX_DEPTH: u32 = 64;

/// Everything that decides what a search does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    pub budget: Budget,
    /// Amplitude of the deterministic evaluation noise, in evaluation units (0 = exact play).
    /// The noise of a position is a hash of (position, seed): consistent within a search, so
    /// the transposition table stays sound, and different from game to game with the seed.
    pub noise: i32,
    pub seed: u64,
    /// The transposition table holds `2^tt_bits` entries of 16 bytes.
    pub tt_bits: u8,
    /// How much worse than equal a draw is for the side to move at the root (evaluation units;
    /// 0 = a draw is worth exactly 0). A strong player facing weaker ones avoids repetitions
    /// and plays on in balanced positions.
    pub contempt: i32,
    /// At a race table of more than two seats, Monte-Carlo tree search ([`crate::mcts`])
    /// instead of best-reply search.
    pub monte_carlo: bool,
}

impl SearchConfig {
    /// Full-strength search within `budget`, table size fitted to it.
    pub fn new(budget: Budget) -> Self {
        SearchConfig {
            budget,
            noise: 0,
            seed: 0,
            tt_bits: tt_bits_for(budget),
            contempt: 0,
            monte_carlo: false,
        }
    }

    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    pub fn with_noise(mut self, noise: i32) -> Self {
        self.noise = noise;
        self
    }

    pub fn with_contempt(mut self, contempt: i32) -> Self {
        self.contempt = contempt;
        self
    }

    pub fn with_monte_carlo(mut self, on: bool) -> Self {
        self.monte_carlo = on;
        self
    }
}

/// A table no larger than the search can fill: 4 MiB by default, less for small node budgets
/// (allocating and clearing it would otherwise dominate a Novice's move).
fn tt_bits_for(budget: Budget) -> u8 {
    match budget.nodes {
        Some(n) if budget.time.is_none() => {
            let bits = 64 - n.max(1).leading_zeros();
            (bits as u8).clamp(10, 18)
        }
        _ => 18,
    }
}

/// What a finished search found. (No `PartialEq`: `elapsed` differs from run to run; compare
/// the other fields.)
#[derive(Clone, Debug)]
pub struct ThinkResult<M> {
    /// `None` only when the position is already finished (or has no legal move).
    pub best_move: Option<M>,
    /// From the point of view of the side to move in the searched position.
    pub score: Score,
    /// The deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<M>,
    /// Wall-clock time spent (zero where no clock is available); not part of the reproducible
    /// result.
    pub elapsed: Duration,
}

/// The state of a search after a slice.
#[derive(Clone, Debug)]
pub enum Progress<M> {
    Running,
    Done(ThinkResult<M>),
}

/// How the child currently being searched was entered (PVS with late-move reductions).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Window {
    /// Full window (first move, or re-search after a null-window fail high).
    Full,
    /// Null window at full depth.
    Null,
    /// Null window at reduced depth (late move).
    Reduced,
}

struct Frame<P: Position> {
    /// The legal moves in `legal_moves` order (the transposition table stores these indices).
    moves: Vec<P::Move>,
    /// The order to search them in: (ordering key, index into `moves`); entries before `next`
    /// are already searched, in that order.
    order: Vec<(i32, u16)>,
    /// Whether `order[next..]` is already sorted (done once the first picks are past).
    sorted: bool,
    /// The transposition table's move (index into `moves`), searched first.
    tt_move: Option<usize>,
    next: usize,
    depth: i32,
    alpha: i32,
    beta: i32,
    alpha_orig: i32,
    best: i32,
    best_index: Option<usize>,
    hash: u64,
    undo: Option<P::Undo>,
    window: Window,
    /// Whether the side to move after the move being searched plays for the other side of the
    /// table than this node's (always with two seats; see [`Search::team`]).
    flip: bool,
    /// A quiescence node (below the horizon): only noisy moves are searched, against the
    /// static value (stand pat).
    quiescent: bool,
    /// Whether the node was entered with an open window (a principal-variation node): it is
    /// neither pruned nor reduced as hard as the null-window nodes around it.
    pv_node: bool,
}

impl<P: Position> Frame<P> {
    fn new() -> Self {
        Frame {
            moves: Vec::new(),
            order: Vec::new(),
            sorted: false,
            tt_move: None,
            next: 0,
            depth: 0,
            alpha: 0,
            beta: 0,
            alpha_orig: 0,
            best: 0,
            best_index: None,
            hash: 0,
            undo: None,
            flip: true,
            window: Window::Full,
            pv_node: true,
            quiescent: false,
        }
    }
}

#[derive(Copy, Clone, Debug)]
enum Pending {
    /// Enter the top frame (a new node).
    Enter,
    /// The top frame searches its next move (or finishes).
    Next,
    /// The node above the top frame returned this value (from its own side's view).
    Return(i32),
}

const HISTORY_SIZE: usize = 1 << 12;
/// Half-width of the first aspiration window around the previous iteration's score (a fifth
/// of a move); it widens fourfold on every failure until it is the full window.
const ASPIRATION: i32 = 20;
/// From this iteration on the root is searched with an aspiration window.
const ASPIRATION_FROM: u32 = 4;
/// Reverse futility pruning (a "static null move"): at a null-window node this close to the
/// horizon, a static value this far above beta per remaining ply is taken as a cut.
const RFP_DEPTH: i32 = 3;
const RFP_MARGIN: i32 = 100;
/// Late-move pruning: at a null-window node this close to the horizon, quiet moves after the
/// first `lmp_count(depth)` (in ordering order) are not searched at all.
const LMP_DEPTH: i32 = 3;
/// Quiescence search goes at most this many plies below the horizon.
const QUIESCENCE_PLIES: i32 = 4;

fn lmp_count(depth: i32) -> usize {
    (4 + 2 * depth * depth) as usize
}

/// Late-move reduction of the `n`-th move (0-based, in search order) at `depth`: grows with the
/// logarithms of both, the usual shape (one ply at depth 3, up to about four deep in long
/// lists).
fn lmr_reduction(depth: i32, n: usize) -> i32 {
    use std::sync::OnceLock;
    static TABLE: OnceLock<[[u8; 64]; 64]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = 0.75 + (d as f64).ln() * (m as f64).ln() / 2.25;
                *r = v.max(0.0) as u8;
            }
        }
        t
    });
    i32::from(table[depth.clamp(0, 63) as usize][n.min(63)])
}
const KEY_TT: i32 = 1 << 30;
const KEY_KILLER: i32 = 1 << 29;

/// A resumable search of one position. Create it, call [`Search::step`] until it returns
/// [`Progress::Done`] (or call [`Search::run`]).
pub struct Search<P: Position + Evaluate> {
    pos: P,
    cfg: SearchConfig,
    /// Shared with the other threads of a parallel search ([`crate::smp`]).
    tt: Arc<TransTable>,
    /// Iterations advance by this many plies after the first (a helper thread of a parallel
    /// search may skip depths, so the threads do not all search the same tree).
    depth_stride: u32,
    frames: Vec<Frame<P>>,
    /// Number of active frames; the top one is `frames[sp - 1]`, at ply `sp - 1`.
    sp: usize,
    pending: Pending,
    killers: Vec<[Option<P::Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<P::Move>>,
    /// Hash of the position at each ply of the current path.
    path: Vec<u64>,
    nodes: u64,
    /// Depth of the iteration in progress.
    iteration: u32,
    /// Result of the last completed iteration: (move, score, pv).
    completed: Option<(P::Move, i32, Vec<P::Move>)>,
    /// Best root move of the iteration in progress, once one root move has been searched.
    partial: Option<(P::Move, i32, Vec<P::Move>)>,
    clock: Clock,
    done: Option<ThinkResult<P::Move>>,
    stop_requested: bool,
    /// The root window of the iteration in progress and the half-width it was opened with
    /// (aspiration windows; the full window for the first iterations).
    root_window: (i32, i32),
    aspiration: i32,
    /// The seat the search plays for and the table's size. With more than two seats the search
    /// is paranoid (Sturtevant and Korf): every other seat is taken to play against the root
    /// seat, so a node's value is that of its side to move's side of the table (the root's or
    /// the others'), and it is negated only where the side to move changes sides. With two
    /// seats the side changes at every ply: plain negamax.
    root: Seat,
    /// Mixed into the table's keys with more than two seats: values depend on the root seat.
    root_key: u64,
}

impl<P: Position + Evaluate> Search<P> {
    pub fn new(position: &P, cfg: SearchConfig) -> Self {
        let tt = Arc::new(TransTable::new(cfg.tt_bits));
        Self::with_table(position, cfg, tt, 1)
    }

    /// A search that shares `tt` with others (one thread of a parallel search) and advances its
    /// iterations by `depth_stride` plies after the first.
    pub(crate) fn with_table(
        position: &P,
        cfg: SearchConfig,
        tt: Arc<TransTable>,
        depth_stride: u32,
    ) -> Self {
        let root = position.side_to_move();
        let seats = position.seat_count();
        let mut search = Search {
            root,
            root_key: if seats > 2 {
                mix(0x524f_4f54 ^ root.index() as u64)
            } else {
                0
            },
            pos: position.clone(),
            tt,
            depth_stride: depth_stride.max(1),
            cfg,
            frames: Vec::new(),
            sp: 0,
            pending: Pending::Enter,
            killers: Vec::new(),
            history: vec![0; seats.max(2) * HISTORY_SIZE],
            pv: Vec::new(),
            path: Vec::new(),
            nodes: 0,
            iteration: 1,
            completed: None,
            partial: None,
            clock: Clock::start(),
            done: None,
            stop_requested: false,
            root_window: (-INFINITY, INFINITY),
            aspiration: ASPIRATION,
        };
        if search.pos.is_game_over() || search.pos.count_legal_moves() == 0 {
            let score = match search.pos.outcome() {
                Some(o) => search.terminal_value(&o, 0),
                None => 0,
            };
            search.done = Some(ThinkResult {
                best_move: None,
                score: Score(score),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                elapsed: Duration::ZERO,
            });
        } else {
            search.push_frame(1, -INFINITY, INFINITY);
        }
        search
    }

    /// Runs at most `nodes` more nodes (at least one unless finished). Returns
    /// [`Progress::Done`] once the budget is spent or the search has nothing left to learn.
    pub fn step(&mut self, nodes: u64) -> Progress<P::Move> {
        if let Some(r) = &self.done {
            return Progress::Done(r.clone());
        }
        let slice_end = self.nodes.saturating_add(nodes.max(1));
        loop {
            match self.pending {
                Pending::Enter => {
                    // Depth 1 always completes, so even a tiny budget gives a searched move.
                    if self.iteration > 1 && self.out_of_budget() {
                        return Progress::Done(self.finish());
                    }
                    if self.nodes >= slice_end {
                        return Progress::Running;
                    }
                    self.enter();
                }
                Pending::Next => self.next_move(),
                Pending::Return(v) => {
                    if self.sp == 0 {
                        if let Some(result) = self.iteration_done(v) {
                            return Progress::Done(result);
                        }
                    } else {
                        self.child_returned(v);
                    }
                }
            }
        }
    }

    /// Runs the search to its end.
    pub fn run(mut self) -> ThinkResult<P::Move> {
        loop {
            if let Progress::Done(r) = self.step(u64::MAX) {
                return r;
            }
        }
    }

    /// Ends the search now with the best result so far (for a caller that manages time
    /// itself, e.g. in the browser).
    pub fn stop(&mut self) -> ThinkResult<P::Move> {
        if let Some(r) = &self.done {
            return r.clone();
        }
        self.stop_requested = true;
        self.finish()
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The deepest completed iteration so far.
    pub fn depth(&self) -> u32 {
        self.iteration.saturating_sub(1)
    }

    /// The best move found so far (from the last completed iteration), if any.
    pub fn best_so_far(&self) -> Option<&P::Move> {
        self.completed.as_ref().map(|(m, _, _)| m)
    }

    /// A draw `ply` plies below the root, for the side to move there: with contempt, the side to
    /// move at the root counts a draw as a small loss (it plays on unless clearly worse) and its
    /// opponent as a small gain.
    fn draw_score(&self, ply: usize) -> i32 {
        let _ = ply;
        if self.team(self.pos.side_to_move()) {
            -self.cfg.contempt
        } else {
            self.cfg.contempt
        }
    }

    /// Whether `seat` plays on the root's side of the table (only the root itself does).
    #[inline]
    fn team(&self, seat: Seat) -> bool {
        seat == self.root
    }

    /// The child window of the window `(alpha, beta)` of this node, for a child whose side to
    /// move is on the other side of the table (`flip`) or on the same.
    #[inline]
    fn child_window(flip: bool, alpha: i32, beta: i32) -> (i32, i32) {
        if flip { (-beta, -alpha) } else { (alpha, beta) }
    }

    /// A finished game `ply` plies below the root, for the side to move there: the root's
    /// place as a win (first alone), a loss (last alone) or a value between, on the side to
    /// move's side of the table; a draw (every seat sharing first place) is a draw.
    fn terminal_value(&self, outcome: &Outcome, ply: usize) -> i32 {
        if outcome.is_draw() {
            return self.draw_score(ply);
        }
        let score = outcome.places.score(self.root);
        let root_value = if score >= 1.0 {
            WIN - ply as i32
        } else if score <= -1.0 {
            -(WIN - ply as i32)
        } else {
            // A middle place: far above any evaluation, far below a win.
            (score * f64::from(WIN_THRESHOLD / 2)) as i32
        };
        if self.team(self.pos.side_to_move()) {
            root_value
        } else {
            -root_value
        }
    }

    /// The static value of the position for its side to move's side of the table.
    #[inline]
    fn static_value(&self, hash: u64) -> i32 {
        let for_root = self.pos.evaluate_for(self.root);
        let v = if self.team(self.pos.side_to_move()) {
            for_root
        } else {
            -for_root
        };
        with_noise(v, hash, self.cfg.seed, self.cfg.noise)
    }

    fn out_of_budget(&self) -> bool {
        if self.stop_requested {
            return true;
        }
        let b = &self.cfg.budget;
        if b.nodes.is_some_and(|n| self.nodes >= n) {
            return true;
        }
        // Reading the clock costs about a tenth of a node; look every 128 nodes.
        b.time.is_some_and(|t| {
            self.nodes.is_multiple_of(128) && self.clock.elapsed() >= search_time(t)
        })
    }

    fn push_frame(&mut self, depth: i32, alpha: i32, beta: i32) {
        if self.frames.len() == self.sp {
            self.frames.push(Frame::new());
            self.killers.push([None, None]);
            self.pv.push(Vec::new());
            self.path.push(0);
        }
        let f = &mut self.frames[self.sp];
        f.depth = depth;
        f.alpha = alpha;
        f.beta = beta;
        f.undo = None;
        self.sp += 1;
        self.pending = Pending::Enter;
    }

    /// Leaves the top node with `value` (from its side to move's view).
    fn leave(&mut self, value: i32) {
        self.sp -= 1;
        self.pending = Pending::Return(value);
    }

    fn enter(&mut self) {
        self.nodes += 1;
        let ply = self.sp - 1;
        let hash = self.pos.hash() ^ self.root_key;
        self.path[ply] = hash;
        self.pv[ply].clear();

        // A position met earlier on this path (the hash includes the side to move): a draw by
        // repetition.
        if ply >= 2 && (0..=ply - 2).rev().any(|i| self.path[i] == hash) {
            return self.leave(self.draw_score(ply));
        }
        if let Some(outcome) = self.pos.outcome() {
            let v = self.terminal_value(&outcome, ply);
            return self.leave(v);
        }
        self.frames[ply].quiescent = false;
        if self.frames[ply].depth <= 0 {
            let v = self.static_value(hash);
            let f = &self.frames[ply];
            if !P::QUIESCENCE || f.depth <= -QUIESCENCE_PLIES || v >= f.beta {
                return self.leave(v);
            }
            return self.enter_quiescence(ply, v);
        }
        let f = &self.frames[ply];
        let (mut alpha, mut beta) = (f.alpha, f.beta);
        if ply > 0 {
            // Mate-distance pruning: no result here can beat a win already found nearer the root.
            alpha = alpha.max(-(WIN - ply as i32));
            beta = beta.min(WIN - ply as i32 - 1);
            if alpha >= beta {
                return self.leave(alpha);
            }
        }
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(hash) {
            tt_move = hit.mv;
            if ply > 0 && hit.depth >= f.depth {
                let s = from_tt(hit.score, ply);
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return self.leave(s);
                }
            }
        }
        let pv_node = beta - alpha > 1;
        if ply > 0 && !pv_node && f.depth <= RFP_DEPTH && beta.abs() < WIN_THRESHOLD {
            let v = self.static_value(hash);
            if v - RFP_MARGIN * f.depth >= beta {
                return self.leave(v);
            }
        }
        let f = &mut self.frames[ply];
        f.pv_node = pv_node;
        f.hash = hash;
        f.alpha = alpha;
        f.beta = beta;
        f.alpha_orig = alpha;
        f.best = -INFINITY;
        f.best_index = None;
        f.next = 0;
        self.pos.legal_moves(&mut f.moves);
        if f.moves.is_empty() {
            // Not finished yet no move: the contract excludes it; score it as a draw.
            return self.leave(0);
        }
        f.order.clear();
        f.sorted = false;
        // With a usable table move, search it before spending time on ordering the rest: it
        // often cuts the node off on its own.
        f.tt_move = tt_move.filter(|&i| i < f.moves.len());
        match f.tt_move {
            Some(i) => f.order.push((KEY_TT, i as u16)),
            None => self.order_moves(ply),
        }
        self.pending = Pending::Next;
    }

    /// A node below the horizon: the side to move may stand on the static value `stand` or
    /// try its noisy moves (captures), best first.
    fn enter_quiescence(&mut self, ply: usize, stand: i32) {
        let f = &mut self.frames[ply];
        f.quiescent = true;
        f.pv_node = false;
        f.alpha = f.alpha.max(stand);
        f.alpha_orig = f.alpha;
        f.best = stand;
        f.best_index = None;
        f.tt_move = None;
        f.next = 0;
        f.sorted = false;
        f.order.clear();
        self.pos.legal_moves(&mut f.moves);
        for (i, mv) in f.moves.iter().enumerate() {
            if self.pos.is_noisy(mv) {
                f.order.push((self.pos.order_hint(mv), i as u16));
            }
        }
        if f.order.is_empty() {
            return self.leave(stand);
        }
        self.pending = Pending::Next;
    }

    /// Appends every move but the table move to the search order, with its ordering key.
    fn order_moves(&mut self, ply: usize) {
        let f = &mut self.frames[ply];
        let side = self.pos.side_to_move().index();
        let killers = &self.killers[ply];
        for (i, mv) in f.moves.iter().enumerate() {
            if f.tt_move == Some(i) {
                continue;
            }
            let key = if killers[0].as_ref() == Some(mv) {
                KEY_KILLER
            } else if killers[1].as_ref() == Some(mv) {
                KEY_KILLER - 1
            } else {
                self.history[side * HISTORY_SIZE + move_slot(mv)] + self.pos.order_hint(mv)
            };
            f.order.push((key, i as u16));
        }
    }

    fn next_move(&mut self) {
        let ply = self.sp - 1;
        if self.frames[ply].quiescent {
            let f = &mut self.frames[ply];
            if f.next >= f.order.len() {
                let best = f.best;
                return self.leave(best);
            }
            if !f.sorted {
                f.order.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
                f.sorted = true;
            }
            let (_, index) = f.order[f.next];
            let side = self.pos.side_to_move();
            f.undo = Some(self.pos.play_unchecked(&f.moves[usize::from(index)]));
            f.flip = (side == self.root) != (self.pos.side_to_move() == self.root);
            f.window = Window::Full;
            let (alpha, beta, depth) = (f.alpha, f.beta, f.depth);
            let (a, b) = Self::child_window(f.flip, alpha, beta);
            return self.push_frame(depth - 1, a, b);
        }
        if self.frames[ply].next == self.frames[ply].order.len()
            && self.frames[ply].order.len() < self.frames[ply].moves.len()
        {
            // The table move did not cut: now order the others.
            self.order_moves(ply);
        }
        let f = &mut self.frames[ply];
        if f.next >= f.moves.len() {
            return self.finish_node();
        }
        // Most nodes cut off on their first or second move: pick those by a linear scan, and
        // sort the rest only at nodes that get that far. Ties keep generation order (stable).
        let n = f.next;
        if n < 2 {
            let mut best = n;
            for i in n + 1..f.order.len() {
                if f.order[i].0 > f.order[best].0 {
                    best = i;
                }
            }
            f.order[n..=best].rotate_right(1);
        } else if !f.sorted {
            f.order[n..].sort_by_key(|&(key, _)| std::cmp::Reverse(key));
            f.sorted = true;
        }
        let (key, index) = f.order[n];
        let quiet = key < KEY_KILLER - 1;
        if ply > 0
            && !f.pv_node
            && quiet
            && f.depth <= LMP_DEPTH
            && n >= lmp_count(f.depth)
            && f.best > -WIN_THRESHOLD
        {
            // The moves left are late in the order this near the horizon: not searched.
            return self.finish_node();
        }
        let mv = &f.moves[usize::from(index)];
        let side = self.pos.side_to_move();
        f.undo = Some(self.pos.play_unchecked(mv));
        let flip = (side == self.root) != (self.pos.side_to_move() == self.root);
        f.flip = flip;
        let (alpha, beta, depth) = (f.alpha, f.beta, f.depth);
        if n == 0 {
            f.window = Window::Full;
            let (a, b) = Self::child_window(flip, alpha, beta);
            self.push_frame(depth - 1, a, b);
        } else if depth >= 3 && n >= 3 && quiet && ply > 0 {
            f.window = Window::Reduced;
            let mut r = lmr_reduction(depth, n);
            if f.pv_node {
                r -= 1;
            }
            let r = r.clamp(1, depth - 1);
            let (a, b) = Self::child_window(flip, alpha, alpha + 1);
            self.push_frame(depth - 1 - r, a, b);
        } else {
            f.window = Window::Null;
            let (a, b) = Self::child_window(flip, alpha, alpha + 1);
            self.push_frame(depth - 1, a, b);
        }
    }

    fn child_returned(&mut self, value: i32) {
        let ply = self.sp - 1;
        let f = &mut self.frames[ply];
        let flip = f.flip;
        let score = if flip { -value } else { value };
        match f.window {
            Window::Reduced if score > f.alpha => {
                f.window = Window::Null;
                let (alpha, depth) = (f.alpha, f.depth);
                let (a, b) = Self::child_window(flip, alpha, alpha + 1);
                return self.push_frame(depth - 1, a, b);
            }
            Window::Null if score > f.alpha && score < f.beta => {
                f.window = Window::Full;
                let (alpha, beta, depth) = (f.alpha, f.beta, f.depth);
                let (a, b) = Self::child_window(flip, alpha, beta);
                return self.push_frame(depth - 1, a, b);
            }
            _ => {}
        }
        let index = usize::from(f.order[f.next].1);
        let undo = f
            .undo
            .take()
            .expect("a child returned, so its move is on the board");
        self.pos.undo(&f.moves[index], undo);
        if score > f.best {
            f.best = score;
            f.best_index = Some(index);
            if score > f.alpha {
                f.alpha = score;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                let line = &mut head[ply];
                line.clear();
                line.push(f.moves[index].clone());
                line.extend(tail[0].iter().cloned());
                if ply == 0 {
                    self.partial = Some((f.moves[index].clone(), score, line.clone()));
                }
                if f.alpha >= f.beta {
                    if f.quiescent {
                        let best = f.best;
                        return self.leave(best);
                    }
                    let mv = f.moves[index].clone();
                    let depth = f.depth;
                    self.reward(ply, mv, depth);
                    return self.finish_node();
                }
            }
        }
        f.next += 1;
        self.pending = Pending::Next;
    }

    /// A move that refuted the position: remember it as a killer and in the history table.
    /// The moves searched before it at this node failed to cut: they lose as much history as
    /// it gains (a "history malus"), so that moves that merely were often tried do not keep
    /// their place at the front.
    fn reward(&mut self, ply: usize, mv: P::Move, depth: i32) {
        let side = self.pos.side_to_move().index();
        let bonus = depth * depth;
        let f = &self.frames[ply];
        let mut overflow = false;
        for &(key, i) in &f.order[..f.next] {
            if key < KEY_KILLER - 1 {
                let slot =
                    &mut self.history[side * HISTORY_SIZE + move_slot(&f.moves[usize::from(i)])];
                *slot -= bonus;
                overflow |= *slot < -(1 << 20);
            }
        }
        let slot = &mut self.history[side * HISTORY_SIZE + move_slot(&mv)];
        *slot += bonus;
        if overflow || *slot > 1 << 20 {
            for h in &mut self.history {
                *h /= 2;
            }
        }
        let k = &mut self.killers[ply];
        if k[0].as_ref() != Some(&mv) {
            k[1] = k[0].take();
            k[0] = Some(mv);
        }
    }

    fn finish_node(&mut self) {
        let ply = self.sp - 1;
        let f = &self.frames[ply];
        let bound = if f.best >= f.beta {
            Bound::Lower
        } else if f.best > f.alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let mv = match bound {
            Bound::Upper => None,
            _ => f.best_index,
        };
        self.tt
            .store(f.hash, f.depth, to_tt(f.best, ply), bound, mv);
        let best = f.best;
        self.leave(best);
    }

    /// The root returned: an iteration is complete. Returns the result if the search is over.
    fn iteration_done(&mut self, value: i32) -> Option<ThinkResult<P::Move>> {
        let (lo, hi) = self.root_window;
        let failed_low = value <= lo && lo > -INFINITY;
        let failed_high = value >= hi && hi < INFINITY;
        if failed_low || failed_high {
            // Outside the aspiration window: search the same depth again with the failed side
            // widened. After a fail low no root move beat the window: the previous iteration's
            // move stands (`partial` is cleared); after a fail high `partial` holds the move
            // that failed high, a better move than the previous best, and is kept.
            self.aspiration = self.aspiration.saturating_mul(4);
            let wide = self.aspiration > 16 * ASPIRATION * 4;
            let lo = if failed_low {
                if wide {
                    -INFINITY
                } else {
                    (value - self.aspiration).max(-INFINITY)
                }
            } else {
                lo
            };
            let hi = if failed_high {
                if wide {
                    INFINITY
                } else {
                    (value + self.aspiration).min(INFINITY)
                }
            } else {
                hi
            };
            if failed_low {
                self.partial = None;
            }
            self.root_window = (lo, hi);
            self.push_frame(self.iteration as i32, lo, hi);
            return None;
        }
        let (mv, _, pv) = self
            .partial
            .take()
            .expect("a completed iteration has searched a root move");
        self.completed = Some((mv, value, pv));
        let depth = self.iteration;
        let proven = value.abs() >= WIN_THRESHOLD && (WIN - value.abs()) as u32 <= depth;
        let b = self.cfg.budget;
        let max_depth = b.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        // A time budget is spent to its end: the next iteration starts even late, since its
        // first root move is the previous best (searched first, with the table's help) and a
        // move that replaces it was searched with a full window, so an unfinished iteration
        // still counts (see `finish`). Stopping at half the time, as before, left a fifth of
        // every move's time unused on average (measured: 81 ms of 100).
        let time_short = b
            .time
            .is_some_and(|t| self.clock.elapsed() >= search_time(t));
        let nodes_out = b.nodes.is_some_and(|n| self.nodes >= n);
        self.iteration = if depth == 1 {
            2
        } else {
            (depth + self.depth_stride).min(max_depth.max(depth + 1))
        };
        if proven || depth >= max_depth || time_short || nodes_out {
            self.iteration = depth + 1;
            return Some(self.finish());
        }
        self.aspiration = ASPIRATION;
        self.root_window = if self.iteration >= ASPIRATION_FROM && value.abs() < WIN_THRESHOLD {
            (value - ASPIRATION, value + ASPIRATION)
        } else {
            (-INFINITY, INFINITY)
        };
        let (lo, hi) = self.root_window;
        self.push_frame(self.iteration as i32, lo, hi);
        None
    }

    /// Unwinds the tree walk (restoring the root position) and reports the best result: the
    /// iteration in progress counts once at least one root move has been searched in it, since
    /// the first root move is the previous best and any move that replaced it was searched with
    /// a full window.
    fn finish(&mut self) -> ThinkResult<P::Move> {
        for i in (0..self.sp).rev() {
            let f = &mut self.frames[i];
            if let Some(undo) = f.undo.take() {
                let index = usize::from(f.order[f.next].1);
                self.pos.undo(&f.moves[index], undo);
            }
        }
        self.sp = 0;
        let (mv, score, pv) = self
            .partial
            .take()
            .or_else(|| self.completed.take())
            .expect("the first iteration always completes");
        let result = ThinkResult {
            best_move: Some(mv),
            score: Score(score),
            depth: self.iteration - 1,
            nodes: self.nodes,
            pv,
            elapsed: self.clock.elapsed(),
        };
        self.done = Some(result.clone());
        result
    }
}

/// How long a search with time budget `t` runs: a tenth less, which is left for the answer to
/// reach the caller (the last nodes before the clock is read, the protocol, the scheduling of a
/// loaded machine), so that the move arrives within the time given.
pub(crate) fn search_time(t: Duration) -> Duration {
    t - t / 10
}

/// A static value kept clear of the win scores, with the level's noise.
fn with_noise(v: i32, hash: u64, seed: u64, noise: i32) -> i32 {
    let v = v.clamp(-WIN_THRESHOLD + 1, WIN_THRESHOLD - 1);
    if noise <= 0 {
        return v;
    }
    let span = 2 * noise as u64 + 1;
    let r = (mix(hash ^ mix(seed)) % span) as i32 - noise;
    v + r
}

/// The history-table slot of a move: a fast deterministic hash of its identity.
fn move_slot<M: Hash>(mv: &M) -> usize {
    let mut h = FxHasher(0);
    mv.hash(&mut h);
    (mix(h.0) as usize) & (HISTORY_SIZE - 1)
}

/// Firefox's multiply-rotate hasher: fast, deterministic on every platform.
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Searches `position` at full strength within `budget` (deterministic for a node or depth
/// budget).
pub fn think<P: Position + Evaluate>(position: &P, budget: Budget) -> ThinkResult<P::Move> {
    Search::new(position, SearchConfig::new(budget)).run()
}
