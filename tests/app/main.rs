//! The game's headless tests: `MinimalPlugins` + the logic plugins, no window, no GPU.
//! One binary on purpose (each test binary is another link of Bevy).
mod audio;
mod camera;
mod coach;
mod common;
mod drag;
mod egui_frame;
mod focus;
mod gipf;
mod i18n;
mod input;
mod layout;
mod learn;
mod lobby;
mod menu;
mod online;
mod page;
mod persistence;
mod race;
mod review;
mod saves_ui;
mod scripts;
mod settings;
mod theme;
mod undo;
mod variants;
mod view_model;
