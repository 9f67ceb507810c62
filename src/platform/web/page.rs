//! The game's state on the page: [`GameStatus`] as `data-*` attributes of `<body>`, e.g.
//! `<body data-app-state="in-game" data-ply="3" data-last-move="b7:d7" …>`, plus
//! `data-first-frame-ms` (milliseconds from the start of the page load to the first frame of
//! the game). The page's CSS hides the loading indicator once `data-app-state` leaves
//! `loading`; the browser test (`web/test/`) reads the attributes to check moves.
use bevy::prelude::*;

use crate::game::status::GameStatus;

pub fn plugin(app: &mut App) {
    app.add_systems(Last, (publish_status, mark_first_frame));
}

fn body() -> Option<web_sys::HtmlElement> {
    web_sys::window()?.document()?.body()
}

/// Writes the attributes that changed since the last call.
fn publish_status(status: Res<GameStatus>, mut published: Local<Option<GameStatus>>) {
    if !status.is_changed() {
        return;
    }
    let Some(body) = body() else {
        return;
    };
    let before = published.as_ref().map(GameStatus::fields);
    for (i, (name, value)) in status.fields().into_iter().enumerate() {
        if before.as_ref().is_some_and(|b| b[i].1 == value) {
            continue;
        }
        if let Err(e) = body.set_attribute(&format!("data-{name}"), &value) {
            warn!("cannot set data-{name} on the page: {e:?}");
        }
    }
    *published = Some(status.clone());
}

/// The first frame in which the game is on: its time since the page started loading.
fn mark_first_frame(status: Res<GameStatus>, mut done: Local<bool>) {
    if *done || status.app_state != "in-game" {
        return;
    }
    *done = true;
    let Some(now) = web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
    else {
        return;
    };
    info!("first frame of the game {now:.0} ms after the page load started");
    if let Some(body) = body() {
        let _ = body.set_attribute("data-first-frame-ms", &format!("{now:.0}"));
    }
}
