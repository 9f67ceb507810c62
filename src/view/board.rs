//! The board: its layout (logic, used by pieces and animation for cell → world positions) and
//! its 3D meshes (presentation): the slab, the squares or the GIPF grid, tinted camps, labels.
use std::sync::Arc;

use bevy::{
    light::{CascadeShadowConfigBuilder, NotShadowCaster},
    pbr::{MAX_CASCADES_PER_LIGHT, MAX_DIRECTIONAL_LIGHTS},
    prelude::*,
};
use boardcraft_rules::Seat as Side;

use boardcraft_rules::Position;

use crate::{
    GameSystems,
    game::match_state::{GameStarted, Match},
    view::model::{CellId, CellKind, Grid, Layout, hex},
    view::seat_look::{Mark, SeatLook, table_looks},
};

/// The current game's board layout.
#[derive(Resource, Clone, Debug)]
pub struct Board {
    pub layout: Arc<Layout>,
    /// The variant file's content hash the layout was built from.
    pub variant_hash: u64,
    /// Every seat's colour and mark, in turn order.
    pub looks: Vec<SeatLook>,
}

impl Board {
    /// Whether the seats are told apart by colour (and their camps tinted in it), rather than
    /// being the light and dark sides of a two-seat game.
    pub fn coloured(&self) -> bool {
        self.looks.iter().any(|l| l.mark != Mark::None)
    }
}

/// Marks every entity that belongs to the drawn board (rebuilt for each game).
#[derive(Component)]
pub struct BoardPart;

/// A clickable cell.
#[derive(Component, Copy, Clone, Debug)]
pub struct CellMarker(pub CellId);

/// Logic: keeps [`Board`] in step with the game.
pub fn plugin(app: &mut App) {
    app.add_plugins(crate::view::badges::plugin).add_systems(
        Update,
        rebuild_layout
            .run_if(on_message::<GameStarted>)
            .in_set(GameSystems::Rebuild),
    );
}

pub fn rebuild_layout(mut commands: Commands, game: Res<Match>, board: Option<Res<Board>>) {
    let seats = game.position.seat_count();
    // A restart of the same variant at the same table keeps the layout, and so every board
    // mesh (a table of another size has other camps).
    if board.is_some_and(|b| b.variant_hash == game.variant.content_hash && b.layout.seats == seats)
    {
        return;
    }
    commands.insert_resource(Board {
        layout: Arc::new(Layout::for_variant(&game.variant)),
        variant_hash: game.variant.content_hash,
        looks: table_looks(seats, |s| game.position.seat_name(s)),
    });
}

/// Board colours, chosen to read well in both the 3D and the top-down view.
pub mod palette {
    use bevy::prelude::Color;

    pub const TABLE: Color = Color::srgb(0.16, 0.13, 0.11);
    pub const FRAME: Color = Color::srgb(0.36, 0.22, 0.12);
    pub const LIGHT_SQUARE: Color = Color::srgb(0.93, 0.86, 0.72);
    pub const DARK_SQUARE: Color = Color::srgb(0.78, 0.64, 0.46);
    /// White's start camp: a rose tint; its dark squares a shade deeper.
    pub const WHITE_CAMP: Color = Color::srgb(0.93, 0.74, 0.68);
    pub const WHITE_CAMP_DARK: Color = Color::srgb(0.82, 0.60, 0.54);
    /// Black's start camp: a blue-grey tint.
    pub const BLACK_CAMP: Color = Color::srgb(0.70, 0.79, 0.88);
    pub const BLACK_CAMP_DARK: Color = Color::srgb(0.56, 0.66, 0.78);
    pub const HEX_FACE: Color = Color::srgb(0.90, 0.85, 0.74);
    pub const LINE: Color = Color::srgb(0.35, 0.28, 0.22);
    pub const DOT: Color = Color::srgb(0.30, 0.24, 0.19);
    pub const HIGHLIGHT: Color = Color::srgb(0.30, 0.85, 0.45);
    pub const SELECTED: Color = Color::srgb(1.0, 0.85, 0.25);
    pub const LAST_MOVE: Color = Color::srgb(0.80, 0.86, 0.45);
    pub const WHITE_PIECE: Color = Color::srgb(0.95, 0.93, 0.88);
    pub const BLACK_PIECE: Color = Color::srgb(0.12, 0.12, 0.14);
}

/// Thickness of the board slab; the playing surface is at y = 0.
const SLAB: f32 = 0.3;

/// Presentation: draws the board whenever [`Board`] changes, and the lights.
pub fn render_plugin(app: &mut App) {
    app.insert_resource(ClearColor(palette::TABLE))
        .insert_resource(GlobalAmbientLight {
            color: Color::WHITE,
            brightness: 350.0,
            ..default()
        })
        .add_systems(Startup, spawn_lights)
        .add_systems(
            Update,
            draw_board
                .run_if(resource_exists_and_changed::<Board>)
                .in_set(GameSystems::Rebuild)
                .after(rebuild_layout),
        );
}

fn spawn_lights(mut commands: Commands) {
    // A warm key light from White's front-left, high enough for short, soft shadows.
    commands.spawn((
        DirectionalLight {
            illuminance: 9_000.0,
            shadow_maps_enabled: true,
            color: Color::srgb(1.0, 0.97, 0.92),
            ..default()
        },
        Transform::from_xyz(-6.0, 14.0, 8.0).looking_at(Vec3::ZERO, Vec3::Y),
        // Its shadows follow the graphics setting (`view::graphics`).
        crate::view::graphics::CastsShadows,
        // The scene is one board: two cascades cover it (four cost twice the shadow work, which
        // matters on software renderers). WebGL2 allows one.
        CascadeShadowConfigBuilder {
            num_cascades: 2.min(MAX_CASCADES_PER_LIGHT),
            first_cascade_far_bound: 20.0,
            maximum_distance: 60.0,
            ..default()
        }
        .build(),
    ));
    // A cool fill light from the other side, without shadows. WebGL2 (the browser build) takes
    // one directional light only; the renderer would drop this one anyway.
    if MAX_DIRECTIONAL_LIGHTS < 2 {
        return;
    }
    commands.spawn((
        DirectionalLight {
            illuminance: 2_500.0,
            shadow_maps_enabled: false,
            color: Color::srgb(0.85, 0.9, 1.0),
            ..default()
        },
        Transform::from_xyz(8.0, 10.0, -6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// Materials shared by the cells, kept so highlights can swap them.
#[derive(Resource, Clone)]
pub struct CellMaterials {
    pub light: Handle<StandardMaterial>,
    pub dark: Handle<StandardMaterial>,
    pub white_camp: Handle<StandardMaterial>,
    pub white_camp_dark: Handle<StandardMaterial>,
    pub black_camp: Handle<StandardMaterial>,
    pub black_camp_dark: Handle<StandardMaterial>,
    pub spot: Handle<StandardMaterial>,
    pub dot: Handle<StandardMaterial>,
    pub highlight: Handle<StandardMaterial>,
    pub selected: Handle<StandardMaterial>,
    pub last_move: Handle<StandardMaterial>,
    /// Per seat of a coloured table: its home's light and dark tint, and the lighter tint
    /// of a point it races to that is nobody's home. Empty for White and Black.
    pub seat_tints: Vec<[Handle<StandardMaterial>; 3]>,
}

impl CellMaterials {
    /// The resting material of a cell.
    pub fn base(&self, layout: &Layout, id: CellId) -> Handle<StandardMaterial> {
        let cell = layout.cell(id);
        let tint = |seat: Option<Side>, which: usize| {
            seat.and_then(|s| self.seat_tints.get(s.index()))
                .map(|t| t[which].clone())
        };
        if cell.kind == CellKind::Square {
            if let Some(m) = tint(cell.camp, usize::from(cell.dark)) {
                return m;
            }
            if cell.camp.is_none()
                && let Some(m) = tint(cell.goal, 2)
            {
                return m;
            }
        }
        match (cell.kind, cell.camp) {
            (CellKind::Dot, _) => self.dot.clone(),
            (CellKind::Spot, _) => self.spot.clone(),
            (CellKind::Square, Some(Side::WHITE)) if cell.dark => self.white_camp_dark.clone(),
            (CellKind::Square, Some(Side::WHITE)) => self.white_camp.clone(),
            (CellKind::Square, Some(_)) if cell.dark => self.black_camp_dark.clone(),
            (CellKind::Square, Some(_)) => self.black_camp.clone(),
            (CellKind::Square, None) if cell.dark => self.dark.clone(),
            (CellKind::Square, None) => self.light.clone(),
        }
    }
}

/// `base` moved `amount` of the way towards `colour`: a camp's shade of its seat's colour.
fn tinted(base: Color, colour: Color, amount: f32) -> Color {
    base.mix(&colour, amount)
}

fn matte(materials: &mut Assets<StandardMaterial>, color: Color) -> Handle<StandardMaterial> {
    materials.add(StandardMaterial {
        base_color: color,
        perceptual_roughness: 0.85,
        reflectance: 0.2,
        ..default()
    })
}

fn draw_board(
    mut commands: Commands,
    board: Res<Board>,
    old: Query<Entity, With<BoardPart>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let layout = &board.layout;
    if layout.cells.is_empty() {
        return;
    }
    let mats = CellMaterials {
        light: matte(&mut materials, palette::LIGHT_SQUARE),
        dark: matte(&mut materials, palette::DARK_SQUARE),
        white_camp: matte(&mut materials, palette::WHITE_CAMP),
        white_camp_dark: matte(&mut materials, palette::WHITE_CAMP_DARK),
        black_camp: matte(&mut materials, palette::BLACK_CAMP),
        black_camp_dark: matte(&mut materials, palette::BLACK_CAMP_DARK),
        spot: matte(&mut materials, palette::LINE),
        dot: matte(&mut materials, palette::DOT),
        highlight: materials.add(StandardMaterial {
            base_color: palette::HIGHLIGHT,
            emissive: LinearRgba::rgb(0.05, 0.25, 0.08),
            perceptual_roughness: 0.6,
            ..default()
        }),
        selected: materials.add(StandardMaterial {
            base_color: palette::SELECTED,
            emissive: LinearRgba::rgb(0.3, 0.22, 0.02),
            perceptual_roughness: 0.6,
            ..default()
        }),
        last_move: matte(&mut materials, palette::LAST_MOVE),
        seat_tints: if board.coloured() {
            board
                .looks
                .iter()
                .map(|look| {
                    [
                        matte(
                            &mut materials,
                            tinted(palette::LIGHT_SQUARE, look.colour, 0.5),
                        ),
                        matte(
                            &mut materials,
                            tinted(palette::DARK_SQUARE, look.colour, 0.5),
                        ),
                        matte(
                            &mut materials,
                            tinted(palette::LIGHT_SQUARE, look.colour, 0.3),
                        ),
                    ]
                })
                .collect()
        } else {
            Vec::new()
        },
    };
    commands.insert_resource(mats.clone());

    let size = layout.max - layout.min;
    let frame_mat = materials.add(StandardMaterial {
        base_color: palette::FRAME,
        perceptual_roughness: 0.55,
        reflectance: 0.35,
        ..default()
    });
    if layout.grid == Grid::Hex {
        // A slab that hugs the cells: one wide hexagon under every cell, merged into one mesh,
        // so a star gets a star-shaped board and a hexagon a hexagonal one.
        let c = layout.centre();
        let mut slab: Option<Mesh> = None;
        for cell in &layout.cells {
            let prism = Extrusion::new(RegularPolygon::new(hex::CELL_RADIUS * 1.75, 6), SLAB)
                .mesh()
                .build()
                .rotated_by(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2))
                .translated_by(Vec3::new(
                    cell.at.x - c.x,
                    -SLAB / 2.0 - 0.01,
                    -(cell.at.y - c.y),
                ));
            match &mut slab {
                None => slab = Some(prism),
                Some(all) => {
                    if let Err(e) = all.merge(&prism) {
                        warn!("the board slab is incomplete: {e}");
                    }
                }
            }
        }
        if let Some(slab) = slab {
            commands.spawn((
                BoardPart,
                Mesh3d(meshes.add(slab)),
                MeshMaterial3d(frame_mat),
                Pickable::IGNORE,
            ));
        }
    } else if layout.hex {
        // A hexagonal slab with a corner towards each player (e1 and e9 are corners).
        let radius = size.x.max(size.y) / 2.0 + 1.2;
        let slab = Extrusion::new(RegularPolygon::new(radius, 6), SLAB);
        commands.spawn((
            BoardPart,
            Mesh3d(meshes.add(slab)),
            MeshMaterial3d(frame_mat),
            Transform::from_xyz(0.0, -SLAB / 2.0, 0.0)
                .with_rotation(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
            Pickable::IGNORE,
        ));
        let face = Extrusion::new(RegularPolygon::new(radius - 0.55, 6), 0.02);
        commands.spawn((
            BoardPart,
            Mesh3d(meshes.add(face)),
            MeshMaterial3d(matte(&mut materials, palette::HEX_FACE)),
            // The extrusion is centred on its origin: its top face sits 1 cm above the slab.
            Transform::from_xyz(0.0, 0.0, 0.0)
                .with_rotation(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
            Pickable::IGNORE,
        ));
    } else {
        let margin = 1.7;
        commands.spawn((
            BoardPart,
            Mesh3d(meshes.add(Cuboid::new(
                size.x + margin * 2.0,
                SLAB,
                size.y + margin * 2.0,
            ))),
            MeshMaterial3d(frame_mat),
            Transform::from_xyz(0.0, -SLAB / 2.0 - 0.01, 0.0),
            Pickable::IGNORE,
        ));
    }

    // Lines of the GIPF grid, as thin bars lying on the board.
    let line_mat = matte(&mut materials, palette::LINE);
    for (a, b) in &layout.lines {
        let (pa, pb) = (layout.world(*a, 0.014), layout.world(*b, 0.014));
        let length = pa.distance(pb);
        let mid = (pa + pb) / 2.0;
        let dir = (pb - pa).normalize_or_zero();
        commands.spawn((
            BoardPart,
            Mesh3d(meshes.add(Cuboid::new(length, 0.01, 0.045))),
            MeshMaterial3d(line_mat.clone()),
            Transform::from_translation(mid).with_rotation(Quat::from_rotation_arc(Vec3::X, dir)),
            Pickable::IGNORE,
        ));
    }

    // Heights (top faces): slab 0, hex face 0.01, lines 0.019, squares / spots / dots 0.02.
    let square = if layout.grid == Grid::Hex {
        // Hexagonal cells with a narrow groove between neighbours; a corner points along the
        // files, so each flat side faces a neighbour.
        meshes.add(
            Extrusion::new(RegularPolygon::new(hex::CELL_RADIUS * 0.94, 6), 0.04)
                .mesh()
                .build()
                .rotated_by(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
        )
    } else {
        meshes.add(Cuboid::new(0.97, 0.04, 0.97))
    };
    let spot = meshes.add(Cylinder::new(0.07, 0.04));
    let dot = meshes.add(Cylinder::new(0.15, 0.04));
    // Spots and dots are small; an invisible-sized pick disc would be nicer, but the piece
    // radius is what a player aims at, so cells get a flat pick target of that size.
    let pick_disc = meshes.add(Cylinder::new(layout.piece.radius.max(0.35), 0.005));
    for id in layout.ids() {
        let cell = layout.cell(id);
        // The centre of a 0.04 high tile: its top is the playing surface.
        let at = layout.world(cell.at, 0.0);
        let material = mats.base(layout, id);
        let mesh = match cell.kind {
            CellKind::Square => square.clone(),
            CellKind::Spot => spot.clone(),
            CellKind::Dot => dot.clone(),
        };
        let mut entity = commands.spawn((
            BoardPart,
            CellMarker(id),
            Mesh3d(mesh),
            MeshMaterial3d(material),
            Transform::from_translation(at),
            NotShadowCaster,
        ));
        if cell.kind != CellKind::Square {
            entity.with_child((
                Mesh3d(pick_disc.clone()),
                Visibility::Hidden,
                Transform::from_xyz(0.0, 0.02, 0.0),
            ));
        }
    }

    // Coordinates: small raised marks are hard to read; egui draws the labels on top instead
    // (see `ui::draw_labels`), so the board stays clean in the top-down view.
}
