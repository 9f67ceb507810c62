//! What the UI drew in the last frame, for observers outside egui: the browser page publishes
//! it (`data-ui-rect`, `data-move-list`) and the browser test checks every screenshot against
//! it — the rectangle must show the panel, and the move list must be the game's moves in the
//! rules' notation.
use bevy::prelude::*;
use bevy_egui::{EguiPrimaryContextPass, egui};

use super::layout::UiSystems;

/// The UI of the last frame (changes only when it does).
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct UiShown {
    /// The main element drawn: the side panel during a game, the menu in the menu (logical
    /// pixels, from the window's top left).
    pub rect: Option<Rect>,
    /// The entries of the move list, in order, as the list drew them.
    pub moves: Vec<String>,
}

/// What the panels record while this frame's UI is being built; [`UiShown`] once it is done.
#[derive(Resource, Debug, Default)]
pub struct UiDrawing(pub UiShown);

impl UiDrawing {
    /// The main element's rectangle.
    pub fn main_rect(&mut self, rect: egui::Rect) {
        self.0.rect = Some(Rect::new(rect.min.x, rect.min.y, rect.max.x, rect.max.y));
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<UiShown>()
        .init_resource::<UiDrawing>()
        .add_systems(
            EguiPrimaryContextPass,
            (
                begin.before(UiSystems::Background),
                finish.after(UiSystems::Windows),
            ),
        );
}

fn begin(mut drawing: ResMut<UiDrawing>) {
    drawing.0 = UiShown::default();
}

fn finish(drawing: Res<UiDrawing>, mut shown: ResMut<UiShown>) {
    shown.set_if_neq(drawing.0.clone());
}
