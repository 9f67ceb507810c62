//! `boardcraft-server [--listen ADDR] [--data DIR] [--database URL] [--web DIR]`
use std::{path::PathBuf, process::ExitCode, time::Duration};

use boardcraft_server::{Settings, default_data_dir, serve, storage};
use clap::Parser;
use tracing::{error, info};

/// Boardcraft's game server: games between people (websockets at /ws, HTTP under /api), every
/// move checked by the rules and stored before it is acknowledged, and the browser game.
#[derive(Parser)]
#[command(name = "boardcraft-server", version)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8787")]
    listen: String,
    /// Data folder (default: BOARDCRAFT_HOME, else the game's data folder, e.g.
    /// ~/.local/share/boardcraft); the SQLite database is server.sqlite3 in it.
    #[arg(long)]
    data: Option<PathBuf>,
    /// Database: postgres://user:password@host/db (PostgreSQL), or sqlite://FILE; default
    /// SQLite in the data folder.
    #[arg(long)]
    database: Option<String>,
    /// A built browser game to serve at / (scripts/build-web.sh's output folder).
    #[arg(long)]
    web: Option<PathBuf>,
    /// The server's public address for invite links (default: http:// + the request's Host).
    #[arg(long)]
    public_url: Option<String>,
    /// Another origin allowed to open websockets (repeatable; `*` for any).
    #[arg(long = "allow-origin")]
    allow_origin: Vec<String>,
    /// Seconds a player may be gone before the opponent may claim the game.
    #[arg(long, default_value_t = 60)]
    grace_secs: u64,
    /// Seconds without anything from a connection before it is closed.
    #[arg(long, default_value_t = 30)]
    idle_timeout_secs: u64,
    /// Largest websocket text frame, in bytes.
    #[arg(long, default_value_t = boardcraft_protocol::DEFAULT_MAX_FRAME_BYTES)]
    max_frame_bytes: usize,
    /// Messages per second a connection may send (bursts of twice as many).
    #[arg(long, default_value_t = 20)]
    max_messages_per_sec: u32,
    /// Open connections per client address, HTTP and websockets (0: no limit).
    #[arg(long, default_value_t = 64)]
    max_connections_per_ip: u32,
    /// Open connections in all; past it new ones get 503 (default: the open-file limit, raised
    /// to its hard limit at start, less 128).
    #[arg(long, default_value_t = 0)]
    max_connections: u32,
    /// Seconds a connection has to send a request's headers (and between requests).
    #[arg(long, default_value_t = 10)]
    header_read_timeout_secs: u64,
    /// Seconds a request (its body included) may take before it gets 408.
    #[arg(long, default_value_t = 30)]
    request_timeout_secs: u64,
    /// A load balancer or reverse proxy whose X-Forwarded-For is believed (repeatable; an IP
    /// address). From any other address the header is ignored.
    #[arg(long = "trusted-proxy")]
    trusted_proxy: Vec<std::net::IpAddr>,
    /// New games per client address per minute (0: no limit).
    #[arg(long, default_value_t = 30)]
    max_new_games_per_ip: u32,
    /// A file holding the Telegram bot token: enables sign-in from the Telegram Mini App
    /// (POST /api/session/telegram). A file, not a flag, so the token is not in `ps`.
    #[arg(long)]
    telegram_bot_token_file: Option<PathBuf>,
    /// Failed sign-ins per client address per 15 minutes (0: no limit).
    #[arg(long, default_value_t = 30)]
    max_sign_in_failures_per_ip: u32,
    /// Failed sign-ins per account per 15 minutes (0: no limit).
    #[arg(long, default_value_t = 10)]
    max_sign_in_failures_per_account: u32,
    /// Guest accounts per client address per hour (0: no limit).
    #[arg(long, default_value_t = 60)]
    max_new_guests_per_ip: u32,
    /// Threads hashing passwords at once, 19 MiB each (0: one per core).
    #[arg(long, default_value_t = 0)]
    password_hash_threads: usize,
    /// Sign-ins that may wait for a hashing thread; past it: 503 server_busy.
    #[arg(long, default_value_t = 16)]
    password_hash_queue: usize,
    /// Let bot accounts wait in the quick-pairing pools (by default they are refused there
    /// and play through seeks and challenges).
    #[arg(long)]
    allow_bots_in_pools: bool,
    /// The quick-pairing pools, in the order the lobby shows them: `variant minutes+seconds`,
    /// and ` xN` for a table of N seats, comma-separated (default: ugolki-9qum 3+2, 5+3,
    /// 10+5; grasshopper 3+2, 5+3; halma-16 10+5; focus 5+3, 10+5; gipf-basic 10+5; and the
    /// tables chinese-checkers 5+3 x3, x4, x6; halma-16 10+5 x4; focus 5+3 x3, x4).
    #[arg(long)]
    pools: Option<String>,
    /// Seconds a player's seeks stay after their last lobby connection closed.
    #[arg(long, default_value_t = 20)]
    seek_grace_secs: u64,
    /// Open seeks per player.
    #[arg(long, default_value_t = 3)]
    max_seeks_per_player: u32,
    /// Seconds an unanswered challenge stays.
    #[arg(long, default_value_t = 300)]
    challenge_ttl_secs: u64,
    /// Seconds a table of more than two (a seek, a quick-pairing pool) waits for people
    /// before the computer takes its empty seats and the game starts (default: never).
    #[arg(long)]
    fill_with_bots_after: Option<u64>,
    /// The computer's level in the seats it fills and in the seats of people who left a table
    /// of more than two: novice, amateur, strong or master.
    #[arg(long, default_value = "amateur")]
    bot_level: boardcraft_ai::Level,
    /// Log filter (targets, e.g. `info` or `info,boardcraft_server=debug`; default: RUST_LOG,
    /// else `info`).
    #[arg(long)]
    log: Option<String>,
}

/// Operator commands (run beside or instead of the server, on the same database).
#[derive(clap::Subcommand)]
enum Command {
    /// Accounts.
    Account {
        #[command(subcommand)]
        action: AccountAction,
    },
}

#[derive(clap::Subcommand)]
enum AccountAction {
    /// Marks the account NAME as a bot (a computer player: shown as one, and it may take a
    /// name ending in "bot").
    MakeBot { name: String },
    /// Takes the bot mark off the account NAME.
    Unbot { name: String },
}

fn main() -> ExitCode {
    let args = Args::parse();
    let log = args
        .log
        .clone()
        .or_else(|| std::env::var("RUST_LOG").ok())
        .unwrap_or_else(|| "info".into());
    let filter: tracing_subscriber::filter::Targets = match log.parse() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: bad --log filter `{log}`: {e}");
            return ExitCode::FAILURE;
        }
    };
    use tracing_subscriber::prelude::*;
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_target(false)
                // Client text (a move, a variant's name) cannot start a line of its own.
                .with_writer(boardcraft_server::log_escape::Escaping(std::io::stderr))
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr())),
        )
        .with(filter)
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    match runtime.block_on(run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            error!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// The database a `--database` / `--data` pair names.
fn database_url(database: Option<String>, data: Option<PathBuf>) -> Result<String, String> {
    match database {
        Some(url) => Ok(url),
        None => {
            let dir = data
                .or_else(default_data_dir)
                .ok_or("no data folder: pass --data DIR (or set BOARDCRAFT_HOME)".to_owned())?;
            Ok(dir
                .join(boardcraft_server::SQLITE_FILE)
                .display()
                .to_string())
        }
    }
}

async fn account_command(action: AccountAction, url: &str) -> Result<(), String> {
    let store = storage::open(url)
        .await
        .map_err(|e| format!("cannot open the database: {e}"))?;
    let (name, bot) = match action {
        AccountAction::MakeBot { name } => (name, true),
        AccountAction::Unbot { name } => (name, false),
    };
    if store
        .set_bot(name.clone(), bot)
        .await
        .map_err(|e| e.to_string())?
    {
        info!("account {name}: bot = {bot}");
        Ok(())
    } else {
        Err(format!("no account is named {name}"))
    }
}

async fn run(mut args: Args) -> Result<(), String> {
    if let Some(Command::Account { action }) = args.command.take() {
        let url = database_url(args.database.take(), args.data.take())?;
        return account_command(action, &url).await;
    }
    match boardcraft_server::open_files::raise() {
        Ok(r) => info!(
            "open files: soft limit {} (was {}; hard limit {})",
            r.after, r.before, r.hard
        ),
        Err(e) => tracing::warn!("cannot raise the open-file limit: {e}"),
    }
    let mut settings = Settings {
        grace: Duration::from_secs(args.grace_secs),
        idle_timeout: Duration::from_secs(args.idle_timeout_secs.max(1)),
        max_frame_bytes: args.max_frame_bytes,
        messages_per_second: args.max_messages_per_sec.max(1),
        message_burst: args.max_messages_per_sec.max(1) * 2,
        max_connections_per_ip: args.max_connections_per_ip,
        max_connections: args.max_connections,
        header_read_timeout: Duration::from_secs(args.header_read_timeout_secs.max(1)),
        request_timeout: Duration::from_secs(args.request_timeout_secs.max(1)),
        http_idle_timeout: Duration::from_secs(args.idle_timeout_secs.max(1)),
        trusted_proxies: args.trusted_proxy,
        max_new_games_per_ip_per_minute: args.max_new_games_per_ip,
        allowed_origins: args.allow_origin,
        public_url: args.public_url,
        max_sign_in_failures_per_ip: args.max_sign_in_failures_per_ip,
        max_sign_in_failures_per_account: args.max_sign_in_failures_per_account,
        max_new_guests_per_ip_per_hour: args.max_new_guests_per_ip,
        password_hash_workers: args.password_hash_threads,
        password_hash_queue: args.password_hash_queue,
        ..Settings::default()
    };
    settings.lobby.allow_bots_in_pools = args.allow_bots_in_pools;
    settings.lobby.seek_grace = Duration::from_secs(args.seek_grace_secs);
    settings.lobby.max_seeks_per_account = args.max_seeks_per_player;
    settings.lobby.challenge_ttl = Duration::from_secs(args.challenge_ttl_secs.max(1));
    settings.lobby.fill_with_bots_after = args.fill_with_bots_after.map(Duration::from_secs);
    settings.lobby.bot_level = args.bot_level;
    if let Some(pools) = &args.pools {
        settings.lobby.pools =
            boardcraft_server::lobby::parse_pools(pools).map_err(|e| format!("--pools: {e}"))?;
    }
    if let Some(path) = &args.telegram_bot_token_file {
        let token = std::fs::read_to_string(path)
            .map_err(|e| format!("--telegram-bot-token-file {}: {e}", path.display()))?;
        let token = token.trim();
        if token.is_empty() {
            return Err(format!(
                "--telegram-bot-token-file {}: the file is empty",
                path.display()
            ));
        }
        settings.telegram_bot_token = Some(boardcraft_server::accounts::TelegramBotToken::new(
            token.to_owned(),
        ));
        info!("Telegram sign-in enabled");
    }
    if let Some(web) = args.web {
        if !web.join("index.html").is_file() {
            return Err(format!(
                "--web {}: no index.html there (build it with scripts/build-web.sh)",
                web.display()
            ));
        }
        settings.web_dir = Some(web);
    }
    let database = database_url(args.database, args.data)?;
    let store = storage::open(&database)
        .await
        .map_err(|e| format!("cannot open the database: {e}"))?;
    let listener = tokio::net::TcpListener::bind(&args.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let shown = if store.kind() == "postgres" {
        "PostgreSQL".to_owned()
    } else {
        database.clone()
    };
    info!(
        "{} listening on http://{addr} (database: {shown}; browser game: {})",
        boardcraft_server::SERVER_NAME,
        settings
            .web_dir
            .as_ref()
            .map_or("none".to_owned(), |d| d.display().to_string())
    );
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
        info!("shutting down");
    };
    serve(listener, store, settings, shutdown)
        .await
        .map_err(|e| e.to_string())
}
