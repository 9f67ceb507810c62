//! Focus (Domination), Sid Sackson's stacking game, as described in V. Mendelev's
//! *Энциклопедия игр* (seed `[S3]`) with the board and set-up of the published game
//! (`rules.md` §5, decisions A-F1…A-F7).
//!
//! - A side controls every stack whose top piece is its own. A turn either moves the top `k`
//!   pieces of a controlled stack of height `h >= k` exactly `k` squares in a straight
//!   orthogonal line (squares passed over do not matter; only the landing square must be on the
//!   board), or drops one reserve piece on any square.
//! - A stack taller than the height limit loses pieces from the bottom: the mover's own go to
//!   the mover's reserve, the opponent's are captured (out of the game). Drops too.
//! - At the start of its turn, a side that controls no stack and has no reserve loses (A-F6).
//!   Threefold repetition and the ply cap draw (A-F5, engine guards, RON fields); Sackson's
//!   option "a draw counts as a first-player win" is a RON flag.
//!
//! Modules: [`square`] (names, directions), [`stack`] (stacks of two bits a piece), `square_set` (the squares a seat controls), [`board`] (mask and
//! precomputed targets), [`rules`] (the variant file section and its validation), [`moves`]
//! (moves and effects), [`position`] (the `Position` implementation), [`error`] (what is wrong with a move or a
//! set-up, as enums), and the notation,
//! printout and Zobrist keys.
pub mod board;
mod display;
pub mod error;
pub mod moves;
mod notation;
pub mod position;
pub mod rules;
pub mod square;
mod square_set;
pub mod stack;
mod text;
mod zobrist;

pub use board::Board;
pub use error::{Illegal, SetupProblem};
pub use moves::{Action, Fate, FocusEffect, FocusMove, Overflowed};
pub use position::{FocusPosition, FocusUndo, InvalidPosition};
pub use rules::{FocusRules, FocusSpec, SetupEntries};
pub use square::{Direction, Square};
pub use stack::Stack;
