//! Evaluation of race games (Ugolki, Halma, Grasshopper): who is closer to filling their target.
//!
//! Each side's *remaining work* is the distance its pieces still have to cover: the pieces,
//! sorted by their distance to the deepest square of the target, are matched with the target
//! squares sorted the same way, so that the measure is zero exactly when the target is filled
//! and rewards filling the far squares first (the near ones are then left for the stragglers,
//! the 9qum advice "fill the corner from the far squares"). A piece outside the target counts at
//! least its distance to the nearest target square, so that parking beside the camp at the right
//! distance from the corner is not mistaken for progress. Around it:
//! - stragglers: the piece farthest behind decides when a side can finish;
//! - the anti-blocking rule (`FullWithAnyOwn`): opponent pieces still in one's target count as
//!   filled squares, so fewer own pieces are needed;
//! - blocking under `FillWithOwn`: a piece left in its own home is still work for its owner and
//!   a wall for the opponent, and under the 40-move rule (`home_clear_ply`) it loses the game;
//!   the penalty grows as that ply approaches;
//! - the count after `count_ply`: pieces already in the target then decide;
//! - a blocked finish (`FillWithOwn` without the 40-move rule): a side whose target holds an
//!   opponent straggler walled in with the help of its own pieces cannot finish, so its lead is
//!   worth a quarter (the game is heading for a draw) — the leader keeps the wall open, the side
//!   behind may seek the draw.
use std::{
    cell::RefCell,
    sync::{Arc, Weak},
};

use boardcraft_rules::{
    Position, Seat,
    race::{
        RaceMove, RacePosition, RaceRules, Square, WinRule,
        bitboard::{Bits, Wide},
    },
};

use super::Evaluate;

/// Per unit of distance still to go (a step covers one, a jump two or more).
const DISTANCE: i32 = 40;
/// Per unit of the worst straggler's distance beyond the others'.
const STRAGGLER: i32 = 12;
/// A piece still at home, per ply closer to the 40-move check (in its last 30 plies).
const HOME_URGENCY: i32 = 25;
/// A piece still at home while the check is far away.
const HOME_BASE: i32 = 10;
/// A piece in the target once the final count is near.
const COUNTED: i32 = 80;
const TEMPO: i32 = 20;
/// How much of its lead a side keeps while it cannot finish.
const BLOCKED_LEAD_DIVISOR: i32 = 4;
/// Walls are looked for only around this many opponent pieces left in one's target (the
/// stragglers of the end game; early on the camp is full and the check would only cost time).
const STRAGGLERS: usize = 3;

/// What the evaluation needs to know about a rule set, computed once per rule set. Its
/// distance tables are read by box square (`rank * width + file`); a piece set's bits (the
/// rules' cell indices) are mapped to box squares by `box_of_cell`, so the evaluation reads a
/// piece's distances with a few loads instead of measuring them.
struct Geometry {
    rules: Weak<RaceRules>,
    /// The box square of each cell index.
    box_of_cell: Vec<usize>,
    /// Squares in the box (`width * height`): the stride of the per-seat tables.
    box_squares: usize,
    width: usize,
    /// Per seat (`seat * box_squares + square`): the distance of a square to the deepest square
    /// of the seat's target (the one farthest from its home), and to the nearest square of the
    /// target: a piece must cover at least the latter, whatever square it ends on.
    corner: Vec<i32>,
    to_target: Vec<i32>,
    /// Each target cell (by cell index) with its distance to the corner, nearest first, per
    /// seat.
    target: Vec<Vec<(usize, i32)>>,
    /// Each seat's home as a set of cell indices.
    homes: Vec<Wide>,
}

thread_local! {
    // Keyed by the rules' allocation: the `Weak` keeps the address from being reused.
    static GEOMETRY: RefCell<Option<Arc<Geometry>>> = const { RefCell::new(None) };
}

/// Runs `f` with the geometry of `rules`, cached per thread (no reference count is touched on
/// a hit: the evaluation and the move-ordering hint call this at every node and move).
fn with_geometry<R>(rules: &Arc<RaceRules>, f: impl FnOnce(&Geometry) -> R) -> R {
    GEOMETRY.with(|cell| {
        {
            let cached = cell.borrow();
            if let Some(g) = cached.as_ref()
                && std::ptr::eq(g.rules.as_ptr(), Arc::as_ptr(rules))
            {
                return f(g);
            }
        }
        let g = Arc::new(Geometry::new(rules));
        *cell.borrow_mut() = Some(g.clone());
        f(&g)
    })
}

impl Geometry {
    fn new(rules: &Arc<RaceRules>) -> Geometry {
        let metric = rules.directions();
        let corners: Vec<Square> = rules
            .seats()
            .map(|c| {
                // The target square with the largest total distance from the side's home camp.
                let home = rules.camp(c);
                *rules
                    .target(c)
                    .iter()
                    .max_by_key(|&&t| home.iter().map(|&h| metric.distance(t, h)).sum::<i32>())
                    .expect("camps are not empty")
            })
            .collect();
        let (width, height) = (usize::from(rules.width()), usize::from(rules.height()));
        let box_squares = width * height;
        let box_of = |s: Square| usize::from(s.rank()) * width + usize::from(s.file());
        let mut box_of_cell = vec![0; rules.cell_index_bound()];
        for &s in rules.cells() {
            box_of_cell[rules.cell_index(s).expect("a cell of the board")] = box_of(s);
        }
        let (mut corner, mut to_target) = (Vec::new(), Vec::new());
        for c in rules.seats() {
            let target = rules.target(c);
            for rank in 0..height {
                for file in 0..width {
                    let s = Square::new(file as u8, rank as u8).expect("a square of the box");
                    corner.push(metric.distance(s, corners[c.index()]));
                    to_target.push(
                        target
                            .iter()
                            .map(|&t| metric.distance(s, t))
                            .min()
                            .expect("camps are not empty"),
                    );
                }
            }
        }
        let target = rules
            .seats()
            .map(|c| {
                let mut t: Vec<(usize, i32)> = rules
                    .target(c)
                    .iter()
                    .map(|&s| {
                        let i = rules.cell_index(s).expect("camps are on the board");
                        (i, corner[c.index() * box_squares + box_of(s)])
                    })
                    .collect();
                t.sort_by_key(|&(_, d)| d);
                t
            })
            .collect();
        Geometry {
            rules: Arc::downgrade(rules),
            box_of_cell,
            box_squares,
            width,
            corner,
            to_target,
            target,
            homes: rules.seats().map(|c| rules.home_set(c)).collect(),
        }
    }

    /// How far `s` is from `side`'s target corner.
    fn corner_distance(&self, side: Seat, s: Square) -> i32 {
        self.corner[side.index() * self.box_squares
            + usize::from(s.rank()) * self.width
            + usize::from(s.file())]
    }
}

/// Whether the piece on `s` has no step and no jump — every neighbour along the game's
/// directions is off the board or occupied, and so is every square a jump would land on — with
/// at least one piece of `by` in that wall (a camp full of its owner's own pieces does not count).
trait WalledIn {
    fn is_walled_in(&self, s: Square, by: Seat) -> bool;
    /// Whether an opponent piece walled in inside `side`'s target keeps `side` from finishing.
    fn cannot_finish(&self, side: Seat) -> bool;
}

impl WalledIn for RacePosition {
    fn is_walled_in(&self, s: Square, by: Seat) -> bool {
        let rules = self.rules();
        let on_board = |q: &Square| rules.on_board(*q);
        let mut theirs = false;
        let shut = rules.directions().iter().all(|d| {
            let (dx, dy) = d.delta();
            [s.offset(dx, dy), s.offset(2 * dx, 2 * dy)]
                .into_iter()
                .flatten()
                .filter(on_board)
                .all(|q| match self.piece_at(q) {
                    None => false,
                    Some(owner) => {
                        theirs |= owner == by;
                        true
                    }
                })
        });
        shut && theirs
    }

    fn cannot_finish(&self, side: Seat) -> bool {
        // Only where nothing forces the opponent out of one's target (Halma, Grasshopper; not
        // under the anti-blocking rule or the 40-move rule): an opponent piece there that
        // one's own pieces help wall in is a square one can never fill while the wall stands
        // (an opponent straggler boxed in at the back of the camp).
        let rules = self.rules();
        if rules.win() != WinRule::FillWithOwn || rules.home_clear_ply().is_some() {
            return false;
        }
        let theirs = || {
            rules
                .target(side)
                .iter()
                .copied()
                .filter(move |&s| matches!(self.piece_at(s), Some(o) if o != side))
        };
        theirs().nth(STRAGGLERS).is_none() && theirs().any(|s| self.is_walled_in(s, side))
    }
}

/// The evaluation, with scratch buffers at least as long as a side's pieces and its
/// target's squares.
fn seat_values(
    pos: &RacePosition,
    g: &Geometry,
    buf: &mut [u32],
    slots: &mut [i32],
) -> [i32; Seat::MAX] {
    let rules = pos.rules();
    let ply = pos.ply();
    // The target squares still to fill. Under the anti-blocking rule a square another seat
    // holds counts as filled, except while that seat still has most of its pieces at home
    // there (its own start, which it is about to leave: counting those would leave almost
    // nothing to race for at the start of a game where targets are homes). A seat that has
    // finished never moves again: its pieces left at home fill one's target for good.
    let mut held = Wide::EMPTY;
    if rules.win() != WinRule::FillWithOwn {
        for o in rules.seats() {
            let theirs = pos.piece_set(o);
            let home = g.homes[o.index()];
            if (theirs & home).count() as usize <= STRAGGLERS || pos.has_finished(o) {
                held |= theirs;
            } else {
                held |= theirs & !home;
            }
        }
    }
    let mut side = [0i32; Seat::MAX];
    for c in rules.seats() {
        let base = c.index() * g.box_squares;
        // Distances of the pieces to the corner, nearest first, each with its distance to
        // the nearest target square, packed in one key that sorts as the pair.
        let pieces = pos.piece_set(c);
        let mut n = 0;
        for i in pieces.iter().take(buf.len()) {
            let at = base + g.box_of_cell[i];
            buf[n] = (g.corner[at] as u32) << 16 | g.to_target[at] as u32;
            n += 1;
        }
        let mine = &mut buf[..n];
        mine.sort_unstable();
        // The target squares still to fill, deepest first.
        let theirs = held & !pieces;
        let mut k = 0;
        for &(i, d) in &g.target[c.index()] {
            if k < slots.len() && !theirs.has(i) {
                slots[k] = d;
                k += 1;
            }
        }
        let needed = k.max(1).min(n.max(1));
        let mut work = 0;
        let mut worst = 0;
        for (&key, slot) in mine.iter().zip(&slots[..k]).take(needed) {
            let (d, outside) = ((key >> 16) as i32, (key & 0xffff) as i32);
            // Both are lower bounds of the piece's way to its slot: the corner distance
            // alone would rate a piece beside the camp (a4 for a8's camp) as good as one
            // in it at the same distance from the corner.
            let gap = (d - slot).max(outside);
            work += gap;
            worst = worst.max(gap);
        }
        let average = work / needed as i32;
        let mut value = -DISTANCE * work - STRAGGLER * (worst - average);
        if let Some(check) = rules.home_clear_ply()
            && ply < check
        {
            let at_home = (pieces & g.homes[c.index()]).count() as i32;
            let left = (check - ply) as i32;
            value -= at_home * (HOME_BASE + HOME_URGENCY * (30 - left).max(0));
        }
        if let Some(count) = rules.count_ply()
            && ply + 40 >= count
        {
            value += COUNTED * pos.pieces_in_target(c) as i32;
        }
        side[c.index()] = value;
    }
    side
}

/// `me`'s lead over the strongest of the seats still racing (with two seats: over the other),
/// from the seats' values, plus the tempo of the side to move (minus it for the others).
fn lead_of(pos: &RacePosition, side: &[i32; Seat::MAX], me: Seat) -> i32 {
    let rules = pos.rules();
    let side = &as_teams(pos, side);
    let rival = rules
        .seats()
        .filter(|&o| rules.team(o) != rules.team(me) && !pos.has_finished(o))
        .max_by_key(|&o| side[o.index()]);
    let Some(rival) = rival else {
        return side[me.index()];
    };
    let lead = side[me.index()] - side[rival.index()];
    // A side that cannot finish cannot cash in its lead: the game is heading for a draw.
    let lead = if (lead > 0 && pos.cannot_finish(me)) || (lead < 0 && pos.cannot_finish(rival)) {
        lead / BLOCKED_LEAD_DIVISOR
    } else {
        lead
    };
    if me == pos.side_to_move() {
        lead + TEMPO
    } else {
        lead - TEMPO
    }
}

/// Every seat's standing with partners counted as their team: higher is better. A Monte-Carlo
/// playout ranks the seats still racing at its end by it.
pub(crate) fn standings(pos: &RacePosition) -> [i32; Seat::MAX] {
    as_teams(pos, &values(pos))
}

/// The seats' values with partners counted as their team: partners finish together, so a team
/// stands where its partner furthest behind stands.
fn as_teams(pos: &RacePosition, side: &[i32; Seat::MAX]) -> [i32; Seat::MAX] {
    let rules = pos.rules();
    let mut teams = *side;
    if rules.partners() {
        for s in rules.seats() {
            let t = rules.team(s).index();
            teams[t] = teams[t].min(side[s.index()]);
        }
        for s in rules.seats() {
            teams[s.index()] = teams[rules.team(s).index()];
        }
    }
    teams
}

/// The distance each of `moves` (of `seat`) gains towards `seat`'s target corner, into `out`.
pub(crate) fn corner_gains(pos: &RacePosition, seat: Seat, moves: &[RaceMove], out: &mut Vec<i32>) {
    with_geometry(pos.rules(), |g| {
        out.clear();
        out.extend(
            moves
                .iter()
                .map(|m| g.corner_distance(seat, m.from()) - g.corner_distance(seat, m.to())),
        );
    })
}

/// Every seat's standing (higher is better: minus the work left, with the camp rules' terms).
fn values(pos: &RacePosition) -> [i32; Seat::MAX] {
    {
        let this = pos;
        with_geometry(this.rules(), |g| {
            // Camps of up to 32 squares (every shipped variant) use small stack buffers.
            let size = this.rules().pieces_per_side();
            if size <= 32 {
                seat_values(this, g, &mut [0; 32], &mut [0; 32])
            } else {
                seat_values(this, g, &mut vec![0; size], &mut vec![0; size])
            }
        })
    }
}

impl Evaluate for RacePosition {
    fn evaluate(&self) -> i32 {
        lead_of(self, &values(self), self.side_to_move())
    }

    fn evaluate_for(&self, seat: Seat) -> i32 {
        lead_of(self, &values(self), seat)
    }

    /// Dearer per node than the 8×8 games on the biggest boards, in proportion to the board:
    /// Halma 16×16 (19 pieces a side, long jump chains) 1.2 times. Set so that Master's
    /// average move takes as long as before its move lists got faster (twice as long at first,
    /// then 1.4, then 1.2 as the move generation got faster; `boardcraft-cli match halma-16
    /// --a master --b master` measures it).
    fn node_cost(&self) -> u64 {
        let rules = self.rules();
        let squares = u64::from(rules.width()) * u64::from(rules.height());
        (squares * 120).div_ceil(256).max(100)
    }

    /// Forward progress first (long jumps towards the target corner).
    fn order_hint(&self, mv: &RaceMove) -> i32 {
        self.order_hint_of(self.side_to_move(), mv)
    }

    fn order_hint_of(&self, seat: Seat, mv: &RaceMove) -> i32 {
        with_geometry(self.rules(), |g| {
            g.corner_distance(seat, mv.from()) - g.corner_distance(seat, mv.to())
        }) * 32
    }
}
