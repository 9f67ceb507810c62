//! Focus positions as text: `<ranks> <side> <ply> reserve=<w>,<b> captured=<w>,<b>`.
//!
//! The ranks run from the top down to rank 1, separated by `/`, and list only the squares of
//! the board (the cut-off corners are left out, so the 52-square board's ranks have 4, 6, 8, 8,
//! 8, 8, 6 and 4 squares). A square is `W` or `B` (one piece), `(WBW)` (a stack, written bottom
//! to top: its top piece controls it) or, in a number, that many empty squares. Then the side to
//! move and the plies played, each side's reserve and the pieces each side has captured
//! (`captured=2,0`: White has captured two Black pieces). The standard start:
//! `4/WWBBWW/1BBWWBB1/1WWBBWW1/1BBWWBB1/1WWBBWW1/BBWWBB/4 w 0 reserve=0,0 captured=0,0`.
use std::sync::Arc;

use super::{FocusPosition, FocusRules, Stack};
use crate::{
    Position, Seat,
    text::{Fields, PositionTextError, check_turn, pair, parse_rows, print_rows, side_letter},
};

impl FocusPosition {
    /// The position as text (see the module docs).
    pub fn to_text(&self) -> String {
        let board = self.rules().board();
        let rows = board.rows().map(|row| {
            row.filter(|&(_, playable)| playable)
                .map(|(sq, _)| {
                    let stack = self.stack(sq);
                    match stack.height() {
                        0 => None,
                        1 => Some(stack.to_string()),
                        _ => Some(format!("({stack})")),
                    }
                })
                .collect()
        });
        format!(
            "{} {} {} reserve={},{} captured={},{}",
            print_rows(rows),
            side_letter(self.side_to_move()),
            self.ply(),
            self.reserve(Seat::WHITE),
            self.reserve(Seat::BLACK),
            self.captured_by(Seat::WHITE),
            self.captured_by(Seat::BLACK),
        )
    }

    /// Reads a position from text (see the module docs). The material must add up: for each
    /// side, pieces on the board + its reserve + the pieces the opponent captured = the
    /// variant's pieces per side.
    pub fn from_text(
        rules: Arc<FocusRules>,
        text: &str,
    ) -> Result<FocusPosition, PositionTextError> {
        let mut fields = Fields::new(text);
        let ((column, board_text), side, ply) = fields.common()?;
        check_turn(rules.first_player(), side, ply)?;
        let mut reserve = None;
        let mut captured = None;
        let max = u32::from(rules.pieces_per_side());
        for (col, field) in fields.rest() {
            let (key, value) = field.split_once('=').unwrap_or((field, ""));
            let slot = match key {
                "reserve" => &mut reserve,
                "captured" => &mut captured,
                _ => {
                    return Err(PositionTextError::at(
                        col,
                        format!(
                            "`{field}`: after the ply a Focus position has `reserve=W,B` and `captured=W,B`"
                        ),
                    ));
                }
            };
            if slot.is_some() {
                return Err(PositionTextError::at(
                    col,
                    format!("`{key}` is given twice"),
                ));
            }
            *slot = Some(pair(col, key, value, max)?);
        }
        let (Some(reserve), Some(captured)) = (reserve, captured) else {
            return Err(PositionTextError::whole(format!(
                "the `{}` field is missing (a Focus position ends with `reserve=W,B captured=W,B`)",
                if reserve.is_none() {
                    "reserve"
                } else {
                    "captured"
                }
            )));
        };
        let board = rules.board();
        let lengths: Vec<usize> = board.rows().map(|r| r.filter(|x| x.1).count()).collect();
        let height = usize::from(board.height());
        let rows = parse_rows(
            column,
            board_text,
            &lengths,
            |i| format!("rank {}", height - i),
            "square",
        )?;
        let mut stacks = Vec::new();
        for (row, cells) in board.rows().zip(&rows) {
            let squares = row.filter(|x| x.1).map(|x| x.0);
            for (sq, cell) in squares.zip(cells) {
                let Some(cell) = cell else { continue };
                let stack: Stack = match cell.text.parse() {
                    Ok(s) if cell.text.is_empty() || cell.text == "." => {
                        let _: Stack = s;
                        return Err(PositionTextError::at(
                            cell.column,
                            "`()` is an empty stack: write empty squares as a number",
                        ));
                    }
                    Ok(s) => s,
                    Err(e) => {
                        return Err(PositionTextError::at(
                            cell.column,
                            format!("`{}` on {sq}: {e}", cell.text),
                        ));
                    }
                };
                stacks.push((sq, stack));
            }
        }
        let narrow = |v: [u32; 2]| v.map(|n| n as u16);
        FocusPosition::from_setup(rules, &stacks, narrow(reserve), narrow(captured), side)
            .map(|p| p.with_ply(ply))
            .map_err(|e| PositionTextError::whole(e.problems.join("; ")))
    }
}
