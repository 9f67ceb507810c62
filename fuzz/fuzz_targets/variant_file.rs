//! Any text as a variant file: parsing and validation never panic, and a file that validates
//! starts a game whose first moves can be generated and played.
#![no_main]
use boardcraft_rules::{Position, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(variant) = Variant::from_ron("fuzz.ron", text) {
        let mut pos = variant.new_game();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if let Some(mv) = moves.first() {
            pos.play(mv).expect("a generated move is legal");
        }
    }
});
