//! GIPF variant files: the shipped ones load with the rules of §6.3/§6.4, broken ones are
//! rejected with every problem located (file, line, field) and explained.
mod gipf_support;

use std::path::Path;

use boardcraft_rules::{
    Seat, Variant,
    gipf::{GipfEntry, GipfRemoval, GipfReturn, LoseWhen, PieceKind},
};
use gipf_support::*;

/// The error text of a broken file, with the file label shortened to its name.
fn broken(file: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/broken/gipf")
        .join(file);
    match Variant::from_path(&path) {
        Ok(v) => panic!("{file} was accepted as {}", v.name),
        Err(e) => e
            .to_string()
            .replace(&path.display().to_string(), file)
            .lines()
            .map(str::to_owned)
            .collect(),
    }
}

#[test]
fn start_piece_on_a_dot() {
    assert_eq!(
        broken("start_on_dot.ron"),
        [
            "start_on_dot.ron:11: field `rules.start[3]`: `b1` is a dot on the rim, where pieces only enter; start pieces must stand on spots (b2–b5, c2–c6, d2–d7, e2–e8, f2–f7, g2–g6, h2–h5)"
        ]
    );
}

#[test]
fn two_start_pieces_on_one_spot() {
    assert_eq!(
        broken("duplicate_spot.ron"),
        [
            "duplicate_spot.ron:11: field `rules.start[5]`: `e2` already holds the piece of start[1]; a spot holds one piece"
        ]
    );
}

#[test]
fn negative_and_overflowing_counts_are_both_reported() {
    assert_eq!(
        broken("bad_counts.ron"),
        [
            "bad_counts.ron:16: field `rules.reserve.white`: a number of pieces cannot be negative (got -3)",
            "bad_counts.ron:16: field `rules.reserve.black`: 500 pieces is too many; at most 120 per player",
        ]
    );
}

#[test]
fn contradictory_gipf_options() {
    let errors = broken("contradictory_gipf.ron");
    assert_eq!(errors.len(), 4, "{errors:#?}");
    assert!(errors[0].starts_with("contradictory_gipf.ron:18: field `rules.gipf_reserve`: GIPF-pieces in the reserve could never be entered"));
    assert!(errors[1].starts_with("contradictory_gipf.ron:29: field `rules.own_gipf_returns_as`: a GIPF-piece returned as a GIPF-piece could never re-enter"));
    assert!(errors[2].starts_with("contradictory_gipf.ron:31: field `rules.lose_without_gipf`: White starts without a GIPF-piece"));
    assert!(errors[3].starts_with("contradictory_gipf.ron:31: field `rules.lose_without_gipf`: Black starts without a GIPF-piece"));
}

#[test]
fn bad_spot_name_and_ply_cap() {
    assert_eq!(
        broken("bad_spot_and_cap.ron"),
        [
            "bad_spot_and_cap.ron:11: field `rules.start[4]`: `z9` is not a point of the GIPF board (columns a–i, numbered from White's side: a1–a5, b1–b6, …, e1–e9, …, i1–i5)",
            "bad_spot_and_cap.ron:40: field `rules.ply_cap`: ply_cap is 0; use a number of plies from 1 to 1000000 (the game is drawn once that many have been played), or None",
        ]
    );
}

#[test]
fn unknown_field_is_located() {
    let errors = broken("unknown_field.ron");
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].starts_with("unknown_field.ron:37:9: unknown field `steps_per_turn` in `rules: Gipf(…)`; the fields allowed here are: first_player, start,"),
        "{errors:?}"
    );
}

#[test]
fn start_layout_with_a_row() {
    assert_eq!(
        broken("start_row.ron"),
        [
            "start_row.ron:11: field `rules.start`: the start layout already has a row of 4 White pieces on the line b2 c3 d4 e5 f5 g5 h5; start without rows of four"
        ]
    );
}

#[test]
fn shipped_variants_have_the_published_rules() {
    for name in VARIANTS {
        let r = rules(name);
        let gipf_start = r
            .start
            .iter()
            .filter(|(_, p)| p.kind == PieceKind::Gipf)
            .count();
        assert_eq!(r.ply_cap, Some(1000), "{name}");
        assert_eq!(r.first_player, Seat::WHITE);
        match name {
            "gipf-basic" => {
                assert_eq!(
                    (r.total_units, r.reserve, gipf_start),
                    ([15, 15], [12, 12], 0)
                );
                assert!(!r.lose_without_gipf && !r.board_steps);
            }
            "gipf-standard" => {
                assert_eq!(
                    (r.total_units, r.reserve, gipf_start),
                    ([18, 18], [12, 12], 6)
                );
                assert!(r.lose_without_gipf);
                assert_eq!(r.own_gipf_removal, GipfRemoval::Optional);
                assert_eq!(r.enemy_gipf_removal, GipfRemoval::Optional);
            }
            "gipf-tournament" => {
                assert_eq!(
                    (r.total_units, r.reserve, r.start.len()),
                    ([18, 18], [18, 18], 0)
                );
                assert_eq!(r.gipf_entry, GipfEntry::FromTwoBasic);
                assert!(r.gipf_first_turn && r.gipf_until_first_basic && r.lose_without_gipf);
            }
            "gipf-steps" => {
                assert_eq!((r.total_units, r.reserve), ([15, 15], [12, 12]));
                assert!(r.board_steps);
                assert_eq!(r.lose_when, LoseWhen::NoPiecesLeft);
            }
            "gipf-steps-gipf-pieces" => {
                assert_eq!((r.reserve, r.gipf_reserve), ([12, 12], [3, 3]));
                assert_eq!(r.gipf_entry, GipfEntry::FromGipfReserve);
                assert_eq!(r.enemy_gipf_removal, GipfRemoval::Mandatory);
                assert_eq!(r.own_gipf_removal, GipfRemoval::Optional);
                assert_eq!(r.own_gipf_returns_as, GipfReturn::GipfPiece);
                assert!(!r.lose_without_gipf && r.board_steps);
            }
            _ => unreachable!(),
        }
        // White b5 e2 h5, Black b2 e8 h2 (or none in the tournament game).
        let mut layout: Vec<String> = r
            .start
            .iter()
            .map(|(s, p)| format!("{s}{:?}", p.color))
            .collect();
        layout.sort();
        if name != "gipf-tournament" {
            assert_eq!(
                layout,
                [
                    "b2Black", "b5White", "e2White", "e8Black", "h2Black", "h5White"
                ]
            );
        }
    }
}
