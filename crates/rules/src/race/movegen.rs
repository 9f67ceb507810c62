//! Move generation by set-wise flood fill.
//!
//! For the side to move, one pass over the board finds, per line, the squares from which a jump
//! is possible (a piece next door, an empty square beyond). A piece's jump destinations are then
//! a flood over bit sets: each wave is the previous one shifted two squares along every line it
//! can jump along, restricted to the landings the camp rules allow, minus squares already
//! reached. Counting moves is a popcount per piece; listing them backtracks through the waves.
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
use super::{
    bitboard::{Bits, Wide},
    moves::RaceMove,
    rules::{RaceRules, Tables, TargetLock},
    square::Dir,
};
use crate::Color;

/// Up to 64 waves: every landing of a chain keeps the parity of file and rank, so a chain on a
/// 16×16 board visits at most 64 squares.
const MAX_WAVES: usize = 64;

/// Runs `$body` with `$node` bound to a [`Node`] for the rules' bit-set width and line count.
macro_rules! with_node {
    ($rules:expr, $pieces:expr, $side:expr, $node:ident => $body:expr) => {{
        use $crate::race::rules::TableSet;
        let rules: &$crate::race::rules::RaceRules = $rules;
        match (&rules.tables, rules.line_count()) {
            (TableSet::Small(t), 2) => {
                let mut $node =
                    $crate::race::movegen::Node::<u64, 2>::new(t, rules, $pieces, $side);
                $body
            }
            (TableSet::Small(t), _) => {
                let mut $node =
                    $crate::race::movegen::Node::<u64, 4>::new(t, rules, $pieces, $side);
                $body
            }
            (TableSet::Medium(t), 2) => {
                let mut $node =
                    $crate::race::movegen::Node::<u128, 2>::new(t, rules, $pieces, $side);
                $body
            }
            (TableSet::Medium(t), _) => {
                let mut $node =
                    $crate::race::movegen::Node::<u128, 4>::new(t, rules, $pieces, $side);
                $body
            }
            (TableSet::Large(t), 2) => {
                let mut $node = $crate::race::movegen::Node::<$crate::race::bitboard::Wide, 2>::new(
                    t, rules, $pieces, $side,
                );
                $body
            }
            (TableSet::Large(t), _) => {
                let mut $node = $crate::race::movegen::Node::<$crate::race::bitboard::Wide, 4>::new(
                    t, rules, $pieces, $side,
                );
                $body
            }
        }
    }};
}
pub(crate) use with_node;

/// The landing rules for one kind of piece (locked in the target, still at home, or out).
#[derive(Copy, Clone)]
pub(crate) struct Flight<B> {
    /// Where a step may go.
    step: B,
    /// Allowed landings per phase, in the order a chain can pass through them.
    phases: [B; 3],
    /// The squares of each phase (which phase a square of the board belongs to).
    phase_squares: [B; 3],
    n: usize,
}

impl<B: Bits> Flight<B> {
    /// Where a jump from `square` may land.
    #[inline]
    fn allowed_from(&self, square: usize) -> B {
        let mut allowed = B::ZERO;
        let mut found = false;
        for p in 0..self.n {
            found |= self.phase_squares[p].has(square);
            if found {
                allowed |= self.phases[p];
            }
        }
        allowed
    }
}

/// The waves of one breadth-first flood, kept when paths are wanted.
pub(crate) struct Waves<B> {
    waves: [B; MAX_WAVES],
    len: usize,
}

impl<B: Bits> Waves<B> {
    pub fn new() -> Self {
        Waves {
            waves: [B::ZERO; MAX_WAVES],
            len: 0,
        }
    }
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
    flights: [Flight<B>; 3],
}

impl<'a, B: Bits, const L: usize> Node<'a, B, L> {
    #[inline]
    pub fn new(t: &'a Tables<B>, rules: &RaceRules, pieces: &[Wide; 2], side: Color) -> Self {
        let own = B::from_wide(&pieces[side.index()]);
        let occupied = own | B::from_wide(&pieces[side.other().index()]);
        let empty = t.board & !occupied;
        let home = t.camps[side.index()];
        let target = t.camps[side.other().index()];
        let no_return = rules.no_return_home();
        let lock = rules.target_lock();
        let in_target = empty & target;
        let away = if no_return { empty & !home } else { empty };
        let all = !B::ZERO;
        let locked_flight = Flight {
            step: in_target,
            phases: [in_target; 3],
            phase_squares: [all; 3],
            n: 1,
        };
        // Out of home, with the target as a last phase under a per-landing lock.
        let (out, out_squares, tail) = if lock == TargetLock::PerLanding {
            (away & !target, !target, Some((in_target, target)))
        } else {
            (away, all, None)
        };
        let mut home_flight = Flight {
            step: empty,
            phases: [empty & home, out, in_target],
            phase_squares: [home, out_squares & !home, target],
            n: 2,
        };
        let mut out_flight = Flight {
            step: away,
            phases: [out, in_target, in_target],
            phase_squares: [out_squares, target, target],
            n: 1,
        };
        if tail.is_some() {
            home_flight.n = 3;
            out_flight.n = 2;
        }
        Node {
            t,
            occupied,
            own,
            shift2: std::array::from_fn(|i| 2 * t.lines[i].shift),
            jump_pos: [B::ZERO; L],
            jump_neg: [B::ZERO; L],
            jumpers: B::ZERO,
            jumps_ready: false,
            locked: if lock == TargetLock::Off {
                B::ZERO
            } else {
                target
            },
            at_home: if no_return { home } else { B::ZERO },
            flights: [locked_flight, home_flight, out_flight],
        }
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
        if self.locked.has(from) {
            &self.flights[0]
        } else if self.at_home.has(from) {
            &self.flights[1]
        } else {
            &self.flights[2]
        }
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

    /// The pieces of each kind (locked in the target, still at home, out) with their flights.
    #[inline]
    fn kinds(&self) -> [(B, &Flight<B>); 3] {
        let locked = self.own & self.locked;
        let at_home = self.own & self.at_home & !self.locked;
        let out = self.own & !(self.locked | self.at_home);
        [
            (locked, &self.flights[0]),
            (at_home, &self.flights[1]),
            (out, &self.flights[2]),
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
        for (pieces, flight) in self.kinds() {
            if !pieces.is_zero() {
                total += self.count_steps(pieces, flight.step);
            }
        }
        for from in (self.own & self.jumpers).iter() {
            total += self.reach(from, self.flight(from)).count();
        }
        u64::from(total)
    }

    /// Destinations of the piece on `from` (which must be the mover's).
    pub fn destinations(&mut self, from: usize) -> B {
        self.prepare_jumps();
        let flight = self.flight(from);
        (self.t.neighbours[from] & flight.step) | self.reach(from, flight)
    }

    /// Whether the side to move has any legal move (steps are checked first: they are cheap
    /// and usually there).
    pub fn has_move(&mut self) -> bool {
        for (pieces, flight) in self.kinds() {
            if pieces.is_zero() {
                continue;
            }
            for line in &self.t.lines[..L] {
                let forward = (pieces & line.step_pos).shl(line.shift);
                let backward = (pieces & line.step_neg).shr(line.shift);
                if !((forward | backward) & flight.step).is_zero() {
                    return true;
                }
            }
        }
        self.prepare_jumps();
        (self.own & self.jumpers)
            .iter()
            .any(|from| !self.reach(from, self.flight(from)).is_zero())
    }

    /// Appends the moves of every piece, each with its representative path: a step where one
    /// exists, else a shortest chain, found backwards from the destination trying directions in
    /// the order N, NE, E, SE, S, SW, W, NW.
    pub fn moves(&mut self, rules: &RaceRules, out: &mut Vec<RaceMove>) {
        self.prepare_jumps();
        out.reserve(64);
        let mut waves = Waves::new();
        for from in self.own.iter() {
            self.piece_moves(rules, from, &mut waves, out);
        }
    }

    /// As [`Self::moves`], for the piece on `from` only.
    pub fn piece_moves(
        &mut self,
        rules: &RaceRules,
        from: usize,
        waves: &mut Waves<B>,
        out: &mut Vec<RaceMove>,
    ) {
        self.prepare_jumps();
        let flight = *self.flight(from);
        let steps = self.t.neighbours[from] & flight.step;
        let reach = self.breadth_first(from, &flight, waves);
        let from_sq = rules.square(from);
        for to in (steps | reach).iter() {
            if steps.has(to) {
                out.push(RaceMove::step(from_sq, rules.square(to)));
            } else if let Some(mv) = self.backtrack(rules, from, to, &flight, waves) {
                out.push(mv);
            }
        }
    }

    /// The same destinations as [`Self::reach`], by waves of equal chain length.
    fn breadth_first(&self, from: usize, flight: &Flight<B>, waves: &mut Waves<B>) -> B {
        waves.len = 0;
        if !self.jumpers.has(from) {
            return B::ZERO;
        }
        let mut visited = B::bit(from);
        let mut wave = visited;
        let mut reached = B::ZERO;
        while waves.len < MAX_WAVES {
            let mut next = B::ZERO;
            // Squares of phase p may land on phases p, p+1, …
            let mut allowed = B::ZERO;
            for p in (0..flight.n).rev() {
                allowed |= flight.phases[p];
                let x = if flight.n == 1 {
                    wave
                } else {
                    wave & flight.phase_squares[p]
                };
                if !x.is_zero() {
                    next |= self.jumps(x) & allowed;
                }
            }
            next &= !visited;
            if next.is_zero() {
                break;
            }
            visited |= next;
            reached |= next;
            wave = next;
            waves.waves[waves.len] = next;
            waves.len += 1;
        }
        reached
    }

    fn backtrack(
        &self,
        rules: &RaceRules,
        from: usize,
        to: usize,
        flight: &Flight<B>,
        waves: &Waves<B>,
    ) -> Option<RaceMove> {
        let level = (0..waves.len).find(|&i| waves.waves[i].has(to))?;
        if level == 0 {
            let d = Dir::between(rules.square(from), rules.square(to), 2)?;
            return Some(RaceMove::chain(rules.square(from), rules.square(to), &[d]));
        }
        let mut dirs = [Dir::ALL[0]; MAX_WAVES];
        let mut cur = rules.square(to);
        for l in (0..=level).rev() {
            let before = if l == 0 {
                B::bit(from)
            } else {
                waves.waves[l - 1]
            };
            let cur_idx = rules.index(cur);
            let (d, prev) = rules.directions().iter().find_map(|d| {
                let (dx, dy) = d.delta();
                let prev = cur
                    .offset(-2 * dx, -2 * dy)
                    .filter(|s| rules.on_board(*s))?;
                let mid = cur.offset(-dx, -dy)?;
                let (p, m) = (rules.index(prev), rules.index(mid));
                (before.has(p) && self.occupied.has(m) && flight.allowed_from(p).has(cur_idx))
                    .then_some((d, prev))
            })?;
            dirs[l] = d;
            cur = prev;
        }
        debug_assert_eq!(rules.index(cur), from);
        Some(RaceMove::chain(cur, rules.square(to), &dirs[..=level]))
    }
}
