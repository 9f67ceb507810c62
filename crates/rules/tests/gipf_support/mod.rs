//! Helpers shared by the GIPF integration tests.
#![allow(dead_code)]
use std::sync::Arc;

use boardcraft_rules::{
    FamilyRules, NotationError, Position, Seat,
    gipf::{GipfEffect, GipfMove, GipfPosition, GipfRules, GipfSetup, Spot},
    shipped_variant,
};

pub const VARIANTS: [&str; 5] = [
    "gipf-basic",
    "gipf-standard",
    "gipf-tournament",
    "gipf-steps",
    "gipf-steps-gipf-pieces",
];

pub fn rules(name: &str) -> Arc<GipfRules> {
    match shipped_variant(name)
        .unwrap_or_else(|e| panic!("{e}"))
        .rules
    {
        FamilyRules::Gipf(r) => r,
        other => panic!("{name} is a {} variant", other.family_name()),
    }
}

pub fn start(name: &str) -> GipfPosition {
    GipfPosition::new(rules(name))
}

/// A hand-made position: `board` as in [`GipfSetup::parse`], reserves `[white, black]`.
pub fn setup(name: &str, board: &str, reserve: [u8; 2], to_move: Seat) -> GipfPosition {
    let mut s = GipfSetup::parse(board).unwrap();
    s.reserve = reserve;
    s.to_move = to_move;
    GipfPosition::from_setup(rules(name), &s).unwrap_or_else(|e| panic!("{e}"))
}

pub fn spot(name: &str) -> Spot {
    Spot::from_name(name).unwrap_or_else(|| panic!("{name} is not a spot"))
}

/// What stands on `name`: `'.'` or the printout symbol.
pub fn at(pos: &GipfPosition, name: &str) -> char {
    pos.piece_at(spot(name)).map_or('.', |p| p.symbol())
}

pub fn play(pos: &mut GipfPosition, text: &str) -> GipfEffect {
    let mv = pos
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{pos}"));
    pos.play(&mv).unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn illegal_reason(pos: &GipfPosition, text: &str) -> String {
    match pos.parse_move(text) {
        Err(NotationError::Illegal { reason, .. }) => reason.to_string(),
        other => panic!("{text}: expected an Illegal error, got {other:?}"),
    }
}

pub fn legal_texts(pos: &GipfPosition) -> Vec<String> {
    let mut moves: Vec<GipfMove> = Vec::new();
    pos.legal_moves(&mut moves);
    moves.iter().map(|m| pos.format_move(m)).collect()
}

/// Per player: board (GIPF = 2) + reserve (GIPF reserve = 2 each) + captured by the opponent.
pub fn material(pos: &GipfPosition, c: Seat) -> u32 {
    pos.board_units(c) + pos.reserve(c) + 2 * pos.gipf_reserve(c) + pos.captured(c)
}
