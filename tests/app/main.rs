//! The game's headless tests: `MinimalPlugins` + the logic plugins, no window, no GPU.
//! One binary on purpose (each test binary is another link of Bevy).
mod common;
mod focus;
mod gipf;
mod input;
mod page;
mod race;
mod scripts;
mod settings;
mod variants;
mod view_model;
