//! Property tests over random playouts of every shipped race variant.
mod race_support;

use boardcraft_rules::{Position, Seat, race::RacePosition};
use proptest::prelude::*;
use race_support::*;

const VARIANTS: [&str; 6] = [
    "ugolki-hg-3x3",
    "ugolki-hg-3x4",
    "ugolki-9qum",
    "halma-16",
    "halma-16-parlett",
    "grasshopper",
];

fn snapshot(
    pos: &RacePosition,
) -> (
    Vec<boardcraft_rules::race::Square>,
    Vec<boardcraft_rules::race::Square>,
    Seat,
    u32,
    u64,
    Option<boardcraft_rules::Outcome>,
) {
    (
        pos.pieces(Seat::WHITE),
        pos.pieces(Seat::BLACK),
        pos.side_to_move(),
        pos.ply(),
        pos.hash(),
        pos.outcome(),
    )
}

/// Checks every invariant at one position: move list vs count vs the reference generator,
/// notation round trips, play/undo of every move, and the finished-game contract.
fn check_position(pos: &mut RacePosition, reference: &RefGame) {
    let rules = pos.rules().clone();
    let n = rules.pieces_per_side();
    assert_eq!(pos.pieces(Seat::WHITE).len(), n);
    assert_eq!(pos.pieces(Seat::BLACK).len(), n);
    assert_eq!(
        reference.outcome(&rules),
        pos.outcome(),
        "outcome vs reference\n{pos}"
    );
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len() as u64, pos.count_legal_moves());
    if let Some(outcome) = pos.outcome() {
        assert!(moves.is_empty());
        assert_eq!(pos.outcome(), Some(outcome), "stable on re-query");
        return;
    }
    assert_eq!(
        engine_pairs(pos),
        reference.raw_moves(&rules),
        "moves vs reference\n{pos}"
    );
    let before = snapshot(pos);
    for mv in &moves {
        assert!(pos.is_legal(mv));
        let text = pos.format_move(mv);
        let parsed = pos
            .parse_move(&text)
            .unwrap_or_else(|e| panic!("{text}: {e}\n{pos}"));
        assert_eq!(parsed, *mv);
        assert_eq!(parsed.path(), mv.path());
        let path = mv.path();
        assert_eq!(path.first(), Some(&mv.from()));
        assert_eq!(path.last(), Some(&mv.to()));
        let undo = pos.play_unchecked(mv);
        assert_eq!(pos.pieces(Seat::WHITE).len(), n);
        assert_eq!(pos.pieces(Seat::BLACK).len(), n);
        assert_ne!(pos.hash(), before.4);
        pos.undo(mv, undo);
        assert_eq!(snapshot(pos), before, "undo of {text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_every_invariant(
        variant in 0..VARIANTS.len(),
        choices in prop::collection::vec(any::<u16>(), 1..90),
    ) {
        let name = VARIANTS[variant];
        let mut pos = start(name);
        let rules = pos.rules().clone();
        let mut reference = RefGame::from_position(&pos);
        for &choice in &choices {
            check_position(&mut pos, &reference);
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[usize::from(choice) % moves.len()];
            let hash_before = pos.hash();
            let effect = pos.play(&mv).unwrap();
            prop_assert_eq!(&effect.path, &mv.path());
            prop_assert_eq!(effect.jumped.len(), mv.hop_count());
            prop_assert_ne!(pos.hash(), hash_before);
            reference.play(mv.from(), mv.to());
        }
        check_position(&mut pos, &reference);
        let _ = rules;
    }

    /// Games played to the end (or a long way) always finish consistently.
    #[test]
    fn long_games_end_consistently(variant in 0..VARIANTS.len(), seed in any::<u64>()) {
        let mut pos = start(VARIANTS[variant]);
        let mut x = seed | 1;
        let mut moves = Vec::new();
        for _ in 0..450 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mv = moves[(x % moves.len() as u64) as usize];
            pos.play(&mv).unwrap();
        }
        // Every shipped variant has a limit, so 450 plies always end the game.
        let outcome = pos.outcome();
        prop_assert!(outcome.is_some(), "{}", pos);
        prop_assert_eq!(pos.count_legal_moves(), 0);
        prop_assert_eq!(pos.outcome(), outcome);
        let reference = RefGame::from_position(&pos);
        // The reference judges the final position the same way, bar repetition (it has no
        // history of its own here).
        if outcome.unwrap().reason != boardcraft_rules::EndReason::Repetition {
            prop_assert_eq!(reference.outcome(pos.rules()), outcome);
        }
    }
}
