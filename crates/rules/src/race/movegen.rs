//! Move generation by set-wise flood fill.
//!
//! For the side to move, one pass over the board finds, per line direction, the squares from
//! which a jump is possible (a piece next door, an empty square beyond). A piece's jump
//! destinations are then a breadth-first flood over bit sets: each wave is the previous wave
//! shifted two squares along every line it can jump along, restricted to the squares the camp
//! rules allow, minus squares already reached. Counting moves is a popcount per piece; listing
//! them backtracks through the waves for one shortest path per destination.
//!
//! Camp rules make some landings depend on where the chain has been. In every rule set here that
//! history is a function of the current square (a piece that may still land at home has never
//! left it; a piece on a target square under a per-landing lock has entered it), so each wave is
//! split by the class of its squares, and each class has its own allowed landings.
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

/// What the side to move can do in one position: jump sources per line and allowed landings.
pub(crate) struct Node<'a, B> {
    t: &'a Tables<B>,
    occupied: B,
    own: B,
    home: B,
    target: B,
    /// Squares that can jump along line `i` in the positive / negative direction.
    jump_pos: [B; 4],
    jump_neg: [B; 4],
    jumps_ready: bool,
    /// Allowed landings: any empty square; empty target squares; empty squares for a piece that
    /// has left home (home excluded when returning is forbidden).
    any: B,
    in_target: B,
    away: B,
    lock: TargetLock,
    no_return: bool,
}

/// The landing rules for one piece: where it may step, and per class of square where a jump
/// from that class may land.
pub(crate) struct Flight<B> {
    step: B,
    classes: [(B, B); 3],
    n: usize,
}

impl<B: Bits> Flight<B> {
    #[inline]
    fn allowed_from(&self, square: usize) -> B {
        if self.n == 1 {
            return self.classes[0].1;
        }
        for (class, allowed) in &self.classes[..self.n] {
            if class.has(square) {
                return *allowed;
            }
        }
        B::ZERO
    }
}

/// The waves of one flood fill, kept when paths are wanted.
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

impl<'a, B: Bits> Node<'a, B> {
    #[inline]
    pub fn new(t: &'a Tables<B>, rules: &RaceRules, pieces: &[Wide; 2], side: Color) -> Self {
        let own = B::from_wide(&pieces[side.index()]);
        let occupied = own | B::from_wide(&pieces[side.other().index()]);
        let empty = t.board & !occupied;
        let home = t.camps[side.index()];
        let target = t.camps[side.other().index()];
        let no_return = rules.no_return_home();
        Node {
            t,
            occupied,
            own,
            home,
            target,
            jump_pos: [B::ZERO; 4],
            jump_neg: [B::ZERO; 4],
            jumps_ready: false,
            any: empty,
            in_target: empty & target,
            away: if no_return { empty & !home } else { empty },
            lock: rules.target_lock(),
            no_return,
        }
    }

    #[inline]
    fn prepare_jumps(&mut self) {
        if self.jumps_ready {
            return;
        }
        let empty = self.any;
        for (i, line) in self.t.lines.iter().enumerate() {
            let k = line.shift;
            self.jump_pos[i] = line.jump_pos & self.occupied.shr(k) & empty.shr(2 * k);
            self.jump_neg[i] = line.jump_neg & self.occupied.shl(k) & empty.shl(2 * k);
        }
        self.jumps_ready = true;
    }

    #[inline]
    pub fn own(&self) -> B {
        self.own
    }

    #[inline]
    pub fn flight(&self, from: usize) -> Flight<B> {
        let all = !B::ZERO;
        if self.lock != TargetLock::Off && self.target.has(from) {
            return Flight {
                step: self.in_target,
                classes: [(all, self.in_target); 3],
                n: 1,
            };
        }
        let at_home = self.no_return && self.home.has(from);
        let mut f = Flight {
            step: if at_home { self.any } else { self.away },
            classes: [(all, self.away); 3],
            n: 0,
        };
        let mut rest = all;
        if at_home {
            f.classes[f.n] = (self.home, self.any);
            f.n += 1;
            rest = rest & !self.home;
        }
        if self.lock == TargetLock::PerLanding {
            f.classes[f.n] = (self.target, self.in_target);
            f.n += 1;
            rest = rest & !self.target;
        }
        f.classes[f.n] = (if f.n == 0 { all } else { rest }, self.away);
        f.n += 1;
        f
    }

    /// Squares reached by one jump from the squares in `x`.
    #[inline]
    fn jumps(&self, x: B) -> B {
        let mut r = B::ZERO;
        for (i, line) in self.t.lines.iter().enumerate() {
            let k2 = 2 * line.shift;
            r |= (x & self.jump_pos[i]).shl(k2) | (x & self.jump_neg[i]).shr(k2);
        }
        r
    }

    /// As [`Self::jumps`], for a wave next to the moving piece's origin: the piece has left it,
    /// so nothing can jump over it.
    #[cold]
    fn jumps_around(&self, x: B, origin: usize) -> B {
        let mut r = B::ZERO;
        for (i, line) in self.t.lines.iter().enumerate() {
            let k = line.shift as usize;
            let mut pos = self.jump_pos[i];
            let mut neg = self.jump_neg[i];
            if origin >= k {
                pos &= !B::bit(origin - k);
            }
            if origin + k < B::CAPACITY {
                neg &= !B::bit(origin + k);
            }
            let k2 = 2 * line.shift;
            r |= (x & pos).shl(k2) | (x & neg).shr(k2);
        }
        r
    }

    /// Every square the piece on `from` can end a jump chain on.
    #[inline]
    pub fn reach(&mut self, from: usize, flight: &Flight<B>, mut waves: Option<&mut Waves<B>>) -> B {
        self.prepare_jumps();
        let ring = self.t.neighbours[from];
        let mut visited = B::bit(from);
        let mut wave = visited;
        let mut reach = B::ZERO;
        loop {
            let near_origin = !(wave & ring).is_zero();
            let mut next = B::ZERO;
            for (class, allowed) in &flight.classes[..flight.n] {
                let x = if flight.n == 1 { wave } else { wave & *class };
                if x.is_zero() {
                    continue;
                }
                let j = if near_origin {
                    self.jumps_around(x, from)
                } else {
                    self.jumps(x)
                };
                next |= j & *allowed;
            }
            next &= !visited;
            if next.is_zero() {
                return reach;
            }
            visited |= next;
            reach |= next;
            wave = next;
            if let Some(w) = waves.as_deref_mut()
                && w.len < MAX_WAVES
            {
                w.waves[w.len] = next;
                w.len += 1;
            }
        }
    }

    #[inline]
    pub fn steps(&self, from: usize, flight: &Flight<B>) -> B {
        self.t.neighbours[from] & flight.step
    }

    /// The number of legal moves (distinct destinations per piece).
    #[inline]
    pub fn count(&mut self) -> u64 {
        self.prepare_jumps();
        let mut total = 0u64;
        for from in self.own.iter() {
            let flight = self.flight(from);
            let dest = self.steps(from, &flight) | self.reach(from, &flight, None);
            total += u64::from(dest.count());
        }
        total
    }

    /// Destinations of the piece on `from` (which must be the mover's).
    pub fn destinations(&mut self, from: usize) -> B {
        let flight = self.flight(from);
        self.steps(from, &flight) | self.reach(from, &flight, None)
    }

    pub fn has_move(&mut self) -> bool {
        for from in self.own.iter() {
            let flight = self.flight(from);
            if !self.steps(from, &flight).is_zero() {
                return true;
            }
        }
        for from in self.own.iter() {
            let flight = self.flight(from);
            if !self.reach(from, &flight, None).is_zero() {
                return true;
            }
        }
        false
    }

    /// Appends the moves of the piece on `from`, each with its representative path: a step
    /// where one exists, else a shortest chain, ties broken by the direction order N, NE, E, SE,
    /// S, SW, W, NW (checked backwards from the destination).
    pub fn piece_moves(&mut self, rules: &RaceRules, from: usize, out: &mut Vec<RaceMove>) {
        let flight = self.flight(from);
        let steps = self.steps(from, &flight);
        let mut waves = Waves::new();
        let reach = self.reach(from, &flight, Some(&mut waves));
        let from_sq = rules.square(from);
        for to in (steps | reach).iter() {
            let to_sq = rules.square(to);
            if steps.has(to) {
                out.push(RaceMove::step(from_sq, to_sq));
            } else if let Some(mv) = self.backtrack(rules, from, to, &flight, &waves) {
                out.push(mv);
            }
        }
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
                let prev = cur.offset(-2 * dx, -2 * dy).filter(|s| rules.on_board(*s))?;
                let mid = cur.offset(-dx, -dy)?;
                let (p, m) = (rules.index(prev), rules.index(mid));
                (before.has(p)
                    && m != from
                    && self.occupied.has(m)
                    && flight.allowed_from(p).has(cur_idx))
                .then_some((d, prev))
            })?;
            dirs[l] = d;
            cur = prev;
        }
        debug_assert_eq!(rules.index(cur), from);
        Some(RaceMove::chain(cur, rules.square(to), &dirs[..=level]))
    }
}
