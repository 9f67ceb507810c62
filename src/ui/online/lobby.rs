//! The Lobby screen (egui), opened by the main menu's "Play online…": the account (a guest at
//! once; keep it with a name and a password, sign in to another, sign out), then four tabs —
//! **Play** (the quick-pairing grid, incoming and own challenges, the open seeks, creating a
//! seek, challenging a player by name, players online), **Profile** (ratings per variant,
//! wins/draws/losses, recent games), **My games** (the archive, newest first, paged; a game
//! opens in review) and **Leaders** (per variant). It follows the layout: the screen's width
//! less a margin, one scrolling column when narrow (`ui::layout`: under
//! [`ONE_COLUMN_BELOW`] wide or [`ONE_COLUMN_SHORTER`] tall), two columns on the Play tab
//! otherwise; buttons a tap tall on touch screens (the layout's style).
//!
//! It shows while the main menu's page is the Lobby ([`Screen::Lobby`]). It reads [`Lobby`] and
//! writes [`LobbyCommand`]s for the player's taps; being in the lobby follows the screen, not
//! the drawing: while it shows, `enter_lobby` asks to enter, `fetch_tab` asks for the shown
//! tab's data, and leaving the page ([`MenuPage::Lobby`]'s `OnExit`) leaves the lobby.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPostUpdateSet, EguiPrimaryContextPass, egui};
use boardcraft_protocol::{
    ColorChoice, GamePlayers, GameTerms, PlayerInfo, PoolKey, RatingShort, SeatIndex, Seek, Side,
    TimeControl, http::ArchivedGame,
};

use super::{
    play::CLOCKS,
    text::{Say, say, sayf},
};
use crate::{
    game::variants::VariantLibrary,
    online::{
        Online,
        lobby::{Lobby, LobbyCommand, NoticeAbout, SignIn},
        wall_now,
    },
    settings::{Language, Settings},
    ui::{
        UiColours, UiSystems,
        colours::Tone,
        i18n::variant_text,
        layout::{self, ONE_COLUMN_BELOW, ONE_COLUMN_SHORTER},
        screens::{MenuPage, OnlineWindow, Screen},
    },
};

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    #[default]
    Play,
    Profile,
    Games,
    Leaders,
}

/// The Lobby screen's state: the tab, the forms (whether it shows is the [`MenuPage`]).
#[derive(Resource, Debug, Default)]
pub struct LobbyScreen {
    pub tab: Tab,
    name: String,
    password: String,
    seek_variant: Option<String>,
    seek_clock: usize,
    seek_rated: bool,
    seek_color: Option<ColorChoice>,
    /// The seats of the seek's table (the variant's seat counts are offered).
    seek_players: usize,
    challenge_to: String,
    leaders_variant: Option<String>,
    page: u32,
    /// The tab's data was asked for (reset when the tab changes).
    fetched: Option<Tab>,
}

impl LobbyScreen {
    /// Turns the screen to `tab` (its data asked for again).
    pub fn show(&mut self, tab: Tab) {
        self.tab = tab;
        self.fetched = None;
        self.page = 1;
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<LobbyScreen>()
        .add_systems(
            EguiPrimaryContextPass,
            lobby_screen
                .run_if(in_state(Screen::Lobby))
                .in_set(UiSystems::Panels),
        )
        // In the frame's drawing pass, as when the screen itself asked: after the lobby's
        // answers of the frame (an archived game opened leaves the lobby).
        .add_systems(PostUpdate, enter_lobby.run_if(in_state(Screen::Lobby)))
        .add_systems(
            PostUpdate,
            fetch_tab
                .run_if(in_state(Screen::Lobby))
                .after(EguiPostUpdateSet::EndPass),
        )
        .add_systems(OnExit(MenuPage::Lobby), leave_lobby);
}

/// While the Lobby screen shows, the player is in the lobby: signed in (a guest at first) and
/// on the lobby's websocket. Asked again whenever the lobby was left meanwhile (an archived
/// game opened from it), once no sign-in or opening is under way.
fn enter_lobby(lobby: Res<Lobby>, mut commands: MessageWriter<LobbyCommand>) {
    if !lobby.entered && lobby.sign_in != SignIn::Working && lobby.opening.is_none() {
        commands.write(LobbyCommand::Enter);
    }
}

/// The data of the tab shown (a profile, an archive page, a leaderboard) is asked for once,
/// and again when the drawing says the tab, the page or the leaderboard's variant changed
/// (`LobbyScreen::fetched` reset). After the frame's drawing, as when the tab asked itself.
fn fetch_tab(
    mut screen: ResMut<LobbyScreen>,
    lobby: Res<Lobby>,
    mut commands: MessageWriter<LobbyCommand>,
) {
    if screen.fetched == Some(screen.tab) {
        return;
    }
    let ask = match screen.tab {
        Tab::Play => None,
        Tab::Profile => my_name(&lobby).map(LobbyCommand::Profile),
        Tab::Games => my_name(&lobby).map(|name| LobbyCommand::Archive {
            name,
            page: screen.page.max(1),
        }),
        Tab::Leaders => screen
            .leaders_variant
            .clone()
            .map(LobbyCommand::Leaderboard),
    };
    if let Some(ask) = ask {
        screen.fetched = Some(screen.tab);
        commands.write(ask);
    }
}

/// Closing the Lobby screen (its Back, the page's back button) leaves the lobby; a game
/// started from it does not (the menu leads back to the Lobby after the game).
fn leave_lobby(mut commands: MessageWriter<LobbyCommand>) {
    commands.write(LobbyCommand::Leave);
}

/// A variant's title in the player's language (the server's title for a variant this game
/// does not name).
pub fn title_of(lang: Language, name: &str, server_title: &str) -> String {
    variant_text(lang, name).map_or_else(
        || {
            if server_title.is_empty() {
                name.to_owned()
            } else {
                server_title.to_owned()
            }
        },
        |t| t.title.to_owned(),
    )
}

/// `5+3`.
pub fn clock_short(tc: Option<TimeControl>) -> String {
    match tc {
        Some(tc) => format!("{}+{}", tc.initial_ms / 60_000, tc.increment_ms / 1000),
        None => "∞".to_owned(),
    }
}

/// A pool as people write it: `ugolki-9qum 5+3` (minutes + seconds; `PoolKey::id` counts the
/// initial time in seconds), and a table's seats: `chinese-checkers ×4 5+3`.
pub fn pool_name(pool: &PoolKey) -> String {
    format!(
        "{}{} {}",
        pool.variant,
        seats_mark(pool.seats),
        clock_short(Some(pool.time_control))
    )
}

/// ` ×4` for a table of more than two; nothing for two (the game's usual table).
fn seats_mark(seats: u8) -> String {
    if seats > 2 {
        format!(" ×{seats}")
    } else {
        String::new()
    }
}

fn rating_text(r: Option<RatingShort>) -> String {
    r.map_or_else(|| "1500?".to_owned(), |r| r.to_string())
}

/// A player with their rating: "Anna (1512)", "Bot (1600) · computer".
pub fn player_text(lang: Language, p: &PlayerInfo) -> String {
    let mut text = format!("{} ({})", p.name, rating_text(p.rating));
    if p.bot {
        text.push_str(&format!(" · {}", say(lang, Say::BotMark)));
    }
    text
}

/// The players of a lobby game: "White: Anna (1512) · Black: Boris (1488?)".
pub fn players_text(lang: Language, players: &GamePlayers) -> String {
    sayf(
        lang,
        Say::Versus,
        &[
            ("white", &player_text(lang, &players.white)),
            ("black", &player_text(lang, &players.black)),
        ],
    )
}

/// A finished game's result in the player's words ("Победили чёрные", "Draw", "Game aborted").
pub fn result_words(lang: Language, result: &boardcraft_protocol::GameResult) -> String {
    use crate::ui::i18n::{Key, side, side_lower, tr, trf};
    match result.winner {
        Some(w) => {
            let c = match w {
                Side::White => boardcraft_rules::Seat::WHITE,
                Side::Black => boardcraft_rules::Seat::BLACK,
            };
            trf(
                lang,
                Key::ResultWin,
                &[
                    (
                        "Side",
                        &side(lang, &crate::game::seat_names::SeatNames::two(), c),
                    ),
                    (
                        "side",
                        &side_lower(lang, &crate::game::seat_names::SeatNames::two(), c),
                    ),
                ],
            )
        }
        None if result.cause == boardcraft_protocol::EndCause::Aborted => {
            tr(lang, Key::ResultAborted).to_owned()
        }
        None => tr(lang, Key::ResultDraw).to_owned(),
    }
}

/// "+12" / "−8" / "±0".
pub fn delta_text(delta: i32) -> String {
    match delta {
        d if d > 0 => format!("+{d}"),
        d if d < 0 => format!("−{}", -d),
        _ => "±0".to_owned(),
    }
}

/// What a lobby game's end did to this player's rating: "Your rating: 1500? → 1512 (+12)", the
/// casual game's or the aborted game's note, with its tone; `None` for an invite game or one
/// still on.
pub fn result_note(lang: Language, online: &Online) -> Option<(String, Tone)> {
    let result = online.result.as_ref()?;
    if result.cause == boardcraft_protocol::EndCause::Aborted {
        return Some((say(lang, Say::AbortedNote).to_owned(), Tone::Warn));
    }
    if let Some(change) = online.my_rating_change() {
        let delta = change.delta();
        let colour = match delta {
            d if d > 0 => Tone::Good,
            d if d < 0 => Tone::Bad,
            _ => Tone::Text,
        };
        return Some((
            sayf(
                lang,
                Say::RatingChange,
                &[
                    ("before", &change.before),
                    ("after", &change.after),
                    ("delta", &delta_text(delta)),
                ],
            ),
            colour,
        ));
    }
    let players = online.players.as_ref()?;
    (!players.rated).then(|| (say(lang, Say::Unrated).to_owned(), Tone::Text))
}

/// One seat of a finished online game as the game-over window lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub seat: SeatIndex,
    /// "1st", "2nd (shared)", "1-е" … with the team of a partnership ("· team 1").
    pub place: String,
    /// Who played it: "Anna (1512)", or the seat's name in an invite game.
    pub player: String,
    /// The rating change of a rated game: "+12", "−8".
    pub delta: Option<String>,
    /// The place number (1 for first), for colouring.
    pub rank: u8,
}

/// Every seat's place in the finished online game, best first (seat order within a place),
/// with its player and rating change. `seat_name` names a seat of an invite game.
pub fn standings(
    lang: Language,
    online: &Online,
    seat_name: impl Fn(SeatIndex) -> String,
) -> Vec<Standing> {
    let Some(result) = &online.result else {
        return Vec::new();
    };
    let mut placements = result.placements.clone();
    placements.sort_by_key(|p| (p.place, p.seat));
    placements
        .iter()
        .map(|p| {
            let shared = result
                .placements
                .iter()
                .filter(|o| o.place == p.place)
                .count()
                > 1;
            let ordinal = crate::ui::i18n::place(lang, p.place);
            let mut place = if shared {
                sayf(lang, Say::SharedPlace, &[("place", &ordinal)])
            } else {
                ordinal
            };
            if let Some(team) = p.team {
                place.push_str(" · ");
                place.push_str(&sayf(lang, Say::TeamMark, &[("n", &(team + 1))]));
            }
            let player = online
                .players
                .as_ref()
                .and_then(|players| players.seats.get(p.seat as usize))
                .map_or_else(|| seat_name(p.seat), |info| player_text(lang, info));
            let delta = online
                .ratings
                .as_ref()
                .and_then(|r| r.get(p.seat as usize))
                .map(|c| delta_text(c.delta()));
            Standing {
                seat: p.seat,
                place,
                player,
                delta,
                rank: p.place,
            }
        })
        .collect()
}

fn tap(ui: &egui::Ui) -> f32 {
    layout::button_height(ui, 0.0)
}

fn lobby_screen(
    colours: Res<UiColours>,
    mut contexts: EguiContexts,
    mut screen: ResMut<LobbyScreen>,
    lobby: Res<Lobby>,
    library: Res<VariantLibrary>,
    settings: Res<Settings>,
    mut page: ResMut<NextState<MenuPage>>,
    mut online_window: ResMut<NextState<OnlineWindow>>,
    mut commands: MessageWriter<LobbyCommand>,
) -> Result {
    let lang = settings.language;
    let ctx = contexts.ctx_mut()?;
    let area = ctx.content_rect();
    ctx.layer_painter(egui::LayerId::background()).rect_filled(
        area,
        0.0,
        egui::Color32::from_rgb(28, 23, 19),
    );
    let narrow = area.width() < ONE_COLUMN_BELOW || area.height() < ONE_COLUMN_SHORTER;
    let size = if narrow {
        area.size() - egui::vec2(16.0, 16.0)
    } else {
        egui::vec2(
            (area.width() - 40.0).clamp(320.0, 1080.0),
            (area.height() - 40.0).clamp(320.0, 760.0),
        )
    };
    // The variants this game can show (for seeks and the leaderboard), with the seat counts
    // each offers.
    let mut seen = std::collections::HashSet::new();
    let variants: Vec<(String, String, Vec<usize>)> = library
        .ready()
        .filter(|(_, v)| seen.insert(v.name.clone()))
        .map(|(_, v)| {
            (
                v.name.clone(),
                title_of(lang, &v.name, &v.title),
                v.player_counts(),
            )
        })
        .collect();
    egui::Area::new(egui::Id::new("lobby_screen"))
        .order(egui::Order::Background)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            colours.panel_frame().show(ui, |ui| {
                ui.set_width(size.x - 24.0);
                ui.set_height(size.y - 20.0);
                ui.style_mut().visuals.override_text_color = Some(colours.text);
                let t = tap(ui);
                ui.horizontal_wrapped(|ui| {
                    if ui
                        .add(egui::Button::new(say(lang, Say::Back)).min_size(egui::vec2(t, t)))
                        .clicked()
                    {
                        page.set(MenuPage::Main);
                    }
                    crate::ui::wordmark(ui, &colours, say(lang, Say::LobbyTitle));
                });
                ui.horizontal_wrapped(|ui| {
                    for (tab, key) in [
                        (Tab::Play, Say::TabPlay),
                        (Tab::Profile, Say::TabProfile),
                        (Tab::Games, Say::TabGames),
                        (Tab::Leaders, Say::TabLeaders),
                    ] {
                        let selected = screen.tab == tab;
                        if ui
                            .add(
                                egui::Button::selectable(selected, say(lang, key))
                                    .min_size(egui::vec2(t, t)),
                            )
                            .clicked()
                            && !selected
                        {
                            screen.tab = tab;
                            screen.fetched = None;
                            screen.page = 1;
                        }
                    }
                });
                ui.separator();
                if let Some(notice) = &lobby.notice
                    && wall_now() - notice.at < 15.0
                {
                    let reason = [("reason", &notice.message as &dyn std::fmt::Display)];
                    let text = match notice.about {
                        NoticeAbout::SignIn => sayf(lang, Say::SignInFailed, &reason),
                        NoticeAbout::Claim => sayf(lang, Say::ClaimFailed, &reason),
                        NoticeAbout::Lobby | NoticeAbout::Fetch => {
                            sayf(lang, Say::LobbyError, &reason)
                        }
                    };
                    ui.colored_label(colours.bad(), text);
                }
                egui::ScrollArea::vertical()
                    .id_salt("lobby_scroll")
                    .auto_shrink([false, false])
                    .show(ui, |ui| match screen.tab {
                        Tab::Play => play_tab(
                            ui,
                            &colours,
                            lang,
                            narrow,
                            &mut screen,
                            &lobby,
                            &variants,
                            &mut online_window,
                            &mut commands,
                        ),
                        Tab::Profile => profile_tab(ui, &colours, lang, &lobby, &mut commands),
                        Tab::Games => games_tab(ui, lang, &mut screen, &lobby, &mut commands),
                        Tab::Leaders => leaders_tab(ui, lang, &mut screen, &lobby, &variants),
                    });
            });
        });
    Ok(())
}

/// Who is signed in (or the sign-in at work), at the top of the Play tab.
fn account_status(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    lobby: &Lobby,
    commands: &mut MessageWriter<LobbyCommand>,
) {
    match (&lobby.sign_in, &lobby.account) {
        (SignIn::In, Some(account)) => {
            ui.label(
                egui::RichText::new(sayf(lang, Say::SignedInAs, &[("name", &account.name)]))
                    .color(colours.accent()),
            );
        }
        (SignIn::Working, _) => {
            ui.horizontal_wrapped(|ui| {
                ui.spinner();
                ui.label(say(lang, Say::SigningIn));
            });
        }
        _ => {
            if ui.button(say(lang, Say::PlayAsGuest)).clicked() {
                commands.write(LobbyCommand::Enter);
            }
        }
    }
}

/// The account's forms: keep a guest account, sign in to another, sign out.
fn account_block(
    ui: &mut egui::Ui,
    lang: Language,
    screen: &mut LobbyScreen,
    lobby: &Lobby,
    commands: &mut MessageWriter<LobbyCommand>,
) {
    ui.label(egui::RichText::new(say(lang, Say::AccountHeading)).strong());
    if let Some(account) = lobby.account.as_ref().filter(|a| a.guest) {
        ui.label(sayf(lang, Say::SignedInAs, &[("name", &account.name)]));
        ui.label(say(lang, Say::GuestNote));
    }
    let width = (ui.available_width() - 8.0).clamp(80.0, 240.0);
    egui::Grid::new("lobby_account")
        .num_columns(2)
        .spacing(egui::vec2(8.0, 6.0))
        .show(ui, |ui| {
            ui.label(say(lang, Say::NameField));
            ui.add(egui::TextEdit::singleline(&mut screen.name).desired_width(width));
            ui.end_row();
            ui.label(say(lang, Say::PasswordField));
            ui.add(
                egui::TextEdit::singleline(&mut screen.password)
                    .password(true)
                    .desired_width(width),
            );
            ui.end_row();
        });
    let filled = !screen.name.trim().is_empty() && !screen.password.is_empty();
    ui.horizontal_wrapped(|ui| {
        let guest = lobby.account.as_ref().is_some_and(|a| a.guest);
        if guest
            && ui
                .add_enabled(filled, egui::Button::new(say(lang, Say::KeepAccount)))
                .clicked()
        {
            commands.write(LobbyCommand::Claim {
                name: screen.name.trim().to_owned(),
                password: std::mem::take(&mut screen.password),
            });
        }
        if ui
            .add_enabled(filled, egui::Button::new(say(lang, Say::SignInOther)))
            .clicked()
        {
            commands.write(LobbyCommand::SignIn {
                name: screen.name.trim().to_owned(),
                password: std::mem::take(&mut screen.password),
            });
        }
        if lobby.sign_in == SignIn::In && ui.button(say(lang, Say::SignOut)).clicked() {
            commands.write(LobbyCommand::SignOut);
        }
    });
}

#[allow(clippy::too_many_arguments)]
fn play_tab(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    narrow: bool,
    screen: &mut LobbyScreen,
    lobby: &Lobby,
    variants: &[(String, String, Vec<usize>)],
    online_window: &mut NextState<OnlineWindow>,
    commands: &mut MessageWriter<LobbyCommand>,
) {
    let column_width = if narrow {
        ui.available_width()
    } else {
        (ui.available_width() - 24.0) / 2.0
    };
    layout::row_or_column(ui, narrow, |ui| {
        ui.vertical(|ui| {
            ui.set_width(column_width);
            account_status(ui, colours, lang, lobby, commands);
            if lobby.welcomed {
                ui.label(sayf(
                    lang,
                    Say::Counts,
                    &[
                        ("players", &lobby.counts.players),
                        ("games", &lobby.counts.games),
                    ],
                ));
            } else if lobby.sign_in == SignIn::In {
                ui.horizontal_wrapped(|ui| {
                    ui.spinner();
                    ui.label(say(lang, Say::Connecting));
                });
            }
            pools_block(ui, colours, lang, lobby, commands);
            challenges_block(ui, colours, lang, lobby, commands);
            if narrow {
                ui.separator();
                seeks_block(ui, lang, lobby, commands);
            }
            ui.separator();
            create_block(ui, lang, screen, lobby, variants, commands);
            ui.separator();
            if ui.button(say(lang, Say::InviteFriend)).clicked() {
                online_window.set(OnlineWindow::Open);
            }
            ui.separator();
            account_block(ui, lang, screen, lobby, commands);
        });
        if !narrow {
            ui.add_space(12.0);
            ui.vertical(|ui| {
                ui.set_width(column_width);
                seeks_block(ui, lang, lobby, commands);
                ui.separator();
                ratings_block(ui, lang, lobby);
            });
        } else {
            ui.separator();
            ratings_block(ui, lang, lobby);
        }
    });
}

/// A pool's button: "Chinese checkers ×4 5+3" (the seats only for a table of more than two).
pub fn pool_label(lang: Language, pool: &PoolKey, title: &str) -> String {
    let game = title_of(lang, &pool.variant, title);
    let game = if pool.seats > 2 {
        sayf(lang, Say::TablePool, &[("game", &game), ("n", &pool.seats)])
    } else {
        game
    };
    format!("{game} {}", clock_short(Some(pool.time_control)))
}

fn pools_block(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    lobby: &Lobby,
    commands: &mut MessageWriter<LobbyCommand>,
) {
    ui.label(egui::RichText::new(say(lang, Say::QuickPairing)).strong());
    if let Some(waiting) = &lobby.waiting_in {
        let title = lobby
            .pools
            .iter()
            .find(|p| &p.pool == waiting)
            .map(|p| p.variant_title.clone())
            .unwrap_or_default();
        ui.label(
            egui::RichText::new(sayf(
                lang,
                Say::Searching,
                &[("pool", &pool_label(lang, waiting, &title))],
            ))
            .color(colours.accent()),
        );
        ui.horizontal(|ui| {
            ui.spinner();
            if ui.button(say(lang, Say::Cancel)).clicked() {
                commands.write(LobbyCommand::LeavePool);
            }
        });
    }
    let labels: Vec<(String, String)> = lobby
        .pools
        .iter()
        .map(|p| {
            (
                pool_label(lang, &p.pool, &p.variant_title),
                sayf(lang, Say::Waiting, &[("n", &p.waiting)]),
            )
        })
        .collect();
    let longest: Vec<&str> = labels.iter().map(|(a, _)| a.as_str()).collect();
    let columns = layout::columns_for(ui, &longest, 3);
    let gap = ui.spacing().item_spacing.x;
    let width = ((ui.available_width() + gap) / columns as f32 - gap).max(60.0);
    let height = layout::button_height(ui, 0.0).max(48.0);
    egui::Grid::new("lobby_pools")
        .num_columns(columns)
        .spacing(egui::vec2(gap, gap))
        .show(ui, |ui| {
            for (i, (pool, (label, waiting))) in lobby.pools.iter().zip(&labels).enumerate() {
                let chosen = lobby.waiting_in.as_ref() == Some(&pool.pool);
                let text = format!("{label}\n{waiting}");
                let button = egui::Button::new(text)
                    .selected(chosen)
                    .frame(true)
                    .min_size(egui::vec2(width, height))
                    .wrap_mode(egui::TextWrapMode::Wrap);
                if ui.add_enabled(lobby.welcomed, button).clicked() {
                    commands.write(if chosen {
                        LobbyCommand::LeavePool
                    } else {
                        LobbyCommand::JoinPool(pool.pool.clone())
                    });
                }
                if (i + 1) % columns == 0 {
                    ui.end_row();
                }
            }
        });
}

fn terms_text(
    lang: Language,
    variant: &str,
    title: &str,
    tc: Option<TimeControl>,
    rated: bool,
) -> String {
    format!(
        "{} {} · {}",
        title_of(lang, variant, title),
        clock_short(tc),
        say(lang, if rated { Say::Rated } else { Say::Casual })
    )
}

fn challenges_block(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    lobby: &Lobby,
    commands: &mut MessageWriter<LobbyCommand>,
) {
    if lobby.challenges.is_empty() {
        return;
    }
    ui.separator();
    ui.label(egui::RichText::new(say(lang, Say::ChallengesHeading)).strong());
    for c in &lobby.challenges {
        let game = terms_text(lang, &c.variant, &c.variant_title, c.time_control, c.rated);
        if lobby.is_to_me(c) {
            ui.label(
                egui::RichText::new(sayf(
                    lang,
                    Say::ChallengeFrom,
                    &[
                        ("name", &c.from.name),
                        ("rating", &rating_text(c.from.rating)),
                        ("game", &game),
                    ],
                ))
                .color(colours.accent()),
            );
            ui.horizontal_wrapped(|ui| {
                if ui.button(say(lang, Say::Accept)).clicked() {
                    commands.write(LobbyCommand::AcceptChallenge(c.id.clone()));
                }
                if ui.button(say(lang, Say::Decline)).clicked() {
                    commands.write(LobbyCommand::DeclineChallenge(c.id.clone()));
                }
            });
        } else {
            ui.horizontal_wrapped(|ui| {
                ui.label(sayf(
                    lang,
                    Say::ChallengeTo,
                    &[("name", &c.to.name), ("game", &game)],
                ));
                if ui.button(say(lang, Say::Withdraw)).clicked() {
                    commands.write(LobbyCommand::CancelChallenge(c.id.clone()));
                }
            });
        }
    }
}

/// "2 of 4 seated: Anna, Boris" for a table's seek.
pub fn seated_text(lang: Language, seek: &Seek) -> String {
    let names: Vec<String> = seek.seated.iter().map(|p| player_text(lang, p)).collect();
    sayf(
        lang,
        Say::SeatedOf,
        &[
            ("k", &seek.seated.len()),
            ("n", &seek.seats),
            ("names", &names.join(", ")),
        ],
    )
}

fn seeks_block(
    ui: &mut egui::Ui,
    lang: Language,
    lobby: &Lobby,
    commands: &mut MessageWriter<LobbyCommand>,
) {
    ui.label(egui::RichText::new(say(lang, Say::SeeksHeading)).strong());
    if lobby.seeks.is_empty() {
        ui.label(say(lang, Say::NoSeeks));
        return;
    }
    let width = ui.available_width();
    for seek in &lobby.seeks {
        let mine = lobby.is_mine(seek);
        let mut game = terms_text(
            lang,
            &seek.variant,
            &seek.variant_title,
            seek.time_control,
            seek.rated,
        );
        // A table of more than two: its seats, and who sits at it so far.
        let table = seek.seats > 2;
        if table {
            game = format!("{game}\n{}", seated_text(lang, seek));
        }
        let who = if mine {
            say(lang, Say::YourSeek).to_owned()
        } else {
            player_text(lang, &seek.by)
        };
        let seated = table && lobby.is_seated(seek);
        ui.horizontal_wrapped(|ui| {
            if mine {
                ui.label(format!("{game}\n{who}"));
                if ui.button(say(lang, Say::Cancel)).clicked() {
                    commands.write(LobbyCommand::CancelSeek(seek.id.clone()));
                }
            } else if seated {
                ui.label(format!("{game}\n{who}"));
                if ui.button(say(lang, Say::LeaveSeat)).clicked() {
                    commands.write(LobbyCommand::LeaveSeek(seek.id.clone()));
                }
            } else {
                let text = if table {
                    format!("{game}\n{who} · {}", say(lang, Say::TakeSeat))
                } else {
                    format!("{game}\n{who}")
                };
                let button = egui::Button::new(text)
                    .min_size(egui::vec2(width.min(420.0), layout::button_height(ui, 0.0)))
                    .wrap_mode(egui::TextWrapMode::Wrap);
                if ui.add(button).clicked() {
                    commands.write(LobbyCommand::AcceptSeek(seek.id.clone()));
                }
            }
        });
    }
}

fn color_text(lang: Language, c: ColorChoice) -> &'static str {
    match c {
        ColorChoice::White => crate::ui::i18n::tr(lang, crate::ui::i18n::Key::White),
        ColorChoice::Black => crate::ui::i18n::tr(lang, crate::ui::i18n::Key::Black),
        ColorChoice::Random => say(lang, Say::RandomSide),
    }
}

fn create_block(
    ui: &mut egui::Ui,
    lang: Language,
    screen: &mut LobbyScreen,
    lobby: &Lobby,
    variants: &[(String, String, Vec<usize>)],
    commands: &mut MessageWriter<LobbyCommand>,
) {
    ui.label(egui::RichText::new(say(lang, Say::CreateSeek)).strong());
    if screen.seek_variant.is_none() {
        screen.seek_variant = lobby
            .pools
            .first()
            .map(|p| p.pool.variant.clone())
            .or_else(|| variants.first().map(|(n, _, _)| n.clone()));
        screen.seek_clock = 2;
        screen.seek_rated = true;
    }
    let width = (ui.available_width() - 100.0).clamp(120.0, 260.0);
    egui::Grid::new("lobby_create")
        .num_columns(2)
        .spacing(egui::vec2(8.0, 6.0))
        .show(ui, |ui| {
            ui.label(say(lang, Say::Game));
            let chosen = screen
                .seek_variant
                .as_ref()
                .and_then(|n| variants.iter().find(|(v, _, _)| v == n));
            let shown = chosen.map(|(_, t, _)| t.clone()).unwrap_or_default();
            egui::ComboBox::from_id_salt("lobby_variant")
                .selected_text(shown)
                .width(width)
                .show_ui(ui, |ui| {
                    for (name, title, _) in variants {
                        ui.selectable_value(&mut screen.seek_variant, Some(name.clone()), title);
                    }
                });
            ui.end_row();
            // The seat counts the variant offers, when it offers more than one.
            let counts = chosen.map(|(_, _, c)| c.as_slice()).unwrap_or(&[]);
            if !counts.contains(&screen.seek_players) {
                screen.seek_players = counts.first().copied().unwrap_or(2);
            }
            if counts.len() > 1 {
                ui.label(say(lang, Say::PlayersChoice));
                egui::ComboBox::from_id_salt("lobby_players")
                    .selected_text(screen.seek_players.to_string())
                    .width(width)
                    .show_ui(ui, |ui| {
                        for &n in counts {
                            ui.selectable_value(&mut screen.seek_players, n, n.to_string());
                        }
                    });
                ui.end_row();
            }
            ui.label(say(lang, Say::Clock));
            let clock = screen.seek_clock.min(CLOCKS.len() - 1);
            let clock_name = |c: Option<(u64, u64)>| match c {
                None => say(lang, Say::Untimed).to_owned(),
                Some((m, s)) => format!("{m} + {s}"),
            };
            egui::ComboBox::from_id_salt("lobby_clock")
                .selected_text(clock_name(CLOCKS[clock]))
                .width(width)
                .show_ui(ui, |ui| {
                    for (i, c) in CLOCKS.iter().enumerate() {
                        ui.selectable_value(&mut screen.seek_clock, i, clock_name(*c));
                    }
                });
            ui.end_row();
            // At a table of more than two the seats are drawn.
            if screen.seek_players == 2 {
                ui.label(say(lang, Say::YourSide));
                let current = screen.seek_color.unwrap_or(ColorChoice::Random);
                egui::ComboBox::from_id_salt("lobby_color")
                    .selected_text(color_text(lang, current))
                    .width(width)
                    .show_ui(ui, |ui| {
                        for c in [ColorChoice::Random, ColorChoice::White, ColorChoice::Black] {
                            ui.selectable_value(
                                &mut screen.seek_color,
                                Some(c),
                                color_text(lang, c),
                            );
                        }
                    });
                ui.end_row();
            }
        });
    let timed = CLOCKS[screen.seek_clock.min(CLOCKS.len() - 1)].is_some();
    ui.add_enabled(
        timed,
        egui::Checkbox::new(&mut screen.seek_rated, say(lang, Say::RatedChoice)),
    );
    let terms = screen.seek_variant.clone().map(|variant| GameTerms {
        variant,
        time_control: CLOCKS[screen.seek_clock.min(CLOCKS.len() - 1)]
            .map(|(m, s)| TimeControl::minutes(m, s)),
        rated: screen.seek_rated && timed,
        color: if screen.seek_players == 2 {
            screen.seek_color.unwrap_or(ColorChoice::Random)
        } else {
            ColorChoice::Random
        },
        seats: screen.seek_players as u8,
    });
    if ui
        .add_enabled(
            lobby.welcomed && terms.is_some(),
            egui::Button::new(say(lang, Say::Post)),
        )
        .clicked()
        && let Some(terms) = terms.clone()
    {
        commands.write(LobbyCommand::Seek(terms));
    }
    ui.add_space(6.0);
    ui.label(egui::RichText::new(say(lang, Say::ChallengeHeading)).strong());
    ui.horizontal_wrapped(|ui| {
        ui.label(say(lang, Say::NameField));
        let width = (ui.available_width() - 8.0).clamp(80.0, 200.0);
        ui.add(egui::TextEdit::singleline(&mut screen.challenge_to).desired_width(width));
        let to = screen.challenge_to.trim().to_owned();
        if ui
            .add_enabled(
                lobby.welcomed && !to.is_empty() && terms.is_some(),
                egui::Button::new(say(lang, Say::ChallengeButton)),
            )
            .clicked()
            && let Some(terms) = terms
        {
            commands.write(LobbyCommand::Challenge { to, terms });
        }
    });
}

fn ratings_block(ui: &mut egui::Ui, lang: Language, lobby: &Lobby) {
    ui.label(egui::RichText::new(say(lang, Say::YourRatings)).strong());
    if lobby.ratings.is_empty() {
        ui.label(say(lang, Say::NoRatings));
    }
    for r in &lobby.ratings {
        ui.label(sayf(
            lang,
            Say::RatingLine,
            &[
                ("game", &title_of(lang, &r.variant, "")),
                ("rating", &r.short()),
                ("n", &r.games),
            ],
        ));
    }
}

fn my_name(lobby: &Lobby) -> Option<String> {
    lobby.account.as_ref().map(|a| a.name.clone())
}

fn game_row(
    ui: &mut egui::Ui,
    lang: Language,
    me: &str,
    game: &ArchivedGame,
    opening: bool,
    commands: &mut MessageWriter<LobbyCommand>,
) {
    let side = if game.players.white.name == me {
        Some(Side::White)
    } else if game.players.black.name == me {
        Some(Side::Black)
    } else {
        None
    };
    let mut line = format!(
        "{}\n{} · {}",
        terms_text(
            lang,
            &game.variant,
            &game.variant_title,
            game.time_control,
            game.rated
        ),
        players_text(lang, &game.players),
        result_words(lang, &game.result)
    );
    if let (Some(side), Some(r)) = (side, game.ratings) {
        line.push_str(&format!(" · {}", delta_text(r.get(side).delta())));
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(line);
        if ui
            .add_enabled(!opening, egui::Button::new(say(lang, Say::Open)))
            .clicked()
        {
            commands.write(LobbyCommand::OpenGame(game.game.clone()));
        }
    });
    ui.separator();
}

fn profile_tab(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    lobby: &Lobby,
    commands: &mut MessageWriter<LobbyCommand>,
) {
    let Some(me) = my_name(lobby) else {
        ui.label(say(lang, Say::SigningIn));
        return;
    };
    if ui.button(say(lang, Say::Refresh)).clicked() {
        commands.write(LobbyCommand::Profile(me.clone()));
    }
    let Some(profile) = lobby.profile.as_ref().filter(|p| p.player.name == me) else {
        ui.spinner();
        return;
    };
    ui.label(
        egui::RichText::new(&profile.player.name)
            .size(20.0)
            .color(colours.accent()),
    );
    ui.label(sayf(
        lang,
        Say::Tally,
        &[
            ("w", &profile.total.wins),
            ("d", &profile.total.draws),
            ("l", &profile.total.losses),
        ],
    ));
    ui.separator();
    ui.label(egui::RichText::new(say(lang, Say::YourRatings)).strong());
    if profile.ratings.is_empty() {
        ui.label(say(lang, Say::NoRatings));
    }
    for r in &profile.ratings {
        let short = RatingShort {
            rating: r.rating.round() as i32,
            provisional: r.provisional,
        };
        ui.label(sayf(
            lang,
            Say::RatingLine,
            &[
                ("game", &title_of(lang, &r.variant, &r.variant_title)),
                ("rating", &short),
                ("n", &r.games),
            ],
        ));
    }
    for t in &profile.tallies {
        ui.label(format!(
            "{}: {}",
            title_of(lang, &t.variant, &t.variant_title),
            sayf(
                lang,
                Say::Tally,
                &[
                    ("w", &t.tally.wins),
                    ("d", &t.tally.draws),
                    ("l", &t.tally.losses)
                ],
            )
        ));
    }
    ui.separator();
    ui.label(egui::RichText::new(say(lang, Say::RecentGames)).strong());
    if profile.recent.is_empty() {
        ui.label(say(lang, Say::NoGames));
    }
    for game in &profile.recent {
        game_row(ui, lang, &me, game, lobby.opening.is_some(), commands);
    }
}

fn games_tab(
    ui: &mut egui::Ui,
    lang: Language,
    screen: &mut LobbyScreen,
    lobby: &Lobby,
    commands: &mut MessageWriter<LobbyCommand>,
) {
    let Some(me) = my_name(lobby) else {
        ui.label(say(lang, Say::SigningIn));
        return;
    };
    screen.page = screen.page.max(1);
    let archive = lobby
        .archive
        .as_ref()
        .filter(|a| a.player == me && a.page == screen.page);
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(screen.page > 1, egui::Button::new(say(lang, Say::Newer)))
            .clicked()
        {
            screen.page -= 1;
            screen.fetched = None;
        }
        ui.label(sayf(lang, Say::Page, &[("n", &screen.page)]));
        if ui
            .add_enabled(
                archive.is_some_and(|a| a.more),
                egui::Button::new(say(lang, Say::Older)),
            )
            .clicked()
        {
            screen.page += 1;
            screen.fetched = None;
        }
        if ui.button(say(lang, Say::Refresh)).clicked() {
            screen.fetched = None;
        }
    });
    if lobby.opening.is_some() {
        ui.horizontal_wrapped(|ui| {
            ui.spinner();
            ui.label(say(lang, Say::Opening));
        });
    }
    let Some(archive) = archive else {
        ui.spinner();
        return;
    };
    if archive.games.is_empty() {
        ui.label(say(lang, Say::NoGames));
    }
    for game in &archive.games {
        game_row(ui, lang, &me, game, lobby.opening.is_some(), commands);
    }
}

fn leaders_tab(
    ui: &mut egui::Ui,
    lang: Language,
    screen: &mut LobbyScreen,
    lobby: &Lobby,
    variants: &[(String, String, Vec<usize>)],
) {
    if screen.leaders_variant.is_none() {
        screen.leaders_variant = lobby
            .pools
            .first()
            .map(|p| p.pool.variant.clone())
            .or_else(|| variants.first().map(|(n, _, _)| n.clone()));
    }
    let Some(variant) = screen.leaders_variant.clone() else {
        return;
    };
    let shown = variants
        .iter()
        .find(|(v, _, _)| *v == variant)
        .map(|(_, t, _)| t.clone())
        .unwrap_or_else(|| variant.clone());
    let before = screen.leaders_variant.clone();
    egui::ComboBox::from_id_salt("lobby_leaders_variant")
        .selected_text(shown)
        .width((ui.available_width() - 8.0).clamp(120.0, 300.0))
        .show_ui(ui, |ui| {
            for (name, title, _) in variants {
                ui.selectable_value(&mut screen.leaders_variant, Some(name.clone()), title);
            }
        });
    if screen.leaders_variant != before {
        screen.fetched = None;
    }
    ui.label(egui::RichText::new(say(lang, Say::LeadersOf)).strong());
    let Some(board) = lobby.leaderboard.as_ref().filter(|l| l.variant == variant) else {
        ui.spinner();
        return;
    };
    if board.players.is_empty() {
        ui.label(say(lang, Say::NoLeaders));
    }
    egui::Grid::new("lobby_leaders")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for row in &board.players {
                ui.label(format!("{}.", row.rank));
                let mut name = row.player.name.clone();
                if row.player.bot {
                    name.push_str(&format!(" · {}", say(lang, Say::BotMark)));
                }
                ui.label(name);
                ui.label(format!("{}", row.rating.round() as i32));
                ui.end_row();
            }
        });
}
