//! Dragging a piece (mouse or finger): the grabbed piece — with the pieces above it, for a
//! Focus lift — follows the pointer over the board; dropped on a legal target it plays the
//! move (animated on from where it was let go), let go anywhere else it goes back.
//!
//! Picking sends `Pointer<DragStart>` / `Drag` / `DragDrop` / `DragEnd` to the pieces and cells;
//! the drop is a click on the target ([`BoardClicked`]), so the move is chosen exactly as by
//! clicking. While carried, the pieces ignore picking, so the cell under the pointer is what
//! the drop lands on.
use bevy::prelude::*;
use boardcraft_rules::Position;

use super::{BoardClicked, Selection, click_of};
use crate::{
    GameSystems,
    game::{
        config::Players,
        match_state::{GameStarted, Match, MoveApplied, PositionReset, TurnPhase},
        review::Review,
    },
    view::{
        board::CellMarker,
        camera::OrbitCamera,
        model::Place,
        pieces::{BoardView, Piece, PieceAt},
    },
};

/// How high above its rest a carried piece floats (cell units).
pub const CARRY_LIFT: f32 = 0.35;

/// The pieces being dragged.
#[derive(Resource, Debug, Default)]
pub struct Dragged {
    /// The pieces carried, each with its rest position.
    pub pieces: Vec<(Entity, Vec3)>,
    /// The grabbed piece's rest position: the pointer moves it in the horizontal plane
    /// through this point.
    grab: Vec3,
    /// Let go: the pieces go back in this frame's update unless the drop played a move.
    released: bool,
}

impl Dragged {
    pub fn is_dragging(&self) -> bool {
        !self.pieces.is_empty()
    }

    fn carries(&self, entity: Entity) -> bool {
        self.pieces.iter().any(|(e, _)| *e == entity)
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Dragged>()
        .add_observer(on_drag_start)
        .add_observer(on_drag)
        .add_observer(on_drop)
        .add_observer(on_drag_end)
        .add_systems(
            Update,
            put_back
                .after(GameSystems::Rules)
                .before(GameSystems::Animate),
        );
}

/// Grabbing a piece selects it (as a click does) and, if it can move now, picks it up.
fn on_drag_start(
    drag: On<Pointer<DragStart>>,
    cells: Query<&CellMarker>,
    pieces: Query<&PieceAt, With<Piece>>,
    transforms: Query<&Transform, With<Piece>>,
    view: Res<BoardView>,
    selection: Res<Selection>,
    turn: HumanTurn,
    mut dragged: ResMut<Dragged>,
    mut commands: Commands,
    mut clicked: MessageWriter<BoardClicked>,
) {
    if drag.button != PointerButton::Primary || !pieces.contains(drag.entity) {
        return;
    }
    let Some(click) = click_of(drag.entity, &cells, &pieces) else {
        return;
    };
    // Dragging the selected piece keeps it selected rather than starting over.
    if selection.clicks.last() != Some(&click.token) {
        clicked.write(click);
    }
    let movable = selection
        .paths
        .iter()
        .any(|p| p.tokens.first() == Some(&click.token));
    if !movable || !turn.is_now() {
        return;
    }
    // A tower's piece carries the pieces above it (what a Focus move lifts).
    let at = pieces.get(drag.entity).expect("checked above");
    let carried: Vec<Entity> = match at.place {
        Place::Cell(_) => view
            .place(at.place)
            .iter()
            .skip(at.level)
            .copied()
            .collect(),
        Place::Tray(_) => vec![drag.entity],
    };
    let rest = |e: Entity| transforms.get(e).map(|t| t.translation).ok();
    let Some(grab) = rest(drag.entity) else {
        return;
    };
    *dragged = Dragged {
        pieces: carried
            .iter()
            .filter_map(|e| Some((*e, rest(*e)?)))
            .collect(),
        grab,
        released: false,
    };
    for (e, _) in &dragged.pieces {
        commands.entity(*e).insert(Pickable::IGNORE);
    }
}

/// The carried pieces follow the pointer: where the ray under it meets the horizontal plane
/// through the grabbed piece.
fn on_drag(
    drag: On<Pointer<Drag>>,
    cameras: Query<(&Camera, &GlobalTransform), With<OrbitCamera>>,
    dragged: Res<Dragged>,
    mut transforms: Query<&mut Transform, With<Piece>>,
) {
    if !dragged.carries(drag.entity) {
        return;
    }
    let Ok((camera, camera_transform)) = cameras.single() else {
        return;
    };
    let Some(point) = pointer_on_plane(
        camera,
        camera_transform,
        drag.pointer_location.position,
        dragged.grab.y,
    ) else {
        return;
    };
    let offset = Vec3::new(
        point.x - dragged.grab.x,
        CARRY_LIFT,
        point.z - dragged.grab.z,
    );
    for (e, rest) in &dragged.pieces {
        if let Ok(mut transform) = transforms.get_mut(*e) {
            transform.translation = *rest + offset;
        }
    }
}

/// Where the pointer (window position, logical pixels) points on the horizontal plane at
/// height `y`, if the ray meets it.
pub fn pointer_on_plane(
    camera: &Camera,
    camera_transform: &GlobalTransform,
    pointer: Vec2,
    y: f32,
) -> Option<Vec3> {
    // Bevy's "viewport" positions are the window's (it subtracts the viewport's corner itself):
    // the pointer goes in as it is, even when the viewport is offset.
    let ray = camera.viewport_to_world(camera_transform, pointer).ok()?;
    let distance = ray.intersect_plane(Vec3::new(0.0, y, 0.0), InfinitePlane3d::new(Vec3::Y))?;
    Some(ray.get_point(distance))
}

/// Dropping on a cell (or a piece on it) is a click there: on a legal target it completes
/// the move.
fn on_drop(
    drop: On<Pointer<DragDrop>>,
    cells: Query<&CellMarker>,
    pieces: Query<&PieceAt, With<Piece>>,
    mut clicked: MessageWriter<BoardClicked>,
) {
    if drop.button != PointerButton::Primary {
        return;
    }
    if let Some(mut c) = click_of(drop.entity, &cells, &pieces) {
        c.level = None;
        clicked.write(c);
    }
}

fn on_drag_end(drag: On<Pointer<DragEnd>>, mut dragged: ResMut<Dragged>) {
    if drag.button == PointerButton::Primary && dragged.carries(drag.entity) {
        dragged.released = true;
    }
}

/// After a release (and after the rules saw the drop): if no move was played, the pieces go
/// back where they rest; if one was, they stay where they were let go and the move's
/// animation takes them on from there. A new game or an undo drops whatever was carried.
fn put_back(
    mut dragged: ResMut<Dragged>,
    mut applied: MessageReader<MoveApplied>,
    mut started: MessageReader<GameStarted>,
    mut reset: MessageReader<PositionReset>,
    mut transforms: Query<&mut Transform, With<Piece>>,
    mut commands: Commands,
) {
    let played = applied.read().count() > 0;
    let rebuilt = started.read().count() + reset.read().count() > 0;
    if !dragged.is_dragging() || !(dragged.released || rebuilt) {
        return;
    }
    for (e, rest) in dragged.pieces.drain(..) {
        if !played && let Ok(mut transform) = transforms.get_mut(e) {
            transform.translation = rest;
        }
        if let Ok(mut entity) = commands.get_entity(e) {
            entity.remove::<Pickable>();
        }
    }
    dragged.released = false;
}

/// Whether a human may move now: a human's turn, the game waiting for a move, the live
/// position shown (not a reviewed one).
#[derive(bevy::ecs::system::SystemParam)]
pub struct HumanTurn<'w> {
    game: Option<Res<'w, Match>>,
    players: Res<'w, Players>,
    phase: Option<Res<'w, State<TurnPhase>>>,
    review: Option<Res<'w, Review>>,
}

impl HumanTurn<'_> {
    pub fn is_now(&self) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| self.players.of(g.position.side_to_move()).is_human())
            && self
                .phase
                .as_ref()
                .is_some_and(|p| *p.get() == TurnPhase::Ready)
            && self.review.as_ref().is_none_or(|r| r.is_live())
    }
}
