//! Move-path enumeration ("perft"): the number of leaf nodes of the legal-move tree to a given
//! depth. Compared against independent generators it is the strongest test of move generation.
use crate::Position;

/// Leaves of the legal-move tree of `depth` plies, counting depth 1 in bulk.
pub fn perft<P: Position>(pos: &mut P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let mut total = 0;
            for mv in &moves {
                let undo = pos.play_unchecked(mv);
                total += perft(pos, depth - 1);
                pos.undo(mv, undo);
            }
            total
        }
    }
}

/// Leaves below each legal move ("divide"), for hunting a perft mismatch.
pub fn divide<P: Position>(pos: &mut P, depth: u32) -> Vec<(P::Move, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let undo = pos.play_unchecked(&mv);
            let n = perft(pos, depth.saturating_sub(1));
            pos.undo(&mv, undo);
            (mv, n)
        })
        .collect()
}

/// [`perft`] of an [`AnyPosition`](crate::AnyPosition), run on the family's own type so that
/// the count is not slowed by wrapping every generated move.
pub fn perft_any(pos: &mut crate::AnyPosition, depth: u32) -> u64 {
    match pos {
        crate::AnyPosition::Race(p) => perft(p, depth),
        crate::AnyPosition::Focus(p) => perft(p, depth),
        crate::AnyPosition::Gipf(p) => perft(p, depth),
    }
}
