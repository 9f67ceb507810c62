//! How much the 3D view draws ([`Settings::graphics`]): full graphics multisample the board's
//! camera and let the key light cast shadows; light graphics do neither. `Auto` is light where
//! the renderer runs on the processor (SwiftShader in a browser without a usable GPU, llvmpipe
//! or lavapipe on a desktop): there a frame of a 3D board at a phone's size took seconds with
//! both, and a game that answers a tap seconds later is not playable.
//!
//! In the browser light graphics also draw one canvas pixel per CSS pixel, which the page
//! decides before the game starts (`drawsCssPixels` in web/index.html: winit reads the pixel
//! ratio when it makes the window), from the same setting and the same renderer strings.
//!
//! The camera and the light are spawned full at Startup and set here in the first update,
//! before anything is drawn (so no shader is compiled for a look never shown), and again
//! whenever the setting changes.
use bevy::{prelude::*, render::renderer::RenderAdapterInfo};

use crate::{GameSystems, settings::Settings};

/// Whether the renderer runs on the processor, read once from the adapter the renderer chose
/// (`false` without a renderer, as in headless tests).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SoftwareRenderer(pub bool);

/// What the view draws now (`true`: light graphics); the page publishes it (`data-graphics`).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LightGraphics(pub bool);

/// A light that casts shadows in full graphics.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct CastsShadows;

pub fn plugin(app: &mut App) {
    app.init_resource::<LightGraphics>()
        .init_resource::<SoftwareRenderer>()
        .add_systems(Startup, detect_software_renderer)
        .add_systems(Update, apply_graphics.in_set(GameSystems::Sync));
}

fn detect_software_renderer(
    adapter: Option<Res<RenderAdapterInfo>>,
    mut software: ResMut<SoftwareRenderer>,
) {
    if let Some(info) = adapter {
        software.0 = info.device_type == wgpu_types::DeviceType::Cpu;
        info!(
            "renderer: {} ({:?}, {:?}){}",
            info.name,
            info.device_type,
            info.backend,
            if software.0 {
                ": runs on the processor"
            } else {
                ""
            }
        );
    }
}

/// Sets the board camera's multisampling and the shadows of the lights that cast them from the
/// setting; writes only what differs, so a frame where nothing changed touches nothing.
fn apply_graphics(
    settings: Res<Settings>,
    software: Res<SoftwareRenderer>,
    mut light: ResMut<LightGraphics>,
    mut cameras: Query<&mut Msaa, With<Camera3d>>,
    mut lights: Query<&mut DirectionalLight, With<CastsShadows>>,
) {
    let want = settings.graphics.light(software.0);
    let msaa = if want { Msaa::Off } else { Msaa::Sample4 };
    for mut current in &mut cameras {
        if *current != msaa {
            *current = msaa;
        }
    }
    for mut key in &mut lights {
        if key.shadow_maps_enabled == want {
            key.shadow_maps_enabled = !want;
        }
    }
    if light.0 != want {
        light.0 = want;
    }
}
