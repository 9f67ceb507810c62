//! [`GipfPosition`]: turns (removal decision, action, removal steps, end checks), legal move
//! generation, notation and the [`Position`] implementation.
use std::sync::Arc;

use super::{
    effect::{ActionEffect, Destination, GipfEffect, RemovalStep, RemovedPiece, RemovedRow, Shift},
    error::{Illegal, SetupError},
    geometry::{Direction, Point, Spot, geometry},
    moves::{Action, GipfMove, SpotSet},
    piece::{Piece, PieceKind},
    spec::{GipfEntry, GipfRules},
    state::{ALL_LINES, State},
};
use crate::{IllegalMove, NotationError, Outcome, Position, Seat};

/// A GIPF position: the board, both reserves and captures, the side to move and any removal
/// decision it still has to make.
#[derive(Clone)]
pub struct GipfPosition {
    rules: Arc<GipfRules>,
    st: State,
}

/// Same rules, same state (board, reserves, flags, side to move, ply, pending decision).
impl PartialEq for GipfPosition {
    fn eq(&self, other: &Self) -> bool {
        self.st == other.st && (Arc::ptr_eq(&self.rules, &other.rules) || self.rules == other.rules)
    }
}

impl Eq for GipfPosition {}

/// What `undo` restores: the whole state before the move (it is small and `Copy`).
pub struct GipfUndo(State);

impl std::fmt::Debug for GipfPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GipfPosition {{ hash: {:#018x} }}\n{self}", self.st.hash)
    }
}

/// A hand-made position for tests, puzzles and analysis, checked by
/// [`GipfPosition::from_setup`].
#[derive(Clone, Debug)]
pub struct GipfSetup {
    pub pieces: Vec<(Spot, Piece)>,
    /// Basic pieces in each reserve (by [`Seat::index`]).
    pub reserve: [u8; 2],
    pub gipf_reserve: [u8; 2],
    pub to_move: Seat,
    /// Whether each player has taken a turn already (tournament first-turn rule, A-G13).
    pub moved: [bool; 2],
    /// Whether each player has entered a basic piece (tournament GIPF-first rule).
    pub basic_entered: [bool; 2],
    pub ply: u32,
}

impl GipfSetup {
    /// A setup from a board description like `"White: e2 e3 Ge4; Black: e6 Gh2"` (`G` marks a
    /// GIPF-piece), with both players having moved, empty reserves and White to move; adjust
    /// the public fields afterwards.
    pub fn parse(board: &str) -> Result<GipfSetup, String> {
        let mut pieces = Vec::new();
        for part in board.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let (side, spots) = part
                .split_once(':')
                .ok_or_else(|| format!("`{part}`: expected `White: …` or `Black: …`"))?;
            let color = match side.trim() {
                "White" | "W" => Seat::WHITE,
                "Black" | "B" => Seat::BLACK,
                other => return Err(format!("`{other}` is not White or Black")),
            };
            for token in spots.split_whitespace() {
                let (kind, name) = match token.strip_prefix('G') {
                    Some(rest) => (PieceKind::Gipf, rest),
                    None => (PieceKind::Basic, token),
                };
                let spot = Spot::from_name(name)
                    .ok_or_else(|| format!("`{name}` is not a spot of the board"))?;
                pieces.push((spot, Piece::new(color, kind)));
            }
        }
        Ok(GipfSetup {
            pieces,
            reserve: [0; 2],
            gipf_reserve: [0; 2],
            to_move: Seat::WHITE,
            moved: [true; 2],
            basic_entered: [true; 2],
            ply: 2,
        })
    }
}

impl GipfPosition {
    /// The start position of the variant.
    pub fn new(rules: Arc<GipfRules>) -> GipfPosition {
        let mut st = State::empty(rules.first_player);
        for &(s, p) in &rules.start {
            st.set(s, p.code());
        }
        for c in Seat::BOTH {
            st.set_reserve(c, rules.reserve[c.index()]);
            st.set_gipf_reserve(c, rules.gipf_reserve[c.index()]);
        }
        st.outcome = st.at_turn_start(&rules);
        GipfPosition { rules, st }
    }

    /// A hand-made position. Rejects two pieces on one spot, more material than the variant
    /// gives a player, and rows of four (they would have been taken already).
    pub fn from_setup(
        rules: Arc<GipfRules>,
        setup: &GipfSetup,
    ) -> Result<GipfPosition, SetupError> {
        Self::from_setup_with(rules, setup, false, 0)
    }

    /// [`GipfPosition::from_setup`] with the two things only a position in mid-game has: a
    /// pending removal decision of the side to move (its rows of four then stand on the board,
    /// and it must have a choice about them) and settled lines (bit `l` = `geometry().lines[l]`,
    /// each holding a row its owner kept whole, A-G14).
    pub(crate) fn from_setup_with(
        rules: Arc<GipfRules>,
        setup: &GipfSetup,
        pending: bool,
        settled: u32,
    ) -> Result<GipfPosition, SetupError> {
        let mut st = State::empty(setup.to_move);
        st.set_settled(settled);
        for &(s, p) in &setup.pieces {
            if st.piece_at(s).is_some() {
                return Err(SetupError::TwoPieces { spot: s });
            }
            st.set(s, p.code());
        }
        for c in Seat::BOTH {
            let i = c.index();
            st.set_reserve(c, setup.reserve[i]);
            st.set_gipf_reserve(c, setup.gipf_reserve[i]);
            st.set_moved(c, setup.moved[i], setup.basic_entered[i]);
            let owned = st.board_units(c)
                + u32::from(setup.reserve[i])
                + 2 * u32::from(setup.gipf_reserve[i]);
            let total = rules.total_units[i];
            if owned > total {
                return Err(SetupError::TooMuchMaterial {
                    seat: c,
                    owned,
                    total,
                });
            }
            st.captured[i] = (total - owned) as u8;
            if st.row_lines(c, ALL_LINES) != 0 && !(pending && c == setup.to_move) {
                return Err(SetupError::RowOfFour { seat: c });
            }
        }
        for l in 0..geometry().lines.len() {
            if settled & (1 << l) != 0 && Seat::BOTH.iter().all(|&c| st.row_run(l, c, 0) == 0) {
                return Err(SetupError::SettledWithoutRow {
                    line: geometry().lines[l].ray.spots()[0],
                });
            }
        }
        if pending {
            let mut opts = Vec::new();
            st.removal_options(&rules, setup.to_move, ALL_LINES, &mut opts);
            if opts.len() < 2 {
                let seat = setup.to_move;
                return Err(if opts == [0] {
                    SetupError::PendingWithoutRow { seat }
                } else {
                    SetupError::PendingWithoutChoice { seat }
                });
            }
            st.set_pending(true);
        }
        st.ply = setup.ply;
        st.outcome = st.at_turn_start(&rules);
        Ok(GipfPosition { rules, st })
    }

    pub fn rules(&self) -> &Arc<GipfRules> {
        &self.rules
    }

    pub fn piece_at(&self, s: Spot) -> Option<Piece> {
        self.st.piece_at(s)
    }

    /// Basic pieces in `c`'s reserve.
    pub fn reserve(&self, c: Seat) -> u32 {
        u32::from(self.st.reserve[c.index()])
    }

    /// GIPF-pieces in `c`'s reserve (seed variant with GIPF-pieces).
    pub fn gipf_reserve(&self, c: Seat) -> u32 {
        u32::from(self.st.gipf_reserve[c.index()])
    }

    /// Material of colour `c` captured by the opponent, in basic-piece units (GIPF-piece = 2).
    pub fn captured(&self, c: Seat) -> u32 {
        u32::from(self.st.captured[c.index()])
    }

    /// `c`'s material on the board in basic-piece units (GIPF-piece = 2).
    pub fn board_units(&self, c: Seat) -> u32 {
        self.st.board_units(c)
    }

    pub fn gipf_on_board(&self, c: Seat) -> u32 {
        self.st.gipf_on_board(c)
    }

    /// The removal choices the side to move must make before acting (A-G16), if any.
    pub fn pending_removal(&self) -> Option<Vec<SpotSet>> {
        if !self.st.pending || self.st.outcome.is_some() {
            return None;
        }
        let mut opts = Vec::new();
        self.st
            .removal_options(&self.rules, self.st.to_move, ALL_LINES, &mut opts);
        Some(opts.into_iter().map(SpotSet).collect())
    }

    /// The rows kept whole by their owner and not offered again until their line changes
    /// (A-G14), each as the spots of its line.
    pub fn settled_rows(&self) -> Vec<SpotSet> {
        let g = geometry();
        (0..g.lines.len())
            .filter(|l| self.st.settled & (1 << l) != 0)
            .map(|l| SpotSet(g.lines[l].mask))
            .collect()
    }

    /// Whether `c` has already taken a turn / entered a basic piece (tournament rules).
    pub fn has_moved(&self, c: Seat) -> bool {
        self.st.moved(c)
    }

    pub fn has_entered_basic(&self, c: Seat) -> bool {
        self.st.basic_entered(c)
    }

    /// The hash recomputed from scratch (the incremental [`Position::hash`] must equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        self.st.full_hash()
    }

    pub(crate) fn state(&self) -> &State {
        &self.st
    }

    /// The entry action from `dot` onto `spot` with a piece of `kind`, if they are adjacent.
    pub fn entry_action(dot: super::geometry::Dot, spot: Spot, kind: PieceKind) -> Option<Action> {
        geometry().entry_index(dot, spot).map(|i| Action::Entry {
            entry: i as u8,
            kind,
        })
    }

    /// Every distinct removal outcome of the mover's step after `action` (from this position,
    /// after `pre`); empty if the action cannot be played here (a move from another position).
    fn post_options(&self, pre: Option<SpotSet>, action: Action) -> Vec<u64> {
        let mut st = self.st;
        let p = st.to_move;
        if let Some(pre) = pre {
            if pre.0 & !st.occ != 0 {
                return Vec::new();
            }
            st.apply_removal(&self.rules, p, pre.0);
            st.set_pending(false);
        }
        let (basic, gipf) = st.entry_kinds(&self.rules, p);
        let playable = match action {
            Action::Entry { entry, kind } => {
                let mask = geometry().entries[entry as usize].mask;
                st.occ & mask != mask
                    && match kind {
                        PieceKind::Basic => basic,
                        PieceKind::Gipf => gipf,
                    }
            }
            Action::Step { from, dir } => {
                st.piece_at(from).is_some_and(|pc| pc.color == p)
                    && st.step_target(from, dir).is_some()
            }
        };
        if !playable {
            return Vec::new();
        }
        let changed = st.apply_action(&self.rules, p, action);
        let mut opts = Vec::new();
        st.removal_options(&self.rules, p, State::lines_through(changed), &mut opts);
        opts
    }

    fn action_text(action: Action) -> String {
        match action {
            Action::Entry { entry, kind } => {
                let e = &geometry().entries[entry as usize];
                let g = if kind == PieceKind::Gipf { "G" } else { "" };
                format!("{g}{}-{}", e.dot, e.spot)
            }
            Action::Step { from, dir } => {
                let to = geometry()
                    .neighbour(from, dir)
                    .expect("a step has a target");
                format!("{from}-{to}")
            }
        }
    }

    /// Why `action` is not legal here (for notation errors).
    fn why_illegal(&self, action: Action) -> Illegal {
        let st = &self.st;
        let p = st.to_move;
        let rules = &self.rules;
        match action {
            Action::Entry { entry, kind } => {
                let e = &geometry().entries[entry as usize];
                let (basic, gipf) = st.entry_kinds(rules, p);
                if st.occ & e.mask == e.mask {
                    let last = e.ray.spots()[e.ray.len as usize - 1];
                    return Illegal::LineFull {
                        spot: e.spot,
                        last,
                        far_dot: e.far_dot,
                    };
                }
                match kind {
                    PieceKind::Basic if !basic => {
                        if st.reserve[p.index()] == 0 {
                            Illegal::NoBasicPiece { seat: p }
                        } else {
                            Illegal::FirstTurnEntersGipf {
                                seat: p,
                                dot: e.dot,
                                spot: e.spot,
                            }
                        }
                    }
                    PieceKind::Gipf if !gipf => match rules.gipf_entry {
                        GipfEntry::Never => Illegal::NoGipfPieces,
                        _ if rules.gipf_until_first_basic && st.basic_entered(p) => {
                            Illegal::BasicEntered { seat: p }
                        }
                        GipfEntry::FromTwoBasic => Illegal::TwoBasicNeeded { seat: p },
                        GipfEntry::FromGipfReserve => Illegal::NoGipfPiece { seat: p },
                    },
                    _ => Illegal::NotLegalHere,
                }
            }
            Action::Step { from, dir } => {
                if !rules.board_steps {
                    return Illegal::NoBoardSteps;
                }
                match st.piece_at(from) {
                    None => Illegal::NoPiece { spot: from },
                    Some(pc) if pc.color != p => Illegal::NotYourPiece {
                        spot: from,
                        seat: p,
                    },
                    Some(_) if !st.steps_allowed(rules, p) => {
                        Illegal::FirstTurnStepsNot { seat: p }
                    }
                    Some(_) => match geometry().neighbour(from, dir) {
                        Some(Point::Dot(d)) => Illegal::StepOntoDot { dot: d },
                        _ => Illegal::PushOffBoard,
                    },
                }
            }
        }
    }
}

// ----- turns ------------------------------------------------------------------------------

/// The pushes an action is about to make, read before it is applied.
fn shifts_of(st: &State, action: Action) -> (ActionEffect, Vec<Shift>) {
    let g = geometry();
    let p = st.to_move;
    let (head, ray) = match action {
        Action::Entry { entry, kind } => {
            let e = &g.entries[entry as usize];
            (
                ActionEffect::Entry {
                    dot: e.dot,
                    spot: e.spot,
                    piece: Piece::new(p, kind),
                },
                e.ray.spots(),
            )
        }
        Action::Step { from, dir } => {
            let Some(Point::Spot(t)) = g.neighbour(from, dir) else {
                unreachable!("a legal step goes to a spot")
            };
            let piece = st.piece_at(from).expect("a step moves a piece");
            (
                ActionEffect::Step { from, to: t, piece },
                g.ray(t, dir).spots(),
            )
        }
    };
    let k = ray
        .iter()
        .position(|s| st.piece_at(*s).is_none())
        .unwrap_or(ray.len());
    let shifts = (0..k.min(ray.len() - 1))
        .rev()
        .map(|i| Shift {
            from: ray[i],
            to: ray[i + 1],
            piece: st.piece_at(ray[i]).expect("a run is occupied"),
        })
        .collect();
    (head, shifts)
}

/// The rows of a removal step, reconstructed for the effect.
fn describe_removal(
    st: &State,
    rules: &GipfRules,
    by: Seat,
    candidates: u32,
    mask: u64,
) -> RemovalStep {
    let path = st
        .removal_path(rules, by, candidates, mask)
        .unwrap_or_default();
    let rows = path
        .into_iter()
        .map(|rc| {
            let line = &geometry().lines[rc.line as usize];
            let run: Vec<Spot> = line
                .ray
                .spots()
                .iter()
                .copied()
                .filter(|s| rc.run & s.bit() != 0)
                .collect();
            let removed = run
                .iter()
                .filter(|s| rc.kept & s.bit() == 0)
                .map(|&s| {
                    let piece = st.piece_at(s).expect("a run is occupied");
                    RemovedPiece {
                        spot: s,
                        piece,
                        to: if piece.color == by {
                            Destination::OwnersReserve
                        } else {
                            Destination::Captured
                        },
                    }
                })
                .collect();
            let kept = run
                .iter()
                .copied()
                .filter(|s| rc.kept & s.bit() != 0)
                .collect();
            RemovedRow { run, removed, kept }
        })
        .collect();
    RemovalStep { by, rows }
}

/// Plays `mv` (legal here) on `st`, recording the effect if asked.
fn run_turn(st: &mut State, rules: &GipfRules, mv: &GipfMove, mut rec: Option<&mut GipfEffect>) {
    let p = st.to_move;
    let finish = |st: &mut State, outcome: Option<Outcome>, rec: Option<&mut GipfEffect>| {
        st.pass_turn();
        st.outcome = outcome.or_else(|| st.at_turn_start(rules));
        if let Some(r) = rec {
            r.outcome = st.outcome;
        }
    };
    if let Some(pre) = mv.pre_removal() {
        if let Some(r) = rec.as_deref_mut() {
            r.pre_removal = Some(describe_removal(st, rules, p, ALL_LINES, pre.0));
        }
        st.apply_removal(rules, p, pre.0);
        st.set_pending(false);
        if let Some(o) = st
            .after_step(rules, p)
            .or_else(|| st.before_action(rules, p))
        {
            return finish(st, Some(o), rec);
        }
    }
    let Some(action) = mv.action() else {
        // Only generated when the decision above ends the game.
        return finish(st, None, rec);
    };
    if let Some(r) = rec.as_deref_mut() {
        let (head, shifts) = shifts_of(st, action);
        r.action = Some(head);
        r.shifts = shifts;
    }
    let changed = st.apply_action(rules, p, action);
    let candidates = State::lines_through(changed);
    let post = mv.removal().0;
    if post != 0 || st.row_lines(p, candidates) != 0 {
        if let Some(r) = rec.as_deref_mut() {
            r.removals
                .push(describe_removal(st, rules, p, candidates, post));
        }
        st.apply_removal(rules, p, post);
        if let Some(o) = st.after_step(rules, p) {
            return finish(st, Some(o), rec);
        }
    }
    let o = p.other();
    if st.row_lines(o, candidates) != 0 {
        let mut opts = Vec::new();
        st.removal_options(rules, o, candidates, &mut opts);
        if let [only] = opts[..] {
            if let Some(r) = rec.as_deref_mut() {
                r.removals
                    .push(describe_removal(st, rules, o, candidates, only));
            }
            st.apply_removal(rules, o, only);
            if let Some(out) = st.after_step(rules, o) {
                return finish(st, Some(out), rec);
            }
        } else {
            st.set_pending(true);
            if let Some(r) = rec.as_deref_mut() {
                r.pending_for = Some(o);
            }
        }
    }
    finish(st, None, rec)
}

// ----- move generation ----------------------------------------------------------------------

/// Calls `sink` with every legal move of `st`, without duplicates, in a fixed order.
fn generate(st: &State, rules: &GipfRules, sink: &mut impl FnMut(GipfMove)) {
    generate_like(st, rules, None, sink);
}

/// As [`generate`]; with `like`, only the moves that share its pre-removal decision and its
/// action (so `like` is legal exactly when it is among them), without playing out the others.
fn generate_like(
    st: &State,
    rules: &GipfRules,
    like: Option<&GipfMove>,
    sink: &mut impl FnMut(GipfMove),
) {
    if st.outcome.is_some() {
        return;
    }
    let p = st.to_move;
    let mut opts = Vec::new();
    if st.pending {
        let mut pres = Vec::new();
        st.removal_options(rules, p, ALL_LINES, &mut pres);
        for pre in pres {
            if like.is_some_and(|m| m.pre_removal() != Some(SpotSet(pre))) {
                continue;
            }
            let mut s = *st;
            s.apply_removal(rules, p, pre);
            s.set_pending(false);
            let pre = Some(SpotSet(pre));
            if s.after_step(rules, p)
                .or_else(|| s.before_action(rules, p))
                .is_some()
            {
                sink(GipfMove::new(pre, None, SpotSet::EMPTY));
            } else {
                generate_actions(&s, rules, pre, like, &mut opts, sink);
            }
        }
    } else if like.is_none_or(|m| m.pre_removal().is_none()) {
        generate_actions(st, rules, None, like, &mut opts, sink);
    }
}

fn generate_actions(
    st: &State,
    rules: &GipfRules,
    pre: Option<SpotSet>,
    like: Option<&GipfMove>,
    opts: &mut Vec<u64>,
    sink: &mut impl FnMut(GipfMove),
) {
    let p = st.to_move;
    let g = geometry();
    let (basic, gipf) = st.entry_kinds(rules, p);
    let mut emit = |action: Action| {
        if like.is_some_and(|m| m.action() != Some(action)) {
            return;
        }
        let mut s = *st;
        let changed = s.apply_action(rules, p, action);
        let candidates = State::lines_through(changed);
        if s.row_lines(p, candidates) == 0 {
            sink(GipfMove::new(pre, Some(action), SpotSet::EMPTY));
        } else {
            s.removal_options(rules, p, candidates, opts);
            for &m in opts.iter() {
                sink(GipfMove::new(pre, Some(action), SpotSet(m)));
            }
        }
    };
    if basic || gipf {
        for (i, e) in g.entries.iter().enumerate() {
            if st.occ & e.mask == e.mask {
                continue;
            }
            if basic {
                emit(Action::Entry {
                    entry: i as u8,
                    kind: PieceKind::Basic,
                });
            }
            if gipf {
                emit(Action::Entry {
                    entry: i as u8,
                    kind: PieceKind::Gipf,
                });
            }
        }
    }
    if st.steps_allowed(rules, p) {
        for from in Spot::iter_mask(st.color_bb[p.index()]) {
            for dir in Direction::ALL {
                if st.step_target(from, dir).is_some() {
                    emit(Action::Step { from, dir });
                }
            }
        }
    }
}

// ----- notation -----------------------------------------------------------------------------

/// A parsed but not yet matched move text.
struct Written {
    pre: Option<SpotSet>,
    action: Option<Action>,
    post: Option<SpotSet>,
}

fn parse_spot_list(text: &str, part: &str) -> Result<SpotSet, NotationError> {
    let list = part[1..].trim();
    let mut set = SpotSet::EMPTY;
    if list.is_empty() {
        return Ok(set);
    }
    for name in list.split(',').map(str::trim) {
        match Point::from_name(name) {
            Some(Point::Spot(s)) => {
                if set.contains(s) {
                    return Err(NotationError::syntax(text, format!("{s} is listed twice")));
                }
                set.0 |= s.bit();
            }
            Some(Point::Dot(d)) => {
                return Err(NotationError::syntax(
                    text,
                    format!("{d} is a dot; removed pieces stand on spots"),
                ));
            }
            None => {
                return Err(NotationError::syntax(
                    text,
                    format!("`{name}` is not a point of the board (a1 … i5)"),
                ));
            }
        }
    }
    Ok(set)
}

fn parse_action(text: &str, part: &str) -> Result<Action, NotationError> {
    let (kind, body) = match part.strip_prefix('G') {
        Some(rest) if rest.starts_with(|c: char| ('a'..='i').contains(&c.to_ascii_lowercase())) => {
            (PieceKind::Gipf, rest)
        }
        _ => (PieceKind::Basic, part),
    };
    let Some((from, to)) = body.split_once('-') else {
        return Err(NotationError::syntax(
            text,
            "expected `<dot>-<spot>` (like `e1-e2`, `Ge1-e2` for a GIPF-piece), removals as `;x<spots>`",
        ));
    };
    let point = |name: &str| {
        Point::from_name(name.trim()).ok_or_else(|| {
            NotationError::syntax(
                text,
                format!("`{}` is not a point of the board (a1 … i5)", name.trim()),
            )
        })
    };
    let (from, to) = (point(from)?, point(to)?);
    match (from, to) {
        (Point::Dot(d), Point::Spot(s)) => {
            GipfPosition::entry_action(d, s, kind).ok_or_else(|| {
                NotationError::illegal(text, Illegal::EntryNotAdjacent { dot: d, spot: s })
            })
        }
        (Point::Spot(from), Point::Spot(to)) => {
            if kind == PieceKind::Gipf {
                return Err(NotationError::syntax(
                    text,
                    "`G` marks a GIPF-piece entering from a dot; an on-board step names only its spots",
                ));
            }
            Direction::ALL
                .into_iter()
                .find(|&d| geometry().neighbour(from, d) == Some(Point::Spot(to)))
                .map(|dir| Action::Step { from, dir })
                .ok_or_else(|| NotationError::illegal(text, Illegal::StepNotAdjacent { from, to }))
        }
        (_, Point::Dot(d)) => Err(NotationError::illegal(text, Illegal::OntoDot { dot: d })),
    }
}

fn parse_written(text: &str) -> Result<Written, NotationError> {
    let parts: Vec<&str> = text.trim().split(';').map(str::trim).collect();
    let is_removal = |p: &str| p.starts_with(['x', 'X']);
    if parts.iter().any(|p| p.is_empty() && parts.len() > 1) || text.trim().is_empty() {
        return Err(NotationError::syntax(text, "empty part"));
    }
    let mut w = Written {
        pre: None,
        action: None,
        post: None,
    };
    let mut rest = &parts[..];
    if is_removal(rest[0]) {
        w.pre = Some(parse_spot_list(text, rest[0])?);
        rest = &rest[1..];
    }
    if let Some((first, tail)) = rest.split_first() {
        if is_removal(first) {
            return Err(NotationError::syntax(
                text,
                "two removal lists in a row; write `x<spots>;<entry>;x<spots>`",
            ));
        }
        w.action = Some(parse_action(text, first)?);
        match tail {
            [] => {}
            [post] if is_removal(post) => w.post = Some(parse_spot_list(text, post)?),
            _ => {
                return Err(NotationError::syntax(
                    text,
                    "after the entry only a removal list `;x<spots>` may follow",
                ));
            }
        }
    }
    Ok(w)
}

/// The moves in notation, for the errors that list the choices.
fn list_choices(pos: &GipfPosition, moves: &[GipfMove]) -> Vec<String> {
    moves.iter().map(|m| pos.format_move(m)).collect()
}

impl Position for GipfPosition {
    type Move = GipfMove;
    type Undo = GipfUndo;
    type Effect = GipfEffect;

    fn side_to_move(&self) -> Seat {
        self.st.to_move
    }

    fn ply(&self) -> u32 {
        self.st.ply
    }

    fn legal_moves(&self, moves: &mut Vec<GipfMove>) {
        moves.clear();
        generate(&self.st, &self.rules, &mut |m| moves.push(m));
    }

    fn count_legal_moves(&self) -> u64 {
        let mut n = 0;
        generate(&self.st, &self.rules, &mut |_| n += 1);
        n
    }

    /// Targeted: only the moves with `mv`'s pre-removal decision and action are generated
    /// (checking every move of a position no longer costs the square of their number).
    fn is_legal(&self, mv: &GipfMove) -> bool {
        let mut found = false;
        generate_like(&self.st, &self.rules, Some(mv), &mut |m| found |= m == *mv);
        found
    }

    fn play(&mut self, mv: &GipfMove) -> Result<GipfEffect, IllegalMove> {
        if !self.is_legal(mv) {
            let why = match self.st.outcome {
                Some(o) => Illegal::GameOver(o),
                None => match mv.action().map(|a| self.why_illegal(a)) {
                    Some(why) if why != Illegal::NotLegalHere => why,
                    _ => Illegal::NotLegalInPosition,
                },
            };
            return Err(IllegalMove {
                notation: format!("{mv:?}"),
                reason: why.into(),
            });
        }
        let mut effect = GipfEffect {
            mover: self.st.to_move,
            pre_removal: None,
            action: None,
            shifts: Vec::new(),
            removals: Vec::new(),
            pending_for: None,
            outcome: None,
        };
        run_turn(&mut self.st, &self.rules, mv, Some(&mut effect));
        Ok(effect)
    }

    fn play_unchecked(&mut self, mv: &GipfMove) -> GipfUndo {
        let undo = GipfUndo(self.st);
        run_turn(&mut self.st, &self.rules, mv, None);
        undo
    }

    fn undo(&mut self, _mv: &GipfMove, undo: GipfUndo) {
        self.st = undo.0;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.st.outcome
    }

    fn hash(&self) -> u64 {
        self.st.hash
    }

    /// `e1-e2`, `Ge1-e2`, `b5-b4` (seed step); `;x<spots>` when the mover chose among several
    /// removals (forced removals are implied); a pending decision first: `xc3,d4,e5,f5;a1-b2`.
    fn format_move(&self, mv: &GipfMove) -> String {
        let mut out = String::new();
        if let Some(pre) = mv.pre_removal() {
            out.push_str(&format!("x{pre}"));
        }
        if let Some(action) = mv.action() {
            if !out.is_empty() {
                out.push(';');
            }
            out.push_str(&Self::action_text(action));
            if self.post_options(mv.pre_removal(), action).len() > 1 {
                out.push_str(&format!(";x{}", mv.removal()));
            }
        }
        out
    }

    fn parse_move(&self, text: &str) -> Result<GipfMove, NotationError> {
        let w = parse_written(text)?;
        if let Some(o) = self.st.outcome {
            return Err(NotationError::illegal(text, Illegal::GameOver(o)));
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let p = self.st.to_move;
        // The pending decision first.
        if self.st.pending {
            // The choices, for the error messages below.
            let options = || self.pending_removal().unwrap_or_default();
            let Some(pre) = w.pre else {
                return Err(NotationError::illegal(
                    text,
                    Illegal::DecideRemovalFirst {
                        seat: p,
                        options: options(),
                    },
                ));
            };
            moves.retain(|m| m.pre_removal() == Some(pre));
            if moves.is_empty() {
                return Err(NotationError::illegal(
                    text,
                    Illegal::NotARemovalChoice {
                        removal: pre,
                        seat: p,
                        options: options(),
                    },
                ));
            }
        } else if w.pre.is_some() {
            return Err(NotationError::illegal(
                text,
                Illegal::NothingToRemoveFirst { seat: p },
            ));
        }
        match w.action {
            None => {
                moves.retain(|m| m.action().is_none());
                return moves
                    .first()
                    .copied()
                    .ok_or_else(|| NotationError::illegal(text, Illegal::EntryMissing));
            }
            Some(action) => {
                moves.retain(|m| m.action() == Some(action));
                if moves.is_empty() {
                    return Err(NotationError::illegal(text, self.why_illegal(action)));
                }
            }
        }
        match w.post {
            Some(post) => {
                let all = moves.clone();
                moves.retain(|m| m.removal() == post);
                moves.first().copied().ok_or_else(|| {
                    let why = if all.len() == 1 && all[0].removal().is_empty() {
                        Illegal::NoRowToRemove { removal: post }
                    } else {
                        Illegal::NotAllowedRemoval {
                            removal: post,
                            choices: list_choices(self, &all),
                        }
                    };
                    NotationError::illegal(text, why)
                })
            }
            None => match moves[..] {
                [only] => Ok(only),
                _ => Err(NotationError::illegal(
                    text,
                    Illegal::RemovalNeeded {
                        choices: list_choices(self, &moves),
                    },
                )),
            },
        }
    }
}
