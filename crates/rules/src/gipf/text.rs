//! GIPF positions as text:
//! `<columns> <side> <ply> reserve=<w>,<b> [gipf-reserve=<w>,<b>] [basic-entered=<w|b|wb>] [pending] [settled=<line>,…]`.
//!
//! The board is the seven columns of spots `b` to `h` (official coordinates), separated by `/`,
//! each listed from its lowest spot up (`b2`…`b5`, `c2`…`c6`, … `e2`…`e8` …): `w` / `b` a White /
//! Black basic piece, `W` / `B` a GIPF-piece, a number that many empty spots. Then the side to
//! move, the plies played, and each side's basic pieces in reserve. Only where they apply:
//! `gipf-reserve` (GIPF-pieces in reserve, in the seed variant that has them); `basic-entered`
//! (tournament rules: who has entered a basic piece and so may enter no more GIPF-pieces);
//! `pending` (the side to move must first decide which of its rows of four to take, A-G16);
//! `settled` (rows kept whole by their owner, named by their line's end spots, A-G14). Captured
//! pieces are the variant's material minus the board and the reserves. The standard start:
//! `B2W/5/6/W5B/6/5/B2W w 0 reserve=12,12`.
use std::sync::Arc;

use super::{
    GipfPosition, GipfRules, GipfSetup, Piece, PieceKind, Spot, geometry::geometry, spec::GipfEntry,
};
use crate::{
    Position, Seat,
    text::{Fields, PositionTextError, check_turn, pair, parse_rows, print_rows, side_letter},
};

/// Column letter and its spots' numbers, lowest first.
const COLUMNS: [(char, u8); 7] = [
    ('b', 5),
    ('c', 6),
    ('d', 7),
    ('e', 8),
    ('f', 7),
    ('g', 6),
    ('h', 5),
];

fn column_spots(letter: char, top: u8) -> impl Iterator<Item = Spot> {
    (2..=top).map(move |n| Spot::from_name(&format!("{letter}{n}")).expect("a spot of the board"))
}

fn line_name(l: usize) -> String {
    let spots = geometry().lines[l].ray.spots();
    format!("{}-{}", spots[0], spots[spots.len() - 1])
}

fn colors_text(flags: [bool; 2]) -> String {
    Seat::BOTH
        .iter()
        .filter(|c| flags[c.index()])
        .map(|&c| side_letter(c))
        .collect()
}

impl GipfPosition {
    /// The position as text (see the module docs).
    pub fn to_text(&self) -> String {
        let rules = self.rules();
        let rows = COLUMNS.iter().map(|&(letter, top)| {
            column_spots(letter, top)
                .map(|s| {
                    self.piece_at(s).map(|p| {
                        let c = match p.color {
                            Seat::WHITE => 'w',
                            _ => 'b',
                        };
                        match p.kind {
                            PieceKind::Basic => c.to_string(),
                            PieceKind::Gipf => c.to_ascii_uppercase().to_string(),
                        }
                    })
                })
                .collect()
        });
        let mut out = format!(
            "{} {} {} reserve={},{}",
            print_rows(rows),
            side_letter(self.side_to_move()),
            self.ply(),
            self.reserve(Seat::WHITE),
            self.reserve(Seat::BLACK)
        );
        if rules.gipf_entry == GipfEntry::FromGipfReserve {
            out.push_str(&format!(
                " gipf-reserve={},{}",
                self.gipf_reserve(Seat::WHITE),
                self.gipf_reserve(Seat::BLACK)
            ));
        }
        let entered = Seat::BOTH.map(|c| self.has_entered_basic(c));
        if rules.gipf_until_first_basic && entered.contains(&true) {
            out.push_str(&format!(" basic-entered={}", colors_text(entered)));
        }
        if self.state().pending {
            out.push_str(" pending");
        }
        let settled = self.state().settled;
        if settled != 0 {
            let names: Vec<String> = (0..geometry().lines.len())
                .filter(|l| settled & (1 << l) != 0)
                .map(line_name)
                .collect();
            out.push_str(&format!(" settled={}", names.join(",")));
        }
        out
    }

    /// Reads a position from text (see the module docs). Rejects more material than the
    /// variant gives a side, rows of four that would have been taken, and a `pending` without
    /// a choice to make.
    pub fn from_text(rules: Arc<GipfRules>, text: &str) -> Result<GipfPosition, PositionTextError> {
        let mut fields = Fields::new(text);
        let ((column, board), side, ply) = fields.common()?;
        check_turn(rules.first_player, side, ply)?;
        let mut reserve = None;
        let mut gipf_reserve = None;
        let mut entered = None;
        let mut pending = false;
        let mut settled = None;
        let has_gipf_reserve = rules.gipf_entry == GipfEntry::FromGipfReserve;
        for (col, field) in fields.rest() {
            let (key, value) = field.split_once('=').unwrap_or((field, ""));
            let twice = || PositionTextError::at(col, format!("`{key}` is given twice"));
            match key {
                "reserve" => {
                    if reserve.is_some() {
                        return Err(twice());
                    }
                    reserve = Some(pair(col, key, value, 255)?);
                }
                "gipf-reserve" if has_gipf_reserve => {
                    if gipf_reserve.is_some() {
                        return Err(twice());
                    }
                    gipf_reserve = Some(pair(col, key, value, 255)?);
                }
                "basic-entered" if rules.gipf_until_first_basic => {
                    if entered.is_some() {
                        return Err(twice());
                    }
                    let flags = match value {
                        "w" => [true, false],
                        "b" => [false, true],
                        "wb" => [true, true],
                        _ => {
                            return Err(PositionTextError::at(
                                col,
                                format!(
                                    "`{field}`: write `basic-entered=w`, `=b` or `=wb` (who has entered a basic piece)"
                                ),
                            ));
                        }
                    };
                    entered = Some(flags);
                }
                "pending" if value.is_empty() && !field.contains('=') => {
                    if pending {
                        return Err(twice());
                    }
                    pending = true;
                }
                "settled" => {
                    if settled.is_some() {
                        return Err(twice());
                    }
                    let mut mask = 0u32;
                    for name in value.split(',') {
                        let l = (0..geometry().lines.len()).find(|&l| {
                            let spots = geometry().lines[l].ray.spots();
                            let (a, b) = (spots[0], spots[spots.len() - 1]);
                            name == format!("{a}-{b}") || name == format!("{b}-{a}")
                        });
                        match l {
                            Some(l) => mask |= 1 << l,
                            None => {
                                return Err(PositionTextError::at(
                                    col,
                                    format!(
                                        "`{name}` in `{field}` is not a line: name a line by the spots at its ends, like `b2-b5` or `e2-e8`"
                                    ),
                                ));
                            }
                        }
                    }
                    settled = Some(mask);
                }
                _ => {
                    let mut allowed = vec!["reserve=W,B"];
                    if has_gipf_reserve {
                        allowed.push("gipf-reserve=W,B");
                    }
                    if rules.gipf_until_first_basic {
                        allowed.push("basic-entered=…");
                    }
                    allowed.extend(["pending", "settled=…"]);
                    return Err(PositionTextError::at(
                        col,
                        format!(
                            "`{field}` is not a field of a position of this variant; after the ply come: {}",
                            allowed.join(", ")
                        ),
                    ));
                }
            }
        }
        let Some(reserve) = reserve else {
            return Err(PositionTextError::whole(
                "the `reserve=W,B` field is missing (basic pieces in each side's reserve)",
            ));
        };
        let gipf_reserve = match (has_gipf_reserve, gipf_reserve) {
            (true, None) => {
                return Err(PositionTextError::whole(
                    "the `gipf-reserve=W,B` field is missing (GIPF-pieces in each side's reserve)",
                ));
            }
            (_, g) => g.unwrap_or([0, 0]),
        };
        let lengths: Vec<usize> = COLUMNS
            .iter()
            .map(|&(_, top)| usize::from(top) - 1)
            .collect();
        let cols = parse_rows(
            column,
            board,
            &lengths,
            |i| format!("column {}", COLUMNS[i].0),
            "spot",
        )?;
        let mut pieces = Vec::new();
        for (&(letter, top), cells) in COLUMNS.iter().zip(&cols) {
            for (spot, cell) in column_spots(letter, top).zip(cells) {
                let Some(cell) = cell else { continue };
                let piece = match cell.text {
                    "w" => Piece::new(Seat::WHITE, PieceKind::Basic),
                    "b" => Piece::new(Seat::BLACK, PieceKind::Basic),
                    "W" => Piece::new(Seat::WHITE, PieceKind::Gipf),
                    "B" => Piece::new(Seat::BLACK, PieceKind::Gipf),
                    other => {
                        return Err(PositionTextError::at(
                            cell.column,
                            format!(
                                "`{other}` on {spot} is not a piece: write `w`/`b` (basic), `W`/`B` (GIPF-piece) or a number of empty spots"
                            ),
                        ));
                    }
                };
                pieces.push((spot, piece));
            }
        }
        // A side has taken a turn once the plies reach it (the first player's at ply 1).
        let first = rules.first_player;
        let moved = Seat::BOTH.map(|c| ply >= if c == first { 1 } else { 2 });
        let basic_entered = if rules.gipf_until_first_basic {
            entered.unwrap_or([false, false])
        } else {
            // Irrelevant without the tournament rule; a game from the start has it once moved.
            moved
        };
        let setup = GipfSetup {
            pieces,
            reserve: reserve.map(|n| n as u8),
            gipf_reserve: gipf_reserve.map(|n| n as u8),
            to_move: side,
            moved,
            basic_entered,
            ply,
        };
        GipfPosition::from_setup_with(rules, &setup, pending, settled.unwrap_or(0))
            .map_err(|e| PositionTextError::whole(e.to_string()))
    }
}
