//! Colours from outside the game: inside Telegram (a Mini App) the page passes Telegram's theme
//! (`themeParams`: `bg_color`, `text_color`, `button_color`, `button_text_color`,
//! `secondary_bg_color`; see web/index.html and `platform::web`), and the game wears it: the
//! table around the board ([`ClearColor`]) takes the background, the panels the secondary
//! background (else the background), text the text colour, buttons the button colours. Without
//! a theme (the desktop, a browser outside Telegram) the game keeps its own dark wood.
//!
//! The screens read the colours now from the [`UiColours`] resource (the panels' fill, the
//! backdrop of the menu and Learn, the text colour and the emphasis colours), which follows
//! [`PageTheme`]; each app has its own, so apps in one test binary do not share a theme.
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32};

use crate::view::board::palette;

/// A theme passed in by the page; every colour optional (Telegram leaves some out).
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct PageTheme {
    pub bg: Option<Color32>,
    pub text: Option<Color32>,
    pub button: Option<Color32>,
    pub button_text: Option<Color32>,
    pub secondary_bg: Option<Color32>,
}

/// The panels' own fill: dark wood, slightly translucent.
const PANEL: Color32 = Color32::from_rgba_unmultiplied_const(24, 20, 17, 235);
/// The UI's own text colour.
const TEXT: Color32 = Color32::from_gray(235);

/// What the full-screen screens (the menu, Learn) draw behind their panels.
const BACKDROP: Color32 = Color32::from_rgb(28, 23, 19);

/// `#rrggbb` (Telegram's format) or `#rgb` into a colour.
pub fn parse_hex(s: &str) -> Option<Color32> {
    let hex = s.trim().strip_prefix('#')?;
    let digits: Vec<u8> = hex
        .chars()
        .map(|c| c.to_digit(16).map(|d| d as u8))
        .collect::<Option<_>>()?;
    match digits[..] {
        [r1, r0, g1, g0, b1, b0] => {
            Some(Color32::from_rgb(r1 * 16 + r0, g1 * 16 + g0, b1 * 16 + b0))
        }
        [r, g, b] => Some(Color32::from_rgb(r * 17, g * 17, b * 17)),
        _ => None,
    }
}

/// `#rrggbb`.
pub fn hex(c: Color32) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r(), c.g(), c.b())
}

fn is_light(c: Color32) -> bool {
    // Relative luminance, roughly (sRGB weights on the encoded values).
    0.2126 * c.r() as f32 + 0.7152 * c.g() as f32 + 0.0722 * c.b() as f32 > 140.0
}

impl PageTheme {
    pub fn is_empty(&self) -> bool {
        *self == PageTheme::default()
    }

    /// The panels' fill: the secondary background, else the background (opaque), else ours.
    pub fn panel(&self) -> Color32 {
        self.secondary_bg.or(self.bg).unwrap_or(PANEL)
    }

    /// The text colour: the theme's, else ours (dark text on a light theme without one).
    pub fn text_colour(&self) -> Color32 {
        self.text.unwrap_or_else(|| {
            if is_light(self.panel()) {
                Color32::from_gray(20)
            } else {
                TEXT
            }
        })
    }

    /// egui's visuals for this theme: egui's dark or light ones (by the panels' colour) with the
    /// theme's colours on the panels, windows, text and buttons.
    pub fn visuals(&self) -> egui::Visuals {
        if self.is_empty() {
            return egui::Visuals::dark();
        }
        let panel = self.panel();
        let mut v = if is_light(panel) {
            egui::Visuals::light()
        } else {
            egui::Visuals::dark()
        };
        v.panel_fill = panel;
        v.window_fill = panel;
        let text = self.text_colour();
        v.widgets.noninteractive.fg_stroke.color = text;
        if let Some(button) = self.button {
            for w in [&mut v.widgets.inactive, &mut v.widgets.hovered] {
                w.weak_bg_fill = button;
                w.bg_fill = button;
            }
            v.widgets.hovered.weak_bg_fill = button.gamma_multiply(0.85);
            v.widgets.active.weak_bg_fill = button.gamma_multiply(0.7);
            v.widgets.active.bg_fill = button.gamma_multiply(0.7);
            v.selection.bg_fill = button;
        }
        if let Some(button_text) = self.button_text {
            for w in [
                &mut v.widgets.inactive,
                &mut v.widgets.hovered,
                &mut v.widgets.active,
            ] {
                w.fg_stroke.color = button_text;
            }
            v.selection.stroke.color = button_text;
        }
        v
    }

    /// The table around the board: the background, else the game's own.
    pub fn clear_colour(&self) -> Color {
        self.bg
            .map_or(palette::TABLE, |c| Color::srgb_u8(c.r(), c.g(), c.b()))
    }

    /// The UI's colours under this theme.
    pub fn colours(&self) -> UiColours {
        UiColours {
            panel: self.panel(),
            backdrop: self.bg.unwrap_or(BACKDROP),
            text: self.text_colour(),
            light: is_light(self.panel()),
        }
    }
}

/// The UI's colours now, the page's theme's or the game's own: what the screens draw their
/// panels, backdrops, text and emphasis with. Set from [`PageTheme`] whenever it changes.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct UiColours {
    /// The panels' fill.
    pub panel: Color32,
    /// Behind the full-screen screens' panels (the menu, Learn).
    pub backdrop: Color32,
    /// The text colour.
    pub text: Color32,
    /// Whether the panels are light (a light theme): emphasis colours darken to stay legible.
    pub light: bool,
}

impl Default for UiColours {
    /// The game's own colours (no theme).
    fn default() -> Self {
        PageTheme::default().colours()
    }
}

impl UiColours {
    /// The frame of the UI's panels: dark wood, slightly translucent (or the page's theme).
    pub fn panel_frame(&self) -> egui::Frame {
        egui::Frame::new()
            .fill(self.panel)
            .corner_radius(6.0)
            .inner_margin(egui::Margin::symmetric(12, 10))
    }

    /// An emphasis colour in the shade for these panels.
    pub fn emphasis(&self, e: &colours::Emphasis) -> Color32 {
        if self.light { e.on_light } else { e.on_dark }
    }

    /// A tone's colour on these panels.
    pub fn tone(&self, tone: colours::Tone) -> Color32 {
        use colours::Tone;
        match tone {
            Tone::Text => self.text,
            Tone::Accent => self.accent(),
            Tone::Good => self.good(),
            Tone::Warn => self.warn(),
            Tone::Bad => self.bad(),
        }
    }

    /// Headings and names.
    pub fn accent(&self) -> Color32 {
        self.emphasis(&colours::ACCENT)
    }
    /// A good outcome (a rating gained, a player present).
    pub fn good(&self) -> Color32 {
        self.emphasis(&colours::GOOD)
    }
    /// Something to watch (connecting, a player away).
    pub fn warn(&self) -> Color32 {
        self.emphasis(&colours::WARN)
    }
    /// Something wrong (an error, a rating lost).
    pub fn bad(&self) -> Color32 {
        self.emphasis(&colours::BAD)
    }
}

/// Colours the UI uses for emphasis, each in two shades ([`UiColours`] picks the one for
/// the panels now).
pub mod colours {
    use bevy_egui::egui::Color32;

    /// An emphasis colour in two shades: one for the game's dark panels, one for a light
    /// theme's panels (Telegram's day theme), where the pale one would not read.
    pub struct Emphasis {
        pub on_dark: Color32,
        pub on_light: Color32,
    }

    /// What a piece of text says by its colour, for code that chooses a colour without
    /// drawing it ([`super::UiColours::tone`] gives the colour).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Tone {
        Text,
        Accent,
        Good,
        Warn,
        Bad,
    }

    pub const ACCENT: Emphasis = Emphasis {
        on_dark: Color32::from_rgb(240, 200, 110),
        on_light: Color32::from_rgb(140, 95, 0),
    };
    pub const GOOD: Emphasis = Emphasis {
        on_dark: Color32::from_rgb(140, 215, 140),
        on_light: Color32::from_rgb(25, 115, 35),
    };
    pub const WARN: Emphasis = Emphasis {
        on_dark: Color32::from_rgb(255, 190, 90),
        on_light: Color32::from_rgb(165, 85, 0),
    };
    pub const BAD: Emphasis = Emphasis {
        on_dark: Color32::from_rgb(255, 140, 120),
        on_light: Color32::from_rgb(180, 35, 25),
    };
}

pub fn plugin(app: &mut App) {
    app.init_resource::<PageTheme>()
        .init_resource::<UiColours>()
        .add_systems(Update, apply_theme);
}

/// The table's colour and the UI's colours follow the theme.
fn apply_theme(
    theme: Res<PageTheme>,
    mut colours: ResMut<UiColours>,
    clear: Option<ResMut<ClearColor>>,
) {
    if !theme.is_changed() {
        return;
    }
    colours.set_if_neq(theme.colours());
    let colour = theme.clear_colour();
    if let Some(mut clear) = clear
        && clear.0 != colour
    {
        clear.0 = colour;
    }
}
