//! Move generation by set-wise flood fill.
//!
//! For the side to move, one pass over the board finds, per line, the squares from which a jump
//! is possible (a piece next door, an empty square beyond). A piece's jump destinations are then
//! a flood over bit sets: each wave is the previous one shifted two squares along every line it
//! can jump along, restricted to the landings the camp rules allow, minus squares already
//! reached. Counting moves is a popcount per piece.
//!
//! Listing moves floods breadth first, so that every chain comes with a shortest
//! representative path. Where a chain's squares fit one 64-bit word — a board of at most 64
//! squares, or one parity class of a 16-wide board (see [`super::parity`]) — the flood is
//! set-wise over that word ([`super::word_flood`]); other boards flood square by square over the
//! jumps that are really there ([`Node::flood`]). Both give the same moves, paths and order:
//! piece by piece in square order, its steps by destination, then its chains, shorter first and
//! by destination.
//!
//! The moving piece's own square is vacated during a chain, but that never matters here: every
//! landing keeps the parity of file and rank, so a chain never stands next to its origin and can
//! never try to jump over it.
//!
//! Camp rules make some landings depend on where the chain has been. In every rule set here that
//! history is a function of the square alone, and it only moves forward: "still at home" →
//! "out" → "in the target" (a piece that may still land at home has never left it; under a
//! per-landing lock a piece on a target square has entered it). So counting floods the phases in
//! that order, each seeded by all jumps out of the earlier ones; listing moves runs one
//! breadth-first flood whose waves are split by phase, so the waves give shortest paths.
use std::ops::{BitAnd, BitOr, Not};

use super::{
    bitboard::{Bits, Wide},
    classes::ClassTables,
    moves::{HOPS_PER_WORD, RaceMove},
    parity::{self, ParityTables},
    rules::{RaceRules, TableSet, Tables, TargetLock},
    square::{Directions, Square},
    word_flood::{ALL_DIRS, Flood},
};
use crate::Seat;

/// The six directions of a hex grid (bit `d` for [`super::square::Dir::index`] `d`: N, E, SE,
/// S, W, NW).
const HEX_DIRS: u8 = {
    let mut mask = 0u8;
    let mut d = 0;
    while d < 8 {
        if Directions::Hex.contains(super::square::Dir::from_index(d)) {
            mask |= 1 << d;
        }
        d += 1;
    }
    mask
};

/// Up to 64 waves: every landing of a chain keeps the parity of file and rank, so a chain on a
/// 16×16 board visits at most 64 squares.
const MAX_WAVES: usize = 64;

/// Runs `$body` with `$node` bound to a [`Node`] for the rules' bit-set width and line count.
macro_rules! with_node {
    ($rules:expr, $own:expr, $occupied:expr, $side:expr, $node:ident => $body:expr) => {{
        use $crate::race::rules::TableSet;
        let rules: &$crate::race::rules::RaceRules = $rules;
        match (&rules.tables, rules.line_count()) {
            (TableSet::Small(t), 2) => {
                let mut $node =
                    $crate::race::movegen::Node::<u64, 2>::new(t, rules, $own, $occupied, $side);
                $body
            }
            (TableSet::Small(t), 3) => {
                let mut $node =
                    $crate::race::movegen::Node::<u64, 3>::new(t, rules, $own, $occupied, $side);
                $body
            }
            (TableSet::Small(t), _) => {
                let mut $node =
                    $crate::race::movegen::Node::<u64, 4>::new(t, rules, $own, $occupied, $side);
                $body
            }
            (TableSet::Medium(t), 2) => {
                let mut $node =
                    $crate::race::movegen::Node::<u128, 2>::new(t, rules, $own, $occupied, $side);
                $body
            }
            (TableSet::Medium(t), 3) => {
                let mut $node =
                    $crate::race::movegen::Node::<u128, 3>::new(t, rules, $own, $occupied, $side);
                $body
            }
            (TableSet::Medium(t), _) => {
                let mut $node =
                    $crate::race::movegen::Node::<u128, 4>::new(t, rules, $own, $occupied, $side);
                $body
            }
            (TableSet::Large(t), 2) => {
                let mut $node = $crate::race::movegen::Node::<$crate::race::bitboard::Wide, 2>::new(
                    t, rules, $own, $occupied, $side,
                );
                $body
            }
            (TableSet::Large(t), 3) => {
                let mut $node = $crate::race::movegen::Node::<$crate::race::bitboard::Wide, 3>::new(
                    t, rules, $own, $occupied, $side,
                );
                $body
            }
            (TableSet::Large(t), _) => {
                let mut $node = $crate::race::movegen::Node::<$crate::race::bitboard::Wide, 4>::new(
                    t, rules, $own, $occupied, $side,
                );
                $body
            }
        }
    }};
}
pub(crate) use with_node;

/// Which of the mover's pieces are of which kind (locked in the target, still at home under
/// no-return, or out: the three flights), and where each kind may step.
#[derive(Copy, Clone)]
struct Steps<B> {
    locked: B,
    at_home: B,
    /// Where a step may go, per kind (by flight index).
    step: [B; 3],
}

impl<B: Bits> Steps<B> {
    /// For `side` with `empty` the board's empty cells.
    #[inline(always)]
    fn new(t: &Tables<B>, rules: &RaceRules, empty: B, side: Seat) -> Self {
        let home = t.homes[side.index()];
        let target = t.targets[side.index()];
        let rest = t.rest[side.index()];
        let no_return = rules.no_return_home();
        Steps {
            locked: if rules.target_lock() == TargetLock::Off {
                B::ZERO
            } else {
                target
            },
            at_home: if no_return { home } else { B::ZERO },
            step: [
                empty & target,
                empty & rest,
                if no_return {
                    empty & !home & rest
                } else {
                    empty & rest
                },
            ],
        }
    }

    /// Which of the three flights (locked, at home, out) the piece on `from` flies.
    /// Without a branch (a list asks for every piece).
    #[inline(always)]
    fn flight_index(&self, from: usize) -> usize {
        let (locked, at_home) = (self.locked.get(from), self.at_home.get(from));
        ((2 - at_home) * (1 - locked)) as usize
    }
}

/// Whether one of `own`'s pieces (the pieces of `side`) can step: a sufficient answer, cheap
/// and usually there, to "can `side` move at all", asked for the next seat after every ply.
/// Piece by piece in bit order, each piece's neighbours against where its kind may step,
/// without building a whole [`Node`].
#[inline]
pub(crate) fn can_step(rules: &RaceRules, own: &Wide, occupied: &Wide, side: Seat) -> bool {
    match &rules.tables {
        TableSet::Small(t) => can_step_in(t, rules, own, occupied, side),
        TableSet::Medium(t) => can_step_in(t, rules, own, occupied, side),
        TableSet::Large(t) => can_step_in(t, rules, own, occupied, side),
    }
}

#[inline]
fn can_step_in<B: Bits>(
    t: &Tables<B>,
    rules: &RaceRules,
    own: &Wide,
    occupied: &Wide,
    side: Seat,
) -> bool {
    let (own, occupied) = (B::from_wide(own), B::from_wide(occupied));
    let steps = Steps::new(t, rules, t.board & !occupied, side);
    own.iter()
        .any(|from| !(t.neighbours[from] & steps.step[steps.flight_index(from)]).is_zero())
}

/// Appends the legal moves of `side` (whose pieces are `own`) when the board's parity classes
/// fit a word each (see [`super::classes`]), as [`Node::moves`] lists them, and says whether
/// it did: on such boards the list needs none of the rest of a [`Node`]. `classes`: the
/// occupied cells split by class.
#[inline]
pub(crate) fn moves_in_class_words(
    rules: &RaceRules,
    own: &Wide,
    occupied: &Wide,
    side: Seat,
    classes: &Wide,
    out: &mut Vec<RaceMove>,
) -> bool {
    match &rules.tables {
        TableSet::Small(t) => class_words_in(t, rules, own, occupied, side, classes, out),
        TableSet::Medium(t) => class_words_in(t, rules, own, occupied, side, classes, out),
        TableSet::Large(t) => class_words_in(t, rules, own, occupied, side, classes, out),
    }
}

/// [`moves_in_class_words`] for one bit-set width. A hex grid's hop sets and waves are built
/// over its six directions only (the same moves: the other two directions' sets would be
/// empty); other boards over all eight.
#[inline]
fn class_words_in<B: Bits>(
    t: &Tables<B>,
    rules: &RaceRules,
    own: &Wide,
    occupied: &Wide,
    side: Seat,
    classes: &Wide,
    out: &mut Vec<RaceMove>,
) -> bool {
    let Some(ct) = &t.classes else {
        return false;
    };
    debug_assert_eq!(*classes, ct.split(occupied));
    out.reserve(64);
    let own = B::from_wide(own);
    let steps = Steps::new(t, rules, t.board & !B::from_wide(occupied), side);
    let camps = (rules.no_return_home(), rules.target_lock());
    class_words(t, ct, camps, own, &steps, side, classes, out);
    true
}

/// The moves of `side`'s pieces `own` on a board laid out in class words (`ct`), the chains
/// flooded one class at a time; `camps`: the no-return rule and the target lock.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn class_words<B: Bits>(
    t: &Tables<B>,
    ct: &ClassTables,
    camps: (bool, TargetLock),
    own: B,
    steps: &Steps<B>,
    side: Seat,
    occupied: &Wide,
    out: &mut Vec<RaceMove>,
) {
    if ct.dirs == HEX_DIRS {
        class_words_along::<B, HEX_DIRS>(t, ct, camps, own, steps, side, occupied, out);
    } else {
        class_words_along::<B, ALL_DIRS>(t, ct, camps, own, steps, side, occupied, out);
    }
}

/// [`class_words`], reading the directions `DIRS` (which hold the board's).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn class_words_along<B: Bits, const DIRS: u8>(
    t: &Tables<B>,
    ct: &ClassTables,
    (no_return, lock): (bool, TargetLock),
    own: B,
    steps: &Steps<B>,
    side: Seat,
    occupied: &Wide,
    out: &mut Vec<RaceMove>,
) {
    debug_assert_eq!(ct.dirs & !DIRS, 0);
    let occupied = *occupied;
    let empty = ct.board & !occupied;
    let side = side.index();
    let (home, target, rest) = (ct.homes[side], ct.targets[side], ct.rest[side]);
    let flights = flights(empty, home, target, !Wide::EMPTY, no_return, lock);
    let squares = &t.squares[..];
    CLASS_WORK.with_borrow_mut(|work| {
        let ClassWork {
            rules,
            sets,
            any,
            flood,
        } = work;
        let (mut rules_ready, mut sets_ready) = (0u8, 0u16);
        for from in own.iter() {
            let f = steps.flight_index(from);
            emit_steps_in_order(t, from, t.neighbours[from] & steps.step[f], out);
            let (c, h) = ct.class_bit(from);
            let key = 4 * f + c;
            if sets_ready >> key & 1 == 0 {
                if rules_ready >> f & 1 == 0 {
                    landing_rules(&flights[f], Wide::EMPTY, &mut rules[f]);
                    rules_ready |= 1 << f;
                }
                let n = flights[f].n;
                any[key] = ct.hop_sets::<DIRS>(c, &occupied, &rules[f], n, &mut sets[key]);
                sets_ready |= 1 << key;
            }
            let (s, jumpers) = (&sets[key], any[key]);
            if jumpers >> h & 1 == 0 {
                continue;
            }
            let (origin, keep) = (squares[from], rest.0[c]);
            // Every chain is written into room reserved for a whole class (a chain ends on
            // one of its other cells) and kept where the mover may rest, without a branch or a
            // capacity check per chain.
            out.reserve(64);
            let base = out.len();
            let slots = &mut out.spare_capacity_mut()[..64];
            let mut n = 0;
            flood.run::<DIRS>(h, s, jumpers, &ct.land, |t, hops, dirs| {
                slots[n].write(RaceMove::new(origin, ct.square(c, t), hops, dirs));
                n += (keep >> t & 1) as usize;
            });
            // SAFETY: `slots[..n]` are written (each kept move was written at the slot `n`
            // then stood for), and `base + n` is within the capacity reserved above.
            unsafe { out.set_len(base + n) };
        }
    });
}

/// Appends the steps of the piece on `from` to `steps`, in the order of their destinations:
/// without a branch per step where the directions' bit distances are distinct, else square by
/// square.
#[inline(always)]
fn emit_steps_in_order<B: Bits>(t: &Tables<B>, from: usize, steps: B, out: &mut Vec<RaceMove>) {
    let squares = &t.squares[..];
    let Some(order) = &t.step_order else {
        return emit_steps(squares[from], steps, squares, out);
    };
    // As `emit_neighbours`, over the board's directions only.
    let origin = squares[from];
    out.reserve(8);
    let base = out.len();
    let slots = &mut out.spare_capacity_mut()[..8];
    let mut n = 0;
    for &offset in &order.offsets[..order.len] {
        let to = from.wrapping_add_signed(offset) & (B::CAPACITY - 1);
        slots[n].write(RaceMove::step(origin, squares[to]));
        n += usize::from(steps.get(to) == 1);
    }
    // SAFETY: `slots[..n]` are written (each kept move was written at the slot `n` then
    // stood for), and `base + n` is within the capacity reserved above.
    unsafe { out.set_len(base + n) };
}

/// The landing rules for one kind of piece (locked in the target, still at home, or out).
#[derive(Copy, Clone)]
pub(crate) struct Flight<B> {
    /// Allowed landings per phase, in the order a chain can pass through them.
    phases: [B; 3],
    /// The squares of each phase (which phase a square of the board belongs to).
    phase_squares: [B; 3],
    n: usize,
}

/// What the side to move can do in one position: jump sources per line and the landing rules.
pub(crate) struct Node<'a, B, const L: usize> {
    t: &'a Tables<B>,
    occupied: B,
    own: B,
    shift2: [u32; L],
    /// Squares that can jump along line `i` in the positive / negative direction.
    jump_pos: [B; L],
    jump_neg: [B; L],
    /// Squares that can jump at all.
    jumpers: B,
    jumps_ready: bool,
    /// Pieces locked in the target, pieces still at home (under no-return), and the flights of
    /// those two kinds and of all other pieces.
    locked: B,
    at_home: B,
    /// Where a step may go, per kind: the flights' `step`, which every list needs.
    step: [B; 3],
    /// The whole flights, built when first asked for (the parity flood builds its own).
    flights: std::cell::OnceCell<[Flight<B>; 3]>,
    /// What the flights are built from.
    empty: B,
    home: B,
    target: B,
    side: Seat,
    /// Where the mover's moves may end (all cells unless other seats' regions are closed).
    rest: B,
    no_return: bool,
    lock: TargetLock,
}

/// The flights of the three kinds of piece (locked in the target, still at home, out), from the
/// empty squares, the mover's camps and the camp rules; `all` is every square. Generic over the
/// set type, so the parity flood builds the same flights in its classes.
#[inline]
fn flights<M>(
    empty: M,
    home: M,
    target: M,
    all: M,
    no_return: bool,
    lock: TargetLock,
) -> [Flight<M>; 3]
where
    M: Copy + BitAnd<Output = M> + BitOr<Output = M> + Not<Output = M>,
{
    let in_target = empty & target;
    let away = if no_return { empty & !home } else { empty };
    let locked_flight = Flight {
        phases: [in_target; 3],
        phase_squares: [all; 3],
        n: 1,
    };
    // Out of home, with the target as a last phase under a per-landing lock.
    let per_landing = lock == TargetLock::PerLanding;
    let (out, out_squares) = if per_landing {
        (away & !target, !target)
    } else {
        (away, all)
    };
    let home_flight = Flight {
        phases: [empty & home, out, in_target],
        phase_squares: [home, out_squares & !home, target],
        n: if per_landing { 3 } else { 2 },
    };
    let out_flight = Flight {
        phases: [out, in_target, in_target],
        phase_squares: [out_squares, target, target],
        n: if per_landing { 2 } else { 1 },
    };
    [locked_flight, home_flight, out_flight]
}

/// For a flight: the squares of each phase (`here`), and the landings allowed from a square of
/// each phase (`allowed`: phases p, p+1, …, since camp rules only move forward).
/// Written in place (a returned pair was copied through the stack).
#[inline]
fn landing_rules<M>(flight: &Flight<M>, zero: M, (here, allowed_from): &mut ([M; 3], [M; 3]))
where
    M: Copy + BitOr<Output = M> + Not<Output = M> + BitAnd<Output = M>,
{
    *allowed_from = [zero; 3];
    let mut allowed = zero;
    for p in (0..flight.n).rev() {
        allowed = allowed | flight.phases[p];
        allowed_from[p] = allowed;
    }
    // A square's phase is the first whose squares hold it; a square of none counts as the
    // first (none exists in the flights built here).
    *here = [zero; 3];
    let mut earlier = flight.phase_squares[0];
    for (here, &squares) in here
        .iter_mut()
        .zip(&flight.phase_squares)
        .take(flight.n)
        .skip(1)
    {
        *here = squares & !earlier;
        earlier = earlier | squares;
    }
    here[0] = !(here[1] | here[2]);
}

impl<'a, B: Bits, const L: usize> Node<'a, B, L> {
    #[inline]
    pub fn new(
        t: &'a Tables<B>,
        rules: &RaceRules,
        own: &Wide,
        occupied: &Wide,
        side: Seat,
    ) -> Self {
        let own = B::from_wide(own);
        let occupied = B::from_wide(occupied);
        let empty = t.board & !occupied;
        let home = t.homes[side.index()];
        let target = t.targets[side.index()];
        let rest = t.rest[side.index()];
        let no_return = rules.no_return_home();
        let lock = rules.target_lock();
        let Steps {
            locked,
            at_home,
            step,
        } = Steps::new(t, rules, empty, side);
        Node {
            t,
            occupied,
            own,
            side,
            shift2: std::array::from_fn(|i| 2 * t.lines[i].shift),
            jump_pos: [B::ZERO; L],
            jump_neg: [B::ZERO; L],
            jumpers: B::ZERO,
            jumps_ready: false,
            locked,
            at_home,
            step,
            rest,
            flights: std::cell::OnceCell::new(),
            empty,
            home,
            target,
            no_return,
            lock,
        }
    }

    /// The flights of the three kinds of piece (locked, at home, out).
    #[inline]
    fn flights(&self) -> &[Flight<B>; 3] {
        self.flights.get_or_init(|| {
            let (empty, home, target) = (self.empty, self.home, self.target);
            flights(empty, home, target, !B::ZERO, self.no_return, self.lock)
        })
    }

    #[inline]
    fn prepare_jumps(&mut self) {
        if self.jumps_ready {
            return;
        }
        let empty = self.t.board & !self.occupied;
        let mut jumpers = B::ZERO;
        for i in 0..L {
            let line = &self.t.lines[i];
            let k = line.shift;
            self.jump_pos[i] = line.jump_pos & self.occupied.shr(k) & empty.shr(2 * k);
            self.jump_neg[i] = line.jump_neg & self.occupied.shl(k) & empty.shl(2 * k);
            jumpers |= self.jump_pos[i] | self.jump_neg[i];
        }
        self.jumpers = jumpers;
        self.jumps_ready = true;
    }

    #[inline]
    fn flight(&self, from: usize) -> &Flight<B> {
        &self.flights()[self.flight_index(from)]
    }

    /// Squares reached by one jump from the squares in `x`.
    #[inline(always)]
    fn jumps(&self, x: B) -> B {
        let mut r = B::ZERO;
        for i in 0..L {
            r |= (x & self.jump_pos[i]).shl(self.shift2[i])
                | (x & self.jump_neg[i]).shr(self.shift2[i]);
        }
        r
    }

    /// Every square the piece on `from` can end a jump chain on: the phases in order, each
    /// seeded by every jump out of the squares reached before.
    #[inline]
    fn reach(&self, from: usize, flight: &Flight<B>) -> B {
        if !self.jumpers.has(from) {
            return B::ZERO;
        }
        let mut reached = B::ZERO;
        let mut raw = self.jumps(B::bit(from));
        for &allowed in &flight.phases[..flight.n] {
            let mut next = raw & allowed & !reached;
            while !next.is_zero() {
                reached |= next;
                raw |= self.jumps(next);
                next = raw & allowed & !reached;
            }
        }
        reached
    }

    /// The pieces of each kind (locked in the target, still at home, out) with where they may
    /// step.
    #[inline]
    fn kinds(&self) -> [(B, B); 3] {
        let locked = self.own & self.locked;
        let at_home = self.own & self.at_home & !self.locked;
        let out = self.own & !(self.locked | self.at_home);
        [
            (locked, self.step[0]),
            (at_home, self.step[1]),
            (out, self.step[2]),
        ]
    }

    /// Step destinations of all `pieces` along every line, counted set-wise.
    #[inline]
    fn count_steps(&self, pieces: B, allowed: B) -> u32 {
        let mut n = 0;
        for i in 0..L {
            let line = &self.t.lines[i];
            n += ((pieces & line.step_pos).shl(line.shift) & allowed).count()
                + ((pieces & line.step_neg).shr(line.shift) & allowed).count();
        }
        n
    }

    /// The number of legal moves (distinct destinations per piece). Steps and chains never
    /// share a destination (a step changes the parity of file or rank, a jump keeps both), so
    /// steps are counted for all pieces of a kind at once and chains only for pieces that can
    /// jump at all.
    #[inline]
    pub fn count(&mut self) -> u64 {
        self.prepare_jumps();
        let mut total = 0u32;
        for (pieces, step) in self.kinds() {
            if !pieces.is_zero() {
                total += self.count_steps(pieces, step);
            }
        }
        for from in (self.own & self.jumpers).iter() {
            total += (self.reach(from, self.flight(from)) & self.rest).count();
        }
        u64::from(total)
    }

    /// Destinations of the piece on `from` (which must be the mover's).
    pub fn destinations(&mut self, from: usize) -> B {
        self.prepare_jumps();
        let steps = self.t.neighbours[from] & self.step[self.flight_index(from)];
        steps | (self.reach(from, self.flight(from)) & self.rest)
    }

    /// Whether the side to move has any legal move (steps are checked first: they are cheap
    /// and usually there).
    pub fn has_move(&mut self) -> bool {
        for (pieces, step) in self.kinds() {
            if pieces.is_zero() {
                continue;
            }
            for line in &self.t.lines[..L] {
                let forward = (pieces & line.step_pos).shl(line.shift);
                let backward = (pieces & line.step_neg).shr(line.shift);
                if !((forward | backward) & step).is_zero() {
                    return true;
                }
            }
        }
        self.prepare_jumps();
        (self.own & self.jumpers)
            .iter()
            .any(|from| !(self.reach(from, self.flight(from)) & self.rest).is_zero())
    }

    /// Which of the three flights (locked, at home, out) the piece on `from` flies.
    /// Without a branch (a list asks for every piece).
    #[inline]
    fn flight_index(&self, from: usize) -> usize {
        let (locked, at_home) = (self.locked.get(from), self.at_home.get(from));
        ((2 - at_home) * (1 - locked)) as usize
    }

    /// Appends the moves of every piece that end where the mover may rest, each with its
    /// representative path: a step where one
    /// exists, else a shortest chain whose hops, walked back from the destination, try the
    /// directions in the order N, NE, E, SE, S, SW, W, NW.
    ///
    /// The order: piece by piece (in square order), first its steps by destination, then its
    /// chains, shorter first and chains of one length by destination (steps and chains never
    /// share a destination).
    ///
    /// Pieces that cannot jump at all (known set-wise) only step. For the others one
    /// breadth-first flood per piece runs: set-wise over one word where the board or its
    /// parity classes fit one ([`Self::moves_in_one_word`], [`Self::moves_by_class`],
    /// [`moves_in_class_words`]), else over the jumps that are really there, square by square
    /// ([`Self::flood`]).
    ///
    /// `classes`: the occupied squares arranged by parity class (read on 16-wide boards and
    /// boards whose classes fit a word each).
    pub fn moves(&mut self, out: &mut Vec<RaceMove>, classes: &Wide) {
        out.reserve(64);
        if let Some(pt) = &self.t.parity {
            self.moves_by_class(pt, classes, out);
            return;
        }
        if let Some(ct) = &self.t.classes {
            debug_assert_eq!(*classes, ct.split(&self.occupied));
            let steps = Steps {
                locked: self.locked,
                at_home: self.at_home,
                step: self.step,
            };
            let camps = (self.no_return, self.lock);
            class_words(self.t, ct, camps, self.own, &steps, self.side, classes, out);
            return;
        }
        self.prepare_jumps();
        if B::WORDS == 1 {
            self.moves_in_one_word(out);
            return;
        }
        WORK.with_borrow_mut(|work| {
            let mut scratch = Scratch::new(self.t, work);
            let squares = &self.t.squares[..];
            for from in self.own.iter() {
                let f = self.flight_index(from);
                let steps = self.t.neighbours[from] & self.step[f];
                if self.jumpers.has(from) {
                    self.flood(from, f, &mut scratch);
                    scratch.emit(squares[from], steps, self.rest, squares, out);
                    scratch.clear();
                } else {
                    emit_steps(squares[from], steps, squares, out);
                }
            }
        });
    }

    /// [`Self::moves`] on a board of at most 64 squares (Ugolki), the chains flooded set-wise
    /// over the whole board's word (see [`super::word_flood`]). The jumps must be prepared.
    fn moves_in_one_word(&self, out: &mut Vec<RaceMove>) {
        let squares = &self.t.squares[..];
        // A jump is two steps: at most 34 bits (a diagonal on a board 16 wide and 4 high).
        let land = self.t.dir_offset.map(|o| (2 * o) as i8);
        let mut sets = [[0u64; 8]; 3];
        let mut any = [0u64; 3];
        let mut ready = 0u8;
        CLASS_WORK.with_borrow_mut(|work| {
            let flood = &mut work.flood;
            for from in self.own.iter() {
                let f = self.flight_index(from);
                let steps = self.t.neighbours[from] & self.step[f];
                // Steps with a branch each: on a small board a piece has few (the branch-free
                // slots of the parity flood were slower here, measured).
                emit_steps(squares[from], steps, squares, out);
                if !self.jumpers.has(from) {
                    continue;
                }
                if ready >> f & 1 == 0 {
                    sets[f] = self.hop_sets(f).map(|s| s.word(0));
                    any[f] = sets[f].iter().fold(0, |a, &s| a | s);
                    ready |= 1 << f;
                }
                if any[f] >> from & 1 == 1 {
                    let origin = squares[from];
                    let rest = self.rest.word(0);
                    flood.run::<ALL_DIRS>(from, &sets[f], any[f], &land, |to, hops, dirs| {
                        if rest >> to & 1 == 1 {
                            out.push(RaceMove::new(origin, squares[to], hops, dirs));
                        }
                    });
                }
            }
        });
    }

    /// [`Self::moves`] on a board 16 squares wide, the chains flooded one parity class at a
    /// time (see [`super::parity`]).
    fn moves_by_class(&self, pt: &ParityTables, occupied: &Wide, out: &mut Vec<RaceMove>) {
        let start = out.len();
        self.moves_by_class_anywhere(pt, occupied, out);
        if self.rest != self.t.board {
            // A full board 16 wide: a square's bit is rank × 16 + file.
            let index = |s: Square| usize::from(s.rank()) << 4 | usize::from(s.file());
            let mut kept = start;
            for i in start..out.len() {
                let mv = out[i];
                out[kept] = mv;
                kept += usize::from(self.rest.has(index(mv.to())));
            }
            out.truncate(kept);
        }
    }

    /// [`Self::moves_by_class`] before the moves that may not end where they end are left out.
    fn moves_by_class_anywhere(&self, pt: &ParityTables, occupied: &Wide, out: &mut Vec<RaceMove>) {
        debug_assert_eq!(*occupied, parity::split(&self.occupied));
        let occupied = *occupied;
        let empty = pt.board & !occupied;
        let (home, target) = (pt.homes[self.side.index()], pt.targets[self.side.index()]);
        let flights = flights(empty, home, target, !Wide::EMPTY, self.no_return, self.lock);
        CLASS_WORK.with_borrow_mut(|work| {
            let ClassWork {
                rules,
                sets,
                any,
                flood,
            } = work;
            let (mut rules_ready, mut sets_ready) = (0u8, 0u16);
            for from in self.own.iter() {
                let f = self.flight_index(from);
                let steps = self.t.neighbours[from] & self.step[f];
                let (c, h) = (parity::class_of(from), parity::half_of(from));
                let key = 4 * f + c;
                if sets_ready >> key & 1 == 0 {
                    if rules_ready >> f & 1 == 0 {
                        landing_rules(&flights[f], Wide::EMPTY, &mut rules[f]);
                        rules_ready |= 1 << f;
                    }
                    let n = flights[f].n;
                    any[key] = parity::hop_sets(pt, c, &occupied, &rules[f], n, &mut sets[key]);
                    sets_ready |= 1 << key;
                }
                // On a board 16 wide a square's code is its bit index.
                let square = |i: usize| Square::from_code(((i & 15) | (i >> 4 & 15) << 5) as u16);
                if !steps.is_zero() {
                    emit_neighbours(from, steps, &pt.neighbours, square, out);
                }
                let (s, jumpers) = (&sets[key], any[key]);
                if jumpers >> h & 1 == 0 {
                    continue;
                }
                // Where the first hops land; if none of those squares can jump on, every chain
                // is one hop, written in the order of its landing without a flood.
                let bit = 1u64 << h;
                let mut first = 0;
                for (d, &set) in s.iter().enumerate() {
                    first |= parity::shift(set & bit, parity::LAND[d]);
                }
                if first & jumpers == 0 {
                    let origin = square(from);
                    push_kept(out, |i| {
                        let d = parity::BY_LANDING[i];
                        let to = square(from.wrapping_add_signed(parity::JUMP[d]) & 255);
                        let mv = RaceMove::new(origin, to, 1, [d as u64, 0, 0]);
                        (mv, s[d] & bit != 0)
                    });
                    continue;
                }
                let origin = square(from);
                flood.run::<ALL_DIRS>(h, s, jumpers, &parity::LAND, |t, hops, dirs| {
                    let to = square(parity::index_of(c, t));
                    out.push(RaceMove::new(origin, to, hops, dirs));
                });
            }
        });
    }

    /// As [`Self::moves`], for the piece on `from` only.
    pub fn piece_moves(&mut self, from: usize, out: &mut Vec<RaceMove>) {
        self.prepare_jumps();
        let f = self.flight_index(from);
        let steps = self.t.neighbours[from] & self.step[f];
        WORK.with_borrow_mut(|work| {
            let mut scratch = Scratch::new(self.t, work);
            if self.jumpers.has(from) {
                self.flood(from, f, &mut scratch);
            }
            let squares = &self.t.squares[..];
            scratch.emit(squares[from], steps, self.rest, squares, out);
        });
    }

    /// For flight `f`, per direction (by [`super::square::Dir::index`]): the squares a piece
    /// of that flight can jump from in that direction, on its way through a chain — a piece to
    /// jump over, and a landing the camp rules allow from the square's phase. Set-wise, once per
    /// flight and position.
    #[inline(never)]
    fn hop_sets(&self, f: usize) -> [B; 8] {
        let flight = &self.flights()[f];
        let mut sets = [B::ZERO; 8];
        let mut rules = ([B::ZERO; 3], [B::ZERO; 3]);
        landing_rules(flight, B::ZERO, &mut rules);
        let (here, allowed_from) = rules;
        // Only the real lines: a padding line's direction would overwrite a real one's set.
        for i in 0..L.min(self.t.line_count) {
            let line = &self.t.lines[i];
            let k2 = self.shift2[i];
            let (mut pos, mut neg) = (B::ZERO, B::ZERO);
            for (&here, &allowed) in here.iter().zip(&allowed_from).take(flight.n) {
                pos |= here & allowed.shr(k2);
                neg |= here & allowed.shl(k2);
            }
            sets[usize::from(line.dir)] = self.jump_pos[i] & pos;
            sets[usize::from(line.dir + 4) & 7] = self.jump_neg[i] & neg;
        }
        sets
    }

    /// The same destinations as [`Self::reach`] for the piece on `from` flying flight `f`,
    /// flooded breadth first (so by chains of equal length) square by square, recording in
    /// `scratch` how each square was first reached (by the first direction, in the preferred
    /// order, among the hops from the previous wave), and queueing the squares reached.
    ///
    /// Square by square rather than set-wise: a piece reaches few squares, and a wave of a
    /// 256-square board costs sixteen wide shifts however few squares it holds. Per square the
    /// jumps really there are read from the flight's hop sets ([`Self::hop_sets`]), and each
    /// jump updates its landing without a branch: a record is (chain length << 3 | direction),
    /// unreached squares hold `u16::MAX`, so keeping the smaller record keeps the first wave
    /// and, within a wave, the first direction.
    fn flood(&self, from: usize, f: usize, scratch: &mut Scratch<'_, B>) {
        if scratch.ready & (1 << f) == 0 {
            scratch.sets[f] = self.hop_sets(f);
            scratch.ready |= 1 << f;
        }
        let Scratch {
            work,
            sets,
            chunks,
            offset2,
            ..
        } = scratch;
        let Work {
            hop,
            path,
            queue,
            masks,
            dirty,
        } = &mut **work;
        *dirty = true;
        let (sets, masks, chunks) = (&sets[f], &mut masks[f], &mut chunks[f]);
        queue[0] = from as u8;
        let (mut head, mut tail) = (0usize, 1usize);
        hop[from] = 0;
        path[from] = 0;
        // Chain length of the wave being expanded, + 1 (the origin's record says 0).
        let mut mark = 1u16;
        while head < tail && usize::from(mark) <= MAX_WAVES {
            let end = tail;
            while head < end {
                let p = usize::from(queue[head]);
                head += 1;
                let c = p >> 3;
                if *chunks >> c & 1 == 0 {
                    *chunks |= 1 << c;
                    let masks8 = transpose8(sets, c);
                    masks[8 * c..8 * c + 8].copy_from_slice(&masks8.to_le_bytes());
                }
                let mut m = u32::from(masks[p]);
                // The hop from here is hop number `mark` of the chain (garbage past the first
                // word, where `chain` reads the records instead).
                let (word, shift) = (path[p], (3 * (u32::from(mark) - 1)) & 63);
                while m != 0 {
                    let d = m.trailing_zeros();
                    m &= m - 1;
                    let land = (p as isize + offset2[d as usize]) as usize;
                    let (old, new) = (hop[land], d as u16 | mark << 3);
                    queue[tail] = land as u8;
                    tail += usize::from(old == u16::MAX);
                    hop[land] = old.min(new);
                    path[land] = if new < old {
                        word | u64::from(d) << shift
                    } else {
                        path[land]
                    };
                }
            }
            mark += 1;
        }
        scratch.len = tail;
    }
}

/// Appends the steps of the piece on `from` to `steps`, in the order of their destinations.
#[inline]
fn emit_steps<B: Bits>(from: Square, steps: B, squares: &[Square], out: &mut Vec<RaceMove>) {
    for k in 0..B::WORDS {
        let mut w = steps.word(k);
        if w == 0 {
            continue;
        }
        while w != 0 {
            let to = 64 * k + w.trailing_zeros() as usize;
            w &= w - 1;
            out.push(RaceMove::step(from, squares[to]));
        }
    }
}

/// Appends the steps of the piece on bit index `from` to `steps`, in the order of their
/// destinations: the eight neighbour slots (`order`: their bit distances, ascending), each
/// written and kept only if it is a step, without a branch per slot (which square a piece can
/// step to is as good as random, and a mispredicted branch costs more than a written move).
/// `square` names a bit index, or anything for one past the board (never a step).
#[inline(always)]
fn emit_neighbours<B: Bits>(
    from: usize,
    steps: B,
    order: &[isize; 8],
    square: impl Fn(usize) -> Square,
    out: &mut Vec<RaceMove>,
) {
    let origin = square(from);
    push_kept(out, |i| {
        let to = from.wrapping_add_signed(order[i]) & (B::CAPACITY - 1);
        (RaceMove::step(origin, square(to)), steps.get(to) == 1)
    });
}

/// Appends those of eight moves that are kept (`slot(i)`: move `i` and whether to keep it), in
/// order, writing every one and advancing only past the kept ones: no branch per move.
#[inline(always)]
fn push_kept(out: &mut Vec<RaceMove>, slot: impl Fn(usize) -> (RaceMove, bool)) {
    out.reserve(8);
    let base = out.len();
    let slots = &mut out.spare_capacity_mut()[..8];
    let mut n = 0;
    for i in 0..8 {
        let (mv, keep) = slot(i);
        slots[n].write(mv);
        n += usize::from(keep);
    }
    // SAFETY: `slots[..n]` are written (each kept move was written at the slot `n` then
    // stood for, and later writes go to slots at or past the new `n`), and `base + n` is within
    // the capacity reserved above.
    unsafe { out.set_len(base + n) };
}

/// The work space of the parity floods, one per thread (about 2.5 KiB, not filled afresh for
/// every list): per flight the landing rules in classes, per flight and class the hop sets and
/// the squares that can jump at all, and the flood's records.
struct ClassWork {
    rules: [([Wide; 3], [Wide; 3]); 3],
    sets: [[u64; 8]; 12],
    any: [u64; 12],
    flood: Flood,
}

thread_local! {
    static CLASS_WORK: std::cell::RefCell<ClassWork> = const {
        std::cell::RefCell::new(ClassWork {
            rules: [([Wide::EMPTY; 3], [Wide::EMPTY; 3]); 3],
            sets: [[0; 8]; 12],
            any: [0; 12],
            flood: Flood::new(),
        })
    };
}

/// The hop masks of the eight squares `8c .. 8c + 7` (byte `i`: bit `d` set if square
/// `8c + i` is in `sets[d]`): the bytes of the eight sets at `c` as the rows of an 8×8 bit
/// matrix, transposed (Hacker's Delight, 7-3).
#[inline]
fn transpose8<B: Bits>(sets: &[B; 8], c: usize) -> u64 {
    let (k, s) = (c >> 3, 8 * (c & 7));
    let mut x = 0u64;
    for (d, set) in sets.iter().enumerate() {
        x |= (set.word(k) >> s & 0xff) << (8 * d);
    }
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// The board-sized work space of the floods, one per thread (filling 4 KiB afresh for every
/// move list cost about a tenth of a Halma start list).
pub(crate) struct Work {
    /// Per bit index: the chain length (the bits above 3) and the direction index (3 bits) of
    /// the hop that first reached the square; `u16::MAX` if the flood has not reached it
    /// (every entry, between floods).
    hop: [u16; 256],
    /// Per bit index reached: the directions of the chain the records spell, packed as in a
    /// move, built while flooding (parent's word plus the last hop) so a move of up to 21 hops
    /// needs no walk back. Only its first word; longer chains are read back from `hop`.
    path: [u64; 256],
    /// The flood's queue of squares, wave after wave.
    queue: [u8; 256],
    /// Per flight and bit index: the directions a chain can jump in from the square (bit
    /// `d` = the flight's hop set `d` holds it), valid where the scratch's `chunks` say so.
    masks: [[u8; 256]; 3],
    /// A flood's records may be left in `hop` (set while flooding, cleared when they are
    /// forgotten; a panic in between leaves it set, and the next list starts clean).
    dirty: bool,
}

impl Work {
    const fn new() -> Work {
        Work {
            hop: [u16::MAX; 256],
            path: [0; 256],
            queue: [0; 256],
            masks: [[0; 256]; 3],
            dirty: false,
        }
    }
}

impl<B> Drop for Scratch<'_, B> {
    /// Leaves the thread's work space clean for the next list (after a panic mid-flood the
    /// records are not known: the space stays dirty, and the next list clears it whole).
    fn drop(&mut self) {
        if !std::thread::panicking() {
            for &q in &self.work.queue[..self.len] {
                self.work.hop[usize::from(q)] = u16::MAX;
            }
            self.work.dirty = false;
        }
    }
}

thread_local! {
    static WORK: std::cell::RefCell<Work> = const { std::cell::RefCell::new(Work::new()) };
}

/// The work space of the floods of one move list: the thread's [`Work`], how much of its queue
/// the last flood filled, and the hop sets of the position per flight.
pub(crate) struct Scratch<'w, B> {
    work: &'w mut Work,
    /// `work.queue[..len]` holds the last flood's squares: the origin, then the squares it
    /// reached, wave by wave.
    len: usize,
    /// Per flight: [`Node::hop_sets`], computed when bit `f` of `ready` is set.
    sets: [[B; 8]; 3],
    ready: u8,
    /// Per flight: bit `c` set when `work.masks[f][8c .. 8c + 8]` holds this position's masks.
    chunks: [u32; 3],
    /// The bit distance of one step in each direction.
    offset: [i16; 8],
    /// The bit distance of one jump in each direction.
    offset2: [isize; 8],
}

impl<'w, B: Bits> Scratch<'w, B> {
    pub fn new(t: &Tables<B>, work: &'w mut Work) -> Self {
        if work.dirty {
            work.hop = [u16::MAX; 256];
            work.dirty = false;
        }
        Scratch {
            work,
            len: 0,
            sets: [[B::ZERO; 8]; 3],
            ready: 0,
            chunks: [0; 3],
            offset: t.dir_offset,
            offset2: t.dir_offset.map(|o| 2 * isize::from(o)),
        }
    }

    /// Forgets the last flood's records (only the squares it reached).
    #[inline]
    fn clear(&mut self) {
        let work = &mut *self.work;
        for &q in &work.queue[..self.len] {
            work.hop[usize::from(q)] = u16::MAX;
        }
        work.dirty = false;
        self.len = 0;
    }

    /// Appends the moves of the piece on `from`: the steps to `steps` in the order of their
    /// destinations, then the chains to the squares the last flood reached, shorter chains
    /// first and chains of one length in the order of their destinations (as the word floods
    /// give them).
    ///
    /// Each move is built once from scalars (see [`Self::chain`]).
    #[inline]
    fn emit(&self, from: Square, steps: B, rest: B, squares: &[Square], out: &mut Vec<RaceMove>) {
        emit_steps(from, steps, squares, out);
        // The queue holds the squares wave by wave; within a wave, by discovery.
        let mut order = [0u8; 256];
        let reached = &mut order[..self.len.saturating_sub(1)];
        reached.copy_from_slice(&self.work.queue[1..self.len.max(1)]);
        reached.sort_unstable_by_key(|&q| (self.work.hop[usize::from(q)] >> 3, q));
        for &to in reached.iter() {
            let to = usize::from(to);
            if !rest.has(to) {
                continue;
            }
            let (hops, d0, d1, d2) = self.chain(to);
            out.push(RaceMove::new(from, squares[to], hops, [d0, d1, d2]));
        }
    }

    /// The chain to the bit index `to`, read back through the recorded hops: its number of
    /// hops and their directions, packed (3 bits each, 21 per word).
    ///
    /// Scalars, not a move: the caller builds the move once from them, so it stays in
    /// registers (a move built in two branches was merged on the stack and read back wider
    /// than written, which stalls every store of a move).
    #[inline]
    fn chain(&self, to: usize) -> (u8, u64, u64, u64) {
        let hops = usize::from(self.work.hop[to] >> 3);
        if hops > HOPS_PER_WORD {
            return self.long_chain(to);
        }
        (hops as u8, self.work.path[to], 0, 0)
    }

    /// [`Self::chain`] for chains of more than one word of hops.
    #[cold]
    #[inline(never)]
    fn long_chain(&self, to: usize) -> (u8, u64, u64, u64) {
        let hops = usize::from(self.work.hop[to] >> 3);
        let mut dirs = [0u64; 3];
        let mut cur = to;
        for i in (0..hops).rev() {
            let d = self.work.hop[cur] & 7;
            dirs[i / HOPS_PER_WORD] |= u64::from(d) << (3 * (i % HOPS_PER_WORD));
            cur = (cur as isize - 2 * isize::from(self.offset[usize::from(d)])) as usize;
        }
        (hops as u8, dirs[0], dirs[1], dirs[2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word floods (`legal_moves` on boards of at most 64 squares, 16-wide boards and
    /// boards whose parity classes fit a word each) against the square-by-square flood
    /// (`piece_moves`, which every board uses): the same moves, in the same order, with the
    /// same representative paths, in every position of random games to their end, in every
    /// shipped race variant at every seat count and the hexagonal example mod.
    #[test]
    fn lists_what_the_square_by_square_flood_lists() {
        use crate::{AnyPosition, Position, Variant};
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut variants: Vec<Variant> = crate::shipped_variants()
            .map(|name| crate::shipped_variant(name).unwrap())
            .collect();
        let hex = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/mods/hex-halma.ron"
        );
        variants.push(Variant::from_path(std::path::Path::new(hex)).unwrap());
        let tables = variants.iter().flat_map(|v| {
            v.player_counts()
                .into_iter()
                .map(|n| v.with_players(n).unwrap())
        });
        for variant in tables {
            let name = format!("{} ({} seats)", variant.name, variant.players());
            for _ in 0..6 {
                let AnyPosition::Race(mut pos) = variant.new_game() else {
                    break;
                };
                let mut moves = Vec::new();
                loop {
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let mut expected = Vec::new();
                    for from in pos.pieces(pos.side_to_move()) {
                        expected.extend(pos.piece_moves(from));
                    }
                    let paths = |m: &[RaceMove]| -> Vec<String> {
                        m.iter().map(|m| m.to_string()).collect()
                    };
                    assert_eq!(paths(&moves), paths(&expected), "{name}\n{pos}");
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let mv = moves[(x >> 7) as usize % moves.len()];
                    pos.play_unchecked(&mv);
                }
            }
        }
    }
}
