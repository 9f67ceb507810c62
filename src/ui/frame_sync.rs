//! egui's texture changes reach the GPU in the frame that draws with them.
//!
//! bevy_egui writes egui's font-atlas changes into `Assets<Image>` in
//! [`EguiPostUpdateSet::PostProcessOutput`]: new glyphs as a change of the atlas image, a grown
//! atlas as a new image. The render world uploads an image only when it reads its
//! `AssetEvent`, and those events are written by [`AssetEventSystems`] — also in `PostUpdate`,
//! and not ordered against egui's set. When egui's set ran second, the frame's paint jobs
//! (extracted in the same frame) pointed at atlas texels that were not uploaded yet: new glyphs
//! were blank (the browser test once saw `c8:c :e6` for `c8:c6:e6`), and after the atlas grew
//! the new image had no GPU texture at all, so egui's pass skipped every mesh (all of them
//! sample the atlas) and the frame showed no UI. The next frame was right again. Bevy fixed
//! the same race for its own text (bevy PRs 17729 and 23190) by running text before
//! `AssetEventSystems`; this does the same for egui.
use bevy::{asset::AssetEventSystems, prelude::*};
use bevy_egui::EguiPostUpdateSet;

pub fn plugin(app: &mut App) {
    app.configure_sets(
        PostUpdate,
        EguiPostUpdateSet::PostProcessOutput.before(AssetEventSystems),
    );
}
