//! GIPF (Kris Burm) on the hexagonal board: the official basic, standard and tournament games
//! and the two variants that follow the Russian seed text literally (rules.md §6, §8 A-G1…A-G16).
//!
//! # A turn
//! 1. **Pending decision** (A-G16). If the previous move left rows of the mover's colour on the
//!    board *and* he has a choice about them (intersecting rows, optional GIPF-pieces), he makes
//!    that choice first, as part of this move. The empty-reserve check comes after it.
//! 2. **Action.** A piece from the reserve is put on a dot and pushed onto the adjacent spot; the
//!    contiguous run in front shifts one spot along the line. Illegal when the line is full to
//!    the far end. A GIPF-piece entry is prefixed `G` (tournament: made of two reserve pieces,
//!    compulsory on each player's first turn, and forbidden after his first basic piece; seed
//!    variant: a separate reserve item). In `gipf-steps` the action may instead be a one-spot
//!    step of an own piece along a line, pushing the same way, never onto a dot.
//! 3. **The mover's removal step.** While a row of 4+ of his colour stands (on a line not
//!    *settled*, see below), he takes one: the whole contiguous run (A-G5) leaves the board, his
//!    own pieces to his reserve (an own GIPF-piece as two basic pieces, or as a GIPF-piece in the
//!    seed variant), the other colour's captured. He may keep optional GIPF-pieces; rows are
//!    re-evaluated after each take (A-G6), so of two intersecting rows he takes one, or keeps the
//!    GIPF-piece on the crossing and takes both.
//! 4. **The opponent's removal step** (A-G7) over the rows of his colour still standing. If
//!    it has exactly one outcome it is applied at once; if it has a choice, it becomes his pending
//!    decision (step 1 of his next move).
//! 5. **End checks.** After each removal step: a player without a GIPF-piece on the board loses
//!    (standard/tournament, only after his first turn, A-G13; if one step leaves both without one,
//!    the player who made it loses, and the game ends at once, A-G12); in the seed variant a
//!    player without any piece loses. When the next turn begins: an empty reserve loses
//!    (official), no legal action loses, and the ply cap (A-G10, an engine guard) draws.
//!
//! # Removal choices are part of the move
//! [`GipfMove`] is `(pending decision, action, own removal)`, the removals as spot masks. The
//! legal move list holds one move per *distinct* set of removed spots: different orders of
//! non-interacting rows, or of choices that end with the same spots removed, are one move (the
//! position after it is the same). Forced removals are in the move too, but notation omits them
//! (it accepts them written). Rows of the opponent's colour are never decided by the mover.
//!
//! A row whose owner keeps all its pieces (only possible when all are optional GIPF-pieces) is
//! *settled* (A-G14): it is not offered again until its line changes. Settled lines are part of
//! the state and the hash.
//!
//! # State and hash
//! The Zobrist hash covers the board (kind and colour per spot), both reserves (basic and
//! GIPF), the side to move, the pending-decision flag, the settled lines and the per-player
//! flags "has moved" / "has entered a basic piece" (tournament rules). Captured material is
//! not hashed: it is the variant's total minus board and reserve. `undo` copies back the whole
//! (small, `Copy`) state, so it restores everything exactly.
//!
//! # Notation (A-G9, A-G16)
//! `e1-e2`, `Ge1-e2`, `b5-b4` (seed step), `e1-e2;xe2,e3,e4,e5` (the mover's chosen removal),
//! `xc3,d4,e5,f5;a1-b2` (a pending decision, then the entry), `x;a1-b2` (a pending decision to
//! keep every piece), `xc3,d4,e5,f5` alone when that decision ends the game.
mod display;
pub mod effect;
pub mod error;
pub mod geometry;
pub mod moves;
pub mod piece;
pub mod position;
pub mod spec;
mod state;
mod text;
mod zobrist;

pub use effect::{
    ActionEffect, Destination, GipfEffect, RemovalStep, RemovedPiece, RemovedRow, Shift,
};
pub use error::{Illegal, SetupError};
pub use geometry::{Direction, Dot, Point, Spot};
pub use moves::{Action, GipfMove, SpotSet};
pub use piece::{Piece, PieceKind};
pub use position::{GipfPosition, GipfSetup, GipfUndo};
pub use spec::{GipfEntry, GipfRemoval, GipfReturn, GipfRules, GipfSpec, LoseWhen};
