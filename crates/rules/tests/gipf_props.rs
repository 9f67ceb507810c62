//! Property tests over random GIPF playouts in every shipped variant.
mod gipf_support;

use boardcraft_rules::{
    EndReason, Position, Seat,
    gipf::{GipfMove, GipfPosition, Spot, geometry::geometry},
};
use gipf_support::*;
use proptest::prelude::*;

/// The invariants that must hold between any two turns.
fn check_invariants(pos: &GipfPosition, name: &str) {
    let total = pos.rules().total_units;
    // G-12: per player, board (GIPF = 2) + reserve + captured by the opponent is constant.
    for c in Seat::BOTH {
        assert_eq!(
            material(pos, c),
            total[c.index()],
            "{name}: material of {c}\n{pos}"
        );
        // The board count agrees with what the spots hold (one piece per spot).
        let on_spots: u32 = Spot::all()
            .filter_map(|s| pos.piece_at(s))
            .filter(|p| p.color == c)
            .map(|p| p.units())
            .sum();
        assert_eq!(on_spots, pos.board_units(c), "{name}\n{pos}");
    }
    // No row of four survives a turn, except the mover's pending decision, rows kept whole,
    // and rows left when a removal step ended the game at once (A-G7, A-G12: the loss of the
    // last GIPF-piece is checked after each removal step, and nothing is removed after that).
    if pos
        .outcome()
        .is_some_and(|o| o.reason == EndReason::NoGipfPiece)
    {
        return check_hash_and_end(pos, name);
    }
    let settled = pos.settled_rows();
    for line in &geometry().lines {
        for c in Seat::BOTH {
            let mut streak = 0;
            let mut row = false;
            for s in line.ray.spots() {
                streak = match pos.piece_at(*s) {
                    Some(p) if p.color == c => streak + 1,
                    _ => 0,
                };
                row |= streak >= 4;
            }
            if row {
                let allowed = settled.iter().any(|set| set.0 == line.mask)
                    || (pos.pending_removal().is_some() && pos.side_to_move() == c);
                assert!(allowed, "{name}: a {c} row survived\n{pos}");
            }
        }
    }
    check_hash_and_end(pos, name);
}

fn check_hash_and_end(pos: &GipfPosition, name: &str) {
    assert_eq!(
        pos.hash(),
        pos.hash_from_scratch(),
        "{name}: incremental hash\n{pos}"
    );
    if pos.outcome().is_some() {
        assert_eq!(pos.count_legal_moves(), 0);
    }
}

/// Plays the game; returns how it ended (or the ply reached).
fn playout(variant: usize, choices: &[u32]) -> String {
    let name = VARIANTS[variant];
    let mut pos = start(name);
    let mut moves: Vec<GipfMove> = Vec::new();
    check_invariants(&pos, name);
    for &choice in choices {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            let outcome = pos
                .outcome()
                .unwrap_or_else(|| panic!("{name}: no moves, no outcome\n{pos}"));
            return format!("ply {}: {outcome}", pos.ply());
        }
        assert_eq!(pos.count_legal_moves(), moves.len() as u64);
        let mut seen = std::collections::HashSet::new();
        // Every move of every 4th position (and of every position with removal choices) is
        // formatted, parsed back, played and undone; parsing is O(moves), so not all of them.
        let all = pos.ply().is_multiple_of(4) || moves.iter().any(|m| !m.removal().is_empty());
        for m in &moves {
            assert!(seen.insert(*m), "{name}: duplicate move {m:?}");
            if !all && *m != moves[choice as usize % moves.len()] {
                continue;
            }
            let text = pos.format_move(m);
            assert_eq!(
                pos.parse_move(&text).as_ref(),
                Ok(m),
                "{name}: {text}\n{pos}"
            );
            let before = pos.clone();
            let undo = pos.play_unchecked(m);
            assert_eq!(pos.hash(), pos.hash_from_scratch(), "{name}: {text}");
            pos.undo(m, undo);
            assert_eq!(pos.hash(), before.hash());
            assert!(pos == before, "{name}: undo of {text}");
        }
        let mv = moves[choice as usize % moves.len()];
        let mut unchecked = pos.clone();
        let _ = unchecked.play_unchecked(&mv);
        pos.play(&mv).unwrap();
        assert_eq!(pos.hash(), unchecked.hash());
        assert!(pos == unchecked);
        check_invariants(&pos, name);
    }
    format!("ply {}: unfinished", pos.ply())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_playouts_keep_the_invariants(
        variant in 0..VARIANTS.len(),
        choices in prop::collection::vec(any::<u32>(), 0..160),
    ) {
        playout(variant, &choices);
    }
}

/// Long games to the end in every variant (deterministic), so the late game (rows, GIPF-piece
/// losses, empty reserves, pending decisions) is covered whatever proptest draws.
#[test]
fn full_games_keep_the_invariants() {
    let mut ends = Vec::new();
    for (variant, name) in VARIANTS.iter().enumerate() {
        for seed in 0..3u64 {
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ variant as u64;
            let choices: Vec<u32> = (0..600)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x >> 11) as u32
                })
                .collect();
            let end = playout(variant, &choices);
            ends.push(format!("{name}#{seed}: {end}"));
        }
    }
    eprintln!("{}", ends.join("\n"));
}
