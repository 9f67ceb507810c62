//! The online screens (egui): the "Play online" window of the main menu (create a game with
//! variant, side and clock, or join by code or link; the waiting screen with the invite), and
//! the online panel beside the board during the game (connection; every seat with its chip,
//! player, clock, presence and turn; pending move, offers, claim, rematch, spectators). They
//! read [`Online`] and write [`OnlineCommand`]s only.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use boardcraft_protocol::{
    ColorChoice, GameStatus as ServerStatus, OfferKind, Presence, SeatIndex, TimeControl,
};
use boardcraft_rules::{Position, Seat};

use super::text::{Say, clock_text, say, sayf};
use crate::{
    game::{
        match_state::{AppState, Match},
        seat_names::SeatNames,
        variants::VariantLibrary,
    },
    online::{Online, OnlineCommand, Stage, link::LinkState, session::NoticeKind, wall_now},
    settings::{Language, Settings},
    ui::{
        UiColours, UiSystems,
        colours::Tone,
        hud::variant_title,
        i18n::{Key, side, tr},
        layout::{self, GameRegions, OnlineExtent, Shape, game_regions},
        screens::{MenuPage, OnlineWindow},
    },
};

/// The clocks the create form offers (minutes, increment seconds); `None` is untimed.
pub const CLOCKS: [Option<(u64, u64)>; 5] = [
    None,
    Some((3, 2)),
    Some((5, 3)),
    Some((10, 5)),
    Some((30, 20)),
];

/// The "Play online" window's form (whether the window is open is the
/// [`OnlineWindow`] state).
#[derive(Resource, Debug, Default)]
pub struct OnlineForm {
    server: String,
    variant: Option<String>,
    side: Option<ColorChoice>,
    clock: usize,
    invite: String,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<OnlineForm>().add_systems(
        EguiPrimaryContextPass,
        (
            online_window.run_if(in_state(AppState::Menu)),
            online_panel.run_if(in_state(AppState::InGame)),
        )
            .in_set(UiSystems::Windows),
    );
}

fn side_choice(lang: Language, choice: ColorChoice) -> &'static str {
    match choice {
        ColorChoice::White => crate::ui::i18n::tr(lang, crate::ui::i18n::Key::White),
        ColorChoice::Black => crate::ui::i18n::tr(lang, crate::ui::i18n::Key::Black),
        ColorChoice::Random => say(lang, Say::RandomSide),
    }
}

fn clock_choice(lang: Language, clock: Option<(u64, u64)>) -> String {
    match clock {
        None => say(lang, Say::Untimed).to_owned(),
        Some((m, s)) => format!("{m} + {s}"),
    }
}

/// A notice in the player's words.
fn notice_text(lang: Language, kind: NoticeKind, detail: &str) -> String {
    let reason = [("reason", &detail as &dyn std::fmt::Display)];
    match kind {
        NoticeKind::MoveRefused => sayf(lang, Say::MoveRefused, &reason),
        NoticeKind::Refused => sayf(lang, Say::Refused, &reason),
        NoticeKind::CannotStart => sayf(lang, Say::CannotStart, &reason),
        NoticeKind::SeatTaken => sayf(lang, Say::SeatTaken, &reason),
        NoticeKind::Declined(_) => say(lang, Say::Declined).to_owned(),
        NoticeKind::Resynced => say(lang, Say::Resynced).to_owned(),
        NoticeKind::Fatal => sayf(lang, Say::Fatal, &reason),
    }
}

fn link_text(lang: Language, state: Option<LinkState>) -> (String, Tone) {
    match state {
        None | Some(LinkState::Connecting) => (say(lang, Say::Connecting).into(), Tone::Warn),
        Some(LinkState::Online) => (say(lang, Say::Online).into(), Tone::Good),
        Some(LinkState::Reconnecting { attempt }) => (
            sayf(lang, Say::Reconnecting, &[("n", &attempt)]),
            Tone::Warn,
        ),
        Some(LinkState::Gone) => (say(lang, Say::Gone).into(), Tone::Bad),
    }
}

/// The invite with copy buttons (the waiting screen, and the panel while the seat is open).
fn invite_block(ui: &mut egui::Ui, colours: &UiColours, lang: Language, online: &Online) {
    ui.label(
        egui::RichText::new(say(lang, Say::WaitingTitle))
            .strong()
            .size(17.0),
    );
    ui.label(say(lang, Say::WaitingText));
    if let Some(code) = &online.invite {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                egui::RichText::new(sayf(lang, Say::Code, &[("code", code)]))
                    .monospace()
                    .size(18.0)
                    .color(colours.accent()),
            );
            if ui.button(say(lang, Say::CopyCode)).clicked() {
                ui.ctx().copy_text(code.clone());
            }
        });
    }
    if let Some(link) = online.invite_url.as_ref().filter(|l| !l.is_empty()) {
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(link).monospace().small());
            if ui.button(say(lang, Say::CopyLink)).clicked() {
                ui.ctx().copy_text(link.clone());
            }
        });
    }
}

fn online_window(
    colours: Res<UiColours>,
    mut contexts: EguiContexts,
    mut window: ResMut<OnlineForm>,
    shown: Res<State<OnlineWindow>>,
    mut show: ResMut<NextState<OnlineWindow>>,
    online: Res<Online>,
    library: Res<VariantLibrary>,
    settings: Res<Settings>,
    mut commands: MessageWriter<OnlineCommand>,
    mut offered: Local<Option<String>>,
) -> Result {
    let busy = matches!(online.stage, Stage::Creating | Stage::Joining);
    // An invite whose seat was taken (a link opened too late, or by a third friend): the game
    // can still be watched, so the window opens once to offer it, even for a join that came
    // from a link or the command line.
    let watchable = online
        .watchable
        .clone()
        .filter(|_| online.stage == Stage::Off)
        .filter(|_| online.notice.as_ref().map(|n| n.kind) == Some(NoticeKind::SeatTaken));
    let mut shown = *shown.get() == OnlineWindow::Open;
    if watchable.is_some() && *offered != watchable {
        shown = true;
        show.set(OnlineWindow::Open);
        *offered = watchable.clone();
    }
    if !shown && !busy {
        return Ok(());
    }
    let lang = settings.language;
    let ctx = contexts.ctx_mut()?;
    if window.server.is_empty() {
        window.server = online.server.clone();
    }
    let mut open = true;
    layout::dialog(ctx, say(lang, Say::Title), "online_window", 460.0, None).show(ctx, |ui| {
        ui.style_mut().visuals.override_text_color = Some(colours.text);
        // A field's width: as asked, or what is left of the line.
        let field = |ui: &egui::Ui, wanted: f32| wanted.min(ui.available_width() - 8.0).max(80.0);
        ui.horizontal_wrapped(|ui| {
            ui.label(say(lang, Say::Server));
            let width = field(ui, 300.0);
            ui.add(egui::TextEdit::singleline(&mut window.server).desired_width(width));
        });
        ui.separator();
        match online.stage {
            Stage::Creating => {
                ui.spinner();
                ui.label(say(lang, Say::Creating));
                return;
            }
            Stage::Joining => {
                ui.spinner();
                ui.label(say(lang, Say::Joining));
                return;
            }
            _ => {}
        }
        ui.label(egui::RichText::new(say(lang, Say::CreateHeading)).strong());
        let mut seen = std::collections::HashSet::new();
        let variants: Vec<(String, String)> = library
            .ready()
            .filter(|(_, v)| seen.insert(v.name.clone()))
            .map(|(_, v)| (v.name.clone(), variant_title(lang, v)))
            .collect();
        if window.variant.is_none() {
            window.variant = library
                .playing
                .as_ref()
                .and_then(|p| library.entries.iter().find(|e| &e.path == p))
                .and_then(|e| e.variant())
                .map(|v| v.name.clone())
                .or_else(|| variants.first().map(|(n, _)| n.clone()));
        }
        egui::Grid::new("online_create")
            .num_columns(2)
            .spacing(egui::vec2(12.0, 6.0))
            .show(ui, |ui| {
                ui.label(say(lang, Say::Game));
                let shown = window
                    .variant
                    .as_ref()
                    .and_then(|n| variants.iter().find(|(v, _)| v == n))
                    .map(|(_, t)| t.clone())
                    .unwrap_or_default();
                egui::ComboBox::from_id_salt("online_variant")
                    .selected_text(shown)
                    .width(260.0_f32.min(ui.available_width() - 8.0))
                    .show_ui(ui, |ui| {
                        for (name, title) in &variants {
                            ui.selectable_value(&mut window.variant, Some(name.clone()), title);
                        }
                    });
                ui.end_row();
                ui.label(say(lang, Say::YourSide));
                let current = window.side.unwrap_or(ColorChoice::Random);
                egui::ComboBox::from_id_salt("online_side")
                    .selected_text(side_choice(lang, current))
                    .width(260.0_f32.min(ui.available_width() - 8.0))
                    .show_ui(ui, |ui| {
                        for choice in [ColorChoice::White, ColorChoice::Black, ColorChoice::Random]
                        {
                            ui.selectable_value(
                                &mut window.side,
                                Some(choice),
                                side_choice(lang, choice),
                            );
                        }
                    });
                ui.end_row();
                ui.label(say(lang, Say::Clock));
                let clock = window.clock.min(CLOCKS.len() - 1);
                egui::ComboBox::from_id_salt("online_clock")
                    .selected_text(clock_choice(lang, CLOCKS[clock]))
                    .width(260.0_f32.min(ui.available_width() - 8.0))
                    .show_ui(ui, |ui| {
                        for (i, c) in CLOCKS.iter().enumerate() {
                            ui.selectable_value(&mut window.clock, i, clock_choice(lang, *c));
                        }
                    });
                ui.end_row();
            });
        if ui
            .add_enabled(
                window.variant.is_some(),
                egui::Button::new(say(lang, Say::Create)),
            )
            .clicked()
            && let Some(variant) = window.variant.clone()
        {
            commands.write(OnlineCommand::SetServer(window.server.clone()));
            commands.write(OnlineCommand::Create {
                variant,
                color: window.side.unwrap_or(ColorChoice::Random),
                time_control: CLOCKS[window.clock.min(CLOCKS.len() - 1)]
                    .map(|(m, s)| TimeControl::minutes(m, s)),
            });
        }
        ui.separator();
        ui.label(egui::RichText::new(say(lang, Say::JoinHeading)).strong());
        ui.horizontal_wrapped(|ui| {
            ui.label(say(lang, Say::InviteField));
            let width = field(ui, 200.0);
            ui.add(egui::TextEdit::singleline(&mut window.invite).desired_width(width));
            if ui
                .add_enabled(
                    !window.invite.trim().is_empty(),
                    egui::Button::new(say(lang, Say::Join)),
                )
                .clicked()
            {
                commands.write(OnlineCommand::SetServer(window.server.clone()));
                commands.write(OnlineCommand::Join {
                    invite: window.invite.clone(),
                });
            }
        });
        if let Some(notice) = &online.notice
            && wall_now() - notice.at < 30.0
        {
            ui.colored_label(
                colours.bad(),
                notice_text(lang, notice.kind, &notice.detail),
            );
        }
        if let Some(game) = &watchable
            && ui.button(say(lang, Say::WatchInstead)).clicked()
        {
            commands.write(OnlineCommand::SetServer(window.server.clone()));
            commands.write(OnlineCommand::Watch { game: game.clone() });
            show.set(OnlineWindow::Closed);
        }
        ui.separator();
        let tap = layout::button_height(ui, 0.0);
        if ui
            .add(egui::Button::new(tr(lang, Key::Close)).min_size(egui::vec2(tap, tap)))
            .clicked()
        {
            open = false;
        }
    });
    if !open {
        show.set(OnlineWindow::Closed);
    }
    Ok(())
}

fn online_panel(
    colours: Res<UiColours>,
    mut contexts: EguiContexts,
    online: Res<Online>,
    game: Option<Res<Match>>,
    settings: Res<Settings>,
    mut commands: MessageWriter<OnlineCommand>,
    mut next_state: ResMut<NextState<AppState>>,
    mut menu_page: ResMut<NextState<MenuPage>>,
    regions: Res<GameRegions>,
    mut extent: ResMut<OnlineExtent>,
) -> Result {
    let Some(game) = game.filter(|g| online.stage == Stage::InGame && online.shows(g)) else {
        extent.set_if_neq(OnlineExtent(0.0));
        return Ok(());
    };
    let table = Table {
        names: SeatNames::of(&game.position),
        to_move: (game.end().is_none()).then(|| game.position.side_to_move()),
    };
    let lang = settings.language;
    let now = wall_now();
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    // On a wide window a column of its own at the left, like the game's panel at the right;
    // otherwise a strip above the game's panel (under the board in portrait, beside it in short
    // landscape). The layout plans the board's region around it (`ui::layout`), so no square is
    // ever under it; its size this frame is the plan of the next.
    let wide = regions.shape == Shape::Wide;
    let (at, width) = match regions.online {
        Some(r) => (r.min, r.width()),
        None if wide => (screen.left_top(), ONLINE_PANEL_WIDTH),
        None => (regions.panel.min, regions.panel.width()),
    };
    // Under or beside the board the strip may be as tall as the layout lets it and no taller
    // (anything beyond scrolls): past it lies the game's panel, which it must never cover.
    let cap = game_regions(regions.shape, screen, f32::INFINITY)
        .online
        .map_or(f32::INFINITY, |r| r.height());
    let panel = egui::Area::new(egui::Id::new("online_panel"))
        .order(egui::Order::Background)
        .fixed_pos(at)
        .show(ctx, |ui| {
            colours.panel_frame().corner_radius(0.0).show(ui, |ui| {
                ui.set_width(if wide { ONLINE_PANEL_WIDTH } else { width } - 24.0);
                if wide {
                    ui.set_min_height(screen.height() - 20.0);
                }
                ui.style_mut().visuals.override_text_color = Some(colours.text);
                let mut body = |ui: &mut egui::Ui| {
                    if let Some(exit) = panel_body(
                        ui,
                        &colours,
                        lang,
                        &online,
                        &table,
                        now,
                        !wide,
                        &mut commands,
                    ) {
                        commands.write(OnlineCommand::Leave);
                        if exit == Exit::Lobby {
                            menu_page.set(MenuPage::Lobby);
                        }
                        next_state.set(AppState::Menu);
                    }
                };
                if wide {
                    body(ui);
                } else {
                    // The frame's margins (10 above and below) are part of the strip. An
                    // area's room is its size last frame, so without the minimum the strip
                    // could never grow past its first frame's (one line while connecting).
                    let room = (cap - 20.0).max(44.0);
                    egui::ScrollArea::vertical()
                        .max_height(room)
                        .min_scrolled_height(room)
                        .auto_shrink([false, true])
                        .show(ui, body);
                }
            });
        });
    let size = panel.response.rect.size();
    extent.set_if_neq(OnlineExtent(if wide { size.x } else { size.y }));
    Ok(())
}

/// The online panel's width in logical pixels (narrower than the game's: short lines only).
const ONLINE_PANEL_WIDTH: f32 = 250.0;

/// Where the player goes on leaving an online game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Exit {
    Menu,
    Lobby,
}

/// What the panel needs of the board: the seats' names (for their chips and colours) and whose
/// turn it is (none once the game is over).
struct Table {
    names: SeatNames,
    to_move: Option<Seat>,
}

/// What the online panel shows, top to bottom. `compact` is the strip under or beside the
/// board on a phone: no game id, and the actions in one row of short buttons.
#[allow(clippy::too_many_arguments)]
fn panel_body(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    online: &Online,
    table: &Table,
    now: f64,
    compact: bool,
    commands: &mut MessageWriter<OnlineCommand>,
) -> Option<Exit> {
    if compact {
        // A phone's strip has room for little: lines close together, and the link's line only
        // when it says something (not while all is well with the player seated, whose row
        // says "you").
        ui.spacing_mut().item_spacing.y = 4.0;
    } else {
        let id = online.game.as_deref().unwrap_or("");
        ui.label(egui::RichText::new(sayf(lang, Say::GameId, &[("game", &id)])).small());
    }
    let quiet = compact
        && online.link == Some(LinkState::Online)
        && online.seat.is_some()
        && online.spectators == 0;
    if !quiet {
        // The link, the player's seat and the audience: one line.
        ui.horizontal_wrapped(|ui| {
            let (text, tone) = link_text(lang, online.link);
            ui.colored_label(colours.tone(tone), text);
            ui.label("·");
            match online.seat {
                Some(me) => ui.label(sayf(
                    lang,
                    Say::YourSideIs,
                    &[("Side", &side(lang, &table.names, Seat::at(me as usize)))],
                )),
                None => ui.label(say(lang, Say::Watching)),
            };
            if online.spectators > 0 {
                ui.label("·");
                ui.label(sayf(lang, Say::Spectators, &[("n", &online.spectators)]));
            }
        });
    }
    for seat in online.seat_indices() {
        seat_row(ui, colours, lang, online, table, seat, now, compact);
    }
    if online.status == Some(ServerStatus::Waiting) {
        ui.separator();
        invite_block(ui, colours, lang, online);
    }
    if let Some(pending) = &online.pending {
        ui.label(sayf(lang, Say::Pending, &[("move", &pending.notation)]));
    }
    if let Some(notice) = &online.notice
        && now - notice.at < 12.0
    {
        ui.colored_label(
            colours.warn(),
            notice_text(lang, notice.kind, &notice.detail),
        );
    }
    offers(ui, colours, lang, online, table, now, commands);
    // How the game ended is the game's panel's to say, in the player's language; the server's
    // own (English) words only where the board has not ended the game the server ended (the
    // positions differ: a desync).
    if let Some(result) = &online.result
        && table.to_move.is_some()
    {
        ui.label(
            egui::RichText::new(sayf(lang, Say::ServerResult, &[("text", &result.text)])).small(),
        );
    }
    if let Some((note, tone)) = super::lobby::result_note(lang, online) {
        ui.colored_label(colours.tone(tone), note);
    }
    actions(ui, lang, online, compact, commands)
}

/// Who plays `seat`: the lobby game's player ("Anna (1512)"), else the seat's colour.
fn who(lang: Language, online: &Online, table: &Table, seat: SeatIndex) -> String {
    match online
        .players
        .as_ref()
        .and_then(|p| p.seats.get(seat as usize))
    {
        Some(player) => super::lobby::player_text(lang, player),
        None => side(lang, &table.names, Seat::at(seat as usize)),
    }
}

/// One seat: its chip, who plays it, its clock (the running one bright), whose turn it is,
/// and whether its player is here, gone (with the claim's countdown) or has left the table.
#[allow(clippy::too_many_arguments)]
fn seat_row(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    online: &Online,
    table: &Table,
    seat: SeatIndex,
    now: f64,
    compact: bool,
) {
    let rules_seat = Seat::at(seat as usize);
    let name = side(lang, &table.names, rules_seat);
    // The server's computer players have no connection: they are always at the table.
    let computer = online
        .players
        .as_ref()
        .and_then(|p| p.seats.get(seat as usize))
        .is_some_and(|p| p.bot);
    let (state, colour) = if online.left(seat).is_some() {
        (
            sayf(lang, Say::LeftComputer, &[("Side", &name)]),
            colours.warn(),
        )
    } else {
        match online.presence(seat) {
            Some(Presence::Present) => {
                (sayf(lang, Say::Present, &[("Side", &name)]), colours.good())
            }
            Some(Presence::Gone { .. }) => match online.claim_at(seat) {
                Some(at) if at > now => (
                    sayf(
                        lang,
                        Say::GoneClaimIn,
                        &[("Side", &name), ("seconds", &((at - now).ceil() as u64))],
                    ),
                    colours.bad(),
                ),
                _ => (sayf(lang, Say::Left, &[("Side", &name)]), colours.bad()),
            },
            _ => (sayf(lang, Say::Absent, &[("Side", &name)]), colours.warn()),
        }
    };
    let here = online.left(seat).is_none()
        && (computer || online.presence(seat) == Some(Presence::Present));
    let mine = online.seat == Some(seat);
    let size = if compact { 16.0 } else { 18.0 };
    let chip = |ui: &mut egui::Ui| {
        crate::ui::seat_chip::chip(
            ui,
            crate::ui::seat_chip::look(&table.names, rules_seat),
            size,
        )
        .on_hover_text(&name);
    };
    let mut player = egui::RichText::new(who(lang, online, table, seat)).color(colours.accent());
    if mine {
        player = player.strong();
    }
    // After the player, in reading order: the clock (the running one bright), the short marks
    // (each kept whole on one line) and, when it is news, the seat's state.
    let mut after: Vec<egui::Label> = Vec::new();
    if let Some(ms) = online.remaining_ms(seat, now) {
        let mut text = egui::RichText::new(clock_text(ms)).monospace().size(17.0);
        if online.running() == Some(seat) {
            text = text.strong().color(colours.accent());
        }
        after.push(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend));
    }
    if mine {
        after.push(
            egui::Label::new(egui::RichText::new(say(lang, Say::You)))
                .wrap_mode(egui::TextWrapMode::Extend),
        );
    }
    if table.to_move == Some(rules_seat) && online.result.is_none() {
        after.push(
            egui::Label::new(egui::RichText::new(say(lang, Say::ToMove)).strong())
                .wrap_mode(egui::TextWrapMode::Extend),
        );
    }
    // The players' presence is news only when they are away (an invite game without names
    // says it always: it is who the seat is).
    let state_shown = !here || online.players.is_none();
    let state_label = || egui::Label::new(egui::RichText::new(&state).color(colour));
    if compact {
        // A phone's strip: a row per seat, as wide as the screen. The clock and the marks keep
        // their places at the right of the row's first line and the name takes the room left,
        // wrapping under itself when it is long (a guest's name and rating), so that none of
        // them is pushed onto a line of its own and nothing is cut short. A seat's presence
        // stays in its row; its absence, news that may run long, gets a line of its own.
        ui.horizontal_top(|ui| {
            chip(ui);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
                if state_shown && here {
                    ui.add(state_label().wrap_mode(egui::TextWrapMode::Extend));
                }
                for label in after.into_iter().rev() {
                    ui.add(label);
                }
                // The room left of the marks, filled from the chip's side.
                ui.with_layout(egui::Layout::left_to_right(egui::Align::Min), |ui| {
                    ui.add(egui::Label::new(player).wrap())
                        .on_hover_text(&state);
                });
            });
        });
        if !here {
            ui.horizontal_wrapped(|ui| {
                ui.add_space(size + ui.spacing().item_spacing.x);
                ui.add(state_label());
            });
        }
    } else {
        // The narrow column: the chip and the player, then the clock and the seat's state
        // under the name.
        ui.horizontal(|ui| {
            chip(ui);
            ui.add(egui::Label::new(player).wrap())
                .on_hover_text(&state);
        });
        ui.horizontal_wrapped(|ui| {
            ui.add_space(size + ui.spacing().item_spacing.x);
            for label in after {
                ui.add(label);
            }
            if state_shown {
                ui.add(state_label());
            }
        });
    }
}

/// Draw, takeback and rematch offers to answer or withdraw, and the claim of a gone seat.
fn offers(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    online: &Online,
    table: &Table,
    now: f64,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    if online.seat.is_none() {
        return;
    }
    let answerable = [
        (OfferKind::Draw, Say::SeatOffersDraw),
        (OfferKind::Takeback, Say::SeatAsksTakeback),
        (OfferKind::Rematch, Say::SeatOffersRematch),
    ];
    // A draw needs every seat still playing; a takeback and a rematch every seat.
    let needed = |kind| match kind {
        OfferKind::Draw => online.playing_seats().len(),
        _ => online.seat_count(),
    };
    for (kind, key) in answerable {
        // A seat that left answers a rematch only (the computer plays the rest).
        if kind != OfferKind::Rematch && !online.plays() {
            continue;
        }
        if let Some(offer) = online.offer_to_answer(kind) {
            ui.separator();
            let by = who(lang, online, table, offer.by);
            ui.label(
                egui::RichText::new(sayf(
                    lang,
                    key,
                    &[
                        ("who", &by),
                        ("agreed", &offer.agreed.len()),
                        ("needed", &needed(kind)),
                    ],
                ))
                .color(colours.accent()),
            );
            ui.horizontal_wrapped(|ui| {
                if ui.button(say(lang, Say::Accept)).clicked() {
                    commands.write(OnlineCommand::Accept(kind));
                }
                if ui.button(say(lang, Say::Decline)).clicked() {
                    commands.write(OnlineCommand::Decline(kind));
                }
            });
        }
    }
    let own = [
        (OfferKind::Draw, Say::DrawOffered),
        (OfferKind::Takeback, Say::TakebackAsked),
        (OfferKind::Rematch, Say::RematchOffered),
    ];
    for (kind, key) in own {
        if let Some(offer) = online.own_offer(kind) {
            ui.horizontal_wrapped(|ui| {
                ui.label(sayf(
                    lang,
                    key,
                    &[("agreed", &offer.agreed.len()), ("needed", &needed(kind))],
                ));
                if ui.button(say(lang, Say::Withdraw)).clicked() {
                    commands.write(OnlineCommand::Decline(kind));
                }
            });
        }
    }
    if online.is_playing()
        && online.plays()
        && let Some(at) = online.first_claim()
        && at <= now
        && ui.button(say(lang, Say::Claim)).clicked()
    {
        commands.write(OnlineCommand::Claim);
    }
}

/// The player's actions: offer a draw and ask to take back while the game is on, a rematch
/// after it, and leaving (back to the lobby after a lobby game). In the strip they share one
/// row with short names (the full one on a long press or hover).
fn actions(
    ui: &mut egui::Ui,
    lang: Language,
    online: &Online,
    compact: bool,
    commands: &mut MessageWriter<OnlineCommand>,
) -> Option<Exit> {
    let word = |full: Say, short: Say| say(lang, if compact { short } else { full });
    let mut exit = None;
    ui.horizontal_wrapped(|ui| {
        if online.plays() && online.is_playing() {
            let can = |k| online.own_offer(k).is_none() && online.offer_to_answer(k).is_none();
            if ui
                .add_enabled(
                    can(OfferKind::Draw),
                    egui::Button::new(word(Say::OfferDraw, Say::OfferDrawShort)),
                )
                .on_hover_text(say(lang, Say::OfferDraw))
                .clicked()
            {
                commands.write(OnlineCommand::Offer(OfferKind::Draw));
            }
            // The server takes moves back at a table of two only.
            if online.takeback_offered()
                && ui
                    .add_enabled(
                        can(OfferKind::Takeback) && !online.moves.is_empty(),
                        egui::Button::new(word(Say::AskTakeback, Say::AskTakebackShort)),
                    )
                    .on_hover_text(say(lang, Say::AskTakeback))
                    .clicked()
            {
                commands.write(OnlineCommand::Offer(OfferKind::Takeback));
            }
        } else if online.seat.is_some()
            && online.result.is_some()
            && online.own_offer(OfferKind::Rematch).is_none()
            && online.offer_to_answer(OfferKind::Rematch).is_none()
            && ui.button(say(lang, Say::OfferRematch)).clicked()
        {
            commands.write(OnlineCommand::Offer(OfferKind::Rematch));
        }
        // A wide column has room for the leave button on a line of its own.
        if !compact {
            ui.end_row();
        }
        if online.players.is_some() && online.result.is_some() {
            if ui.button(say(lang, Say::BackToLobby)).clicked() {
                exit = Some(Exit::Lobby);
            }
        } else if ui
            .button(word(Say::Leave, Say::LeaveShort))
            .on_hover_text(say(lang, Say::Leave))
            .clicked()
        {
            exit = Some(Exit::Menu);
        }
    });
    exit
}
