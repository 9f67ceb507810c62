//! Colours from outside the game (a Telegram theme): parsing them, egui's visuals from them,
//! and emphasis colours that stay legible on dark and light panels.
use bevy::prelude::*;
use bevy_egui::egui::Color32;
use boardcraft::{
    ui::{
        UiColours, colours,
        theme::{self, PageTheme, hex, parse_hex},
    },
    view::board::palette,
};

#[test]
fn reads_telegram_colours() {
    assert_eq!(
        parse_hex("#17212b"),
        Some(Color32::from_rgb(0x17, 0x21, 0x2b))
    );
    assert_eq!(parse_hex("#fff"), Some(Color32::WHITE));
    assert_eq!(parse_hex("17212b"), None);
    assert_eq!(parse_hex("#12345"), None);
    assert_eq!(parse_hex("#gg0000"), None);
    assert_eq!(hex(Color32::from_rgb(0x52, 0x88, 0xc1)), "#5288c1");
}

#[test]
fn a_theme_colours_panels_text_and_buttons() {
    let theme = PageTheme {
        bg: parse_hex("#ffffff"),
        text: parse_hex("#000000"),
        button: parse_hex("#5288c1"),
        button_text: parse_hex("#ffffff"),
        secondary_bg: None,
    };
    let v = theme.visuals();
    assert_eq!(v.panel_fill, Color32::WHITE);
    assert!(
        !v.dark_mode,
        "a white background takes egui's light visuals"
    );
    assert_eq!(
        v.widgets.inactive.weak_bg_fill,
        Color32::from_rgb(0x52, 0x88, 0xc1)
    );
    assert_eq!(v.widgets.inactive.fg_stroke.color, Color32::WHITE);
    assert_eq!(theme.text_colour(), Color32::BLACK);
    assert_eq!(
        PageTheme::default().panel(),
        Color32::from_rgba_unmultiplied(24, 20, 17, 235)
    );
    assert_eq!(PageTheme::default().clear_colour(), palette::TABLE);
}

/// WCAG contrast ratio of two opaque colours.
fn contrast(a: Color32, b: Color32) -> f32 {
    let lum = |c: Color32| {
        let ch = |v: u8| {
            let v = v as f32 / 255.0;
            if v <= 0.03928 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * ch(c.r()) + 0.7152 * ch(c.g()) + 0.0722 * ch(c.b())
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn emphasis_colours_read_on_dark_and_light_panels() {
    use colours::{ACCENT, BAD, GOOD, WARN};
    let dark = Color32::from_rgb(24, 20, 17);
    // Telegram's day theme: white, and its light grey secondary background.
    for light in [Color32::WHITE, Color32::from_rgb(0xef, 0xef, 0xf3)] {
        for (name, e) in [
            ("accent", ACCENT),
            ("good", GOOD),
            ("warn", WARN),
            ("bad", BAD),
        ] {
            // 4.5:1 is WCAG AA for body text.
            assert!(contrast(e.on_dark, dark) >= 4.5, "{name} on dark panels");
            assert!(
                contrast(e.on_light, light) >= 4.5,
                "{name} on {light:?}: {:.2}",
                contrast(e.on_light, light)
            );
        }
    }
}

#[test]
fn emphasis_follows_the_theme() {
    // Each app has its own colours: a light theme in one leaves the other's dark.
    let mut light_app = App::new();
    light_app.add_plugins(theme::plugin);
    light_app.insert_resource(PageTheme {
        bg: parse_hex("#ffffff"),
        ..PageTheme::default()
    });
    let mut dark_app = App::new();
    dark_app.add_plugins(theme::plugin);
    light_app.update();
    dark_app.update();
    let light = *light_app.world().resource::<UiColours>();
    assert_eq!(light.accent(), colours::ACCENT.on_light);
    assert_eq!(light.text, Color32::from_gray(20));
    let dark = *dark_app.world().resource::<UiColours>();
    assert_eq!(dark.accent(), colours::ACCENT.on_dark);
    assert_eq!(dark.bad(), colours::BAD.on_dark);
    // Back to the game's own colours when the theme goes.
    light_app.insert_resource(PageTheme::default());
    light_app.update();
    assert_eq!(*light_app.world().resource::<UiColours>(), dark);
}
