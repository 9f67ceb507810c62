//! `boardcraft-server`: games between people over websockets, and the browser game, on one
//! port.
//!
//! The modules stand on floors; each imports only from the floors below it:
//!
//! 1. the model, which imports nothing of the crate above it:
//!    - [`settings`]: limits and timings, each with a default and a flag, the lobby's among them;
//!    - [`secrets`]: ids, invites and seat tokens, their comparison, the Telegram bot token;
//!    - [`names`]: what a player's name may be, and when two names look alike;
//!    - [`passwords`]: Argon2id hashing on a bounded pool and queue, the strength rule;
//!    - [`ratings`]: Glicko-2 per variant at the end of rated games;
//!    - [`pairing`]: who plays whom in one quick-pairing wave;
//!    - [`rate_limit`]: the limits a node keeps in memory (events per address in a sliding
//!      window; a websocket's message rate);
//!    - [`client_addr`]: the client's address, through trusted proxies;
//!    - [`socket_sessions`]: the open websockets of each session, closed when it ends;
//!    - [`log_escape`]: log lines a client cannot forge (control characters escaped);
//!    - [`open_files`]: the open-file limit, raised at start, and the connection cap under it;
//!    - [`refusals`]: the protocol's code for each case of the services' error enums (the
//!      [`refusals::Refusal`] trait, which each enum implements beside its cases);
//! 2. [`storage`]: where games are kept, SQLite (default) or PostgreSQL, behind a trait per
//!    need: [`storage::GameStore`] (the games, and their ends, rated by the rule the game
//!    service hands in), [`storage::AccountStore`] (accounts, sessions, ratings),
//!    [`storage::ArchiveStore`] (archives, tallies, leaderboards), [`storage::ClusterStore`]
//!    (which node runs a game), and [`storage::Storage`], all of them, for wiring:
//!    - `sqlite.rs`, `postgres.rs`: the two backends; [`storage::sql`]: their SQL, each
//!      statement both run written once; `migrations.rs`: the schema's versions;
//!    - [`storage::lobby`]: the lobby's tables (`LobbyStore`); [`storage::limits`]: limits
//!      shared by the nodes (`LimitStore`);
//!    - [`storage::events`]: the event bus between the nodes of a cluster (`LISTEN/NOTIFY`);
//!    - [`storage::ownership`]: which node runs a game (an advisory lock per game);
//! 3. the services:
//!    - [`game`]: one task per game, which owns the game, checks every request with the rules
//!      and stores every change before anyone hears of it (its clocks, its fenced view of the
//!      games' table, the registry of running games, the bridge to the rules, and `end.rs`:
//!      whether and how an end is rated); [`game::paired`]: games between two accounts; what
//!      goes wrong is a [`game::GameError`]; it takes a `GameStore`, an `AccountStore` (the
//!      players) and a `ClusterStore`;
//!    - [`lobby`]: seeks, quick-pairing pools, challenges, counts; what goes wrong is a
//!      [`lobby::LobbyError`]; it takes a `LobbyStore` and an `AccountStore`;
//! 4. [`http`]: the router and its handlers (create a game, join by invite, public state, the
//!    RON save, health, the browser game's folder; they wire the services, and reach the
//!    database through `AppState::store`, the whole `Storage`), and:
//!    - [`http::accept`]: the accept loop (connections counted, header and idle timeouts);
//!    - [`http::ws`] and [`http::lobby_ws`]: the game's and the lobby's websockets;
//!    - [`http::accounts`]: guests, sign-in, sessions and their limits, Telegram sign-in;
//!    - [`http::players`]: profiles, archives, leaderboards;
//!    - [`http::errors`]: every refusal as `{"code", "message"}` (one type, `Refused`, with
//!      `From` for the services' errors), the extractors (origin check, `CurrentAccount`, JSON
//!      bodies), and the request deadline; the sockets turn the same errors into the
//!      protocol's error messages (`http::socket::fail_with`, the lobby socket's `refusal`).
//!
//! Beside the floors, `checks` (feature `checks`) is the `protocol_message` fuzz target's body,
//! over everything above.
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
pub mod rate_limit;
pub mod ratings;
pub mod refusals;
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
    let lobby = lobby::Lobby::start(games.clone(), games.storage().clone(), settings.clone())
        .await
        .map_err(|e| std::io::Error::other(format!("starting the lobby: {e}")))?;
    let state = http::AppState::new(games, settings.clone(), lobby);
    let router = http::router(state);
    http::accept::run(listener, router, settings, counts, shutdown).await
}
