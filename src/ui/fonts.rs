//! The UI's fonts: egui's Ubuntu Light (Latin, Cyrillic) with Hack as the monospace font and
//! as the fallback for the arrows Ubuntu Light lacks (`←`, `→`). egui's default set adds two
//! emoji fonts (740 kB, a tenth of the browser download) that no text of the game uses, so the
//! game installs its own set instead of bevy_egui's `default_fonts`.
use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::{
    EguiContext, EguiPreUpdateSet,
    egui::{FontData, FontDefinitions, FontFamily},
};

pub fn plugin(app: &mut App) {
    // Before the context's first pass begins, so no frame is laid out without fonts.
    app.add_systems(
        PreUpdate,
        install_fonts
            .after(EguiPreUpdateSet::InitContexts)
            .before(EguiPreUpdateSet::BeginPass),
    );
}

/// The game's font definitions.
pub fn definitions() -> FontDefinitions {
    let mut fonts = FontDefinitions::empty();
    for (name, data) in [
        ("Ubuntu-Light", epaint_default_fonts::UBUNTU_LIGHT),
        ("Hack", epaint_default_fonts::HACK_REGULAR),
    ] {
        fonts
            .font_data
            .insert(name.to_owned(), Arc::new(FontData::from_static(data)));
    }
    fonts.families.insert(
        FontFamily::Proportional,
        vec!["Ubuntu-Light".to_owned(), "Hack".to_owned()],
    );
    fonts.families.insert(
        FontFamily::Monospace,
        vec!["Hack".to_owned(), "Ubuntu-Light".to_owned()],
    );
    fonts
}

fn install_fonts(mut contexts: Query<&mut EguiContext, Added<EguiContext>>) {
    for mut context in &mut contexts {
        context.get_mut().set_fonts(definitions());
    }
}
