//! Helpers for async tasks that run beside the frames (the computer's search): a leaf that
//! imports nothing of the game, so the game's logic can use it without depending on the
//! platform layer above it.
//!
//! [`yield_now`] lets other work run between two slices of a task: on the desktop other tasks
//! (the search has a pool thread of its own), in the browser the page's event loop, so that it
//! can draw a frame and handle input (the page has one thread).
#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(target_arch = "wasm32")]
pub use browser::yield_now;

/// Lets other tasks run. The search task runs on a pool thread, so frames are never waiting
/// for it; yielding keeps it cancellable between slices.
#[cfg(not(target_arch = "wasm32"))]
pub async fn yield_now() {
    bevy::tasks::futures_lite::future::yield_now().await;
}
