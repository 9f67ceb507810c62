//! Boardcraft's rules engine: every game family behind one [`Position`] trait, every variant a
//! RON file validated into a typed rule set. No Bevy, no I/O beyond parsing text it is handed.
//!
//! Families:
//! - [`race`]: jump-chain race games (Ugolki in three rule sets, Halma, Grasshopper-like mods);
//! - [`focus`]: Sid Sackson's Focus (stacks, reserves, overflow captures);
//! - [`gipf`]: Kris Burm's GIPF on the hex board (pushing, rows of four).
//!
//! [`AnyPosition`] wraps the families for callers that pick the game at run time (the CLI, the
//! app); search code is generic over [`Position`].
//!
//! Errors say what is wrong as values, as shakmaty's `PlayError` does, and display as the
//! sentence a player reads:
//! - a refused move is an [`IllegalMove`] (the move as written and an [`IllegalReason`]); a
//!   typed move that names no legal move is [`NotationError::Illegal`] with the same reason,
//!   text that is no move at all [`NotationError::Syntax`] (in words). The reason is the
//!   family's enum — [`race::Illegal`] (`NoPiece`, `NotYourPiece`, `NotNeighbours`,
//!   `WrongDirection`, `NoChain`, `GameOver` …), [`focus::Illegal`] (`WrongDistance`,
//!   `NotYourStack`, `StackTooLow` …), [`gipf::Illegal`] (`LineFull`, `NoBasicPiece` …) — or
//!   `OtherGame` (a move of another family), `NotSeatsMove` (a reply out of turn in
//!   best-reply search) and `Other` (games outside this crate);
//! - a hand-made position that cannot stand is a [`race::SetupError`]
//!   (`RacePosition::from_seats`), a [`gipf::SetupError`] (`GipfPosition::from_setup`) or a
//!   [`focus::InvalidPosition`] listing every [`focus::SetupProblem`]. Position texts report
//!   them in words, with the column, as [`text::PositionTextError`].

pub mod any;
#[cfg(feature = "checks")]
pub mod checks;
pub mod draw_guard;
pub mod focus;
pub mod gipf;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod race;
pub mod seat;
pub mod text;
pub mod variant;

pub use any::{AnyEffect, AnyMove, AnyPosition};
pub use outcome::{EndReason, Outcome, Places};
pub use position::{IllegalMove, IllegalReason, NotationError, OutOfTurn, Position};
pub use seat::{NamedSeat, Seat};
pub use variant::{
    FamilyRules, FieldError, PlayerCountError, Variant, VariantError, VariantWarning,
    shipped_variant, shipped_variants,
};
