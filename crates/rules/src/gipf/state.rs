//! The plain-data game state and the rule mechanics on it: pushes, rows, removal steps, end
//! checks. [`super::position`] strings them into turns; everything here is `Copy` so that
//! `undo` is a copy back and move generation works on scratch copies.
use super::{
    geometry::{Direction, LINE_COUNT, Point, SPOT_COUNT, Spot, geometry},
    moves::Action,
    piece::{Piece, PieceKind},
    spec::{GipfEntry, GipfRemoval, GipfReturn, GipfRules, LoseWhen},
    zobrist::KEYS,
};
use crate::{EndReason, Outcome, Seat};

/// Every spot occupied.
pub(crate) const ALL_SPOTS: u64 = (1 << SPOT_COUNT) - 1;
pub(crate) const ALL_LINES: u32 = (1 << LINE_COUNT) - 1;

const MOVED: u8 = 1; // << color: the player has taken a turn (A-G13, tournament first turn)
const BASIC_ENTERED: u8 = 4; // << color: the player has entered a basic piece (tournament)

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct State {
    /// Cell codes ([`Piece::code`]), 0 = empty.
    pub cells: [u8; SPOT_COUNT],
    pub occ: u64,
    pub color_bb: [u64; 2],
    pub gipf_bb: u64,
    /// Basic pieces in reserve.
    pub reserve: [u8; 2],
    /// GIPF-pieces in reserve (seed variant only).
    pub gipf_reserve: [u8; 2],
    /// Units of this colour captured by the opponent (GIPF-piece = 2).
    pub captured: [u8; 2],
    /// Lines whose row of four was kept whole by its owner (A-G14): not offered again until
    /// the line changes. Only ever set on lines that hold such a row.
    pub settled: u32,
    pub flags: u8,
    /// The side to move has rows of its own colour to remove, with a choice, before acting.
    pub pending: bool,
    pub to_move: Seat,
    pub ply: u32,
    pub hash: u64,
    pub outcome: Option<Outcome>,
}

/// One row taken in a removal step: the row's line, the whole run (row plus extension) and the
/// GIPF-pieces the taker kept.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct RowChoice {
    pub line: u8,
    pub run: u64,
    pub kept: u64,
}

#[inline]
fn lines_touched(mask: u64) -> u32 {
    let g = geometry();
    Spot::iter_mask(mask).fold(0, |acc, s| acc | g.lines_of[s.index()])
}

impl State {
    pub fn empty(to_move: Seat) -> State {
        let mut st = State {
            cells: [0; SPOT_COUNT],
            occ: 0,
            color_bb: [0; 2],
            gipf_bb: 0,
            reserve: [0; 2],
            gipf_reserve: [0; 2],
            captured: [0; 2],
            settled: 0,
            flags: 0,
            pending: false,
            to_move,
            ply: 0,
            hash: 0,
            outcome: None,
        };
        st.hash = st.full_hash();
        st
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn full_hash(&self) -> u64 {
        let mut h = 0;
        for s in 0..SPOT_COUNT {
            h ^= KEYS.cell[s][self.cells[s] as usize];
        }
        for c in 0..2 {
            h ^= KEYS.reserve[c][self.reserve[c] as usize];
            h ^= KEYS.gipf_reserve[c][self.gipf_reserve[c] as usize];
        }
        for l in 0..LINE_COUNT {
            if self.settled & (1 << l) != 0 {
                h ^= KEYS.settled[l];
            }
        }
        for b in 0..4 {
            if self.flags & (1 << b) != 0 {
                h ^= KEYS.flags[b];
            }
        }
        if self.pending {
            h ^= KEYS.pending;
        }
        if self.to_move == Seat::BLACK {
            h ^= KEYS.black_to_move;
        }
        h
    }

    #[inline]
    pub fn piece_at(&self, s: Spot) -> Option<Piece> {
        Piece::from_code(self.cells[s.index()])
    }

    #[inline]
    pub fn set(&mut self, s: Spot, code: u8) {
        let i = s.index();
        let old = self.cells[i];
        self.hash ^= KEYS.cell[i][old as usize] ^ KEYS.cell[i][code as usize];
        self.cells[i] = code;
        let bit = s.bit();
        self.occ &= !bit;
        self.color_bb[0] &= !bit;
        self.color_bb[1] &= !bit;
        self.gipf_bb &= !bit;
        if let Some(p) = Piece::from_code(code) {
            self.occ |= bit;
            self.color_bb[p.color.index()] |= bit;
            if p.kind == PieceKind::Gipf {
                self.gipf_bb |= bit;
            }
        }
    }

    pub fn set_reserve(&mut self, c: Seat, n: u8) {
        let i = c.index();
        self.hash ^= KEYS.reserve[i][self.reserve[i] as usize] ^ KEYS.reserve[i][n as usize];
        self.reserve[i] = n;
    }

    pub fn set_gipf_reserve(&mut self, c: Seat, n: u8) {
        let i = c.index();
        self.hash ^=
            KEYS.gipf_reserve[i][self.gipf_reserve[i] as usize] ^ KEYS.gipf_reserve[i][n as usize];
        self.gipf_reserve[i] = n;
    }

    pub fn set_settled(&mut self, settled: u32) {
        let mut diff = self.settled ^ settled;
        while diff != 0 {
            let l = diff.trailing_zeros() as usize;
            self.hash ^= KEYS.settled[l];
            diff &= diff - 1;
        }
        self.settled = settled;
    }

    fn set_flag(&mut self, bit: u8) {
        if self.flags & bit == 0 {
            self.flags |= bit;
            self.hash ^= KEYS.flags[bit.trailing_zeros() as usize];
        }
    }

    pub fn set_pending(&mut self, pending: bool) {
        if self.pending != pending {
            self.pending = pending;
            self.hash ^= KEYS.pending;
        }
    }

    pub fn pass_turn(&mut self) {
        self.to_move = self.to_move.other();
        self.hash ^= KEYS.black_to_move;
        self.ply += 1;
    }

    pub fn set_moved(&mut self, c: Seat, moved: bool, basic_entered: bool) {
        if moved {
            self.set_flag(MOVED << c.index());
        }
        if basic_entered {
            self.set_flag(BASIC_ENTERED << c.index());
        }
    }

    pub fn moved(&self, c: Seat) -> bool {
        self.flags & (MOVED << c.index()) != 0
    }

    pub fn basic_entered(&self, c: Seat) -> bool {
        self.flags & (BASIC_ENTERED << c.index()) != 0
    }

    pub fn gipf_on_board(&self, c: Seat) -> u32 {
        (self.color_bb[c.index()] & self.gipf_bb).count_ones()
    }

    /// Pieces on the board (GIPF-piece = 1) and in reserve (either kind).
    pub fn pieces(&self, c: Seat) -> u32 {
        self.color_bb[c.index()].count_ones()
            + u32::from(self.reserve[c.index()])
            + u32::from(self.gipf_reserve[c.index()])
    }

    /// Material on the board in basic-piece units (GIPF-piece = 2).
    pub fn board_units(&self, c: Seat) -> u32 {
        self.color_bb[c.index()].count_ones() + self.gipf_on_board(c)
    }

    // ----- rows -------------------------------------------------------------------------

    /// The whole run (row plus its contiguous extension) of a row of four or more `c` pieces on
    /// line `l`, ignoring the spots in `removed`; 0 if there is no such row. A line of at most
    /// seven spots holds at most one row.
    #[inline]
    pub fn row_run(&self, l: usize, c: Seat, removed: u64) -> u64 {
        let line = &geometry().lines[l];
        let mine = self.color_bb[c.index()] & !removed;
        // Fewer than four of `c`'s pieces on the line: none left after dropping three (cheaper
        // than a popcount on the baseline x86-64 target, which has no popcount instruction).
        let on_line = mine & line.mask;
        let past_three = on_line & on_line.wrapping_sub(1);
        let past_three = past_three & past_three.wrapping_sub(1);
        if past_three & past_three.wrapping_sub(1) == 0 {
            return 0;
        }
        let occ = self.occ & !removed;
        let (mut run, mut streak, mut found) = (0u64, 0, false);
        for s in line.ray.spots() {
            let bit = s.bit();
            if occ & bit == 0 {
                if found {
                    return run;
                }
                run = 0;
                streak = 0;
                continue;
            }
            run |= bit;
            if mine & bit != 0 {
                streak += 1;
                found |= streak >= 4;
            } else {
                streak = 0;
            }
        }
        if found { run } else { 0 }
    }

    /// Lines among `lines` (and not settled) that hold a row of `c`.
    pub fn row_lines(&self, c: Seat, lines: u32) -> u32 {
        let mut found = 0;
        let mut ls = lines & !self.settled;
        while ls != 0 {
            let l = ls.trailing_zeros() as usize;
            ls &= ls - 1;
            if self.row_run(l, c, 0) != 0 {
                found |= 1 << l;
            }
        }
        found
    }

    /// The GIPF-pieces `taker` may choose to keep when they stand in a row he takes.
    fn optional_gipf(&self, rules: &GipfRules, taker: Seat) -> u64 {
        let mut m = 0;
        for owner in Seat::BOTH {
            if rules.gipf_removal(taker, owner) == GipfRemoval::Optional {
                m |= self.color_bb[owner.index()] & self.gipf_bb;
            }
        }
        m
    }

    /// Every distinct outcome of `owner`'s removal step, as the set of spots it removes
    /// (sorted by the spot lists; a single `0` when there is no row). Rows can only stand on `candidates` (the
    /// lines the turn changed): a removal never creates a row.
    ///
    /// The procedure (A-G6, A-G11, A-G14): while an unsettled row of `owner` exists, he takes one
    /// of them (any; rows that do not interact give the same result in any order, so the set
    /// of outcomes is that of the official "choose only among intersecting rows"), keeping any
    /// subset of the optional GIPF-pieces of its run. A row kept whole is settled.
    pub fn removal_options(
        &self,
        rules: &GipfRules,
        owner: Seat,
        candidates: u32,
        out: &mut Vec<u64>,
    ) {
        out.clear();
        let lines = self.row_lines(owner, candidates);
        if lines == 0 {
            out.push(0);
            return;
        }
        let optional = self.optional_gipf(rules, owner);
        let mut visited = Vec::new();
        self.explore(
            owner,
            lines,
            optional,
            0,
            self.settled,
            &mut visited,
            &mut |removed, _| {
                if !out.contains(&removed) {
                    out.push(removed);
                }
                false
            },
            &mut Vec::new(),
        );
        // In reading order: by the spot lists, compared name by name.
        out.sort_unstable_by(|&a, &b| Spot::iter_mask(a).cmp(Spot::iter_mask(b)));
    }

    /// A sequence of row choices whose removals add up to `target` (for the effect).
    pub fn removal_path(
        &self,
        rules: &GipfRules,
        owner: Seat,
        candidates: u32,
        target: u64,
    ) -> Option<Vec<RowChoice>> {
        let lines = self.row_lines(owner, candidates);
        if lines == 0 {
            return (target == 0).then(Vec::new);
        }
        let optional = self.optional_gipf(rules, owner);
        let mut result = None;
        self.explore(
            owner,
            lines,
            optional,
            0,
            self.settled,
            &mut Vec::new(),
            &mut |removed, path: &[RowChoice]| {
                if removed == target {
                    result = Some(path.to_vec());
                    true
                } else {
                    false
                }
            },
            &mut Vec::new(),
        );
        result
    }

    /// Depth-first search over removal sequences; `leaf` gets each final removed set with the
    /// path to it and returns `true` to stop. `visited` prunes repeated `(removed, settled)`.
    #[allow(clippy::too_many_arguments)]
    fn explore(
        &self,
        owner: Seat,
        lines: u32,
        optional: u64,
        removed: u64,
        settled: u32,
        visited: &mut Vec<(u64, u32)>,
        leaf: &mut dyn FnMut(u64, &[RowChoice]) -> bool,
        path: &mut Vec<RowChoice>,
    ) -> bool {
        let mut any = false;
        let mut ls = lines & !settled;
        while ls != 0 {
            let l = ls.trailing_zeros() as usize;
            ls &= ls - 1;
            let run = self.row_run(l, owner, removed);
            if run == 0 {
                continue;
            }
            any = true;
            let choosable = optional & run;
            // Every subset of the optional GIPF-pieces may be kept.
            let mut keep = choosable;
            loop {
                let take = run & !keep;
                let next = if take == 0 {
                    (removed, settled | (1 << l))
                } else {
                    (removed | take, settled & !lines_touched(take))
                };
                if !visited.contains(&next) {
                    visited.push(next);
                    path.push(RowChoice {
                        line: l as u8,
                        run,
                        kept: keep,
                    });
                    let stop =
                        self.explore(owner, lines, optional, next.0, next.1, visited, leaf, path);
                    path.pop();
                    if stop {
                        return true;
                    }
                }
                if keep == 0 {
                    break;
                }
                keep = (keep - 1) & choosable;
            }
        }
        if !any {
            return leaf(removed, path);
        }
        false
    }

    /// Takes the pieces of `mask` off the board as `owner`'s removal step: own pieces to his
    /// reserve, others captured. Then marks as settled every row of `owner` still standing
    /// (all of them were kept whole, A-G14) and forgets settled rows on changed lines.
    pub fn apply_removal(&mut self, rules: &GipfRules, owner: Seat, mask: u64) {
        for s in Spot::iter_mask(mask) {
            let Some(p) = self.piece_at(s) else { continue };
            self.set(s, 0);
            if p.color == owner {
                match (p.kind, rules.own_gipf_returns_as) {
                    (PieceKind::Basic, _) => {
                        self.set_reserve(owner, self.reserve[owner.index()] + 1)
                    }
                    (PieceKind::Gipf, GipfReturn::TwoBasicPieces) => {
                        self.set_reserve(owner, self.reserve[owner.index()] + 2)
                    }
                    (PieceKind::Gipf, GipfReturn::GipfPiece) => {
                        self.set_gipf_reserve(owner, self.gipf_reserve[owner.index()] + 1)
                    }
                }
            } else {
                self.captured[p.color.index()] += p.units() as u8;
            }
        }
        let kept = self.settled & !lines_touched(mask);
        let standing = {
            let saved = self.settled;
            self.settled = 0;
            let rows = self.row_lines(owner, ALL_LINES);
            self.settled = saved;
            rows
        };
        self.set_settled(kept | standing);
    }

    // ----- actions ----------------------------------------------------------------------

    /// Which kinds of piece `c` may enter now: `(basic, gipf)`.
    pub fn entry_kinds(&self, rules: &GipfRules, c: Seat) -> (bool, bool) {
        let i = c.index();
        let first_turn_gipf = rules.gipf_first_turn && !self.moved(c);
        let basic = self.reserve[i] >= 1 && !first_turn_gipf;
        let gipf_allowed = !(rules.gipf_until_first_basic && self.basic_entered(c));
        let gipf = gipf_allowed
            && match rules.gipf_entry {
                GipfEntry::Never => false,
                GipfEntry::FromTwoBasic => self.reserve[i] >= 2,
                GipfEntry::FromGipfReserve => self.gipf_reserve[i] >= 1,
            };
        (basic, gipf)
    }

    /// Whether `c` may make on-board steps now (seed variant; not on a turn that must enter a
    /// GIPF-piece).
    pub fn steps_allowed(&self, rules: &GipfRules, c: Seat) -> bool {
        rules.board_steps && (self.moved(c) || !rules.gipf_first_turn)
    }

    /// The target spot and the push ray of a step, if the step stays in the play area and the
    /// push does not run off the board.
    #[inline]
    pub fn step_target(&self, from: Spot, dir: Direction) -> Option<Spot> {
        let g = geometry();
        match g.neighbour(from, dir) {
            Some(Point::Spot(t)) => {
                let ray = g.ray(t, dir);
                let mask = ray.spots().iter().fold(0, |m, s| m | s.bit());
                (self.occ & mask != mask).then_some(t)
            }
            _ => None,
        }
    }

    /// Shifts the contiguous run starting at `ray[0]` one spot along the ray (there must be an
    /// empty spot on it) and returns the spots that changed. `ray[0]` is left as it was.
    #[inline]
    fn push_ray(&mut self, ray: &[Spot]) -> u64 {
        let k = ray
            .iter()
            .position(|s| self.occ & s.bit() == 0)
            .expect("a legal push has an empty spot on its line");
        let mut changed = 0;
        for i in (0..k).rev() {
            let code = self.cells[ray[i].index()];
            self.set(ray[i + 1], code);
            changed |= ray[i + 1].bit();
        }
        changed | ray[0].bit()
    }

    /// Plays the action of `c` (assumed legal) and returns the spots that changed.
    pub fn apply_action(&mut self, rules: &GipfRules, c: Seat, action: Action) -> u64 {
        let g = geometry();
        let changed = match action {
            Action::Entry { entry, kind } => {
                let e = &g.entries[entry as usize];
                let changed = self.push_ray(e.ray.spots());
                self.set(e.spot, Piece::new(c, kind).code());
                let i = c.index();
                match (kind, rules.gipf_entry) {
                    (PieceKind::Basic, _) => self.set_reserve(c, self.reserve[i] - 1),
                    (PieceKind::Gipf, GipfEntry::FromGipfReserve) => {
                        self.set_gipf_reserve(c, self.gipf_reserve[i] - 1)
                    }
                    (PieceKind::Gipf, _) => self.set_reserve(c, self.reserve[i] - 2),
                }
                self.set_moved(c, true, kind == PieceKind::Basic);
                changed
            }
            Action::Step { from, dir } => {
                let Some(Point::Spot(t)) = g.neighbour(from, dir) else {
                    unreachable!("a legal step goes to a spot")
                };
                let changed = self.push_ray(g.ray(t, dir).spots());
                let code = self.cells[from.index()];
                self.set(t, code);
                self.set(from, 0);
                self.set_moved(c, true, false);
                changed | from.bit()
            }
        };
        // A line that changed no longer holds a settled row (A-G14).
        self.set_settled(self.settled & !lines_touched(changed));
        changed
    }

    /// The lines through the spots of `changed`.
    pub fn lines_through(changed: u64) -> u32 {
        lines_touched(changed)
    }

    /// Whether `c` has any legal action (entry or step) in this state.
    pub fn has_action(&self, rules: &GipfRules, c: Seat) -> bool {
        let (basic, gipf) = self.entry_kinds(rules, c);
        // An empty spot lies on a line with an entry at both ends.
        if (basic || gipf) && self.occ != ALL_SPOTS {
            return true;
        }
        if self.steps_allowed(rules, c) {
            for from in Spot::iter_mask(self.color_bb[c.index()]) {
                if Direction::ALL
                    .iter()
                    .any(|&d| self.step_target(from, d).is_some())
                {
                    return true;
                }
            }
        }
        false
    }

    // ----- end of the game ----------------------------------------------------------------

    fn lacks_gipf(&self, rules: &GipfRules, c: Seat) -> bool {
        rules.lose_without_gipf && self.moved(c) && self.gipf_on_board(c) == 0
    }

    /// Checks after a removal step made by `maker` (A-G7, A-G12): a player without GIPF-piece
    /// loses (the maker first, if the step left both without one); in the seed variant a player
    /// without pieces loses.
    pub fn after_step(&self, rules: &GipfRules, maker: Seat) -> Option<Outcome> {
        let other = maker.other();
        if self.lacks_gipf(rules, maker) {
            return Some(Outcome::win(other, EndReason::NoGipfPiece));
        }
        if self.lacks_gipf(rules, other) {
            return Some(Outcome::win(maker, EndReason::NoGipfPiece));
        }
        if rules.lose_when == LoseWhen::NoPiecesLeft {
            if self.pieces(maker) == 0 {
                return Some(Outcome::win(other, EndReason::Annihilated));
            }
            if self.pieces(other) == 0 {
                return Some(Outcome::win(maker, EndReason::Annihilated));
            }
        }
        None
    }

    /// Checks for `q`, who is about to act (all removals done): material and legal actions.
    pub fn before_action(&self, rules: &GipfRules, q: Seat) -> Option<Outcome> {
        let other = q.other();
        if let Some(o) = self.after_step(rules, other) {
            return Some(o);
        }
        match rules.lose_when {
            LoseWhen::ReserveEmpty => {
                if self.reserve[q.index()] == 0 && self.gipf_reserve[q.index()] == 0 {
                    return Some(Outcome::win(other, EndReason::ReserveExhausted));
                }
            }
            LoseWhen::NoPiecesLeft => {}
        }
        if !self.has_action(rules, q) {
            return Some(Outcome::win(other, EndReason::NoLegalMoves));
        }
        None
    }

    /// The outcome when a turn begins: the material checks (deferred until after the pending
    /// removal decision, if there is one), then the ply cap.
    pub fn at_turn_start(&self, rules: &GipfRules) -> Option<Outcome> {
        if !self.pending
            && let Some(o) = self.before_action(rules, self.to_move)
        {
            return Some(o);
        }
        rules
            .ply_cap
            .is_some_and(|cap| self.ply >= cap)
            .then_some(Outcome::draw(EndReason::PlyCap))
    }
}
