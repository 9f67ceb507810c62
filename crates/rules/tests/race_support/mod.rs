//! Shared helpers for the race-family tests, and an independent reference move generator.
//!
//! The reference is deliberately naive: a board of `Option<Seat>` cells, a recursive
//! depth-first search over jump paths that tracks the camp rules' state (left home? entered the
//! target?) explicitly along each path, and the end rules written out in the order of rules.md
//! A-U9. It shares nothing with the engine but the validated rule fields.
#![allow(dead_code)]

use std::{collections::BTreeSet, sync::Arc};

use boardcraft_rules::{
    EndReason, FamilyRules, Outcome, Position, Seat,
    position::play_line,
    race::{NoLegalMove, RacePosition, RaceRules, Square, TargetLock, WinRule},
    shipped_variant,
};

pub fn rules(name: &str) -> Arc<RaceRules> {
    match shipped_variant(name)
        .unwrap_or_else(|e| panic!("{e}"))
        .rules
    {
        FamilyRules::Race(r) => r,
        other => panic!("{name} is a {} variant", other.family_name()),
    }
}

pub fn start(name: &str) -> RacePosition {
    RacePosition::new(rules(name))
}

/// The position after a line of moves in notation (move numbers allowed).
pub fn after(name: &str, line: &str) -> RacePosition {
    let mut pos = start(name);
    play_line(&mut pos, line).unwrap_or_else(|e| panic!("{line}: {e}"));
    pos
}

pub fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

pub fn squares(names: &str) -> Vec<Square> {
    names.split_whitespace().map(sq).collect()
}

/// The legal moves in notation, sorted.
pub fn move_names(pos: &RacePosition) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut names: Vec<String> = moves.iter().map(|m| pos.format_move(m)).collect();
    names.sort();
    names
}

pub fn sorted(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(str::to_owned).collect();
    v.sort();
    v
}

/// A hand-made position (see `RacePosition::from_board`).
pub fn board(name: &str, white: &str, black: &str, side: Seat, ply: u32) -> RacePosition {
    RacePosition::from_board(rules(name), &squares(white), &squares(black), side, ply)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The reference game state.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefGame {
    pub w: i32,
    pub h: i32,
    pub cells: Vec<Option<Seat>>,
    pub side: Seat,
    pub ply: u32,
    /// Every (cells, side) since the start of the reference game, current last.
    pub history: Vec<(Vec<Option<Seat>>, Seat)>,
}

impl RefGame {
    pub fn from_position(pos: &RacePosition) -> RefGame {
        let r = pos.rules();
        let (w, h) = (i32::from(r.width()), i32::from(r.height()));
        let mut cells = vec![None; (w * h) as usize];
        for c in Seat::BOTH {
            for s in pos.pieces(c) {
                cells[(i32::from(s.rank()) * w + i32::from(s.file())) as usize] = Some(c);
            }
        }
        let side = pos.side_to_move();
        RefGame {
            w,
            h,
            history: vec![(cells.clone(), side)],
            cells,
            side,
            ply: pos.ply(),
        }
    }

    fn at(&self, x: i32, y: i32) -> Option<usize> {
        (x >= 0 && y >= 0 && x < self.w && y < self.h).then(|| (y * self.w + x) as usize)
    }

    pub fn square(&self, i: usize) -> Square {
        Square::new((i as i32 % self.w) as u8, (i as i32 / self.w) as u8).unwrap()
    }

    fn in_camp(&self, r: &RaceRules, owner: Seat, i: usize) -> bool {
        r.camp(owner).contains(&self.square(i))
    }

    /// All legal `(from, to)` of the side to move, ignoring whether the game is over.
    pub fn raw_moves(&self, r: &RaceRules) -> BTreeSet<(Square, Square)> {
        let dirs: Vec<(i32, i32)> = r
            .directions()
            .iter()
            .map(|d| (i32::from(d.delta().0), i32::from(d.delta().1)))
            .collect();
        let mut out = BTreeSet::new();
        for from in 0..self.cells.len() {
            if self.cells[from] != Some(self.side) {
                continue;
            }
            let home = |i: usize| self.in_camp(r, self.side, i);
            let target = |i: usize| self.in_camp(r, self.side.other(), i);
            let started_in_target = r.target_lock() != TargetLock::Off && target(from);
            // May the piece land on `to`, given where it has been?
            let may_land = |to: usize, left_home: bool, entered_target: bool| {
                !(started_in_target && !target(to)
                    || r.target_lock() == TargetLock::PerLanding && entered_target && !target(to)
                    || r.no_return_home() && left_home && home(to))
            };
            let (fx, fy) = (from as i32 % self.w, from as i32 / self.w);
            for &(dx, dy) in &dirs {
                if let Some(to) = self.at(fx + dx, fy + dy)
                    && self.cells[to].is_none()
                    && may_land(to, !home(from), target(from))
                {
                    out.insert((self.square(from), self.square(to)));
                }
            }
            // The moving piece is lifted for the whole chain.
            let mut cells = self.cells.clone();
            cells[from] = None;
            let mut stack = vec![(from, !home(from), target(from), vec![from])];
            while let Some((cur, left, entered, path)) = stack.pop() {
                let (cx, cy) = (cur as i32 % self.w, cur as i32 / self.w);
                for &(dx, dy) in &dirs {
                    let (Some(mid), Some(to)) =
                        (self.at(cx + dx, cy + dy), self.at(cx + 2 * dx, cy + 2 * dy))
                    else {
                        continue;
                    };
                    if cells[mid].is_none() || cells[to].is_some() || path.contains(&to) {
                        continue;
                    }
                    if !may_land(to, left, entered) {
                        continue;
                    }
                    out.insert((self.square(from), self.square(to)));
                    let mut p = path.clone();
                    p.push(to);
                    stack.push((to, left || !home(to), entered || target(to), p));
                }
            }
        }
        out
    }

    fn finished(&self, r: &RaceRules, side: Seat) -> bool {
        let target: Vec<usize> = (0..self.cells.len())
            .filter(|&i| self.in_camp(r, side.other(), i))
            .collect();
        match r.win() {
            WinRule::FillWithOwn => target.iter().all(|&i| self.cells[i] == Some(side)),
            WinRule::FullWithAnyOwn => {
                target.iter().all(|&i| self.cells[i].is_some())
                    && target.iter().any(|&i| self.cells[i] == Some(side))
            }
        }
    }

    fn reason(&self, r: &RaceRules, side: Seat) -> EndReason {
        let all_own = (0..self.cells.len())
            .filter(|&i| self.in_camp(r, side.other(), i))
            .all(|i| self.cells[i] == Some(side));
        if all_own {
            EndReason::TargetFilled
        } else {
            EndReason::TargetBlockedButReached
        }
    }

    fn count_in_target(&self, r: &RaceRules, side: Seat) -> u8 {
        (0..self.cells.len())
            .filter(|&i| self.cells[i] == Some(side) && self.in_camp(r, side.other(), i))
            .count() as u8
    }

    /// The end rules after the last ply, in the order of A-U9.
    pub fn outcome(&self, r: &RaceRules) -> Option<Outcome> {
        let mover = self.side.other();
        let mut reply_owed = false;
        if r.equalising_reply() {
            let first = r.first_player();
            let second = first.other();
            if mover == second && self.finished(r, first) {
                return Some(if self.finished(r, second) {
                    Outcome::draw(EndReason::BothFinished)
                } else {
                    Outcome::win(first, self.reason(r, first))
                });
            }
            if self.finished(r, second) {
                return Some(Outcome::win(second, self.reason(r, second)));
            }
            reply_owed = mover == first && self.finished(r, first);
        } else {
            for side in [mover, mover.other()] {
                if self.finished(r, side) {
                    return Some(Outcome::win(side, self.reason(r, side)));
                }
            }
        }
        if !reply_owed {
            if r.home_clear_ply() == Some(self.ply) {
                let at_home = |c: Seat| {
                    (0..self.cells.len()).any(|i| self.cells[i] == Some(c) && self.in_camp(r, c, i))
                };
                match (at_home(Seat::WHITE), at_home(Seat::BLACK)) {
                    (true, true) => return Some(Outcome::draw(EndReason::HomeNotVacated)),
                    (true, false) => {
                        return Some(Outcome::win(Seat::BLACK, EndReason::HomeNotVacated));
                    }
                    (false, true) => {
                        return Some(Outcome::win(Seat::WHITE, EndReason::HomeNotVacated));
                    }
                    (false, false) => {}
                }
            }
            if r.count_ply().is_some_and(|c| self.ply >= c) {
                let (white, black) = (
                    self.count_in_target(r, Seat::WHITE),
                    self.count_in_target(r, Seat::BLACK),
                );
                let reason = EndReason::PieceCount { white, black };
                return Some(if white > black {
                    Outcome::win(Seat::WHITE, reason)
                } else if black > white {
                    Outcome::win(Seat::BLACK, reason)
                } else {
                    Outcome::draw(reason)
                });
            }
        }
        if self.raw_moves(r).is_empty() {
            return Some(match r.no_legal_move() {
                NoLegalMove::Loses => Outcome::win(mover, EndReason::NoLegalMoves),
                NoLegalMove::Draw => Outcome::draw(EndReason::NoLegalMoves),
                // The shipped two-seat variants do not pass; a pass with nobody able to move ends it.
                NoLegalMove::Pass => Outcome::draw(EndReason::NoLegalMoves),
            });
        }
        if reply_owed {
            return None;
        }
        let now = (self.cells.clone(), self.side);
        if r.repetition_draw()
            .is_some_and(|n| self.history.iter().filter(|h| **h == now).count() >= usize::from(n))
        {
            return Some(Outcome::draw(EndReason::Repetition));
        }
        if r.ply_cap().is_some_and(|cap| self.ply >= cap) {
            return Some(Outcome::draw(EndReason::PlyCap));
        }
        None
    }

    pub fn play(&mut self, from: Square, to: Square) {
        let f = (i32::from(from.rank()) * self.w + i32::from(from.file())) as usize;
        let t = (i32::from(to.rank()) * self.w + i32::from(to.file())) as usize;
        self.cells[t] = self.cells[f].take();
        self.side = self.side.other();
        self.ply += 1;
        self.history.push((self.cells.clone(), self.side));
    }
}

/// Reference perft: `outcome` is the reference's verdict on the current position.
pub fn ref_perft(r: &RaceRules, g: &RefGame, outcome: Option<Outcome>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if outcome.is_some() {
        return 0;
    }
    let moves = g.raw_moves(r);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|(f, t)| {
            let mut next = g.clone();
            next.play(f, t);
            let o = next.outcome(r);
            ref_perft(r, &next, o, depth - 1)
        })
        .sum()
}

/// Reference perft with no end rules at all (the bare move tree).
pub fn ref_perft_without_end_rules(r: &RaceRules, g: &RefGame, depth: u32) -> u64 {
    let moves = g.raw_moves(r);
    if depth <= 1 {
        return if depth == 0 { 1 } else { moves.len() as u64 };
    }
    moves
        .into_iter()
        .map(|(f, t)| {
            let mut next = g.clone();
            next.play(f, t);
            ref_perft_without_end_rules(r, &next, depth - 1)
        })
        .sum()
}

/// The engine's moves as `(from, to)` pairs.
pub fn engine_pairs(pos: &RacePosition) -> BTreeSet<(Square, Square)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.iter().map(|m| (m.from(), m.to())).collect()
}
