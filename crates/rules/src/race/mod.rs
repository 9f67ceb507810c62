//! The race family: jump-chain games where each side races its pieces into the opposite camp —
//! Ugolki (Happy-Games 3×3 and 3×4 camps, classic 9qum rules), Halma, and mods on any
//! rectangular board up to 16×16 (rules.md §2–§4, decisions A-U*, A-H*).
//!
//! A turn moves one piece: a step to an adjacent empty square, or a chain of jumps over adjacent
//! pieces of either colour to the empty square beyond. A move is identified by `(from, to)` and
//! is legal when at least one legal path exists (A-U11). Camp rules (no return home, target
//! locks), win rules and limits are fields of [`RaceSpec`].
//!
//! Modules: [`square`] (names and directions), [`bitboard`] (bit sets), [`rules`] (schema,
//! validation, tables), `movegen` (the flood fill), [`moves`], [`position`], `path` (checking
//! a spelled-out path, with reasons), [`error`] (those reasons and the set-up errors, as
//! enums), `notation`, `display`.

pub mod bitboard;
mod chains;
mod classes;
mod display;
pub mod error;
mod long_hops;
mod movegen;
pub mod moves;
mod notation;
mod parity;
mod path;
pub mod position;
pub mod rules;
pub mod square;
mod text;
mod word_flood;

pub use chains::LongestChain;
pub use error::{Illegal, SetupError};
pub use moves::{MoveKind, RaceEffect, RaceMove};
pub use position::{HomeDeadline, RacePosition, RaceUndo};
pub use rules::{NoLegalMove, RaceRules, RaceSpec, TargetLock, WinRule};
pub use square::{Dir, Directions, Square};
