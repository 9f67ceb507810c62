//! `boardcraft-server`: games between people over websockets, and the browser game, on one
//! port.
//!
//! - [`app`]: HTTP (create a game, join by invite, public state, the RON save, health) and the
//!   browser game's folder;
//! - [`ws`]: one task per websocket (hello, limits, keep-alive);
//! - [`lobby`]: the lobby websocket (seeks, quick-pairing pools, challenges, counts);
//! - [`game`]: one task per game, which owns the game, checks every request with the rules
//!   and stores every change before anyone hears of it;
//! - [`storage`]: SQLite (default) or PostgreSQL behind one trait;
//! - [`accounts`]: guests, sign-in, sessions and their limits, over [`names`] (what a name
//!   may be) and [`passwords`] (bounded hashing, strength); [`socket_sessions`]: the sockets
//!   that close when their session ends;
//! - [`game::paired`]: games between two accounts (the lobby's), [`ratings`]: Glicko-2 at the
//!   end of rated ones, [`players`]: profiles, archives and leaderboards over HTTP.
//!
//! The protocol is `boardcraft-protocol` (docs/protocol.md); running it on more than one
//! machine is docs/online.md.
use std::sync::Arc;

use tokio::net::TcpListener;

pub mod accept;
pub mod accounts;
pub mod app;
#[cfg(feature = "checks")]
pub mod checks;
pub mod client_addr;
pub mod events;
pub mod game;
pub mod http_errors;
pub mod lobby;
pub mod log_escape;
pub mod names;
pub mod open_files;
pub mod passwords;
pub mod players;
pub mod ratings;
pub mod secrets;
pub mod settings;
pub mod socket_sessions;
pub mod storage;
pub mod ws;

pub use settings::Settings;

/// The server's name and version, as the welcome and `/healthz` give it.
pub const SERVER_NAME: &str = concat!("boardcraft-server ", env!("CARGO_PKG_VERSION"));

/// The file SQLite keeps the games in, inside the data folder.
pub const SQLITE_FILE: &str = "server.sqlite3";

/// The data folder the game uses: `BOARDCRAFT_HOME` if set, else the platform's data folder
/// (`~/.local/share/boardcraft` on Linux).
pub fn default_data_dir() -> Option<std::path::PathBuf> {
    if let Some(home) = std::env::var_os("BOARDCRAFT_HOME").filter(|h| !h.is_empty()) {
        return Some(home.into());
    }
    directories::ProjectDirs::from("", "", "Boardcraft").map(|d| d.data_dir().to_path_buf())
}

/// Serves until `shutdown` resolves (or forever). The listener may be bound to port 0 (tests).
pub async fn serve(
    listener: TcpListener,
    store: Arc<dyn storage::Storage>,
    settings: Settings,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let games = game::Games::new(store, Arc::new(settings));
    serve_games(listener, games, shutdown).await
}

/// [`serve`] with the games made beforehand (`Games::new(store, settings)`), so that the
/// caller keeps a handle on them (tests make paired games with it, as the lobby does).
pub async fn serve_games(
    listener: TcpListener,
    games: Arc<game::Games>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let settings = games.settings.clone();
    let max_connections = match settings.max_connections {
        0 => open_files::default_max_connections(),
        n => n,
    };
    let counts = accept::ConnectionCounts::new(max_connections, settings.max_connections_per_ip);
    let lobby = lobby::Lobby::start(games.clone(), settings.clone())
        .await
        .map_err(|e| std::io::Error::other(format!("starting the lobby: {e}")))?;
    let state = app::AppState::new(games, settings.clone(), lobby);
    let router = app::router(state);
    accept::run(listener, router, settings, counts, shutdown).await
}
