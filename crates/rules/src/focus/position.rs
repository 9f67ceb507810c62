//! The Focus position: stacks, reserves, captures, and the `Position` implementation.
use std::{fmt, sync::Arc};

use super::error::{Illegal, SetupProblem};
use super::moves::{Action, Fate, FocusEffect, FocusMove, Overflowed};
use super::rules::FocusRules;
use super::square::Square;
use super::square_set::SquareSet;
use super::stack::{MAX_SEATS, Stack};
use super::zobrist;
use crate::{EndReason, IllegalMove, NamedSeat, NotationError, Outcome, Places, Position, Seat};

/// A Focus position. Cloning copies the board array (512 bytes, boxed to keep the value small)
/// and the repetition history.
#[derive(Clone)]
pub struct FocusPosition {
    rules: Arc<FocusRules>,
    /// Indexed by [`Square::index`]; squares off the board stay empty.
    stacks: Box<[Stack; 256]>,
    /// Per seat; only the first `seat_count` entries are used (the rest stay 0).
    reserve: [u16; MAX_SEATS],
    /// `captured[c]`: other seats' pieces that `c` has captured (they are out of the game).
    captured: [u16; MAX_SEATS],
    /// `lost[c]`: `c`'s pieces captured by the other seats.
    lost: [u16; MAX_SEATS],
    /// How many stacks each side controls, kept up to date for the end rule and move counts.
    controlled: [u16; MAX_SEATS],
    /// The squares of the stacks each side controls: move generation visits only these.
    tops: [SquareSet; MAX_SEATS],
    /// `out[c]`: 0 while `c` plays; once it controls no stack and has no reserve (which is
    /// for good: only its own moves give it either), the number of the ply's elimination
    /// round, 1 for the first seats to go out. Seats put out by the same ply share a round.
    out: [u8; MAX_SEATS],
    /// Elimination rounds so far.
    rounds: u8,
    side: Seat,
    ply: u32,
    hash: u64,
    /// `history[i]`: the hash of the position before ply `i + 1` (so `history.len() == ply`
    /// for a game played from its start).
    history: Vec<u64>,
    /// The first history index the position can repeat: captures are irreversible (the capture
    /// counts are hashed), so the repetition scan stops at the last one.
    repeatable_from: u32,
}

/// The occupied squares and the counters; the board tables and history are left out.
impl fmt::Debug for FocusPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stacks: Vec<String> = self.stacks().map(|(sq, s)| format!("{sq}:{s}")).collect();
        f.debug_struct("FocusPosition")
            .field("side", &self.side)
            .field("ply", &self.ply)
            .field("stacks", &stacks)
            .field("reserve", &self.reserve)
            .field("captured", &self.captured)
            .field("hash", &format_args!("{:#018x}", self.hash))
            .finish_non_exhaustive()
    }
}

/// Positions are equal when they belong to the same rules object (`Arc::ptr_eq`) and agree on
/// everything else, repetition history included: exactly what `undo` must restore.
impl PartialEq for FocusPosition {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.rules, &other.rules)
            && self.stacks == other.stacks
            && self.reserve == other.reserve
            && self.captured == other.captured
            && self.lost == other.lost
            && self.controlled == other.controlled
            && self.tops == other.tops
            && self.out == other.out
            && self.rounds == other.rounds
            && self.side == other.side
            && self.ply == other.ply
            && self.hash == other.hash
            && self.history == other.history
            && self.repeatable_from == other.repeatable_from
    }
}

impl Eq for FocusPosition {}

/// What `undo` needs: everything a move may change, as it was before.
#[derive(Copy, Clone, Debug)]
pub struct FocusUndo {
    from_before: Stack,
    to_before: Stack,
    reserve: [u16; MAX_SEATS],
    captured: [u16; MAX_SEATS],
    lost: [u16; MAX_SEATS],
    controlled: [u16; MAX_SEATS],
    out: [u8; MAX_SEATS],
    rounds: u8,
    side: Seat,
    hash: u64,
    repeatable_from: u32,
}

/// A position given to [`FocusPosition::from_setup`] that the rules cannot hold: every
/// problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid Focus position: {}", self.problems_text())]
pub struct InvalidPosition {
    pub problems: Vec<SetupProblem>,
}

impl InvalidPosition {
    /// The problems in words, separated by `; `.
    pub fn problems_text(&self) -> String {
        let words: Vec<String> = self.problems.iter().map(ToString::to_string).collect();
        words.join("; ")
    }
}

impl FocusPosition {
    /// The variant's start position.
    pub fn new(rules: Arc<FocusRules>) -> Self {
        let setup = rules.setup().to_vec();
        let reserve = rules.starting_reserve();
        let first = rules.first_player();
        let n = rules.seat_count();
        Self::from_seats(rules, &setup, &vec![reserve; n], &vec![0; n], first, None)
            .expect("validated rules hold a valid set-up")
    }

    /// Any position of a two-seat variant: the stacks (squares not listed are empty), each
    /// side's reserve and captures (`captured[c]` = pieces `c` has captured), and the side to
    /// move. The position starts at ply 0 with no history. Checks that every stack is on the
    /// board and within the height limit and that no piece is missing or extra: for each side,
    /// pieces on the board + its reserve + pieces the opponent captured = `pieces_per_side`.
    pub fn from_setup(
        rules: Arc<FocusRules>,
        stacks: &[(Square, Stack)],
        reserve: [u16; 2],
        captured: [u16; 2],
        side_to_move: Seat,
    ) -> Result<Self, InvalidPosition> {
        Self::from_seats(rules, stacks, &reserve, &captured, side_to_move, None)
    }

    /// Any position of the variant's table, of any size: as [`Self::from_setup`], with one
    /// reserve and one capture count per seat. With more than two seats the material check is
    /// per seat (on the board + reserve ≤ `pieces_per_side`) and in all (the pieces missing
    /// from every seat add up to the captures). Seats that control no stack and hold no
    /// reserve go out when their turn comes; `out_order` lists those already out, in the order
    /// they went out (groups that went out on the same ply, first out first). A side to move
    /// with nothing is out, and unless that ends the game the turn passes to the next seat
    /// that can move.
    pub fn from_seats(
        rules: Arc<FocusRules>,
        stacks: &[(Square, Stack)],
        reserve: &[u16],
        captured: &[u16],
        side_to_move: Seat,
        out_order: Option<&[Vec<Seat>]>,
    ) -> Result<Self, InvalidPosition> {
        let n = rules.seat_count();
        let mut problems = Vec::new();
        if reserve.len() != n || captured.len() != n {
            problems.push(SetupProblem::SeatCounts {
                seats: n,
                reserves: reserve.len(),
                captures: captured.len(),
            });
            return Err(InvalidPosition { problems });
        }
        if side_to_move.index() >= n {
            problems.push(SetupProblem::NoSuchSeat {
                seat: side_to_move,
                seats: n,
            });
            return Err(InvalidPosition { problems });
        }
        let mut board = Box::new([Stack::EMPTY; 256]);
        let mut on_board = [0u32; MAX_SEATS];
        for &(sq, stack) in stacks {
            if !rules.board().contains(sq) {
                problems.push(SetupProblem::OffBoard { square: sq });
                continue;
            }
            if !board[sq.index()].is_empty() {
                problems.push(SetupProblem::GivenTwice { square: sq });
                continue;
            }
            if stack.height() > rules.height_limit() {
                problems.push(SetupProblem::TooTall {
                    square: sq,
                    stack,
                    limit: rules.height_limit(),
                });
                continue;
            }
            if stack.pieces().any(|c| c.index() >= n) {
                problems.push(SetupProblem::SeatBeyondTable {
                    square: sq,
                    seats: n,
                });
                continue;
            }
            board[sq.index()] = stack;
            for c in Seat::all(n) {
                on_board[c.index()] += u32::from(stack.count(c));
            }
        }
        let per_side = u32::from(rules.pieces_per_side());
        let mut lost = [0u16; MAX_SEATS];
        if n == 2 {
            for c in Seat::BOTH {
                let total = on_board[c.index()]
                    + u32::from(reserve[c.index()])
                    + u32::from(captured[c.other().index()]);
                if total != per_side {
                    problems.push(SetupProblem::Material {
                        seat: c,
                        on_board: on_board[c.index()],
                        reserve: reserve[c.index()],
                        captured: captured[c.other().index()],
                        total,
                        per_side: rules.pieces_per_side(),
                    });
                }
                lost[c.index()] = captured[c.other().index()];
            }
        } else {
            for c in Seat::all(n) {
                let kept = on_board[c.index()] + u32::from(reserve[c.index()]);
                match per_side.checked_sub(kept) {
                    Some(missing) => lost[c.index()] = missing as u16,
                    None => problems.push(SetupProblem::TooManyPieces {
                        seat: NamedSeat::new(c, rules.seat_name(c)),
                        on_board: on_board[c.index()],
                        reserve: reserve[c.index()],
                        kept,
                        per_side,
                    }),
                }
            }
            let missing: u32 = lost.iter().map(|&l| u32::from(l)).sum();
            let taken: u32 = captured.iter().map(|&c| u32::from(c)).sum();
            if problems.is_empty() && missing != taken {
                problems.push(SetupProblem::CapturesMismatch { missing, taken });
            }
        }
        if !problems.is_empty() {
            return Err(InvalidPosition { problems });
        }
        let widen = |v: &[u16]| {
            let mut a = [0u16; MAX_SEATS];
            a[..n].copy_from_slice(v);
            a
        };
        let mut pos = FocusPosition {
            rules,
            stacks: board,
            reserve: widen(reserve),
            captured: widen(captured),
            lost,
            controlled: [0; MAX_SEATS],
            tops: [SquareSet::EMPTY; MAX_SEATS],
            out: [0; MAX_SEATS],
            rounds: 0,
            side: side_to_move,
            ply: 0,
            hash: 0,
            history: Vec::new(),
            repeatable_from: 0,
        };
        for &sq in pos.rules.board().squares() {
            if let Some(c) = pos.stacks[sq.index()].top() {
                pos.controlled[c.index()] += 1;
                pos.tops[c.index()].insert(sq);
            }
        }
        if let Some(groups) = out_order {
            for group in groups.iter().filter(|g| !g.is_empty()) {
                pos.rounds += 1;
                for &c in group {
                    if c.index() >= n || pos.is_out(c) {
                        problems.push(SetupProblem::OutListedTwice { seat: c });
                    } else if !pos.has_nothing(c) {
                        problems.push(SetupProblem::OutButPlays {
                            seat: NamedSeat::new(c, pos.rules.seat_name(c)),
                        });
                    } else {
                        pos.out[c.index()] = pos.rounds;
                    }
                }
            }
        }
        // The end rule is judged when a seat's turn comes: the side to move with nothing is
        // out, and the turn passes on unless that ends the game.
        if pos.has_nothing(side_to_move) && !pos.is_out(side_to_move) {
            pos.rounds += 1;
            pos.out[side_to_move.index()] = pos.rounds;
        }
        if pos.is_out(side_to_move) && !pos.decided() {
            pos.pass_turn(side_to_move);
        }
        if !problems.is_empty() {
            return Err(InvalidPosition { problems });
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The same position with its ply counter set: for a position read from text, whose
    /// plies count towards the ply cap.
    pub fn with_ply(mut self, ply: u32) -> Self {
        self.ply = ply;
        self
    }

    pub fn rules(&self) -> &Arc<FocusRules> {
        &self.rules
    }

    /// The stack on `sq` (empty off the board).
    #[inline]
    pub fn stack(&self, sq: Square) -> Stack {
        self.stacks[sq.index()]
    }

    /// The pieces `color` holds in reserve.
    pub fn reserve(&self, color: Seat) -> u16 {
        self.reserve[color.index()]
    }

    /// The other seats' pieces `color` has captured.
    pub fn captured_by(&self, color: Seat) -> u16 {
        self.captured[color.index()]
    }

    /// `color`'s pieces the other seats have captured.
    pub fn lost(&self, color: Seat) -> u16 {
        self.lost[color.index()]
    }

    /// The seat controls no stack and has no reserve: it has no move, now or ever again.
    pub fn is_out(&self, color: Seat) -> bool {
        self.out[color.index()] != 0
    }

    /// The seats that are out, in the order they went out: one group per ply that put seats
    /// out, first out first.
    pub fn out_order(&self) -> Vec<Vec<Seat>> {
        let n = self.rules.seat_count();
        (1..=self.rounds)
            .map(|r| Seat::all(n).filter(|c| self.out[c.index()] == r).collect())
            .collect()
    }

    fn has_nothing(&self, color: Seat) -> bool {
        self.controlled[color.index()] == 0 && self.reserve[color.index()] == 0
    }

    /// At most one side of the table (a seat, or a partnership) still plays.
    fn decided(&self) -> bool {
        let mut teams = 0u32;
        for c in Seat::all(self.rules.seat_count()) {
            if !self.is_out(c) {
                teams |= 1 << self.rules.team(c);
            }
        }
        teams.count_ones() <= 1
    }

    /// The places when the game ends now: the sides (seats or partnerships) still playing
    /// share the best place (`first`, if given, takes it alone: Sackson's first-player win),
    /// then the others, the last to go out first. A partnership goes out with its last seat.
    fn places(&self, first: Option<Seat>) -> Places {
        let n = self.rules.seat_count();
        let rules = &self.rules;
        // Each side's standing: u8::MAX while it plays, else the round its last seat went out.
        let mut standing = [0u8; MAX_SEATS];
        for c in Seat::all(n) {
            let r = if self.is_out(c) {
                self.out[c.index()]
            } else {
                u8::MAX
            };
            let t = rules.team(c);
            standing[t] = standing[t].max(r);
        }
        if let Some(f) = first {
            standing[rules.team(f)] = u8::MAX;
            for c in Seat::all(n).filter(|&c| rules.team(c) != rules.team(f)) {
                standing[rules.team(c)] = standing[rules.team(c)].min(u8::MAX - 1);
            }
        }
        let mut levels: Vec<u8> = Seat::all(n).map(|c| standing[rules.team(c)]).collect();
        levels.sort_unstable_by(|a, b| b.cmp(a));
        levels.dedup();
        let groups: Vec<Vec<Seat>> = levels
            .iter()
            .map(|&l| {
                Seat::all(n)
                    .filter(|&c| standing[rules.team(c)] == l)
                    .collect()
            })
            .collect();
        let groups: Vec<&[Seat]> = groups.iter().map(Vec::as_slice).collect();
        Places::from_groups(&groups, n)
    }

    /// Passes the turn on from `me`: to the next seat in turn order that can move. A seat
    /// whose turn comes while it controls no stack and holds no reserve goes out on the way
    /// (it never gets either back: only its own moves give them), those of one pass sharing
    /// an elimination round. When no other seat can move the game is over and the turn
    /// simply goes to the next seat (so a two-seat game leaves the loser to move).
    fn pass_turn(&mut self, me: Seat) {
        let n = self.rules.seat_count();
        let mut went_out = false;
        let mut s = me.next(n);
        let mut next = None;
        while s != me {
            if !self.is_out(s) {
                if self.has_nothing(s) {
                    self.out[s.index()] = self.rounds + 1;
                    went_out = true;
                } else {
                    next = Some(s);
                    break;
                }
            }
            s = s.next(n);
        }
        if went_out {
            self.rounds += 1;
        }
        self.side = next.unwrap_or(me.next(n));
    }

    /// Each seat's first turn drops its reserve piece on an empty square (opening_drop).
    fn in_opening(&self) -> bool {
        self.rules.opening_drop()
            && self.ply < self.rules.seat_count() as u32
            && self.reserve[self.side.index()] > 0
    }

    /// How many stacks `color` controls (has the top piece of).
    pub fn controlled_stacks(&self, color: Seat) -> u16 {
        self.controlled[color.index()]
    }

    /// The squares of the stacks `color` controls, a1 first.
    pub fn controlled_squares(&self, color: Seat) -> impl Iterator<Item = Square> + use<> {
        self.tops[color.index()].iter()
    }

    /// How many of `color`'s pieces are on the board.
    pub fn pieces_on_board(&self, color: Seat) -> u32 {
        self.rules
            .board()
            .squares()
            .iter()
            .map(|&sq| u32::from(self.stacks[sq.index()].count(color)))
            .sum()
    }

    /// The occupied squares and their stacks, a1 first.
    pub fn stacks(&self) -> impl Iterator<Item = (Square, Stack)> + '_ {
        self.rules
            .board()
            .squares()
            .iter()
            .map(|&sq| (sq, self.stacks[sq.index()]))
            .filter(|(_, s)| !s.is_empty())
    }

    /// The hash from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = zobrist::side(self.side);
        for &sq in self.rules.board().squares() {
            h ^= zobrist::stack(sq, self.stacks[sq.index()]);
        }
        for c in Seat::all(self.rules.seat_count()) {
            h ^= zobrist::reserve(c, self.reserve[c.index()]);
            h ^= zobrist::captured(c, self.captured[c.index()]);
        }
        h
    }

    /// Why `mv` cannot be played here, or `None` if it is legal.
    pub fn why_illegal(&self, mv: &FocusMove) -> Option<Illegal> {
        if let Some(outcome) = self.outcome() {
            return Some(Illegal::GameOver(outcome));
        }
        let named = |seat: Seat| NamedSeat::new(seat, self.rules.seat_name(seat));
        let board = self.rules.board();
        let me = self.side;
        if self.in_opening() {
            return match *mv {
                FocusMove::Drop { to } if board.contains(to) && self.stack(to).is_empty() => None,
                _ => Some(Illegal::FirstTurnDrops { seat: named(me) }),
            };
        }
        match *mv {
            FocusMove::Move { from, to, count } => {
                for sq in [from, to] {
                    if !board.contains(sq) {
                        return Some(Illegal::OffBoard { square: sq });
                    }
                }
                let Some((_, distance)) = from.line_to(to) else {
                    return Some(Illegal::NotInLine { from, to });
                };
                if distance != count {
                    return Some(Illegal::WrongDistance {
                        from,
                        to,
                        count,
                        distance,
                    });
                }
                let stack = self.stack(from);
                match stack.top() {
                    None => return Some(Illegal::NoStack { square: from }),
                    Some(owner) if owner != me => {
                        return Some(Illegal::NotYourStack {
                            square: from,
                            owner: named(owner),
                            to_move: named(me),
                        });
                    }
                    Some(_) => {}
                }
                if count > stack.height() {
                    return Some(Illegal::StackTooLow {
                        square: from,
                        height: stack.height(),
                        count,
                    });
                }
                None
            }
            FocusMove::Drop { to } => {
                if !board.contains(to) {
                    Some(Illegal::OffBoard { square: to })
                } else if self.reserve(me) == 0 {
                    Some(Illegal::NoReserve { seat: named(me) })
                } else {
                    None
                }
            }
        }
    }

    /// What `mv` (legal here) will do.
    fn describe(&self, mv: &FocusMove) -> FocusEffect {
        let me = self.side;
        let (to, lifted, action) = match *mv {
            FocusMove::Move { from, to, count } => {
                let (left, lifted) = self.stack(from).split_top(count);
                let (dir, distance) = from.line_to(to).expect("a legal move is straight");
                let path = (1..=distance).filter_map(|d| from.offset(dir, d)).collect();
                let action = Action::Move {
                    from,
                    to,
                    lifted,
                    path,
                    left,
                };
                (to, lifted, action)
            }
            FocusMove::Drop { to } => (to, Stack::single(me), Action::Drop { to }),
        };
        let (landed, fallen) = self
            .stack(to)
            .stack_under(lifted, self.rules.height_limit());
        let overflow = fallen
            .pieces()
            .map(|color| Overflowed {
                color,
                fate: if color == me {
                    Fate::MoverReserve
                } else {
                    Fate::CapturedByMover
                },
            })
            .collect();
        FocusEffect {
            mover: me,
            action,
            overflow,
            landed,
        }
    }

    /// Puts `stack` on `sq`, keeping the hash and control counts up to date.
    #[inline]
    fn set(&mut self, sq: Square, stack: Stack) {
        let old = self.stacks[sq.index()];
        self.hash ^= zobrist::stack(sq, old) ^ zobrist::stack(sq, stack);
        if let Some(c) = old.top() {
            self.controlled[c.index()] -= 1;
        }
        if let Some(c) = stack.top() {
            self.controlled[c.index()] += 1;
        }
        self.restore(sq, stack);
    }

    /// Puts `stack` back on `sq` with the control sets, leaving the hash and counts to the
    /// caller (undo restores those whole).
    #[inline]
    fn restore(&mut self, sq: Square, stack: Stack) {
        if let Some(c) = self.stacks[sq.index()].top() {
            self.tops[c.index()].remove(sq);
        }
        if let Some(c) = stack.top() {
            self.tops[c.index()].insert(sq);
        }
        self.stacks[sq.index()] = stack;
    }

    #[inline]
    fn add_reserve(&mut self, color: Seat, delta: i32) {
        let old = self.reserve[color.index()];
        let new = (i32::from(old) + delta) as u16;
        self.hash ^= zobrist::reserve(color, old) ^ zobrist::reserve(color, new);
        self.reserve[color.index()] = new;
    }

    #[inline]
    fn add_captured(&mut self, color: Seat, n: u16) {
        let old = self.captured[color.index()];
        let new = old + n;
        self.hash ^= zobrist::captured(color, old) ^ zobrist::captured(color, new);
        self.captured[color.index()] = new;
    }

    /// How often the current position occurred before (same side to move), counting only
    /// positions since the last capture.
    fn earlier_occurrences(&self) -> usize {
        // The hash includes the side to move, so equal hashes are the same seat's turn (with
        // seats out, turns no longer alternate with a fixed period).
        let start = (self.repeatable_from as usize).min(self.history.len());
        self.history[start..]
            .iter()
            .filter(|&&h| h == self.hash)
            .count()
    }

    /// A draw by a guard rule, or the first player's win under Sackson's option.
    fn drawn(&self, reason: EndReason) -> Outcome {
        let first = self
            .rules
            .draw_is_first_player_win()
            .then(|| self.rules.first_player());
        Outcome::placed(self.places(first), reason)
    }
}

impl Position for FocusPosition {
    type Move = FocusMove;
    type Undo = FocusUndo;
    type Effect = FocusEffect;

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

    fn legal_moves(&self, moves: &mut Vec<FocusMove>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        let board = self.rules.board();
        let me = self.side;
        if self.in_opening() {
            moves.extend(
                board
                    .squares()
                    .iter()
                    .filter(|&&to| self.stack(to).is_empty())
                    .map(|&to| FocusMove::Drop { to }),
            );
            return;
        }
        for from in self.tops[me.index()].iter() {
            let stack = self.stacks[from.index()];
            for count in 1..=stack.height() {
                moves.extend(board.targets(from, count).iter().map(|to| FocusMove::Move {
                    from,
                    to,
                    count,
                }));
            }
        }
        if self.reserve(me) > 0 {
            moves.extend(board.squares().iter().map(|&to| FocusMove::Drop { to }));
        }
    }

    fn count_legal_moves(&self) -> u64 {
        if self.outcome().is_some() {
            return 0;
        }
        let board = self.rules.board();
        let me = self.side;
        if self.in_opening() {
            return board
                .squares()
                .iter()
                .filter(|&&to| self.stack(to).is_empty())
                .count() as u64;
        }
        let mut n: u64 = self.tops[me.index()]
            .iter()
            .map(|sq| u64::from(board.move_count(sq, self.stacks[sq.index()].height())))
            .sum();
        if self.reserve(me) > 0 {
            n += board.squares().len() as u64;
        }
        n
    }

    fn is_legal(&self, mv: &FocusMove) -> bool {
        self.why_illegal(mv).is_none()
    }

    fn play(&mut self, mv: &FocusMove) -> Result<FocusEffect, IllegalMove> {
        if let Some(why) = self.why_illegal(mv) {
            return Err(IllegalMove {
                notation: self.format_move(mv),
                reason: why.into(),
            });
        }
        let effect = self.describe(mv);
        self.play_unchecked(mv);
        Ok(effect)
    }

    fn play_unchecked(&mut self, mv: &FocusMove) -> FocusUndo {
        let me = self.side;
        let to = mv.to();
        let mut undo = FocusUndo {
            from_before: Stack::EMPTY,
            to_before: self.stack(to),
            reserve: self.reserve,
            captured: self.captured,
            lost: self.lost,
            controlled: self.controlled,
            out: self.out,
            rounds: self.rounds,
            side: me,
            hash: self.hash,
            repeatable_from: self.repeatable_from,
        };
        self.history.push(self.hash);
        let lifted = match *mv {
            FocusMove::Move { from, count, .. } => {
                let stack = self.stack(from);
                undo.from_before = stack;
                let (left, lifted) = stack.split_top(count);
                self.set(from, left);
                lifted
            }
            FocusMove::Drop { .. } => {
                self.add_reserve(me, -1);
                Stack::single(me)
            }
        };
        let (landed, fallen) = self
            .stack(to)
            .stack_under(lifted, self.rules.height_limit());
        self.set(to, landed);
        let n = self.rules.seat_count();
        if !fallen.is_empty() {
            let own = fallen.count(me);
            let theirs = fallen.height() - own;
            if own > 0 {
                self.add_reserve(me, i32::from(own));
            }
            if theirs > 0 {
                self.add_captured(me, u16::from(theirs));
                for c in Seat::all(n).filter(|&c| c != me) {
                    self.lost[c.index()] += u16::from(fallen.count(c));
                }
                // Positions before a capture can never come back. (The history's length, not
                // the ply: a position read from text starts with an empty history.)
                self.repeatable_from = self.history.len() as u32;
            }
        }
        self.pass_turn(me);
        self.hash ^= zobrist::side(me) ^ zobrist::side(self.side);
        self.ply += 1;
        undo
    }

    fn undo(&mut self, mv: &FocusMove, undo: FocusUndo) {
        self.restore(mv.to(), undo.to_before);
        if let FocusMove::Move { from, .. } = *mv {
            self.restore(from, undo.from_before);
        }
        self.reserve = undo.reserve;
        self.captured = undo.captured;
        self.lost = undo.lost;
        self.controlled = undo.controlled;
        self.out = undo.out;
        self.rounds = undo.rounds;
        self.hash = undo.hash;
        self.repeatable_from = undo.repeatable_from;
        self.side = undo.side;
        self.ply -= 1;
        self.history.pop();
    }

    /// Decided at the start of the side to move's turn, in this order: the real end rule (a
    /// seat with no controlled stack and no reserve is out, A-F6; the last seat or partnership
    /// still playing wins, the others placed by when they went out), then the engine guards
    /// (repetition, ply cap; A-F5).
    fn outcome(&self) -> Option<Outcome> {
        if self.decided() {
            return Some(Outcome::placed(
                self.places(None),
                EndReason::NoStackNoReserve,
            ));
        }
        if let Some(n) = self.rules.repetition_draw()
            && self.earlier_occurrences() + 1 >= usize::from(n)
        {
            return Some(self.drawn(EndReason::Repetition));
        }
        if let Some(cap) = self.rules.ply_cap()
            && self.ply >= cap
        {
            return Some(self.drawn(EndReason::PlyCap));
        }
        None
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn format_move(&self, mv: &FocusMove) -> String {
        super::notation::format(mv)
    }

    fn parse_move(&self, text: &str) -> Result<FocusMove, NotationError> {
        let mv = super::notation::parse(text)?;
        match self.why_illegal(&mv) {
            None => Ok(mv),
            Some(why) => Err(NotationError::illegal(text.trim(), why)),
        }
    }
}
