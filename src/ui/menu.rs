//! The main menu: every playable variant (shipped, from the manifest, then the `mods/`
//! folder) with a drawing of its board, a short description and who moves first; who plays
//! each side (a human or the computer at a level); start. It also leads back to a game in
//! progress, to loading a saved game and to the settings.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use boardcraft_rules::{Seat, Variant};

use crate::{
    game::config::{GameConfig, Level, PlayerKind, Players},
    game::match_state::{AppState, ContinueGame, Match},
    game::seat_names::SeatNames,
    game::variants::{Entry, NewGameRequested, Origin, VariantLibrary},
    settings::{Language, Settings},
    ui::i18n::{Key, LearnKey, learn_tr, player, side, side_lower, tr, trf, variant_text},
    view::animation::SkipAnimation,
};

use super::{
    UiColours, UiSystems,
    layout::{self, ONE_COLUMN_BELOW, ONE_COLUMN_SHORTER},
    preview::Previews,
    screens::{MenuPage, SavesWindow, Screen, SettingsWindow},
    shown::UiDrawing,
};

/// The choices being made in the menu.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct MenuDraft {
    /// The library entry (its asset path) of the chosen variant.
    pub selected: Option<String>,
    /// Who plays each seat; their number is the table chosen (for variants that offer
    /// several).
    pub players: Players,
}

impl MenuDraft {
    /// The chosen variant at the table chosen, if it offers that table; else at its first.
    pub fn seated(&self, variant: &Variant) -> Variant {
        variant
            .with_players(self.players.count())
            .unwrap_or_else(|| variant.clone())
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<MenuDraft>()
        .add_systems(OnEnter(AppState::Menu), enter_menu)
        .add_systems(
            EguiPrimaryContextPass,
            main_menu
                .run_if(in_state(Screen::Menu))
                .in_set(UiSystems::Panels),
        );
}

/// Where the menu's buttons lead besides a game: the Lobby, the save / load and the settings
/// windows.
#[derive(bevy::ecs::system::SystemParam)]
struct Leads<'w> {
    page: ResMut<'w, NextState<MenuPage>>,
    saves: ResMut<'w, NextState<SavesWindow>>,
    settings: ResMut<'w, NextState<SettingsWindow>>,
}

/// The menu starts from the current game's variant and players; an animation still running
/// is finished so the game waits in a settled position.
fn enter_menu(
    mut draft: ResMut<MenuDraft>,
    players: Res<Players>,
    library: Res<VariantLibrary>,
    mut skip: MessageWriter<SkipAnimation>,
) {
    draft.players = players.clone();
    if let Some(playing) = &library.playing {
        draft.selected = Some(playing.clone());
    }
    skip.write(SkipAnimation);
}

/// The playable entries in menu order, one per variant name (the first file wins, as in the
/// game).
fn choices(library: &VariantLibrary) -> Vec<&Entry> {
    let mut seen = std::collections::HashSet::new();
    library
        .ready()
        .filter(|(_, v)| seen.insert(v.name.clone()))
        .map(|(e, _)| e)
        .collect()
}

/// The title and summary of an entry in the player's language.
fn describe(language: Language, variant: &boardcraft_rules::Variant) -> (String, String) {
    match variant_text(language, &variant.name) {
        Some(t) => (t.title.to_owned(), t.summary.to_owned()),
        None => {
            // A mod: its own title and the first sentence of its description.
            let first = variant
                .description
                .split_inclusive(". ")
                .next()
                .unwrap_or_default()
                .trim()
                .to_owned();
            (variant.title.clone(), first)
        }
    }
}

const PLAYER_CHOICES: [PlayerKind; 5] = [
    PlayerKind::Human,
    PlayerKind::Computer(Level::Novice),
    PlayerKind::Computer(Level::Amateur),
    PlayerKind::Computer(Level::Strong),
    PlayerKind::Computer(Level::Master),
];

fn main_menu(
    colours: Res<UiColours>,
    mut contexts: EguiContexts,
    mut draft: ResMut<MenuDraft>,
    library: Res<VariantLibrary>,
    mut previews: ResMut<Previews>,
    settings: Res<Settings>,
    config: Res<GameConfig>,
    game: Option<Res<Match>>,
    mut leads: Leads,
    mut start: MessageWriter<NewGameRequested>,
    mut next_state: ResMut<NextState<AppState>>,
    mut continue_game: MessageWriter<ContinueGame>,
    mut drawing: ResMut<UiDrawing>,
    mut to_top: Local<bool>,
    #[cfg(not(target_arch = "wasm32"))] mut exit: MessageWriter<AppExit>,
) -> Result {
    let lang = settings.language;
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    // The menu hides the board behind it.
    ctx.layer_painter(egui::LayerId::background())
        .rect_filled(screen, 0.0, colours.backdrop);
    let entries: Vec<Entry> = choices(&library).into_iter().cloned().collect();
    // The default is chosen once the library has loaded: chosen earlier, it was whichever
    // file had loaded first, not the named game or the list's first.
    if library.settled()
        && draft
            .selected
            .as_ref()
            .is_none_or(|s| !entries.iter().any(|e| &e.path == s))
    {
        // The game named on the command line (`--menu --variant …`), else the first.
        let named = library
            .find(&config.variant)
            .filter(|e| entries.iter().any(|c| c.path == e.path));
        draft.selected = named.or(entries.first()).map(|e| e.path.clone());
    }
    // One scrolling column on a narrow or short screen (a phone), else the list beside the
    // details.
    let narrow = screen.width() < ONE_COLUMN_BELOW || screen.height() < ONE_COLUMN_SHORTER;
    let size = if narrow {
        screen.size() - egui::vec2(16.0, 16.0)
    } else {
        egui::vec2(
            (screen.width() - 40.0).clamp(320.0, 1080.0),
            (screen.height() - 40.0).clamp(320.0, 720.0),
        )
    };
    let mut chosen_start = false;
    let mut buttons = |ui: &mut egui::Ui| {
        ui.horizontal_wrapped(|ui| {
            if game.is_some() && ui.button(tr(lang, Key::MenuContinue)).clicked() {
                continue_game.write(ContinueGame);
            }
            if ui
                .button(super::online::text::say(
                    lang,
                    super::online::text::Say::PlayOnline,
                ))
                .clicked()
            {
                // The lobby (signing in first); inviting a friend is one of its buttons.
                leads.page.set(MenuPage::Lobby);
            }
            if ui.button(learn_tr(lang, LearnKey::MenuLearn)).clicked() {
                next_state.set(AppState::Learn);
            }
            if ui.button(tr(lang, Key::MenuLoad)).clicked() {
                leads.saves.set(SavesWindow::Open);
            }
            if ui.button(tr(lang, Key::MenuSettings)).clicked() {
                leads.settings.set(SettingsWindow::Open);
            }
            #[cfg(not(target_arch = "wasm32"))]
            if ui.button(tr(lang, Key::MenuQuit)).clicked() {
                exit.write(AppExit::Success);
            }
        });
    };
    let menu = egui::Area::new(egui::Id::new("main_menu"))
        .order(egui::Order::Background)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            colours.panel_frame().show(ui, |ui| {
                ui.set_width(size.x - 24.0);
                ui.set_height(size.y - 20.0);
                ui.style_mut().visuals.override_text_color = Some(colours.text);
                ui.horizontal_wrapped(|ui| {
                    super::wordmark(ui, &colours, tr(lang, Key::MenuNewGame));
                });
                ui.separator();
                if !library.settled() && entries.is_empty() {
                    ui.label(tr(lang, Key::LoadingVariants));
                    return;
                }
                if entries.is_empty() {
                    ui.colored_label(colours.bad(), tr(lang, Key::MenuNoVariants));
                }
                let selected = entries
                    .iter()
                    .find(|e| Some(&e.path) == draft.selected.as_ref());
                if narrow {
                    // The other screens first, then the chosen game with Start, then the list
                    // to choose another (choosing one scrolls back up to its Start).
                    let mut scroll = egui::ScrollArea::vertical()
                        .id_salt("menu_column")
                        .auto_shrink([false, false]);
                    if std::mem::take(&mut *to_top) {
                        scroll = scroll.vertical_scroll_offset(0.0);
                    }
                    scroll.show(ui, |ui| {
                        buttons(ui);
                        ui.separator();
                        if let Some(entry) = selected {
                            chosen_start =
                                details(ui, true, lang, entry, &mut draft, &mut previews);
                        }
                        ui.separator();
                        ui.label(egui::RichText::new(tr(lang, Key::MenuChooseGame)).strong());
                        for entry in &entries {
                            if variant_row(ui, &colours, lang, entry, &mut draft, &mut previews) {
                                *to_top = true;
                            }
                        }
                    });
                    return;
                }
                let bottom_bar = layout::button_height(ui, 26.0) + 18.0;
                let body_height = (ui.available_height() - bottom_bar).max(100.0);
                ui.horizontal_top(|ui| {
                    ui.set_height(body_height);
                    let list_width = (ui.available_width() * 0.42).clamp(240.0, 420.0);
                    ui.vertical(|ui| {
                        ui.set_width(list_width);
                        ui.label(egui::RichText::new(tr(lang, Key::MenuChooseGame)).strong());
                        egui::ScrollArea::vertical()
                            .id_salt("variant_list")
                            .max_height(body_height - 24.0)
                            .auto_shrink([false, false])
                            .show(ui, |ui| {
                                for entry in &entries {
                                    variant_row(
                                        ui,
                                        &colours,
                                        lang,
                                        entry,
                                        &mut draft,
                                        &mut previews,
                                    );
                                }
                            });
                    });
                    ui.separator();
                    ui.vertical(|ui| {
                        if let Some(entry) = selected {
                            chosen_start =
                                details(ui, false, lang, entry, &mut draft, &mut previews);
                        }
                    });
                });
                ui.separator();
                buttons(ui);
            });
        });
    drawing.main_rect(menu.response.rect);
    if chosen_start && let Some(path) = draft.selected.clone() {
        start.write(NewGameRequested {
            path,
            players: draft.players.clone(),
        });
    }
    Ok(())
}

/// One line of the variant list: a small board, the title, a "mod" tag. Returns true when it
/// was chosen.
fn variant_row(
    ui: &mut egui::Ui,
    colours: &UiColours,
    lang: Language,
    entry: &Entry,
    draft: &mut MenuDraft,
    previews: &mut Previews,
) -> bool {
    let Some(variant) = entry.variant() else {
        return false;
    };
    let selected = draft.selected.as_ref() == Some(&entry.path);
    let (title, _) = describe(lang, variant);
    ui.horizontal(|ui| {
        let (rect, thumb) = ui.allocate_exact_size(egui::vec2(44.0, 44.0), egui::Sense::click());
        let preview = previews.of(variant);
        super::preview::draw(
            ui.painter(),
            rect,
            &preview.layout,
            &preview.snapshot,
            &preview.seats,
        );
        let mut text = egui::RichText::new(title);
        if selected {
            text = text.strong().color(colours.accent());
        }
        // The title on the left; a mod says so on the right.
        let tag = match entry.origin {
            Origin::Mod => tr(lang, Key::MenuModTag),
            _ => "",
        };
        let label = ui.add(
            egui::Button::selectable(selected, text)
                .right_text(egui::RichText::new(tag).small().weak())
                .wrap()
                .min_size(egui::vec2(ui.available_width(), 44.0)),
        );
        if thumb.clicked() || label.clicked() {
            draft.selected = Some(entry.path.clone());
            return true;
        }
        false
    })
    .inner
}

/// The chosen variant: its board, description, who moves first, the players and Start.
/// Returns true when Start was clicked.
fn details(
    ui: &mut egui::Ui,
    narrow: bool,
    lang: Language,
    entry: &Entry,
    draft: &mut MenuDraft,
    previews: &mut Previews,
) -> bool {
    let Some(variant) = entry.variant() else {
        return false;
    };
    let (title, summary) = describe(lang, variant);
    let variant = &draft.seated(variant);
    let preview = previews.of(variant);
    let seats = SeatNames::of_variant(variant);
    ui.heading(title);
    ui.label(summary);
    ui.label(
        egui::RichText::new(trf(
            lang,
            Key::MenuMovesFirst,
            &[
                ("Side", &side(lang, &seats, preview.first)),
                ("side", &side_lower(lang, &seats, preview.first)),
            ],
        ))
        .small(),
    );
    let board_side = if narrow {
        (ui.available_width() * 0.7).clamp(100.0, 300.0)
    } else {
        // Room under the board for the players and Start.
        let rows =
            variant.players() as f32 + 1.0 + f32::from(u8::from(variant.player_counts().len() > 1));
        let reserve = 100.0 + rows * layout::button_height(ui, 26.0);
        (ui.available_height() - reserve)
            .min(ui.available_width())
            .clamp(120.0, 420.0)
    };
    let (rect, _) = ui.allocate_exact_size(
        egui::vec2(ui.available_width(), board_side),
        egui::Sense::hover(),
    );
    let board = egui::Rect::from_center_size(rect.center(), egui::vec2(board_side, board_side));
    super::preview::draw(
        ui.painter(),
        board,
        &preview.layout,
        &preview.snapshot,
        &preview.seats,
    );
    ui.add_space(6.0);
    // The table: how many play, for a variant that offers several.
    let counts = variant.player_counts();
    // A table chosen in this frame: the seats below are this frame's; the next frame shows
    // the new table's.
    let mut table_chosen = false;
    if counts.len() > 1 {
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(tr(lang, Key::MenuSeatCount)).strong());
            for n in counts {
                let chosen = n == variant.players();
                let button = egui::Button::selectable(chosen, egui::RichText::new(n.to_string()))
                    .min_size(egui::vec2(layout::button_height(ui, 32.0), 0.0));
                if ui.add(button).clicked() && !chosen {
                    draft.players = draft.players.fitted(n);
                    table_chosen = true;
                }
            }
        });
    }
    ui.label(egui::RichText::new(tr(lang, Key::MenuPlayers)).strong());
    let mut players = draft.players.fitted(variant.players());
    egui::Grid::new("menu_players")
        .num_columns(2)
        .spacing(egui::vec2(12.0, 6.0))
        .show(ui, |ui| {
            for c in Seat::all(variant.players()) {
                ui.horizontal(|ui| {
                    super::seat_chip::chip(ui, super::seat_chip::look(&seats, c), 16.0);
                    ui.label(side(lang, &seats, c));
                });
                let mut current = players.of(c);
                egui::ComboBox::from_id_salt(("menu_player", c.index()))
                    .selected_text(player(lang, current))
                    .width(220.0_f32.min(ui.available_width() - 8.0))
                    .show_ui(ui, |ui| {
                        for kind in PLAYER_CHOICES {
                            ui.selectable_value(&mut current, kind, player(lang, kind));
                        }
                    });
                players.set(c, current);
                ui.end_row();
            }
        });
    if players != draft.players && !table_chosen {
        draft.players = players;
    }
    ui.add_space(6.0);
    ui.add(
        egui::Button::new(
            egui::RichText::new(tr(lang, Key::MenuStart))
                .size(18.0)
                .strong(),
        )
        .min_size(egui::vec2(
            200.0_f32.min(ui.available_width()),
            layout::button_height(ui, 36.0),
        )),
    )
    .clicked()
}
