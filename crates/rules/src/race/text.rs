//! Race positions as text: `<ranks> <side> <ply> [<finished>]`.
//!
//! The ranks run from the top (the highest rank) down to rank 1, separated by `/`; each lists
//! its cells from its first file: a seat's letter for one of its pieces (`W` White and `B`
//! Black in the two-seat games, the letters the variant gives its seats otherwise), a number
//! for that many empty cells. On a board that is not a rectangle (a star) a rank lists only
//! the cells it has. Then the side to move as its seat's letter in lower case, the plies played
//! (the 40-move check and the 100-move count of 9qum Ugolki, and the ply cap, count them), and,
//! when seats have already finished in a game of more than two, their letters in the order
//! they finished, then `-` and the letters of the seats that are out (no legal move under
//! `Loses`) in the order they went out: `RG`, `RG-B`, `-B`. The 9qum start:
//! `5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW5 w 0`.
use std::sync::Arc;

use super::{RacePosition, RaceRules, Square};
use crate::{
    Position, Seat,
    text::{Fields, PositionTextError, parse_rows, print_rows},
};

/// The cells of each rank, top rank first.
fn ranks(rules: &RaceRules) -> Vec<(u8, Vec<Square>)> {
    (0..rules.height())
        .rev()
        .map(|rank| {
            let cells = rules
                .cells()
                .iter()
                .copied()
                .filter(|s| s.rank() == rank)
                .collect();
            (rank, cells)
        })
        .collect()
}

impl RacePosition {
    /// The position as text (see the module docs).
    pub fn to_text(&self) -> String {
        let rules = self.rules();
        let rows = ranks(rules).into_iter().map(|(_, cells)| {
            cells
                .into_iter()
                .map(|s| self.piece_at(s).map(|c| rules.seat(c).letter.to_string()))
                .collect()
        });
        let side = rules.seat(self.side_to_move()).letter.to_ascii_lowercase();
        let mut text = format!("{} {side} {}", print_rows(rows), self.ply());
        let (finished, out) = (self.finish_order(), self.out_order());
        if rules.seat_count() > 2 && !(finished.is_empty() && out.is_empty()) {
            text.push(' ');
            text.extend(finished.iter().map(|&s| rules.seat(s).letter));
            if !out.is_empty() {
                text.push('-');
                text.extend(out.iter().map(|&s| rules.seat(s).letter));
            }
        }
        text
    }

    /// Reads a position from text (see the module docs). Each seat must have the variant's
    /// number of pieces, and with two seats the side to move must agree with the ply.
    pub fn from_text(rules: Arc<RaceRules>, text: &str) -> Result<RacePosition, PositionTextError> {
        let mut fields = Fields::new(text);
        let seats: Vec<(char, &str)> = rules
            .seats()
            .map(|s| (rules.seat(s).letter, rules.seat_name(s)))
            .collect();
        let ((column, board), side, ply) = fields.common_seats(&seats)?;
        let rest = fields.rest();
        let finished = match rest.as_slice() {
            [] => None,
            [(col, letters)] if rules.seat_count() > 2 => {
                let (done, out) = letters.split_once('-').unwrap_or((letters, ""));
                let mut listed = Vec::new();
                let mut read = |text: &str| {
                    let mut order = Vec::new();
                    for c in text.chars() {
                        let Some(i) = seats.iter().position(|(l, _)| *l == c) else {
                            return Err(PositionTextError::at(
                                *col,
                                format!("`{c}` is not a seat's letter here"),
                            ));
                        };
                        if listed.contains(&i) {
                            return Err(PositionTextError::at(
                                *col,
                                format!("`{c}` is listed twice"),
                            ));
                        }
                        listed.push(i);
                        order.push(Seat::at(i));
                    }
                    Ok(order)
                };
                let done = read(done)?;
                let out = read(out)?;
                Some((done, out))
            }
            [(col, extra), ..] => {
                return Err(PositionTextError::at(
                    *col,
                    format!(
                        "`{extra}`: a race position is only `<ranks> <side> <ply>`{}",
                        if rules.seat_count() > 2 {
                            " and the seats that finished"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        };
        let ranks = ranks(&rules);
        let lengths: Vec<usize> = ranks.iter().map(|(_, c)| c.len()).collect();
        let rows = parse_rows(
            column,
            board,
            &lengths,
            |i| format!("rank {}", ranks[i].0 + 1),
            "square",
        )?;
        let mut squares = vec![Vec::new(); rules.seat_count()];
        let letters: Vec<String> = seats
            .iter()
            .map(|(l, name)| format!("`{l}` ({name})"))
            .collect();
        for (row, (_, cells)) in rows.iter().zip(&ranks) {
            for (cell, &square) in row.iter().zip(cells) {
                let Some(cell) = cell else { continue };
                let mut chars = cell.text.chars();
                let seat = match (chars.next(), chars.next()) {
                    (Some(c), None) => seats.iter().position(|(l, _)| *l == c),
                    _ => None,
                };
                let Some(seat) = seat else {
                    return Err(PositionTextError::at(
                        cell.column,
                        format!(
                            "`{}` is not a piece: write {} or a number of empty squares",
                            cell.text,
                            letters.join(", ")
                        ),
                    ));
                };
                squares[seat].push(square);
            }
        }
        let per_side = rules.pieces_per_side();
        for c in rules.seats() {
            let n = squares[c.index()].len();
            if n != per_side {
                return Err(PositionTextError::at(
                    column,
                    format!(
                        "{} has {n} pieces on the board; every side has {per_side} in this variant",
                        rules.seat_name(c)
                    ),
                ));
            }
        }
        let finished = finished.as_ref().map(|(d, o)| (d.as_slice(), o.as_slice()));
        RacePosition::from_seats_finished(rules, &squares, side, ply, finished)
            .map_err(|e| PositionTextError::whole(e.to_string()))
    }
}
