//! Dragging a piece, driven by the `Pointer` events picking would send: the piece follows the
//! pointer, goes back when let go off a legal target, and plays the move when dropped on one.
use bevy::{
    camera::{CameraProjection, NormalizedRenderTarget, RenderTargetInfo},
    picking::{
        backend::HitData,
        events::{Drag, DragDrop, DragEnd, DragStart, Pointer},
        pointer::{Location, PointerButton, PointerId},
    },
    prelude::*,
};
use boardcraft::{
    automation::headless_app_with,
    game::config::{GameConfig, VariantChoice},
    game::match_state::{Match, TurnPhase},
    input::{
        Selection,
        drag::{CARRY_LIFT, Dragged},
        selection_plugin,
    },
    view::{
        board::{Board, CellMarker},
        camera::OrbitCamera,
        model::{CellId, Place, Token},
        pieces::{BoardView, rest_translation},
    },
};

use crate::common::{STEP, humans, phase, run_until, stable_phase, start};

const SIZE: UVec2 = UVec2::new(960, 600);

/// A 3×3 Ugolki game between humans with the input's headless part, and a camera like the
/// game's looking at the board (its projection set by hand: no renderer computes it here).
fn dragging_app() -> (App, Entity) {
    let config = GameConfig {
        variant: VariantChoice::parse("ugolki-hg-3x3"),
        after: String::new(),
        position: None,
        players: None,
    };
    let mut app = headless_app_with(config, humans(), STEP, selection_plugin);
    start(&mut app);
    let projection = PerspectiveProjection {
        aspect_ratio: SIZE.x as f32 / SIZE.y as f32,
        ..default()
    };
    let mut camera = Camera::default();
    camera.computed.clip_from_view = projection.get_clip_from_view();
    camera.computed.target_info = Some(RenderTargetInfo {
        physical_size: SIZE,
        scale_factor: 1.0,
    });
    let transform = Transform::from_xyz(0.0, 11.0, 9.0).looking_at(Vec3::ZERO, Vec3::Y);
    let camera = app
        .world_mut()
        .spawn((
            camera,
            OrbitCamera::default(),
            transform,
            GlobalTransform::from(transform),
        ))
        .id();
    (app, camera)
}

fn cell(app: &App, name: &str) -> CellId {
    app.world().resource::<Board>().layout.id(name).unwrap()
}

fn rest(app: &App, name: &str) -> Vec3 {
    let layout = app.world().resource::<Board>().layout.clone();
    rest_translation(&layout, Place::Cell(layout.id(name).unwrap()), 0)
}

fn piece_at(app: &App, name: &str) -> Entity {
    app.world()
        .resource::<BoardView>()
        .place(Place::Cell(cell(app, name)))[0]
}

fn translation(app: &App, entity: Entity) -> Vec3 {
    app.world().get::<Transform>(entity).unwrap().translation
}

/// Where `world` appears in the window (what the pointer would be over).
fn on_screen(app: &App, camera: Entity, world: Vec3) -> Vec2 {
    let camera_ref = app.world().get::<Camera>(camera).unwrap();
    let transform = app.world().get::<GlobalTransform>(camera).unwrap();
    camera_ref.world_to_viewport(transform, world).unwrap()
}

fn send<E: std::fmt::Debug + Clone + Reflect>(app: &mut App, target: Entity, at: Vec2, event: E) {
    let location = Location {
        target: NormalizedRenderTarget::None {
            width: SIZE.x,
            height: SIZE.y,
        },
        position: at,
    };
    app.world_mut()
        .trigger(Pointer::new(PointerId::Mouse, location, event, target));
}

fn hit(camera: Entity) -> HitData {
    HitData::new(camera, 1.0, None, None)
}

fn grab(app: &mut App, camera: Entity, piece: Entity, over: Vec3) {
    let at = on_screen(app, camera, over);
    let event = DragStart {
        button: PointerButton::Primary,
        hit: hit(camera),
    };
    send(app, piece, at, event);
}

fn drag_to(app: &mut App, camera: Entity, piece: Entity, over: Vec3) {
    let at = on_screen(app, camera, over);
    let event = Drag {
        button: PointerButton::Primary,
        distance: Vec2::ZERO,
        delta: Vec2::ZERO,
    };
    send(app, piece, at, event);
}

fn let_go(app: &mut App, camera: Entity, piece: Entity, over: Vec3) {
    let at = on_screen(app, camera, over);
    let event = DragEnd {
        button: PointerButton::Primary,
        distance: Vec2::ZERO,
    };
    send(app, piece, at, event);
}

/// A drop target standing for the cell's mesh (picking would report the mesh under the
/// pointer; the headless app has no meshes).
fn drop_on(app: &mut App, camera: Entity, piece: Entity, name: &str, over: Vec3) {
    let at = on_screen(app, camera, over);
    let id = cell(app, name);
    let target = app.world_mut().spawn(CellMarker(id)).id();
    let event = DragDrop {
        button: PointerButton::Primary,
        dropped: piece,
        hit: hit(camera),
    };
    send(app, target, at, event);
}

#[test]
fn a_dragged_piece_follows_the_pointer_and_goes_back_when_let_go_off_a_target() {
    let (mut app, camera) = dragging_app();
    let piece = piece_at(&app, "f3");
    let home = translation(&app, piece);
    assert!(home.distance(rest(&app, "f3")) < 1e-4);

    grab(&mut app, camera, piece, home);
    app.update();
    let f3 = Token::Cell(cell(&app, "f3"));
    assert_eq!(app.world().resource::<Selection>().clicks, vec![f3]);
    assert!(app.world().resource::<Dragged>().is_dragging());

    // Over some point of the board (no cell in particular): the piece is there, lifted.
    let over = Vec3::new(home.x - 1.6, home.y, home.z + 0.7);
    drag_to(&mut app, camera, piece, over);
    let carried = translation(&app, piece);
    assert!(
        (carried.x - over.x).abs() < 0.02 && (carried.z - over.z).abs() < 0.02,
        "the piece is at {carried}, the pointer over {over}"
    );
    assert!((carried.y - (home.y + CARRY_LIFT)).abs() < 1e-4);
    app.update();
    assert_eq!(
        translation(&app, piece),
        carried,
        "it stays under the pointer"
    );

    // Let go there: no move, the piece is back home and pickable again.
    let_go(&mut app, camera, piece, over);
    app.update();
    assert!(translation(&app, piece).distance(home) < 1e-4);
    assert!(app.world().get::<Pickable>(piece).is_none());
    assert!(!app.world().resource::<Dragged>().is_dragging());
    assert!(app.world().resource::<Match>().history.is_empty());

    // Dropped on a cell that is no target of the piece: back home too.
    grab(&mut app, camera, piece, home);
    app.update();
    let a4 = rest(&app, "a4");
    drag_to(&mut app, camera, piece, a4);
    drop_on(&mut app, camera, piece, "a4", a4);
    let_go(&mut app, camera, piece, a4);
    app.update();
    assert!(translation(&app, piece).distance(home) < 1e-4);
    assert!(app.world().resource::<Match>().history.is_empty());
}

#[test]
fn a_piece_dropped_on_a_legal_target_plays_the_move_from_where_it_was_let_go() {
    let (mut app, camera) = dragging_app();
    let piece = piece_at(&app, "f3");
    let home = translation(&app, piece);
    grab(&mut app, camera, piece, home);
    app.update();
    let target = rest(&app, "e3");
    let at = target + Vec3::new(0.2, 0.0, -0.1);
    drag_to(&mut app, camera, piece, at);
    let dropped = translation(&app, piece);
    drop_on(&mut app, camera, piece, "e3", at);
    let_go(&mut app, camera, piece, at);
    app.update();
    assert_eq!(app.world().resource::<Match>().line(), "f3-e3");
    assert!(
        translation(&app, piece).distance(home) > 0.5,
        "the move is animated from the drop, not from the piece's old square"
    );
    assert!(translation(&app, piece).distance(dropped) < 0.5);
    run_until(&mut app, 10, "the move's animation", |w| {
        phase(w) == Some(TurnPhase::Animating)
    });
    run_until(&mut app, 100, "the move's end", |w| {
        stable_phase(w) == Some(TurnPhase::Ready)
    });
    let now_at = piece_at(&app, "e3");
    assert_eq!(now_at, piece, "the same piece stands on e3");
    assert!(
        translation(&app, piece).distance(target) < 1e-4,
        "{} vs {target}",
        translation(&app, piece)
    );
    assert!(app.world().get::<Pickable>(piece).is_none());
}

#[test]
fn a_piece_that_cannot_move_is_not_carried() {
    // h1, in the corner of White's camp, is walled in by its neighbours at the start.
    let (mut app, camera) = dragging_app();
    let piece = piece_at(&app, "h1");
    let home = translation(&app, piece);
    grab(&mut app, camera, piece, home);
    app.update();
    assert!(!app.world().resource::<Dragged>().is_dragging());
    let e4 = rest(&app, "e4");
    drag_to(&mut app, camera, piece, e4);
    assert_eq!(translation(&app, piece), home);
}

/// A point on the board seen through a camera whose viewport does not start at the window's
/// corner (the wide layout with the online panel at the left; a top safe area): the pointer
/// over it (window coordinates, which Bevy's conversions take and give) leads back to it.
#[test]
fn the_pointer_finds_the_board_through_an_offset_viewport() {
    use bevy::camera::Viewport;
    use boardcraft::input::drag::pointer_on_plane;
    let (origin, size) = (UVec2::new(250, 40), UVec2::new(400, 560));
    let projection = PerspectiveProjection {
        aspect_ratio: size.x as f32 / size.y as f32,
        ..default()
    };
    let mut camera = Camera {
        viewport: Some(Viewport {
            physical_position: origin,
            physical_size: size,
            ..default()
        }),
        ..default()
    };
    camera.computed.clip_from_view = projection.get_clip_from_view();
    camera.computed.target_info = Some(RenderTargetInfo {
        physical_size: SIZE,
        scale_factor: 1.0,
    });
    let transform =
        GlobalTransform::from(Transform::from_xyz(0.0, 11.0, 9.0).looking_at(Vec3::ZERO, Vec3::Y));
    for world in [
        Vec3::ZERO,
        Vec3::new(2.0, 0.0, -1.5),
        Vec3::new(-3.0, 0.0, 2.5),
    ] {
        let pointer = camera.world_to_viewport(&transform, world).unwrap();
        let view = camera.logical_viewport_rect().unwrap();
        assert!(
            view.contains(pointer),
            "{world} shows at {pointer}, outside {view:?}"
        );
        let back = pointer_on_plane(&camera, &transform, pointer, 0.0).unwrap();
        assert!(back.distance(world) < 1e-3, "{world} → {pointer} → {back}");
    }
}
