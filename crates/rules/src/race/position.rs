//! [`RacePosition`]: the board, whose turn it is, the repetition history and the cached outcome.
use std::{fmt, sync::Arc};

use super::{
    bitboard::{Bits, Wide},
    movegen::with_node,
    moves::{RaceEffect, RaceMove},
    parity,
    rules::{NoLegalMove, RaceRules, TargetLock, WinRule},
    square::Square,
};
use crate::{Color, EndReason, IllegalMove, NotationError, Outcome, Position};

const fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Zobrist keys per colour and bit index, fixed at compile time.
static PIECE_KEYS: [[u64; 256]; 2] = {
    let mut keys = [[0; 256]; 2];
    let mut i = 0;
    while i < 512 {
        keys[i / 256][i % 256] = splitmix64(0x5241_4345_0000_0000 ^ i as u64);
        i += 1;
    }
    keys
};
const BLACK_TO_MOVE_KEY: u64 = splitmix64(0x5241_4345_ffff_ffff);

/// A position of a jump-chain race game (Ugolki, Halma and mods).
#[derive(Clone)]
pub struct RacePosition {
    rules: Arc<RaceRules>,
    /// Pieces per colour, as bit indices `rank * width + file`.
    pieces: [Wide; 2],
    /// Both colours' pieces with their bit indices arranged by parity class (see
    /// `parity::split`), kept up to date so the move lists of a 16-wide board need not
    /// rearrange the board for every list (kept on every board: it costs two bit flips a ply).
    classes: Wide,
    side: Color,
    ply: u32,
    hash: u64,
    /// Hash of every position since the start (or construction), the current one last.
    history: Vec<u64>,
    /// Index into `history` of the first position after the last irreversible move: earlier
    /// positions cannot recur, so repetition checks stop there.
    fresh: u32,
    outcome: Option<Outcome>,
    /// `in_camp[owner][color]`: how many of `color`'s pieces stand in `owner`'s home camp,
    /// kept up to date so the win rules cost nothing per ply.
    in_camp: [[u8; 2]; 2],
}

/// Where the home-clear rule stands (see [`RacePosition::home_deadline`]). Per-side arrays
/// are indexed by [`Color::index`].
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
}

impl RacePosition {
    /// The start position: every camp square holds its owner's piece.
    pub fn new(rules: Arc<RaceRules>) -> Self {
        let pieces = rules.camp_bits;
        let side = rules.first_player();
        Self::assemble(rules, pieces, side, 0)
    }

    /// A hand-made position for tests and puzzles: White's and Black's squares, the side to
    /// move and the ply count (whose parity must agree with the side to move). The position is
    /// judged as if reached by a ply (so a finished game reports its outcome); its repetition
    /// history starts here.
    #[doc(hidden)]
    pub fn from_board(
        rules: Arc<RaceRules>,
        white: &[Square],
        black: &[Square],
        side_to_move: Color,
        ply: u32,
    ) -> Result<Self, String> {
        let mut pieces = [Wide::EMPTY; 2];
        for (color, squares) in [(Color::White, white), (Color::Black, black)] {
            for &s in squares {
                if !rules.on_board(s) {
                    return Err(format!(
                        "{s} is not on the {}×{} board",
                        rules.width(),
                        rules.height()
                    ));
                }
                let i = rules.index(s);
                if pieces[0].has(i) || pieces[1].has(i) {
                    return Err(format!("{s} is given twice"));
                }
                pieces[color.index()].set(i);
            }
        }
        let expected = if ply.is_multiple_of(2) {
            rules.first_player()
        } else {
            rules.first_player().other()
        };
        if side_to_move != expected {
            return Err(format!(
                "after {ply} plies it is {expected}'s turn ({} moves first)",
                rules.first_player()
            ));
        }
        Ok(Self::assemble(rules, pieces, side_to_move, ply))
    }

    fn assemble(rules: Arc<RaceRules>, pieces: [Wide; 2], side: Color, ply: u32) -> Self {
        let mut hash = if side == Color::Black {
            BLACK_TO_MOVE_KEY
        } else {
            0
        };
        for c in Color::BOTH {
            for i in pieces[c.index()].iter() {
                hash ^= PIECE_KEYS[c.index()][i];
            }
        }
        let classes = parity::split(&(pieces[0] | pieces[1]));
        let mut pos = RacePosition {
            rules,
            pieces,
            classes,
            side,
            ply,
            hash,
            history: vec![hash],
            fresh: 0,
            outcome: None,
            in_camp: [[0; 2]; 2],
        };
        for owner in Color::BOTH {
            for c in Color::BOTH {
                let n = (pos.pieces[c.index()] & pos.rules.camp_bits[owner.index()]).count();
                pos.in_camp[owner.index()][c.index()] = n.min(255) as u8;
            }
        }
        pos.outcome = pos.judge();
        pos
    }

    pub fn rules(&self) -> &Arc<RaceRules> {
        &self.rules
    }

    /// The piece on `s`, if any.
    pub fn piece_at(&self, s: Square) -> Option<Color> {
        if !self.rules.on_board(s) {
            return None;
        }
        let i = self.rules.index(s);
        Color::BOTH
            .into_iter()
            .find(|c| self.pieces[c.index()].has(i))
    }

    /// The squares of `side`'s pieces, in bit order (rank by rank from a1).
    pub fn pieces(&self, side: Color) -> Vec<Square> {
        self.pieces[side.index()]
            .iter()
            .map(|i| self.rules.square(i))
            .collect()
    }

    /// The squares of `side`'s pieces, in bit order, without allocating (for evaluation).
    pub fn piece_squares(&self, side: Color) -> impl Iterator<Item = Square> + '_ {
        self.pieces[side.index()]
            .iter()
            .map(|i| self.rules.square(i))
    }

    /// How many of `side`'s pieces stand in its target camp.
    pub fn pieces_in_target(&self, side: Color) -> u32 {
        u32::from(self.in_camp[side.other().index()][side.index()])
    }

    /// The pieces of `side` standing on its own home (start) squares.
    pub fn pieces_at_home(&self, side: Color) -> Vec<Square> {
        (self.pieces[side.index()] & self.rules.camp_bits[side.index()])
            .iter()
            .map(|i| self.rules.square(i))
            .collect()
    }

    /// The home-clear rule (9qum's 40-move rule, `home_clear_ply`) as it stands before its
    /// check: how many turns each side has left and which of its pieces are still at home.
    /// `None` when the variant has no such rule or the check is already behind (or is this
    /// very position, which the rule has judged).
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
                self.pieces_at_home(Color::White),
                self.pieces_at_home(Color::Black),
            ],
        })
    }

    /// The legal destinations of the piece on `from` (empty unless it is the mover's).
    pub fn destinations(&self, from: Square) -> Vec<Square> {
        if self.outcome.is_some() || self.piece_at(from) != Some(self.side) {
            return Vec::new();
        }
        let i = self.rules.index(from);
        let dests: Vec<usize> = with_node!(&self.rules, &self.pieces, self.side, node => {
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
        with_node!(&self.rules, &self.pieces, self.side, node => {
            node.piece_moves(i, &mut out);
        });
        out
    }

    /// The legal move `from → to` with its representative path.
    pub(crate) fn representative(&self, from: Square, to: Square) -> Option<RaceMove> {
        self.piece_moves(from).into_iter().find(|m| m.to() == to)
    }

    fn has_legal_move(&self) -> bool {
        with_node!(&self.rules, &self.pieces, self.side, node => node.has_move())
    }

    /// `side` has met its winning condition on the current board.
    #[inline]
    fn finished(&self, side: Color) -> bool {
        let target = &self.in_camp[side.other().index()];
        let size = self.rules.pieces_per_side();
        let own = usize::from(target[side.index()]);
        match self.rules.win() {
            WinRule::FillWithOwn => own == size,
            WinRule::FullWithAnyOwn => {
                own > 0 && own + usize::from(target[side.other().index()]) == size
            }
        }
    }

    fn finish_reason(&self, side: Color) -> EndReason {
        if self.pieces_in_target(side) as usize == self.rules.pieces_per_side() {
            EndReason::TargetFilled
        } else {
            EndReason::TargetBlockedButReached
        }
    }

    /// The end rules, in the order of rules.md A-U9, judged for the position just reached
    /// (the side that moved last is the other side): the finish (with the equalising reply),
    /// the home-clear rule, the count, no legal move, then the guards (repetition, ply cap).
    fn judge(&self) -> Option<Outcome> {
        let rules = &*self.rules;
        let mover = self.side.other();
        let mut reply_owed = false;
        if rules.equalising_reply() {
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
        } else {
            for side in [mover, mover.other()] {
                if self.finished(side) {
                    return Some(Outcome::win(side, self.finish_reason(side)));
                }
            }
        }
        if !reply_owed {
            if rules.home_clear_ply() == Some(self.ply) {
                let at_home =
                    |c: Color| !(self.pieces[c.index()] & rules.camp_bits[c.index()]).is_zero();
                match (at_home(Color::White), at_home(Color::Black)) {
                    (true, true) => return Some(Outcome::draw(EndReason::HomeNotVacated)),
                    (true, false) => {
                        return Some(Outcome::win(Color::Black, EndReason::HomeNotVacated));
                    }
                    (false, true) => {
                        return Some(Outcome::win(Color::White, EndReason::HomeNotVacated));
                    }
                    (false, false) => {}
                }
            }
            if rules.count_ply().is_some_and(|c| self.ply >= c) {
                let white = self.pieces_in_target(Color::White).min(255) as u8;
                let black = self.pieces_in_target(Color::Black).min(255) as u8;
                let reason = EndReason::PieceCount { white, black };
                return Some(match white.cmp(&black) {
                    std::cmp::Ordering::Greater => Outcome::win(Color::White, reason),
                    std::cmp::Ordering::Less => Outcome::win(Color::Black, reason),
                    std::cmp::Ordering::Equal => Outcome::draw(reason),
                });
            }
        }
        if !self.has_legal_move() {
            return Some(match rules.no_legal_move() {
                NoLegalMove::Loses => Outcome::win(mover, EndReason::NoLegalMoves),
                NoLegalMove::Draw => Outcome::draw(EndReason::NoLegalMoves),
            });
        }
        if reply_owed {
            return None;
        }
        // A position recurs four plies later at the earliest, so its n-th occurrence needs at
        // least 4(n-1)+1 positions since the last irreversible move (9 for threefold).
        if let Some(n) = rules.repetition_draw().map(usize::from)
            && self.history.len() - self.fresh as usize > 4 * (n - 1)
            && self.occurrences() >= n
        {
            return Some(Outcome::draw(EndReason::Repetition));
        }
        if rules.ply_cap().is_some_and(|cap| self.ply >= cap) {
            return Some(Outcome::draw(EndReason::PlyCap));
        }
        None
    }

    /// How often the current position (board and side to move) has occurred, this time included.
    pub fn occurrences(&self) -> usize {
        self.history[self.fresh as usize..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == self.hash)
            .count()
    }

    /// A move that can never be undone by later moves: leaving home under the no-return rule,
    /// or entering the target under a lock.
    fn is_irreversible(&self, side: Color, from: usize, to: usize) -> bool {
        let rules = &*self.rules;
        let home = rules.camp_bits[side.index()];
        let target = rules.camp_bits[side.other().index()];
        (rules.no_return_home() && home.has(from) && !home.has(to))
            || (rules.target_lock() != TargetLock::Off && !target.has(from) && target.has(to))
    }

    #[inline]
    fn move_camp_counts(&mut self, side: Color, from: usize, to: usize) {
        for owner in 0..2 {
            let camp = &self.rules.camp_bits[owner];
            let n = &mut self.in_camp[owner][side.index()];
            *n = *n - u8::from(camp.has(from)) + u8::from(camp.has(to));
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

impl Position for RacePosition {
    type Move = RaceMove;
    type Undo = RaceUndo;
    type Effect = RaceEffect;

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn legal_moves(&self, moves: &mut Vec<RaceMove>) {
        moves.clear();
        if self.outcome.is_some() {
            return;
        }
        with_node!(&self.rules, &self.pieces, self.side, node => node.moves(moves, &self.classes));
    }

    fn count_legal_moves(&self) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        with_node!(&self.rules, &self.pieces, self.side, node => node.count())
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
                why: self.why_illegal(mv.from(), mv.to()),
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
        };
        let (from, to) = self.ends(mv);
        let side = self.side;
        let bits = &mut self.pieces[side.index()];
        bits.clear(from);
        bits.set(to);
        self.classes.toggle(parity::class_bit(from));
        self.classes.toggle(parity::class_bit(to));
        let keys = &PIECE_KEYS[side.index()];
        self.hash ^= keys[from] ^ keys[to] ^ BLACK_TO_MOVE_KEY;
        self.move_camp_counts(side, from, to);
        if self.is_irreversible(side, from, to) {
            self.fresh = self.history.len() as u32;
        }
        self.history.push(self.hash);
        self.side = side.other();
        self.ply += 1;
        self.outcome = self.judge();
        undo
    }

    #[inline]
    fn undo(&mut self, mv: &RaceMove, undo: RaceUndo) {
        let (from, to) = self.ends(mv);
        self.side = self.side.other();
        self.ply -= 1;
        let bits = &mut self.pieces[self.side.index()];
        bits.clear(to);
        bits.set(from);
        self.classes.toggle(parity::class_bit(to));
        self.classes.toggle(parity::class_bit(from));
        self.move_camp_counts(self.side, to, from);
        self.history.pop();
        self.hash = *self
            .history
            .last()
            .expect("history holds the start position");
        self.outcome = undo.outcome;
        self.fresh = undo.fresh;
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
        f.debug_struct("RacePosition")
            .field("white", &self.pieces(Color::White))
            .field("black", &self.pieces(Color::Black))
            .field("side_to_move", &self.side)
            .field("ply", &self.ply)
            .field("outcome", &self.outcome)
            .finish()
    }
}
