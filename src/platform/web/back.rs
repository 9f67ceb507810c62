//! "Back one screen" asked by the page (Telegram's back button, see web/index.html): the page
//! calls `window.boardcraftBack()`, which this module installs; the next frame closes the
//! topmost window, or leaves the screen: a Learn exercise goes back to Learn, a game, Learn or
//! a failed start to the main menu (what their own buttons do). `data-can-go-back` on `<body>`
//! says whether there is anywhere to go back to ("1") or not (""), so the page shows its back
//! button only then.
use std::cell::Cell;

use bevy::prelude::*;
use wasm_bindgen::{JsValue, closure::Closure};

use crate::{
    game::match_state::AppState,
    learn::session::{LearnSession, LeaveExercise},
    ui::screens::{MenuPage, OnlineWindow, ResignDialog, SavesWindow, SettingsWindow},
};

thread_local! {
    static REQUESTED: Cell<bool> = const { Cell::new(false) };
}

pub fn plugin(app: &mut App) {
    install_hook();
    app.add_systems(Update, go_back);
}

fn install_hook() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let back = Closure::<dyn Fn()>::new(|| REQUESTED.with(|r| r.set(true)));
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str("boardcraftBack"), back.as_ref());
    back.forget();
}

/// The windows open now, and whether the main menu shows the Lobby.
#[derive(bevy::ecs::system::SystemParam)]
struct OpenNow<'w> {
    resign: Option<Res<'w, State<ResignDialog>>>,
    settings: Option<Res<'w, State<SettingsWindow>>>,
    saves: Option<Res<'w, State<SavesWindow>>>,
    online: Option<Res<'w, State<OnlineWindow>>>,
    page: Option<Res<'w, State<MenuPage>>>,
}

/// Closing them.
#[derive(bevy::ecs::system::SystemParam)]
struct Close<'w> {
    resign: ResMut<'w, NextState<ResignDialog>>,
    settings: ResMut<'w, NextState<SettingsWindow>>,
    saves: ResMut<'w, NextState<SavesWindow>>,
    online: ResMut<'w, NextState<OnlineWindow>>,
    page: ResMut<'w, NextState<MenuPage>>,
}

fn go_back(
    state: Option<Res<State<AppState>>>,
    mut next_state: ResMut<NextState<AppState>>,
    open: OpenNow,
    mut close: Close,
    session: Option<Res<LearnSession>>,
    mut leave: MessageWriter<LeaveExercise>,
    mut published: Local<Option<bool>>,
) {
    let state = state.map(|s| *s.get());
    let exercise = session.is_some_and(|s| s.active.is_some());
    // The topmost thing to close, then the screen to leave.
    let resign = open
        .resign
        .is_some_and(|s| *s.get() == ResignDialog::Asking);
    let settings = open
        .settings
        .is_some_and(|s| *s.get() == SettingsWindow::Open);
    let saves = open.saves.is_some_and(|s| *s.get() == SavesWindow::Open);
    let online = open.online.is_some_and(|s| *s.get() == OnlineWindow::Open);
    let lobby =
        state == Some(AppState::Menu) && open.page.is_some_and(|p| *p.get() == MenuPage::Lobby);
    let window_open = resign || settings || saves || online || lobby;
    let can = window_open
        || matches!(
            state,
            Some(AppState::InGame | AppState::Learn | AppState::Failed)
        );
    if *published != Some(can) {
        if let Some(body) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.body())
        {
            let _ = body.set_attribute("data-can-go-back", if can { "1" } else { "" });
        }
        *published = Some(can);
    }
    if !REQUESTED.with(|r| r.replace(false)) {
        return;
    }
    if resign {
        close.resign.set(ResignDialog::Closed);
        return;
    }
    if settings {
        close.settings.set(SettingsWindow::Closed);
        return;
    }
    if saves {
        close.saves.set(SavesWindow::Closed);
        return;
    }
    if online {
        close.online.set(OnlineWindow::Closed);
        return;
    }
    if lobby {
        // Leaving the Lobby screen leaves the lobby (`ui::online::lobby`).
        close.page.set(MenuPage::Main);
        return;
    }
    match state {
        Some(AppState::InGame) if exercise => {
            leave.write(LeaveExercise);
        }
        Some(AppState::InGame | AppState::Learn | AppState::Failed) => {
            next_state.set(AppState::Menu);
        }
        _ => {}
    }
}
