//! The variant file's `Focus( … )` section and the validated rule set.
use std::fmt;

use serde::{
    Deserialize, Deserializer,
    de::{MapAccess, Visitor},
};

use super::board::Board;
use super::square::{MAX_SIDE, Square};
use super::stack::{MAX_HEIGHT, Stack};
use crate::{FieldError, Seat, draw_guard};

/// The largest number of pieces per side a variant may give (reserve counters are `u16`).
pub const MAX_PIECES_PER_SIDE: u32 = 4000;

/// The `rules: Focus( … )` section of a variant file, as written. See
/// `assets/variants/focus.ron` for a commented example.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FocusSpec {
    /// The board, top rank first: one string per rank, one character per file; `.` is a
    /// square, `#` is not part of the board.
    pub board: Vec<String>,
    /// The most pieces a stack may hold; taller stacks lose pieces from the bottom.
    pub height_limit: u32,
    /// Pieces each side owns in all: those in the set-up plus the starting reserve.
    pub pieces_per_side: u32,
    /// Pieces each side holds in reserve at the start.
    #[serde(default)]
    pub reserve: u32,
    /// The start position: square → stack, written bottom to top with `W` (White, Player 1)
    /// and `B` (Black, Player 2), e.g. `"c3": "W"` or `"d4": "BW"`.
    pub setup: SetupEntries,
    /// Who moves first.
    pub first_player: Seat,
    /// Engine guard (Sackson's rules have none): `Some(n)`: the n-th occurrence of the same
    /// position (board, reserves and side to move) is a draw, `Some(3)` being threefold
    /// repetition. Default `None`.
    #[serde(default)]
    pub repetition_draw: Option<i64>,
    /// Engine guard (Sackson's rules have none): `Some(n)`: the game is drawn once n plies have
    /// been played. Default `None`.
    #[serde(default)]
    pub ply_cap: Option<i64>,
    /// Sackson's suggestion against the second player's mirror strategy: a drawn game (by
    /// repetition or ply cap) counts as a win for the first player.
    #[serde(default)]
    pub draw_is_first_player_win: bool,
}

/// The set-up map in file order. Duplicate squares are kept (not silently merged as a map
/// type would) so validation can report them.
#[derive(Debug, Default)]
pub struct SetupEntries(pub Vec<(String, String)>);

impl<'de> Deserialize<'de> for SetupEntries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = SetupEntries;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(r#"a map of squares to stacks, like { "c3": "W", "d4": "BW" }"#)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SetupEntries, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, String>()? {
                    entries.push(entry);
                }
                Ok(SetupEntries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor)
    }
}

/// Validated Focus rules, shared by every position of a game.
#[derive(Debug)]
pub struct FocusRules {
    board: Board,
    height_limit: u8,
    pieces_per_side: u16,
    starting_reserve: u16,
    setup: Vec<(Square, Stack)>,
    first_player: Seat,
    repetition_draw: Option<u16>,
    ply_cap: Option<u32>,
    draw_is_first_player_win: bool,
}

impl FocusRules {
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn height_limit(&self) -> u8 {
        self.height_limit
    }

    pub fn pieces_per_side(&self) -> u16 {
        self.pieces_per_side
    }

    pub fn starting_reserve(&self) -> u16 {
        self.starting_reserve
    }

    /// The start position's stacks.
    pub fn setup(&self) -> &[(Square, Stack)] {
        &self.setup
    }

    pub fn first_player(&self) -> Seat {
        self.first_player
    }

    /// The occurrence of a position that draws (3 = threefold), if the variant has the rule.
    pub fn repetition_draw(&self) -> Option<u16> {
        self.repetition_draw
    }

    /// The ply count at which the game is drawn, if the variant has a cap.
    pub fn ply_cap(&self) -> Option<u32> {
        self.ply_cap
    }

    pub fn draw_is_first_player_win(&self) -> bool {
        self.draw_is_first_player_win
    }
}

impl FocusSpec {
    /// Checks everything and reports every problem, each with its field.
    pub fn validate(self) -> Result<FocusRules, Vec<FieldError>> {
        let mut errors = Vec::new();

        let height_limit = match u8::try_from(self.height_limit) {
            Ok(h @ 1..=MAX_HEIGHT) => Some(h),
            _ => {
                errors.push(FieldError::new(
                    "height_limit",
                    format!(
                        "height_limit is {}; it must be between 1 and {MAX_HEIGHT} (the standard game uses 5)",
                        self.height_limit
                    ),
                ));
                None
            }
        };

        let board = read_board(&self.board, &mut errors);

        // The set-up: every entry checked on its own, then the totals.
        let mut setup: Vec<(Square, Stack)> = Vec::new();
        let mut counts = [0u32; 2];
        // Totals over a set-up with unreadable entries would only add confusing errors.
        let mut setup_readable = true;
        for (name, stack_text) in &self.setup.0 {
            let field = format!("setup[{name:?}]");
            let square = match name.parse::<Square>() {
                Ok(sq) => sq,
                Err(e) => {
                    errors.push(FieldError::new(&field, e.to_string()));
                    setup_readable = false;
                    continue;
                }
            };
            if let Some((_, playable)) = &board
                && !playable.contains(&square)
            {
                errors.push(FieldError::new(
                    &field,
                    format!(
                        "{square} is not a square of the board (outside it, or `#` in `board`)"
                    ),
                ));
            }
            if setup.iter().any(|(s, _)| *s == square) {
                errors.push(FieldError::new(
                    &field,
                    format!("{square} is listed twice in the set-up"),
                ));
                setup_readable = false;
                continue;
            }
            let stack = match stack_text.parse::<Stack>() {
                Ok(stack) if stack.is_empty() => {
                    errors.push(FieldError::new(
                        &field,
                        format!(
                            "the stack on {square} is empty; leave empty squares out of the set-up"
                        ),
                    ));
                    continue;
                }
                Ok(stack) => stack,
                Err(e) => {
                    errors.push(FieldError::new(&field, format!("{square}: {e}")));
                    setup_readable = false;
                    continue;
                }
            };
            if let Some(limit) = height_limit
                && stack.height() > limit
            {
                errors.push(FieldError::new(
                    &field,
                    format!(
                        "the stack on {square} has {} pieces, more than height_limit {limit}",
                        stack.height()
                    ),
                ));
            }
            for c in Seat::BOTH {
                counts[c.index()] += u32::from(stack.count(c));
            }
            setup.push((square, stack));
        }
        setup.sort_by_key(|(sq, _)| *sq);

        if self.pieces_per_side == 0 || self.pieces_per_side > MAX_PIECES_PER_SIDE {
            errors.push(FieldError::new(
                "pieces_per_side",
                format!(
                    "pieces_per_side is {}; it must be between 1 and {MAX_PIECES_PER_SIDE}",
                    self.pieces_per_side
                ),
            ));
        } else if !setup_readable {
            // Reported above, entry by entry.
        } else if counts[0] != counts[1] {
            errors.push(FieldError::new(
                "setup",
                format!(
                    "the set-up gives White {} pieces and Black {}; both sides must start with the same number",
                    counts[0], counts[1]
                ),
            ));
        } else if counts[0] + self.reserve != self.pieces_per_side {
            errors.push(FieldError::new(
                "pieces_per_side",
                format!(
                    "pieces_per_side is {}, but each side has {} pieces in the set-up and {} in reserve ({} in all)",
                    self.pieces_per_side,
                    counts[0],
                    self.reserve,
                    counts[0] + self.reserve
                ),
            ));
        }

        let repetition_draw = draw_guard::repetition_draw(self.repetition_draw, &mut errors);
        let ply_cap = draw_guard::ply_cap(self.ply_cap, &mut errors);
        if self.draw_is_first_player_win && self.repetition_draw.is_none() && self.ply_cap.is_none()
        {
            errors.push(FieldError::new(
                "draw_is_first_player_win",
                "draw_is_first_player_win needs a way for the game to be drawn: set repetition_draw or ply_cap",
            ));
        }

        match (board, height_limit) {
            (Some((dims, playable)), Some(limit)) if errors.is_empty() => Ok(FocusRules {
                board: Board::new(dims.0, dims.1, &playable, limit),
                height_limit: limit,
                // Both bounded above (MAX_PIECES_PER_SIDE, repetition check).
                pieces_per_side: self.pieces_per_side as u16,
                starting_reserve: self.reserve as u16,
                setup,
                first_player: self.first_player,
                repetition_draw,
                ply_cap,
                draw_is_first_player_win: self.draw_is_first_player_win,
            }),
            _ => Err(errors),
        }
    }
}

/// Reads the `board` rows: `((width, height), playable squares)`, or `None` after recording
/// the problems.
fn read_board(rows: &[String], errors: &mut Vec<FieldError>) -> Option<((u8, u8), Vec<Square>)> {
    let before = errors.len();
    if rows.is_empty() {
        errors.push(FieldError::new(
            "board",
            "the board has no rows; write one string per rank, top rank first, `.` for a square and `#` for no square",
        ));
        return None;
    }
    if rows.len() > usize::from(MAX_SIDE) {
        errors.push(FieldError::new(
            "board",
            format!(
                "the board has {} ranks; at most {MAX_SIDE} are supported",
                rows.len()
            ),
        ));
    }
    let width = rows[0].chars().count();
    if width == 0 || width > usize::from(MAX_SIDE) {
        errors.push(FieldError::new(
            "board[0]",
            format!("the top row has {width} files; a board has 1 to {MAX_SIDE} files"),
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let len = row.chars().count();
        if len != width {
            errors.push(FieldError::new(
                format!("board[{i}]"),
                format!(
                    "row {} (\"{row}\") has {len} characters but the top row has {width}; all rows must be equally long",
                    i + 1
                ),
            ));
        }
        if let Some(bad) = row.chars().find(|c| !matches!(c, '.' | '#')) {
            errors.push(FieldError::new(
                format!("board[{i}]"),
                format!(
                    "row {} (\"{row}\") contains `{bad}`; use `.` for a square and `#` for no square",
                    i + 1
                ),
            ));
        }
    }
    if errors.len() > before {
        return None;
    }
    let height = rows.len() as u8;
    let mut playable = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = height - 1 - i as u8;
        for (file, c) in row.chars().enumerate() {
            if c == '.' {
                playable.extend(Square::new(file as u8, rank));
            }
        }
    }
    if playable.len() < 2 {
        errors.push(FieldError::new(
            "board",
            "the board needs at least two squares (`.`)",
        ));
        return None;
    }
    // A square without an on-board neighbour would let a side control a stack and still have
    // no move, which the end rule (no stack and no reserve = loss) does not cover.
    let isolated: Vec<String> = playable
        .iter()
        .filter(|sq| {
            super::square::Direction::ALL
                .iter()
                .all(|&d| sq.offset(d, 1).is_none_or(|n| !playable.contains(&n)))
        })
        .map(|sq| sq.to_string())
        .collect();
    if !isolated.is_empty() {
        errors.push(FieldError::new(
            "board",
            format!(
                "every square needs a neighbouring square (up, down, left or right) so that a single piece can move; isolated: {}",
                isolated.join(", ")
            ),
        ));
        return None;
    }
    Some(((width as u8, height), playable))
}
