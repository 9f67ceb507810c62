//! The game-over dialog: who won and why, in the rules' own terms, with rematch, review and
//! new game.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use boardcraft_rules::{Position, Seat};

use crate::{
    game::config::Players,
    game::match_state::{AppState, Match, StartGame, TurnPhase},
    game::review::{Review, ReviewCommand},
    game::seat_names::{SeatNames, partnerships},
    settings::Settings,
    ui::i18n::{self, Key, tr},
};

use super::{
    UiColours, UiSystems,
    layout::{self, GameRegions},
    words,
};

/// The game-over dialog was closed for this game, history length and resignation (it shows
/// again when any of them changes: a move taken back and replayed, a new game).
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct GameOverClosed(pub Option<(u64, usize, bool)>);

pub fn plugin(app: &mut App) {
    app.init_resource::<GameOverClosed>().add_systems(
        EguiPrimaryContextPass,
        game_over_dialog
            .run_if(in_state(TurnPhase::GameOver))
            // An exercise tells its own end (`ui::learn`).
            .run_if(not(crate::learn::session::in_exercise))
            .in_set(UiSystems::Windows),
    );
}

fn game_over_dialog(
    colours: Res<UiColours>,
    mut contexts: EguiContexts,
    game: Option<Res<Match>>,
    review: Res<Review>,
    settings: Res<Settings>,
    mut closed: ResMut<GameOverClosed>,
    mut start: MessageWriter<StartGame>,
    mut review_commands: MessageWriter<ReviewCommand>,
    mut next_state: ResMut<NextState<AppState>>,
    online: Option<Res<crate::online::Online>>,
    regions: Res<GameRegions>,
    players: Res<Players>,
) -> Result {
    let Some(game) = game else {
        return Ok(());
    };
    let Some(end) = game.end() else {
        return Ok(());
    };
    let key = (game.game_id, game.history.len(), game.resigned.is_some());
    if !review.is_live() || closed.0 == Some(key) {
        return Ok(());
    }
    let lang = settings.language;
    let text = words::end_text(lang, end, &game.variant, game.position.side_to_move());
    let ctx = contexts.ctx_mut()?;
    layout::dialog(
        ctx,
        tr(lang, Key::GameOverTitle),
        "game_over",
        440.0,
        Some(regions.board),
    )
    .show(ctx, |ui| {
        ui.style_mut().visuals.override_text_color = Some(colours.text);
        ui.label(
            egui::RichText::new(&text.headline)
                .size(24.0)
                .strong()
                .color(colours.accent()),
        );
        ui.label(egui::RichText::new(&text.reason).size(16.0));
        let shown_online = online
            .as_ref()
            .filter(|o| o.shows(&game) && o.result.is_some());
        if let Some(online) = shown_online {
            // Online, of any seat count: the server's places, each seat's player and rating
            // change.
            online_places(ui, &colours, lang, online, &SeatNames::of(&game.position));
        } else if end.places.seats() > 2 {
            // More than two seats: every seat's place, best first, with its chip.
            let seats = SeatNames::of(&game.position);
            ui.add_space(4.0);
            ui.label(egui::RichText::new(tr(lang, Key::PlacesTitle)).strong());
            for (seat, line) in words::places_text(lang, &end, &seats) {
                ui.horizontal(|ui| {
                    super::seat_chip::chip(ui, super::seat_chip::look(&seats, seat), 18.0);
                    let who = i18n::player(lang, players.of(seat));
                    ui.label(egui::RichText::new(line).size(16.0));
                    ui.label(egui::RichText::new(who).small().weak());
                });
            }
            // Partnerships share their places: say who played with whom.
            if let Some(teams) = partnerships(&game.variant) {
                let teams: Vec<String> = teams
                    .iter()
                    .map(|t| {
                        t.iter()
                            .map(|s| i18n::side(lang, &seats, *s))
                            .collect::<Vec<_>>()
                            .join(" + ")
                    })
                    .collect();
                ui.label(format!(
                    "{}: {}",
                    tr(lang, Key::Partners),
                    teams.join(" · ")
                ));
            }
        }
        // A lobby game: the player's own rating change (or why there is none).
        if let Some((note, tone)) =
            shown_online.and_then(|o| super::online::lobby::result_note(lang, o))
        {
            let colour = colours.tone(tone);
            ui.label(egui::RichText::new(note).size(18.0).strong().color(colour));
        }
        ui.add_space(8.0);
        ui.horizontal_wrapped(|ui| {
            // Online, the rematch is the server's (colours swapped, both accept): the
            // online panel offers it.
            let online_game = online.as_ref().is_some_and(|o| o.shows(&game));
            if !online_game && ui.button(tr(lang, Key::Rematch)).clicked() {
                start.write(StartGame::new(game.variant.clone(), String::new()));
            }
            if ui.button(tr(lang, Key::ReviewGame)).clicked() {
                review_commands.write(ReviewCommand::First);
                closed.0 = Some(key);
            }
            if ui.button(tr(lang, Key::NewGame)).clicked() {
                next_state.set(AppState::Menu);
            }
            if ui.button(tr(lang, Key::Close)).clicked() {
                closed.0 = Some(key);
            }
        });
    });
    Ok(())
}

/// The places of a finished online game, best first: each seat's chip, place (shared places and
/// partnerships said), player and rating change.
fn online_places(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: crate::settings::Language,
    online: &crate::online::Online,
    seats: &SeatNames,
) {
    use super::online::{lobby::standings, text};
    let rows = standings(lang, online, |seat| {
        i18n::side(lang, seats, Seat::at(seat as usize))
    });
    if rows.is_empty() {
        return;
    }
    ui.add_space(4.0);
    ui.label(egui::RichText::new(text::say(lang, text::Say::PlacesOnline)).strong());
    // One wrapped line per seat, the place and the rating change first: a long name goes on
    // under them rather than widening the window past a phone's screen.
    for row in rows {
        ui.horizontal_wrapped(|ui| {
            let seat = Seat::at(row.seat as usize);
            super::seat_chip::chip(ui, super::seat_chip::look(seats, seat), 18.0)
                .on_hover_text(i18n::side(lang, seats, seat));
            let place = egui::RichText::new(&row.place).size(16.0);
            ui.label(if row.rank == 1 { place.strong() } else { place });
            if let Some(delta) = &row.delta {
                let tone = if delta.starts_with('+') {
                    colours.good()
                } else if delta.starts_with('−') {
                    colours.bad()
                } else {
                    colours.text
                };
                ui.colored_label(tone, egui::RichText::new(delta).size(16.0).strong());
            }
            let mut player = egui::RichText::new(&row.player).size(16.0);
            if online.seat == Some(row.seat) {
                player = player.strong();
            }
            ui.label(player);
        });
    }
}
