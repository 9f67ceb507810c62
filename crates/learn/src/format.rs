//! The RON schema of puzzle and lesson files, exactly as a modder writes them. Unknown fields
//! are errors everywhere. [`crate::load`] turns these into checked [`crate::Puzzle`]s and
//! [`crate::Lesson`]s (positions parsed, moves read in the variant's notation).
//!
//! A puzzle file holds a collection (one file per variant in `assets/puzzles/`):
//! ```ron
//! (
//!     format_version: 1,
//!     puzzles: [
//!         (
//!             id: "9qum-longest-jump-1",
//!             variant: "ugolki-9qum",
//!             position: "8/8/8/5B2/3W4/2WW4/8/8 w 20",
//!             goal: LongestJump,
//!             solutions: ["c3:c5"],
//!             difficulty: Easy,
//!             title: (en: "…", ru: "…"),
//!             hint: (en: "…", ru: "…"),
//!         ),
//!     ],
//! )
//! ```
//! A lesson file holds one course (`assets/lessons/<family>.ron`): a title and its steps, each
//! with a position, a text, the moves that solve it and what the player is told after a right
//! or a wrong try.
use serde::{Deserialize, Serialize};

/// The schema version this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// A text in every language the game speaks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub en: String,
    pub ru: String,
}

impl Text {
    /// The text in `lang` (`"en"` or `"ru"`); English for any other code.
    pub fn get(&self, lang: &str) -> &str {
        match lang {
            "ru" => &self.ru,
            _ => &self.en,
        }
    }
}

/// What the player (the side to move in the puzzle's position) must achieve. "In N" counts the
/// player's own moves; the opponent answers in between with every move the rules allow, so a
/// goal "in N" is reached only if it is reached against every defence. The solver proves it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Goal {
    /// Win the game within N own moves (any family).
    WinIn(u32),
    /// Race games: make the jump chain with the most jumps (any of its paths counts; the move
    /// is its start and end square). Solved in one move.
    LongestJump,
    /// Race games: have at least `pieces` own pieces in the target camp within `moves` own
    /// moves.
    ReachTarget { pieces: u32, moves: u32 },
    /// Race games with a home-clear rule (9qum's 40-move rule): have no own piece left on the
    /// own home squares within `moves` own moves.
    LeaveHome { moves: u32 },
    /// Focus: capture the most opponent pieces with one move (the greatest number is unique to
    /// the listed moves and at least one).
    CaptureMost,
    /// Focus: leave the opponent without a move (no stack controlled, no reserve) within N own
    /// moves.
    NoMoveIn(u32),
    /// GIPF: take a row of four (or more) of the own colour within N own moves.
    RowIn(u32),
    /// GIPF: capture an opponent GIPF-piece within N own moves.
    TakeGipfIn(u32),
    /// Lessons only: the listed first moves are the accepted ones (a step that shows how a
    /// move is made rather than a problem to solve). Verified for legality only.
    Play,
}

impl Goal {
    /// How many own moves the goal allows.
    pub fn moves(self) -> u32 {
        match self {
            Goal::WinIn(n) | Goal::NoMoveIn(n) | Goal::RowIn(n) | Goal::TakeGipfIn(n) => n,
            Goal::ReachTarget { moves, .. } | Goal::LeaveHome { moves } => moves,
            Goal::LongestJump | Goal::CaptureMost | Goal::Play => 1,
        }
    }
}

impl Goal {
    /// The goal's kind as a short name, for counting and for `puzzles mine --kind`: `win`,
    /// `best-jump`, `into-corner`, `leave-home`, `capture-most`, `no-move`, `row`, `take-gipf`,
    /// `play`.
    pub fn kind(self) -> &'static str {
        match self {
            Goal::WinIn(_) => "win",
            Goal::LongestJump => "best-jump",
            Goal::ReachTarget { .. } => "into-corner",
            Goal::LeaveHome { .. } => "leave-home",
            Goal::CaptureMost => "capture-most",
            Goal::NoMoveIn(_) => "no-move",
            Goal::RowIn(_) => "row",
            Goal::TakeGipfIn(_) => "take-gipf",
            Goal::Play => "play",
        }
    }
}

/// How hard a puzzle is, for sorting and filtering on the Learn screen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
    Expert,
}

impl Difficulty {
    pub const ALL: [Difficulty; 4] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
    ];
}

/// A puzzle file: a collection of puzzles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleFile {
    pub format_version: u32,
    pub puzzles: Vec<PuzzleEntry>,
}

/// One puzzle as written in a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleEntry {
    /// Unique among all puzzles (lower-case letters, digits and `-`): the key progress is kept
    /// under.
    pub id: String,
    /// A shipped variant name (or a variant file path for a mod).
    pub variant: String,
    /// The position in the variant family's text format (see docs/cli.md).
    pub position: String,
    pub goal: Goal,
    /// The solution lines, each a space-separated line of moves in notation starting with the
    /// player's first move, then the opponent's reply, and so on, ending with the move that
    /// reaches the goal. Their first moves are exactly the first moves that reach the goal
    /// (usually one; where several are equally good, every one is listed).
    pub solutions: Vec<String>,
    pub difficulty: Difficulty,
    pub title: Text,
    pub hint: Text,
    /// Where the puzzle comes from (e.g. `mined: ugolki-9qum self-play seed 7, ply 31`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

/// A lesson file: one course.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonFile {
    pub format_version: u32,
    /// Unique among all lessons (lower-case letters, digits and `-`).
    pub id: String,
    /// The family the course teaches: `Race`, `Focus` or `Gipf` (as in variant files).
    pub family: String,
    pub title: Text,
    #[serde(default)]
    pub description: Option<Text>,
    pub steps: Vec<StepEntry>,
}

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepEntry {
    pub title: Text,
    pub variant: String,
    pub position: String,
    /// What the step teaches and what to do.
    pub text: Text,
    pub goal: Goal,
    /// As for puzzles: the lines whose first moves are exactly the accepted first moves.
    pub solutions: Vec<String>,
    /// Told after a right try.
    pub right: Text,
    /// Told after a wrong try (a legal move that does not solve the step).
    pub wrong: Text,
    #[serde(default)]
    pub hint: Option<Text>,
    /// Squares to mark on the board (the squares the text speaks of), by name: `["h8", "g8"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<String>,
    /// Arrows to draw, each a chain of squares joined by `:` or `-`, drawn hop by hop:
    /// `["e4:c4:a4:a2"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrows: Vec<String>,
}

/// `assets/puzzles/manifest.ron` and `assets/lessons/manifest.ron`: the files in menu order
/// (browsers cannot list folders).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub files: Vec<String>,
}
