//! Learning to play, the game's side: lessons and puzzles loaded as assets
//! ([`content`]: the shipped manifests, the native `mods/` folder, hot reload, broken files as
//! visible errors), the player's progress kept with the settings ([`progress`]), and playing a
//! lesson step or a puzzle through the normal move flow ([`session`]: the board checks each of
//! the player's moves against the goal through `boardcraft_learn`, the computer answers where
//! the puzzle needs a reply, the solution is shown move by move).
//!
//! Nothing here decides a rule or a goal: positions, moves and judgements come from
//! `boardcraft_rules` and `boardcraft_learn`; the screens are in `crate::ui::learn`.
use bevy::prelude::*;

pub mod content;
pub mod copy_position;
pub mod progress;
pub mod session;

pub fn plugin(app: &mut App) {
    app.add_plugins((
        content::plugin,
        progress::plugin,
        session::plugin,
        copy_position::plugin,
    ));
}
