//! Online play: a friend on another machine, through the game server (`boardcraft-server`,
//! protocol in `crates/protocol` and `docs/protocol.md`).
//!
//! The remote player is another kind of player, like the computer: the server's moves become
//! [`MoveRequested`](crate::game::match_state::MoveRequested)s, go through the rules and are
//! animated hop by hop; the local player's moves are sent and shown as pending until the server
//! confirms them. No rule is decided here.
//!
//! | file | what it holds |
//! |---|---|
//! | [`link`] | the websocket (ewebsock, desktop and browser), reconnection with back-off |
//! | [`http`] | creating a game and taking a seat by invite (ehttp) |
//! | [`session`] | an invite or lobby game: what the session knows (`state`), the protocol — hello, resync, pings, moves keyed by ply, offers, clocks, presence (`network`), the bridge to the board (`board`) |
//! | [`lobby`] | the lobby's account, pools, seeks, challenges, archive and leaders, through the server |
//! | [`seats`] | the seat tokens kept in the data folder / browser storage |
//!
//! The screens that show all this live in `ui::online` (they use the UI's layout, colours and
//! words); nothing here imports the UI.
//!
//! Start: the menu's "Play online…", `--invite` / `--join <code>` / `--watch <game>` with
//! `--server <url>` on the desktop, `?invite&variant=…` / `?join=<code>` in the browser.
use bevy::prelude::*;

pub mod http;
pub mod link;
pub mod lobby;
#[cfg(target_arch = "wasm32")]
mod page;
pub mod seats;
pub mod session;

pub use session::{NoticeKind, Online, OnlineCommand, Stage, invite_code, parse_clock};

/// The session's logic and the lobby's (headless-safe: what the tests run).
pub fn plugin(app: &mut App) {
    app.add_plugins((lobby::plugin, session::plugin));
}

/// In the browser, the page's view of the online game and its test hook (`online::page`);
/// nothing on the desktop. The online screens are `ui::online`'s.
pub fn page_plugin(_app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    _app.add_plugins(page::plugin);
}

/// Seconds on a monotonic wall clock since the first call. The session's timing (back-off,
/// pings, silence, clocks, the claim countdown) is about the network and the server, so it
/// follows the wall clock, not Bevy's `Time` (which tests and benchmarks advance by a fixed
/// step per frame).
pub fn wall_now() -> f64 {
    use bevy::platform::time::Instant;
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// The server when none is named: the one the page came from in the browser; the default
/// address of `boardcraft-server` on the desktop.
pub fn default_server() -> String {
    #[cfg(target_arch = "wasm32")]
    if let Some(origin) = web_sys::window().and_then(|w| w.location().origin().ok()) {
        return origin;
    }
    "http://127.0.0.1:8787".to_owned()
}

/// Makes the invite easy to pass on: printed on the desktop (a terminal user can copy it); in
/// the browser the page's address becomes the invite link, so a reload rejoins the seat
/// instead of creating another game.
pub fn show_invite(code: &str, link: &str) {
    #[cfg(not(target_arch = "wasm32"))]
    if !link.is_empty() {
        println!("online game created: invite code {code}, link {link}");
    }
    #[cfg(target_arch = "wasm32")]
    {
        let _ = link;
        page::set_address(code);
    }
}
