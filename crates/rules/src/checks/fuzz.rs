//! The bodies of the fuzz targets in `fuzz/fuzz_targets/`: each takes the fuzzer's bytes and
//! panics when an invariant breaks. They live here, not in the targets, so that a stable test
//! (`tests/fuzz_seeds.rs`) replays the committed seed corpus through exactly the same code.
//!
//! Inputs are decoded so that most byte strings mean something: the first bytes pick a shipped
//! variant and the moves of a game, the rest is the text under test.
use std::sync::OnceLock;

use super::{check_move, check_position, fresh_hash};
use crate::{AnyMove, AnyPosition, Position, Variant, position::play_line, shipped_variants};

/// The plies a `legal_moves_are_legal` input may play; longer inputs are cut. Every shipped
/// game but GIPF ends by ply 400, and the cap keeps one input's work (and so the executions per
/// second) bounded.
pub const MAX_PLIES: usize = 512;

/// How many plies a `notation` input may play before its text is parsed.
pub const MAX_NOTATION_PLIES: usize = 96;

/// The start positions of the shipped variants at every seat count they offer, parsed once per
/// process.
pub fn shipped_starts() -> &'static [AnyPosition] {
    static STARTS: OnceLock<Vec<AnyPosition>> = OnceLock::new();
    STARTS.get_or_init(|| {
        shipped_variants()
            .flat_map(|name| {
                let v = Variant::resolve(name)
                    .unwrap_or_else(|e| panic!("shipped variant {name}: {e}"));
                v.player_counts()
                    .into_iter()
                    .map(|n| v.with_players(n).expect("offered").new_game())
                    .collect::<Vec<_>>()
            })
            .collect()
    })
}

fn ok<T>(result: Result<T, super::Violation>) -> T {
    result.unwrap_or_else(|v| panic!("{v}"))
}

/// Plays `choices` from `pos` (each byte picks one of the legal moves), stopping when the game
/// ends. On the way only the cheap invariants are checked: the game is over exactly when no
/// move is left, and the incremental hash equals a recomputation.
fn walk(pos: &mut AnyPosition, choices: &[u8]) {
    let mut moves = Vec::new();
    for &choice in choices {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            assert!(
                pos.is_game_over(),
                "no legal move, yet the game is not over\n{pos}"
            );
            return;
        }
        assert!(
            !pos.is_game_over(),
            "the game is over, yet moves are legal\n{pos}"
        );
        // Unchecked: the moves come from `legal_moves`, and the checked `play` costs a move
        // generation more (`check_move` tries it on every move of the final position).
        let _ = pos.play_unchecked(&moves[usize::from(choice) % moves.len()]);
        assert_eq!(pos.hash(), fresh_hash(pos), "incremental hash\n{pos}");
    }
}

/// Checks the position and every one of its legal moves.
fn check_every_move(pos: &mut AnyPosition) -> Vec<AnyMove> {
    let moves = ok(check_position(pos));
    for mv in &moves {
        ok(check_move(pos, mv));
    }
    moves
}

/// Target `legal_moves_are_legal`: `[variant, choices…]` plays a game of the shipped variant
/// picked by `variant`, each byte of `choices` choosing a move (cheap checks on the way, see
/// `walk`), then checks the position reached in full and every one of its legal moves
/// ([`check_position`], [`check_move`]: notation round trip, checked and unchecked play,
/// undo, hash). One full check per input keeps an execution well under a millisecond; the
/// fuzzer's coverage feedback chooses which positions get checked. (Checking every move at
/// every ply cost moves² per ply, since parsing is linear in the moves: two executions per
/// second.)
pub fn legal_moves_are_legal(data: &[u8]) {
    let [which, choices @ ..] = data else {
        return;
    };
    let starts = shipped_starts();
    let mut pos = starts[usize::from(*which) % starts.len()].clone();
    walk(&mut pos, &choices[..choices.len().min(MAX_PLIES)]);
    check_every_move(&mut pos);
}

/// Target `notation`: `[variant, plies, choices…(plies of them), text…]` walks `plies` moves of
/// a shipped variant, then reads `text` as a move typed by a person: it parses to a legal move
/// (which must round-trip, play and undo cleanly) or to an error, never a panic. The same text
/// is also played as a line of moves (`--after`, saved games) on a copy.
pub fn notation(data: &[u8]) {
    let [which, plies, rest @ ..] = data else {
        return;
    };
    let starts = shipped_starts();
    let mut pos = starts[usize::from(*which) % starts.len()].clone();
    let plies = (usize::from(*plies) % (MAX_NOTATION_PLIES + 1)).min(rest.len());
    let (choices, text) = rest.split_at(plies);
    walk(&mut pos, choices);
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    match pos.parse_move(text) {
        Ok(mv) => {
            ok(check_position(&pos));
            ok(check_move(&mut pos, &mv));
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    let mut line = pos.clone();
    match play_line(&mut line, text) {
        Ok(_) => {
            ok(check_position(&line));
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// Target `variant_file`: any text as a variant file. Parsing and validation never panic (nor
/// does printing the errors, which locates each field in the text); a file that validates
/// starts a game whose first plies keep every invariant.
pub fn variant_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Variant::from_ron("fuzz.ron", text) {
        Ok(variant) => {
            let mut pos = variant.new_game();
            for _ in 0..4 {
                let moves = check_every_move(&mut pos);
                let Some(mv) = moves.first() else { break };
                pos.play(mv).expect("checked above");
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}
