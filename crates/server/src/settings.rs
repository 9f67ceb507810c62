//! The server's settings: limits and timings, each with a sane default and a command-line flag,
//! the lobby's among them.
use std::{net::IpAddr, path::PathBuf, time::Duration};

use boardcraft_protocol::{PoolKey, TimeControl};

use crate::{pairing::Range, secrets::TelegramBotToken};

/// Everything the server can be told (see `boardcraft-server --help`).
#[derive(Clone, Debug)]
pub struct Settings {
    /// How long a player may be gone before the opponent may claim the game.
    pub grace: Duration,
    /// A connection from which nothing arrives for this long is closed (the server sends a
    /// websocket ping every third of it, which browsers answer by themselves).
    pub idle_timeout: Duration,
    /// Largest text frame accepted, in bytes; a larger one is refused and the connection closed.
    pub max_frame_bytes: usize,
    /// Messages a connection may send per second, on average …
    pub messages_per_second: u32,
    /// … and in a burst.
    pub message_burst: u32,
    /// A connection that keeps flooding is closed after this many dropped messages.
    pub flood_close_after: u32,
    /// Open connections (HTTP and websockets) per client address (0: no limit). Counted on the
    /// TCP address, except for `trusted_proxies`, whose clients are counted by
    /// `X-Forwarded-For` once they open a websocket.
    pub max_connections_per_ip: u32,
    /// Open connections in all; past it a new connection gets a 503 and is closed, so the
    /// server keeps file descriptors for its database and for answering. 0: the open-file
    /// limit less a reserve.
    pub max_connections: u32,
    /// A connection must send a request's whole header within this (also between requests
    /// of a kept-alive connection), or it is closed.
    pub header_read_timeout: Duration,
    /// A request (its body read and its answer made) must be done within this, or it gets 408.
    pub request_timeout: Duration,
    /// An HTTP connection (before any websocket upgrade) over which no byte moves either way
    /// for this long is closed (a client that stops reading its answer).
    pub http_idle_timeout: Duration,
    /// With several nodes: how long a node asked for a game another node runs waits for it
    /// to let go (a handover) before it refuses with `game_moved`.
    pub handover_wait: Duration,
    /// Load balancers / reverse proxies whose `X-Forwarded-For` is believed; from any other
    /// address the header is ignored.
    pub trusted_proxies: Vec<IpAddr>,
    /// Games created per client address per minute (0: no limit).
    pub max_new_games_per_ip_per_minute: u32,
    /// Largest posted variant file, in bytes.
    pub max_variant_file_bytes: usize,
    /// Origins (`https://example.org`) allowed to open websockets besides the server's own;
    /// `*` allows every origin.
    pub allowed_origins: Vec<String>,
    /// The built browser game, served at `/`.
    pub web_dir: Option<PathBuf>,
    /// The server's address as players reach it (`https://play.example.org`), for invite
    /// links; by default the request's `Host`.
    pub public_url: Option<String>,
    /// A game task with no connection and no running clock stops after this long (the game
    /// stays stored and is loaded again when someone opens it).
    pub unload_after: Duration,
    /// Failed sign-ins from one address within `sign_in_window` before further attempts from
    /// it are refused (0: no limit).
    pub max_sign_in_failures_per_ip: u32,
    /// Failed sign-ins to one account within `sign_in_window` before further attempts on it
    /// are refused, whoever makes them (0: no limit).
    pub max_sign_in_failures_per_account: u32,
    pub sign_in_window: Duration,
    /// Guest accounts one address may create per hour (0: no limit).
    pub max_new_guests_per_ip_per_hour: u32,
    /// Threads hashing passwords at once, each with its own 19 MiB (0: one per core).
    pub password_hash_workers: usize,
    /// Sign-ins, claims and password changes that may wait for a hashing thread; past it
    /// they are refused with 503 `server_busy`.
    pub password_hash_queue: usize,
    /// The Telegram bot token for Mini App sign-in (`--telegram-bot-token-file`); none: no
    /// Telegram sign-in.
    pub telegram_bot_token: Option<TelegramBotToken>,
    /// Messages queued for a connection that does not read them; past this it is closed (the
    /// client reconnects and gets the whole game).
    pub outgoing_queue: usize,
    /// The lobby: pools, seeks, challenges, pairing (`crate::lobby`).
    pub lobby: LobbySettings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            grace: Duration::from_secs(60),
            idle_timeout: Duration::from_secs(30),
            max_frame_bytes: boardcraft_protocol::DEFAULT_MAX_FRAME_BYTES,
            messages_per_second: 20,
            message_burst: 40,
            flood_close_after: 100,
            max_connections_per_ip: 64,
            max_connections: 0,
            header_read_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            http_idle_timeout: Duration::from_secs(30),
            trusted_proxies: Vec::new(),
            handover_wait: Duration::from_secs(5),
            max_new_games_per_ip_per_minute: 30,
            max_variant_file_bytes: 64 * 1024,
            allowed_origins: Vec::new(),
            web_dir: None,
            public_url: None,
            unload_after: Duration::from_secs(60),
            outgoing_queue: 256,
            max_sign_in_failures_per_ip: 30,
            max_sign_in_failures_per_account: 10,
            sign_in_window: Duration::from_secs(15 * 60),
            max_new_guests_per_ip_per_hour: 60,
            password_hash_workers: 0,
            password_hash_queue: 16,
            telegram_bot_token: None,
            lobby: LobbySettings::default(),
        }
    }
}

impl Settings {
    /// The largest HTTP body: any valid JSON encoding of the largest variant file. JSON may
    /// write any byte of the file as `\u00XX` (six bytes), so the text can be six times the
    /// file; the file's own size is checked after decoding. Plus room for the other fields.
    pub fn max_body_bytes(&self) -> usize {
        self.max_variant_file_bytes * 6 + 16 * 1024
    }
}

/// The lobby's settings (`boardcraft-server --help`).
#[derive(Clone, Debug)]
pub struct LobbySettings {
    /// The quick-pairing pools, in the order the lobby shows them.
    pub pools: Vec<PoolKey>,
    /// Bot accounts may wait in the pools (by default they are refused: `not_allowed`).
    pub allow_bots_in_pools: bool,
    /// Open seeks per account.
    pub max_seeks_per_account: u32,
    /// Open challenges an account may have made.
    pub max_challenges_per_account: u32,
    /// A player whose last lobby connection closed keeps their seeks this long.
    pub seek_grace: Duration,
    /// A challenge not answered within this expires.
    pub challenge_ttl: Duration,
    /// Pairing waves run this often (and at once when a pool has two players).
    pub wave_every: Duration,
    /// The rating range of quick pairing (see [`crate::pairing`]).
    pub range: Range,
    /// Pool and player counts are broadcast at most this often.
    pub broadcast_every: Duration,
    /// A node not heard from for this long is taken for dead.
    pub node_timeout: Duration,
    /// A table of more than two (a seek, a pool) that waited this long is started with the
    /// computer in its empty seats (`--fill-with-bots-after`); `None` (the default): never.
    pub fill_with_bots_after: Option<Duration>,
    /// The computer's level in the seats it fills and in the seats of people who left.
    pub bot_level: boardcraft_ai::Level,
}

/// The default grid of quick-pairing buttons: the shipped variants people play most, at a
/// few clocks (minutes + seconds of increment).
pub const DEFAULT_POOLS: &[(&str, u64, u64)] = &[
    ("ugolki-9qum", 3, 2),
    ("ugolki-9qum", 5, 3),
    ("ugolki-9qum", 10, 5),
    ("grasshopper", 3, 2),
    ("grasshopper", 5, 3),
    ("halma-16", 10, 5),
    ("focus", 5, 3),
    ("focus", 10, 5),
    ("gipf-basic", 10, 5),
];

/// The default quick-pairing tables of more than two: variant, minutes, seconds, seats.
pub const DEFAULT_TABLE_POOLS: &[(&str, u64, u64, u8)] = &[
    ("chinese-checkers", 5, 3, 3),
    ("chinese-checkers", 5, 3, 4),
    ("chinese-checkers", 5, 3, 6),
    ("halma-16", 10, 5, 4),
    ("focus", 5, 3, 3),
    ("focus", 5, 3, 4),
];

impl Default for LobbySettings {
    fn default() -> Self {
        LobbySettings {
            pools: DEFAULT_POOLS
                .iter()
                .map(|(v, m, s)| PoolKey::new(*v, TimeControl::minutes(*m, *s)))
                .chain(DEFAULT_TABLE_POOLS.iter().map(|(v, m, s, n)| PoolKey {
                    seats: *n,
                    ..PoolKey::new(*v, TimeControl::minutes(*m, *s))
                }))
                .collect(),
            allow_bots_in_pools: false,
            max_seeks_per_account: 3,
            max_challenges_per_account: 5,
            seek_grace: Duration::from_secs(20),
            challenge_ttl: Duration::from_secs(300),
            wave_every: Duration::from_secs(1),
            range: Range {
                start: 100.0,
                step: 50.0,
                step_every: Duration::from_secs(5),
                unlimited_after: Duration::from_secs(45),
            },
            broadcast_every: Duration::from_millis(500),
            node_timeout: Duration::from_secs(10),
            fill_with_bots_after: None,
            bot_level: boardcraft_ai::Level::Amateur,
        }
    }
}
