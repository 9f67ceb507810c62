//! Perft of the race variants: from the start (against the numbers in the brief and rules.md,
//! computed by an independent generator) and from mid-game positions (against the reference
//! generator in `race_support`).
mod race_support;

use boardcraft_rules::{EndReason, Outcome, Position, Seat, perft::perft};
use race_support::*;

fn assert_start_perft(name: &str, expected: &[u64]) {
    let mut pos = start(name);
    for (depth, &n) in (1..).zip(expected) {
        assert_eq!(perft(&mut pos, depth), n, "{name} perft({depth})");
    }
}

#[test]
fn perft_ugolki_hg_3x3_start() {
    assert_start_perft("ugolki-hg-3x3", &[12, 144, 2_616, 47_524]);
}

/// The brief's depth-4 number, 89 793, counts the bare move tree. Under the binding
/// anti-blocking rule (A-U3) some games are already over after ply 3 — see
/// `hg_3x4_early_anti_blocking_win_explains_perft_4` — so the engine counts 89 732.
#[test]
fn perft_ugolki_hg_3x4_start() {
    assert_start_perft("ugolki-hg-3x4", &[14, 196, 4_188, 89_732]);
}

#[test]
fn perft_ugolki_9qum_start() {
    assert_start_perft("ugolki-9qum", &[12, 144, 2_784, 53_824]);
}

#[test]
fn perft_halma_16_start() {
    assert_start_perft("halma-16", &[40, 1_600, 85_440]);
}

/// The deepest counts: `cargo test --release -p boardcraft-rules --test race_perft -- --ignored`.
#[test]
#[ignore = "slow: deepest start perfts"]
fn perft_deep_start() {
    assert_eq!(perft(&mut start("ugolki-9qum"), 5), 1_135_552);
    assert_eq!(perft(&mut start("halma-16"), 4), 4_562_496);
}

/// After `e2:e4 d6-d5 f2:f4:d4:d6` Black's camp a6–d8 is full (eleven Black pieces and one
/// White) with a White piece in it: White wins on ply 3 by the anti-blocking rule. The bare move
/// tree (no end rules) still counts those positions' replies; the difference between the two
/// perfts is exactly the replies of the positions that are over after ply 3.
#[test]
fn hg_3x4_early_anti_blocking_win_explains_perft_4() {
    let name = "ugolki-hg-3x4";
    let pos = after(name, "e2:e4 d6-d5 f2:f4:d4:d6");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(
            Seat::WHITE,
            EndReason::TargetBlockedButReached
        ))
    );
    let r = rules(name);
    let root = RefGame::from_position(&start(name));
    let bare = ref_perft_without_end_rules(&r, &root, 4);
    assert_eq!(bare, 89_793, "the brief's number is the bare move tree");
    // Replies lost in positions that are over after ply 3, found by walking the tree.
    let mut lost = 0;
    let mut p = start(name);
    let mut m1 = Vec::new();
    p.legal_moves(&mut m1);
    for a in &m1 {
        let ua = p.play_unchecked(a);
        let mut m2 = Vec::new();
        p.legal_moves(&mut m2);
        for b in &m2 {
            let ub = p.play_unchecked(b);
            let g = RefGame::from_position(&p);
            for (f, t) in g.raw_moves(&r) {
                let mut next = g.clone();
                next.play(f, t);
                if next.outcome(&r).is_some() {
                    lost += next.raw_moves(&r).len() as u64;
                }
            }
            p.undo(b, ub);
        }
        p.undo(a, ua);
    }
    assert!(lost > 0);
    assert_eq!(perft(&mut start(name), 4), bare - lost);
}

/// Mid-game positions reached by listed moves, perft compared with the reference generator.
fn check_against_reference(name: &str, line: &str, depth: u32) {
    let mut pos = after(name, line);
    let r = rules(name);
    let g = RefGame::from_position(&pos);
    assert_eq!(g.outcome(&r), pos.outcome(), "{name} after {line}: outcome");
    let expected = ref_perft(&r, &g, pos.outcome(), depth);
    let got = perft(&mut pos, depth);
    assert_eq!(got, expected, "{name} after {line}: perft({depth})");
    assert!(got > 0);
}

/// Lines from seeded random games (the longest of three candidate moves each ply, so the
/// positions are full of chains).
const LINES: &[(&str, &str, u32)] = &[
    (
        "ugolki-hg-3x3",
        "g3:e3 b6:d6 g2:e2:e4 b7:d7:d5 f3:d3 d6:d4:f4 f2-f3 c7:c5:e5 h2:h4 b8:d8",
        3,
    ),
    (
        "ugolki-hg-3x3",
        "h2:h4 b6:d6 g1:e1 b7:d7:d5 g3:e3 d5-d4 h1-g1 a7-b7 g2-h2 c7:c5 f2:f4 c6:c4:e4:g4 f3:d3:d5:b5 b8:b6 e3-e2 c5:a5 h4-h5 a8-a7 f1-f2 a5:c5 h3:h1:f1 g4-g3 f4-f5 a6:c6:c4",
        3,
    ),
    (
        "ugolki-hg-3x3",
        "g2:e2 b6:d6 h2:h4 c6:e6 f2:f4 b8:b6 g3:e3:e1 a6-a5 h1-h2 b6:b8 g1-h1 b8:b6 f1:d1 b6:b8:d8 h3:h5 d6-d5 h5-h6 c8:c6 e1:c1 b7-b6 c1:e1:e3 a8:a6:a4 d1-c1 b6:d6:f6 h1:h3:h5:h7 a5-b5 f3:d3 c6:c8:e8 e3:c3 a7-a6 f4-f5 b5-a5 f5-g5 d8:f8 h7:h5:f5 f6:d6:d4:d2:f2 d3:b3 e8:g8 b3-a3 d5-e5 e2-e1",
        3,
    ),
    (
        "ugolki-hg-3x4",
        "f2:f4 d6-e6 f1:d1 c8:e8 f3:f5 d8:d6:f6 h1:f1 e6:g6 h3:f3:d3 a7:a5",
        3,
    ),
    (
        "ugolki-hg-3x4",
        "h2:h4 b7:b5 e3-d3 b6:b4 e1:e3 c7:c5:a5 e2-e1 c8:e8 e3-e4 b5:b3 g3:e3 d7-c7 g1:g3 b4:b2 f2:f4 a6:a4 e3:c3:a3 a4-b4 d3-d2 a7-b7 f1:d1:d3 a5-b5 h1-g1 b7:d7:d5",
        3,
    ),
    (
        "ugolki-hg-3x4",
        "f3:d3 d7:d5 h3:f3 b7:b5 g3-g4 a7:a5:c5:e5 g1:g3:g5 d6:d4:d2 e3:g3:g1 b6:d6 f2:f4 b5-b4 f3:f5:h5 d6:d4 g4:e4 c7:c5 h1:h3 a6-b6 e4:c4 c5-b5 c4:e4:g4:g6 d8-d7 g6:g4:e4:c4:a4 c8-c7 f1-f2 d5:f5:f3:f1:d1 g5-g6 b6:d6 h3:h1:f1 a8:c8 a4:c4:e4 d7:d5:f5 f1:f3 e5:e3:g3 f4:f6 d4-d5 e1:e3 c7:c5:e5 g6:e6 b8:d8 f3:h3",
        3,
    ),
    (
        "ugolki-9qum",
        "a3-a4 g8:e8 c2:c4 g6-g5 c4-b4 h8-g8 a2:c2:c4 h7:h5 b2-c2 g8:g6:e6",
        3,
    ),
    (
        "ugolki-9qum",
        "c2:c4 g8:e8 a2:c2 h7:h5 c3:c5 h5:h7 c4:c6 g6:g8 c5:c7 h6-g6 b2:d2 g6-g5 c6:c8 f7:f5:h5 a3:c3 f6-f5 c7-c6 g8:g6:g4 d2-e2 h8:h6:h4:f4:f6 c8-b8 f5:f7 c3-d3 e8:g8:g6",
        3,
    ),
    (
        "ugolki-9qum",
        "b2:b4 g6-g5 c2:c4 g8:e8 a2:a4 e8:g8:g6:e6 a4:a2 g7:e7:e5 c4:a4 e5:e7:g7 a3:a5 h7:h5 a5:a3 h5-h4 a4:c4:c2 e6:g6:g8:e8 b4-b5 e8:g8:g6 a2:a4 g7-g8 b3:d3 f7:f5:h5:h3 a3:a5:c5 h3:h5:f5 b1:d1 f5:h5:h3 a1-a2 h3:h5:h7 c2:c4:c6 g6:g4 d3-d2 g5-f5 c5:a5:a3 g4-g3 d2-d3 h6-h5 c6-b6 h8:h6 b5:b7 h6:h8 b7-b8",
        3,
    ),
    (
        "halma-16",
        "p3:n5 c15:e13 o3:m5 c16-c15 m2:m4:m6 e16-f16 o2:m2:k2 b15:d13 m5:o3 b14:d12",
        3,
    ),
    (
        "halma-16",
        "m2:k2 d16:f14 n2:l4 d15:f15:f13 m3:k1 f13:f15 l1:l3:l5 f15:d15 m1:k3:m5 c15:e13 k1:k3:m1 c14:e14:g14 o5:m3 g14-h15 n3:l3:j1 a12:c14:e14 k2:m2:m4:m6 c16-c15 n1:l1:l3:n3:n5:l7 a14:c14 p1:n3:l3 b14:d16 o4:m4:k4 e15:g13",
        2,
    ),
    (
        "halma-16",
        "l1-k1 c14:c12 p4:n6 d15:d13:b11 n6-o6 a16:c14:e14 n4:p6:n6 e14-f15 n3:l1 b11:d13 l2-k2 b12:d12 p2:p4:p6 a12:c14:a16 n2:l2:j2 c16:c14:e14 p3:n5 a16:c14:a12 n5:p3:n3:l3 e15:g15 k1:i3 c12:c14:c16 m3:k3:i1 c15:e13:e15 j2:l2:n2:p4:n4 d16-d15 p6:p4:n2:l2:j2 d12-e11 n4:p4:n2:l2 e16:g14 p5:n7 a15:c15:e13 l1:j3:h3 e14:c14:a16 p1:n3:p5:n5 c13:a15 n5:p5 g15:g13 n6:n8 b16:d16:f14:h14:f12:d10 n1:l1:j3",
        2,
    ),
    (
        "grasshopper",
        "b2:d2 h8:f6 a2:c4 f6:h8 a3:c3:c5 g8:e6 c4:c6 h6:f6:d6:b6 d2:b2:b4 f7:d5:b7",
        3,
    ),
    (
        "grasshopper",
        "b3-c3 h6:f6 a3:a5 f6:h6 a5-a6 g8:e6 c1:a3:a5:a7 f8-g8 a7:a5 h8:f8:d8 c3:c1:e1 h6:f8 a5:a7 g7-f6 e1:c1:a3:a5 f8:h8 c2-d3 f6:h6:h4 a1:a3 g6-g5 b1-c1 h5:f5:d7 a2:c2:e4 g8-f8",
        3,
    ),
    (
        "grasshopper",
        "c1:c3 g7:e7 d1-c1 e8:e6 b3:d3 h6:f6:d8 b1:b3 f7:d7:f5 a2:c4 d8:f6 a3:a5 e7-d8 c2-b1 h8:h6:h4 d3:b5 d8-e7 b3:d5 f6:h6 d5-e5 h6:f6:d8 b2:d4:b4 e6-d5 a4:c6:e4:e6 g8:e8 b4:d4:b2 h4:h6:f6:d6 b2:d4:f6:h6 d5-c5 b5:d5:d7 d6-c6 d7:b5:d5 h5:f7:d7:b5 c4:a6:a4 g6:e4 a5-b6 f8:d6:f4 b1-a2 d8:f6:d4 d5:d3:b3 h7:h5 b6-b7",
        3,
    ),
];

fn check_variant(name: &str) {
    let lines: Vec<_> = LINES.iter().filter(|(n, _, _)| *n == name).collect();
    assert!(lines.len() >= 3);
    for (_, line, depth) in lines {
        check_against_reference(name, line, *depth);
    }
}

#[test]
fn perft_mid_game_ugolki_hg_3x3() {
    check_variant("ugolki-hg-3x3");
}

#[test]
fn perft_mid_game_ugolki_hg_3x4() {
    check_variant("ugolki-hg-3x4");
}

#[test]
fn perft_mid_game_ugolki_9qum() {
    check_variant("ugolki-9qum");
}

#[test]
fn perft_mid_game_halma_16() {
    check_variant("halma-16");
}

#[test]
fn perft_mid_game_grasshopper() {
    check_variant("grasshopper");
}

/// The reference generator agrees with the engine from the start too (depth 3, and the bare
/// tree of 3×3 to depth 4, where no game can end yet).
#[test]
fn reference_agrees_from_the_start() {
    for name in [
        "ugolki-hg-3x3",
        "ugolki-hg-3x4",
        "ugolki-9qum",
        "halma-16",
        "grasshopper",
    ] {
        check_against_reference(name, "", if name == "halma-16" { 2 } else { 3 });
    }
    let r = rules("ugolki-hg-3x3");
    let root = RefGame::from_position(&start("ugolki-hg-3x3"));
    assert_eq!(ref_perft_without_end_rules(&r, &root, 4), 47_524);
}
