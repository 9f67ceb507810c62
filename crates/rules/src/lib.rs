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
pub use position::{IllegalMove, NotationError, OutOfTurn, Position};
pub use seat::Seat;
pub use variant::{
    FamilyRules, FieldError, PlayerCountError, Variant, VariantError, VariantWarning,
    shipped_variant, shipped_variants,
};
