//! The race family's variant schema ([`RaceSpec`], what a RON file says) and its validated form
//! ([`RaceRules`], with the lookup tables the move generator uses).
use std::{collections::BTreeMap, fmt};

use serde::Deserialize;

use super::{
    bitboard::{Bits, Wide},
    classes::ClassTables,
    parity::{self, ParityTables},
    square::{Dir, Directions, MAX_SIDE, Square},
};
use crate::{FieldError, Seat, draw_guard};

/// The `rules: Race( … )` block of a variant file. Field by field documentation is in the
/// shipped files (`assets/variants/ugolki-hg-3x3.ron` is a good one to copy,
/// `chinese-checkers.ron` for boards drawn as data and more than two seats) and in
/// `docs/modding.md`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceSpec {
    /// Board size in squares, 1 to 19 each, for a rectangular board (`board: Rectangle`, the
    /// default). Files are a… (left to right), ranks 1… (bottom up). Other shapes size
    /// themselves and leave these out.
    #[serde(default)]
    pub width: u32,
    #[serde(default)]
    pub height: u32,
    /// The board's cells: the whole `width × height` rectangle (default), rows of characters,
    /// or a named shape (`Star(4)`, `Hexagon(5)`).
    #[serde(default)]
    pub board: BoardSpec,
    /// Directions of both steps and jumps: `Orthogonal`, `Diagonal`, `All` (square grids) or
    /// `Hex` (the six directions of a hex grid in axial coordinates).
    pub directions: Directions,
    /// White's home camp = where White's pieces start = Black's target, for the two-seat game
    /// of a format-1 file. Entries are squares (`"f1"`) or rectangles given by two opposite
    /// corners (`"f1:h3"`).
    #[serde(default)]
    pub white_camp: Vec<String>,
    /// Black's home camp = Black's start = White's target.
    #[serde(default)]
    pub black_camp: Vec<String>,
    /// Named sets of cells (camps, the points of a star) that seats start in and race to.
    /// `Star(n)` boards name their six points `S`, `SW`, `NW`, `N`, `NE`, `SE` themselves.
    #[serde(default)]
    pub regions: Vec<RegionSpec>,
    /// The seats for each number of players the variant offers, in turn order: each seat's
    /// name, letter (in position text), home region and target region. A format-1 file's
    /// `white_camp` and `black_camp` are the two-seat entry.
    #[serde(default)]
    pub seats: BTreeMap<u32, Vec<SeatSpec>>,
    /// Who moves first (a seat of the table, by its place in the list). Default `White`
    /// (seat 0).
    #[serde(default = "first_seat")]
    pub first_player: Seat,
    /// A piece that has been outside its home camp may not land on it again (Happy-Games
    /// Ugolki). Default `false`.
    #[serde(default)]
    pub no_return_home: bool,
    /// May a piece end its move in a region that is neither its home nor its target? (It may
    /// always pass through.) Default `true`; Chinese checkers says `false`.
    #[serde(default = "yes")]
    pub rest_in_other_regions: bool,
    /// When a piece in its target camp is stuck there. Default `Off`.
    #[serde(default)]
    pub target_lock: TargetLock,
    /// Long hops ("Super Chinese checkers"): a piece may also hop over a single piece any
    /// distance away along a line, the cells between empty, landing as far beyond it (every
    /// cell between the hopped piece and the landing empty). Default `false`.
    #[serde(default)]
    pub long_hops: bool,
    /// What a seat must achieve in its target to finish.
    pub win: WinRule,
    /// With more than two seats: `PlayOn` (default), a finished seat's turns are skipped and
    /// the others play on for the places until one is left; `FirstFinish`, the game ends at the
    /// first finish and the others share second place. Two seats: the same either way.
    #[serde(default)]
    pub end: EndRule,
    /// Partnerships (Halma for four): opposite seats — seat i and seat i + n/2 of a table of n —
    /// play as a team. A team has finished when every partner has; the first team to finish
    /// wins (its partners share first place) and the game ends, the other teams sharing the
    /// places after it. Every seat count of the variant must then be even and at least four.
    /// Default `false`.
    #[serde(default)]
    pub partners: bool,
    /// When the first player completes the win, the second player still gets one reply; if it
    /// completes too, the game is drawn (9qum Ugolki; two seats only). Default `false`.
    #[serde(default)]
    pub equalising_reply: bool,
    /// After this ply, a side that still has a piece on its own home squares loses (both: draw;
    /// two seats only). 9qum's 40-move rule is `Some(80)`. Default `None`.
    #[serde(default)]
    pub home_clear_ply: Option<u32>,
    /// After this ply the game ends: more own pieces in the target camp wins, equal is a draw
    /// (two seats only). 9qum's 100-move count is `Some(200)`. Default `None`.
    #[serde(default)]
    pub count_ply: Option<u32>,
    /// What happens to a seat that has no legal move on its turn: `Loses` (default; it takes
    /// the last place open and the others play on), `Pass` (the turn goes on to the next seat)
    /// or `Draw` (two seats only).
    #[serde(default)]
    pub no_legal_move: NoLegalMove,
    /// Engine guard: `Some(n)`: the n-th occurrence of the same position (board and side to
    /// move) ends the game, the seats not yet finished sharing the places left (a draw for
    /// two). `Some(3)` is threefold repetition. Default `None`.
    #[serde(default)]
    pub repetition_draw: Option<i64>,
    /// Engine guard: `Some(n)`: the game ends once n plies have been played, as above. Default
    /// `None`.
    #[serde(default)]
    pub ply_cap: Option<i64>,
    /// Engine guard: as `ply_cap`, as a number of plies per seat (`Some(200)`: 400 plies for
    /// two, 1200 for six). Default `None`.
    #[serde(default)]
    pub ply_cap_per_seat: Option<i64>,
}

fn first_seat() -> Seat {
    Seat::WHITE
}

fn no_letter() -> char {
    ' '
}

fn yes() -> bool {
    true
}

/// Which cells of the grid are on the board.
#[derive(Debug, Clone, Default, Deserialize)]
pub enum BoardSpec {
    /// Every cell of `width × height`.
    #[default]
    Rectangle,
    /// One string per rank, the top rank first, one character per file from `a`: `.` (or any
    /// letter) is a cell, `#`, `-` and spaces are not. On a hex grid file and rank are the
    /// cell's axial coordinates, so each rank is drawn half a cell further right than the one
    /// below it.
    Rows(Vec<String>),
    /// A six-pointed star on the hex grid: a hexagon of side `n + 1` with a triangle of `n`
    /// rows on each side (`Star(4)`: Chinese checkers' 121 cells, files a–q, ranks 1–17). Its
    /// points are the regions `S`, `SW`, `NW`, `N`, `NE`, `SE`.
    Star(u32),
    /// A hexagon of `n` cells a side on the hex grid.
    Hexagon(u32),
}

/// A named set of cells.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionSpec {
    pub name: String,
    /// Squares (`"f1"`) or rectangles (`"f1:h3"`).
    pub cells: Vec<String>,
}

/// One seat of a table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatSpec {
    /// What the game calls the seat ("Red"); its pieces' colour.
    pub name: String,
    /// The seat's letter in position text (`'R'`); default the name's first letter.
    #[serde(default = "no_letter")]
    pub letter: char,
    /// The region its pieces start in.
    pub home: String,
    /// The region it races to.
    pub target: String,
}

/// When a piece inside its target camp is locked in it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
pub enum TargetLock {
    /// Never: pieces may leave the target again (9qum Ugolki).
    #[default]
    Off,
    /// A piece that *starts its turn* in the target may land only inside it; a chain that merely
    /// passes through the target may leave it again (Happy-Games Ugolki).
    StartOfTurn,
    /// Once a piece lands in the target, even mid-chain, every later landing must be inside it
    /// (Halma, Chinese checkers).
    PerLanding,
}

/// What a seat must achieve in its target to finish (checked after every ply).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Deserialize)]
pub enum WinRule {
    /// Every target square holds one of the seat's own pieces (Halma, 9qum Ugolki).
    FillWithOwn,
    /// Every target square is occupied, by any seat's pieces, and at least one holds an own
    /// piece: the anti-blocking rule of Happy-Games Ugolki (Parlett's anti-spoiling rule in
    /// Halma, the usual rule of Chinese checkers).
    FullWithAnyOwn,
}

/// When a game of more than two seats ends.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
pub enum EndRule {
    /// Play on for the places until one seat is left unfinished.
    #[default]
    PlayOn,
    /// The first seat to finish wins; the others share second place.
    FirstFinish,
}

/// What happens to a seat without a legal move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
pub enum NoLegalMove {
    /// The seat is out: it takes the last place still open, and the others play on (with two
    /// seats, the other wins).
    #[default]
    Loses,
    /// The game is drawn (two seats only).
    Draw,
    /// The turn goes to the next seat; if no seat can move, the game ends and the seats not yet
    /// finished share the places left.
    Pass,
}

/// A seat of a validated table.
#[derive(Clone, Debug)]
pub struct SeatRules {
    pub name: String,
    pub letter: char,
    /// Indices into [`RaceRules::regions`].
    pub home: usize,
    pub target: usize,
}

/// A named region of a validated board.
#[derive(Clone, Debug)]
pub struct Region {
    pub name: String,
    /// In bit order.
    pub squares: Vec<Square>,
}

/// How the cells of a board are laid out as bits: bit `rank * stride + file - base`. A full
/// rectangle has `stride = width` and `base = 0`; a shape that is narrower than its box row by
/// row (a star) packs its rows closer, so that a 121-cell star fits 256 bits. Neighbours stay a
/// fixed bit distance apart either way, which is all the set-wise move generator needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub stride: u16,
    pub base: u16,
    /// One past the highest bit index.
    pub span: u16,
}

/// A validated rule set for one number of seats. Shared between positions through an `Arc`.
pub struct RaceRules {
    width: u8,
    height: u8,
    layout: Layout,
    /// The cells in bit order.
    cells: Vec<Square>,
    /// Whether every cell of the `width × height` box is on the board.
    rectangular: bool,
    directions: Directions,
    regions: Vec<Region>,
    seats: Vec<SeatRules>,
    /// The seat counts the variant offers (this table's among them).
    seat_counts: Vec<usize>,
    /// Pieces per seat (the size of every home), read at every ply by the finish rules.
    pieces_per_side: usize,
    first_player: Seat,
    no_return_home: bool,
    rest_in_other_regions: bool,
    target_lock: TargetLock,
    long_hops: bool,
    win: WinRule,
    end: EndRule,
    partners: bool,
    equalising_reply: bool,
    home_clear_ply: Option<u32>,
    count_ply: Option<u32>,
    no_legal_move: NoLegalMove,
    repetition_draw: Option<u16>,
    ply_cap: Option<u32>,
    /// The board's cells as a bit set.
    pub(crate) board_bits: Wide,
    /// Per seat: its home, its target, and where its moves may end (everything but other
    /// seats' regions when `rest_in_other_regions` is off).
    pub(crate) homes: Vec<Wide>,
    pub(crate) targets: Vec<Wide>,
    pub(crate) rest: Vec<Wide>,
    /// The square of every bit index (those off the board hold a1).
    index_squares: Vec<Square>,
    pub(crate) tables: TableSet,
    /// Per bit index: the cell's class << 6 | its bit in the class, so a position keeps its
    /// occupied cells split by class as the class floods read them.
    class_codes: Vec<u8>,
    /// Whether the move generator floods by class (16-wide boards, and boards whose classes
    /// fit a word each); elsewhere the position need not keep its cells split by class.
    class_floods: bool,
}

/// The cells of a board and its regions, before the seats are read.
struct Geometry {
    width: u8,
    height: u8,
    cells: Vec<Square>,
    rectangular: bool,
    /// Regions the shape itself names (a star's points).
    regions: Vec<Region>,
}

fn shape_geometry(spec: &RaceSpec, errors: &mut Vec<FieldError>) -> Option<Geometry> {
    let side_ok = |v: u32, what: &str, field: &str, errors: &mut Vec<FieldError>| {
        if (1..=u32::from(MAX_SIDE)).contains(&v) {
            true
        } else {
            errors.push(FieldError::new(
                field,
                format!("the board must be 1 to {MAX_SIDE} squares {what}; {v} is not supported"),
            ));
            false
        }
    };
    let given = |errors: &mut Vec<FieldError>, what: &str| {
        for (field, v) in [("width", spec.width), ("height", spec.height)] {
            if v != 0 {
                errors.push(FieldError::new(
                    field,
                    format!("a {what} board sizes itself; leave `{field}` out"),
                ));
            }
        }
    };
    let hex = spec.directions == Directions::Hex;
    let axial =
        |n: i32, shape: &str, on: &dyn Fn(i32, i32) -> bool, errors: &mut Vec<FieldError>| {
            if !hex {
                errors.push(FieldError::new(
                    "directions",
                    format!("a {shape} board is drawn on the hex grid; set `directions: Hex`"),
                ));
            }
            let side = 2 * n + 1;
            let cells: Vec<Square> = (0..side)
                .flat_map(|r| (0..side).map(move |f| (f, r)))
                .filter(|&(f, r)| on(f - n, r - n))
                .filter_map(|(f, r)| Square::new(f as u8, r as u8))
                .collect();
            (side as u8, cells)
        };
    match &spec.board {
        BoardSpec::Rectangle => {
            let w_ok = side_ok(spec.width, "wide", "width", errors);
            let h_ok = side_ok(spec.height, "high", "height", errors);
            if !(w_ok && h_ok) {
                return None;
            }
            let (width, height) = (spec.width as u8, spec.height as u8);
            let cells = (0..height)
                .flat_map(|r| (0..width).filter_map(move |f| Square::new(f, r)))
                .collect();
            Some(Geometry {
                width,
                height,
                cells,
                rectangular: true,
                regions: Vec::new(),
            })
        }
        BoardSpec::Rows(rows) => {
            given(errors, "`Rows`");
            let height = rows.len();
            let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
            if !(1..=usize::from(MAX_SIDE)).contains(&height)
                || !(1..=usize::from(MAX_SIDE)).contains(&width)
            {
                errors.push(FieldError::new(
                    "board",
                    format!(
                        "the rows must make a board of 1 to {MAX_SIDE} cells each way; these are {width} wide and {height} high"
                    ),
                ));
                return None;
            }
            let mut cells = Vec::new();
            for (i, row) in rows.iter().enumerate() {
                let rank = (height - 1 - i) as u8;
                for (file, c) in row.chars().enumerate() {
                    match c {
                        '#' | '-' | ' ' => {}
                        c if c == '.' || c.is_alphanumeric() => {
                            cells.extend(Square::new(file as u8, rank));
                        }
                        other => errors.push(FieldError::new(
                            format!("board[{i}]"),
                            format!(
                                "`{other}` is neither a cell (`.`) nor a gap (`#`, `-`, space)"
                            ),
                        )),
                    }
                }
            }
            cells.sort_by_key(|s| (s.rank(), s.file()));
            let rectangular = cells.len() == width * height;
            Some(Geometry {
                width: width as u8,
                height: height as u8,
                cells,
                rectangular,
                regions: Vec::new(),
            })
        }
        BoardSpec::Star(n) => {
            given(errors, "`Star`");
            if !(1..=4).contains(n) {
                errors.push(FieldError::new(
                    "board",
                    format!("a star's points have 1 to 4 rows (Star(4) is Chinese checkers); {n} is not supported"),
                ));
                return None;
            }
            let k = *n as i32;
            let on = |q: i32, r: i32| {
                (q >= -k && r >= -k && q + r <= k) || (q <= k && r <= k && q + r >= -k)
            };
            let (side, cells) = axial(2 * k, "star", &on, errors);
            let centre = 2 * k;
            let point = |name: &str, inside: &dyn Fn(i32, i32) -> bool| Region {
                name: name.to_owned(),
                squares: cells
                    .iter()
                    .copied()
                    .filter(|s| inside(i32::from(s.file()) - centre, i32::from(s.rank()) - centre))
                    .collect(),
            };
            let regions = vec![
                point("S", &|_, r| r < -k),
                point("SW", &|q, r| q + r < -k),
                point("NW", &|q, _| q < -k),
                point("N", &|_, r| r > k),
                point("NE", &|q, r| q + r > k),
                point("SE", &|q, _| q > k),
            ];
            Some(Geometry {
                width: side,
                height: side,
                cells,
                rectangular: false,
                regions,
            })
        }
        BoardSpec::Hexagon(n) => {
            given(errors, "`Hexagon`");
            let max = u32::from(MAX_SIDE).div_ceil(2);
            if !(2..=max).contains(n) {
                errors.push(FieldError::new(
                    "board",
                    format!("a hexagon has 2 to {max} cells a side; {n} is not supported"),
                ));
                return None;
            }
            let k = *n as i32 - 1;
            let on = |q: i32, r: i32| q.abs() <= k && r.abs() <= k && (q + r).abs() <= k;
            let (side, cells) = axial(k, "hexagon", &on, errors);
            Some(Geometry {
                width: side,
                height: side,
                cells,
                rectangular: false,
                regions: Vec::new(),
            })
        }
    }
}

/// The bit layout of a board: its box's width as the stride when it is a rectangle, else the
/// smallest stride that keeps every cell's bit distinct and in rank order.
fn layout_of(geo: &Geometry) -> Layout {
    let (w, h) = (usize::from(geo.width), usize::from(geo.height));
    let stride = if geo.rectangular {
        w
    } else {
        // Row extents; rows without cells are left out of the comparison.
        let mut rows: Vec<(usize, usize, usize)> = Vec::new();
        for r in 0..h {
            let files = geo
                .cells
                .iter()
                .filter(|s| usize::from(s.rank()) == r)
                .map(|s| usize::from(s.file()));
            if let (Some(lo), Some(hi)) = (files.clone().min(), files.max()) {
                rows.push((r, lo, hi));
            }
        }
        let mut stride = 2; // a hex grid's (-1, +1) neighbour must lie ahead in bit order
        for (i, &(r1, _, hi)) in rows.iter().enumerate() {
            for &(r2, lo, _) in &rows[i + 1..] {
                // Every cell of rank r2 must come after every cell of rank r1.
                let need = (hi.saturating_sub(lo)) / (r2 - r1) + 1;
                stride = stride.max(need);
            }
        }
        stride.max(2)
    };
    let at = |s: &Square| usize::from(s.rank()) * stride + usize::from(s.file());
    let base = geo.cells.iter().map(at).min().unwrap_or(0);
    let top = geo.cells.iter().map(at).max().unwrap_or(0);
    Layout {
        stride: stride as u16,
        base: base as u16,
        span: (top - base + 1) as u16,
    }
}

impl RaceSpec {
    /// Checks everything for every seat count and returns the rules of the smallest one.
    pub fn validate(self) -> Result<RaceRules, Vec<FieldError>> {
        self.validate_all().map(|mut all| all.remove(0))
    }

    /// Checks everything and reports every problem, each with its field; on success, the
    /// rules for each seat count the variant offers, fewest seats first.
    pub fn validate_all(self) -> Result<Vec<RaceRules>, Vec<FieldError>> {
        let mut errors = Vec::new();
        let geometry = shape_geometry(&self, &mut errors);
        let on_board = |geo: &Geometry, s: Square| {
            geo.cells
                .binary_search_by_key(&(s.rank(), s.file()), |c| (c.rank(), c.file()))
                .is_ok()
        };
        let errors_before_regions = errors.len();
        // Regions: the shape's own, the format-1 camps, and the file's list.
        let mut regions: Vec<Region> = geometry
            .as_ref()
            .map(|g| g.regions.clone())
            .unwrap_or_default();
        let camp_lists = [
            ("white_camp", "White", &self.white_camp),
            ("black_camp", "Black", &self.black_camp),
        ];
        let format1 = !self.white_camp.is_empty() || !self.black_camp.is_empty();
        if format1 {
            for (field, side, entries) in camp_lists {
                let squares = read_cells(
                    field,
                    side,
                    entries,
                    geometry.as_ref(),
                    &on_board,
                    &mut errors,
                );
                regions.push(Region {
                    name: side.to_lowercase(),
                    squares,
                });
            }
            // Overlap: report each shared square once, at its place in black_camp.
            for (i, entry) in self.black_camp.iter().enumerate() {
                let shared: Vec<String> = expand_entry(entry)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|s| regions[regions.len() - 2].squares.contains(s))
                    .map(|s| s.to_string())
                    .collect();
                if !shared.is_empty() {
                    errors.push(FieldError::new(
                        format!("black_camp[{i}]"),
                        format!(
                            "{} {} in both camps; a square can belong to one camp only",
                            shared.join(", "),
                            if shared.len() == 1 { "is" } else { "are" }
                        ),
                    ));
                }
            }
        }
        for (i, region) in self.regions.iter().enumerate() {
            let field = format!("regions[{i}]");
            if regions.iter().any(|r| r.name == region.name) {
                errors.push(FieldError::new(
                    format!("{field}.name"),
                    format!("there is already a region called `{}`", region.name),
                ));
                continue;
            }
            let squares = read_cells(
                &format!("{field}.cells"),
                &region.name,
                &region.cells,
                geometry.as_ref(),
                &on_board,
                &mut errors,
            );
            regions.push(Region {
                name: region.name.clone(),
                squares,
            });
        }
        // Seats per count.
        let mut tables: BTreeMap<u32, Vec<SeatSpec>> = self.seats.clone();
        if format1 {
            let seat = |name: &str, letter, home: &str, target: &str| SeatSpec {
                name: name.to_owned(),
                letter,
                home: home.to_owned(),
                target: target.to_owned(),
            };
            match tables.entry(2) {
                std::collections::btree_map::Entry::Occupied(_) => errors.push(FieldError::new(
                    "seats",
                    "two seats are given twice: by white_camp and black_camp, and in `seats`; keep one",
                )),
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(vec![
                        seat("White", 'W', "white", "black"),
                        seat("Black", 'B', "black", "white"),
                    ]);
                }
            }
        }
        if tables.is_empty() {
            errors.push(FieldError::new(
                "seats",
                "no seats: give white_camp and black_camp, or `seats` with the seats of each player count",
            ));
        }
        if self.partners
            && let Some(n) = tables.keys().find(|&&n| n < 4 || n % 2 == 1)
        {
            errors.push(FieldError::new(
                "partners",
                format!("partners need an even table of four or more seats (opposite seats are partners), but the variant offers {n}; give the partnership game its own file"),
            ));
        }
        let repetition_draw = draw_guard::repetition_draw(self.repetition_draw, &mut errors);
        let ply_cap = draw_guard::ply_cap(self.ply_cap, &mut errors);
        let per_seat = draw_guard::ply_cap(self.ply_cap_per_seat, &mut errors);
        if ply_cap.is_some() && per_seat.is_some() {
            errors.push(FieldError::new(
                "ply_cap_per_seat",
                "give ply_cap or ply_cap_per_seat, not both",
            ));
        }
        for (field, v) in [
            ("home_clear_ply", self.home_clear_ply),
            ("count_ply", self.count_ply),
        ] {
            if v == Some(0) {
                errors.push(FieldError::new(
                    field,
                    "must be at least 1 (use None to switch the rule off)",
                ));
            }
        }
        if let (Some(cap), Some(h)) = (ply_cap, self.home_clear_ply)
            && h >= cap
        {
            errors.push(FieldError::new(
                "home_clear_ply",
                format!("home_clear_ply ({h}) is not before ply_cap ({cap}); the game ends first, so the rule would never be checked"),
            ));
        }
        if let (Some(cap), Some(c)) = (ply_cap, self.count_ply)
            && c > cap
        {
            errors.push(FieldError::new(
                "count_ply",
                format!("count_ply ({c}) is after ply_cap ({cap}); the game ends first, so the count would never happen"),
            ));
        }
        if let (Some(c), Some(h)) = (self.count_ply, self.home_clear_ply)
            && h >= c
        {
            errors.push(FieldError::new(
                "home_clear_ply",
                format!("home_clear_ply ({h}) is not before count_ply ({c}); the game ends at the count, so the rule would never be checked"),
            ));
        }
        let layout = geometry.as_ref().map(layout_of);
        if let Some(l) = layout
            && usize::from(l.span) > Wide::CAPACITY
        {
            errors.push(FieldError::new(
                "board",
                format!("the board needs {} bits as laid out; at most {} are supported (a 16×16 square, or a 17×17 star)", l.span, Wide::CAPACITY),
            ));
        }
        let seat_counts: Vec<usize> = tables.keys().map(|&k| k as usize).collect();
        let mut seatings = Vec::new();
        // Seats are checked only when the regions were read without problems: a bad entry
        // would make homes and targets differ for no reason of their own.
        let regions_read = errors.len() == errors_before_regions;
        for (&count, seats) in tables.iter().filter(|_| regions_read) {
            let field = format!("seats.{count}");
            let n = count as usize;
            if !(2..=Seat::MAX).contains(&n) {
                errors.push(FieldError::new(
                    field,
                    format!(
                        "a table seats 2 to {} players; {count} is not supported",
                        Seat::MAX
                    ),
                ));
                continue;
            }
            if seats.len() != n {
                errors.push(FieldError::new(
                    field,
                    format!(
                        "{count} players need {count} seats; {} are listed",
                        seats.len()
                    ),
                ));
                continue;
            }
            if n > 2 {
                for (what, on) in [
                    ("equalising_reply", self.equalising_reply),
                    ("home_clear_ply", self.home_clear_ply.is_some()),
                    ("count_ply", self.count_ply.is_some()),
                    ("no_legal_move", self.no_legal_move == NoLegalMove::Draw),
                ] {
                    if on {
                        errors.push(FieldError::new(
                            what,
                            format!(
                                "{what} is a rule of two-seat games; with {count} players use {}",
                                if what == "no_legal_move" {
                                    "Loses or Pass"
                                } else {
                                    "None"
                                }
                            ),
                        ));
                    }
                }
            }
            if self.first_player.index() >= n {
                errors.push(FieldError::new(
                    "first_player",
                    format!(
                        "{} is not a seat of the {count}-player table",
                        self.first_player
                    ),
                ));
            }
            let mut rules_seats = Vec::new();
            for (i, seat) in seats.iter().enumerate() {
                let at = format!("{field}[{i}]");
                let find = |name: &str, what: &str, errors: &mut Vec<FieldError>| {
                    let found = regions.iter().position(|r| r.name == name);
                    if found.is_none() {
                        errors.push(FieldError::new(
                            format!("{at}.{what}"),
                            format!("there is no region called `{name}`"),
                        ));
                    }
                    found
                };
                let home = find(&seat.home, "home", &mut errors);
                let target = find(&seat.target, "target", &mut errors);
                let letter = Some(seat.letter)
                    .filter(|&c| c != ' ')
                    .or_else(|| seat.name.chars().next())
                    .unwrap_or('?')
                    .to_ascii_uppercase();
                if !letter.is_ascii_alphabetic() {
                    errors.push(FieldError::new(
                        format!("{at}.letter"),
                        format!("`{letter}` is not a letter A–Z"),
                    ));
                }
                if let (Some(home), Some(target)) = (home, target) {
                    if home == target {
                        errors.push(FieldError::new(
                            format!("{at}.target"),
                            "a seat's target must not be its own home",
                        ));
                    }
                    if regions[target].squares.is_empty() {
                        errors.push(FieldError::new(
                            format!("{at}.target"),
                            format!("the target `{}` has no cells", seat.target),
                        ));
                    }
                    rules_seats.push(SeatRules {
                        name: seat.name.clone(),
                        letter,
                        home,
                        target,
                    });
                }
            }
            // Shared homes, letters and names, read from the file's entries (so they are
            // reported even when another entry of the table names a region that does not
            // exist).
            let letter_of = |spec: &SeatSpec| {
                Some(spec.letter)
                    .filter(|&c| c != ' ')
                    .or_else(|| spec.name.chars().next())
                    .unwrap_or('?')
                    .to_ascii_uppercase()
            };
            for (i, a) in seats.iter().enumerate() {
                for (j, b) in seats[..i].iter().enumerate() {
                    if a.home == b.home {
                        errors.push(FieldError::new(format!("{field}[{i}].home"), format!("seats {j} and {i} share the home `{}`; each seat starts in its own", a.home)));
                    }
                    if letter_of(a) == letter_of(b) {
                        errors.push(FieldError::new(
                            format!("{field}[{i}].letter"),
                            format!("seats {j} and {i} share the letter {}", letter_of(a)),
                        ));
                    }
                    if a.name == b.name {
                        errors.push(FieldError::new(
                            format!("{field}[{i}].name"),
                            format!("seats {j} and {i} are both called {}", a.name),
                        ));
                    }
                }
            }
            if rules_seats.len() != n {
                continue;
            }
            let sizes: Vec<usize> = rules_seats
                .iter()
                .map(|s| regions[s.home].squares.len())
                .collect();
            let from_camps = format1 && count == 2;
            if from_camps && sizes[0] != sizes[1] && sizes[0] > 0 {
                errors.push(FieldError::new(
                    "black_camp",
                    format!(
                        "the camps must be the same size (each side has one piece per square of its camp): white_camp has {} squares, black_camp has {}",
                        sizes[0], sizes[1]
                    ),
                ));
            } else if sizes.iter().any(|&k| k != sizes[0]) || sizes[0] == 0 {
                errors.push(FieldError::new(
                    field.clone(),
                    format!("every seat's home must have the same number of cells, at least one (one piece per cell): {}", rules_seats.iter().zip(&sizes).map(|(s, k)| format!("{} {k}", regions[s.home].name)).collect::<Vec<_>>().join(", ")),
                ));
            } else {
                for (i, s) in rules_seats.iter().enumerate() {
                    if regions[s.target].squares.len() != sizes[0] {
                        errors.push(FieldError::new(
                            format!("{field}[{i}].target"),
                            format!("the target `{}` has {} cells and the home {}; a seat fills its target with its pieces", regions[s.target].name, regions[s.target].squares.len(), sizes[0]),
                        ));
                    }
                }
            }
            // Homes of one table never overlap (a cell holds one piece at the start).
            for (i, a) in rules_seats.iter().enumerate() {
                for b in &rules_seats[..i] {
                    if a.home != b.home
                        && regions[a.home]
                            .squares
                            .iter()
                            .any(|c| regions[b.home].squares.contains(c))
                    {
                        errors.push(FieldError::new(
                            format!("{field}[{i}].home"),
                            format!(
                                "the homes `{}` and `{}` overlap",
                                regions[a.home].name, regions[b.home].name
                            ),
                        ));
                    }
                }
            }
            seatings.push((n, rules_seats));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let geo = geometry.expect("no errors, so the board was read");
        let layout = layout.expect("the board was read");
        if let Some(g) = self.unreachable_target(&geo, &regions, &seatings) {
            return Err(vec![g]);
        }
        let index = |s: Square| {
            usize::from(s.rank()) * usize::from(layout.stride) + usize::from(s.file())
                - usize::from(layout.base)
        };
        let bits_of = |squares: &[Square]| {
            let mut b = Wide::EMPTY;
            for &s in squares {
                b.set(index(s));
            }
            b
        };
        let board_bits = bits_of(&geo.cells);
        let mut index_squares = vec![Square::new(0, 0).expect("a1"); usize::from(layout.span)];
        for &s in &geo.cells {
            index_squares[index(s)] = s;
        }
        // Every region in bit order.
        for r in regions.iter_mut() {
            r.squares.sort_by_key(|&s| index(s));
        }
        let all_regions = regions
            .iter()
            .fold(Wide::EMPTY, |acc, r| acc | bits_of(&r.squares));
        let mut out = Vec::new();
        for (n, seats) in seatings {
            let per_side = regions[seats[0].home].squares.len();
            let homes: Vec<Wide> = seats
                .iter()
                .map(|s| bits_of(&regions[s.home].squares))
                .collect();
            let targets: Vec<Wide> = seats
                .iter()
                .map(|s| bits_of(&regions[s.target].squares))
                .collect();
            let rest: Vec<Wide> = homes
                .iter()
                .zip(&targets)
                .map(|(h, t)| {
                    if self.rest_in_other_regions {
                        board_bits
                    } else {
                        (board_bits & !all_regions) | *h | *t
                    }
                })
                .collect();
            let tables = TableSet::new(&geo, layout, self.directions, &homes, &targets, &rest);
            let class_codes = tables.class_codes(usize::from(layout.span));
            let class_floods = tables.floods_by_class();
            let ply_cap = ply_cap.or(per_seat.map(|p| p.saturating_mul(n as u32)));
            out.push(RaceRules {
                width: geo.width,
                height: geo.height,
                layout,
                cells: {
                    let mut c = geo.cells.clone();
                    c.sort_by_key(|&s| index(s));
                    c
                },
                rectangular: geo.rectangular,
                directions: self.directions,
                regions: regions.clone(),
                seats,
                seat_counts: seat_counts.clone(),
                pieces_per_side: per_side,
                first_player: self.first_player,
                no_return_home: self.no_return_home,
                rest_in_other_regions: self.rest_in_other_regions,
                target_lock: self.target_lock,
                long_hops: self.long_hops,
                win: self.win,
                end: self.end,
                partners: self.partners,
                equalising_reply: self.equalising_reply,
                home_clear_ply: self.home_clear_ply,
                count_ply: self.count_ply,
                no_legal_move: self.no_legal_move,
                repetition_draw,
                ply_cap,
                board_bits,
                homes,
                targets,
                rest,
                index_squares: index_squares.clone(),
                tables,
                class_codes,
                class_floods,
            });
        }
        Ok(out)
    }

    /// A seat's target that none of its pieces could ever reach: no path of steps through
    /// cells its moves may use leads there from its home. (Jumps land two cells away along a
    /// line, so they reach nothing a chain of steps could not: a jump's middle cell is a cell.)
    fn unreachable_target(
        &self,
        geo: &Geometry,
        regions: &[Region],
        seatings: &[(usize, Vec<SeatRules>)],
    ) -> Option<FieldError> {
        let cell_set: std::collections::HashSet<Square> = geo.cells.iter().copied().collect();
        for (n, seats) in seatings {
            for (i, seat) in seats.iter().enumerate() {
                let mut seen: std::collections::HashSet<Square> =
                    regions[seat.home].squares.iter().copied().collect();
                let mut queue: Vec<Square> = seen.iter().copied().collect();
                while let Some(c) = queue.pop() {
                    for d in self.directions.iter() {
                        let (dx, dy) = d.delta();
                        if let Some(next) = c.offset(dx, dy)
                            && cell_set.contains(&next)
                            && seen.insert(next)
                        {
                            queue.push(next);
                        }
                    }
                }
                let target = &regions[seat.target];
                if let Some(cell) = target.squares.iter().find(|c| !seen.contains(c)) {
                    return Some(FieldError::new(
                        format!("seats.{n}[{i}].target"),
                        format!(
                            "{cell} of the target `{}` cannot be reached from the home `{}` moving {}",
                            target.name,
                            regions[seat.home].name,
                            self.directions.describe()
                        ),
                    ));
                }
            }
        }
        None
    }
}

/// The squares an entry of a camp list names: one square or a rectangle `"f1:h3"`.
fn expand_entry(entry: &str) -> Result<Vec<Square>, String> {
    let entry = entry.trim();
    let bad = |s: &str| {
        format!(
            "`{s}` is not a square name; squares are a file letter a–s and a rank 1–19, like \"f3\""
        )
    };
    match entry.split_once(':') {
        None => Square::parse(entry)
            .map(|s| vec![s])
            .ok_or_else(|| bad(entry)),
        Some((a, b)) => {
            let a = Square::parse(a.trim()).ok_or_else(|| bad(a.trim()))?;
            let b = Square::parse(b.trim()).ok_or_else(|| bad(b.trim()))?;
            let (f0, f1) = (a.file().min(b.file()), a.file().max(b.file()));
            let (r0, r1) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
            Ok((r0..=r1)
                .flat_map(|r| (f0..=f1).filter_map(move |f| Square::new(f, r)))
                .collect())
        }
    }
}

/// Reads a list of cells (a camp or a region): every entry on the board, none twice.
fn read_cells(
    field: &str,
    side: &str,
    entries: &[String],
    geometry: Option<&Geometry>,
    on_board: &dyn Fn(&Geometry, Square) -> bool,
    errors: &mut Vec<FieldError>,
) -> Vec<Square> {
    let mut camp: Vec<Square> = Vec::new();
    if entries.is_empty() {
        errors.push(FieldError::new(
            field,
            format!("{side}'s camp is empty; list the squares where {side}'s pieces start"),
        ));
    }
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("{field}[{i}]");
        let squares = match expand_entry(entry) {
            Ok(s) => s,
            Err(msg) => {
                errors.push(FieldError::new(at, msg));
                continue;
            }
        };
        if let Some(geo) = geometry {
            let outside: Vec<String> = squares
                .iter()
                .filter(|&&s| !on_board(geo, s))
                .map(|s| s.to_string())
                .collect();
            if !outside.is_empty() {
                let what = if geo.rectangular {
                    let last = Square::new(geo.width - 1, geo.height - 1)
                        .map(|s| s.to_string())
                        .unwrap_or_default();
                    format!(
                        "the {}×{} board (… the board runs from a1 to {last})",
                        geo.width, geo.height
                    )
                } else {
                    "the board".to_owned()
                };
                let what = what.replacen(
                    " (… ",
                    &format!(
                        " ({} {} not on it; ",
                        outside.join(", "),
                        if outside.len() == 1 { "is" } else { "are" }
                    ),
                    1,
                );
                let what = if what.contains(" not on it") {
                    what
                } else {
                    format!(
                        "{what} ({} {} not on it)",
                        outside.join(", "),
                        if outside.len() == 1 { "is" } else { "are" }
                    )
                };
                errors.push(FieldError::new(
                    at.clone(),
                    format!("`{entry}` reaches outside {what}"),
                ));
                continue;
            }
        }
        for s in squares {
            if camp.contains(&s) {
                errors.push(FieldError::new(
                    at.clone(),
                    format!("{s} is listed more than once in {field}"),
                ));
            } else {
                camp.push(s);
            }
        }
    }
    camp.sort_by_key(|s| (s.rank(), s.file()));
    camp
}

impl RaceRules {
    /// The board's box: every cell's file is below the width, its rank below the height.
    pub fn width(&self) -> u8 {
        self.width
    }
    pub fn height(&self) -> u8 {
        self.height
    }
    pub fn directions(&self) -> Directions {
        self.directions
    }
    /// The board's cells in bit order (rank by rank from the bottom).
    pub fn cells(&self) -> &[Square] {
        &self.cells
    }
    /// Whether every cell of the box is on the board.
    pub fn is_rectangular(&self) -> bool {
        self.rectangular
    }
    /// The named regions: camps, points.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }
    /// How many seats this table has.
    pub fn seat_count(&self) -> usize {
        self.seats.len()
    }
    /// The seat counts the variant offers.
    pub fn seat_counts(&self) -> &[usize] {
        &self.seat_counts
    }
    /// The seats in turn order.
    pub fn seats(&self) -> impl ExactSizeIterator<Item = Seat> + Clone + use<> {
        Seat::all(self.seats.len())
    }
    pub fn seat(&self, seat: Seat) -> &SeatRules {
        &self.seats[seat.index()]
    }
    /// The seat's name ("Red"; "White" and "Black" in format-1 files).
    pub fn seat_name(&self, seat: Seat) -> &str {
        &self.seats[seat.index()].name
    }
    /// The home camp of `side` (where its pieces start), in bit order.
    pub fn camp(&self, side: Seat) -> &[Square] {
        &self.regions[self.seats[side.index()].home].squares
    }
    /// The camp `side` races to.
    pub fn target(&self, side: Seat) -> &[Square] {
        &self.regions[self.seats[side.index()].target].squares
    }
    pub fn first_player(&self) -> Seat {
        self.first_player
    }
    pub fn no_return_home(&self) -> bool {
        self.no_return_home
    }
    pub fn rest_in_other_regions(&self) -> bool {
        self.rest_in_other_regions
    }
    pub fn target_lock(&self) -> TargetLock {
        self.target_lock
    }
    /// Whether pieces may hop over a piece any distance away (see [`RaceSpec::long_hops`]).
    pub fn long_hops(&self) -> bool {
        self.long_hops
    }
    pub fn win(&self) -> WinRule {
        self.win
    }
    /// Whether opposite seats play as partners (see [`RaceSpec::partners`]).
    pub fn partners(&self) -> bool {
        self.partners
    }

    /// The team of `seat`: itself, or with partners the lower of the two partners' seats.
    pub fn team(&self, seat: Seat) -> Seat {
        if self.partners {
            Seat::at(seat.index() % (self.seat_count() / 2))
        } else {
            seat
        }
    }

    pub fn end(&self) -> EndRule {
        self.end
    }
    pub fn equalising_reply(&self) -> bool {
        self.equalising_reply
    }
    pub fn home_clear_ply(&self) -> Option<u32> {
        self.home_clear_ply
    }
    pub fn count_ply(&self) -> Option<u32> {
        self.count_ply
    }
    pub fn no_legal_move(&self) -> NoLegalMove {
        self.no_legal_move
    }
    /// The occurrence of a position that ends the game (3 = threefold), if the variant has the
    /// rule.
    pub fn repetition_draw(&self) -> Option<u16> {
        self.repetition_draw
    }
    /// The ply count at which the game ends, if the variant has a cap.
    pub fn ply_cap(&self) -> Option<u32> {
        self.ply_cap
    }
    /// Lines of movement the generator loops over: 2 (orthogonal or diagonal), 3 (hex) or 4
    /// (all eight directions).
    pub(crate) fn line_count(&self) -> usize {
        match &self.tables {
            TableSet::Small(t) => t.line_count,
            TableSet::Medium(t) => t.line_count,
            TableSet::Large(t) => t.line_count,
        }
    }

    /// Pieces per seat.
    #[inline]
    pub fn pieces_per_side(&self) -> usize {
        self.pieces_per_side
    }

    pub fn on_board(&self, s: Square) -> bool {
        if s.file() >= self.width || s.rank() >= self.height {
            return false;
        }
        let raw = self.raw_index(s);
        let base = usize::from(self.layout.base);
        raw >= base
            && raw - base < self.index_squares.len()
            && self.index_squares[raw - base] == s
            && self.board_bits.has(raw - base)
    }

    /// The cell index of an on-board square: its bit in the sets of [`RaceRules::home_set`]
    /// and [`super::RacePosition::piece_set`]. Evaluations index
    /// their per-cell tables by it instead of looking squares up one by one.
    pub fn cell_index(&self, s: Square) -> Option<usize> {
        self.on_board(s).then(|| self.index(s))
    }

    /// Cell indices run below this (some below it may be off the board: see
    /// [`RaceRules::cell_index`]).
    pub fn cell_index_bound(&self) -> usize {
        self.index_squares.len()
    }

    /// The square of a cell index taken from a set's bits.
    pub fn cell_square(&self, index: usize) -> Square {
        self.square(index)
    }

    /// `side`'s home camp as a set of cell indices.
    pub fn home_set(&self, side: Seat) -> Wide {
        self.homes[side.index()]
    }

    /// `s` is in `side`'s home camp.
    pub fn in_camp(&self, side: Seat, s: Square) -> bool {
        self.on_board(s) && self.homes[side.index()].has(self.index(s))
    }

    /// `s` is in `side`'s target.
    pub fn in_target(&self, side: Seat, s: Square) -> bool {
        self.on_board(s) && self.targets[side.index()].has(self.index(s))
    }

    /// The region `s` belongs to, if any (the first listed, should regions overlap).
    pub fn region_at(&self, s: Square) -> Option<&Region> {
        self.regions.iter().find(|r| r.squares.contains(&s))
    }

    #[inline]
    fn raw_index(&self, s: Square) -> usize {
        usize::from(s.rank()) * usize::from(self.layout.stride) + usize::from(s.file())
    }

    /// The bit of the cell at bit index `i` in a set split by class (see [`TableSet`]'s
    /// class floods).
    #[inline(always)]
    pub(crate) fn class_bit(&self, i: usize) -> usize {
        usize::from(self.class_codes[i])
    }

    /// Whether positions keep their cells split by class for the move generator.
    #[inline(always)]
    pub(crate) fn class_floods(&self) -> bool {
        self.class_floods
    }

    /// A set of cells split by class.
    pub(crate) fn split_classes(&self, set: &Wide) -> Wide {
        let mut out = Wide::EMPTY;
        for i in set.iter() {
            out.set(self.class_bit(i));
        }
        out
    }

    /// The bit index of an on-board square.
    #[inline]
    pub(crate) fn index(&self, s: Square) -> usize {
        self.raw_index(s) - usize::from(self.layout.base)
    }

    #[inline]
    pub(crate) fn square(&self, index: usize) -> Square {
        self.index_squares[index]
    }
}

impl fmt::Debug for RaceRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RaceRules")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("cells", &self.cells.len())
            .field("directions", &self.directions)
            .field("seats", &self.seats)
            .field("first_player", &self.first_player)
            .field("no_return_home", &self.no_return_home)
            .field("rest_in_other_regions", &self.rest_in_other_regions)
            .field("target_lock", &self.target_lock)
            .field("long_hops", &self.long_hops)
            .field("win", &self.win)
            .field("end", &self.end)
            .field("partners", &self.partners)
            .field("equalising_reply", &self.equalising_reply)
            .field("home_clear_ply", &self.home_clear_ply)
            .field("count_ply", &self.count_ply)
            .field("no_legal_move", &self.no_legal_move)
            .field("repetition_draw", &self.repetition_draw)
            .field("ply_cap", &self.ply_cap)
            .finish()
    }
}

/// One direction and its opposite, as a shift amount with the source squares whose step and
/// jump in that direction stay on the board (so shifted bits never wrap between ranks).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Line<B> {
    /// Bit distance of one step in the positive direction.
    pub shift: u32,
    /// The positive direction's [`Dir::index`] (the negative one is the opposite, `+ 4`).
    pub dir: u8,
    /// Squares that can step (`step_*`) or jump (`jump_*`) in the positive/negative direction.
    pub step_pos: B,
    pub step_neg: B,
    pub jump_pos: B,
    pub jump_neg: B,
}

/// Geometry tables for one bit-set width.
#[derive(Clone, Debug)]
pub(crate) struct Tables<B> {
    pub board: B,
    /// Per seat: its home, its target and where its moves may end.
    pub homes: Vec<B>,
    pub targets: Vec<B>,
    pub rest: Vec<B>,
    /// The lines of the variant's directions, padded with empty lines to four; the first
    /// `line_count` are real (2 for orthogonal or diagonal moves, 3 on a hex grid, 4 for all
    /// eight).
    pub lines: [Line<B>; 4],
    pub line_count: usize,
    /// The step neighbours of every bit index.
    pub neighbours: Vec<B>,
    /// The square of every bit index (no division by the stride in the move generator).
    pub squares: Vec<Square>,
    /// The bit distance of one step in each direction (by [`Dir::index`]).
    pub dir_offset: [i16; 8],
    /// For full boards 16 squares wide (and more than 128 squares): the tables of the parity
    /// flood.
    pub parity: Option<ParityTables>,
    /// For other boards of more than 64 cells whose parity classes fit a word each: the
    /// tables of the class flood.
    pub classes: Option<ClassTables>,
    /// The bit distances of the variant's directions' steps in ascending order, when they are
    /// distinct (a piece's steps are then written in the order of their destinations without
    /// walking the words of its neighbour set).
    pub step_order: Option<StepOrder>,
}

/// The bit distances of a board's step directions, ascending: `offsets[..len]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepOrder {
    pub offsets: [isize; 8],
    pub len: usize,
}

impl<B: Bits> Tables<B> {
    fn new(
        geo: &Geometry,
        layout: Layout,
        directions: Directions,
        homes: &[Wide],
        targets: &[Wide],
        rest: &[Wide],
    ) -> Self {
        let (w, h) = (i32::from(geo.width), i32::from(geo.height));
        let stride = i32::from(layout.stride);
        let base = i32::from(layout.base);
        let mut grid = vec![false; (w * h) as usize];
        for s in &geo.cells {
            grid[(i32::from(s.rank()) * w + i32::from(s.file())) as usize] = true;
        }
        let idx = |f: i32, r: i32| (r * stride + f - base) as usize;
        let on = |f: i32, r: i32| {
            (0..w).contains(&f) && (0..h).contains(&r) && grid[(r * w + f) as usize]
        };
        let cells: Vec<(i32, i32)> = geo
            .cells
            .iter()
            .map(|s| (i32::from(s.file()), i32::from(s.rank())))
            .collect();
        let mut board = B::ZERO;
        for &(f, r) in &cells {
            board |= B::bit(idx(f, r));
        }
        let empty_line = Line {
            shift: 1,
            dir: 0,
            step_pos: B::ZERO,
            step_neg: B::ZERO,
            jump_pos: B::ZERO,
            jump_neg: B::ZERO,
        };
        let mut lines = [empty_line; 4];
        let mut line_count = 0;
        for d in directions.iter() {
            let (dx, dy) = d.delta();
            let (dx, dy) = (i32::from(dx), i32::from(dy));
            let shift = dy * stride + dx;
            if shift <= 0 {
                continue; // each line is built from its positive half
            }
            let mut line = Line {
                shift: shift as u32,
                dir: d.index(),
                step_pos: B::ZERO,
                step_neg: B::ZERO,
                jump_pos: B::ZERO,
                jump_neg: B::ZERO,
            };
            for &(f, r) in &cells {
                let b = B::bit(idx(f, r));
                if on(f + dx, r + dy) {
                    line.step_pos |= b;
                }
                if on(f - dx, r - dy) {
                    line.step_neg |= b;
                }
                if on(f + dx, r + dy) && on(f + 2 * dx, r + 2 * dy) {
                    line.jump_pos |= b;
                }
                if on(f - dx, r - dy) && on(f - 2 * dx, r - 2 * dy) {
                    line.jump_neg |= b;
                }
            }
            // A line with no room (a 1-wide board's diagonals) stays an empty padding line.
            if !(line.step_pos.is_zero() && line.step_neg.is_zero()) {
                lines[line_count] = line;
                line_count += 1;
            }
        }
        let span = usize::from(layout.span);
        let mut neighbours = vec![B::ZERO; span];
        let mut squares = vec![Square::new(0, 0).expect("a1"); span];
        for &(f, r) in &cells {
            let mut n = B::ZERO;
            for d in directions.iter() {
                let (dx, dy) = d.delta();
                let (x, y) = (f + i32::from(dx), r + i32::from(dy));
                if on(x, y) {
                    n |= B::bit(idx(x, y));
                }
            }
            neighbours[idx(f, r)] = n;
            squares[idx(f, r)] = Square::new(f as u8, r as u8).expect("on the grid");
        }
        let mut dir_offset = [0i16; 8];
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            dir_offset[usize::from(d.index())] = (i32::from(dy) * stride + i32::from(dx)) as i16;
        }
        let parity = (B::WORDS == 4 && geo.width == 16 && geo.rectangular)
            .then(|| ParityTables::new(geo.height, directions, homes, targets));
        let to_b = |v: &[Wide]| v.iter().map(B::from_wide).collect::<Vec<B>>();
        let classes = if B::WORDS > 1 && parity.is_none() {
            let mut deltas = [None; 8];
            for d in directions.iter() {
                let (dx, dy) = d.delta();
                deltas[usize::from(d.index())] = Some((i32::from(dx), i32::from(dy)));
            }
            let seats = (&to_b(homes)[..], &to_b(targets)[..], &to_b(rest)[..]);
            ClassTables::new(&cells, idx, span, deltas, seats)
        } else {
            None
        };
        let mut order: Vec<isize> = directions
            .iter()
            .map(|d| isize::from(dir_offset[usize::from(d.index())]))
            .collect();
        order.sort_unstable();
        let step_order = order.windows(2).all(|w| w[0] < w[1]).then(|| {
            let mut slots = [0; 8];
            slots[..order.len()].copy_from_slice(&order);
            StepOrder {
                offsets: slots,
                len: order.len(),
            }
        });
        // Padded to the set's capacity: a step slot past the board names some square and is
        // never kept.
        squares.resize(B::CAPACITY.max(span), Square::new(0, 0).expect("a1"));
        let mut classes = classes;
        if let Some(ct) = &mut classes {
            ct.name_squares(&squares);
        }
        Tables {
            parity,
            classes,
            step_order,
            board,
            homes: to_b(homes),
            targets: to_b(targets),
            rest: to_b(rest),
            squares,
            dir_offset,
            lines,
            line_count,
            neighbours,
        }
    }
}

/// The tables in the narrowest bit-set type that holds the board.
// One per rule set, behind the rules' `Arc`: the size difference costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub(crate) enum TableSet {
    Small(Tables<u64>),
    Medium(Tables<u128>),
    Large(Tables<Wide>),
}

impl TableSet {
    fn floods_by_class(&self) -> bool {
        match self {
            TableSet::Small(t) => t.parity.is_some() || t.classes.is_some(),
            TableSet::Medium(t) => t.parity.is_some() || t.classes.is_some(),
            TableSet::Large(t) => t.parity.is_some() || t.classes.is_some(),
        }
    }

    /// Per bit index up to `span`: the cell's class << 6 | its bit in the class, for the
    /// class floods (on boards without them, the 16-wide board's classes, which nothing reads).
    fn class_codes(&self, span: usize) -> Vec<u8> {
        let classes = match self {
            TableSet::Small(t) => t.classes.as_ref(),
            TableSet::Medium(t) => t.classes.as_ref(),
            TableSet::Large(t) => t.classes.as_ref(),
        };
        (0..span)
            .map(|i| match classes {
                Some(ct) => ct.code(i) as u8,
                None => parity::class_bit(i & 255) as u8,
            })
            .collect()
    }

    fn new(
        geo: &Geometry,
        layout: Layout,
        directions: Directions,
        homes: &[Wide],
        targets: &[Wide],
        rest: &[Wide],
    ) -> Self {
        let n = usize::from(layout.span);
        if n <= u64::CAPACITY {
            TableSet::Small(Tables::new(geo, layout, directions, homes, targets, rest))
        } else if n <= u128::CAPACITY {
            TableSet::Medium(Tables::new(geo, layout, directions, homes, targets, rest))
        } else {
            TableSet::Large(Tables::new(geo, layout, directions, homes, targets, rest))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(squares: &[Square]) -> Vec<String> {
        squares.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn camp_entries_are_squares_or_rectangles_in_any_corner_order() {
        assert_eq!(names(&expand_entry("f3").unwrap()), ["f3"]);
        assert_eq!(
            names(&expand_entry(" h3:g2 ").unwrap()),
            ["g2", "h2", "g3", "h3"]
        );
        assert_eq!(expand_entry("f1:h3").unwrap().len(), 9);
        assert!(
            expand_entry("f1:")
                .unwrap_err()
                .contains("`` is not a square name")
        );
        assert!(
            expand_entry("f1-h3")
                .unwrap_err()
                .contains("`f1-h3` is not a square name")
        );
    }

    fn spec(width: u32, white: &[&str], black: &[&str]) -> RaceSpec {
        RaceSpec {
            width,
            height: 8,
            board: BoardSpec::Rectangle,
            regions: Vec::new(),
            seats: BTreeMap::new(),
            rest_in_other_regions: true,
            long_hops: false,
            end: EndRule::PlayOn,
            partners: false,
            ply_cap_per_seat: None,
            directions: Directions::All,
            white_camp: white.iter().map(|s| s.to_string()).collect(),
            black_camp: black.iter().map(|s| s.to_string()).collect(),
            first_player: Seat::WHITE,
            no_return_home: false,
            target_lock: TargetLock::Off,
            win: WinRule::FillWithOwn,
            equalising_reply: false,
            home_clear_ply: None,
            count_ply: None,
            no_legal_move: NoLegalMove::Loses,
            repetition_draw: None,
            ply_cap: None,
        }
    }

    #[test]
    fn tables_pick_the_narrowest_bit_set_and_never_wrap() {
        let small = spec(8, &["a1"], &["h8"]).validate().unwrap();
        assert!(matches!(small.tables, TableSet::Small(_)));
        assert_eq!(small.line_count(), 4);
        let TableSet::Small(t) = &small.tables else {
            unreachable!()
        };
        // The east line (shift 1): h-file squares cannot step east, g- and h-file cannot jump.
        let east = t.lines.iter().find(|l| l.shift == 1).unwrap();
        let h1 = 7;
        assert!(!east.step_pos.has(h1) && east.step_neg.has(h1));
        assert!(!east.jump_pos.has(6) && east.jump_pos.has(5));
        assert_eq!(t.neighbours[0].count_ones(), 3);
        let medium = spec(12, &["a1"], &["l8"]).validate().unwrap();
        assert!(matches!(medium.tables, TableSet::Medium(_)));
        let mut large = spec(16, &["a1"], &["p16"]);
        large.height = 16;
        assert!(matches!(
            large.validate().unwrap().tables,
            TableSet::Large(_)
        ));
    }

    #[test]
    fn every_problem_is_reported() {
        let mut bad = spec(20, &["a1", "a1", "z1"], &[]);
        bad.ply_cap = Some(10);
        bad.count_ply = Some(20);
        let errors = bad.validate().unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "width",
                "white_camp[1]",
                "white_camp[2]",
                "black_camp",
                "count_ply"
            ]
        );
    }
}
