//! The invariants themselves. Each check returns a [`Violation`] naming what broke, with the
//! position printed, so that a soak can count failures and a fuzz target can panic with them.
use std::{collections::HashSet, fmt};

use crate::{
    AnyMove, AnyPosition, Position, Seat,
    focus::FocusPosition,
    gipf::{GipfPosition, Spot},
    race::RacePosition,
};

/// A broken invariant: what was expected and the position it was found in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub what: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for Violation {}

fn fail<T>(pos: &AnyPosition, what: impl fmt::Display) -> Result<T, Violation> {
    Err(Violation {
        what: format!("{what} (ply {})\n{pos}", pos.ply()),
    })
}

/// The position's hash recomputed from scratch (the incremental [`Position::hash`] must equal
/// it).
pub fn fresh_hash(pos: &AnyPosition) -> u64 {
    match pos {
        AnyPosition::Race(p) => {
            let seats: Vec<_> = p.rules().seats().map(|s| p.pieces(s)).collect();
            let (done, out) = (p.finish_order(), p.out_order());
            RacePosition::from_seats_finished(
                p.rules().clone(),
                &seats,
                p.side_to_move(),
                p.ply(),
                Some((&done, &out)),
            )
            .map_or(!p.hash(), |fresh| fresh.hash())
        }
        AnyPosition::Focus(p) => p.compute_hash(),
        AnyPosition::Gipf(p) => p.hash_from_scratch(),
    }
}

/// Whether two positions are the same in everything that decides the game from here on (for
/// race games: pieces, side, ply, hash, outcome and how often the position has occurred).
pub fn same_position(a: &AnyPosition, b: &AnyPosition) -> bool {
    match (a, b) {
        (AnyPosition::Race(a), AnyPosition::Race(b)) => race_snapshot(a) == race_snapshot(b),
        (AnyPosition::Focus(a), AnyPosition::Focus(b)) => a == b,
        (AnyPosition::Gipf(a), AnyPosition::Gipf(b)) => a == b,
        _ => false,
    }
}

type RaceSnapshot = (
    Vec<Vec<crate::race::Square>>,
    (Vec<Seat>, Vec<Seat>),
    Seat,
    u32,
    u64,
    Option<crate::Outcome>,
    usize,
);

fn race_snapshot(p: &RacePosition) -> RaceSnapshot {
    (
        p.rules().seats().map(|s| p.pieces(s)).collect(),
        (p.finish_order(), p.out_order()),
        p.side_to_move(),
        p.ply(),
        p.hash(),
        p.outcome(),
        p.occurrences(),
    )
}

/// Checks everything that must hold in `pos` itself and returns its legal moves:
/// - the incremental hash equals a recomputation from scratch;
/// - material is conserved as the family guarantees it (race: every piece stays on the board;
///   Focus: board + reserve + captured by the opponent = pieces per side, stacks within the
///   height limit; GIPF: board + reserve + captured by the opponent = the starting material);
/// - `legal_moves` has no duplicates and agrees with `count_legal_moves` and `is_legal`;
/// - the game is over exactly when there is no legal move.
pub fn check_position(pos: &AnyPosition) -> Result<Vec<AnyMove>, Violation> {
    let fresh = fresh_hash(pos);
    if pos.hash() != fresh {
        return fail(
            pos,
            format_args!(
                "incremental hash {:#018x} differs from the recomputed {fresh:#018x}",
                pos.hash()
            ),
        );
    }
    match pos {
        AnyPosition::Race(p) => race_material(pos, p)?,
        AnyPosition::Focus(p) => focus_material(pos, p)?,
        AnyPosition::Gipf(p) => gipf_material(pos, p)?,
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let counted = pos.count_legal_moves();
    if counted != moves.len() as u64 {
        return fail(
            pos,
            format_args!(
                "count_legal_moves is {counted} but legal_moves lists {}",
                moves.len()
            ),
        );
    }
    let mut seen = HashSet::with_capacity(moves.len());
    for mv in &moves {
        if !seen.insert(mv) {
            return fail(pos, format_args!("duplicate legal move {mv:?}"));
        }
    }
    match (pos.outcome(), moves.is_empty()) {
        (Some(outcome), false) => {
            return fail(
                pos,
                format_args!(
                    "the game is over ({outcome}) but {} moves are legal",
                    moves.len()
                ),
            );
        }
        (None, true) => return fail(pos, "no legal move, yet the game is not over"),
        _ => {}
    }
    if pos.is_game_over() != pos.outcome().is_some() {
        return fail(pos, "is_game_over disagrees with outcome");
    }
    Ok(moves)
}

fn race_material(pos: &AnyPosition, p: &RacePosition) -> Result<(), Violation> {
    let n = p.rules().pieces_per_side();
    for c in p.rules().seats() {
        let on_board = p.pieces(c).len();
        if on_board != n {
            return fail(
                pos,
                format_args!("{c} has {on_board} pieces on the board instead of {n}"),
            );
        }
    }
    Ok(())
}

fn focus_material(pos: &AnyPosition, p: &FocusPosition) -> Result<(), Violation> {
    let rules = p.rules();
    let n = p.seat_count();
    let mut controlled = [0u16; Seat::MAX];
    for (sq, stack) in p.stacks() {
        if !rules.board().contains(sq) {
            return fail(pos, format_args!("a stack stands on {sq}, off the board"));
        }
        if stack.height() > rules.height_limit() {
            return fail(
                pos,
                format_args!(
                    "the stack on {sq} is {} high, over the limit {}",
                    stack.height(),
                    rules.height_limit()
                ),
            );
        }
        if let Some(top) = stack.top() {
            controlled[top.index()] += 1;
        }
    }
    let lost: u32 = Seat::all(n).map(|c| u32::from(p.lost(c))).sum();
    let taken: u32 = Seat::all(n).map(|c| u32::from(p.captured_by(c))).sum();
    if lost != taken {
        return fail(
            pos,
            format_args!("{lost} pieces were lost but {taken} captured"),
        );
    }
    for c in Seat::all(n) {
        if n == 2 && p.lost(c) != p.captured_by(c.other()) {
            return fail(
                pos,
                format_args!(
                    "{c} lost {} pieces but {} captured {}",
                    p.lost(c),
                    c.other(),
                    p.captured_by(c.other())
                ),
            );
        }
        let total = p.pieces_on_board(c) + u32::from(p.reserve(c)) + u32::from(p.lost(c));
        if total != u32::from(rules.pieces_per_side()) {
            return fail(
                pos,
                format_args!(
                    "{c}: board {} + reserve {} + captured by the others {} = {total}, not {}",
                    p.pieces_on_board(c),
                    p.reserve(c),
                    p.lost(c),
                    rules.pieces_per_side()
                ),
            );
        }
        let tops: Vec<_> = p
            .stacks()
            .filter(|(_, s)| s.top() == Some(c))
            .map(|(sq, _)| sq)
            .collect();
        if !p.controlled_squares(c).eq(tops.iter().copied()) {
            return fail(
                pos,
                format_args!(
                    "{c} is kept as controlling {:?} but tops {tops:?}",
                    p.controlled_squares(c).collect::<Vec<_>>()
                ),
            );
        }
        if p.controlled_stacks(c) != controlled[c.index()] {
            return fail(
                pos,
                format_args!(
                    "{c} is counted as controlling {} stacks but tops {}",
                    p.controlled_stacks(c),
                    controlled[c.index()]
                ),
            );
        }
    }
    Ok(())
}

fn gipf_material(pos: &AnyPosition, p: &GipfPosition) -> Result<(), Violation> {
    let total = p.rules().total_units;
    for c in Seat::BOTH {
        // rules.md G-12: board (GIPF-piece = 2) + reserve (GIPF-piece = 2) + captured by the
        // opponent is constant.
        let material = p.board_units(c) + p.reserve(c) + 2 * p.gipf_reserve(c) + p.captured(c);
        if material != total[c.index()] {
            return fail(
                pos,
                format_args!(
                    "{c}: material {material} (board {} + reserve {} + 2×{} GIPF + captured {}) is not {}",
                    p.board_units(c),
                    p.reserve(c),
                    p.gipf_reserve(c),
                    p.captured(c),
                    total[c.index()]
                ),
            );
        }
        let on_spots: u32 = Spot::all()
            .filter_map(|s| p.piece_at(s))
            .filter(|piece| piece.color == c)
            .map(|piece| piece.units())
            .sum();
        if on_spots != p.board_units(c) {
            return fail(
                pos,
                format_args!(
                    "{c}: the spots hold {on_spots} units, the count says {}",
                    p.board_units(c)
                ),
            );
        }
    }
    Ok(())
}

/// Checks one legal move `mv` of `pos` (which must come from `legal_moves` of this position,
/// as [`check_position`] returns them):
/// - its notation parses back to the same move;
/// - `play_unchecked` then `undo` restores the position and its hash exactly;
/// - checked `play` accepts it (every family's `play` asks `is_legal`, so this also checks
///   `is_legal`) and reaches the same position as `play_unchecked`;
/// - the ply count advances by one and the hash after the move equals a recomputation.
///
/// `pos` is left as it was.
pub fn check_move(pos: &mut AnyPosition, mv: &AnyMove) -> Result<(), Violation> {
    let text = pos.format_move(mv);
    match pos.parse_move(&text) {
        Ok(parsed) if parsed == *mv => {}
        Ok(parsed) => {
            return fail(
                pos,
                format_args!("`{text}` ({mv:?}) parses back as another move {parsed:?}"),
            );
        }
        Err(e) => {
            return fail(
                pos,
                format_args!("`{text}` ({mv:?}) does not parse back: {e}"),
            );
        }
    }
    let before = pos.clone();
    let mut checked = pos.clone();
    if let Err(e) = checked.play(mv) {
        return fail(
            pos,
            format_args!("play rejects the generated move `{text}`: {e}"),
        );
    }
    let undo = pos.play_unchecked(mv);
    let after = pos.clone();
    pos.undo(mv, undo);
    if !same_position(pos, &before) || pos.hash() != before.hash() {
        let broken = std::mem::replace(pos, before);
        return fail(
            &broken,
            format_args!("play_unchecked + undo of `{text}` did not restore the position"),
        );
    }
    if !same_position(&after, &checked) {
        return fail(
            pos,
            format_args!("play and play_unchecked of `{text}` reach different positions"),
        );
    }
    if after.ply() != before.ply() + 1 {
        return fail(
            pos,
            format_args!(
                "`{text}` moved the ply count from {} to {}",
                before.ply(),
                after.ply()
            ),
        );
    }
    let fresh = fresh_hash(&after);
    if after.hash() != fresh {
        return fail(
            &after,
            format_args!(
                "after `{text}` the incremental hash {:#018x} differs from the recomputed {fresh:#018x}",
                after.hash()
            ),
        );
    }
    Ok(())
}
