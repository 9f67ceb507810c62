//! Positions as text, in the spirit of chess FEN: one line that holds everything a diagram
//! shows and that decides the game's future — pieces or stacks, reserves, captures, the side
//! to move, the ply (rules count plies: 9qum's 40-move check and 100-move count, ply caps) and
//! GIPF's pending removal choice. Each family writes its own (see `race::text`, `focus::text`,
//! `gipf::text` and docs/cli.md); this module holds the pieces of syntax they share and the
//! error, a floor below the families (the entry point for any variant is in `any`).
//!
//! The line is space-separated fields: `<board> <side> <ply>` and then the family's extra
//! fields. The board lists rows (or GIPF columns) separated by `/`; in a row a digit run is
//! that many empty squares. The side to move is `w` or `b`.
//!
//! Like FEN the text holds no history: a position read from text starts its repetition count
//! afresh.
use std::fmt;

use crate::Seat;

/// Why a text is not a position of the variant: what is wrong, and where (the 1-based
/// character column in the text, when it is one place).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PositionTextError {
    pub column: Option<usize>,
    pub message: String,
}

impl PositionTextError {
    pub fn at(column: usize, message: impl Into<String>) -> Self {
        PositionTextError {
            column: Some(column),
            message: message.into(),
        }
    }

    pub fn whole(message: impl Into<String>) -> Self {
        PositionTextError {
            column: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "position text, column {c}: {}", self.message),
            None => write!(f, "position text: {}", self.message),
        }
    }
}

// ----- shared syntax -------------------------------------------------------------------------

/// The space-separated fields of a position text, each with its 1-based column.
pub(crate) struct Fields<'a> {
    fields: Vec<(usize, &'a str)>,
    next: usize,
    /// Column just past the end of the text, for "missing field" errors.
    end: usize,
}

impl<'a> Fields<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut fields = Vec::new();
        let mut start = None;
        let mut column = 0;
        for (byte, c) in text.char_indices() {
            column += 1;
            if c.is_whitespace() {
                if let Some((col, from)) = start.take() {
                    fields.push((col, &text[from..byte]));
                }
            } else if start.is_none() {
                start = Some((column, byte));
            }
        }
        if let Some((col, from)) = start {
            fields.push((col, &text[from..]));
        }
        Fields {
            fields,
            next: 0,
            end: column + 1,
        }
    }

    /// The next field, or an error naming what was expected there.
    pub fn expect(&mut self, what: &str) -> Result<(usize, &'a str), PositionTextError> {
        match self.fields.get(self.next) {
            Some(&f) => {
                self.next += 1;
                Ok(f)
            }
            None => Err(PositionTextError::at(
                self.end,
                format!("the text ends where {what} should follow"),
            )),
        }
    }

    /// The remaining fields.
    pub fn rest(&mut self) -> Vec<(usize, &'a str)> {
        let rest = self.fields[self.next..].to_vec();
        self.next = self.fields.len();
        rest
    }

    /// The board, side to move and ply that every family's text starts with, for the two
    /// seats White (`w`) and Black (`b`).
    pub fn common(&mut self) -> Result<((usize, &'a str), Seat, u32), PositionTextError> {
        self.common_seats(&[('W', "White"), ('B', "Black")])
    }

    /// As [`Self::common`] for a table whose seats have these letters and names, in seat
    /// order (the side to move is written as its seat's letter in lower case).
    pub fn common_seats(
        &mut self,
        seats: &[(char, &str)],
    ) -> Result<((usize, &'a str), Seat, u32), PositionTextError> {
        let board = self.expect("the board")?;
        let choices: Vec<String> = seats
            .iter()
            .map(|(l, name)| format!("`{}` ({name})", l.to_ascii_lowercase()))
            .collect();
        let (col, side) = self.expect(&format!("the side to move ({})", choices.join(" or ")))?;
        let mut chars = side.chars();
        let seat = match (chars.next(), chars.next()) {
            (Some(c), None) => seats
                .iter()
                .position(|(l, _)| l.to_ascii_lowercase() == c)
                .map(Seat::at),
            _ => None,
        };
        let Some(side) = seat else {
            return Err(PositionTextError::at(
                col,
                format!(
                    "`{side}` is not a side to move: write {}",
                    choices.join(" or ")
                ),
            ));
        };
        let (col, ply) = self.expect("the ply (plies played so far)")?;
        let ply = ply.parse::<u32>().map_err(|_| {
            PositionTextError::at(
                col,
                format!(
                    "`{ply}` is not a ply count: write the number of plies played, like `0` or `37`"
                ),
            )
        })?;
        Ok((board, side, ply))
    }
}

/// The side to move must be the one whose turn it is after `ply` plies.
pub(crate) fn check_turn(first: Seat, side: Seat, ply: u32) -> Result<(), PositionTextError> {
    let expected = if ply.is_multiple_of(2) {
        first
    } else {
        first.other()
    };
    if side == expected {
        Ok(())
    } else {
        Err(PositionTextError::whole(format!(
            "after {ply} plies it is {expected}'s turn ({first} moves first)"
        )))
    }
}

pub(crate) fn side_letter(c: Seat) -> char {
    match c {
        Seat::WHITE => 'w',
        _ => 'b',
    }
}

#[derive(Debug)]
/// One cell of a board row: its text (a letter, or what stood inside `( )`) and its column.
pub(crate) struct Cell<'a> {
    pub column: usize,
    pub text: &'a str,
}

/// Splits a board field into rows (by `/`) of cells: a digit run is that many empty cells
/// (`None`), `(…)` is one cell, any other character is a one-letter cell. `row_lengths` gives
/// the number of cells each row must have; `row_name(i)` names row `i` for messages.
pub(crate) fn parse_rows<'a>(
    column: usize,
    board: &'a str,
    row_lengths: &[usize],
    row_name: impl Fn(usize) -> String,
    unit: &str,
) -> Result<Vec<Vec<Option<Cell<'a>>>>, PositionTextError> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != row_lengths.len() {
        return Err(PositionTextError::at(
            column,
            format!(
                "the board has {} rows separated by `/`, this variant's has {}",
                rows.len(),
                row_lengths.len()
            ),
        ));
    }
    let mut out = Vec::new();
    let mut col = column;
    for (i, (row, &len)) in rows.iter().zip(row_lengths).enumerate() {
        let row_start = col;
        let mut cells: Vec<Option<Cell<'a>>> = Vec::new();
        let mut chars = row.char_indices().peekable();
        while let Some((byte, c)) = chars.next() {
            let here = col + row[..byte].chars().count();
            if c.is_ascii_digit() {
                let mut end = byte + 1;
                while let Some(&(b, d)) = chars.peek() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    end = b + 1;
                    chars.next();
                }
                let n: usize = row[byte..end].parse().unwrap_or(usize::MAX);
                if n == 0 || cells.len().saturating_add(n) > len {
                    return Err(PositionTextError::at(
                        here,
                        format!(
                            "{} has {len} {unit}s; `{}` empty {unit}s here do not fit",
                            row_name(i),
                            &row[byte..end]
                        ),
                    ));
                }
                cells.extend((0..n).map(|_| None));
            } else if c == '(' {
                let Some(close) = row[byte..].find(')') else {
                    return Err(PositionTextError::at(
                        here,
                        "`(` opens a stack that no `)` closes",
                    ));
                };
                let inner = &row[byte + 1..byte + close];
                for _ in 0..inner.chars().count() + 1 {
                    chars.next();
                }
                cells.push(Some(Cell {
                    column: here,
                    text: inner,
                }));
            } else {
                cells.push(Some(Cell {
                    column: here,
                    text: &row[byte..byte + c.len_utf8()],
                }));
            }
            if cells.len() > len {
                return Err(PositionTextError::at(
                    here,
                    format!("{} has only {len} {unit}s", row_name(i)),
                ));
            }
        }
        if cells.len() != len {
            return Err(PositionTextError::at(
                row_start,
                format!(
                    "{} has {len} {unit}s, the text gives {}",
                    row_name(i),
                    cells.len()
                ),
            ));
        }
        out.push(cells);
        col += row.chars().count() + 1;
    }
    Ok(out)
}

/// The inverse of [`parse_rows`]: cells as text (`None` = empty), runs of empties as digits.
pub(crate) fn print_rows(rows: impl IntoIterator<Item = Vec<Option<String>>>) -> String {
    let mut out = Vec::new();
    for row in rows {
        let mut line = String::new();
        let mut empty = 0;
        for cell in row {
            match cell {
                None => empty += 1,
                Some(text) => {
                    if empty > 0 {
                        line.push_str(&empty.to_string());
                        empty = 0;
                    }
                    line.push_str(&text);
                }
            }
        }
        if empty > 0 {
            line.push_str(&empty.to_string());
        }
        out.push(line);
    }
    out.join("/")
}

/// Reads `key=a,b` (two numbers, White's then Black's).
pub(crate) fn pair(
    column: usize,
    key: &str,
    value: &str,
    max: u32,
) -> Result<[u32; 2], PositionTextError> {
    let bad = || {
        PositionTextError::at(
            column,
            format!("`{key}={value}`: write two numbers, White's then Black's, like `{key}=3,0`"),
        )
    };
    let (a, b) = value.split_once(',').ok_or_else(bad)?;
    let a: u32 = a.parse().map_err(|_| bad())?;
    let b: u32 = b.parse().map_err(|_| bad())?;
    for n in [a, b] {
        if n > max {
            return Err(PositionTextError::at(
                column,
                format!("`{key}={value}`: {n} is more than the {max} this variant allows"),
            ));
        }
    }
    Ok([a, b])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_know_their_columns() {
        let mut f = Fields::new("  8/8 w  12 x=1,2");
        assert_eq!(f.expect("a").unwrap(), (3, "8/8"));
        assert_eq!(f.expect("a").unwrap(), (7, "w"));
        assert_eq!(f.expect("a").unwrap(), (10, "12"));
        assert_eq!(f.rest(), vec![(13, "x=1,2")]);
        let e = f.expect("the ply").unwrap_err();
        assert_eq!(e.column, Some(18));
    }

    #[test]
    fn rows_read_digits_groups_and_letters() {
        let rows = parse_rows(1, "2W(WB)/12", &[4, 12], |i| format!("row {i}"), "square").unwrap();
        assert_eq!(rows[0].len(), 4);
        assert_eq!(rows[0][3].as_ref().unwrap().text, "WB");
        assert_eq!(rows[0][3].as_ref().unwrap().column, 3);
        assert!(rows[1].iter().all(Option::is_none));
        let e = parse_rows(1, "2W(WB)/13", &[4, 12], |i| format!("row {i}"), "square").unwrap_err();
        assert_eq!(e.column, Some(8));
        let e = parse_rows(1, "2W(WB/12", &[4, 12], |i| format!("row {i}"), "square").unwrap_err();
        assert_eq!(e.column, Some(3));
        assert_eq!(
            print_rows([vec![None, None, Some("W".into()), Some("(WB)".into())]]),
            "2W(WB)"
        );
    }
}
