//! The lobby (lobby protocol 3: tables of more than two too): the account this player is signed in with, and the server's lobby
//! websocket (`/lobby`) — quick-pairing pools, seeks, challenges, counts — plus the account's
//! HTTP pages (profile, archive, leaderboard) and opening an archived game in review.
//!
//! - **Signing in** ([`LobbyCommand::Enter`]): the session token kept for the server (a file in
//!   the data folder on the desktop, browser storage on the web: [`ACCOUNT_KEY`]) is checked
//!   with `GET /api/me`; without one, inside Telegram the page's `initData` signs in
//!   (`POST /api/session/telegram`), else a new guest is made (`POST /api/accounts/guest`).
//!   A name and a password keep the account (`POST /api/accounts/claim`); another account signs
//!   in with its name and password (`POST /api/session`); signing out ends the session
//!   (`DELETE /api/session`) and forgets the token.
//! - **The lobby** is a websocket of its own ([`crate::online::link::Link`], reconnecting like
//!   the game's), the hello carrying the session token. A `paired` (two seats) or `seated`
//!   (more) message hands the game and the seat token to the game session
//!   ([`OnlineCommand::Seated`]): the game is then played exactly as an invite game.
//!
//! Only this module writes [`Lobby`]; the screens (`ui::online::lobby`) and the tests read it and
//! write [`LobbyCommand`]s.
use std::sync::mpsc;

use bevy::prelude::*;
use boardcraft_protocol::{
    Challenge, ErrorCode, GameTerms, LOBBY_PATH, LobbyClientMessage, LobbyCounts,
    LobbyServerMessage, PoolInfo, PoolKey, Rating, SEATS_PROTOCOL_VERSION, SeatPlayers, Seek,
    http::{
        AccountInfo, ApiError, Credentials, Leaderboard, Me, PlayerGames, Profile, SignedIn,
        TelegramSignIn,
    },
    parse_lobby_server_message, paths, seat_of,
};
use serde::{Deserialize, Serialize};

use super::{
    Online, OnlineCommand,
    link::{Link, LinkEvent, LinkState},
    session::{PING_EVERY, SILENCE},
};
use crate::{
    game::{
        config::Players,
        match_state::{Match, StartGame},
        review::{Review, ReviewCommand},
        variants::VariantLibrary,
    },
    persistence::storage::Storage,
};

/// The store key of the session tokens (one per server).
pub const ACCOUNT_KEY: &str = "online/account.ron";

/// One server's session, as kept between runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSession {
    pub server: String,
    pub token: String,
    /// The account's name when it was last seen (shown while signing in).
    #[serde(default)]
    pub name: String,
}

fn load_sessions(storage: &Storage) -> Vec<StoredSession> {
    match storage.raw().get(ACCOUNT_KEY) {
        Ok(Some(bytes)) => std::str::from_utf8(&bytes)
            .ok()
            .and_then(|t| ron::from_str(t).ok())
            .unwrap_or_else(|| {
                warn!("online: {ACCOUNT_KEY} cannot be read; signing in anew");
                Vec::new()
            }),
        Ok(None) => Vec::new(),
        Err(e) => {
            warn!("online: cannot read {ACCOUNT_KEY}: {e}");
            Vec::new()
        }
    }
}

fn save_sessions(storage: &Storage, list: &[StoredSession]) {
    match ron::ser::to_string_pretty(list, ron::ser::PrettyConfig::default()) {
        Ok(text) => {
            if let Err(e) = storage.raw().put(ACCOUNT_KEY, text.as_bytes()) {
                warn!("online: cannot keep the session ({e}); the next start signs in anew");
            }
        }
        Err(e) => error!("online: cannot write the sessions: {e}"),
    }
}

/// The session kept for `server`.
pub fn stored_session(storage: &Storage, server: &str) -> Option<StoredSession> {
    load_sessions(storage)
        .into_iter()
        .find(|s| s.server == server)
}

fn remember_session(storage: &Storage, session: StoredSession) {
    let mut list = load_sessions(storage);
    list.retain(|s| s.server != session.server);
    list.insert(0, session);
    list.truncate(20);
    save_sessions(storage, &list);
}

fn forget_session(storage: &Storage, server: &str) {
    let mut list = load_sessions(storage);
    list.retain(|s| s.server != server);
    save_sessions(storage, &list);
}

/// What the player (the lobby screen, a test) asks of the lobby.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum LobbyCommand {
    /// Sign in (the kept session, Telegram, or a new guest) and open the lobby.
    Enter,
    /// Close the lobby (leaves the pool; seeks stay a short while, as the server keeps them).
    Leave,
    /// Give the signed-in account a name and a password.
    Claim {
        name: String,
        password: String,
    },
    /// Sign in to another account with its name and password.
    SignIn {
        name: String,
        password: String,
    },
    /// End the session and forget its token.
    SignOut,
    JoinPool(PoolKey),
    LeavePool,
    Seek(GameTerms),
    CancelSeek(String),
    /// Accept a two-seat seek, or take a seat at a larger table's.
    AcceptSeek(String),
    /// Give back one's seat at a table's seek that is not full.
    LeaveSeek(String),
    Challenge {
        to: String,
        terms: GameTerms,
    },
    AcceptChallenge(String),
    DeclineChallenge(String),
    CancelChallenge(String),
    /// `GET /api/players/{name}`.
    Profile(String),
    /// `GET /api/players/{name}/games?page=N` (from 1).
    Archive {
        name: String,
        page: u32,
    },
    /// `GET /api/leaderboard/{variant}`.
    Leaderboard(String),
    /// Open an archived game in review (`GET /api/games/{id}/save.ron`).
    OpenGame(String),
}

/// Where signing in is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SignIn {
    #[default]
    Out,
    /// A request is on its way.
    Working,
    In,
}

/// What a lobby request failed with, to tell the player.
#[derive(Clone, Debug, PartialEq)]
pub struct LobbyNotice {
    pub code: Option<ErrorCode>,
    pub message: String,
    /// What was asked (for the words: "signing in", "claiming" …).
    pub about: NoticeAbout,
    pub at: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeAbout {
    SignIn,
    Claim,
    Lobby,
    Fetch,
}

/// The lobby as the screens and the tests read it.
#[derive(Resource, Debug, Default)]
pub struct Lobby {
    /// The player asked for the lobby (and has not left it).
    pub entered: bool,
    pub sign_in: SignIn,
    pub account: Option<AccountInfo>,
    token: Option<String>,
    /// The server the account belongs to.
    pub server: String,
    pub link: Option<LinkState>,
    /// The lobby's `welcome` came (on this connection).
    pub welcomed: bool,
    pub server_name: String,
    pub ratings: Vec<Rating>,
    pub pools: Vec<PoolInfo>,
    pub waiting_in: Option<PoolKey>,
    pub seeks: Vec<Seek>,
    pub challenges: Vec<Challenge>,
    pub playing: Vec<String>,
    pub counts: LobbyCounts,
    pub notice: Option<LobbyNotice>,
    /// Games the lobby made for this player (the last one's id).
    pub paired: u32,
    pub last_paired: Option<String>,
    /// The last profile, archive page and leaderboard fetched.
    pub profile: Option<Profile>,
    pub archive: Option<PlayerGames>,
    pub leaderboard: Option<Leaderboard>,
    /// An archived game being fetched to review.
    pub opening: Option<String>,
    /// An archived game was started on the board, replacing the game with this id (`None`:
    /// there was none): its review is to go to the start once it shows.
    review_after: Option<Option<u64>>,
    ping_n: u64,
    last_ping: f64,
}

impl Lobby {
    /// The signed-in account's rating in `variant`, if it has played it rated.
    pub fn rating(&self, variant: &str) -> Option<&Rating> {
        self.ratings.iter().find(|r| r.variant == variant)
    }

    /// This account's own seeks.
    pub fn is_mine(&self, seek: &Seek) -> bool {
        self.account
            .as_ref()
            .is_some_and(|a| a.name == seek.by.name)
    }

    /// Whether this account sits at a table's seek (its seeker included).
    pub fn is_seated(&self, seek: &Seek) -> bool {
        self.account
            .as_ref()
            .is_some_and(|a| seek.seated.iter().any(|p| p.name == a.name))
    }

    /// Whether a challenge was made to this account (else by it).
    pub fn is_to_me(&self, challenge: &Challenge) -> bool {
        self.account
            .as_ref()
            .is_some_and(|a| a.name == challenge.to.name)
    }

    fn notify(&mut self, about: NoticeAbout, code: Option<ErrorCode>, message: String) {
        info!("lobby: {about:?}: {code:?} {message}");
        self.notice = Some(LobbyNotice {
            code,
            message,
            about,
            at: super::wall_now(),
        });
    }

    /// The lobby websocket's address on `server`.
    pub fn ws_url(server: &str) -> String {
        let base = server.trim_end_matches('/');
        let base = if let Some(rest) = base.strip_prefix("https://") {
            format!("wss://{rest}")
        } else if let Some(rest) = base.strip_prefix("http://") {
            format!("ws://{rest}")
        } else {
            base.to_owned()
        };
        format!("{base}{LOBBY_PATH}")
    }
}

/// Why an HTTP request failed: the server's error, or a transport problem.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub code: Option<ErrorCode>,
    pub message: String,
    pub status: u16,
}

/// The requests this module sends.
#[derive(Debug, Clone, PartialEq)]
enum Asked {
    Me,
    Guest,
    Telegram,
    Claim,
    SignIn,
    SignOut,
    Profile,
    Archive { name: String, page: u32 },
    Leaderboard(String),
    Save(String),
}

struct Answer {
    asked: Asked,
    result: Result<Vec<u8>, Refusal>,
}

/// The lobby's connection and HTTP answers (not `Send` in the browser).
pub struct LobbyNetwork {
    link: Option<Link>,
    sender: mpsc::Sender<Answer>,
    receiver: mpsc::Receiver<Answer>,
}

impl Default for LobbyNetwork {
    fn default() -> Self {
        let (sender, receiver) = mpsc::channel();
        LobbyNetwork {
            link: None,
            sender,
            receiver,
        }
    }
}

impl LobbyNetwork {
    fn request(&self, asked: Asked, mut request: ehttp::Request, token: Option<&str>) {
        if let Some(token) = token {
            request
                .headers
                .insert("Authorization", format!("Bearer {token}"));
        }
        let sender = self.sender.clone();
        ehttp::fetch(request, move |result| {
            let result = match result {
                Err(e) => Err(Refusal {
                    code: None,
                    message: format!("cannot reach the server: {e}"),
                    status: 0,
                }),
                Ok(response) if response.ok => Ok(response.bytes),
                Ok(response) => Err(match serde_json::from_slice::<ApiError>(&response.bytes) {
                    Ok(e) => Refusal {
                        code: Some(e.code),
                        message: e.message,
                        status: response.status,
                    },
                    Err(_) => Refusal {
                        code: None,
                        message: format!("HTTP {} {}", response.status, response.status_text),
                        status: response.status,
                    },
                }),
            };
            sender.send(Answer { asked, result }).ok();
        });
    }

    fn send(&mut self, message: &LobbyClientMessage) -> bool {
        match &mut self.link {
            Some(link) => link.send(message.to_json()),
            None => false,
        }
    }
}

fn post_json<T: Serialize>(url: String, body: &T) -> ehttp::Request {
    super::http::post_json(url, serde_json::to_vec(body).expect("a request serialises"))
}

/// `Telegram.WebApp.initData`, when the page runs as a Telegram Mini App (the page's
/// `window.boardcraftTelegramInitData()`, web/index.html).
#[cfg(target_arch = "wasm32")]
fn telegram_init_data() -> Option<String> {
    use wasm_bindgen::JsCast;
    let window = web_sys::window()?;
    let getter = js_sys::Reflect::get(&window, &"boardcraftTelegramInitData".into()).ok()?;
    let getter = getter.dyn_into::<js_sys::Function>().ok()?;
    getter
        .call0(&wasm_bindgen::JsValue::NULL)
        .ok()?
        .as_string()
        .filter(|s| !s.is_empty())
}

#[cfg(not(target_arch = "wasm32"))]
fn telegram_init_data() -> Option<String> {
    None
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Lobby>()
        .add_message::<LobbyCommand>()
        .insert_non_send(LobbyNetwork::default())
        .add_systems(
            Update,
            (join_pool_from_options, handle_lobby_commands, poll_lobby)
                .chain()
                .in_set(crate::GameSystems::Input)
                // After the session's commands: a `SetServer` of the same frame is the lobby's
                // server too.
                .after(super::session::handle_commands),
        );
}

/// A pool as the server's `--pools` writes one: `variant minutes+seconds`, and ` xN` for a
/// table of N seats (`chinese-checkers 5+3 x3`).
pub fn parse_pool(text: &str) -> Result<PoolKey, String> {
    let bad = || format!("`{text}`: write `variant minutes+seconds`, and ` xN` for N seats");
    let mut words = text.split_whitespace();
    let (Some(variant), Some(clock)) = (words.next(), words.next()) else {
        return Err(bad());
    };
    let seats = match words.next() {
        None => 2,
        Some(n) => n
            .strip_prefix('x')
            .and_then(|n| n.parse::<u8>().ok())
            .ok_or_else(bad)?,
    };
    let (minutes, seconds) = clock.split_once('+').ok_or_else(bad)?;
    let (Ok(minutes), Ok(seconds)) = (minutes.parse::<u64>(), seconds.parse::<u64>()) else {
        return Err(bad());
    };
    if words.next().is_some() {
        return Err(bad());
    }
    Ok(PoolKey {
        seats,
        ..PoolKey::new(
            variant,
            boardcraft_protocol::TimeControl::minutes(minutes, seconds),
        )
    })
}

/// `--pool`: once the lobby has welcomed the player, it waits in that pool (once).
fn join_pool_from_options(
    options: Option<Res<crate::game::config::OnlineOptions>>,
    lobby: Res<Lobby>,
    mut asked: Local<bool>,
    mut commands: MessageWriter<LobbyCommand>,
) {
    let Some(text) = options.as_ref().and_then(|o| o.pool.as_ref()) else {
        return;
    };
    if *asked || !lobby.welcomed {
        return;
    }
    *asked = true;
    match parse_pool(text) {
        Ok(pool) => {
            info!("lobby: waiting in {} (--pool)", pool.id());
            commands.write(LobbyCommand::JoinPool(pool));
        }
        Err(e) => warn!("--pool {e}"),
    }
}

fn url(lobby: &Lobby, path: &str) -> String {
    format!("{}{path}", lobby.server.trim_end_matches('/'))
}

fn start_sign_in(lobby: &mut Lobby, network: &mut LobbyNetwork, storage: &Storage) {
    lobby.sign_in = SignIn::Working;
    if let Some(kept) = stored_session(storage, &lobby.server) {
        info!("lobby: checking the kept session of {}", kept.name);
        lobby.token = Some(kept.token.clone());
        network.request(
            Asked::Me,
            ehttp::Request::get(url(lobby, paths::ME)),
            Some(&kept.token),
        );
    } else {
        new_session(lobby, network);
    }
}

/// Telegram's sign-in inside a Mini App, else a new guest.
fn new_session(lobby: &mut Lobby, network: &mut LobbyNetwork) {
    lobby.token = None;
    if let Some(init_data) = telegram_init_data() {
        info!("lobby: signing in with Telegram");
        network.request(
            Asked::Telegram,
            post_json(url(lobby, paths::TELEGRAM), &TelegramSignIn { init_data }),
            None,
        );
    } else {
        info!("lobby: making a guest account on {}", lobby.server);
        network.request(
            Asked::Guest,
            post_json(url(lobby, paths::GUEST), &serde_json::json!({})),
            None,
        );
    }
}

fn open_lobby(lobby: &mut Lobby, network: &mut LobbyNetwork) {
    if let Some(mut link) = network.link.take() {
        link.close();
    }
    lobby.welcomed = false;
    let link = Link::open(Lobby::ws_url(&lobby.server), super::wall_now());
    lobby.link = Some(link.state());
    network.link = Some(link);
}

fn close_lobby(lobby: &mut Lobby, network: &mut LobbyNetwork) {
    if let Some(mut link) = network.link.take() {
        link.close();
    }
    lobby.link = None;
    lobby.welcomed = false;
    lobby.waiting_in = None;
}

pub fn handle_lobby_commands(
    mut commands: MessageReader<LobbyCommand>,
    mut lobby: ResMut<Lobby>,
    mut network: NonSendMut<LobbyNetwork>,
    online: Res<Online>,
    storage: Res<Storage>,
) {
    for command in commands.read() {
        let token = lobby.token.clone();
        match command.clone() {
            LobbyCommand::Enter => {
                lobby.entered = true;
                if lobby.server != online.server {
                    // Another server: another account.
                    close_lobby(&mut lobby, &mut network);
                    lobby.server = online.server.clone();
                    lobby.account = None;
                    lobby.token = None;
                    lobby.sign_in = SignIn::Out;
                }
                match lobby.sign_in {
                    SignIn::In if network.link.is_none() => open_lobby(&mut lobby, &mut network),
                    SignIn::Out => start_sign_in(&mut lobby, &mut network, &storage),
                    _ => {}
                }
            }
            LobbyCommand::Leave => {
                lobby.entered = false;
                close_lobby(&mut lobby, &mut network);
            }
            LobbyCommand::Claim { name, password } => {
                network.request(
                    Asked::Claim,
                    post_json(url(&lobby, paths::CLAIM), &Credentials { name, password }),
                    token.as_deref(),
                );
            }
            LobbyCommand::SignIn { name, password } => {
                network.request(
                    Asked::SignIn,
                    post_json(url(&lobby, paths::SESSION), &Credentials { name, password }),
                    None,
                );
            }
            LobbyCommand::SignOut => {
                if token.is_some() {
                    network.request(
                        Asked::SignOut,
                        ehttp::Request::delete(&url(&lobby, paths::SESSION)),
                        token.as_deref(),
                    );
                }
                let server = lobby.server.clone();
                forget_session(&storage, &server);
                close_lobby(&mut lobby, &mut network);
                lobby.account = None;
                lobby.token = None;
                lobby.ratings.clear();
                lobby.sign_in = SignIn::Out;
            }
            LobbyCommand::JoinPool(pool) => {
                network.send(&LobbyClientMessage::JoinPool { pool });
            }
            LobbyCommand::LeavePool => {
                network.send(&LobbyClientMessage::LeavePool);
            }
            LobbyCommand::Seek(terms) => {
                network.send(&LobbyClientMessage::Seek { terms });
            }
            LobbyCommand::CancelSeek(id) => {
                network.send(&LobbyClientMessage::CancelSeek { id });
            }
            LobbyCommand::AcceptSeek(id) => {
                network.send(&LobbyClientMessage::AcceptSeek { id });
            }
            LobbyCommand::LeaveSeek(id) => {
                network.send(&LobbyClientMessage::LeaveSeek { id });
            }
            LobbyCommand::Challenge { to, terms } => {
                network.send(&LobbyClientMessage::Challenge { to, terms });
            }
            LobbyCommand::AcceptChallenge(id) => {
                network.send(&LobbyClientMessage::AcceptChallenge { id });
            }
            LobbyCommand::DeclineChallenge(id) => {
                network.send(&LobbyClientMessage::DeclineChallenge { id });
            }
            LobbyCommand::CancelChallenge(id) => {
                network.send(&LobbyClientMessage::CancelChallenge { id });
            }
            LobbyCommand::Profile(name) => {
                let path = paths::player(&name);
                network.request(
                    Asked::Profile,
                    ehttp::Request::get(url(&lobby, &path)),
                    token.as_deref(),
                );
            }
            LobbyCommand::Archive { name, page } => {
                let path = paths::player_games(&name, page);
                network.request(
                    Asked::Archive { name, page },
                    ehttp::Request::get(url(&lobby, &path)),
                    token.as_deref(),
                );
            }
            LobbyCommand::Leaderboard(variant) => {
                let path = paths::leaderboard(&variant);
                network.request(
                    Asked::Leaderboard(variant),
                    ehttp::Request::get(url(&lobby, &path)),
                    token.as_deref(),
                );
            }
            LobbyCommand::OpenGame(game) => {
                let path = paths::save(&game);
                lobby.opening = Some(game.clone());
                network.request(
                    Asked::Save(game),
                    ehttp::Request::get(url(&lobby, &path)),
                    token.as_deref(),
                );
            }
        }
    }
}

/// What the board needs to show an archived game.
#[derive(bevy::ecs::system::SystemParam)]
pub struct ReviewAccess<'w> {
    library: Res<'w, VariantLibrary>,
    start: MessageWriter<'w, StartGame>,
    review: MessageWriter<'w, ReviewCommand>,
    online: MessageWriter<'w, OnlineCommand>,
    game: Option<Res<'w, Match>>,
    cursor: Res<'w, Review>,
}

/// The HTTP answers and the lobby's messages.
pub fn poll_lobby(
    mut lobby: ResMut<Lobby>,
    mut network: NonSendMut<LobbyNetwork>,
    storage: Res<Storage>,
    mut board: ReviewAccess,
) {
    let now = super::wall_now();
    while let Ok(answer) = network.receiver.try_recv() {
        handle_answer(&mut lobby, &mut network, &storage, &mut board, answer);
    }
    // The archived game shows from its first position (asked again until the new game is on
    // the board: a new game's start puts the cursor back to the live position).
    if let Some(before) = lobby.review_after
        && let Some(game) = board.game.as_deref()
        && Some(game.game_id) != before
    {
        if game.history.is_empty() || board.cursor.ply == Some(0) {
            lobby.review_after = None;
        } else {
            board.review.write(ReviewCommand::First);
        }
    }
    let Some(link) = network.link.as_mut() else {
        return;
    };
    let mut incoming = Vec::new();
    for event in link.poll(now) {
        match event {
            LinkEvent::Opened => {
                let hello = LobbyClientMessage::Hello {
                    protocol: SEATS_PROTOCOL_VERSION,
                    token: lobby.token.clone(),
                    client: Some(format!("boardcraft {}", env!("CARGO_PKG_VERSION"))),
                };
                link.send(hello.to_json());
                lobby.last_ping = now;
                info!("lobby: connected to {}", link.url());
            }
            LinkEvent::Text(text) => match parse_lobby_server_message(&text) {
                Ok(message) => incoming.push(message),
                Err(e) => warn!("lobby: a message is not understood ({e}): {text}"),
            },
            LinkEvent::Lost(why) => {
                lobby.welcomed = false;
                info!("lobby: connection lost ({why}); reconnecting");
            }
        }
    }
    if link.state() == LinkState::Online {
        if now - link.last_heard > SILENCE {
            link.drop_connection(now);
        } else if now - lobby.last_ping >= PING_EVERY {
            lobby.ping_n += 1;
            lobby.last_ping = now;
            link.send(LobbyClientMessage::Ping { n: lobby.ping_n }.to_json());
        }
    }
    lobby.link = Some(link.state());
    for message in incoming {
        handle_lobby_message(&mut lobby, &mut network, &mut board, message);
    }
}

fn signed_in(
    lobby: &mut Lobby,
    network: &mut LobbyNetwork,
    storage: &Storage,
    account: AccountInfo,
    token: String,
) {
    info!("lobby: signed in as {}", account.name);
    remember_session(
        storage,
        StoredSession {
            server: lobby.server.clone(),
            token: token.clone(),
            name: account.name.clone(),
        },
    );
    lobby.account = Some(account);
    lobby.token = Some(token);
    lobby.sign_in = SignIn::In;
    lobby.ratings.clear();
    if lobby.entered {
        open_lobby(lobby, network);
    }
}

fn handle_answer(
    lobby: &mut Lobby,
    network: &mut LobbyNetwork,
    storage: &Storage,
    board: &mut ReviewAccess,
    answer: Answer,
) {
    let Answer { asked, result } = answer;
    match (asked, result) {
        (Asked::Me, Ok(bytes)) => match serde_json::from_slice::<Me>(&bytes) {
            Ok(me) => {
                let token = lobby.token.clone().unwrap_or_default();
                signed_in(lobby, network, storage, me.account, token);
                lobby.ratings = me.ratings;
            }
            Err(e) => {
                lobby.sign_in = SignIn::Out;
                lobby.notify(NoticeAbout::SignIn, None, e.to_string());
            }
        },
        (Asked::Me, Err(refusal)) if refusal.status == 401 => {
            // The kept session ended (signed out elsewhere, expired): a new one.
            info!("lobby: the kept session has ended; signing in anew");
            forget_session(storage, &lobby.server);
            new_session(lobby, network);
        }
        (Asked::Guest | Asked::Telegram | Asked::SignIn, Ok(bytes)) => {
            match serde_json::from_slice::<SignedIn>(&bytes) {
                Ok(SignedIn { account, token }) => {
                    signed_in(lobby, network, storage, account, token)
                }
                Err(e) => {
                    lobby.sign_in = SignIn::Out;
                    lobby.notify(NoticeAbout::SignIn, None, e.to_string());
                }
            }
        }
        (Asked::Telegram, Err(refusal)) => {
            // Telegram's sign-in is refused (the server has no bot token): a guest instead.
            warn!("lobby: Telegram sign-in refused: {}", refusal.message);
            lobby.token = None;
            network.request(
                Asked::Guest,
                post_json(url(lobby, paths::GUEST), &serde_json::json!({})),
                None,
            );
        }
        (Asked::SignIn, Err(refusal)) => {
            // The current account stays signed in.
            lobby.notify(NoticeAbout::SignIn, refusal.code, refusal.message);
        }
        (Asked::Me | Asked::Guest, Err(refusal)) => {
            lobby.sign_in = SignIn::Out;
            lobby.notify(NoticeAbout::SignIn, refusal.code, refusal.message);
        }
        (Asked::Claim, Ok(bytes)) => match serde_json::from_slice::<AccountInfo>(&bytes) {
            Ok(account) => {
                info!("lobby: the account is now {}", account.name);
                let token = lobby.token.clone().unwrap_or_default();
                signed_in(lobby, network, storage, account, token);
            }
            Err(e) => lobby.notify(NoticeAbout::Claim, None, e.to_string()),
        },
        (Asked::Claim, Err(refusal)) => {
            lobby.notify(NoticeAbout::Claim, refusal.code, refusal.message)
        }
        (Asked::SignOut, _) => {}
        (Asked::Profile, Ok(bytes)) => match serde_json::from_slice(&bytes) {
            Ok(value) => lobby.profile = Some(value),
            Err(e) => lobby.notify(NoticeAbout::Fetch, None, e.to_string()),
        },
        (Asked::Archive { .. }, Ok(bytes)) => match serde_json::from_slice(&bytes) {
            Ok(value) => lobby.archive = Some(value),
            Err(e) => lobby.notify(NoticeAbout::Fetch, None, e.to_string()),
        },
        (Asked::Leaderboard(_), Ok(bytes)) => match serde_json::from_slice(&bytes) {
            Ok(value) => lobby.leaderboard = Some(value),
            Err(e) => lobby.notify(NoticeAbout::Fetch, None, e.to_string()),
        },
        (Asked::Save(game), Ok(bytes)) => {
            if lobby.opening.as_ref() != Some(&game) {
                return;
            }
            lobby.opening = None;
            match crate::persistence::start_of_save_bytes(&bytes, &board.library) {
                Ok(start) => {
                    info!("lobby: reviewing game {game}");
                    // An online game being shown is left; the archived one is the board's,
                    // both seats the viewer's.
                    board.online.write(OnlineCommand::Leave);
                    board.start.write(start.with_players(Players::two(
                        crate::game::config::PlayerKind::Human,
                        crate::game::config::PlayerKind::Human,
                    )));
                    lobby.review_after = Some(board.game.as_ref().map(|g| g.game_id));
                    lobby.entered = false;
                }
                Err(e) => lobby.notify(NoticeAbout::Fetch, None, e.to_string()),
            }
        }
        (Asked::Save(_), Err(refusal)) => {
            lobby.opening = None;
            lobby.notify(NoticeAbout::Fetch, refusal.code, refusal.message);
        }
        (Asked::Profile | Asked::Archive { .. } | Asked::Leaderboard(_), Err(refusal)) => {
            lobby.notify(NoticeAbout::Fetch, refusal.code, refusal.message)
        }
    }
}

fn handle_lobby_message(
    lobby: &mut Lobby,
    network: &mut LobbyNetwork,
    board: &mut ReviewAccess,
    message: LobbyServerMessage,
) {
    match message {
        LobbyServerMessage::Welcome {
            server,
            account,
            ratings,
            pools,
            waiting_in,
            seeks,
            challenges,
            playing,
            counts,
            ..
        } => {
            lobby.welcomed = true;
            lobby.server_name = server;
            lobby.account = Some(account);
            lobby.ratings = ratings;
            lobby.pools = pools;
            lobby.waiting_in = waiting_in;
            lobby.seeks = seeks;
            lobby.challenges = challenges;
            lobby.playing = playing;
            lobby.counts = counts;
        }
        LobbyServerMessage::SeekAdded { seek } => {
            lobby.seeks.retain(|s| s.id != seek.id);
            lobby.seeks.push(seek);
        }
        LobbyServerMessage::SeekRemoved { id } => lobby.seeks.retain(|s| s.id != id),
        LobbyServerMessage::PoolJoined { pool } => lobby.waiting_in = Some(pool),
        LobbyServerMessage::PoolLeft => lobby.waiting_in = None,
        LobbyServerMessage::Pools { pools } => lobby.pools = pools,
        LobbyServerMessage::Challenge { challenge } => {
            lobby.challenges.retain(|c| c.id != challenge.id);
            lobby.challenges.push(challenge);
        }
        LobbyServerMessage::ChallengeRemoved { id, why } => {
            debug!("lobby: challenge {id} removed ({why:?})");
            lobby.challenges.retain(|c| c.id != id);
        }
        LobbyServerMessage::Counts { counts } => lobby.counts = counts,
        LobbyServerMessage::Paired {
            game,
            color,
            token,
            players,
            ..
        } => seated(lobby, board, game, seat_of(color), token, players.into()),
        LobbyServerMessage::Seated {
            game,
            seat,
            token,
            players,
            ..
        } => seated(lobby, board, game, seat, token, players),
        LobbyServerMessage::Pong { .. } => {}
        LobbyServerMessage::Error {
            code,
            message,
            fatal,
        } => {
            lobby.notify(NoticeAbout::Lobby, Some(code), message);
            if fatal {
                if code == ErrorCode::NotSignedIn {
                    // The session ended: sign in anew (the lobby reopens after).
                    close_lobby(lobby, network);
                    lobby.sign_in = SignIn::Out;
                    lobby.account = None;
                } else if let Some(link) = &mut network.link {
                    link.drop_connection(super::wall_now());
                }
            }
        }
    }
}

/// A game the lobby made for this account (two seats or more): the game session takes the
/// seat.
fn seated(
    lobby: &mut Lobby,
    board: &mut ReviewAccess,
    game: String,
    seat: boardcraft_protocol::SeatIndex,
    token: String,
    players: SeatPlayers,
) {
    info!(
        "lobby: seated: game {game} at seat {seat} of {}",
        players.seats.len()
    );
    lobby.waiting_in = None;
    lobby.paired += 1;
    lobby.last_paired = Some(game.clone());
    board.online.write(OnlineCommand::Seated {
        game,
        seat,
        token,
        players: Some(players),
    });
}
