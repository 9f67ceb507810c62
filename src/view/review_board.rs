//! The board during a review: the pieces show the position the review cursor
//! ([`Review`]) points at, replayed through the rules, while the live game stays untouched.
use bevy::prelude::*;

use crate::{
    GameSystems,
    game::{
        match_state::{GameStarted, Match, PositionReset},
        review::{Review, ReviewSystems, back_to_live},
    },
    view::{
        animation::{Animating, SkipAnimation},
        board::Board,
        model::Snapshot,
        pieces::{BoardView, Piece, show_snapshot},
    },
};

pub fn plugin(app: &mut App) {
    app.init_resource::<ShownPly>()
        .add_systems(
            Update,
            finish_animation_on_review
                .after(ReviewSystems)
                .in_set(GameSystems::Input),
        )
        .add_systems(
            Update,
            (
                forget_shown
                    .run_if(on_message::<GameStarted>.or_eager(on_message::<PositionReset>)),
                show_reviewed_position
                    .run_if(resource_exists::<Match>.and_then(resource_exists::<Board>)),
            )
                .chain()
                .after(back_to_live)
                .in_set(GameSystems::Sync),
        );
}

/// Entering review finishes the running animation first, so the view is the live one before it
/// switches to the reviewed position.
fn finish_animation_on_review(
    review: Res<Review>,
    mut was_live: Local<Option<bool>>,
    animating: Res<Animating>,
    mut skip: MessageWriter<SkipAnimation>,
) {
    let live = review.is_live();
    if was_live.unwrap_or(true) && !live && animating.is_running() {
        skip.write(SkipAnimation);
    }
    *was_live = Some(live);
}

/// The ply the pieces show (`None`: the live position).
#[derive(Resource, Default)]
struct ShownPly(Option<usize>);

/// A new game or an undo/redo rebuilt the view from the live position.
fn forget_shown(mut shown: ResMut<ShownPly>) {
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
