//! Focus positions as text: `<ranks> <side> <ply> reserve=<w>,<b> captured=<w>,<b>`.
//!
//! The ranks run from the top down to rank 1, separated by `/`, and list only the squares of
//! the board (the cut-off corners are left out, so the 52-square board's ranks have 4, 6, 8, 8,
//! 8, 8, 6 and 4 squares). A square is `W` or `B` (one piece), `(WBW)` (a stack, written bottom
//! to top: its top piece controls it) or, in a number, that many empty squares. Then the side to
//! move and the plies played, each side's reserve and the pieces each side has captured
//! (`captured=2,0`: White has captured two Black pieces). The standard start:
//! `4/WWBBWW/1BBWWBB1/1WWBBWW1/1BBWWBB1/1WWBBWW1/BBWWBB/4 w 0 reserve=0,0 captured=0,0`.
//!
//! A table of three or four writes its pieces and the side to move with the seats' letters
//! (`G`, `R`, `B`, `Y`), gives one reserve and one capture count per seat in seat order, and,
//! once seats are out, adds `out=` with their letters in the order they went out, seats that
//! went out on the same ply together and plies separated by commas (`out=R,BY`).
use std::sync::Arc;

use super::{FocusPosition, FocusRules, Square, Stack};
use crate::{
    Position, Seat,
    text::{Fields, PositionTextError, check_turn, pair, parse_rows, print_rows, side_letter},
};

impl FocusPosition {
    /// The position as text (see the module docs).
    pub fn to_text(&self) -> String {
        let board = self.rules().board();
        let letters = self.rules().letters();
        let n = letters.len();
        let rows = board.rows().map(|row| {
            row.filter(|&(_, playable)| playable)
                .map(|(sq, _)| {
                    let stack = self.stack(sq);
                    match stack.height() {
                        0 => None,
                        1 => Some(stack.to_text_with(&letters)),
                        _ => Some(format!("({})", stack.to_text_with(&letters))),
                    }
                })
                .collect()
        });
        if n > 2 {
            let list = |f: &dyn Fn(Seat) -> u16| {
                Seat::all(n)
                    .map(|c| f(c).to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let mut text = format!(
                "{} {} {} reserve={} captured={}",
                print_rows(rows),
                letters[self.side_to_move().index()].to_ascii_lowercase(),
                self.ply(),
                list(&|c| self.reserve(c)),
                list(&|c| self.captured_by(c)),
            );
            let out = self.out_order();
            if !out.is_empty() {
                let groups: Vec<String> = out
                    .iter()
                    .map(|g| g.iter().map(|c| letters[c.index()]).collect())
                    .collect();
                text.push_str(&format!(" out={}", groups.join(",")));
            }
            return text;
        }
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
        if rules.seat_count() > 2 {
            return from_table_text(rules, text);
        }
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
        let stacks = read_stacks(&rules, column, board_text)?;
        let narrow = |v: [u32; 2]| v.map(|n| n as u16);
        FocusPosition::from_setup(rules, &stacks, narrow(reserve), narrow(captured), side)
            .map(|p| p.with_ply(ply))
            .map_err(|e| PositionTextError::whole(e.problems_text()))
    }
}

/// The board field's stacks, written with the rules' seat letters.
fn read_stacks(
    rules: &FocusRules,
    column: usize,
    board_text: &str,
) -> Result<Vec<(Square, Stack)>, PositionTextError> {
    let letters = rules.letters();
    {
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
                let stack: Stack = match Stack::parse_with(cell.text, &letters) {
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
        Ok(stacks)
    }
}

/// Reads the text of a table of three or four (see the module docs).
fn from_table_text(rules: Arc<FocusRules>, text: &str) -> Result<FocusPosition, PositionTextError> {
    let n = rules.seat_count();
    let letters = rules.letters();
    let names: Vec<(char, String)> = Seat::all(n)
        .map(|c| (letters[c.index()], rules.seat_name(c).to_owned()))
        .collect();
    let seats: Vec<(char, &str)> = names.iter().map(|(l, s)| (*l, s.as_str())).collect();
    let mut fields = Fields::new(text);
    let ((column, board_text), side, ply) = fields.common_seats(&seats)?;
    let max = rules.pieces_per_side();
    let mut reserve = None;
    let mut captured = None;
    let mut out = None;
    for (col, field) in fields.rest() {
        let (key, value) = field.split_once('=').unwrap_or((field, ""));
        let twice = || PositionTextError::at(col, format!("`{key}` is given twice"));
        match key {
            "reserve" | "captured" => {
                let slot = if key == "reserve" {
                    &mut reserve
                } else {
                    &mut captured
                };
                if slot.is_some() {
                    return Err(twice());
                }
                // A seat can capture pieces of every other seat.
                let most = if key == "reserve" {
                    max
                } else {
                    max * (n as u16 - 1)
                };
                let numbers: Option<Vec<u16>> = value
                    .split(',')
                    .map(|v| v.parse::<u16>().ok().filter(|&x| x <= most))
                    .collect();
                match numbers {
                    Some(v) if v.len() == n => *slot = Some(v),
                    _ => {
                        return Err(PositionTextError::at(
                            col,
                            format!(
                                "`{field}`: write {n} numbers of at most {most}, one per seat in seat order, like `{key}={}`",
                                vec!["0"; n].join(",")
                            ),
                        ));
                    }
                }
            }
            "out" => {
                if out.is_some() {
                    return Err(twice());
                }
                let mut groups = Vec::new();
                for group in value.split(',') {
                    let seats: Option<Vec<Seat>> = group
                        .chars()
                        .map(|c| {
                            letters
                                .iter()
                                .position(|l| l.eq_ignore_ascii_case(&c))
                                .map(Seat::at)
                        })
                        .collect();
                    match seats {
                        Some(g) if !g.is_empty() => groups.push(g),
                        _ => {
                            return Err(PositionTextError::at(
                                col,
                                format!(
                                    "`{field}`: write the letters of the seats that are out, in the order they went out, plies separated by commas (`out=R,BY`)"
                                ),
                            ));
                        }
                    }
                }
                out = Some(groups);
            }
            _ => {
                return Err(PositionTextError::at(
                    col,
                    format!(
                        "`{field}`: after the ply a Focus position has `reserve=…`, `captured=…` and, once seats are out, `out=…`"
                    ),
                ));
            }
        }
    }
    let missing = if reserve.is_none() {
        "reserve"
    } else {
        "captured"
    };
    let (Some(reserve), Some(captured)) = (reserve, captured) else {
        return Err(PositionTextError::whole(format!(
            "the `{missing}` field is missing (a Focus position ends with `reserve=… captured=…`)"
        )));
    };
    if out.is_none() {
        // Nobody out yet: the turn has gone round the table in order.
        let mut expected = rules.first_player();
        for _ in 0..ply % n as u32 {
            expected = expected.next(n);
        }
        if side != expected {
            return Err(PositionTextError::whole(format!(
                "after {ply} plies with every seat still playing it is {}'s turn ({} moves first)",
                rules.seat_name(expected),
                rules.seat_name(rules.first_player())
            )));
        }
    }
    let stacks = read_stacks(&rules, column, board_text)?;
    FocusPosition::from_seats(rules, &stacks, &reserve, &captured, side, out.as_deref())
        .map(|p| p.with_ply(ply))
        .map_err(|e| PositionTextError::whole(e.problems_text()))
}
