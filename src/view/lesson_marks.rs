//! What a lesson step draws on the board: its marked squares and its arrows, each
//! arrow hop by hop. The logic part keeps one entity per mark and per hop, placed on the board,
//! in step with the exercise being played (headless tests see them); the render part gives them
//! meshes.
use bevy::prelude::*;

use crate::{
    GameSystems,
    learn::session::LearnSession,
    view::{board::Board, model::SURFACE},
};

/// A marked square of the current lesson step.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct LessonMark {
    pub square: String,
}

/// One hop of an arrow of the current lesson step, from one square to the next.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct LessonArrowHop {
    /// Which arrow of the step (0-based).
    pub arrow: usize,
    pub from: String,
    pub to: String,
    /// The last hop of its arrow (drawn with a head).
    pub last: bool,
}

/// Marks and arrows lie just above the squares, under the pieces' feet.
const LIFT: f32 = SURFACE + 0.015;

/// Logic: the entities follow the exercise.
pub fn plugin(app: &mut App) {
    app.add_systems(Update, sync.in_set(GameSystems::Sync));
}

/// Presentation: meshes for new marks and hops.
pub fn render_plugin(app: &mut App) {
    app.add_systems(Update, dress.in_set(GameSystems::Sync).after(sync));
}

/// What is drawn now: the exercise (its progress key) on the board of a variant.
#[derive(Default, PartialEq)]
struct Drawn(Option<(String, u64)>);

fn sync(
    mut commands: Commands,
    session: Option<Res<LearnSession>>,
    board: Option<Res<Board>>,
    drawn_entities: Query<Entity, Or<(With<LessonMark>, With<LessonArrowHop>)>>,
    mut drawn: Local<Drawn>,
) {
    let active = session
        .as_deref()
        .and_then(|s| s.active.as_ref())
        .filter(|a| a.game_id.is_some());
    let want = match (active, board.as_deref()) {
        (Some(a), Some(b)) => Drawn(Some((a.id.key(), b.variant_hash))),
        _ => Drawn(None),
    };
    if *drawn == want {
        return;
    }
    for e in &drawn_entities {
        commands.entity(e).despawn();
    }
    *drawn = want;
    let (Some(active), Some(board)) = (active, board) else {
        return;
    };
    let layout = &board.layout;
    let at = |name: &str| {
        layout
            .id(name)
            .map(|id| layout.world(layout.cell(id).at, LIFT))
    };
    for mark in &active.exercise.marks {
        let name = mark.to_string();
        if let Some(p) = at(&name) {
            // Visibility, so that the meshes the presentation hangs below inherit it.
            commands.spawn((
                LessonMark { square: name },
                Transform::from_translation(p),
                Visibility::default(),
            ));
        }
    }
    for (i, arrow) in active.exercise.arrows.iter().enumerate() {
        let hops: Vec<_> = arrow.hops().collect();
        for (j, (from, to)) in hops.iter().enumerate() {
            let (from, to) = (from.to_string(), to.to_string());
            let (Some(a), Some(b)) = (at(&from), at(&to)) else {
                continue;
            };
            // The hop's entity stands at its middle, its local X along the hop, scaled to it.
            let mid = (a + b) / 2.0;
            let along = b - a;
            let transform = Transform::from_translation(mid + Vec3::Y * 0.001 * j as f32)
                .with_rotation(Quat::from_rotation_y(-along.z.atan2(along.x)))
                .with_scale(Vec3::new(along.length(), 1.0, 1.0));
            commands.spawn((
                LessonArrowHop {
                    arrow: i,
                    from,
                    to,
                    last: j + 1 == hops.len(),
                },
                transform,
                Visibility::default(),
            ));
        }
    }
}

fn dress(
    mut commands: Commands,
    marks: Query<Entity, Added<LessonMark>>,
    hops: Query<(Entity, &LessonArrowHop, &Transform), Added<LessonArrowHop>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    if marks.is_empty() && hops.is_empty() {
        return;
    }
    let colour = |c: Color| StandardMaterial {
        base_color: c,
        alpha_mode: AlphaMode::Blend,
        unlit: true,
        ..default()
    };
    let mark_material = materials.add(colour(Color::srgba(1.0, 0.78, 0.2, 0.55)));
    let arrow_material = materials.add(colour(Color::srgba(0.2, 0.75, 1.0, 0.85)));
    let ring = meshes.add(Annulus::new(0.3, 0.42).mesh());
    for e in &marks {
        commands.entity(e).with_child((
            Mesh3d(ring.clone()),
            MeshMaterial3d(mark_material.clone()),
            Transform::from_rotation(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
        ));
    }
    for (e, hop, transform) in &hops {
        // The shaft spans the hop in local X (the entity is scaled by the hop's length); the
        // head is drawn unscaled at the far end of the last hop.
        let length = transform.scale.x.max(0.01);
        commands.entity(e).with_child((
            Mesh3d(meshes.add(Cuboid::new(1.0, 0.01, 0.09))),
            MeshMaterial3d(arrow_material.clone()),
        ));
        if hop.last {
            commands.entity(e).with_child((
                Mesh3d(meshes.add(Cone::new(0.17, 0.3).mesh())),
                MeshMaterial3d(arrow_material.clone()),
                Transform::from_translation(Vec3::new(0.5 - 0.15 / length, 0.0, 0.0))
                    .with_rotation(Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2))
                    .with_scale(Vec3::new(1.0, 1.0 / length, 1.0)),
            ));
        }
    }
}
