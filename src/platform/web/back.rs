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
    online::lobby::LobbyCommand,
    ui::{
        UiWindows,
        online::{lobby::LobbyScreen, play::OnlineWindow},
    },
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

fn go_back(
    state: Option<Res<State<AppState>>>,
    mut next_state: ResMut<NextState<AppState>>,
    mut windows: Option<ResMut<UiWindows>>,
    mut online: Option<ResMut<OnlineWindow>>,
    mut lobby: Option<ResMut<LobbyScreen>>,
    mut lobby_commands: MessageWriter<LobbyCommand>,
    session: Option<Res<LearnSession>>,
    mut leave: MessageWriter<LeaveExercise>,
    mut published: Local<Option<bool>>,
) {
    let state = state.map(|s| *s.get());
    let exercise = session.is_some_and(|s| s.active.is_some());
    // The topmost thing to close, then the screen to leave.
    let window_open = windows
        .as_ref()
        .is_some_and(|w| w.confirm_resign || w.settings || w.saves)
        || online.as_ref().is_some_and(|o| o.open)
        || (state == Some(AppState::Menu) && lobby.as_ref().is_some_and(|l| l.open));
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
    if let Some(w) = windows.as_mut().filter(|_| window_open) {
        if w.confirm_resign {
            w.confirm_resign = false;
            return;
        }
        if w.settings {
            w.settings = false;
            return;
        }
        if w.saves {
            w.saves = false;
            return;
        }
    }
    if let Some(o) = online.as_mut().filter(|o| o.open) {
        o.open = false;
        return;
    }
    if let Some(l) = lobby
        .as_mut()
        .filter(|l| l.open && state == Some(AppState::Menu))
    {
        l.open = false;
        lobby_commands.write(LobbyCommand::Leave);
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
