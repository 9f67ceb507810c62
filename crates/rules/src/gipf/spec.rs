//! The `Gipf( … )` section of a variant file and its validation into [`GipfRules`].
//!
//! Every rule that differs between the official versions (basic, standard, tournament) and the
//! seed variants is a field here, so that a modder can mix them (rules.md §6.3, §6.4, §8).
use serde::Deserialize;

use super::{
    geometry::{Point, Spot, geometry},
    piece::{Piece, PieceKind},
};
use crate::{FieldError, Seat, draw_guard};

/// Largest number of basic-piece units (a GIPF-piece counts 2) one player may own in total.
pub const MAX_UNITS: u32 = 120;

/// How GIPF-pieces come into play from the reserve.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum GipfEntry {
    /// Never: GIPF-pieces exist only where the start layout puts them (basic, standard).
    Never,
    /// Two basic pieces of the reserve are stacked and entered as one GIPF-piece (tournament).
    FromTwoBasic,
    /// GIPF-pieces are separate reserve items (`gipf_reserve`), entered like any piece (seed).
    FromGipfReserve,
}

/// Whether a GIPF-piece standing in a removed row must go too.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum GipfRemoval {
    /// The player taking the row chooses for each GIPF-piece (official rules).
    Optional,
    /// It goes with the row like a basic piece.
    Mandatory,
}

/// What an own GIPF-piece becomes when its owner takes it back.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum GipfReturn {
    /// Two basic pieces in the reserve (official: "they may not re-enter as a GIPF-piece").
    TwoBasicPieces,
    /// One GIPF-piece in the GIPF reserve (seed: GIPF-pieces are separate items).
    GipfPiece,
}

/// When a player loses for lack of material.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum LoseWhen {
    /// Official: a player whose reserve is empty when his turn begins loses.
    ReserveEmpty,
    /// Seed ("до полного истребления"): a player with no piece on the board and none in reserve
    /// loses; a player without any legal action loses too.
    NoPiecesLeft,
}

/// A start piece as written in the file: `White`, `Black`, `WhiteGipf` or `BlackGipf`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum StartPiece {
    White,
    Black,
    WhiteGipf,
    BlackGipf,
}

impl StartPiece {
    fn piece(self) -> Piece {
        match self {
            StartPiece::White => Piece::new(Seat::WHITE, PieceKind::Basic),
            StartPiece::Black => Piece::new(Seat::BLACK, PieceKind::Basic),
            StartPiece::WhiteGipf => Piece::new(Seat::WHITE, PieceKind::Gipf),
            StartPiece::BlackGipf => Piece::new(Seat::BLACK, PieceKind::Gipf),
        }
    }
}

/// A count for each side: `(white: 12, black: 12)`. Signed so that a negative number gets a
/// readable message instead of a parse error.
#[derive(Copy, Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerSide {
    pub white: i64,
    pub black: i64,
}

/// The `rules: Gipf( … )` fields of a variant file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GipfSpec {
    /// Who moves first (official: White).
    pub first_player: Seat,
    /// Pieces on the board at the start: `("b5", White)`, `("e2", WhiteGipf)`, …
    pub start: Vec<(String, StartPiece)>,
    /// Basic pieces in each reserve at the start (official: 12, tournament 18; handicap: more).
    pub reserve: PerSide,
    /// GIPF-pieces in each reserve at the start (only with `gipf_entry: FromGipfReserve`).
    pub gipf_reserve: PerSide,
    pub gipf_entry: GipfEntry,
    /// Tournament: each player's first turn must bring in a GIPF-piece.
    pub gipf_first_turn: bool,
    /// Tournament: once a player has entered a basic piece he may enter no more GIPF-pieces.
    pub gipf_until_first_basic: bool,
    /// GIPF-pieces of the row's owner in a removed row.
    pub own_gipf_removal: GipfRemoval,
    /// GIPF-pieces of the other colour in a removed row (its extension).
    pub enemy_gipf_removal: GipfRemoval,
    pub own_gipf_returns_as: GipfReturn,
    /// Standard/tournament: a player with no GIPF-piece on the board (after his first turn) loses.
    pub lose_without_gipf: bool,
    pub lose_when: LoseWhen,
    /// Seed: a turn may instead move an own piece one spot along a line (pushing, never onto a dot).
    pub board_steps: bool,
    /// Engine guard, not a rule of GIPF (A-G10: 1000 plies in the shipped files): `Some(n)`:
    /// the game is drawn once n plies have been played. Default `None`.
    ///
    /// There is no `repetition_draw` here, although positions can recur: with `board_steps` a
    /// piece can step back and forth, and even in the official game a row made only of the
    /// mover's own pieces goes back to his reserve, so entries and such removals can in
    /// principle restore an earlier position. Detecting that would need a history of hashes in
    /// [`GipfPosition`](super::GipfPosition), whose undo is a copy of its small `Copy` state
    /// and whose clones are allocation-free today; the ply cap bounds every game instead.
    #[serde(default)]
    pub ply_cap: Option<i64>,
}

/// Validated GIPF rules, shared by every position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GipfRules {
    pub first_player: Seat,
    pub start: Vec<(Spot, Piece)>,
    /// Basic pieces in reserve at the start, per [`Seat::index`].
    pub reserve: [u8; 2],
    /// GIPF-pieces in reserve at the start.
    pub gipf_reserve: [u8; 2],
    pub gipf_entry: GipfEntry,
    pub gipf_first_turn: bool,
    pub gipf_until_first_basic: bool,
    pub own_gipf_removal: GipfRemoval,
    pub enemy_gipf_removal: GipfRemoval,
    pub own_gipf_returns_as: GipfReturn,
    pub lose_without_gipf: bool,
    pub lose_when: LoseWhen,
    pub board_steps: bool,
    /// The ply count at which the game is drawn (an engine guard), if any.
    pub ply_cap: Option<u32>,
    /// Each player's material in basic-piece units (a GIPF-piece = 2): start pieces + reserves.
    /// Conserved: on board + reserve + captured by the opponent.
    pub total_units: [u32; 2],
}

impl GipfRules {
    /// The removal rule for a GIPF-piece of `owner` in a row taken by `taker`.
    pub fn gipf_removal(&self, taker: Seat, owner: Seat) -> GipfRemoval {
        if taker == owner {
            self.own_gipf_removal
        } else {
            self.enemy_gipf_removal
        }
    }
}

fn check_count(errors: &mut Vec<FieldError>, field: &str, v: i64) -> u8 {
    if v < 0 {
        errors.push(FieldError::new(
            field,
            format!("a number of pieces cannot be negative (got {v})"),
        ));
        0
    } else if v > i64::from(MAX_UNITS) {
        errors.push(FieldError::new(
            field,
            format!("{v} pieces is too many; at most {MAX_UNITS} per player"),
        ));
        0
    } else {
        v as u8
    }
}

impl GipfSpec {
    /// Checks every field and every combination; reports all problems at once.
    pub fn validate(self) -> Result<GipfRules, Vec<FieldError>> {
        let mut errors = Vec::new();
        let g = geometry();

        // Start layout.
        let mut start: Vec<(Spot, Piece)> = Vec::new();
        let mut used: Vec<(Spot, usize)> = Vec::new();
        for (i, (name, p)) in self.start.iter().enumerate() {
            let field = format!("start[{i}]");
            match Point::from_name(name) {
                None => errors.push(FieldError::new(
                    &field,
                    format!(
                        "`{name}` is not a point of the GIPF board (columns a–i, numbered from White's side: a1–a5, b1–b6, …, e1–e9, …, i1–i5)"
                    ),
                )),
                Some(Point::Dot(_)) => errors.push(FieldError::new(
                    &field,
                    format!(
                        "`{name}` is a dot on the rim, where pieces only enter; start pieces must stand on spots (b2–b5, c2–c6, d2–d7, e2–e8, f2–f7, g2–g6, h2–h5)"
                    ),
                )),
                Some(Point::Spot(s)) => {
                    if let Some(&(_, j)) = used.iter().find(|(u, _)| *u == s) {
                        errors.push(FieldError::new(
                            &field,
                            format!("`{name}` already holds the piece of start[{j}]; a spot holds one piece"),
                        ));
                    } else {
                        used.push((s, i));
                        start.push((s, p.piece()));
                    }
                }
            }
        }
        // A row of four in the start layout would have to be taken before the first move.
        for line in &g.lines {
            for color in Seat::BOTH {
                let mut run = 0;
                let mut best = 0;
                for s in line.ray.spots() {
                    let here = start.iter().any(|(t, p)| t == s && p.color == color);
                    run = if here { run + 1 } else { 0 };
                    best = best.max(run);
                }
                if best >= 4 {
                    let names: Vec<String> =
                        line.ray.spots().iter().map(|s| s.to_string()).collect();
                    errors.push(FieldError::new(
                        "start",
                        format!(
                            "the start layout already has a row of {best} {color} pieces on the line {}; start without rows of four",
                            names.join(" ")
                        ),
                    ));
                }
            }
        }

        let errors_before_counts = errors.len();
        let reserve = [
            check_count(&mut errors, "reserve.white", self.reserve.white),
            check_count(&mut errors, "reserve.black", self.reserve.black),
        ];
        let gipf_reserve = [
            check_count(&mut errors, "gipf_reserve.white", self.gipf_reserve.white),
            check_count(&mut errors, "gipf_reserve.black", self.gipf_reserve.black),
        ];
        let counts_ok = errors.len() == errors_before_counts;
        let mut total_units = [0u32; 2];
        for c in Seat::BOTH {
            let on_board: u32 = start
                .iter()
                .filter(|(_, p)| p.color == c)
                .map(|(_, p)| p.units())
                .sum();
            total_units[c.index()] =
                on_board + u32::from(reserve[c.index()]) + 2 * u32::from(gipf_reserve[c.index()]);
            if total_units[c.index()] > MAX_UNITS {
                errors.push(FieldError::new(
                    "reserve",
                    format!(
                        "{c} owns {} basic-piece units in all (a GIPF-piece counts 2); at most {MAX_UNITS}",
                        total_units[c.index()]
                    ),
                ));
            }
        }

        // GIPF-piece options that contradict each other.
        let gipf_on_board = |c: Seat| {
            start
                .iter()
                .any(|(_, p)| p.color == c && p.kind == PieceKind::Gipf)
        };
        if self.gipf_entry != GipfEntry::FromGipfReserve && gipf_reserve != [0, 0] {
            errors.push(FieldError::new(
                "gipf_reserve",
                "GIPF-pieces in the reserve could never be entered: set `gipf_entry: FromGipfReserve` or make gipf_reserve (white: 0, black: 0)",
            ));
        }
        if self.gipf_entry == GipfEntry::FromGipfReserve
            && gipf_reserve == [0, 0]
            && self.own_gipf_returns_as != GipfReturn::GipfPiece
        {
            errors.push(FieldError::new(
                "gipf_entry",
                "`FromGipfReserve` needs GIPF-pieces in a reserve: set gipf_reserve, or use `Never`",
            ));
        }
        if self.own_gipf_returns_as == GipfReturn::GipfPiece
            && self.gipf_entry != GipfEntry::FromGipfReserve
        {
            errors.push(FieldError::new(
                "own_gipf_returns_as",
                "a GIPF-piece returned as a GIPF-piece could never re-enter: use `TwoBasicPieces`, or `gipf_entry: FromGipfReserve`",
            ));
        }
        if self.gipf_entry == GipfEntry::Never {
            if self.gipf_first_turn {
                errors.push(FieldError::new(
                    "gipf_first_turn",
                    "the first turn cannot require a GIPF-piece when `gipf_entry` is `Never`",
                ));
            }
            if self.gipf_until_first_basic {
                errors.push(FieldError::new(
                    "gipf_until_first_basic",
                    "this limits GIPF-piece entries, but `gipf_entry` is `Never`",
                ));
            }
        }
        if self.gipf_first_turn {
            for c in Seat::BOTH {
                let can = match self.gipf_entry {
                    GipfEntry::FromTwoBasic => reserve[c.index()] >= 2,
                    GipfEntry::FromGipfReserve => gipf_reserve[c.index()] >= 1,
                    GipfEntry::Never => true, // reported above
                };
                if !can {
                    errors.push(FieldError::new(
                        "gipf_first_turn",
                        format!("{c} cannot bring in a GIPF-piece on his first turn: his reserve is too small"),
                    ));
                }
            }
        }
        if self.lose_without_gipf {
            for c in Seat::BOTH {
                if !gipf_on_board(c) && !self.gipf_first_turn {
                    errors.push(FieldError::new(
                        "lose_without_gipf",
                        format!(
                            "{c} starts without a GIPF-piece and is not made to enter one on his first turn (`gipf_first_turn`), so he would lose after it"
                        ),
                    ));
                }
            }
        }
        if counts_ok && self.lose_when == LoseWhen::ReserveEmpty {
            let c = self.first_player;
            if reserve[c.index()] == 0 && gipf_reserve[c.index()] == 0 {
                errors.push(FieldError::new(
                    "reserve",
                    format!("{c} moves first with an empty reserve and would lose before the first move (`lose_when: ReserveEmpty`)"),
                ));
            }
        }

        let ply_cap = draw_guard::ply_cap(self.ply_cap, &mut errors);

        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(GipfRules {
            first_player: self.first_player,
            start,
            reserve,
            gipf_reserve,
            gipf_entry: self.gipf_entry,
            gipf_first_turn: self.gipf_first_turn,
            gipf_until_first_basic: self.gipf_until_first_basic,
            own_gipf_removal: self.own_gipf_removal,
            enemy_gipf_removal: self.enemy_gipf_removal,
            own_gipf_returns_as: self.own_gipf_returns_as,
            lose_without_gipf: self.lose_without_gipf,
            lose_when: self.lose_when,
            board_steps: self.board_steps,
            ply_cap,
            total_units,
        })
    }
}
