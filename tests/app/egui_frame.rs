//! The egui layer of a frame is complete: its texture updates reach the GPU in the frame that
//! draws with them (a browser frame once came out without the UI, or with blank new glyphs), and
//! the fonts the game installs can draw every text of the UI.
use bevy::{
    asset::AssetEventSystems,
    ecs::schedule::{NodeId, SystemSet},
    prelude::*,
};
use bevy_egui::{EguiPostUpdateSet, egui};
use boardcraft::{
    settings::Language,
    ui::{
        fonts, frame_sync,
        i18n::{Key, tr, variant_text},
    },
};

#[test]
fn egui_textures_are_written_before_the_asset_events_that_upload_them() {
    let mut app = App::new();
    app.add_plugins(frame_sync::plugin);
    let schedule = app.get_schedule(PostUpdate).expect("PostUpdate exists");
    let graph = schedule.graph();
    let key = |set: bevy::ecs::intern::Interned<dyn SystemSet>| {
        graph
            .system_sets
            .get_key(set)
            .unwrap_or_else(|| panic!("{set:?} is not configured"))
    };
    let egui = NodeId::Set(key(EguiPostUpdateSet::PostProcessOutput.intern()));
    let assets = NodeId::Set(key(AssetEventSystems.intern()));
    assert!(
        graph.dependency().graph().contains_edge(egui, assets),
        "egui's texture updates must run before AssetEventSystems"
    );
}

#[test]
fn the_ui_fonts_have_every_glyph_the_ui_shows() {
    use skrifa::MetadataProvider as _;
    let definitions = fonts::definitions();
    let mut texts: Vec<String> = Vec::new();
    for language in Language::ALL {
        texts.extend(Key::ALL.iter().map(|key| tr(language, *key).to_owned()));
        for name in boardcraft_rules::shipped_variants() {
            if let Some(text) = variant_text(language, name) {
                texts.push(text.title.to_owned());
                texts.push(text.summary.to_owned());
            }
        }
    }
    // The move list's buttons and the panel's own symbols.
    texts.push("« ‹ › » · ← → × – — …".to_owned());
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        let faces: Vec<skrifa::FontRef> = definitions.families[&family]
            .iter()
            .map(|name| skrifa::FontRef::new(definitions.font_data[name].font.as_ref()).unwrap())
            .collect();
        let mut missing: Vec<char> = texts
            .iter()
            .flat_map(|t| t.chars())
            .filter(|c| !c.is_whitespace())
            .filter(|c| !faces.iter().any(|f| f.charmap().map(*c).is_some()))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        assert!(missing.is_empty(), "{family:?} cannot draw {missing:?}");
    }
    // And egui accepts the set (it panics on a family without fonts).
    let ctx = egui::Context::default();
    ctx.set_fonts(definitions);
    let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
        ui.label("Белые ходят · White to move → e6");
    });
    // (egui insists that texture updates are consumed.)
    output.textures_delta.clear();
}
