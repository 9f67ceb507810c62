//! The race family's variant schema ([`RaceSpec`], what a RON file says) and its validated form
//! ([`RaceRules`], with the lookup tables the move generator uses).
use std::fmt;

use serde::Deserialize;

use super::{
    bitboard::{Bits, Wide},
    parity::ParityTables,
    square::{Dir, Directions, MAX_SIDE, Square},
};
use crate::{Color, FieldError, draw_guard};

/// The `rules: Race( … )` block of a variant file. Field by field documentation is in the
/// shipped files (`assets/variants/ugolki-hg-3x3.ron` is a good one to copy).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceSpec {
    /// Board size in squares, 1 to 16 each. Files are a… (left to right), ranks 1… (bottom up).
    pub width: u32,
    pub height: u32,
    /// Directions of both steps and jumps: `Orthogonal`, `Diagonal` or `All`.
    pub directions: Directions,
    /// White's home camp = where White's pieces start = Black's target. Entries are squares
    /// (`"f1"`) or rectangles given by two opposite corners (`"f1:h3"`).
    pub white_camp: Vec<String>,
    /// Black's home camp = Black's start = White's target.
    pub black_camp: Vec<String>,
    /// Who moves first. Default `White`.
    #[serde(default = "white")]
    pub first_player: Color,
    /// A piece that has been outside its home camp may not land on it again (Happy-Games
    /// Ugolki). Default `false`.
    #[serde(default)]
    pub no_return_home: bool,
    /// When a piece in its target camp is stuck there. Default `Off`.
    #[serde(default)]
    pub target_lock: TargetLock,
    /// What wins.
    pub win: WinRule,
    /// When the first player completes the win, the second player still gets one reply; if it
    /// completes too, the game is drawn (9qum Ugolki). Default `false`.
    #[serde(default)]
    pub equalising_reply: bool,
    /// After this ply, a side that still has a piece on its own home squares loses (both: draw).
    /// 9qum's 40-move rule is `Some(80)`. Default `None`.
    #[serde(default)]
    pub home_clear_ply: Option<u32>,
    /// After this ply the game ends: more own pieces in the target camp wins, equal is a draw.
    /// 9qum's 100-move count is `Some(200)`. Default `None`.
    #[serde(default)]
    pub count_ply: Option<u32>,
    /// What happens to a side that has no legal move on its turn. Default `Loses`.
    #[serde(default)]
    pub no_legal_move: NoLegalMove,
    /// Engine guard: `Some(n)`: the n-th occurrence of the same position (board and side to
    /// move) is a draw, `Some(3)` being threefold repetition. Default `None`.
    #[serde(default)]
    pub repetition_draw: Option<i64>,
    /// Engine guard: `Some(n)`: the game is drawn once n plies have been played. Default `None`.
    #[serde(default)]
    pub ply_cap: Option<i64>,
}

fn white() -> Color {
    Color::White
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
    /// (Halma).
    PerLanding,
}

/// What a side must achieve in its target camp to win (checked after every ply).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Deserialize)]
pub enum WinRule {
    /// Every target square holds one of the side's own pieces (Halma, 9qum Ugolki).
    FillWithOwn,
    /// Every target square is occupied, by either colour, and at least one holds an own piece:
    /// the anti-blocking rule of Happy-Games Ugolki (Parlett's anti-spoiling rule in Halma).
    FullWithAnyOwn,
}

/// What happens to a side without a legal move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
pub enum NoLegalMove {
    #[default]
    Loses,
    Draw,
}

/// A validated rule set. Shared between positions through an `Arc`.
pub struct RaceRules {
    width: u8,
    height: u8,
    directions: Directions,
    camps: [Vec<Square>; 2],
    first_player: Color,
    no_return_home: bool,
    target_lock: TargetLock,
    win: WinRule,
    equalising_reply: bool,
    home_clear_ply: Option<u32>,
    count_ply: Option<u32>,
    no_legal_move: NoLegalMove,
    repetition_draw: Option<u16>,
    ply_cap: Option<u32>,
    /// Home camps as bit sets, indexed by colour.
    pub(crate) camp_bits: [Wide; 2],
    pub(crate) tables: TableSet,
}

impl RaceSpec {
    /// Checks everything and reports every problem, each with its field.
    pub fn validate(self) -> Result<RaceRules, Vec<FieldError>> {
        let mut errors = Vec::new();
        let side_ok = |v: u32, what: &str, field: &str, errors: &mut Vec<FieldError>| {
            if (1..=u32::from(MAX_SIDE)).contains(&v) {
                true
            } else {
                errors.push(FieldError::new(
                    field,
                    format!(
                        "the board must be 1 to {MAX_SIDE} squares {what}; {v} is not supported"
                    ),
                ));
                false
            }
        };
        let w_ok = side_ok(self.width, "wide", "width", &mut errors);
        let h_ok = side_ok(self.height, "high", "height", &mut errors);
        let (width, height) = (self.width as u8, self.height as u8);
        let errors_before_camps = errors.len();
        let camps = [
            read_camp(
                "white_camp",
                "White",
                &self.white_camp,
                w_ok && h_ok,
                width,
                height,
                &mut errors,
            ),
            read_camp(
                "black_camp",
                "Black",
                &self.black_camp,
                w_ok && h_ok,
                width,
                height,
                &mut errors,
            ),
        ];
        // Sizes are compared only when both lists were read without problems: a bad entry
        // would make them differ for no reason of their own.
        let camps_read = errors.len() == errors_before_camps;
        // Overlap: report each shared square once, at its place in black_camp.
        for (i, entry) in self.black_camp.iter().enumerate() {
            let shared: Vec<String> = expand_entry(entry)
                .unwrap_or_default()
                .into_iter()
                .filter(|s| camps[0].contains(s))
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
        if camps_read && !camps[0].is_empty() && camps[0].len() != camps[1].len() {
            errors.push(FieldError::new(
                "black_camp",
                format!(
                    "the camps must be the same size (each side has one piece per square of its camp): white_camp has {} squares, black_camp has {}",
                    camps[0].len(),
                    camps[1].len()
                ),
            ));
        }
        let repetition_draw = draw_guard::repetition_draw(self.repetition_draw, &mut errors);
        let ply_cap = draw_guard::ply_cap(self.ply_cap, &mut errors);
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
                format!(
                    "home_clear_ply ({h}) is not before ply_cap ({cap}); the game ends first, so the rule would never be checked"
                ),
            ));
        }
        if let (Some(cap), Some(c)) = (ply_cap, self.count_ply)
            && c > cap
        {
            errors.push(FieldError::new(
                "count_ply",
                format!(
                    "count_ply ({c}) is after ply_cap ({cap}); the game ends first, so the count would never happen"
                ),
            ));
        }
        if let (Some(c), Some(h)) = (self.count_ply, self.home_clear_ply)
            && h >= c
        {
            errors.push(FieldError::new(
                "home_clear_ply",
                format!(
                    "home_clear_ply ({h}) is not before count_ply ({c}); the game ends at the count, so the rule would never be checked"
                ),
            ));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let [white_camp, black_camp] = camps;
        let mut camp_bits = [Wide::EMPTY; 2];
        for (bits, camp) in camp_bits.iter_mut().zip([&white_camp, &black_camp]) {
            for s in camp {
                bits.set(usize::from(s.rank()) * usize::from(width) + usize::from(s.file()));
            }
        }
        let tables = TableSet::new(width, height, self.directions, &camp_bits);
        Ok(RaceRules {
            width,
            height,
            directions: self.directions,
            camps: [white_camp, black_camp],
            first_player: self.first_player,
            no_return_home: self.no_return_home,
            target_lock: self.target_lock,
            win: self.win,
            equalising_reply: self.equalising_reply,
            home_clear_ply: self.home_clear_ply,
            count_ply: self.count_ply,
            no_legal_move: self.no_legal_move,
            repetition_draw,
            ply_cap,
            camp_bits,
            tables,
        })
    }
}

/// The squares an entry of a camp list names: one square or a rectangle `"f1:h3"`.
fn expand_entry(entry: &str) -> Result<Vec<Square>, String> {
    let entry = entry.trim();
    let bad = |s: &str| {
        format!(
            "`{s}` is not a square name; squares are a file letter a–p and a rank 1–16, like \"f3\""
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

fn read_camp(
    field: &str,
    side: &str,
    entries: &[String],
    board_ok: bool,
    width: u8,
    height: u8,
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
        let outside: Vec<String> = squares
            .iter()
            .filter(|s| s.file() >= width || s.rank() >= height)
            .map(|s| s.to_string())
            .collect();
        if board_ok && !outside.is_empty() {
            let last = Square::new(width - 1, height - 1)
                .map(|s| s.to_string())
                .unwrap_or_default();
            errors.push(FieldError::new(
                at.clone(),
                format!(
                    "`{entry}` reaches outside the {width}×{height} board ({} {} not on it; the board runs from a1 to {last})",
                    outside.join(", "),
                    if outside.len() == 1 { "is" } else { "are" }
                ),
            ));
            continue;
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
    pub fn width(&self) -> u8 {
        self.width
    }
    pub fn height(&self) -> u8 {
        self.height
    }
    pub fn directions(&self) -> Directions {
        self.directions
    }
    /// The home camp of `side` (where its pieces start; the other side's target), in bit order.
    pub fn camp(&self, side: Color) -> &[Square] {
        &self.camps[side.index()]
    }
    /// The camp `side` races to: the other side's home.
    pub fn target(&self, side: Color) -> &[Square] {
        &self.camps[side.other().index()]
    }
    pub fn first_player(&self) -> Color {
        self.first_player
    }
    pub fn no_return_home(&self) -> bool {
        self.no_return_home
    }
    pub fn target_lock(&self) -> TargetLock {
        self.target_lock
    }
    pub fn win(&self) -> WinRule {
        self.win
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
    /// The occurrence of a position that draws (3 = threefold), if the variant has the rule.
    pub fn repetition_draw(&self) -> Option<u16> {
        self.repetition_draw
    }
    /// The ply count at which the game is drawn, if the variant has a cap.
    pub fn ply_cap(&self) -> Option<u32> {
        self.ply_cap
    }
    /// Lines of movement the generator loops over: 2 (orthogonal or diagonal) or 4 (all).
    pub(crate) fn line_count(&self) -> usize {
        match &self.tables {
            TableSet::Small(t) => t.line_count,
            TableSet::Medium(t) => t.line_count,
            TableSet::Large(t) => t.line_count,
        }
    }

    /// Pieces per side.
    pub fn pieces_per_side(&self) -> usize {
        self.camps[0].len()
    }

    pub fn on_board(&self, s: Square) -> bool {
        s.file() < self.width && s.rank() < self.height
    }

    /// `s` is in `side`'s home camp.
    pub fn in_camp(&self, side: Color, s: Square) -> bool {
        self.on_board(s) && self.camp_bits[side.index()].has(self.index(s))
    }

    /// The bit index of an on-board square.
    #[inline]
    pub(crate) fn index(&self, s: Square) -> usize {
        usize::from(s.rank()) * usize::from(self.width) + usize::from(s.file())
    }

    #[inline]
    pub(crate) fn square(&self, index: usize) -> Square {
        let w = usize::from(self.width);
        Square::new((index % w) as u8, (index / w) as u8).expect("index on the board")
    }
}

impl fmt::Debug for RaceRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RaceRules")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("directions", &self.directions)
            .field("white_camp", &self.camps[0])
            .field("black_camp", &self.camps[1])
            .field("first_player", &self.first_player)
            .field("no_return_home", &self.no_return_home)
            .field("target_lock", &self.target_lock)
            .field("win", &self.win)
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
    pub camps: [B; 2],
    /// The lines of the variant's directions, padded with empty lines to four; the first
    /// `line_count` are real (2 for orthogonal or diagonal moves, 4 for all eight).
    pub lines: [Line<B>; 4],
    pub line_count: usize,
    /// The step neighbours of every square.
    pub neighbours: Vec<B>,
    /// The square of every bit index (no division by the width in the move generator).
    pub squares: Vec<Square>,
    /// The bit distance of one step in each direction (by [`Dir::index`]).
    pub dir_offset: [i16; 8],
    /// For boards 16 squares wide (and more than 128 squares): the tables of the parity flood.
    pub parity: Option<ParityTables>,
}

impl<B: Bits> Tables<B> {
    fn new(width: u8, height: u8, directions: Directions, camps: &[Wide; 2]) -> Self {
        let (w, h) = (i32::from(width), i32::from(height));
        let idx = |f: i32, r: i32| (r * w + f) as usize;
        let on = |f: i32, r: i32| (0..w).contains(&f) && (0..h).contains(&r);
        let mut board = B::ZERO;
        for r in 0..h {
            for f in 0..w {
                board |= B::bit(idx(f, r));
            }
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
            let shift = dy * w + dx;
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
            for r in 0..h {
                for f in 0..w {
                    let b = B::bit(idx(f, r));
                    if on(f + dx, r + dy) {
                        line.step_pos |= b;
                    }
                    if on(f - dx, r - dy) {
                        line.step_neg |= b;
                    }
                    if on(f + 2 * dx, r + 2 * dy) {
                        line.jump_pos |= b;
                    }
                    if on(f - 2 * dx, r - 2 * dy) {
                        line.jump_neg |= b;
                    }
                }
            }
            // A line with no room (a 1-wide board's diagonals) stays an empty padding line.
            if !(line.step_pos.is_zero() && line.step_neg.is_zero()) {
                lines[line_count] = line;
                line_count += 1;
            }
        }
        let mut neighbours = Vec::with_capacity((w * h) as usize);
        for r in 0..h {
            for f in 0..w {
                let mut n = B::ZERO;
                for d in directions.iter() {
                    let (dx, dy) = d.delta();
                    let (x, y) = (f + i32::from(dx), r + i32::from(dy));
                    if on(x, y) {
                        n |= B::bit(idx(x, y));
                    }
                }
                neighbours.push(n);
            }
        }
        let mut dir_offset = [0i16; 8];
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            dir_offset[usize::from(d.index())] = (i32::from(dy) * w + i32::from(dx)) as i16;
        }
        let squares = (0..h)
            .flat_map(|r| (0..w).map(move |f| (f, r)))
            .map(|(f, r)| Square::new(f as u8, r as u8).expect("the board is at most 16×16"))
            .collect();
        let parity =
            (B::WORDS == 4 && width == 16).then(|| ParityTables::new(height, directions, camps));
        Tables {
            parity,
            board,
            camps: [B::from_wide(&camps[0]), B::from_wide(&camps[1])],
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
    fn new(width: u8, height: u8, directions: Directions, camps: &[Wide; 2]) -> Self {
        let n = usize::from(width) * usize::from(height);
        if n <= u64::CAPACITY {
            TableSet::Small(Tables::new(width, height, directions, camps))
        } else if n <= u128::CAPACITY {
            TableSet::Medium(Tables::new(width, height, directions, camps))
        } else {
            TableSet::Large(Tables::new(width, height, directions, camps))
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
            directions: Directions::All,
            white_camp: white.iter().map(|s| s.to_string()).collect(),
            black_camp: black.iter().map(|s| s.to_string()).collect(),
            first_player: Color::White,
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
        let mut bad = spec(17, &["a1", "a1", "z1"], &[]);
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
