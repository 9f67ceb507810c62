//! Telegram's theme, passed in by the page: web/index.html sets `window.boardcraftTheme` to a
//! copy of `Telegram.WebApp.themeParams` inside Telegram (a new object on every theme
//! change); each frame the game compares it with the one it read and, when it is another,
//! reads its colours into [`PageTheme`] (`ui::theme` applies them). The page publishes what
//! the game applied as `data-theme` on `<body>`: `bg=#17212b panel=#17212b text=#f5f5f5
//! button=#5288c1 button-text=#ffffff` (the table's colour, the panels' fill, the text and
//! the buttons' colours as egui draws them), empty while the game wears its own colours.
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use wasm_bindgen::JsValue;

use crate::ui::theme::{PageTheme, UiColours, hex, parse_hex};

pub fn plugin(app: &mut App) {
    app.init_resource::<PageTheme>()
        .add_systems(First, read_theme)
        .add_systems(Last, publish_theme);
}

fn read_theme(mut last: Local<Option<JsValue>>, mut theme: ResMut<PageTheme>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let value = js_sys::Reflect::get(&window, &JsValue::from_str("boardcraftTheme"))
        .unwrap_or(JsValue::UNDEFINED);
    if last.as_ref().is_some_and(|l| js_sys::Object::is(l, &value)) {
        return;
    }
    *last = Some(value.clone());
    let next = if value.is_object() {
        let colour = |name: &str| {
            js_sys::Reflect::get(&value, &JsValue::from_str(name))
                .ok()
                .and_then(|v| v.as_string())
                .and_then(|s| parse_hex(&s))
        };
        PageTheme {
            bg: colour("bg_color"),
            text: colour("text_color"),
            button: colour("button_color"),
            button_text: colour("button_text_color"),
            secondary_bg: colour("secondary_bg_color"),
        }
    } else {
        PageTheme::default()
    };
    if *theme != next {
        info!("the page's theme: {next:?}");
        *theme = next;
    }
}

fn publish_theme(
    theme: Res<PageTheme>,
    colours: Res<UiColours>,
    clear: Res<ClearColor>,
    mut contexts: EguiContexts,
    mut published: Local<Option<String>>,
) {
    let text_now = if theme.is_empty() {
        String::new()
    } else {
        let Ok(ctx) = contexts.ctx_mut() else {
            return;
        };
        let button = ctx.global_style().visuals.widgets.inactive;
        let [r, g, b, _] = clear.0.to_srgba().to_u8_array();
        format!(
            "bg={} panel={} text={} button={} button-text={}",
            hex(bevy_egui::egui::Color32::from_rgb(r, g, b)),
            hex(colours.panel),
            hex(colours.text),
            hex(button.weak_bg_fill),
            hex(button.fg_stroke.color),
        )
    };
    if published.as_deref() != Some(text_now.as_str()) {
        if let Some(body) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.body())
        {
            let _ = body.set_attribute("data-theme", &text_now);
        }
        *published = Some(text_now);
    }
}
