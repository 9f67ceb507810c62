//! `online bot`: the computer as a lobby player (lobby protocol 3). It signs in as a bot
//! account, keeps the lobby websocket open, accepts challenges in the variants it plays
//! (declines the others), keeps one seek open per variant, takes a seat at other players'
//! seeks for tables of more than two (the seat counts of `--seats`), waits in a pool if given
//! one (`--pool`), and plays every game it is paired or seated into on its own task over the
//! game websocket with protocol 3 (seat messages; a two-seat game is a table of two), thinking
//! on a blocking thread and within its clock.
//!
//! - **Sign-in**: the session token is kept in `--token-file` (a restart reuses it). Without a
//!   valid one it signs in with `--name` and `--password-file`, else makes a guest account.
//!   The account must be marked as a bot by the operator (`boardcraft-server account make-bot
//!   NAME`); a guest bot account is then given `--name` and the password (a name ending in
//!   "bot" is allowed for bots only, so the mark comes first).
//! - **Restarts**: the seat token of every game in progress is kept in a small state file next
//!   to the token (`<token-file>.games.json`); a restarted bot goes back to those games.
//! - **Server gone**: the lobby and every game reconnect on their own with backoff.
use std::{
    collections::{BTreeMap, HashMap, HashSet},
    path::{Path, PathBuf},
    process::ExitCode,
    sync::{Arc, Mutex},
    time::Duration,
};

use boardcraft_ai::{AnySearch, Level};
use boardcraft_protocol::{
    ClientMessage, ColorChoice, ErrorCode, GameStatus, GameTerms, LobbyClientMessage,
    LobbyServerMessage, PlayerInfo, PoolKey, Presence, RatingChange, SEATS_PROTOCOL_VERSION,
    SeatClocks, SeatIndex, SeatResult, SeatServerMessage, SeatSnapshot, Seek, Side,
    http::{AccountInfo, Credentials, SignedIn},
    paths, seat_of,
};
use boardcraft_rules::Position;
use clap::Args as ClapArgs;
use serde::{Deserialize, Serialize};
use tokio::{
    sync::mpsc,
    time::{Instant, sleep},
};

use super::{
    mirror::SeatMirror,
    net::{self, ServerUrl, Ws},
};

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The server, e.g. http://127.0.0.1:8787.
    #[arg(long)]
    server: String,
    /// The computer's level: novice, amateur, strong or master.
    #[arg(long, default_value = "master")]
    level: Level,
    /// The variants it plays (comma-separated shipped names): it accepts challenges in these,
    /// declines the others, and keeps a seek open in each.
    #[arg(long, default_value = "ugolki-9qum")]
    variants: String,
    /// The bot account's name (signs in with it when the token file has no valid session;
    /// given to a new account once the operator has marked it as a bot).
    #[arg(long, requires = "password_file")]
    name: Option<String>,
    /// A file holding the account's password (a file, not a flag, so it is not in `ps`).
    #[arg(long, requires = "name")]
    password_file: Option<PathBuf>,
    /// Where the session token is kept (created if missing); the games in progress are kept
    /// beside it in `<token-file>.games.json`.
    #[arg(long, default_value = "boardcraft-bot.token")]
    token_file: PathBuf,
    /// Games at once; past it challenges are declined and seeks withdrawn (0: no limit).
    #[arg(long, default_value_t = 16)]
    max_games: usize,
    /// The seeks' clock, minutes+seconds (e.g. 5+3), or `none` for untimed (casual) seeks.
    #[arg(long, default_value = "5+3")]
    seek_clock: String,
    /// Open no seeks (answer challenges only).
    #[arg(long)]
    no_seeks: bool,
    /// Seeks are casual (default: rated, unless untimed).
    #[arg(long)]
    casual: bool,
    /// Worker threads for the network (the thinking runs on blocking threads beside them).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// The table sizes it plays (comma-separated, 2 to 6): it takes a seat at other players'
    /// seeks for tables of these sizes (more than two) in its variants. Without 2 it opens no
    /// seeks of its own and declines challenges.
    #[arg(long, default_value = "2,3,4,5,6")]
    seats: String,
    /// A quick-pairing pool to wait in whenever it has room for a game, written as the
    /// server's `--pools` writes one: `chinese-checkers 5+3 x3` (no `xN`: two seats). The
    /// server refuses bots in its pools unless it runs with `--allow-bots-in-pools`.
    #[arg(long)]
    pool: Option<String>,
}

/// `2,3,4,6` as seat counts, each 2 to 6.
fn seat_counts(text: &str) -> Result<Vec<u8>, String> {
    let mut counts = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.parse::<u8>() {
            Ok(n @ 2..=6) => counts.push(n),
            _ => return Err(format!("--seats: `{part}` is not a seat count from 2 to 6")),
        }
    }
    if counts.is_empty() {
        return Err("--seats names no seat count".into());
    }
    Ok(counts)
}

/// A pool as `--pool` writes it: `variant M+S` and, for a table of more than two, `xN`.
fn pool_key(text: &str) -> Result<PoolKey, String> {
    let bad = || format!("--pool: `{text}` is not a pool like `chinese-checkers 5+3 x3`");
    let mut words = text.split_whitespace();
    let (Some(variant), Some(clock)) = (words.next(), words.next()) else {
        return Err(bad());
    };
    let seats = match words.next() {
        None => 2,
        Some(w) => match w.strip_prefix('x').and_then(|n| n.parse::<u8>().ok()) {
            Some(n @ 2..=6) => n,
            _ => return Err(bad()),
        },
    };
    if words.next().is_some() {
        return Err(bad());
    }
    Ok(PoolKey {
        seats,
        ..PoolKey::new(variant, super::play::time_control(clock)?)
    })
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.threads.max(1))
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(main(args))
}

/// A game the bot plays, as kept in the state file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct StoredGame {
    token: String,
    /// The side of a two-seat game (at a table of more than two: White for seat 0, Black for
    /// the others, and not read; `seat` says which).
    color: Side,
    variant: String,
    #[serde(default)]
    opponent: String,
    /// A table of more than two: the bot's seat there (the game is played with protocol 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seat: Option<SeatIndex>,
}

impl StoredGame {
    /// `as black` (two seats) or `at seat 2` (a table of more than two), for the log lines.
    fn role(&self) -> String {
        match self.seat {
            Some(seat) => format!("at seat {seat}"),
            None => format!("as {}", self.color),
        }
    }
}

#[derive(Default, Serialize, Deserialize)]
struct StateFile {
    games: BTreeMap<String, StoredGame>,
}

struct Bot {
    server: ServerUrl,
    level: Level,
    client: String,
    state_path: PathBuf,
    /// Games in progress (what the state file holds).
    games: Mutex<BTreeMap<String, StoredGame>>,
    /// Games with a task playing them now.
    running: Mutex<HashSet<String>>,
    /// A game task that ended sends its game's id (the lobby loop re-opens a seek).
    ended: mpsc::UnboundedSender<String>,
}

impl Bot {
    fn save(&self) {
        let state = StateFile {
            games: self.games.lock().unwrap().clone(),
        };
        let text = serde_json::to_string_pretty(&state).expect("the state serialises");
        if let Err(e) = write_private(&self.state_path, &text) {
            eprintln!(
                "bot: cannot write the state file {}: {e}",
                self.state_path.display()
            );
        }
    }

    fn active(&self) -> usize {
        self.games.lock().unwrap().len()
    }

    /// Starts the task that plays `game` (unless one plays it already).
    fn start_game(self: &Arc<Self>, game: String, stored: StoredGame) {
        if !self.running.lock().unwrap().insert(game.clone()) {
            return;
        }
        let bot = self.clone();
        tokio::spawn(async move {
            // A two-seat game is a table of two: White is seat 0, Black seat 1.
            let seat = stored.seat.unwrap_or(seat_of(stored.color));
            let end = play_game(&bot, &game, &stored, seat).await;
            bot.games.lock().unwrap().remove(&game);
            bot.save();
            outln!(
                "game {game} end: {} {} vs {}: {end}",
                stored.variant,
                stored.role(),
                stored.opponent
            );
            bot.running.lock().unwrap().remove(&game);
            let _ = bot.ended.send(game);
        });
    }
}

/// Writes a file readable by its owner only, through a temporary file and a rename (a crash
/// leaves the old or the new, never half of one).
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&tmp)?;
        std::io::Write::write_all(&mut file, text.as_bytes())?;
        file.sync_all()?;
    }
    std::fs::rename(tmp, path)
}

fn state_path(token_file: &Path) -> PathBuf {
    let mut name = token_file.as_os_str().to_owned();
    name.push(".games.json");
    PathBuf::from(name)
}

async fn main(args: Args) -> Result<ExitCode, String> {
    let server = ServerUrl::parse(&args.server)?;
    let variants: Vec<String> = args
        .variants
        .split(',')
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .collect();
    if variants.is_empty() {
        return Err("--variants names no variant".into());
    }
    let seats = seat_counts(&args.seats)?;
    let pool = args.pool.as_deref().map(pool_key).transpose()?;
    for v in &variants {
        boardcraft_rules::shipped_variant(v).map_err(|e| e.to_string())?;
    }
    let seek_clock = match args.seek_clock.trim() {
        "none" | "untimed" => None,
        text => Some(super::play::time_control(text)?),
    };
    let password = match &args.password_file {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| format!("--password-file {}: {e}", path.display()))?
                .trim_end_matches(['\r', '\n'])
                .to_owned(),
        ),
        None => None,
    };
    let credentials = args.name.clone().zip(password);
    let (token, account) = match sign_in(&server, &args.token_file, credentials.as_ref()).await? {
        SignIn::Ready(token, account) => (token, account),
        SignIn::NotABot(account) => {
            eprintln!(
                "bot: the account {} is not marked as a bot. The server's operator marks it with\n  \
                 boardcraft-server account make-bot {}\n(on the server's database, --data or \
                 --database as the server's); then start the bot again.",
                account.name, account.name
            );
            return Ok(ExitCode::from(2));
        }
    };
    outln!(
        "bot: signed in as {} ({}); level {}, variants {}, {}",
        account.name,
        if account.guest { "guest bot" } else { "bot" },
        args.level,
        variants.join(", "),
        if args.no_seeks {
            "no seeks".to_owned()
        } else {
            format!(
                "seeks {} {}",
                seek_clock.map_or("untimed".to_owned(), |t| t.to_string()),
                if args.casual || seek_clock.is_none() {
                    "casual"
                } else {
                    "rated"
                }
            )
        }
    );
    let state_path = state_path(&args.token_file);
    let stored: StateFile = match std::fs::read_to_string(&state_path) {
        Ok(text) => serde_json::from_str(&text).unwrap_or_else(|e| {
            eprintln!(
                "bot: the state file {} is unreadable ({e}); starting afresh",
                state_path.display()
            );
            StateFile::default()
        }),
        Err(_) => StateFile::default(),
    };
    let (ended_tx, mut ended_rx) = mpsc::unbounded_channel();
    let bot = Arc::new(Bot {
        server: server.clone(),
        level: args.level,
        client: format!("boardcraft-cli {} bot", env!("CARGO_PKG_VERSION")),
        state_path,
        games: Mutex::new(stored.games.clone()),
        running: Mutex::new(HashSet::new()),
        ended: ended_tx,
    });
    // Back to the games in progress at once: each task reconnects on its own.
    for (game, g) in stored.games {
        outln!(
            "game {game} resume: {} {} vs {}",
            g.variant,
            g.role(),
            g.opponent
        );
        bot.start_game(game, g);
    }
    let two_seats = seats.contains(&2);
    let config = LobbyConfig {
        variants,
        seats,
        pool,
        seek: (!args.no_seeks && two_seats).then(|| GameTerms {
            variant: String::new(),
            time_control: seek_clock,
            rated: !args.casual && seek_clock.is_some(),
            color: ColorChoice::Random,
            seats: 2,
        }),
        max_games: args.max_games,
    };
    let mut backoff = Duration::from_millis(500);
    loop {
        let started = Instant::now();
        match lobby(&bot, &token, &config, &mut ended_rx).await {
            Ok(()) => eprintln!("bot: the lobby connection closed; reconnecting"),
            Err(e) => eprintln!("bot: {e}; reconnecting"),
        }
        if started.elapsed() > Duration::from_secs(30) {
            backoff = Duration::from_millis(500);
        }
        sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(30));
    }
}

enum SignIn {
    Ready(String, AccountInfo),
    NotABot(AccountInfo),
}

/// Retries a request while the server cannot be reached (it may be starting or restarting).
async fn patiently<T, F, Fut>(what: &str, mut step: F) -> Result<T, net::HttpError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, net::HttpError>>,
{
    let mut backoff = Duration::from_millis(500);
    loop {
        match step().await {
            Err(e) if e.code.is_none() || e.code == Some(ErrorCode::Internal) => {
                eprintln!("bot: {what}: {}; trying again", e.text);
                sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(30));
            }
            other => return other,
        }
    }
}

/// The session: the token file's, else a sign-in with the name and password, else a new
/// guest account. A bot guest given a name is claimed with it.
async fn sign_in(
    server: &ServerUrl,
    token_file: &Path,
    credentials: Option<&(String, String)>,
) -> Result<SignIn, String> {
    let mut session = None;
    if let Ok(text) = std::fs::read_to_string(token_file) {
        let token = text.trim().to_owned();
        if !token.is_empty() {
            match patiently("GET /api/me", || {
                net::json_as::<AccountInfo>(server, "GET", paths::ME, None, Some(&token), 200)
            })
            .await
            {
                Ok(account) => session = Some((token, account)),
                Err(e) if e.code == Some(ErrorCode::NotSignedIn) => eprintln!(
                    "bot: the session in {} is no longer valid",
                    token_file.display()
                ),
                Err(e) => return Err(e.text),
            }
        }
    }
    if session.is_none()
        && let Some((name, password)) = credentials
    {
        let body = serde_json::to_string(&Credentials {
            name: name.clone(),
            password: password.clone(),
        })
        .expect("credentials serialise");
        match patiently("POST /api/session", || {
            net::json_as::<SignedIn>(server, "POST", paths::SESSION, Some(&body), None, 200)
        })
        .await
        {
            Ok(s) => session = Some((s.token, s.account)),
            Err(e) if e.code == Some(ErrorCode::WrongPassword) => eprintln!(
                "bot: no account {name} with this password yet: making a guest account to become it"
            ),
            Err(e) => return Err(e.text),
        }
        if let Some((token, _)) = &session {
            write_private(token_file, token)
                .map_err(|e| format!("cannot write {}: {e}", token_file.display()))?;
        }
    }
    let (token, mut account) = match session {
        Some(s) => s,
        None => {
            let s: SignedIn = patiently("POST /api/accounts/guest", || {
                net::json_as(server, "POST", paths::GUEST, None, None, 201)
            })
            .await
            .map_err(|e| e.text)?;
            write_private(token_file, &s.token)
                .map_err(|e| format!("cannot write {}: {e}", token_file.display()))?;
            outln!(
                "bot: made the guest account {} (session kept in {})",
                s.account.name,
                token_file.display()
            );
            (s.token, s.account)
        }
    };
    if !account.bot {
        return Ok(SignIn::NotABot(account));
    }
    if let Some((name, password)) = credentials
        && account.guest
    {
        let body = serde_json::to_string(&Credentials {
            name: name.clone(),
            password: password.clone(),
        })
        .expect("credentials serialise");
        account = net::json_as(server, "POST", paths::CLAIM, Some(&body), Some(&token), 200)
            .await
            .map_err(|e| format!("cannot name the bot account {name}: {}", e.text))?;
        outln!("bot: the account is now named {}", account.name);
    } else if let Some((name, _)) = credentials
        && !account.name.eq_ignore_ascii_case(name)
    {
        eprintln!(
            "bot: note: the token file signs in as {}, not {name}",
            account.name
        );
    }
    Ok(SignIn::Ready(token, account))
}

struct LobbyConfig {
    variants: Vec<String>,
    /// The table sizes it plays.
    seats: Vec<u8>,
    /// The pool to wait in, if any.
    pool: Option<PoolKey>,
    /// The seeks' terms (the variant filled in per seek); `None`: no seeks.
    seek: Option<GameTerms>,
    max_games: usize,
}

impl LobbyConfig {
    fn full(&self, bot: &Bot) -> bool {
        self.max_games > 0 && bot.active() >= self.max_games
    }

    /// Room for one more game besides the games in progress and `waiting` seats taken at
    /// tables that have not filled yet (each may become a game).
    fn room(&self, bot: &Bot, waiting: usize) -> bool {
        self.max_games == 0 || bot.active() + waiting < self.max_games
    }

    /// Whether the bot takes a seat at this table's seek (someone else's, of more than two
    /// seats, in its variants and table sizes, with a seat free).
    fn plays_table(&self, seek: &Seek, me: &str) -> bool {
        seek.seats > 2
            && self.seats.contains(&seek.seats)
            && self.variants.contains(&seek.variant)
            && seek.by.name != me
            && seek.seated.len() < usize::from(seek.seats)
    }
}

/// What the lobby loop knows about its own seeks.
#[derive(Default)]
struct Seeks {
    /// variant → the open seek's id.
    open: HashMap<String, String>,
    /// Variants with a `seek` sent and not yet answered by `seek_added`.
    asked: HashMap<String, Instant>,
    /// Not before (after a refusal).
    retry_at: HashMap<String, Instant>,
    /// Other players' open seeks for tables of more than two, as the lobby last showed them.
    tables: HashMap<String, Seek>,
    /// Tables' seeks the bot has a seat at (not yet full).
    sitting: HashSet<String>,
    /// Tables' seeks with an `accept_seek` sent and not yet answered.
    accepting: HashMap<String, Instant>,
    /// The bot waits in its pool.
    in_pool: bool,
    /// A `join_pool` sent and not yet answered, and when.
    pool_asked: Option<Instant>,
    /// The pool is not one of the server's: not asked for again on this connection.
    pool_gone: bool,
}

impl Seeks {
    /// Takes in the lobby's view of a table's seek: the bot's seat there (or its seat given
    /// back), or a seek it may sit down at.
    fn note_table(&mut self, seek: Seek, me: &str) {
        self.accepting.remove(&seek.id);
        if seek.seated.iter().any(|p| p.name == me) {
            self.sitting.insert(seek.id.clone());
        } else {
            self.sitting.remove(&seek.id);
        }
        self.tables.insert(seek.id.clone(), seek);
    }

    fn forget_table(&mut self, id: &str) {
        self.tables.remove(id);
        self.sitting.remove(id);
        self.accepting.remove(id);
    }

    /// Seats taken or asked for at tables that have not filled.
    fn waiting_seats(&self) -> usize {
        self.sitting.len() + self.accepting.len()
    }
}

/// One lobby connection: until it closes or fails.
async fn lobby(
    bot: &Arc<Bot>,
    token: &str,
    config: &LobbyConfig,
    ended: &mut mpsc::UnboundedReceiver<String>,
) -> Result<(), String> {
    let (mut ws, welcome) =
        net::lobby_connect(&bot.server, token, &bot.client, SEATS_PROTOCOL_VERSION).await?;
    let LobbyServerMessage::Welcome {
        account,
        seeks,
        challenges,
        playing,
        waiting_in,
        ..
    } = welcome
    else {
        unreachable!("lobby_connect returns a welcome")
    };
    let me = &account.name;
    eprintln!(
        "bot: in the lobby as {me}: {} games in progress, {} seeks, {} challenges",
        playing.len(),
        seeks.len(),
        challenges.len()
    );
    // Games the server says are on: play those we hold a seat token for.
    {
        let stored = bot.games.lock().unwrap().clone();
        for game in &playing {
            match stored.get(game) {
                Some(g) => bot.start_game(game.clone(), g.clone()),
                None => eprintln!("bot: game {game} is in progress but its seat token is lost"),
            }
        }
    }
    let mut own = Seeks {
        in_pool: waiting_in.is_some() && waiting_in == config.pool,
        ..Seeks::default()
    };
    for seek in &seeks {
        if seek.seats > 2 && seek.by.name != *me {
            own.note_table(seek.clone(), me);
            continue;
        }
        if seek.by.name != *me {
            continue;
        }
        let wanted = config.seek.as_ref().is_some_and(|t| {
            seek.seats == 2
                && config.variants.contains(&seek.variant)
                && seek.time_control == t.time_control
                && seek.rated == t.rated
                && !own.open.contains_key(&seek.variant)
        });
        if wanted {
            own.open.insert(seek.variant.clone(), seek.id.clone());
        } else {
            cancel_seek(&mut ws, &mut own, &seek.id).await?;
        }
    }
    for c in &challenges {
        if c.to.name == *me {
            answer_challenge(&mut ws, bot, config, c).await?;
        }
    }
    reconcile(&mut ws, bot, config, &mut own, me).await?;
    let mut ping = tokio::time::interval(Duration::from_secs(10));
    let mut tick = tokio::time::interval(Duration::from_secs(2));
    loop {
        tokio::select! {
            msg = net::lobby_recv(&mut ws) => {
                let Some(msg) = msg? else { return Ok(()) };
                match msg {
                    LobbyServerMessage::SeekAdded { seek } if seek.seats > 2 && seek.by.name != *me => {
                        own.note_table(seek, me);
                    }
                    LobbyServerMessage::SeekAdded { seek } if seek.by.name == *me => {
                        own.asked.remove(&seek.variant);
                        if own.open.contains_key(&seek.variant) || config.seek.is_none() || seek.seats != 2 {
                            cancel_seek(&mut ws, &mut own, &seek.id).await?;
                        } else {
                            eprintln!("bot: seek {} open ({} {})", seek.id, seek.variant,
                                seek.time_control.map_or("untimed".to_owned(), |t| t.to_string()));
                            own.open.insert(seek.variant.clone(), seek.id.clone());
                        }
                    }
                    LobbyServerMessage::SeekRemoved { id } => {
                        if own.open.values().any(|s| *s == id) {
                            eprintln!("bot: seek {id} gone (accepted or expired)");
                        }
                        own.open.retain(|_, s| *s != id);
                        own.forget_table(&id);
                    }
                    LobbyServerMessage::PoolJoined { pool } => {
                        own.pool_asked = None;
                        own.in_pool = Some(&pool) == config.pool.as_ref();
                        if own.in_pool {
                            eprintln!("bot: waiting in the pool {}", pool.id());
                        }
                    }
                    LobbyServerMessage::PoolLeft => {
                        own.in_pool = false;
                    }
                    LobbyServerMessage::Seated { game, seat, token, players, variant, time_control, .. } => {
                        // A game takes the account out of its pool (`pool_left` came first
                        // from a pool; a seek's table may say none): it joins again while it
                        // has room.
                        own.in_pool = false;
                        let opponent = players
                            .seats
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| *i != usize::from(seat))
                            .map(|(_, p)| player_text(p))
                            .collect::<Vec<_>>()
                            .join(", ");
                        outln!(
                            "game {game} start: {variant} {} {} at seat {seat} of {} vs {opponent}",
                            time_control.map_or("untimed".to_owned(), |t| t.to_string()),
                            if players.rated { "rated" } else { "casual" },
                            players.seats.len(),
                        );
                        let stored = StoredGame {
                            token,
                            color: if seat == 0 { Side::White } else { Side::Black },
                            variant,
                            opponent,
                            seat: Some(seat),
                        };
                        bot.games.lock().unwrap().insert(game.clone(), stored.clone());
                        bot.save();
                        bot.start_game(game, stored);
                    }
                    LobbyServerMessage::Challenge { challenge } if challenge.to.name == *me => {
                        answer_challenge(&mut ws, bot, config, &challenge).await?;
                    }
                    LobbyServerMessage::Paired { game, color, token, players, variant, time_control, .. } => {
                        own.in_pool = false;
                        let opponent = players.get(color.other()).name.clone();
                        outln!(
                            "game {game} start: {variant} {} {} as {color} vs {opponent} ({})",
                            time_control.map_or("untimed".to_owned(), |t| t.to_string()),
                            if players.rated { "rated" } else { "casual" },
                            players
                                .get(color.other())
                                .rating
                                .map_or("unrated".to_owned(), |r| r.to_string()),
                        );
                        // An accepted seek's `seek_removed` comes too (before this): the seek
                        // is opened again then. A challenge's game leaves the seeks as they are.
                        let stored = StoredGame { token, color, variant, opponent, seat: None };
                        bot.games.lock().unwrap().insert(game.clone(), stored.clone());
                        bot.save();
                        bot.start_game(game, stored);
                    }
                    LobbyServerMessage::Error { code, message, fatal } => {
                        eprintln!("bot: lobby: {message} ({code})");
                        if fatal {
                            return Err(format!("the lobby closed the connection: {message}"));
                        }
                        match code {
                            // A table's seek whose last seat another accepter took first: its
                            // `seek_removed` follows.
                            ErrorCode::SeekNotFound => {}
                            ErrorCode::PoolNotFound => {
                                own.pool_asked = None;
                                own.pool_gone = true;
                            }
                            // A refused seek or pool: try again later.
                            _ => {
                                for (variant, _) in own.asked.drain() {
                                    own.retry_at.insert(variant, Instant::now() + Duration::from_secs(30));
                                }
                                if own.pool_asked.take().is_some() {
                                    own.retry_at.insert(String::new(), Instant::now() + Duration::from_secs(30));
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            Some(_) = ended.recv() => {}
            _ = tick.tick() => {}
            _ = ping.tick() => {
                net::lobby_send(&mut ws, &LobbyClientMessage::Ping { n: 0 }).await?;
            }
        }
        reconcile(&mut ws, bot, config, &mut own, me).await?;
    }
}

/// `Anna (1500?)`, a player as the log lines show one.
fn player_text(p: &PlayerInfo) -> String {
    format!(
        "{} ({})",
        p.name,
        p.rating.map_or("unrated".to_owned(), |r| r.to_string())
    )
}

async fn cancel_seek(ws: &mut Ws, own: &mut Seeks, id: &str) -> Result<(), String> {
    own.open.retain(|_, s| s != id);
    net::lobby_send(ws, &LobbyClientMessage::CancelSeek { id: id.to_owned() }).await
}

/// One seek open per variant while there is room for a game, none when full; a seat at the
/// tables it plays while there is room for one more (its seats at tables that have not
/// filled given back when full); waiting in its pool while there is room.
async fn reconcile(
    ws: &mut Ws,
    bot: &Bot,
    config: &LobbyConfig,
    own: &mut Seeks,
    me: &str,
) -> Result<(), String> {
    tables(ws, bot, config, own, me).await?;
    pool(ws, bot, config, own).await?;
    let Some(terms) = &config.seek else {
        return Ok(());
    };
    if config.full(bot) {
        let open: Vec<String> = own.open.values().cloned().collect();
        for id in open {
            cancel_seek(ws, own, &id).await?;
        }
        return Ok(());
    }
    let now = Instant::now();
    // A seek asked for and never answered (a lost message): ask again after a while.
    own.asked
        .retain(|_, at| now.duration_since(*at) < Duration::from_secs(20));
    for variant in &config.variants {
        if own.open.contains_key(variant)
            || own.asked.contains_key(variant)
            || own.retry_at.get(variant).is_some_and(|t| *t > now)
        {
            continue;
        }
        own.asked.insert(variant.clone(), now);
        net::lobby_send(
            ws,
            &LobbyClientMessage::Seek {
                terms: GameTerms {
                    variant: variant.clone(),
                    ..terms.clone()
                },
            },
        )
        .await?;
    }
    Ok(())
}

/// Takes seats at the tables it plays while there is room, one at a time (the server seats
/// an account once per seek); gives its waiting seats back when its games fill it up.
async fn tables(
    ws: &mut Ws,
    bot: &Bot,
    config: &LobbyConfig,
    own: &mut Seeks,
    me: &str,
) -> Result<(), String> {
    let now = Instant::now();
    // An accept never answered (a lost message): free to ask again.
    own.accepting
        .retain(|_, at| now.duration_since(*at) < Duration::from_secs(20));
    if config.full(bot) {
        let sitting: Vec<String> = own.sitting.drain().collect();
        for id in sitting {
            eprintln!("bot: giving back its seat at {id}: no room for another game");
            net::lobby_send(ws, &LobbyClientMessage::LeaveSeek { id }).await?;
        }
        return Ok(());
    }
    let mut ids: Vec<&String> = own.tables.keys().collect();
    ids.sort();
    let mut take = Vec::new();
    let mut waiting = own.waiting_seats();
    for id in ids {
        let seek = &own.tables[id];
        if own.sitting.contains(id)
            || own.accepting.contains_key(id)
            || !config.plays_table(seek, me)
            || seek.seated.iter().any(|p| p.name == me)
        {
            continue;
        }
        if !config.room(bot, waiting) {
            break;
        }
        waiting += 1;
        take.push(id.clone());
    }
    for id in take {
        let seek = &own.tables[&id];
        eprintln!(
            "bot: taking a seat at {}'s table {id} ({} x{}, {} of {} seated)",
            seek.by.name,
            seek.variant,
            seek.seats,
            seek.seated.len(),
            seek.seats
        );
        own.accepting.insert(id.clone(), now);
        net::lobby_send(ws, &LobbyClientMessage::AcceptSeek { id }).await?;
    }
    Ok(())
}

/// Waits in the pool while there is room for a game; leaves it when full.
async fn pool(ws: &mut Ws, bot: &Bot, config: &LobbyConfig, own: &mut Seeks) -> Result<(), String> {
    let Some(pool) = &config.pool else {
        return Ok(());
    };
    let now = Instant::now();
    if config.full(bot) || !config.room(bot, own.waiting_seats()) {
        if own.in_pool {
            own.in_pool = false;
            net::lobby_send(ws, &LobbyClientMessage::LeavePool).await?;
        }
        return Ok(());
    }
    let asked = own
        .pool_asked
        .is_some_and(|at| now.duration_since(at) < Duration::from_secs(20));
    // The pool's retry time is kept under the empty variant name.
    let later = own.retry_at.get("").is_some_and(|t| *t > now);
    if own.in_pool || own.pool_gone || asked || later {
        return Ok(());
    }
    own.pool_asked = Some(now);
    net::lobby_send(ws, &LobbyClientMessage::JoinPool { pool: pool.clone() }).await
}

async fn answer_challenge(
    ws: &mut Ws,
    bot: &Bot,
    config: &LobbyConfig,
    c: &boardcraft_protocol::Challenge,
) -> Result<(), String> {
    let plays = config.variants.contains(&c.variant) && config.seats.contains(&2);
    let id = c.id.clone();
    if plays && !config.full(bot) {
        eprintln!(
            "bot: accepting {}'s challenge ({} {})",
            c.from.name,
            c.variant,
            c.time_control
                .map_or("untimed".to_owned(), |t| t.to_string())
        );
        net::lobby_send(ws, &LobbyClientMessage::AcceptChallenge { id }).await
    } else {
        eprintln!(
            "bot: declining {}'s challenge ({}: {})",
            c.from.name,
            c.variant,
            if plays {
                "no room for another game"
            } else {
                "a variant it does not play"
            }
        );
        net::lobby_send(ws, &LobbyClientMessage::DeclineChallenge { id }).await
    }
}

// ----- one game, of two seats or more (protocol 3)

/// The time to think for one move: a share of what is left, plus most of the increment;
/// little when short of time. `None` untimed (the level's own budget).
fn think_time(clock_left_ms: u64, increment_ms: u64) -> Duration {
    // Keep a reserve for the network and the server's round trip.
    let usable = clock_left_ms.saturating_sub(1_000);
    let share = usable / 30 + increment_ms * 3 / 4;
    Duration::from_millis(share.min(usable / 4).max(20))
}

/// How a table's connection ended.
enum TableSession {
    /// The game is over.
    Over(SeatResult, Option<Vec<RatingChange>>),
    /// The bot's seat left the table (its flag fell, or it was claimed gone) while the others
    /// play on: its place is settled and it has nothing more to play.
    Left(u8),
    /// The connection went (reconnect).
    Closed(String),
    /// The server refuses this seat for good (no such game, a wrong token).
    Refused(String),
}

/// Plays the bot's seat of a game until the game ends for it; the end as text (the place
/// too at a table of more than two).
async fn play_game(bot: &Bot, game: &str, stored: &StoredGame, seat: SeatIndex) -> String {
    let mut backoff = Duration::from_millis(250);
    loop {
        let started = Instant::now();
        match table_session(bot, game, stored, seat).await {
            TableSession::Over(result, ratings) => {
                let place = match result.place_of(seat) {
                    Some(p) if stored.seat.is_some() => {
                        format!(", place {p} of {}", result.placements.len())
                    }
                    _ => String::new(),
                };
                let rating = ratings
                    .as_ref()
                    .and_then(|r| r.get(usize::from(seat)))
                    .map_or(String::new(), |c| {
                        format!(", rating {} -> {} ({:+})", c.before, c.after, c.delta())
                    });
                return format!("{}{place}{rating}", result.text);
            }
            TableSession::Left(place) => {
                return format!("its seat left the table, place {place}");
            }
            TableSession::Refused(why) => return format!("given up: {why}"),
            TableSession::Closed(why) => {
                eprintln!("bot: game {game}: {why}; reconnecting");
            }
        }
        if started.elapsed() > Duration::from_secs(20) {
            backoff = Duration::from_millis(250);
        }
        sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(15));
    }
}

/// Opens the game websocket and says hello with protocol 3.
async fn connect_table(
    bot: &Bot,
    game: &str,
    token: &str,
) -> Result<(Ws, SeatSnapshot), TableSession> {
    let work = async {
        let (mut ws, _) = tokio_tungstenite::connect_async(bot.server.game_ws(game))
            .await
            .map_err(|e| TableSession::Closed(format!("websocket: {e}")))?;
        net::send(
            &mut ws,
            &ClientMessage::Hello {
                protocol: SEATS_PROTOCOL_VERSION,
                game: game.to_owned(),
                token: Some(token.to_owned()),
                client: Some(bot.client.clone()),
            },
        )
        .await
        .map_err(TableSession::Closed)?;
        match net::recv_seats(&mut ws)
            .await
            .map_err(TableSession::Closed)?
        {
            Some(SeatServerMessage::Welcome { game, .. }) => Ok((ws, game)),
            Some(SeatServerMessage::Error { code, message, .. }) => Err(
                if matches!(code, ErrorCode::GameNotFound | ErrorCode::BadToken) {
                    TableSession::Refused(format!("{message} ({code})"))
                } else {
                    TableSession::Closed(format!("refused: {message} ({code})"))
                },
            ),
            other => Err(TableSession::Closed(format!(
                "expected a welcome, got {other:?}"
            ))),
        }
    };
    tokio::time::timeout(Duration::from_secs(30), work)
        .await
        .unwrap_or_else(|_| Err(TableSession::Closed("no welcome in 30 s".into())))
}

async fn table_session(
    bot: &Bot,
    game: &str,
    stored: &StoredGame,
    seat: SeatIndex,
) -> TableSession {
    let (mut ws, snapshot) = match connect_table(bot, game, &stored.token).await {
        Ok(x) => x,
        Err(s) => return s,
    };
    match play_on_table(bot, &mut ws, snapshot, seat).await {
        Ok(s) => s,
        Err(e) => TableSession::Closed(e),
    }
}

fn seat_clock(clocks: &Option<SeatClocks>, seat: SeatIndex) -> Option<u64> {
    clocks
        .as_ref()
        .and_then(|c| c.remaining_ms.get(usize::from(seat)).copied())
}

/// When each other seat that is gone may be claimed, as the snapshot tells (one claim takes
/// every seat gone past the grace period).
fn table_claim_time(snapshot: &SeatSnapshot, seat: SeatIndex) -> HashMap<SeatIndex, Instant> {
    let mut at = HashMap::new();
    if snapshot.status != GameStatus::Playing {
        return at;
    }
    for (i, s) in snapshot.seats.iter().enumerate() {
        let i = i as SeatIndex;
        if i == seat || snapshot.left.iter().any(|l| l.seat == i) {
            continue;
        }
        if let Presence::Gone { claim_in_ms } = s.presence {
            at.insert(i, Instant::now() + Duration::from_millis(claim_in_ms + 100));
        }
    }
    at
}

/// The table's game as the snapshot tells it: the mirror, whether it is on, the bot's clock,
/// the claims, or the end for the bot.
struct TableState {
    mirror: SeatMirror,
    started: bool,
    clock: Option<u64>,
    claims: HashMap<SeatIndex, Instant>,
}

fn table_state(
    snapshot: &SeatSnapshot,
    seat: SeatIndex,
) -> Result<Result<TableState, TableSession>, String> {
    if let Some(result) = snapshot.result.clone() {
        return Ok(Err(TableSession::Over(result, snapshot.ratings.clone())));
    }
    if let Some(left) = snapshot.left.iter().find(|l| l.seat == seat) {
        return Ok(Err(TableSession::Left(left.place)));
    }
    Ok(Ok(TableState {
        mirror: SeatMirror::of(snapshot)?,
        started: snapshot.status == GameStatus::Playing,
        clock: seat_clock(&snapshot.clocks, seat),
        claims: table_claim_time(snapshot, seat),
    }))
}

async fn play_on_table(
    bot: &Bot,
    ws: &mut Ws,
    snapshot: SeatSnapshot,
    seat: SeatIndex,
) -> Result<TableSession, String> {
    let level = bot.level;
    let increment = snapshot.time_control.map_or(0, |t| t.increment_ms);
    let timed = snapshot.time_control.is_some();
    let seed = snapshot
        .game
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        })
        ^ u64::from(seat);
    let mut state = match table_state(&snapshot, seat)? {
        Ok(s) => s,
        Err(end) => return Ok(end),
    };
    // The move sent and not yet acknowledged, with when it was sent.
    let mut pending: Option<(u32, String, Instant)> = None;
    let mut ping = tokio::time::interval(Duration::from_secs(5));
    loop {
        if state.started
            && pending.is_none()
            && state.mirror.seat_to_move() == seat
            && !state.mirror.position.is_game_over()
        {
            let position = state.mirror.position.clone();
            let move_seed = seed ^ (state.mirror.ply() as u64).wrapping_mul(0x9e37_79b9);
            let budget = timed.then(|| think_time(state.clock.unwrap_or(0), increment));
            // The AI's search plays tables of any size (best-reply search past two seats).
            let thinking = tokio::task::spawn_blocking(move || {
                let mut cfg = level.config(&position, move_seed);
                if let Some(t) = budget {
                    cfg.budget = cfg.budget.with_time(t);
                }
                AnySearch::new(&position, cfg)
                    .run()
                    .best_move
                    .map(|m| position.format_move(&m))
            });
            // Keep answering the server (pings, presence) while thinking.
            let mut thinking = std::pin::pin!(thinking);
            let chosen = loop {
                tokio::select! {
                    done = &mut thinking => break done.map_err(|e| e.to_string())?,
                    _ = ping.tick() => net::send(ws, &ClientMessage::Ping { n: 0 }).await?,
                }
            };
            let Some(notation) = chosen else {
                return Err("the engine found no move".into());
            };
            let ply = state.mirror.ply();
            net::send(
                ws,
                &ClientMessage::Move {
                    ply,
                    notation: notation.clone(),
                },
            )
            .await?;
            pending = Some((ply, notation, Instant::now()));
        }
        let resend_at = pending
            .as_ref()
            .map(|(_, _, t)| *t + Duration::from_millis(2500));
        let claim_at = state.claims.values().min().copied();
        tokio::select! {
            msg = net::recv_seats(ws) => {
                let Some(msg) = msg? else { return Ok(TableSession::Closed("the connection closed".into())) };
                match msg {
                    SeatServerMessage::Snapshot { game: snapshot, .. } => {
                        state = match table_state(&snapshot, seat)? {
                            Ok(s) => s,
                            Err(end) => return Ok(end),
                        };
                        pending = None;
                    }
                    SeatServerMessage::Moved { ply, notation, hash, clocks, .. } => {
                        if ply == state.mirror.ply() {
                            state.mirror.apply(&notation)?;
                            if state.mirror.hash() != hash {
                                net::send(ws, &ClientMessage::Resync).await?;
                            }
                        }
                        if clocks.is_some() {
                            state.clock = seat_clock(&clocks, seat);
                        }
                        if pending.as_ref().is_some_and(|(p, _, _)| *p <= ply) {
                            pending = None;
                        }
                    }
                    SeatServerMessage::GameOver { result, ratings, .. } => {
                        return Ok(TableSession::Over(result, ratings));
                    }
                    // The computer plays on: it declines draws and rematches (a decline
                    // withdraws the offer for every seat).
                    SeatServerMessage::Offer { offer, by, .. } if by != seat => {
                        net::send(ws, &ClientMessage::Decline { offer }).await?;
                    }
                    SeatServerMessage::Presence { seat: s, presence } if s != seat => {
                        match presence {
                            Presence::Gone { claim_in_ms } => {
                                state.claims.insert(s, Instant::now() + Duration::from_millis(claim_in_ms + 100));
                            }
                            _ => {
                                state.claims.remove(&s);
                            }
                        }
                    }
                    SeatServerMessage::Error { code, message, fatal, .. } => {
                        if fatal {
                            return Ok(TableSession::Closed(format!("closed by the server: {message} ({code})")));
                        }
                        if code != ErrorCode::ClaimNotAllowed {
                            eprintln!("bot: server: {message} ({code}); resyncing");
                            pending = None;
                            net::send(ws, &ClientMessage::Resync).await?;
                        }
                    }
                    _ => {}
                }
            }
            _ = sleep_until_opt(resend_at) => {
                if let Some((ply, notation, sent)) = &mut pending {
                    net::send(ws, &ClientMessage::Move { ply: *ply, notation: notation.clone() }).await?;
                    *sent = Instant::now();
                }
            }
            _ = sleep_until_opt(claim_at) => {
                // One claim takes every seat gone past the grace period.
                let now = Instant::now();
                state.claims.retain(|_, at| *at > now);
                net::send(ws, &ClientMessage::ClaimVictory).await?;
            }
            _ = ping.tick() => {
                net::send(ws, &ClientMessage::Ping { n: 0 }).await?;
            }
        }
    }
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinks_less_when_short_of_time() {
        let plenty = think_time(300_000, 3_000);
        let short = think_time(5_000, 0);
        assert!(plenty > Duration::from_secs(5), "{plenty:?}");
        assert!(short <= Duration::from_millis(1_000), "{short:?}");
        assert_eq!(think_time(500, 0), Duration::from_millis(20));
        // Never more than a quarter of what is left.
        assert!(think_time(10_000, 60_000) <= Duration::from_millis(2_250));
    }

    #[test]
    fn seat_counts_and_pools_as_written_on_the_command_line() {
        assert_eq!(seat_counts("2,3, 4,6").unwrap(), vec![2, 3, 4, 6]);
        for bad in ["", "1", "7", "3,x"] {
            assert!(seat_counts(bad).is_err(), "{bad}");
        }
        let table = pool_key("chinese-checkers 5+3 x6").unwrap();
        assert_eq!(table.id(), "chinese-checkers 300+3 x6");
        let two = pool_key("ugolki-9qum 3+2").unwrap();
        assert_eq!((two.seats, two.id().as_str()), (2, "ugolki-9qum 180+2"));
        for bad in ["focus", "focus 5+3 x7", "focus 5+3 3", "focus 5+3 x3 more"] {
            assert!(pool_key(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn state_file_beside_the_token() {
        assert_eq!(
            state_path(Path::new("/var/lib/bot/master.token")),
            PathBuf::from("/var/lib/bot/master.token.games.json")
        );
    }
}
