//! The Focus position: stacks, reserves, captures, and the `Position` implementation.
use std::{fmt, sync::Arc};

use super::moves::{Action, Fate, FocusEffect, FocusMove, Overflowed};
use super::rules::FocusRules;
use super::square::Square;
use super::stack::Stack;
use super::zobrist;
use crate::{EndReason, IllegalMove, NotationError, Outcome, Position, Seat};

/// A Focus position. Cloning copies the board array (512 bytes, boxed to keep the value small)
/// and the repetition history.
#[derive(Clone)]
pub struct FocusPosition {
    rules: Arc<FocusRules>,
    /// Indexed by [`Square::index`]; squares off the board stay empty.
    stacks: Box<[Stack; 256]>,
    reserve: [u16; 2],
    /// `captured[c]`: opponent pieces that `c` has captured (they are out of the game).
    captured: [u16; 2],
    /// How many stacks each side controls, kept up to date for the end rule and move counts.
    controlled: [u16; 2],
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
            && self.controlled == other.controlled
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
    reserve: [u16; 2],
    captured: [u16; 2],
    controlled: [u16; 2],
    hash: u64,
    repeatable_from: u32,
}

/// A position given to [`FocusPosition::from_setup`] that the rules cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid Focus position: {}", problems.join("; "))]
pub struct InvalidPosition {
    pub problems: Vec<String>,
}

impl FocusPosition {
    /// The variant's start position.
    pub fn new(rules: Arc<FocusRules>) -> Self {
        let setup = rules.setup().to_vec();
        let reserve = rules.starting_reserve();
        let first = rules.first_player();
        Self::from_setup(rules, &setup, [reserve; 2], [0; 2], first)
            .expect("validated rules hold a valid set-up")
    }

    /// Any position of the variant: the stacks (squares not listed are empty), each side's
    /// reserve and captures (`captured[c]` = pieces `c` has captured), and the side to move. The
    /// position starts at ply 0 with no history. Checks that every stack is on the board and
    /// within the height limit and that no piece is missing or extra: for each side, pieces on
    /// the board + its reserve + pieces the opponent captured = `pieces_per_side`.
    pub fn from_setup(
        rules: Arc<FocusRules>,
        stacks: &[(Square, Stack)],
        reserve: [u16; 2],
        captured: [u16; 2],
        side_to_move: Seat,
    ) -> Result<Self, InvalidPosition> {
        let mut problems = Vec::new();
        let mut board = Box::new([Stack::EMPTY; 256]);
        let mut on_board = [0u32; 2];
        for &(sq, stack) in stacks {
            if !rules.board().contains(sq) {
                problems.push(format!("{sq} is not a square of the board"));
                continue;
            }
            if !board[sq.index()].is_empty() {
                problems.push(format!("{sq} is given twice"));
                continue;
            }
            if stack.height() > rules.height_limit() {
                problems.push(format!(
                    "the stack on {sq} ({stack}) is taller than the height limit {}",
                    rules.height_limit()
                ));
                continue;
            }
            board[sq.index()] = stack;
            for c in Seat::BOTH {
                on_board[c.index()] += u32::from(stack.count(c));
            }
        }
        for c in Seat::BOTH {
            let total = on_board[c.index()]
                + u32::from(reserve[c.index()])
                + u32::from(captured[c.other().index()]);
            if total != u32::from(rules.pieces_per_side()) {
                problems.push(format!(
                    "{c} has {} on the board + {} in reserve + {} captured by {} = {total} pieces, not {}",
                    on_board[c.index()],
                    reserve[c.index()],
                    captured[c.other().index()],
                    c.other(),
                    rules.pieces_per_side()
                ));
            }
        }
        if !problems.is_empty() {
            return Err(InvalidPosition { problems });
        }
        let mut pos = FocusPosition {
            rules,
            stacks: board,
            reserve,
            captured,
            controlled: [0; 2],
            side: side_to_move,
            ply: 0,
            hash: 0,
            history: Vec::new(),
            repeatable_from: 0,
        };
        for &sq in pos.rules.board().squares() {
            if let Some(c) = pos.stacks[sq.index()].top() {
                pos.controlled[c.index()] += 1;
            }
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

    /// The opponent pieces `color` has captured.
    pub fn captured_by(&self, color: Seat) -> u16 {
        self.captured[color.index()]
    }

    /// How many stacks `color` controls (has the top piece of).
    pub fn controlled_stacks(&self, color: Seat) -> u16 {
        self.controlled[color.index()]
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
        let mut h = if self.side == Seat::BLACK {
            zobrist::SIDE
        } else {
            0
        };
        for &sq in self.rules.board().squares() {
            h ^= zobrist::stack(sq, self.stacks[sq.index()]);
        }
        for c in Seat::BOTH {
            h ^= zobrist::reserve(c, self.reserve[c.index()]);
            h ^= zobrist::captured(c, self.captured[c.index()]);
        }
        h
    }

    /// Why `mv` cannot be played here, or `None` if it is legal.
    pub fn why_illegal(&self, mv: &FocusMove) -> Option<String> {
        if let Some(outcome) = self.outcome() {
            return Some(format!("the game is over ({outcome})"));
        }
        let board = self.rules.board();
        let me = self.side;
        match *mv {
            FocusMove::Move { from, to, count } => {
                for sq in [from, to] {
                    if !board.contains(sq) {
                        return Some(format!("{sq} is not a square of the board"));
                    }
                }
                let Some((_, distance)) = from.line_to(to) else {
                    return Some(format!(
                        "{from} and {to} are not on one rank or file; stacks move in a straight line, up, down, left or right"
                    ));
                };
                if distance != count {
                    return Some(format!(
                        "{count} lifted pieces move exactly {count} squares, but {from} to {to} is {distance}"
                    ));
                }
                let stack = self.stack(from);
                match stack.top() {
                    None => return Some(format!("there is no stack on {from}")),
                    Some(owner) if owner != me => {
                        return Some(format!(
                            "the stack on {from} is controlled by {owner} (its top piece), and it is {me}'s turn"
                        ));
                    }
                    Some(_) => {}
                }
                if count > stack.height() {
                    return Some(format!(
                        "the stack on {from} has {} piece{}, so it can move at most {} square{}, not {count}",
                        stack.height(),
                        plural(stack.height()),
                        stack.height(),
                        plural(stack.height()),
                    ));
                }
                None
            }
            FocusMove::Drop { to } => {
                if !board.contains(to) {
                    Some(format!("{to} is not a square of the board"))
                } else if self.reserve(me) == 0 {
                    Some(format!("{me} has no pieces in reserve"))
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
        let start = self.repeatable_from as usize;
        let len = self.history.len();
        if len < start + 2 {
            return 0;
        }
        // Same side to move: every second entry back from `len - 2`.
        self.history[start..len - 1]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == self.hash)
            .count()
    }

    /// A draw by a guard rule, or the first player's win under Sackson's option.
    fn drawn(&self, reason: EndReason) -> Outcome {
        if self.rules.draw_is_first_player_win() {
            Outcome::win(self.rules.first_player(), reason)
        } else {
            Outcome::draw(reason)
        }
    }
}

fn plural(n: u8) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl Position for FocusPosition {
    type Move = FocusMove;
    type Undo = FocusUndo;
    type Effect = FocusEffect;

    fn side_to_move(&self) -> Seat {
        self.side
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
        for &from in board.squares() {
            let stack = self.stacks[from.index()];
            if stack.top() != Some(me) {
                continue;
            }
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
        let mut n: u64 = board
            .squares()
            .iter()
            .map(|&sq| {
                let stack = self.stacks[sq.index()];
                if stack.top() == Some(me) {
                    u64::from(board.move_count(sq, stack.height()))
                } else {
                    0
                }
            })
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
                why,
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
            controlled: self.controlled,
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
        if !fallen.is_empty() {
            let own = fallen.count(me);
            let theirs = fallen.count(me.other());
            if own > 0 {
                self.add_reserve(me, i32::from(own));
            }
            if theirs > 0 {
                self.add_captured(me, u16::from(theirs));
                // Positions before a capture can never come back. (The history's length, not
                // the ply: a position read from text starts with an empty history.)
                self.repeatable_from = self.history.len() as u32;
            }
        }
        self.side = me.other();
        self.hash ^= zobrist::SIDE;
        self.ply += 1;
        undo
    }

    fn undo(&mut self, mv: &FocusMove, undo: FocusUndo) {
        if let FocusMove::Move { from, .. } = *mv {
            self.stacks[from.index()] = undo.from_before;
        }
        self.stacks[mv.to().index()] = undo.to_before;
        self.reserve = undo.reserve;
        self.captured = undo.captured;
        self.controlled = undo.controlled;
        self.hash = undo.hash;
        self.repeatable_from = undo.repeatable_from;
        self.side = self.side.other();
        self.ply -= 1;
        self.history.pop();
    }

    /// Decided at the start of the side to move's turn, in this order: the real end rule (no
    /// controlled stack and no reserve loses, A-F6), then the engine guards (repetition, ply
    /// cap; A-F5).
    fn outcome(&self) -> Option<Outcome> {
        let me = self.side;
        if self.controlled[me.index()] == 0 && self.reserve[me.index()] == 0 {
            return Some(Outcome::win(me.other(), EndReason::NoStackNoReserve));
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
