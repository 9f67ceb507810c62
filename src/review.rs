//! Reviewing the game: a cursor ([`Review`]) over the move list. The board shows the position
//! after the chosen ply, replayed from the start through the rules, while the live game
//! ([`Match`]) stays untouched. While the player reviews, the game waits: no move is accepted
//! (human or computer) until the cursor returns to the live position.
use bevy::prelude::*;

use crate::{
    GameSystems,
    animation::{Animating, SkipAnimation},
    board::Board,
    match_state::{GameStarted, Match, PositionReset},
    pieces::{BoardView, Piece, show_snapshot},
    view_model::Snapshot,
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
        .init_resource::<ShownPly>()
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
            (
                back_to_live
                    .run_if(on_message::<GameStarted>.or_eager(on_message::<PositionReset>)),
                show_reviewed_position
                    .run_if(resource_exists::<Match>.and_then(resource_exists::<Board>)),
            )
                .chain()
                .in_set(GameSystems::Sync),
        );
}

fn move_cursor(
    mut commands: MessageReader<ReviewCommand>,
    mut review: ResMut<Review>,
    game: Res<Match>,
    animating: Res<Animating>,
    mut skip: MessageWriter<SkipAnimation>,
) {
    let was_live = review.is_live();
    for command in commands.read() {
        review.apply(*command, game.history.len());
    }
    // Entering review finishes the running animation first, so the view is the live one
    // before it switches to the reviewed position.
    if was_live && !review.is_live() && animating.is_running() {
        skip.write(SkipAnimation);
    }
    // The history may have shrunk (a new game, an undo): keep the cursor inside it.
    if review.ply.is_some_and(|p| p >= game.history.len()) {
        review.ply = None;
    }
}

/// The ply the pieces show (`None`: the live position).
#[derive(Resource, Default)]
struct ShownPly(Option<usize>);

/// A new game or an undo/redo shows the live position again (the view has just been rebuilt
/// from it).
fn back_to_live(mut review: ResMut<Review>, mut shown: ResMut<ShownPly>) {
    review.ply = None;
    shown.0 = None;
}

/// Makes the pieces show the reviewed position (or the live one again), once the view is not
/// animating. Pieces that stand in the same place keep their entities.
fn show_reviewed_position(
    mut commands: Commands,
    review: Res<Review>,
    mut shown: ResMut<ShownPly>,
    game: Res<Match>,
    board: Res<Board>,
    animating: Res<Animating>,
    mut view: ResMut<BoardView>,
    pieces: Query<&Piece>,
) {
    if review.ply == shown.0 || animating.is_running() {
        return;
    }
    let position = game.position_at(review.shown_ply(&game));
    let snapshot = Snapshot::of(&position, &board.layout);
    show_snapshot(&mut commands, &board.layout, &mut view, &snapshot, &pieces);
    shown.0 = review.ply;
}
