//! When the clicks name several moves (a GIPF removal choice, a GIPF-piece or a basic piece),
//! the player picks one here.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use boardcraft_rules::Position;

use crate::{
    game::match_state::{AppState, Match, MoveRequested},
    input::Selection,
    settings::Settings,
    ui::i18n::{Key, tr},
};

use super::UiSystems;

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        move_chooser
            .run_if(in_state(AppState::InGame))
            .in_set(UiSystems::Windows),
    );
}

fn move_chooser(
    mut contexts: EguiContexts,
    mut selection: ResMut<Selection>,
    game: Option<Res<Match>>,
    settings: Res<Settings>,
    mut requests: MessageWriter<MoveRequested>,
    regions: Res<super::layout::GameRegions>,
) -> Result {
    let Some(game) = game else {
        return Ok(());
    };
    if selection.choices.is_empty() {
        return Ok(());
    }
    let lang = settings.language;
    let ctx = contexts.ctx_mut()?;
    let mut chosen = None;
    let mut cancel = false;
    // At the top of the board, so the board stays in sight.
    let board = regions.board;
    super::layout::dialog(
        ctx,
        tr(lang, Key::ChooseMoveTitle),
        "move_chooser",
        320.0,
        None,
    )
    .pivot(egui::Align2::CENTER_TOP)
    .fixed_pos(egui::pos2(board.center().x, board.top() + 8.0))
    .show(ctx, |ui| {
        ui.label(tr(lang, Key::ChooseMoveHint));
        for (i, path) in selection.choices.iter().enumerate() {
            if ui
                .button(egui::RichText::new(&path.notation).monospace())
                .clicked()
            {
                chosen = Some(i);
            }
        }
        if ui.button(tr(lang, Key::Cancel)).clicked() {
            cancel = true;
        }
    });
    if let Some(i) = chosen {
        let mv = selection.choices[i].mv.clone();
        requests.write(MoveRequested {
            mv,
            game_id: game.game_id,
            ply: game.position.ply(),
        });
        selection.clear();
    } else if cancel {
        selection.clear();
    }
    Ok(())
}
