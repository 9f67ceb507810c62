//! The game's state on the page: [`GameStatus`] as `data-*` attributes of `<body>`, e.g.
//! `<body data-app-state="in-game" data-ply="3" data-last-move="b7:d7" …>`, plus
//! `data-first-frame-ms` (milliseconds from the start of the page load to the first frame of
//! the game). The page's CSS hides the loading indicator once `data-app-state` leaves
//! `loading`; the browser test (`web/test/`) reads the attributes to check moves.
//!
//! For the browser test it also publishes what the UI drew ([`UiShown`]): `data-ui-rect`
//! (`x y width height` of the side panel or the menu, CSS pixels) and `data-move-list` (the move
//! list's entries, space-separated), and where each cell of the board is on the screen:
//! `data-cells`, a JSON object `{"f3": [x, y], …}` in CSS pixels (for taps and clicks), and the
//! Learn exercise on the board: `data-learn`, `<key> <progress>` (e.g. `puzzle:focus-28
//! trying`, then `solved`), empty when none.
use bevy::prelude::*;

use crate::{
    game::status::GameStatus,
    learn::session::{LearnSession, Progress},
    ui::shown::UiShown,
    view::{board::Board, camera::OrbitCamera},
};

pub fn plugin(app: &mut App) {
    app.add_systems(
        Last,
        (
            publish_status,
            mark_first_frame,
            publish_ui,
            publish_cells,
            publish_learn,
        ),
    );
}

fn set(name: &str, value: &str) {
    if let Some(body) = body()
        && let Err(e) = body.set_attribute(&format!("data-{name}"), value)
    {
        warn!("cannot set data-{name} on the page: {e:?}");
    }
}

fn publish_ui(shown: Res<UiShown>) {
    if !shown.is_changed() {
        return;
    }
    let rect = shown.rect.map_or_else(String::new, |r| {
        format!("{} {} {} {}", r.min.x, r.min.y, r.width(), r.height())
    });
    set("ui-rect", &rect);
    set("move-list", &shown.moves.join(" "));
}

/// The cells' screen positions, whenever the camera, the window or the board changed.
fn publish_cells(
    board: Option<Res<Board>>,
    cameras: Query<(Ref<Camera>, Ref<GlobalTransform>), With<OrbitCamera>>,
    mut published: Local<String>,
) {
    let (Some(board), Ok((camera, transform))) = (board, cameras.single()) else {
        return;
    };
    if !(board.is_changed() || camera.is_changed() || transform.is_changed()) {
        return;
    }
    let offset = camera.logical_viewport_rect().map_or(Vec2::ZERO, |r| r.min);
    let cells: Vec<String> = board
        .layout
        .cells
        .iter()
        .enumerate()
        .filter_map(|(i, cell)| {
            let world = board
                .layout
                .slot_world(crate::view::model::CellId(i as u16), 0);
            let at = camera.world_to_viewport(&transform, world).ok()? + offset;
            Some(format!("\"{}\":[{:.1},{:.1}]", cell.name, at.x, at.y))
        })
        .collect();
    let text = format!("{{{}}}", cells.join(","));
    if *published != text {
        set("cells", &text);
        *published = text;
    }
}

/// The exercise on the board and how far the player is with it.
fn publish_learn(session: Option<Res<LearnSession>>, mut published: Local<Option<String>>) {
    let text = session
        .and_then(|s| {
            s.active.as_ref().map(|a| {
                let progress = match a.progress {
                    Progress::Trying => "trying",
                    Progress::Wrong => "wrong",
                    Progress::Solved => "solved",
                    Progress::Showing { .. } => "showing",
                    Progress::Shown => "shown",
                };
                format!("{} {progress}", a.id.key())
            })
        })
        .unwrap_or_default();
    if published.as_deref() != Some(text.as_str()) {
        set("learn", &text);
        *published = Some(text);
    }
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

/// The first frame in which the game (or the menu) is on: its time since the page started
/// loading.
fn mark_first_frame(status: Res<GameStatus>, mut done: Local<bool>) {
    if *done || !matches!(status.app_state, "in-game" | "menu") {
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
