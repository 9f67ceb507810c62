//! The game's headless tests: `MinimalPlugins` + the logic plugins, no window, no GPU.
//! One binary on purpose (each test binary is another link of Bevy).
mod coach;
mod common;
mod focus;
mod gipf;
mod i18n;
mod input;
mod menu;
mod race;
mod review;
mod scripts;
mod settings;
mod undo;
mod variants;
mod view_model;
