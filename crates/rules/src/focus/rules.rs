//! The variant file's `Focus( … )` section and the validated rule set.
use std::{collections::BTreeMap, fmt};

use serde::{
    Deserialize, Deserializer,
    de::{MapAccess, Visitor},
};

use super::board::Board;
use super::square::{MAX_SIDE, Square};
use super::stack::{MAX_HEIGHT, MAX_SEATS, Stack};
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
    /// Tables of three and four players, by player count: each with its seats, pieces and
    /// set-up (the fields above are the two-player game; board, height limit, first player
    /// and guards are shared). Default: none, two players only.
    #[serde(default)]
    pub seats: BTreeMap<u32, SeatingSpec>,
}

/// One seat of a table of three or four.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FocusSeatSpec {
    /// What the game calls the seat ("Green"); its pieces' colour.
    pub name: String,
    /// The letter of its pieces in the set-up and in position text (`'G'`).
    pub letter: char,
}

/// The `seats: { 3: ( … ) }` entry of a variant file: a table of three or four players.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatingSpec {
    /// The seats in turn order.
    pub players: Vec<FocusSeatSpec>,
    /// Pieces each seat owns in all: set-up plus starting reserve.
    pub pieces_per_side: u32,
    /// Pieces each seat holds in reserve at the start.
    #[serde(default)]
    pub reserve: u32,
    /// The start position, square → stack written bottom to top with the seats' letters.
    pub setup: SetupEntries,
    /// Each seat's first turn must drop a reserve piece on an empty square (Milton Bradley's
    /// three-player game: the thirteenth piece starts off the board). Default `false`.
    #[serde(default)]
    pub opening_drop: bool,
    /// Four players only: opposite seats (1st and 3rd, 2nd and 4th in turn order) are
    /// partners; a partnership plays on while either partner can move and wins together.
    /// Default `false`.
    #[serde(default)]
    pub partners: bool,
    /// The ply cap of this table, if it differs from the two-player `ply_cap`.
    #[serde(default)]
    pub ply_cap: Option<i64>,
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
    /// Name and letter of every seat, in turn order (`White`/`W` and `Black`/`B` for two).
    seats: Vec<(String, char)>,
    opening_drop: bool,
    partners: bool,
}

impl FocusRules {
    /// How many seats play.
    pub fn seat_count(&self) -> usize {
        self.seats.len()
    }

    /// The seat's name ("White", "Green").
    pub fn seat_name(&self, seat: Seat) -> &str {
        &self.seats[seat.index()].0
    }

    /// The seats' piece letters, in seat order.
    pub fn letters(&self) -> Vec<char> {
        self.seats.iter().map(|s| s.1).collect()
    }

    /// Each seat's first turn is a drop on an empty square.
    pub fn opening_drop(&self) -> bool {
        self.opening_drop
    }

    /// Opposite seats of four play as partners.
    pub fn partners(&self) -> bool {
        self.partners
    }

    /// The seat's side of the table: itself, or its partnership (seat index mod 2) when
    /// opposite seats are partners.
    pub fn team(&self, seat: Seat) -> usize {
        if self.partners {
            seat.index() % 2
        } else {
            seat.index()
        }
    }

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
    /// The two-player rules; checks everything (the larger tables too) and reports every
    /// problem, each with its field.
    pub fn validate(self) -> Result<FocusRules, Vec<FieldError>> {
        self.validate_all().map(|all| {
            all.into_iter()
                .next()
                .expect("the two-player table is always there")
        })
    }

    /// The rules of every table the file offers, two players first: checks everything and
    /// reports every problem, each with its field.
    pub fn validate_all(self) -> Result<Vec<FocusRules>, Vec<FieldError>> {
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
        let playable = board.as_ref().map(|(_, p)| p.as_slice());

        let two = [("White".to_owned(), 'W'), ("Black".to_owned(), 'B')];
        let mut tables = vec![read_table(
            Table {
                field: "",
                seats: &two,
                pieces_per_side: self.pieces_per_side,
                reserve: self.reserve,
                setup: &self.setup,
            },
            playable,
            height_limit,
            &mut errors,
        )];
        let mut options = vec![(false, false, None)];

        let repetition_draw = draw_guard::repetition_draw(self.repetition_draw, &mut errors);
        let ply_cap = draw_guard::ply_cap(self.ply_cap, &mut errors);
        if self.draw_is_first_player_win && self.repetition_draw.is_none() && self.ply_cap.is_none()
        {
            errors.push(FieldError::new(
                "draw_is_first_player_win",
                "draw_is_first_player_win needs a way for the game to be drawn: set repetition_draw or ply_cap",
            ));
        }

        for (&n, seating) in &self.seats {
            let field = format!("seats.{n}");
            if !(3..=MAX_SEATS as u32).contains(&n) {
                errors.push(FieldError::new(
                    &field,
                    format!(
                        "Focus offers tables of 3 or 4 players here (two players are the fields above); {n} is not one"
                    ),
                ));
                continue;
            }
            if seating.players.len() != n as usize {
                errors.push(FieldError::new(
                    format!("{field}.players"),
                    format!(
                        "{n} players need {n} seats; {} are listed",
                        seating.players.len()
                    ),
                ));
                continue;
            }
            let seats: Vec<(String, char)> = seating
                .players
                .iter()
                .map(|p| (p.name.clone(), p.letter.to_ascii_uppercase()))
                .collect();
            for (i, (name, letter)) in seats.iter().enumerate() {
                let at = format!("{field}.players[{i}]");
                if name.trim().is_empty() {
                    errors.push(FieldError::new(&at, "a seat needs a name"));
                }
                if !letter.is_ascii_alphabetic() {
                    errors.push(FieldError::new(
                        &at,
                        format!("a seat's letter is a letter A to Z; `{letter}` is not one"),
                    ));
                }
                if let Some(j) = seats[..i].iter().position(|s| s.1 == *letter) {
                    errors.push(FieldError::new(
                        &at,
                        format!("seats {j} and {i} share the letter {letter}"),
                    ));
                }
            }
            if seating.partners && n != 4 {
                errors.push(FieldError::new(
                    format!("{field}.partners"),
                    "partners are the opposite seats of a table of four",
                ));
            }
            let cap = match seating.ply_cap {
                Some(_) => draw_guard::ply_cap(seating.ply_cap, &mut errors),
                None => ply_cap,
            };
            if seating.opening_drop && seating.reserve == 0 {
                errors.push(FieldError::new(
                    format!("{field}.opening_drop"),
                    "opening_drop makes every seat's first turn a drop, so each needs a reserve (set reserve)",
                ));
            }
            tables.push(read_table(
                Table {
                    field: &field,
                    seats: &seats,
                    pieces_per_side: seating.pieces_per_side,
                    reserve: seating.reserve,
                    setup: &seating.setup,
                },
                playable,
                height_limit,
                &mut errors,
            ));
            options.push((seating.opening_drop, seating.partners, Some(cap)));
        }

        match (board, height_limit) {
            (Some((dims, playable)), Some(limit)) if errors.is_empty() => {
                let board = Board::new(dims.0, dims.1, &playable, limit);
                Ok(tables
                    .into_iter()
                    .zip(options)
                    .map(|(table, (opening_drop, partners, cap))| {
                        let (seats, pieces_per_side, reserve, setup) =
                            table.expect("a table without errors was read");
                        FocusRules {
                            board: board.clone(),
                            height_limit: limit,
                            pieces_per_side,
                            starting_reserve: reserve,
                            setup,
                            first_player: self.first_player,
                            repetition_draw,
                            ply_cap: cap.unwrap_or(ply_cap),
                            draw_is_first_player_win: self.draw_is_first_player_win,
                            seats,
                            opening_drop,
                            partners,
                        }
                    })
                    .collect())
            }
            _ => Err(errors),
        }
    }
}

/// One table's fields as written: the two-player fields at the top of the section, or an entry
/// of `seats`.
struct Table<'a> {
    /// The entry's field path (`""` for the top of the section, `seats.3`).
    field: &'a str,
    seats: &'a [(String, char)],
    pieces_per_side: u32,
    reserve: u32,
    setup: &'a SetupEntries,
}

type ReadTable = (Vec<(String, char)>, u16, u16, Vec<(Square, Stack)>);

/// Reads and checks one table's set-up and piece counts; `None` after recording problems.
fn read_table(
    table: Table,
    playable: Option<&[Square]>,
    height_limit: Option<u8>,
    errors: &mut Vec<FieldError>,
) -> Option<ReadTable> {
    let before = errors.len();
    let path = |name: &str| {
        if table.field.is_empty() {
            name.to_owned()
        } else {
            format!("{}.{name}", table.field)
        }
    };
    let letters: Vec<char> = table.seats.iter().map(|s| s.1).collect();
    let n = letters.len();
    let mut setup: Vec<(Square, Stack)> = Vec::new();
    let mut counts = [0u32; MAX_SEATS];
    // Totals over a set-up with unreadable entries would only add confusing errors.
    let mut setup_readable = true;
    for (name, stack_text) in &table.setup.0 {
        let field = path(&format!("setup[{name:?}]"));
        let square = match name.parse::<Square>() {
            Ok(sq) => sq,
            Err(e) => {
                errors.push(FieldError::new(&field, e.to_string()));
                setup_readable = false;
                continue;
            }
        };
        if let Some(playable) = playable
            && !playable.contains(&square)
        {
            errors.push(FieldError::new(
                &field,
                format!("{square} is not a square of the board (outside it, or `#` in `board`)"),
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
        let stack = match Stack::parse_with(stack_text, &letters) {
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
        for c in Seat::all(n) {
            counts[c.index()] += u32::from(stack.count(c));
        }
        setup.push((square, stack));
    }
    setup.sort_by_key(|(sq, _)| *sq);

    let counts = &counts[..n];
    if table.pieces_per_side == 0 || table.pieces_per_side > MAX_PIECES_PER_SIDE {
        errors.push(FieldError::new(
            path("pieces_per_side"),
            format!(
                "pieces_per_side is {}; it must be between 1 and {MAX_PIECES_PER_SIDE}",
                table.pieces_per_side
            ),
        ));
    } else if !setup_readable {
        // Reported above, entry by entry.
    } else if counts.iter().any(|&c| c != counts[0]) {
        let message = if n == 2 {
            format!(
                "the set-up gives White {} pieces and Black {}; both sides must start with the same number",
                counts[0], counts[1]
            )
        } else {
            let each: Vec<String> = table
                .seats
                .iter()
                .zip(counts)
                .map(|((name, _), c)| format!("{name} {c}"))
                .collect();
            format!(
                "the set-up gives {}; every seat must start with the same number",
                each.join(", ")
            )
        };
        errors.push(FieldError::new(path("setup"), message));
    } else if counts[0] + table.reserve != table.pieces_per_side {
        errors.push(FieldError::new(
            path("pieces_per_side"),
            format!(
                "pieces_per_side is {}, but each side has {} pieces in the set-up and {} in reserve ({} in all)",
                table.pieces_per_side,
                counts[0],
                table.reserve,
                counts[0] + table.reserve
            ),
        ));
    }
    (errors.len() == before).then(|| {
        (
            table.seats.to_vec(),
            // Bounded above by MAX_PIECES_PER_SIDE.
            table.pieces_per_side as u16,
            table.reserve as u16,
            setup,
        )
    })
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
