//! Move notation typed by people: any string parses to a legal move or to an error, never a
//! panic; whatever parses prints and parses back to the same move.
#![no_main]
use boardcraft_rules::{Position, Variant, shipped_variants};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [which, plies, rest @ ..] = data else { return };
    let names: Vec<&str> = shipped_variants().collect();
    if names.is_empty() {
        return;
    }
    let Ok(variant) = Variant::resolve(names[*which as usize % names.len()]) else { return };
    let mut pos = variant.new_game();
    // Walk a few plies (first legal move each time) so the text meets mid-game positions too.
    let mut moves = Vec::new();
    for i in 0..(*plies % 16) {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[i as usize % moves.len()].clone();
        pos.play(&mv).expect("a generated move is legal");
    }
    let Ok(text) = std::str::from_utf8(rest) else { return };
    if let Ok(mv) = pos.parse_move(text) {
        assert!(pos.is_legal(&mv), "{text} parsed to an illegal move");
        let printed = pos.format_move(&mv);
        assert_eq!(pos.parse_move(&printed).as_ref(), Ok(&mv), "{printed} does not round-trip");
    }
});
