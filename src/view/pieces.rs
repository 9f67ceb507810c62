//! Piece entities. Logic: one entity per piece, [`BoardView`] (which entity stands where) and
//! [`sync_view`], the snap that makes the view equal the rules state after every animation.
//! Presentation: meshes and materials for the entities.
use bevy::{ecs::query::QueryFilter, prelude::*};
use boardcraft_rules::Seat as Side;

use crate::{
    GameSystems,
    game::match_state::{GameStarted, Match, PositionReset},
    view::board::{Board, palette},
    view::model::{CellId, Layout, PieceKind, Place, Snapshot, Tray},
    view::seat_look::{Mark, SeatLook},
};

/// A piece (or, in Focus, one disc of a stack).
#[derive(Component, Copy, Clone, Debug)]
pub struct Piece {
    pub kind: PieceKind,
}

/// Where a piece stands in the view: a cell (with its level in the stack) or a tray.
#[derive(Component, Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceAt {
    pub place: Place,
    pub level: usize,
}

/// Which entity stands where, bottom → top. Mirrors a [`Snapshot`] with entities.
#[derive(Resource, Debug, Default, Clone)]
pub struct BoardView {
    pub stacks: Vec<Vec<Entity>>,
    pub trays: Vec<(Tray, Vec<Entity>)>,
    /// Pieces spawned this frame (their `Piece` component is not in the world until the
    /// commands apply), so a snap in the same frame still knows what they are.
    pub spawned: Vec<(Entity, PieceKind)>,
}

impl BoardView {
    pub fn place(&self, place: Place) -> &[Entity] {
        match place {
            Place::Cell(c) => self.stacks.get(c.index()).map_or(&[], Vec::as_slice),
            Place::Tray(t) => self
                .trays
                .iter()
                .find(|(x, _)| *x == t)
                .map_or(&[], |(_, v)| v.as_slice()),
        }
    }

    pub fn place_mut(&mut self, place: Place) -> &mut Vec<Entity> {
        match place {
            Place::Cell(c) => {
                if self.stacks.len() <= c.index() {
                    self.stacks.resize(c.index() + 1, Vec::new());
                }
                &mut self.stacks[c.index()]
            }
            Place::Tray(t) => {
                let i = match self.trays.iter().position(|(x, _)| *x == t) {
                    Some(i) => i,
                    None => {
                        self.trays.push((t, Vec::new()));
                        self.trays.len() - 1
                    }
                };
                &mut self.trays[i].1
            }
        }
    }

    /// The places of the view with their entities.
    pub fn places(&self) -> impl Iterator<Item = (Place, &[Entity])> {
        let cells = self
            .stacks
            .iter()
            .enumerate()
            .map(|(i, v)| (Place::Cell(CellId(i as u16)), v.as_slice()));
        let trays = self
            .trays
            .iter()
            .map(|(t, v)| (Place::Tray(*t), v.as_slice()));
        cells.chain(trays)
    }
}

/// How many times [`sync_view`] had to correct the view since the app started: a script
/// that does not match the rules shows up here (tests assert it stays 0).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ViewRepairs(pub u32);

/// Where a piece at `place`/`level` rests: its centre.
pub fn rest_translation(layout: &Layout, place: Place, level: usize) -> Vec3 {
    let base = match place {
        Place::Cell(c) => layout.slot_world(c, level),
        Place::Tray(t) => layout.tray_world(t, level),
    };
    base + Vec3::Y * (layout.piece.height / 2.0)
}

/// Logic: spawns the pieces of each new game.
pub fn plugin(app: &mut App) {
    app.init_resource::<BoardView>()
        .init_resource::<ViewRepairs>()
        .add_systems(
            Update,
            respawn_pieces
                .run_if(on_message::<GameStarted>.or_eager(on_message::<PositionReset>))
                .in_set(GameSystems::Rebuild)
                .after(crate::view::board::rebuild_layout),
        );
}

fn respawn_pieces(
    mut commands: Commands,
    game: Res<Match>,
    board: Res<Board>,
    mut view: ResMut<BoardView>,
    pieces: Query<Entity, With<Piece>>,
) {
    for e in &pieces {
        commands.entity(e).despawn();
    }
    *view = BoardView::default();
    let snapshot = Snapshot::of(&game.position, &board.layout);
    // A new view starts empty: spawning its pieces is not a repair.
    let mut ignored = 0;
    sync_places(
        &mut commands,
        &board.layout,
        &mut view,
        &snapshot,
        &mut ignored,
        |_| None,
    );
}

/// Makes the view show `snapshot`: every place whose pieces differ is re-spawned (counted in
/// [`ViewRepairs`]), and every piece is put exactly where it rests.
pub fn sync_view<F: QueryFilter>(
    commands: &mut Commands,
    layout: &Layout,
    view: &mut BoardView,
    snapshot: &Snapshot,
    pieces: &Query<&Piece, F>,
    repairs: &mut ViewRepairs,
) {
    let mut count = 0;
    let spawned = std::mem::take(&mut view.spawned);
    sync_places(commands, layout, view, snapshot, &mut count, |e| {
        pieces.get(e).ok().map(|p| p.kind).or_else(|| {
            spawned
                .iter()
                .find_map(|(s, kind)| (*s == e).then_some(*kind))
        })
    });
    if count > 0 {
        warn!("the view differed from the rules state in {count} place(s); snapped to the rules");
        repairs.0 += count;
    }
}

fn sync_places(
    commands: &mut Commands,
    layout: &Layout,
    view: &mut BoardView,
    snapshot: &Snapshot,
    repairs: &mut u32,
    kind_of: impl Fn(Entity) -> Option<PieceKind>,
) {
    let mut wanted: Vec<(Place, &[PieceKind])> = snapshot
        .stacks
        .iter()
        .enumerate()
        .map(|(i, s)| (Place::Cell(CellId(i as u16)), s.as_slice()))
        .collect();
    wanted.extend(
        snapshot
            .trays
            .iter()
            .map(|(t, s)| (Place::Tray(*t), s.as_slice())),
    );
    // Places the view has but the snapshot does not mention must be empty.
    let extra: Vec<Place> = view
        .places()
        .filter(|(p, v)| !v.is_empty() && !wanted.iter().any(|(w, _)| w == p))
        .map(|(p, _)| p)
        .collect();
    for place in extra {
        for e in view.place_mut(place).drain(..) {
            commands.entity(e).despawn();
        }
        *repairs += 1;
    }
    for (place, kinds) in wanted {
        let current = view.place_mut(place);
        let matched = match place {
            Place::Cell(_) => (current.len() == kinds.len()
                && current
                    .iter()
                    .zip(kinds)
                    .all(|(e, k)| kind_of(*e) == Some(*k)))
            .then(|| current.clone()),
            // A tray is a pile: any order of the right pieces will do.
            Place::Tray(_) => match_pile(current, kinds, &kind_of),
        };
        match matched {
            Some(entities) => {
                *current = entities;
                for (level, e) in current.iter().enumerate() {
                    commands.entity(*e).insert((
                        PieceAt { place, level },
                        Transform::from_translation(rest_translation(layout, place, level)),
                    ));
                }
            }
            None => {
                *repairs += 1;
                let shown: Vec<Option<PieceKind>> = current.iter().map(|e| kind_of(*e)).collect();
                debug!("view repair at {place:?}: showed {shown:?}, rules say {kinds:?}");
                for e in current.drain(..) {
                    commands.entity(e).despawn();
                }
                for (level, kind) in kinds.iter().enumerate() {
                    let e = commands
                        .spawn((
                            Piece { kind: *kind },
                            PieceAt { place, level },
                            Transform::from_translation(rest_translation(layout, place, level)),
                        ))
                        .id();
                    view.place_mut(place).push(e);
                }
            }
        }
    }
}

/// The pile's entities in the order of `kinds`, if it holds exactly those pieces.
/// Makes the view show `snapshot` without counting differences as repairs: for showing
/// another position on purpose (reviewing the game). Pieces that stay put keep their entities.
pub fn show_snapshot<F: QueryFilter>(
    commands: &mut Commands,
    layout: &Layout,
    view: &mut BoardView,
    snapshot: &Snapshot,
    pieces: &Query<&Piece, F>,
) {
    let spawned = std::mem::take(&mut view.spawned);
    let mut changed = 0;
    sync_places(commands, layout, view, snapshot, &mut changed, |e| {
        pieces.get(e).ok().map(|p| p.kind).or_else(|| {
            spawned
                .iter()
                .find_map(|(s, kind)| (*s == e).then_some(*kind))
        })
    });
}

fn match_pile(
    pile: &[Entity],
    kinds: &[PieceKind],
    kind_of: &impl Fn(Entity) -> Option<PieceKind>,
) -> Option<Vec<Entity>> {
    if pile.len() != kinds.len() {
        return None;
    }
    let mut left: Vec<Entity> = pile.to_vec();
    kinds
        .iter()
        .map(|k| {
            let i = left.iter().position(|e| kind_of(*e) == Some(*k))?;
            Some(left.swap_remove(i))
        })
        .collect()
}

/// Presentation: meshes and materials for pieces as they appear.
pub fn render_plugin(app: &mut App) {
    app.add_systems(Startup, make_piece_assets)
        .add_systems(Update, dress_pieces.in_set(GameSystems::Sync));
}

/// Meshes and materials for every piece look.
#[derive(Resource)]
pub struct PieceAssets {
    pub white: Handle<StandardMaterial>,
    pub black: Handle<StandardMaterial>,
    pub white_ring: Handle<StandardMaterial>,
    pub black_ring: Handle<StandardMaterial>,
    pub meshes: Vec<(MeshKey, Handle<Mesh>)>,
    /// A material per seat colour of a coloured table (White and Black use the two above).
    pub seat_colours: Vec<(SeatLookKey, Handle<StandardMaterial>)>,
    /// What marks are drawn in: dark on light pieces, light on dark ones.
    pub mark_dark: Handle<StandardMaterial>,
    pub mark_light: Handle<StandardMaterial>,
    /// One flat mesh per mark, one unit across.
    pub marks: Vec<(Mark, Handle<Mesh>)>,
}

/// A seat colour as a map key (sRGB in thousandths).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SeatLookKey([u16; 3]);

impl SeatLookKey {
    fn of(look: &SeatLook) -> Self {
        let c = look.colour.to_srgba();
        SeatLookKey([c.red, c.green, c.blue].map(|v| (v * 1000.0) as u16))
    }
}

/// Which mesh a piece needs: proportions in thousandths (so it can be a map key).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MeshKey {
    radius: u32,
    height: u32,
    tall: bool,
}

fn make_piece_assets(mut commands: Commands, mut materials: ResMut<Assets<StandardMaterial>>) {
    let glossy = |c: Color| StandardMaterial {
        base_color: c,
        perceptual_roughness: 0.32,
        reflectance: 0.45,
        ..default()
    };
    commands.insert_resource(PieceAssets {
        white: materials.add(glossy(palette::WHITE_PIECE)),
        black: materials.add(glossy(palette::BLACK_PIECE)),
        white_ring: materials.add(glossy(Color::srgb(0.80, 0.62, 0.25))),
        black_ring: materials.add(glossy(Color::srgb(0.80, 0.62, 0.25))),
        meshes: Vec::new(),
        seat_colours: Vec::new(),
        mark_dark: materials.add(StandardMaterial {
            base_color: Color::srgb(0.10, 0.09, 0.08),
            perceptual_roughness: 0.6,
            ..default()
        }),
        mark_light: materials.add(StandardMaterial {
            base_color: Color::srgb(0.97, 0.96, 0.92),
            emissive: LinearRgba::rgb(0.15, 0.15, 0.14),
            perceptual_roughness: 0.6,
            ..default()
        }),
        marks: Vec::new(),
    });
}

/// The material of a seat's pieces: White's and Black's as always, a seat colour's shared by
/// every piece of that colour.
fn seat_material(
    assets: &mut PieceAssets,
    materials: &mut Assets<StandardMaterial>,
    board: &Board,
    seat: Side,
) -> Handle<StandardMaterial> {
    let look = board.looks.get(seat.index());
    match look {
        Some(look) if look.mark != Mark::None => {
            let key = SeatLookKey::of(look);
            if let Some((_, m)) = assets.seat_colours.iter().find(|(k, _)| *k == key) {
                return m.clone();
            }
            let m = materials.add(StandardMaterial {
                base_color: look.colour,
                perceptual_roughness: 0.32,
                reflectance: 0.45,
                ..default()
            });
            assets.seat_colours.push((key, m.clone()));
            m
        }
        _ if seat == Side::WHITE => assets.white.clone(),
        _ => assets.black.clone(),
    }
}

/// A flat mesh of `mark`, one unit across, lying in the board plane (facing up).
fn mark_mesh(mark: Mark) -> Option<Mesh> {
    let flat = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let thin = 0.02;
    let mesh = match mark {
        Mark::None => return None,
        Mark::Dot => Extrusion::new(Circle::new(0.42), thin).mesh().build(),
        Mark::Triangle => Extrusion::new(RegularPolygon::new(0.55, 3), thin)
            .mesh()
            .build()
            .translated_by(Vec3::new(0.0, -0.08, 0.0)),
        Mark::Square => Extrusion::new(Rectangle::new(0.72, 0.72), thin)
            .mesh()
            .build(),
        Mark::Diamond => Extrusion::new(Rhombus::new(0.62, 0.95), thin)
            .mesh()
            .build(),
        Mark::Cross => {
            let mut bar = Extrusion::new(Rectangle::new(0.95, 0.26), thin)
                .mesh()
                .build();
            let other = Extrusion::new(Rectangle::new(0.26, 0.95), thin)
                .mesh()
                .build();
            bar.merge(&other).ok()?;
            bar.rotated_by(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4))
        }
        Mark::Ring => Extrusion::new(Annulus::new(0.28, 0.46), thin)
            .mesh()
            .build(),
    };
    Some(mesh.rotated_by(flat))
}

fn cached_mark(
    assets: &mut PieceAssets,
    meshes: &mut Assets<Mesh>,
    mark: Mark,
) -> Option<Handle<Mesh>> {
    if let Some((_, m)) = assets.marks.iter().find(|(k, _)| *k == mark) {
        return Some(m.clone());
    }
    let m = meshes.add(mark_mesh(mark)?);
    assets.marks.push((mark, m.clone()));
    Some(m)
}

/// A mark on top of a piece, drawn in a colour that stands out on the piece's.
#[derive(Component, Copy, Clone, Debug)]
pub struct PieceMark(pub Mark);

fn dress_pieces(
    mut commands: Commands,
    new: Query<(Entity, &Piece), Added<Piece>>,
    board: Option<Res<Board>>,
    mut assets: ResMut<PieceAssets>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(board) = board else {
        return;
    };
    let style = board.layout.piece;
    for (e, piece) in &new {
        let key = MeshKey {
            radius: (style.radius * 1000.0) as u32,
            height: (style.height * 1000.0) as u32,
            tall: style.tall,
        };
        let material = seat_material(&mut assets, &mut materials, &board, piece.kind.color);
        // The seat's mark lies on the piece's top, as wide as the top allows.
        let look = board.looks.get(piece.kind.color.index()).copied();
        let mark = look.and_then(|l| {
            let mesh = cached_mark(&mut assets, &mut meshes, l.mark)?;
            let colour = if l.light {
                assets.mark_dark.clone()
            } else {
                assets.mark_light.clone()
            };
            Some((l.mark, mesh, colour))
        });
        if style.tall {
            // A race man: a flared base with a round head, like a Halma pawn.
            let (r, h) = (style.radius, style.height);
            let base = cached_mesh(&mut assets, &mut meshes, key, || {
                ConicalFrustum {
                    radius_top: r * 0.5,
                    radius_bottom: r,
                    height: h * 0.55,
                }
                .mesh()
                .build()
            });
            let head_key = MeshKey {
                tall: false,
                height: 0,
                ..key
            };
            let head = cached_mesh(&mut assets, &mut meshes, head_key, || {
                Sphere::new(r * 0.45).mesh().uv(24, 16)
            });
            commands
                .entity(e)
                .insert(Visibility::default())
                .with_children(|c| {
                    c.spawn((
                        Mesh3d(base),
                        MeshMaterial3d(material.clone()),
                        Transform::from_xyz(0.0, -h * 0.5 + h * 0.275, 0.0),
                    ));
                    c.spawn((
                        Mesh3d(head),
                        MeshMaterial3d(material.clone()),
                        Transform::from_xyz(0.0, -h * 0.5 + h * 0.55 + r * 0.3, 0.0),
                    ));
                    if let Some((kind, mesh, colour)) = mark {
                        // Resting on the head's crown, wider than it so it reads from afar.
                        let top = -h * 0.5 + h * 0.55 + r * 0.75;
                        c.spawn((
                            PieceMark(kind),
                            Mesh3d(mesh),
                            MeshMaterial3d(colour),
                            Transform::from_xyz(0.0, top - 0.01, 0.0)
                                .with_scale(Vec3::splat(r * 1.05)),
                        ));
                    }
                });
            continue;
        }
        let mesh = cached_mesh(&mut assets, &mut meshes, key, || {
            piece_mesh(style.radius, style.height)
        });
        let mut entity = commands.entity(e);
        entity.insert((
            Mesh3d(mesh),
            MeshMaterial3d(material.clone()),
            Visibility::default(),
        ));
        if let Some((kind, mesh, colour)) = mark
            && !piece.kind.gipf
        {
            entity.with_child((
                PieceMark(kind),
                Mesh3d(mesh),
                MeshMaterial3d(colour),
                Transform::from_xyz(0.0, style.height * 0.47, 0.0)
                    .with_scale(Vec3::splat(style.radius * 1.2)),
            ));
        }
        if piece.kind.gipf {
            // A GIPF-piece: a second disc on top, crowned with a gold ring.
            let ring = match piece.kind.color {
                Side::WHITE => assets.white_ring.clone(),
                _ => assets.black_ring.clone(),
            };
            let crown = meshes.add(Torus::new(style.radius * 0.45, style.radius * 0.62));
            let top = meshes.add(piece_mesh(style.radius, style.height));
            entity.with_children(|c| {
                c.spawn((
                    Mesh3d(top),
                    MeshMaterial3d(match piece.kind.color {
                        Side::WHITE => assets.white.clone(),
                        _ => assets.black.clone(),
                    }),
                    Transform::from_xyz(0.0, style.height, 0.0),
                ));
                c.spawn((
                    Mesh3d(crown),
                    MeshMaterial3d(ring),
                    Transform::from_xyz(0.0, style.height * 1.5, 0.0)
                        .with_scale(Vec3::new(1.0, 0.35, 1.0)),
                ));
            });
        }
    }
}

/// One mesh per look, shared by every piece.
fn cached_mesh(
    assets: &mut PieceAssets,
    meshes: &mut Assets<Mesh>,
    key: MeshKey,
    make: impl FnOnce() -> Mesh,
) -> Handle<Mesh> {
    if let Some((_, m)) = assets.meshes.iter().find(|(k, _)| *k == key) {
        return m.clone();
    }
    let m = meshes.add(make());
    assets.meshes.push((key, m.clone()));
    m
}

/// A disc centred on its origin, slightly narrower at the top so stacked discs stay
/// distinguishable.
fn piece_mesh(radius: f32, height: f32) -> Mesh {
    ConicalFrustum {
        radius_top: radius * 0.94,
        radius_bottom: radius,
        height: height * 0.94,
    }
    .mesh()
    .build()
}
