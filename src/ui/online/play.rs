//! The online screens (egui): the "Play online" window of the main menu (create a game with
//! variant, side and clock, or join by code or link; the waiting screen with the invite), and
//! the online panel beside the board during the game (connection, presence, clocks, pending
//! move, offers, claim, rematch, spectators). They read [`Online`] and write
//! [`OnlineCommand`]s only.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use boardcraft_protocol::{
    ColorChoice, GameStatus as ServerStatus, OfferKind, Presence, Side, TimeControl,
};
use boardcraft_rules::Seat;

use super::text::{Say, clock_text, say, sayf};
use crate::{
    game::{
        match_state::{AppState, Match},
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

fn color_of(side: Side) -> Seat {
    match side {
        Side::White => Seat::WHITE,
        Side::Black => Seat::BLACK,
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
    let shown = game.is_some_and(|g| online.stage == Stage::InGame && online.shows(&g));
    if !shown {
        extent.set_if_neq(OnlineExtent(0.0));
        return Ok(());
    }
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
                    if let Some(exit) =
                        panel_body(ui, &colours, lang, &online, now, !wide, &mut commands)
                    {
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

/// What the online panel shows, top to bottom. `compact` is the strip under or beside the
/// board on a phone: no game id, and the actions in one row of short buttons.
fn panel_body(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    online: &Online,
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
        // The link, the player's side and the audience: one line.
        ui.horizontal_wrapped(|ui| {
            let (text, tone) = link_text(lang, online.link);
            ui.colored_label(colours.tone(tone), text);
            ui.label("·");
            match online.seat {
                Some(me) => ui.label(sayf(
                    lang,
                    Say::YourSideIs,
                    &[(
                        "Side",
                        &side(
                            lang,
                            &crate::game::seat_names::SeatNames::two(),
                            color_of(me),
                        ),
                    )],
                )),
                None => ui.label(say(lang, Say::Watching)),
            };
            if online.spectators > 0 {
                ui.label("·");
                ui.label(sayf(lang, Say::Spectators, &[("n", &online.spectators)]));
            }
        });
    }
    for s in Side::BOTH {
        side_row(ui, colours, lang, online, s, now);
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
    offers(ui, colours, lang, online, now, commands);
    if let Some(result) = &online.result {
        ui.label(
            egui::RichText::new(sayf(lang, Say::ServerResult, &[("text", &result.text)])).small(),
        );
    }
    if let Some((note, tone)) = super::lobby::result_note(lang, online) {
        ui.colored_label(colours.tone(tone), note);
    }
    actions(ui, lang, online, compact, commands)
}

/// One side: its clock (the running one bright), who plays it, and whether they are here.
fn side_row(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    online: &Online,
    s: Side,
    now: f64,
) {
    let (key, colour) = match online.presence(s) {
        Some(Presence::Present) => (Say::Present, colours.good()),
        Some(Presence::Gone { .. }) => (Say::Left, colours.bad()),
        _ => (Say::Absent, colours.warn()),
    };
    let presence = sayf(
        lang,
        key,
        &[(
            "Side",
            &side(
                lang,
                &crate::game::seat_names::SeatNames::two(),
                color_of(s),
            ),
        )],
    );
    let mine = online.seat == Some(s);
    ui.horizontal_wrapped(|ui| {
        if let Some(ms) = online.remaining_ms(s, now) {
            let running = online.clocks.and_then(|c| c.running) == Some(s);
            let mut text = egui::RichText::new(clock_text(ms)).monospace().size(17.0);
            if running {
                text = text.strong().color(colours.accent());
            }
            ui.label(text);
        }
        match &online.players {
            // A lobby game names the players; their presence is news only when they are away.
            Some(players) => {
                let who = super::lobby::side_text(lang, players, s);
                ui.colored_label(colours.accent(), who)
                    .on_hover_text(&presence);
                if mine {
                    ui.label(say(lang, Say::You));
                }
                if key != Say::Present {
                    ui.colored_label(colour, presence);
                }
            }
            None => {
                ui.colored_label(colour, presence);
                if mine {
                    ui.label(say(lang, Say::You));
                }
            }
        }
    });
}

/// Draw, takeback and rematch offers to answer or withdraw, and the claim of an abandoned
/// game.
fn offers(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    online: &Online,
    now: f64,
    commands: &mut MessageWriter<OnlineCommand>,
) {
    if online.seat.is_none() {
        return;
    }
    let answerable = [
        (OfferKind::Draw, Say::OpponentOffersDraw),
        (OfferKind::Takeback, Say::OpponentAsksTakeback),
        (OfferKind::Rematch, Say::OpponentOffersRematch),
    ];
    for (kind, key) in answerable {
        if online.offer_from_opponent(kind).is_some() {
            ui.separator();
            ui.label(egui::RichText::new(say(lang, key)).color(colours.accent()));
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
        if online.own_offer(kind).is_some() {
            ui.horizontal_wrapped(|ui| {
                ui.label(say(lang, key));
                if ui.button(say(lang, Say::Withdraw)).clicked() {
                    commands.write(OnlineCommand::Decline(kind));
                }
            });
        }
    }
    if online.is_playing()
        && let Some(at) = online.claim_at
    {
        let left = (at - now).max(0.0);
        if left > 0.0 {
            ui.label(sayf(
                lang,
                Say::ClaimIn,
                &[("seconds", &(left.ceil() as u64))],
            ));
        } else if ui.button(say(lang, Say::Claim)).clicked() {
            commands.write(OnlineCommand::Claim);
        }
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
        if online.seat.is_some() && online.is_playing() {
            let can = |k| online.own_offer(k).is_none() && online.offer_from_opponent(k).is_none();
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
            if ui
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
            && online.offer_from_opponent(OfferKind::Rematch).is_none()
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
