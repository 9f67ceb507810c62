//! Render work Bevy prepares that this game never uses, taken out so that its shaders are not
//! compiled while the page loads.
//!
//! Every shader program compiled before the first frame costs a compile and, under WebGL, a
//! wait for the GPU process (the browser test's load measurement, `docs/development.md`: the
//! frames before the first one are mostly such waits). Bevy 0.19 compiles two programs the
//! game's cameras never run:
//! - a tonemapping pass for every camera, though the pass runs for HDR cameras only: the
//!   board's camera is not HDR, so its shader tonemaps in place (`TONEMAP_IN_SHADER`), and the
//!   UI's camera has no tonemapping at all;
//! - the copy of the deferred renderer's lighting ids, though the game renders forward (no
//!   camera has a `DeferredPrepass`).
//!
//! Both passes find nothing to do without what these systems make (their views do not match),
//! so they are skipped. A camera made HDR, or deferred, would need them back.
use bevy::{
    core_pipeline::{
        deferred::copy_lighting_id::init_copy_deferred_lighting_id_pipeline,
        tonemapping::prepare_view_tonemapping_pipelines,
    },
    ecs::schedule::ScheduleCleanupPolicy,
    prelude::*,
    render::{Render, RenderApp, RenderStartup},
};

pub struct RenderTrimPlugin;

impl Plugin for RenderTrimPlugin {
    fn build(&self, _app: &mut App) {}

    // After every plugin is built, so that the systems are there to remove.
    fn finish(&self, app: &mut App) {
        let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
            return;
        };
        let policy = ScheduleCleanupPolicy::RemoveSystemsOnly;
        for removed in [
            render_app.remove_systems_in_set(Render, prepare_view_tonemapping_pipelines, policy),
            render_app.remove_systems_in_set(
                RenderStartup,
                init_copy_deferred_lighting_id_pipeline,
                policy,
            ),
        ] {
            match removed {
                Ok(n) if n > 0 => {}
                // Bevy moved or renamed them: nothing breaks, the page only loads slower. An
                // error, so that the browser test (which fails on one) says so.
                other => error!("render trim: a system to remove was not found ({other:?})"),
            }
        }
    }
}
