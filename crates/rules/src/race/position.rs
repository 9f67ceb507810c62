//! [`RacePosition`]: the board, whose turn it is, the repetition history and the cached outcome.
use std::{fmt, sync::Arc};

use super::{
    bitboard::{Bits, Wide},
    error::SetupError,
    long_hops,
    movegen::{self, with_node},
    moves::{RaceEffect, RaceMove},
    rules::{EndRule, NoLegalMove, RaceRules, TargetLock, WinRule},
    square::Square,
};
use crate::{
    EndReason, IllegalMove, NamedSeat, NotationError, OutOfTurn, Outcome, Places, Position, Seat,
};

const fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Zobrist keys per seat and bit index, fixed at compile time (seats 0 and 1 keep the keys they
/// had when the engine knew two sides).
static PIECE_KEYS: [[u64; 256]; Seat::MAX] = {
    let mut keys = [[0; 256]; Seat::MAX];
    let mut i = 0;
    while i < 256 * Seat::MAX {
        keys[i / 256][i % 256] = splitmix64(0x5241_4345_0000_0000 ^ i as u64);
        i += 1;
    }
    keys
};
/// The key of the seat to move; seat 0's is 0 and seat 1's the former "Black to move" key.
static SIDE_KEYS: [u64; Seat::MAX] = {
    let mut keys = [0; Seat::MAX];
    keys[1] = splitmix64(0x5241_4345_ffff_ffff);
    let mut i = 2;
    while i < Seat::MAX {
        keys[i] = splitmix64(0x5241_4345_ffff_ff00 ^ i as u64);
        i += 1;
    }
    keys
};

/// The key of a seat that has finished or is out (its turns are skipped from then on, which
/// the board alone does not always tell).
static DONE_KEYS: [u64; Seat::MAX] = {
    let mut keys = [0; Seat::MAX];
    let mut i = 0;
    while i < Seat::MAX {
        keys[i] = splitmix64(0x444f_4e45_0000_0000 ^ i as u64);
        i += 1;
    }
    keys
};

/// Who has finished, in which order, and who is out (lost by having no legal move): the turns
/// of both are skipped.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Finishers {
    /// Bit per seat.
    done: u8,
    count: u8,
    order: [u8; Seat::MAX],
    /// Bit per seat that is out, and the order they went out in.
    out: u8,
    out_count: u8,
    out_order: [u8; Seat::MAX],
    /// The hash keys of every seat finished or out, kept as they are added.
    key: u64,
}

impl Finishers {
    fn has(&self, seat: Seat) -> bool {
        self.done >> seat.index() & 1 == 1
    }
    /// Neither finished nor out.
    fn plays(&self, seat: Seat) -> bool {
        (self.done | self.out) >> seat.index() & 1 == 0
    }
    fn put_out(&mut self, seat: Seat) {
        self.key ^= DONE_KEYS[seat.index()];
        self.out |= 1 << seat.index();
        self.out_order[usize::from(self.out_count)] = seat.index() as u8;
        self.out_count += 1;
    }
    fn add(&mut self, seat: Seat) {
        self.key ^= DONE_KEYS[seat.index()];
        self.done |= 1 << seat.index();
        self.order[usize::from(self.count)] = seat.index() as u8;
        self.count += 1;
    }
    fn order(&self) -> Vec<Seat> {
        self.order[..usize::from(self.count)]
            .iter()
            .map(|&i| Seat::at(usize::from(i)))
            .collect()
    }
    fn out_order(&self) -> Vec<Seat> {
        self.out_order[..usize::from(self.out_count)]
            .iter()
            .map(|&i| Seat::at(usize::from(i)))
            .collect()
    }
    /// The hash keys of every seat finished or out.
    fn key(&self) -> u64 {
        self.key
    }
}

/// A position of a jump-chain race game (Ugolki, Halma, Chinese checkers and mods).
#[derive(Clone)]
pub struct RacePosition {
    rules: Arc<RaceRules>,
    /// Pieces per seat, as bit indices (see the rules' layout); only the table's seats are used.
    pieces: [Wide; Seat::MAX],
    /// Every seat's pieces together.
    occupied: Wide,
    /// All pieces with their bit indices arranged by parity class (see the rules'
    /// `class_bit`), kept up to date so the class floods need not rearrange the board for every
    /// list; empty on the boards the generator does not flood by class.
    classes: Wide,
    side: Seat,
    ply: u32,
    hash: u64,
    /// Hash of every position since the start (or construction), the current one last.
    history: Vec<u64>,
    /// Index into `history` of the first position after the last irreversible move: earlier
    /// positions cannot recur, so repetition checks stop there.
    fresh: u32,
    outcome: Option<Outcome>,
    finishers: Finishers,
    /// Per seat: how many of its own pieces stand in its target, and how many pieces of any
    /// seat do, kept up to date so the finish rules cost nothing per ply.
    own_in_target: [u8; Seat::MAX],
    all_in_target: [u8; Seat::MAX],
}

/// Where the home-clear rule stands (see [`RacePosition::home_deadline`]; two-seat games).
/// Per-side arrays are indexed by [`Seat::index`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HomeDeadline {
    /// The ply after which the rule is checked (the variant's `home_clear_ply`; 80 = after
    /// each side's 40th move).
    pub check_ply: u32,
    /// Plies still to be played before the check.
    pub plies_left: u32,
    /// Turns each side still has before the check.
    pub turns_left: [u32; 2],
    /// Each side's pieces still on its own home squares: if any remain after the check ply,
    /// that side loses (both: a draw).
    pub at_home: [Vec<Square>; 2],
}

/// What [`RacePosition::undo`] needs besides the move.
#[derive(Copy, Clone, Debug)]
pub struct RaceUndo {
    outcome: Option<Outcome>,
    fresh: u32,
    side: Seat,
    finishers: Finishers,
}

impl RacePosition {
    /// The start position: every seat's home holds its pieces.
    pub fn new(rules: Arc<RaceRules>) -> Self {
        let mut pieces = [Wide::EMPTY; Seat::MAX];
        pieces[..rules.seat_count()].copy_from_slice(&rules.homes);
        let side = rules.first_player();
        Self::assemble(rules, pieces, side, 0, None)
    }

    /// A hand-made two-seat position for tests and puzzles (see [`Self::from_seats`]).
    #[doc(hidden)]
    pub fn from_board(
        rules: Arc<RaceRules>,
        white: &[Square],
        black: &[Square],
        side_to_move: Seat,
        ply: u32,
    ) -> Result<Self, SetupError> {
        Self::from_seats(rules, &[white.to_vec(), black.to_vec()], side_to_move, ply)
    }

    /// A hand-made position: each seat's squares, the seat to move and the ply count. With two
    /// seats that never pass, the ply's parity must agree with the side to move. Seats whose finish rule holds on
    /// this board count as finished, in seat order; the position is judged as if reached by a
    /// ply (so a finished game reports its outcome); its repetition history starts here.
    #[doc(hidden)]
    pub fn from_seats(
        rules: Arc<RaceRules>,
        seats: &[Vec<Square>],
        side_to_move: Seat,
        ply: u32,
    ) -> Result<Self, SetupError> {
        Self::from_seats_finished(rules, seats, side_to_move, ply, None)
    }

    /// As [`Self::from_seats`], with the seats that have finished in the order they finished
    /// and those that are out in the order they went out (`None`: the seats whose finish rule
    /// holds on this board, in seat order, and none out).
    #[doc(hidden)]
    pub fn from_seats_finished(
        rules: Arc<RaceRules>,
        seats: &[Vec<Square>],
        side_to_move: Seat,
        ply: u32,
        finished: Option<(&[Seat], &[Seat])>,
    ) -> Result<Self, SetupError> {
        let n = rules.seat_count();
        if let Some((f, o)) = finished {
            // A seat that is done moves no more, unless every seat is done (the game is over
            // and the turn simply went on).
            let everyone_done = f.len() + o.len() >= n;
            if !everyone_done && (f.contains(&side_to_move) || o.contains(&side_to_move)) {
                return Err(SetupError::DoneSeatToMove {
                    seat: NamedSeat::new(side_to_move, rules.seat_name(side_to_move)),
                });
            }
            if f.iter().chain(o).any(|s| s.index() >= n) || f.iter().any(|s| o.contains(s)) {
                return Err(SetupError::BadFinishers);
            }
        }
        if seats.len() != n {
            return Err(SetupError::SeatCount {
                seats: n,
                given: seats.len(),
            });
        }
        if side_to_move.index() >= n {
            return Err(SetupError::NoSuchSeat {
                seat: side_to_move,
                seats: n,
            });
        }
        let mut pieces = [Wide::EMPTY; Seat::MAX];
        let mut occupied = Wide::EMPTY;
        for (seat, squares) in seats.iter().enumerate() {
            for &s in squares {
                if !rules.on_board(s) {
                    return Err(if rules.is_rectangular() {
                        SetupError::OffBoardOf {
                            square: s,
                            width: rules.width(),
                            height: rules.height(),
                        }
                    } else {
                        SetupError::NotACell { square: s }
                    });
                }
                let i = rules.index(s);
                if occupied.has(i) {
                    return Err(SetupError::GivenTwice { square: s });
                }
                occupied.set(i);
                pieces[seat].set(i);
            }
        }
        let first = rules.first_player();
        let pos = Self::assemble(rules, pieces, side_to_move, ply, finished);
        // Two seats alternate, unless a seat without a move passes or a finished seat's turn
        // is skipped (9qum's equalising reply).
        let alternates = n == 2
            && pos.rules.no_legal_move() != NoLegalMove::Pass
            && pos.finishers.count == 0
            && pos.finishers.out_count == 0;
        let expected = if ply.is_multiple_of(2) {
            first
        } else {
            first.other()
        };
        if alternates && side_to_move != expected {
            return Err(SetupError::WrongTurn {
                ply,
                expected,
                first,
            });
        }
        Ok(pos)
    }

    fn assemble(
        rules: Arc<RaceRules>,
        pieces: [Wide; Seat::MAX],
        side: Seat,
        ply: u32,
        finished: Option<(&[Seat], &[Seat])>,
    ) -> Self {
        let mut hash = SIDE_KEYS[side.index()];
        let mut occupied = Wide::EMPTY;
        for c in rules.seats() {
            for i in pieces[c.index()].iter() {
                hash ^= PIECE_KEYS[c.index()][i];
            }
            occupied |= pieces[c.index()];
        }
        let classes = if rules.class_floods() {
            rules.split_classes(&occupied)
        } else {
            Wide::EMPTY
        };
        let mut pos = RacePosition {
            rules,
            pieces,
            occupied,
            classes,
            side,
            ply,
            hash,
            history: vec![hash],
            fresh: 0,
            outcome: None,
            finishers: Finishers::default(),
            own_in_target: [0; Seat::MAX],
            all_in_target: [0; Seat::MAX],
        };
        for c in pos.rules.seats() {
            let target = pos.rules.targets[c.index()];
            pos.own_in_target[c.index()] = (pos.pieces[c.index()] & target).count().min(255) as u8;
            pos.all_in_target[c.index()] = (occupied & target).count().min(255) as u8;
        }
        // Seats already finished: as given, or those finished on this board in seat order.
        match finished {
            Some((order, out)) => {
                order.iter().for_each(|&c| pos.finishers.add(c));
                out.iter().for_each(|&c| pos.finishers.put_out(c));
            }
            None => {
                for c in pos.rules.seats() {
                    if pos.finished(c) {
                        pos.finishers.add(c);
                    }
                }
            }
        }
        // Judged as if reached by a ply of the seat before: a seat to move that cannot move
        // passes or goes out as the rules say.
        let mover = pos.previous_seat(side);
        let (mut went_out, mut stuck) = (false, false);
        if pos.rules.no_legal_move() != NoLegalMove::Draw && !pos.can_move(side) {
            let out = pos.finishers.out_count;
            let next = pos.next_seat(mover);
            went_out = pos.finishers.out_count > out;
            stuck = next.is_none();
            pos.side = next.unwrap_or(side);
            pos.hash ^= SIDE_KEYS[side.index()] ^ SIDE_KEYS[pos.side.index()];
        }
        pos.hash ^= pos.finishers.key();
        pos.history = vec![pos.hash];
        pos.outcome = pos.judge(mover, went_out, stuck);
        pos
    }

    pub fn rules(&self) -> &Arc<RaceRules> {
        &self.rules
    }

    /// The piece on `s`, if any.
    pub fn piece_at(&self, s: Square) -> Option<Seat> {
        if !self.rules.on_board(s) {
            return None;
        }
        let i = self.rules.index(s);
        if !self.occupied.has(i) {
            return None;
        }
        self.rules.seats().find(|c| self.pieces[c.index()].has(i))
    }

    /// The squares of `side`'s pieces, in bit order (rank by rank from the bottom).
    pub fn pieces(&self, side: Seat) -> Vec<Square> {
        self.piece_squares(side).collect()
    }

    /// `side`'s pieces as a set of cell indices (see [`RaceRules::cell_index`]).
    pub fn piece_set(&self, side: Seat) -> Wide {
        self.pieces[side.index()]
    }

    /// The squares of `side`'s pieces, in bit order, without allocating (for evaluation).
    pub fn piece_squares(&self, side: Seat) -> impl Iterator<Item = Square> + '_ {
        self.pieces[side.index()]
            .iter()
            .map(|i| self.rules.square(i))
    }

    /// How many of `side`'s pieces stand in its target camp.
    pub fn pieces_in_target(&self, side: Seat) -> u32 {
        u32::from(self.own_in_target[side.index()])
    }

    /// Whether `side` has finished (its turns are skipped while the others play on).
    pub fn has_finished(&self, side: Seat) -> bool {
        self.finishers.has(side)
    }

    /// The seats that have finished, first finisher first.
    pub fn finish_order(&self) -> Vec<Seat> {
        self.finishers.order()
    }

    /// The seats that are out (had no legal move under `no_legal_move: Loses`), first out
    /// first.
    pub fn out_order(&self) -> Vec<Seat> {
        self.finishers.out_order()
    }

    /// How many of `side`'s pieces stand on its own home (start) squares.
    pub fn count_at_home(&self, side: Seat) -> u32 {
        (self.pieces[side.index()] & self.rules.homes[side.index()]).count()
    }

    /// The pieces of `side` standing on its own home (start) squares.
    pub fn pieces_at_home(&self, side: Seat) -> Vec<Square> {
        (self.pieces[side.index()] & self.rules.homes[side.index()])
            .iter()
            .map(|i| self.rules.square(i))
            .collect()
    }

    /// The home-clear rule (9qum's 40-move rule, `home_clear_ply`, two seats) as it stands
    /// before its check: how many turns each side has left and which of its pieces are still at
    /// home. `None` when the variant has no such rule or the check is already behind (or is
    /// this very position, which the rule has judged).
    pub fn home_deadline(&self) -> Option<HomeDeadline> {
        let check_ply = self.rules.home_clear_ply()?;
        if self.ply >= check_ply || self.outcome.is_some() {
            return None;
        }
        let plies_left = check_ply - self.ply;
        // Sides alternate from the side to move: it plays the 1st, 3rd … of the plies left.
        let mut turns_left = [0; 2];
        turns_left[self.side.index()] = plies_left.div_ceil(2);
        turns_left[self.side.other().index()] = plies_left / 2;
        Some(HomeDeadline {
            check_ply,
            plies_left,
            turns_left,
            at_home: [
                self.pieces_at_home(Seat::WHITE),
                self.pieces_at_home(Seat::BLACK),
            ],
        })
    }

    /// The legal destinations of the piece on `from` (empty unless it is the mover's).
    pub fn destinations(&self, from: Square) -> Vec<Square> {
        if self.outcome.is_some() || self.piece_at(from) != Some(self.side) {
            return Vec::new();
        }
        if self.rules.long_hops() {
            return self.piece_moves(from).iter().map(|m| m.to()).collect();
        }
        let i = self.rules.index(from);
        let own = &self.pieces[self.side.index()];
        let dests: Vec<usize> = with_node!(&self.rules, own, &self.occupied, self.side, node => {
            node.destinations(i).iter().collect()
        });
        dests.into_iter().map(|i| self.rules.square(i)).collect()
    }

    /// The legal moves of the piece on `from`, with their representative paths.
    pub(crate) fn piece_moves(&self, from: Square) -> Vec<RaceMove> {
        let mut out = Vec::new();
        if self.outcome.is_some() || self.piece_at(from) != Some(self.side) {
            return out;
        }
        let i = self.rules.index(from);
        let own = &self.pieces[self.side.index()];
        if self.rules.long_hops() {
            long_hops::moves(
                &self.rules,
                own,
                &self.occupied,
                self.side,
                Some(i),
                &mut out,
            );
            return out;
        }
        with_node!(&self.rules, own, &self.occupied, self.side, node => {
            node.piece_moves(i, &mut out);
        });
        out
    }

    /// The legal move `from → to` with its representative path.
    pub(crate) fn representative(&self, from: Square, to: Square) -> Option<RaceMove> {
        self.piece_moves(from).into_iter().find(|m| m.to() == to)
    }

    fn can_move(&self, side: Seat) -> bool {
        let own = &self.pieces[side.index()];
        if self.rules.long_hops() {
            let mut out = Vec::new();
            long_hops::moves(&self.rules, own, &self.occupied, side, None, &mut out);
            return !out.is_empty();
        }
        movegen::can_step(&self.rules, own, &self.occupied, side)
            || with_node!(&self.rules, own, &self.occupied, side, node => node.has_move())
    }

    /// `side` has met its finish rule on the current board.
    #[inline]
    fn finished(&self, side: Seat) -> bool {
        let size = self.rules.pieces_per_side();
        let own = usize::from(self.own_in_target[side.index()]);
        match self.rules.win() {
            WinRule::FillWithOwn => own == size,
            WinRule::FullWithAnyOwn => {
                own > 0 && usize::from(self.all_in_target[side.index()]) == size
            }
        }
    }

    fn finish_reason(&self, side: Seat) -> EndReason {
        if self.pieces_in_target(side) as usize == self.rules.pieces_per_side() {
            EndReason::TargetFilled
        } else {
            EndReason::TargetBlockedButReached
        }
    }

    /// The seat whose turn came before `side`'s (the mover of the ply that led here).
    fn previous_seat(&self, side: Seat) -> Seat {
        let n = self.rules.seat_count();
        Seat::at((side.index() + n - 1) % n)
    }

    /// Records the seats that finished with the last ply, the mover first (its move may also
    /// have completed another seat's target), then the others in turn order.
    #[inline]
    fn record_finishes(&mut self, mover: Seat) {
        let n = self.rules.seat_count();
        let mut seat = mover;
        for _ in 0..n {
            if !self.finishers.has(seat) && self.finished(seat) {
                self.finishers.add(seat);
            }
            seat = seat.next(n);
        }
    }

    /// Finds the seat to move after `mover`: the next seat still playing that has a legal
    /// move. On the way, a seat without one passes (`Pass`) or is out (`Loses`: it takes the
    /// last place open, and the others play on). With `Draw` the next seat is taken as it is
    /// (`judge` ends the game if it cannot move). `None` when nobody is left to move.
    fn next_seat(&mut self, mover: Seat) -> Option<Seat> {
        let n = self.rules.seat_count();
        let rule = self.rules.no_legal_move();
        let mut s = mover;
        for _ in 0..n {
            s = s.next(n);
            if !self.finishers.plays(s) {
                continue;
            }
            if rule == NoLegalMove::Draw || self.can_move(s) {
                return Some(s);
            }
            if rule == NoLegalMove::Loses {
                self.finishers.put_out(s);
            }
        }
        None
    }

    /// Seats still playing (neither finished nor out).
    fn playing(&self) -> usize {
        self.rules
            .seats()
            .filter(|&s| self.finishers.plays(s))
            .count()
    }

    /// Places so far: the finishers in order, then the seats still playing sharing the next
    /// place, then the seats that went out, the last to go out first.
    fn places(&self) -> Places {
        let f = &self.finishers;
        let seat = |&i: &u8| Seat::at(usize::from(i));
        let finished: Vec<Seat> = f.order[..usize::from(f.count)].iter().map(seat).collect();
        let playing: Vec<Seat> = self.rules.seats().filter(|&s| f.plays(s)).collect();
        let out: Vec<Seat> = f.out_order[..usize::from(f.out_count)]
            .iter()
            .rev()
            .map(seat)
            .collect();
        let mut groups: Vec<&[Seat]> = finished.chunks(1).collect();
        groups.push(&playing);
        groups.extend(out.chunks(1));
        Places::from_groups(&groups, self.rules.seat_count())
    }

    /// The end rules, judged for the position just reached by `mover`'s ply. Two seats, in the
    /// order of rules.md A-U9: the finish (with the equalising reply), the home-clear rule, the
    /// count, no legal move, then the guards (repetition, ply cap). More seats: the finishes
    /// (the game ends at the first with `FirstFinish`, else when one seat is left), no seat
    /// able to move, then the guards.
    fn judge(&self, mover: Seat, went_out: bool, nobody_moves: bool) -> Option<Outcome> {
        let rules = &*self.rules;
        let n = rules.seat_count();
        let mut reply_owed = false;
        if rules.partners() {
            // The first team whose partners have all finished wins; the others share the
            // places after it.
            let half = n / 2;
            let done = (0..half).find(|&t| {
                self.finishers.has(Seat::at(t)) && self.finishers.has(Seat::at(t + half))
            });
            if let Some(t) = done {
                let team = [Seat::at(t), Seat::at(t + half)];
                let places = Places::from_groups(&[&team], n);
                return Some(Outcome::placed(places, self.finish_reason(mover)));
            }
        } else if rules.equalising_reply() {
            let first = rules.first_player();
            let second = first.other();
            if mover == second && self.finished(first) {
                return Some(if self.finished(second) {
                    Outcome::draw(EndReason::BothFinished)
                } else {
                    Outcome::win(first, self.finish_reason(first))
                });
            }
            if self.finished(second) {
                return Some(Outcome::win(second, self.finish_reason(second)));
            }
            reply_owed = mover == first && self.finished(first);
        } else if self.finishers.count > 0
            && (rules.end() == EndRule::FirstFinish || self.playing() <= 1)
        {
            // The first finish ends the game (two seats, or `FirstFinish`), or one seat is left.
            let first = Seat::at(usize::from(self.finishers.order[0]));
            let last = Seat::at(usize::from(
                self.finishers.order[usize::from(self.finishers.count) - 1],
            ));
            let reason = self.finish_reason(if n == 2 { first } else { last });
            return Some(Outcome::placed(self.places(), reason));
        }
        if !reply_owed {
            if rules.home_clear_ply() == Some(self.ply) {
                let at_home =
                    |c: Seat| !(self.pieces[c.index()] & rules.homes[c.index()]).is_zero();
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
            if rules.count_ply().is_some_and(|c| self.ply >= c) {
                let white = self.pieces_in_target(Seat::WHITE).min(255) as u8;
                let black = self.pieces_in_target(Seat::BLACK).min(255) as u8;
                let reason = EndReason::PieceCount { white, black };
                return Some(match white.cmp(&black) {
                    std::cmp::Ordering::Greater => Outcome::win(Seat::WHITE, reason),
                    std::cmp::Ordering::Less => Outcome::win(Seat::BLACK, reason),
                    std::cmp::Ordering::Equal => Outcome::draw(reason),
                });
            }
        }
        // No legal move: with `Draw` for the seat to move; else nobody left who can move (the
        // others passed or went out), or one seat left playing after others went out.
        let stuck = match rules.no_legal_move() {
            NoLegalMove::Draw => !self.can_move(self.side),
            _ => nobody_moves || (went_out && self.playing() <= 1),
        };
        if stuck {
            return Some(match rules.no_legal_move() {
                NoLegalMove::Draw => Outcome::draw(EndReason::NoLegalMoves),
                _ => Outcome::placed(self.places(), EndReason::NoLegalMoves),
            });
        }
        if reply_owed {
            return None;
        }
        // A position recurs four plies later at the earliest (each seat that moved must move
        // back, and another seat moves between), so its n-th occurrence needs at least
        // 4(n-1)+1 positions since the last irreversible move (9 for threefold).
        if let Some(k) = rules.repetition_draw().map(usize::from)
            && self.history.len() - self.fresh as usize > 4 * (k - 1)
            && self.occurrences() >= k
        {
            return Some(Outcome::placed(self.places(), EndReason::Repetition));
        }
        if rules.ply_cap().is_some_and(|cap| self.ply >= cap) {
            return Some(Outcome::placed(self.places(), EndReason::PlyCap));
        }
        None
    }

    /// How often the current position (board and side to move) has occurred, this time included.
    pub fn occurrences(&self) -> usize {
        self.history[self.fresh as usize..]
            .iter()
            .filter(|&&h| h == self.hash)
            .count()
    }

    /// A move that can never be undone by later moves: leaving home under the no-return rule,
    /// or entering the target under a lock.
    fn is_irreversible(&self, side: Seat, from: usize, to: usize) -> bool {
        let rules = &*self.rules;
        let home = rules.homes[side.index()];
        let target = rules.targets[side.index()];
        (rules.no_return_home() && home.has(from) && !home.has(to))
            || (rules.target_lock() != TargetLock::Off && !target.has(from) && target.has(to))
    }

    #[inline]
    fn move_target_counts(&mut self, side: Seat, from: usize, to: usize) {
        let rules = &*self.rules;
        for seat in 0..rules.seat_count() {
            let target = &rules.targets[seat];
            let delta = |n: u8| n - u8::from(target.has(from)) + u8::from(target.has(to));
            self.all_in_target[seat] = delta(self.all_in_target[seat]);
            if seat == side.index() {
                self.own_in_target[seat] = delta(self.own_in_target[seat]);
            }
        }
    }

    fn effect_of(&self, mv: &RaceMove) -> RaceEffect {
        RaceEffect {
            side: self.side,
            kind: mv.kind(),
            path: mv.path(),
            jumped: mv.jumped(),
        }
    }

    /// Bit indices of the move's ends.
    fn ends(&self, mv: &RaceMove) -> (usize, usize) {
        (self.rules.index(mv.from()), self.rules.index(mv.to()))
    }
}

impl RacePosition {
    /// The legal moves of `seat` as if it were to move (see [`OutOfTurn`]).
    #[inline]
    fn moves_of(&self, seat: Seat, moves: &mut Vec<RaceMove>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        let own = &self.pieces[seat.index()];
        if self.rules.long_hops() {
            long_hops::moves(&self.rules, own, &self.occupied, seat, None, moves);
            return;
        }
        // Boards laid out in class words need none of the rest of a node.
        if movegen::moves_in_class_words(
            &self.rules,
            own,
            &self.occupied,
            seat,
            &self.classes,
            moves,
        ) {
            return;
        }
        with_node!(&self.rules, own, &self.occupied, seat, node => node.moves(moves, &self.classes));
    }
}

/// What [`OutOfTurn::skip_turn`] changed: the seat that was to move.
#[derive(Copy, Clone, Debug)]
pub struct RaceSkip {
    side: Seat,
}

impl RacePosition {
    /// Hands the turn to `seat` without a move: the position, and so the last entry of the
    /// history (which always holds the hash of the position as it stands, for undo and the
    /// repetition count), is the same board with another side to move.
    fn set_side(&mut self, seat: Seat) {
        self.hash ^= SIDE_KEYS[self.side.index()] ^ SIDE_KEYS[seat.index()];
        self.side = seat;
        *self
            .history
            .last_mut()
            .expect("history holds the start position") = self.hash;
    }
}

impl OutOfTurn for RacePosition {
    type Skip = RaceSkip;

    fn still_plays(&self, seat: Seat) -> bool {
        seat.index() < self.rules.seat_count() && self.finishers.plays(seat)
    }

    fn legal_moves_of(&self, seat: Seat, moves: &mut Vec<RaceMove>) {
        if self.still_plays(seat) {
            self.moves_of(seat, moves);
        } else {
            moves.clear();
        }
    }

    fn skip_turn(&mut self) -> RaceSkip {
        let n = self.rules.seat_count();
        let side = self.side;
        let mut next = side.next(n);
        while next != side && !self.finishers.plays(next) {
            next = next.next(n);
        }
        self.set_side(next);
        RaceSkip { side }
    }

    fn unskip_turn(&mut self, skip: RaceSkip) {
        self.set_side(skip.side);
    }

    fn same_team(&self, a: Seat, b: Seat) -> bool {
        self.rules.team(a) == self.rules.team(b)
    }

    fn settled_place(&self, seat: Seat) -> Option<u8> {
        let f = &self.finishers;
        if self.rules.partners() {
            // A partner's finish settles nothing until the whole team has finished (which ends
            // the game).
            return self.outcome.map(|o| o.places.of(seat));
        }
        let at = |order: &[u8]| order.iter().position(|&s| usize::from(s) == seat.index());
        if let Some(i) = at(&f.order[..usize::from(f.count)]) {
            return Some(i as u8 + 1);
        }
        // The last to go out is placed just above those who went out before it.
        let i = at(&f.out_order[..usize::from(f.out_count)])?;
        Some((self.rules.seat_count() - i) as u8)
    }
}

impl Position for RacePosition {
    type Move = RaceMove;
    type Undo = RaceUndo;
    type Effect = RaceEffect;

    fn side_to_move(&self) -> Seat {
        self.side
    }

    fn seat_count(&self) -> usize {
        self.rules.seat_count()
    }

    fn seat_name(&self, seat: Seat) -> String {
        self.rules.seat_name(seat).to_owned()
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn legal_moves(&self, moves: &mut Vec<RaceMove>) {
        self.moves_of(self.side, moves);
    }

    fn count_legal_moves(&self) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        let own = &self.pieces[self.side.index()];
        if self.rules.long_hops() {
            let mut out = Vec::new();
            long_hops::moves(&self.rules, own, &self.occupied, self.side, None, &mut out);
            return out.len() as u64;
        }
        with_node!(&self.rules, own, &self.occupied, self.side, node => node.count())
    }

    fn is_legal(&self, mv: &RaceMove) -> bool {
        self.outcome.is_none()
            && self.rules.on_board(mv.to())
            && self.destinations(mv.from()).contains(&mv.to())
    }

    fn play(&mut self, mv: &RaceMove) -> Result<RaceEffect, IllegalMove> {
        if !self.is_legal(mv) {
            return Err(IllegalMove {
                notation: mv.to_string(),
                reason: self.why_illegal(mv.from(), mv.to()).into(),
            });
        }
        // The carried path is used if it is legal here; a move made in another position may
        // carry a path that is not, and then the representative path is played.
        let mv = match self.move_along(&mv.path(), mv.is_step()) {
            Ok(m) => m,
            Err(_) => self.representative(mv.from(), mv.to()).unwrap_or(*mv),
        };
        let effect = self.effect_of(&mv);
        self.play_unchecked(&mv);
        Ok(effect)
    }

    #[inline]
    fn play_unchecked(&mut self, mv: &RaceMove) -> RaceUndo {
        let undo = RaceUndo {
            outcome: self.outcome,
            fresh: self.fresh,
            side: self.side,
            finishers: self.finishers,
        };
        let (from, to) = self.ends(mv);
        let side = self.side;
        let bits = &mut self.pieces[side.index()];
        bits.clear(from);
        bits.set(to);
        self.occupied.clear(from);
        self.occupied.set(to);
        if self.rules.class_floods() {
            self.classes.toggle(self.rules.class_bit(from));
            self.classes.toggle(self.rules.class_bit(to));
        }
        let keys = &PIECE_KEYS[side.index()];
        self.hash ^= keys[from] ^ keys[to];
        self.move_target_counts(side, from, to);
        let mut irreversible = self.is_irreversible(side, from, to);
        let (finished, out) = (self.finishers.count, self.finishers.out_count);
        let done_key = self.finishers.key();
        self.record_finishes(side);
        let next = self.next_seat(side);
        let went_out = self.finishers.out_count != out;
        irreversible |= self.finishers.count != finished || went_out;
        // Nobody left to move: the game is over, and `judge` says how (the turn goes on to the
        // next seat, as it would have).
        let stuck = next.is_none();
        let next = next.unwrap_or(side.next(self.rules.seat_count()));
        self.hash ^= SIDE_KEYS[side.index()] ^ SIDE_KEYS[next.index()];
        self.hash ^= done_key ^ self.finishers.key();
        if irreversible {
            self.fresh = self.history.len() as u32;
        }
        self.history.push(self.hash);
        self.side = next;
        self.ply += 1;
        self.outcome = self.judge(side, went_out, stuck);
        undo
    }

    #[inline]
    fn undo(&mut self, mv: &RaceMove, undo: RaceUndo) {
        let (from, to) = self.ends(mv);
        self.side = undo.side;
        self.ply -= 1;
        let bits = &mut self.pieces[self.side.index()];
        bits.clear(to);
        bits.set(from);
        self.occupied.clear(to);
        self.occupied.set(from);
        if self.rules.class_floods() {
            self.classes.toggle(self.rules.class_bit(to));
            self.classes.toggle(self.rules.class_bit(from));
        }
        self.move_target_counts(self.side, to, from);
        self.history.pop();
        self.hash = *self
            .history
            .last()
            .expect("history holds the start position");
        self.outcome = undo.outcome;
        self.fresh = undo.fresh;
        self.finishers = undo.finishers;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn format_move(&self, mv: &RaceMove) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<RaceMove, NotationError> {
        super::notation::parse(self, text)
    }
}

impl fmt::Debug for RacePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("RacePosition");
        for seat in self.rules.seats() {
            d.field(self.rules.seat_name(seat), &self.pieces(seat));
        }
        d.field("side_to_move", &self.side)
            .field("ply", &self.ply)
            .field("outcome", &self.outcome)
            .finish()
    }
}
