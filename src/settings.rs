//! The player's preferences: one resource, read by the systems it concerns (animation speed,
//! sound volume, camera view, UI language, coach, UI scale, graphics). The UI edits it;
//! `persistence` stores it between runs (a file natively, browser storage on the web).
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The UI language. Every string the UI shows exists in each of these (see `i18n`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Language {
    #[default]
    English,
    Russian,
}

impl Language {
    pub const ALL: [Language; 2] = [Language::English, Language::Russian];

    /// The short code used on the command line and in URLs (`en`, `ru`).
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Russian => "ru",
        }
    }

    /// Reads a code or a system locale such as `ru`, `ru-RU` or `ru_RU.UTF-8`; anything that is
    /// not Russian falls back to English, the default.
    pub fn from_locale(locale: &str) -> Self {
        let primary = locale
            .split(['-', '_', '.'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match primary.as_str() {
            "ru" => Language::Russian,
            _ => Language::English,
        }
    }
}

/// How the board is looked at.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum View {
    #[default]
    Perspective,
    TopDown,
}

/// How much the 3D view draws. `Light` leaves out the board's multisampled edges and the key
/// light's shadows, which cost about half of each frame where the graphics run on the
/// processor (a browser without a usable GPU drew a 3D board at a phone's size with SwiftShader
/// at 0.3–0.5 frames a second with them, 0.7 without); `Auto` chooses light there and full
/// elsewhere.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Graphics {
    #[default]
    Auto,
    Full,
    Light,
}

impl Graphics {
    pub const ALL: [Graphics; 3] = [Graphics::Auto, Graphics::Full, Graphics::Light];

    /// Whether the view draws light graphics, on a renderer that does (`software`) or does
    /// not run on the processor.
    pub fn light(self, software: bool) -> bool {
        match self {
            Graphics::Auto => software,
            Graphics::Full => false,
            Graphics::Light => true,
        }
    }
}

/// Everything the settings window edits. Unknown or missing fields in a stored file fall back to
/// the defaults (`#[serde(default)]`), so a file written by an older or newer version still loads.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Animation speed factor: 1.0 is normal, 0 turns animation off.
    pub animation_speed: f32,
    /// Volume of the sound effects, 0.0 (silent) … 1.0 (full).
    pub effects_volume: f32,
    pub view: View,
    pub language: Language,
    /// After each human move, show the AI's verdict on it and the best alternative.
    pub coach: bool,
    /// The size of the whole UI (text, buttons, panels) as a factor: 1.0 is normal.
    pub ui_scale: f32,
    pub graphics: Graphics,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            animation_speed: 1.0,
            effects_volume: 0.8,
            view: View::Perspective,
            language: Language::English,
            coach: false,
            ui_scale: 1.0,
            graphics: Graphics::Auto,
        }
    }
}
