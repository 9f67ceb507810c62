//! Everything that differs between the desktop and the browser, behind one interface. The rest
//! of the game is the same code on both; this `cfg` pair chooses the side:
//!
//! | function | desktop (`native.rs`) | browser (`web/`) |
//! |---|---|---|
//! | [`command_line`] | the process arguments (clap) | the page URL's query string, read by the same clap definition |
//! | [`asset_dir`] | `assets/` found beside the binary or the sources | the folder the page names (`b/<hash>/assets`), else `assets/` beside the page, over HTTP |
//! | [`register_sources`] | `mods/` and the folder of `--variant <file>` as asset sources | nothing (browsers cannot list folders; the manifest names the files) |
//! | [`plugin`] | nothing | publishes [`crate::game::status::GameStatus`] on the page; "back" requests from it |
#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
pub use native::*;

#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
pub use web::*;
