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
//!
//! And how the screen is laid out ([`UiAudit`], CSS pixels): `data-layout`, a JSON object
//! `{"shape": "portrait", "touch": true, "viewport": [w, h], "board": [x, y, w, h] or null,
//! "areas": [[order, x, y, w, h], …], "buttons": [[x, y, w, h], …], "clipped": ["why: text", …],
//! "smallestText": 14}` (the viewport is the window's size as the game last laid it out; the
//! board's rectangle is the camera's viewport while a game is on; the areas are egui's panels,
//! `background`, and windows, `middle`); and `data-camera`, `<zoom> <distance>` of the 3D camera
//! (distance from the board's centre, in cells); `data-graphics`, `full` or `light`, what the 3D
//! view draws (`crate::view::graphics`).
//!
//! The browser test opens windows through `window.boardcraftUi.open(name)` (`settings`,
//! `saves`, `online`), as the menu's buttons do.
use bevy::prelude::*;

use crate::{
    game::match_state::AppState,
    game::status::GameStatus,
    learn::session::{LearnSession, Progress},
    ui::shown::UiShown,
    ui::{
        audit::UiAudit,
        layout::{CssPixels, Layout},
        screens::{MenuPage, OnlineWindow, SavesWindow, SettingsWindow},
    },
    view::{board::Board, camera::OrbitCamera, graphics::LightGraphics},
};

thread_local! {
    /// Windows the page asked to open, for the next frame.
    static OPEN: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn install_ui_hook() {
    use wasm_bindgen::{JsValue, closure::Closure};
    let Some(window) = web_sys::window() else {
        return;
    };
    let hook = js_sys::Object::new();
    let open = Closure::<dyn Fn(String) -> bool>::new(|name: String| {
        let known = matches!(name.as_str(), "settings" | "saves" | "online" | "lobby");
        if known {
            OPEN.with(|o| o.borrow_mut().push(name));
        }
        known
    });
    let _ = js_sys::Reflect::set(&hook, &JsValue::from_str("open"), open.as_ref());
    open.forget();
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str("boardcraftUi"), &hook);
}

fn open_asked_windows(
    mut settings: ResMut<NextState<SettingsWindow>>,
    mut saves: ResMut<NextState<SavesWindow>>,
    mut online: ResMut<NextState<OnlineWindow>>,
    mut page: ResMut<NextState<MenuPage>>,
) {
    for name in OPEN.with(|o| std::mem::take(&mut *o.borrow_mut())) {
        match name.as_str() {
            "settings" => settings.set(SettingsWindow::Open),
            "saves" => saves.set(SavesWindow::Open),
            "online" => online.set(OnlineWindow::Open),
            "lobby" => page.set(MenuPage::Lobby),
            _ => {}
        }
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, install_ui_hook)
        .add_systems(Update, open_asked_windows);
    app.init_resource::<UiAudit>()
        .add_systems(
            Last,
            (
                publish_status,
                mark_first_frame,
                publish_ui,
                publish_cells,
                publish_learn,
                publish_layout,
                publish_camera,
                publish_graphics,
            ),
        )
        .add_systems(First, measure_css_pixels)
        .init_resource::<LoadFrames>()
        .add_systems(First, frame_began);
}

/// CSS pixels per logical pixel of the window: the canvas's width on the page over the
/// window's logical width.
fn measure_css_pixels(
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut css: ResMut<CssPixels>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let Some(canvas) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("bevy"))
    else {
        return;
    };
    let on_page = canvas.get_bounding_client_rect().width() as f32;
    let logical = window.resolution.width();
    if on_page < 1.0 || logical < 1.0 {
        return;
    }
    let ratio = on_page / logical;
    if (ratio - css.0).abs() > 0.01 {
        info!("a logical pixel of the window is {ratio:.3} CSS pixels of the page");
        css.0 = ratio;
    }
}

fn rect_json(r: Rect) -> String {
    format!(
        "[{:.1},{:.1},{:.1},{:.1}]",
        r.min.x,
        r.min.y,
        r.width(),
        r.height()
    )
}

/// The layout: the shape, the board's rectangle, egui's areas and buttons, clipped texts.
fn publish_layout(
    css: Res<CssPixels>,
    audit: Res<UiAudit>,
    layout: Res<Layout>,
    state: Res<State<AppState>>,
    cameras: Query<&Camera, With<OrbitCamera>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut published: Local<String>,
) {
    let viewport = windows.single().map_or_else(
        |_| "null".to_owned(),
        |w| {
            format!(
                "[{:.1},{:.1}]",
                w.resolution.width() * css.0,
                w.resolution.height() * css.0
            )
        },
    );
    let board = cameras
        .single()
        .ok()
        .filter(|_| *state.get() == AppState::InGame)
        .and_then(|c| c.logical_viewport_rect())
        .map_or_else(
            || "null".to_owned(),
            |r| rect_json(Rect::from_corners(r.min * css.0, r.max * css.0)),
        );
    let areas: Vec<String> = audit
        .areas
        .iter()
        .map(|(order, r)| {
            let r = rect_json(*r);
            format!("[\"{order}\",{}", &r[1..])
        })
        .collect();
    let buttons: Vec<String> = audit.buttons.iter().map(|r| rect_json(*r)).collect();
    let clipped: Vec<String> = audit.clipped.iter().map(|t| format!("{t:?}")).collect();
    let shape = layout.shape.name();
    let text = format!(
        "{{\"shape\":\"{shape}\",\"touch\":{},\"viewport\":{viewport},\"board\":{board},\"areas\":[{}],\"buttons\":[{}],\"clipped\":[{}],\"smallestText\":{}}}",
        layout.touch,
        areas.join(","),
        buttons.join(","),
        clipped.join(","),
        audit
            .smallest_text
            .map_or_else(|| "null".to_owned(), |s| format!("{s:.1}")),
    );
    if *published != text {
        set("layout", &text);
        *published = text;
    }
}

/// The 3D camera's zoom and distance from the board's centre.
fn publish_camera(cameras: Query<(&OrbitCamera, &GlobalTransform)>, mut published: Local<String>) {
    let Ok((cam, transform)) = cameras.single() else {
        return;
    };
    let text = format!("{:.3} {:.2}", cam.zoom, transform.translation().length());
    if *published != text {
        set("camera", &text);
        *published = text;
    }
}

/// What the 3D view draws: `full` or `light` (see `view::graphics`).
fn publish_graphics(light: Res<LightGraphics>) {
    if light.is_changed() {
        set("graphics", if light.0 { "light" } else { "full" });
    }
}

fn set(name: &str, value: &str) {
    if let Some(body) = body()
        && let Err(e) = body.set_attribute(&format!("data-{name}"), value)
    {
        warn!("cannot set data-{name} on the page: {e:?}");
    }
}

fn publish_ui(shown: Res<UiShown>, settings: Res<crate::settings::Settings>) {
    if !shown.is_changed() {
        return;
    }
    // egui's points are the UI scale in CSS pixels (`ui::layout::CssPixels`).
    let s = settings.ui_scale.clamp(0.75, 2.0);
    let rect = shown.rect.map_or_else(String::new, |r| {
        format!(
            "{} {} {} {}",
            r.min.x * s,
            r.min.y * s,
            r.width() * s,
            r.height() * s
        )
    });
    set("ui-rect", &rect);
    set("move-list", &shown.moves.join(" "));
}

/// The cells' screen positions, written whenever they changed. Computed every frame (a few
/// dozen projections): gating on the camera's change ticks once left stale positions on the
/// page when the window took the canvas's size in the first frames (the phone test tapped
/// where the board had been).
fn publish_cells(
    css: Res<CssPixels>,
    board: Option<Res<Board>>,
    cameras: Query<(&Camera, &GlobalTransform), With<OrbitCamera>>,
    mut published: Local<String>,
) {
    let (Some(board), Ok((camera, transform))) = (board, cameras.single()) else {
        return;
    };
    let cells: Vec<String> = board
        .layout
        .cells
        .iter()
        .enumerate()
        .filter_map(|(i, cell)| {
            let world = board
                .layout
                .slot_world(crate::view::model::CellId(i as u16), 0);
            // Window coordinates: Bevy adds the viewport's corner itself.
            let at = camera.world_to_viewport(transform, world).ok()? * css.0;
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

/// Marks a moment of the page's load on `<body>`: `data-<name>-ms`, milliseconds since the
/// page load started (the browser test's load measurement reads them, with the page's own).
pub fn mark_load_time(name: &str) -> Option<f64> {
    let now = web_sys::window()?.performance()?.now();
    body()?
        .set_attribute(&format!("data-{name}-ms"), &format!("{now:.0}"))
        .ok()?;
    Some(now)
}

fn now_ms() -> Option<f64> {
    Some(web_sys::window()?.performance()?.now())
}

/// The frames before the first frame of the game: when each began (`First`) and when its
/// main-world update ended (`Last`); the rest of a frame is the render world and the browser.
#[derive(Resource, Default)]
struct LoadFrames {
    frames: Vec<(f64, f64)>,
    done: bool,
    drawn: bool,
}

/// Also marks `data-first-frame-drawn-ms`: the start of the frame after the first frame of the
/// game, when that frame's render (its pipelines compiled, its commands submitted) is over; the
/// browser shows it at its next paint.
fn frame_began(mut load: ResMut<LoadFrames>) {
    if !load.done {
        let now = now_ms().unwrap_or_default();
        load.frames.push((now, now));
    } else if !load.drawn {
        load.drawn = true;
        mark_load_time("first-frame-drawn");
    }
}

/// The first frame the app ran (`data-first-update-ms`), and the first in which the game (or
/// the menu) is on (`data-first-frame-ms`): their times since the page started loading; and
/// every frame until then (`data-load-frames`: `<began>-<updated>` per frame, space-separated).
fn mark_first_frame(status: Res<GameStatus>, mut load: ResMut<LoadFrames>) {
    if load.done {
        return;
    }
    let now = now_ms().unwrap_or_default();
    if let Some(frame) = load.frames.last_mut() {
        frame.1 = now;
    }
    if load.frames.len() == 1 {
        mark_load_time("first-update");
    }
    if !matches!(status.app_state, "in-game" | "menu") {
        return;
    }
    load.done = true;
    if let Some(now) = mark_load_time("first-frame") {
        info!("first frame of the game {now:.0} ms after the page load started");
    }
    let frames: Vec<String> = load
        .frames
        .iter()
        .map(|(began, updated)| format!("{began:.0}-{updated:.0}"))
        .collect();
    if let Some(body) = body() {
        let _ = body.set_attribute("data-load-frames", &frames.join(" "));
    }
}
