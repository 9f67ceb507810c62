//! Placement badges: once a seat of a race has finished while the others play on, its place
//! ("1st", "2nd" …) shows over the point it raced to, in the seat's colour. Logic: one
//! [`PlacementBadge`] entity per finished seat, standing over the centre of its target, kept in
//! step with the position between moves. The UI paints each badge where the camera sees that
//! spot (`ui::badges`), so it reads the same in the 3D and the top-down view.
use bevy::prelude::*;
use boardcraft_rules::{AnyPosition, Position, Seat};

use crate::{
    GameSystems,
    game::match_state::{Match, TurnPhase},
    game::review::Review,
    view::board::Board,
};

/// A finished seat's place, shown over its target region.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct PlacementBadge {
    pub seat: Seat,
    /// 1 for the first seat to finish.
    pub place: u8,
}

/// How high over the board a badge floats (over the pieces that filled the point).
const LIFT: f32 = 0.9;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, place_badges.in_set(GameSystems::Sync));
}

/// The seats that have finished, in order, with their places (none for other families).
pub fn finished(position: &AnyPosition) -> Vec<(Seat, u8)> {
    match position {
        AnyPosition::Race(p) => p
            .finish_order()
            .into_iter()
            .enumerate()
            .map(|(i, s)| (s, i as u8 + 1))
            .collect(),
        _ => Vec::new(),
    }
}

fn place_badges(
    mut commands: Commands,
    game: Option<Res<Match>>,
    board: Option<Res<Board>>,
    phase: Option<Res<State<TurnPhase>>>,
    review: Option<Res<Review>>,
    badges: Query<(Entity, &PlacementBadge)>,
    mut seen: Local<Option<(u64, usize, u32, Option<usize>)>>,
) {
    // A finish shows once the move that made it has landed.
    if phase.is_some_and(|p| *p.get() == TurnPhase::Animating) {
        return;
    }
    let (Some(game), Some(board)) = (game, board) else {
        for (e, _) in &badges {
            commands.entity(e).despawn();
        }
        return;
    };
    // The places change only with the game, its moves or the ply under review.
    let ply = review.as_ref().and_then(|r| r.ply);
    let key = (game.game_id, game.history.len(), game.position.ply(), ply);
    if *seen == Some(key) && !board.is_changed() {
        return;
    }
    *seen = Some(key);
    // An earlier position under review shows the places as they stood then.
    let shown_position = ply.map(|ply| game.position_at(ply));
    let wanted: Vec<PlacementBadge> = finished(shown_position.as_ref().unwrap_or(&game.position))
        .into_iter()
        .filter(|(seat, _)| board.layout.goal(*seat).is_some())
        .map(|(seat, place)| PlacementBadge { seat, place })
        .collect();
    let mut shown: Vec<PlacementBadge> = badges.iter().map(|(_, b)| b.clone()).collect();
    shown.sort_by_key(|b| b.place);
    if shown == wanted && !board.is_changed() {
        return;
    }
    for (e, _) in &badges {
        commands.entity(e).despawn();
    }
    for badge in wanted {
        let Some(at) = board.layout.goal(badge.seat) else {
            continue;
        };
        commands.spawn((
            Transform::from_translation(board.layout.world(at, LIFT)),
            badge,
        ));
    }
}
