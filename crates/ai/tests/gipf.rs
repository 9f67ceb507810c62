//! The search on GIPF: forced wins found, legal moves only, slicing changes nothing.
mod common;

use std::sync::Arc;

use boardcraft_ai::{Budget, Evaluate, think};
use boardcraft_rules::{
    FamilyRules, Position, Seat, Variant,
    gipf::{GipfPosition, GipfRules, GipfSetup},
    position::play_line,
};
use common::{
    assert_search_finds_forced_win, check_legal_answer, check_sliced_equals_unsliced,
    random_playout, wins_within,
};
use proptest::prelude::*;

fn rules(name: &str) -> Arc<GipfRules> {
    match Variant::resolve(name).unwrap().rules {
        FamilyRules::Gipf(r) => r,
        _ => unreachable!(),
    }
}

#[test]
fn win_in_one_takes_the_last_gipf_piece() {
    // e1-e2 pushes e2 e3 e4 and Black's GIPF-piece on e5 one spot up: White's e2–e5 is a row,
    // and the Black GIPF-piece now on e6 extends it, so White may take it — Black's last.
    let mut setup = GipfSetup::parse("White: Gb5 e2 e3 e4; Black: Ge5 h2 c6").unwrap();
    setup.reserve = [5, 5];
    let pos = GipfPosition::from_setup(rules("gipf-standard"), &setup).unwrap();
    assert_search_finds_forced_win(&pos, 1);
    let r = think(&pos, Budget::depth(3));
    assert!(
        pos.format_move(r.best_move.as_ref().unwrap())
            .starts_with("e1-e2;"),
        "{}",
        pos.format_move(r.best_move.as_ref().unwrap())
    );
}

#[test]
fn wins_in_two_found_along_random_games() {
    // Positions found by `find_wins_in_two` below; the brute force in the helper re-proves
    // that each is a forced win in exactly two moves.
    for (name, line) in [
        (
            "gipf-standard",
            "f1-f2 h1-h2 i4-h5 d8-d7 d8-d7 h6-g6 i2-h3 e9-e8 b6-c6 h6-h5 d1-e2 f1-f2 \
             d8-e8;xb5,c6,d7,e8 e9-e8 d8-d7 a4-b5 g1-f2 h6-h5 g1-f2 i3-h3 a2-b3 a3-b3 d8-e8 \
             a3-b4;xb3,b4,b5 c1-c2 a2-b2 xd2,e3,g3,h3;a2-b2 h1-g2 a2-b3 i5-h5 f8-f7 g1-f2 \
             d1-d2 d8-e8 b6-b5 f8-e8",
        ),
        (
            "gipf-basic",
            "h1-h2 i1-h2 f1-e2 d8-e8 f8-e8 g1-f2 i3-h4 d8-e8 b1-c2 i4-h4 i5-h5 d8-d7 b1-c2 \
             c1-d2 b1-b2 c1-c2 i3-h3 e1-e2 a2-b3 a4-b4 i2-h3 c1-c2",
        ),
    ] {
        let mut pos = GipfPosition::new(rules(name));
        play_line(&mut pos, line).unwrap();
        assert_search_finds_forced_win(&pos, 3);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn search_never_returns_an_illegal_move(
        variant in prop::sample::select(vec![
            "gipf-basic", "gipf-standard", "gipf-tournament", "gipf-steps", "gipf-steps-gipf-pieces",
        ]),
        seed in any::<u64>(),
        plies in 0u64..100,
        nodes in 1u64..3000,
        noise in 0i32..200,
    ) {
        let start = GipfPosition::new(rules(variant));
        check_legal_answer(&random_playout(&start, plies, seed), nodes, noise, seed);
    }
}

#[test]
fn sliced_equals_unsliced_on_gipf() {
    check_sliced_equals_unsliced(&GipfPosition::new(rules("gipf-standard")), 20_000, 501, 0);
    let mut pos = GipfPosition::new(rules("gipf-basic"));
    play_line(&mut pos, "a1-b2 i5-h5").unwrap();
    check_sliced_equals_unsliced(&pos, 8_000, 1, 25);
}

#[test]
fn evaluation_counts_the_reserve() {
    let mut rich = GipfSetup::parse("White: Gb5 e2; Black: Gh2 e8").unwrap();
    rich.reserve = [8, 5];
    let pos = GipfPosition::from_setup(rules("gipf-standard"), &rich).unwrap();
    assert!(pos.evaluate() > 0);
    rich.to_move = Seat::BLACK;
    rich.ply = 3;
    let pos = GipfPosition::from_setup(rules("gipf-standard"), &rich).unwrap();
    assert!(pos.evaluate() < 0);
}

/// Looks for positions that are forced wins in two moves (not one) along random games; run by
/// hand (`cargo test --release -p boardcraft-ai --test gipf -- --ignored --nocapture`) to find
/// fixtures.
#[test]
#[ignore]
fn find_wins_in_two() {
    use boardcraft_ai::rng::SplitMix64;
    for name in ["gipf-standard", "gipf-basic"] {
        let mut rng = SplitMix64::new(1);
        let mut found = 0;
        for _game in 0..400 {
            let mut pos = GipfPosition::new(rules(name));
            let mut line = Vec::new();
            let mut moves = Vec::new();
            for _ in 0..80 {
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                line.push(pos.format_move(&mv));
                pos.play(&mv).unwrap();
                if pos.ply() >= 16
                    && !pos.is_game_over()
                    && wins_within(&mut pos.clone(), 3)
                    && !wins_within(&mut pos.clone(), 1)
                {
                    println!("{name}: {}", line.join(" "));
                    found += 1;
                    break;
                }
            }
            if found >= 3 {
                break;
            }
        }
    }
}
