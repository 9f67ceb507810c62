//! Property tests for Focus over random playouts of both shipped Focus variants.
use std::sync::Arc;

use boardcraft_rules::{
    FamilyRules, Position, Seat, Variant,
    focus::{FocusMove, FocusPosition, FocusRules},
    shipped_variant,
};
use proptest::prelude::*;

fn rules(name: &str) -> Arc<FocusRules> {
    match shipped_variant(name).unwrap().rules {
        FamilyRules::Focus(r) => r,
        _ => unreachable!(),
    }
}

/// Every per-position property; returns the legal moves.
fn check_position(pos: &FocusPosition) -> Vec<FocusMove> {
    let r = pos.rules().clone();
    let limit = r.height_limit();
    let mut controlled = [0u16; 2];
    for (sq, stack) in pos.stacks() {
        assert!(r.board().contains(sq));
        assert!(
            stack.height() <= limit,
            "{sq}: {stack} over the limit\n{pos}"
        );
        let top = stack.top().unwrap();
        controlled[top.index()] += 1;
    }
    for c in Seat::BOTH {
        // F-10.
        let total = pos.pieces_on_board(c)
            + u32::from(pos.reserve(c))
            + u32::from(pos.captured_by(c.other()));
        assert_eq!(total, u32::from(r.pieces_per_side()), "{c}\n{pos}");
        assert_eq!(pos.controlled_stacks(c), controlled[c.index()]);
    }
    assert_eq!(pos.hash(), pos.compute_hash(), "incremental hash\n{pos}");

    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(pos.count_legal_moves(), moves.len() as u64);
    let mut unique = moves.clone();
    unique.sort_by_key(|m| format!("{m:?}"));
    unique.dedup();
    assert_eq!(unique.len(), moves.len(), "duplicate moves");
    if pos.outcome().is_some() {
        assert!(moves.is_empty(), "a finished game has moves\n{pos}");
    } else {
        // The end rule (A-F6) is exactly "no legal move".
        assert!(!moves.is_empty(), "unfinished game without moves\n{pos}");
    }
    for mv in &moves {
        let text = pos.format_move(mv);
        assert_eq!(pos.parse_move(&text).as_ref(), Ok(mv), "{text}");
        assert!(pos.is_legal(mv));
        let mut p = pos.clone();
        let undo = p.play_unchecked(mv);
        assert_eq!(p.hash(), p.compute_hash(), "hash after {text}");
        p.undo(mv, undo);
        assert!(p == *pos, "undo of {text} did not restore the position");
        let mut checked = pos.clone();
        let effect = checked.play(mv).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(effect.landed, checked.stack(mv.to()), "{text}");
        assert_eq!(effect.mover, pos.side_to_move());
    }
    moves
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_every_invariant(
        small in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 1..120),
    ) {
        let mut pos = FocusPosition::new(rules(if small { "focus-6x6" } else { "focus" }));
        for choice in choices {
            let moves = check_position(&pos);
            if moves.is_empty() {
                break;
            }
            let mv = moves[choice as usize % moves.len()];
            pos.play(&mv).unwrap();
        }
        check_position(&pos);
    }

    #[test]
    fn parse_move_never_panics(text in "\\PC{0,12}") {
        let pos = FocusPosition::new(rules("focus"));
        let _ = pos.parse_move(&text);
    }

    /// Variant validation never panics, and whatever it accepts starts a sound game.
    #[test]
    fn focus_variant_validation_never_panics(
        rows in prop::collection::vec("[.#x]{0,18}", 0..18),
        setup in prop::collection::vec(("[a-r][0-9]{1,2}", "[WBx]{0,7}"), 0..12),
        height_limit in 0u32..20,
        pieces in 0u32..30,
        reserve in 0u32..10,
    ) {
        let board = rows.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>().join(", ");
        let setup = setup
            .iter()
            .map(|(s, t)| format!("{s:?}: {t:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        let text = format!(
            "(format_version: 1, name: \"fuzz\", title: \"Fuzz\", rules: Focus(board: [{board}], \
             height_limit: {height_limit}, pieces_per_side: {pieces}, reserve: {reserve}, \
             setup: {{{setup}}}, first_player: White, repetition_draw: Some(3), ply_cap: Some(50)))"
        );
        if let Ok(variant) = Variant::from_ron("fuzz.ron", &text) {
            let FamilyRules::Focus(r) = variant.rules else { unreachable!() };
            check_position(&FocusPosition::new(r));
        }
    }

    /// Small random boards with a random set-up that is usually valid: whatever validation
    /// accepts must play soundly for a few plies.
    #[test]
    fn random_small_variants_play_soundly(
        (width, height, mut cells, order) in (2u8..=7, 2u8..=7).prop_flat_map(|(w, h)| {
            let n = (w * h) as usize;
            (
                Just(w),
                Just(h),
                prop::collection::vec(prop::bool::weighted(0.8), n),
                Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
            )
        }),
        sizes in prop::collection::vec(1u32..4, 1..6),
        height_limit in 1u32..6,
        reserve in 0u32..3,
        choices in prop::collection::vec(any::<u32>(), 0..30),
    ) {
        let name = |i: usize| {
            let (f, r) = (i % width as usize, i / width as usize);
            format!("{}{}", (b'a' + f as u8) as char, r + 1)
        };
        // Pair k puts `n` White pieces on one distinct square and `n` Black on another.
        let mut setup = Vec::new();
        let mut pieces = reserve;
        for (k, &n) in sizes.iter().enumerate().take(order.len() / 2) {
            let n = n.min(height_limit);
            for (square, letter) in [(order[2 * k], "W"), (order[2 * k + 1], "B")] {
                cells[square] = true;
                setup.push(format!("{:?}: {:?}", name(square), letter.repeat(n as usize)));
            }
            pieces += n;
        }
        let rows: Vec<String> = (0..height)
            .rev()
            .map(|r| {
                (0..width)
                    .map(|f| if cells[(r * width + f) as usize] { '.' } else { '#' })
                    .collect()
            })
            .collect();
        let text = format!(
            "(format_version: 1, name: \"fuzz\", title: \"Fuzz\", rules: Focus(board: {rows:?}, \
             height_limit: {height_limit}, pieces_per_side: {pieces}, reserve: {reserve}, \
             setup: {{{}}}, first_player: Black, repetition_draw: Some(3), ply_cap: Some(20)))",
            setup.join(", ")
        );
        match Variant::from_ron("fuzz.ron", &text) {
            Ok(variant) => {
                let FamilyRules::Focus(r) = variant.rules else { unreachable!() };
                let mut pos = FocusPosition::new(r);
                for choice in choices {
                    let moves = check_position(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    pos.play(&moves[choice as usize % moves.len()]).unwrap();
                }
            }
            // The only way this construction can fail: a square without neighbours.
            Err(e) => prop_assert!(e.to_string().contains("isolated"), "{e}"),
        }
    }
}
