//! "Copy position": the game's position as text (the rules' format, what `--position`, the page
//! URL's `position=` and puzzle files read) put on the clipboard — the OS clipboard natively,
//! the page's in the browser. What happened is kept in [`CopiedPosition`] for the panels to
//! show (`crate::ui::copy_position`): the text itself either way, so a player without a
//! clipboard can still read it off.
use bevy::{clipboard::Clipboard, prelude::*};

use crate::{GameSystems, game::match_state::Match};

/// Copy the current game's position.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct CopyPositionRequested;

/// The last copy: the text and whether it reached the clipboard (and why not).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct CopiedPosition {
    /// The game and ply it was copied at (the notice shows until the position changes).
    pub at: Option<(u64, usize)>,
    pub text: String,
    pub error: Option<String>,
}

pub fn plugin(app: &mut App) {
    app.add_message::<CopyPositionRequested>()
        .init_resource::<CopiedPosition>()
        .add_systems(Update, copy_position.in_set(GameSystems::Input));
}

fn copy_position(
    mut requests: MessageReader<CopyPositionRequested>,
    game: Option<Res<Match>>,
    clipboard: Option<ResMut<Clipboard>>,
    mut copied: ResMut<CopiedPosition>,
) {
    if requests.read().count() == 0 {
        return;
    }
    let Some(game) = game else {
        return;
    };
    let text = game.position.to_text();
    let error = match clipboard {
        Some(mut clipboard) => clipboard
            .set_text(text.clone())
            .err()
            .map(|e| e.to_string()),
        None => Some("no clipboard".to_owned()),
    };
    if let Some(why) = &error {
        warn!("cannot copy the position ({why}): {text}");
    } else {
        info!("position copied: {text}");
    }
    *copied = CopiedPosition {
        at: Some((game.game_id, game.history.len())),
        text,
        error,
    };
}
