//! Move generation with long hops (Super Chinese checkers): a piece hops over a single piece
//! any distance away along a line, the cells before it empty, landing as far beyond it, every
//! cell between the hopped piece and the landing empty. Chains mix long and short hops.
//!
//! Cell by cell over the board, breadth first from each piece (so every chain comes with a
//! shortest path): the set-wise flood of `movegen` relies on every hop being two cells long.
//! The camp rules are those of the flood: the history that decides where a chain may land is a
//! function of the square it stands on (see `movegen`). The moving piece's own square counts as
//! empty while it moves; the chain may pass over it but never land on it.
use std::collections::VecDeque;

use super::{
    bitboard::{Bits, Wide},
    moves::{MAX_LONG_HOPS, RaceMove},
    rules::{RaceRules, TargetLock},
    square::{Dir, Square},
};
use crate::Seat;

/// The farthest a hopped piece can be (half the longest line of a 19-cell side).
const MAX_REACH: i8 = 9;

/// Appends the legal moves of `side`'s pieces (or of the piece on `only`): for each piece in
/// bit order its steps by destination, then its chains, shorter first and by destination.
pub(crate) fn moves(
    rules: &RaceRules,
    own: &Wide,
    occupied: &Wide,
    side: Seat,
    only: Option<usize>,
    out: &mut Vec<RaceMove>,
) {
    let home = rules.homes[side.index()];
    let target = rules.targets[side.index()];
    let rest = rules.rest[side.index()];
    let lock = rules.target_lock();
    let no_return = rules.no_return_home();
    let pieces: Vec<usize> = match only {
        Some(i) => vec![i],
        None => own.iter().collect(),
    };
    for from in pieces {
        let origin = rules.square(from);
        let locked = lock != TargetLock::Off && target.has(from);
        // Where a piece standing on `at` may land next.
        let may_land = |at: usize, to: usize| {
            let in_target = target.has(to);
            if locked && !in_target {
                return false;
            }
            if lock == TargetLock::PerLanding && target.has(at) && !in_target {
                return false;
            }
            !(no_return && !home.has(at) && home.has(to))
        };
        let empty = |i: usize| i == from || !occupied.has(i);
        let cell = |s: Square, dx: i8, dy: i8| {
            s.offset(dx, dy)
                .filter(|&c| rules.on_board(c))
                .map(|c| rules.index(c))
        };
        // Steps.
        let mut steps: Vec<usize> = rules
            .directions()
            .iter()
            .filter_map(|d| {
                let (dx, dy) = d.delta();
                cell(origin, dx, dy)
            })
            .filter(|&to| empty(to) && to != from && may_land(from, to) && rest.has(to))
            .collect();
        steps.sort_unstable();
        out.extend(
            steps
                .into_iter()
                .map(|to| RaceMove::step(origin, rules.square(to))),
        );
        // Chains, breadth first; `how[i]` = (the landing it came from, direction, distance).
        let mut how: Vec<Option<(usize, Dir, u8)>> = vec![None; Wide::CAPACITY];
        let mut depth = vec![0u8; how.len()];
        let mut queue = VecDeque::from([from]);
        let mut reached: Vec<usize> = Vec::new();
        while let Some(at) = queue.pop_front() {
            if usize::from(depth[at]) >= MAX_LONG_HOPS {
                continue;
            }
            let here = rules.square(at);
            for d in rules.directions().iter() {
                let (dx, dy) = d.delta();
                // The first piece along the line, k cells away.
                let mut k = 1;
                let hopped = loop {
                    match cell(here, k * dx, k * dy) {
                        None => break None,
                        Some(c) if !empty(c) => break Some(k),
                        Some(_) if k < MAX_REACH => k += 1,
                        Some(_) => break None,
                    }
                };
                let Some(k) = hopped else { continue };
                // Every cell beyond it up to the landing, 2k away, on the board and empty.
                let landing = (k + 1..=2 * k)
                    .map(|j| cell(here, j * dx, j * dy))
                    .try_fold(None, |_, c| match c {
                        Some(c) if empty(c) => Some(Some(c)),
                        _ => None,
                    })
                    .flatten();
                let Some(to) = landing else { continue };
                if to == from || how[to].is_some() || !may_land(at, to) {
                    continue;
                }
                how[to] = Some((at, d, k as u8));
                depth[to] = depth[at] + 1;
                reached.push(to);
                queue.push_back(to);
            }
        }
        reached.retain(|&to| rest.has(to));
        reached.sort_by_key(|&to| (depth[to], to));
        for to in reached {
            let mut hops = Vec::with_capacity(usize::from(depth[to]));
            let mut at = to;
            while let Some((prev, d, k)) = how[at] {
                hops.push((d, k));
                at = prev;
            }
            hops.reverse();
            out.push(RaceMove::long_chain(origin, rules.square(to), &hops));
        }
    }
}
