//! The camera: a perspective view the player can orbit and zoom ([`OrbitCamera`], moved by
//! `crate::input::camera_controls`), fitted to the board; a top-down orthographic view that
//! reads like a clean 2D board. The view is a setting ([`Settings::view`]), so it is kept
//! between runs. The board is seen from the side of the one person at it: Black's pieces are at
//! the bottom of the screen for a player who plays Black against the computer or online.
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};

use bevy::{camera::ScalingMode, core_pipeline::tonemapping::Tonemapping, prelude::*};

use boardcraft_rules::Seat as Side;

use crate::{
    GameSystems,
    settings::{Settings, View},
    view::board::Board,
    view::camera_turn::CameraTurn,
};

/// Where the camera looks from. Angles in radians; `pitch` is the angle above the board.
#[derive(Component, Clone, Copy, Debug)]
pub struct OrbitCamera {
    pub yaw: f32,
    pub pitch: f32,
    /// Distance from the board centre, as a multiple of the distance that fits the board.
    pub zoom: f32,
    /// Half extents of what must stay in view: x across, y along the table (cell units).
    pub fit: Vec2,
    pub top_down: bool,
    /// Whose pieces are nearest the viewer (the bottom of the screen); `yaw` turns from there
    /// (the turn itself is [`CameraTurn`], which eases from one seat to the next).
    pub facing: Side,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        OrbitCamera {
            yaw: 0.0,
            pitch: 0.95,
            zoom: 1.0,
            fit: Vec2::splat(5.0),
            top_down: false,
            facing: Side::WHITE,
        }
    }
}

/// Asks for the top-down view (or back), e.g. from the UI.
#[derive(Message, Clone, Copy, Debug)]
pub struct ToggleTopDown;

/// The camera's work in a frame: fitting to a new board, then (after the controls have moved
/// the [`OrbitCamera`]) placing it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CameraSystems {
    Fit,
    Place,
}

/// Start in the top-down view (from `--top-down`): overrides the stored setting for this run.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct StartTopDown(pub bool);

pub fn plugin(app: &mut App) {
    app.add_message::<ToggleTopDown>()
        .init_resource::<StartTopDown>()
        .add_systems(Startup, spawn_camera)
        // After Startup, where stored settings are read.
        .add_systems(PostStartup, apply_start_top_down)
        .configure_sets(
            Update,
            (CameraSystems::Fit, CameraSystems::Place)
                .chain()
                .in_set(GameSystems::Sync),
        )
        .add_systems(
            Update,
            fit_to_board
                .run_if(resource_exists_and_changed::<Board>)
                .in_set(CameraSystems::Fit),
        )
        .add_systems(
            Update,
            (toggle_top_down, follow_view_setting, place_camera)
                .chain()
                .in_set(CameraSystems::Place),
        )
        .add_plugins(crate::view::camera_turn::plugin);
}

fn apply_start_top_down(start: Res<StartTopDown>, mut settings: ResMut<Settings>) {
    if start.0 {
        settings.view = View::TopDown;
    }
}

fn spawn_camera(mut commands: Commands, settings: Res<Settings>) {
    commands.spawn((
        Camera3d::default(),
        // Full graphics; `view::graphics` turns it off for light graphics before the first frame.
        Msaa::Sample4,
        // A tonemapper computed in the shader: Bevy's default (TonyMcMapface) samples a
        // lookup table that would add 0.7 MB to the browser download.
        Tonemapping::SomewhatBoringDisplayTransform,
        OrbitCamera {
            top_down: settings.view == View::TopDown,
            ..default()
        },
        Projection::Perspective(PerspectiveProjection {
            fov: FRAC_PI_4 * 0.8,
            ..default()
        }),
        Transform::from_xyz(0.0, 12.0, 12.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

fn fit_to_board(board: Res<Board>, mut cameras: Query<&mut OrbitCamera>) {
    for mut cam in &mut cameras {
        cam.fit = board.layout.half_extent().max(Vec2::splat(2.0));
        cam.zoom = 1.0;
    }
}

fn toggle_top_down(mut requests: MessageReader<ToggleTopDown>, mut settings: ResMut<Settings>) {
    if requests.read().count() % 2 == 1 {
        settings.view = match settings.view {
            View::Perspective => View::TopDown,
            View::TopDown => View::Perspective,
        };
    }
}

fn follow_view_setting(settings: Res<Settings>, mut cameras: Query<&mut OrbitCamera>) {
    let top_down = settings.view == View::TopDown;
    for mut cam in &mut cameras {
        if cam.top_down != top_down {
            cam.top_down = top_down;
        }
    }
}

pub fn place_camera(
    board: Option<Res<Board>>,
    mut cameras: Query<(
        &OrbitCamera,
        Option<&CameraTurn>,
        &Camera,
        &mut Transform,
        &mut Projection,
    )>,
) {
    for (cam, turn, camera, mut transform, mut projection) in &mut cameras {
        // The turn towards the facing seat (0: seat 0 of a two-seat board at the bottom).
        let turned = turn.map_or(
            if cam.facing == Side::WHITE {
                0.0
            } else {
                std::f32::consts::PI
            },
            |t| t.angle,
        );
        // What must stay in view, measured across and along the turned board.
        let fit = board.as_ref().map_or(cam.fit, |b| {
            if turned == 0.0 {
                cam.fit
            } else {
                b.layout.half_extent_turned(-turned).max(Vec2::splat(2.0))
            }
        });
        let aspect = camera
            .logical_viewport_size()
            .map_or(1.6, |s| (s.x / s.y.max(1.0)).max(0.2));
        if cam.top_down {
            // Straight down, the facing side at the bottom of the screen (White's camp is
            // towards +z).
            let scaling_mode = ScalingMode::AutoMin {
                min_width: fit.x * 2.25 * cam.zoom,
                min_height: fit.y * 2.25 * cam.zoom,
            };
            match &mut *projection {
                Projection::Orthographic(ortho) => ortho.scaling_mode = scaling_mode,
                _ => {
                    *projection = Projection::Orthographic(OrthographicProjection {
                        scaling_mode,
                        ..OrthographicProjection::default_3d()
                    })
                }
            }
            // Screen-up points away from the facing seat's home.
            let up = Vec3::new(-turned.sin(), 0.0, -turned.cos());
            *transform = Transform::from_xyz(0.0, 40.0, 0.0).looking_at(Vec3::ZERO, up);
        } else {
            let fov = FRAC_PI_4 * 0.8;
            if !matches!(*projection, Projection::Perspective(_)) {
                *projection = Projection::Perspective(PerspectiveProjection { fov, ..default() });
            }
            let pitch = cam.pitch.clamp(0.1, FRAC_PI_2 - 0.01);
            let half_tan = (fov / 2.0).tan();
            // Far enough that the board's depth (foreshortened by the pitch, plus its height
            // towards the viewer) and its width both fit, whatever the yaw.
            let across = fit.x.max(fit.y);
            let yaw = turned + cam.yaw;
            let deep = fit.y.max(fit.x * cam.yaw.sin().abs());
            let for_depth = deep * (pitch.sin() + 0.35 * pitch.cos()) / half_tan;
            let for_width = across / (half_tan * aspect);
            let distance = for_depth.max(for_width) * 1.08 * cam.zoom;
            let offset = Vec3::new(
                distance * pitch.cos() * yaw.sin(),
                distance * pitch.sin(),
                distance * pitch.cos() * yaw.cos(),
            );
            let target = Vec3::ZERO;
            *transform = Transform::from_translation(target + offset).looking_at(target, Vec3::Y);
        }
    }
}
