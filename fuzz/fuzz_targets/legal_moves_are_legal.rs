//! A random game of a shipped variant: at every position each generated move plays through
//! the checked `play`, round-trips through notation, and `play_unchecked` + `undo` restore the
//! position and its hash exactly.
#![no_main]
use boardcraft_rules::{Position, Variant, shipped_variants};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [which, choices @ ..] = data else { return };
    let names: Vec<&str> = shipped_variants().collect();
    if names.is_empty() {
        return;
    }
    let Ok(variant) = Variant::resolve(names[*which as usize % names.len()]) else { return };
    let mut pos = variant.new_game();
    let mut moves = Vec::new();
    for &choice in choices {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            assert!(pos.outcome().is_some() || pos.count_legal_moves() == 0);
            break;
        }
        assert_eq!(pos.count_legal_moves(), moves.len() as u64);
        let before_hash = pos.hash();
        let before_text = pos.to_string();
        for mv in &moves {
            let notation = pos.format_move(mv);
            assert_eq!(pos.parse_move(&notation).as_ref(), Ok(mv), "{notation}");
            let mut checked = pos.clone();
            checked.play(mv).expect("a generated move is legal");
            let undo = pos.play_unchecked(mv);
            assert_eq!(pos.hash(), checked.hash());
            pos.undo(mv, undo);
            assert_eq!(pos.hash(), before_hash);
            assert_eq!(pos.to_string(), before_text);
        }
        let mv = moves[choice as usize % moves.len()].clone();
        pos.play(&mv).expect("a generated move is legal");
    }
});
