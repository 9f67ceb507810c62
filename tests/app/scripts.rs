//! Every family's animation script, applied to the view of the position before a move, gives
//! the view of the position after it — over random games of every shipped variant. This is
//! what keeps the animated view from ever needing the final snap.
use boardcraft::view::model::{Layout, Snapshot, apply_motions, script};
use boardcraft_rules::{Position, Variant, shipped_variants};

use crate::common::assert_same_pieces;

#[test]
fn scripts_turn_each_position_into_the_next_in_random_games() {
    for name in shipped_variants() {
        let variant = boardcraft_rules::shipped_variant(name).unwrap();
        // The views show two seats' pieces so far: a variant that only seats more (Halma for
        // four partners) is not the game's yet.
        if variant.players() != 2 {
            continue;
        }
        let layout = Layout::for_variant(&variant);
        for seed in 1..=4u64 {
            random_game(&variant, &layout, seed, 300);
        }
    }
}

fn random_game(variant: &Variant, layout: &Layout, seed: u64, plies: usize) {
    let mut pos = variant.new_game();
    let mut picker = boardcraft_rules::checks::SeededMoves::new(seed);
    let mut moves = Vec::new();
    for ply in 0..plies {
        pos.legal_moves(&mut moves);
        let Some(mv) = picker.pick(&moves).cloned() else {
            return;
        };
        let before = pos.clone();
        let notation = pos.format_move(&mv);
        let effect = pos.play(&mv).unwrap();
        let mut view = Snapshot::of(&before, layout);
        let s = script(&before, &mv, &effect, layout);
        assert!(
            !s.is_empty(),
            "{}: {notation} has no animation",
            variant.name
        );
        // Phase by phase, as the animation plays them.
        for phase in &s {
            apply_motions(&mut view, &phase.motions)
                .unwrap_or_else(|e| panic!("{} ply {ply} {notation}: {e}", variant.name));
        }
        let rules = Snapshot::of(&pos, layout);
        let result = std::panic::catch_unwind(|| assert_same_pieces(&view, &rules));
        if result.is_err() {
            panic!(
                "{} seed {seed} ply {ply}: {notation}\neffect: {effect:#?}\nscript: {s:#?}",
                variant.name
            );
        }
    }
}
