//! `boardcraft-server`: games between people over websockets, and the browser game, on one
//! port.
//!
//! The modules stand on floors; each imports only from the floors below it:
//!
//! 1. the model, which imports nothing of the crate above it: [`settings`] (limits and
//!    timings, the lobby's among them), [`secrets`] (ids, invites, tokens), [`names`] (what a
//!    name may be), [`passwords`] (bounded hashing, strength), [`ratings`] (Glicko-2 at the
//!    end of rated games), [`pairing`] (who plays whom in a quick-pairing wave),
//!    [`client_addr`] (the client's address through trusted proxies), [`socket_sessions`]
//!    (the sockets that close when their session ends), [`log_escape`] and [`open_files`];
//! 2. [`storage`]: SQLite (default) or PostgreSQL behind one trait, the lobby's tables, and
//!    the cluster: [`storage::events`] (the event bus between nodes) and
//!    [`storage::ownership`] (which node runs a game);
//! 3. the services: [`game`] (one task per game, which owns the game, checks every request
//!    with the rules and stores every change before anyone hears of it; [`game::paired`]:
//!    games between two accounts) and [`lobby`] (seeks, quick-pairing pools, challenges,
//!    counts);
//! 4. [`http`]: the router and its handlers (create a game, join by invite, public state, the
//!    RON save, health, the browser game's folder), the accept loop, the game's and the
//!    lobby's websockets, accounts (guests, sign-in, sessions and their limits) and players
//!    (profiles, archives, leaderboards).
//!
//! [`accounts`] ([`http::accounts`]) and [`events`] ([`storage::events`]) are re-exported at
//! the crate root, for the binary's flags and the tests.
//!
//! The protocol is `boardcraft-protocol` (docs/protocol.md); running it on more than one
//! machine is docs/online.md.
use std::sync::Arc;

use tokio::net::TcpListener;

// 1. The model.
pub mod client_addr;
pub mod log_escape;
pub mod names;
pub mod open_files;
pub mod pairing;
pub mod passwords;
pub mod ratings;
pub mod secrets;
pub mod settings;
pub mod socket_sessions;
// 2. Storage and the cluster.
pub mod storage;
// 3. The services.
pub mod game;
pub mod lobby;
// 4. HTTP and websockets.
pub mod http;
// The fuzz target's body, over everything above.
#[cfg(feature = "checks")]
pub mod checks;

pub use http::accounts;
pub use settings::Settings;
pub use storage::events;

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
    let counts =
        http::accept::ConnectionCounts::new(max_connections, settings.max_connections_per_ip);
    let lobby = lobby::Lobby::start(games.clone(), settings.clone())
        .await
        .map_err(|e| std::io::Error::other(format!("starting the lobby: {e}")))?;
    let state = http::AppState::new(games, settings.clone(), lobby);
    let router = http::router(state);
    http::accept::run(listener, router, settings, counts, shutdown).await
}
