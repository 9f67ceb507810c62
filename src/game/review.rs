//! Reviewing the game: a cursor ([`Review`]) over the move list. The board shows the position
//! after the chosen ply, replayed from the start through the rules, while the live game
//! ([`Match`]) stays untouched. While the player reviews, the game waits: no move is accepted
//! (human or computer) until the cursor returns to the live position.
//!
//! This module holds the cursor only; showing the reviewed position on the board is the view's
//! (`crate::view::review_board`).
use bevy::prelude::*;

use crate::{
    GameSystems,
    game::match_state::{GameStarted, Match, PositionReset},
};

/// Which position the board shows: `None` = the live game; `Some(p)` = the position after the
/// first `p` moves of the history (`p` < the history's length; 0 = the start).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Review {
    pub ply: Option<usize>,
}

impl Review {
    pub fn is_live(&self) -> bool {
        self.ply.is_none()
    }

    /// The ply whose position the board shows, live or not.
    pub fn shown_ply(&self, game: &Match) -> usize {
        self.ply.unwrap_or(game.history.len())
    }

    /// Moves the cursor; `len` is the history's length. Returns the new cursor.
    pub fn apply(&mut self, command: ReviewCommand, len: usize) -> Option<usize> {
        let current = self.ply.unwrap_or(len);
        let target = match command {
            ReviewCommand::Go(p) => p,
            ReviewCommand::Back => current.saturating_sub(1),
            ReviewCommand::Forward => current + 1,
            ReviewCommand::First => 0,
            ReviewCommand::Live => len,
        };
        // The last ply is the live position: reaching it ends the review.
        self.ply = (target < len).then_some(target);
        self.ply
    }
}

/// Moves the review cursor (from the move list, its buttons or the keyboard).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewCommand {
    /// Show the position after this many plies.
    Go(usize),
    /// One ply back (from the live position: the position before the last move).
    Back,
    /// One ply forward (reaching the end returns to the live game).
    Forward,
    /// The start position.
    First,
    /// Back to the live game.
    Live,
}

/// The system that moves the cursor (input writes [`ReviewCommand`]s before it).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReviewSystems;

/// Run condition: the board shows the live game (no review, or no review resource at all).
pub fn is_live(review: Option<Res<Review>>) -> bool {
    review.is_none_or(|r| r.is_live())
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Review>()
        .add_message::<ReviewCommand>()
        .add_systems(
            Update,
            move_cursor
                .run_if(resource_exists::<Match>)
                .in_set(ReviewSystems)
                .in_set(GameSystems::Input),
        )
        .add_systems(
            Update,
            back_to_live
                .run_if(on_message::<GameStarted>.or_eager(on_message::<PositionReset>))
                .in_set(GameSystems::Sync),
        );
}

fn move_cursor(
    mut commands: MessageReader<ReviewCommand>,
    mut review: ResMut<Review>,
    game: Res<Match>,
) {
    for command in commands.read() {
        review.apply(*command, game.history.len());
    }
    // The history may have shrunk (a new game, an undo): keep the cursor inside it.
    if review.ply.is_some_and(|p| p >= game.history.len()) {
        review.ply = None;
    }
}

/// A new game or an undo/redo shows the live position again.
pub fn back_to_live(mut review: ResMut<Review>) {
    review.ply = None;
}
