//! Race positions as text: `<ranks> <side> <ply>`.
//!
//! The ranks run from the top (the highest rank) down to rank 1, separated by `/`; each lists
//! its squares from file `a`: `W` a White piece, `B` a Black piece, a number that many empty
//! squares. Then `w` or `b` for the side to move and the plies played (the 40-move check and
//! the 100-move count of 9qum Ugolki, and the ply cap, count them). The 9qum start:
//! `5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW5 w 0`.
use std::sync::Arc;

use super::{RacePosition, RaceRules, Square};
use crate::{
    Color, Position,
    text::{Fields, PositionTextError, parse_rows, print_rows, side_letter},
};

impl RacePosition {
    /// The position as text (see the module docs).
    pub fn to_text(&self) -> String {
        let rules = self.rules();
        let rows = (0..rules.height()).rev().map(|rank| {
            (0..rules.width())
                .map(|file| {
                    let s = Square::new(file, rank).expect("on the board");
                    self.piece_at(s).map(|c| {
                        match c {
                            Color::White => "W",
                            Color::Black => "B",
                        }
                        .to_owned()
                    })
                })
                .collect()
        });
        format!(
            "{} {} {}",
            print_rows(rows),
            side_letter(self.side_to_move()),
            self.ply()
        )
    }

    /// Reads a position from text (see the module docs). Each side must have the variant's
    /// number of pieces, and the side to move must agree with the ply.
    pub fn from_text(rules: Arc<RaceRules>, text: &str) -> Result<RacePosition, PositionTextError> {
        let mut fields = Fields::new(text);
        let ((column, board), side, ply) = fields.common()?;
        if let Some(&(col, extra)) = fields.rest().first() {
            return Err(PositionTextError::at(
                col,
                format!("`{extra}`: a race position is only `<ranks> <side> <ply>`"),
            ));
        }
        let (width, height) = (rules.width(), rules.height());
        let rows = parse_rows(
            column,
            board,
            &vec![usize::from(width); usize::from(height)],
            |i| format!("rank {}", usize::from(height) - i),
            "square",
        )?;
        let mut squares = [Vec::new(), Vec::new()];
        for (i, row) in rows.iter().enumerate() {
            let rank = height - 1 - i as u8;
            for (file, cell) in row.iter().enumerate() {
                let Some(cell) = cell else { continue };
                let color = match cell.text {
                    "W" => Color::White,
                    "B" => Color::Black,
                    other => {
                        return Err(PositionTextError::at(
                            cell.column,
                            format!(
                                "`{other}` is not a piece: write `W` (White), `B` (Black) or a number of empty squares"
                            ),
                        ));
                    }
                };
                squares[color.index()].push(Square::new(file as u8, rank).expect("on the board"));
            }
        }
        let per_side = rules.pieces_per_side();
        for c in Color::BOTH {
            let n = squares[c.index()].len();
            if n != per_side {
                return Err(PositionTextError::at(
                    column,
                    format!(
                        "{c} has {n} pieces on the board; every side has {per_side} in this variant"
                    ),
                ));
            }
        }
        RacePosition::from_board(rules, &squares[0], &squares[1], side, ply)
            .map_err(PositionTextError::whole)
    }
}
