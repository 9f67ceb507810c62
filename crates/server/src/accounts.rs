//! Accounts (protocol 2): guests at once, a name and password to keep one, sessions, and
//! Telegram Mini App sign-in.
//!
//! - A session is a long random token. The server keeps only its SHA-256, so a copy of the
//!   database signs nobody in. Browsers get it as an `HttpOnly; SameSite=Lax` cookie (`Secure`
//!   when `--public-url` is https); the desktop game and bots send `Authorization: Bearer`.
//! - Every POST/DELETE here passes the origin check the websockets use: a page on another
//!   site cannot use a browser's cookie to act for it (nor sign it into an account of its own).
//! - Passwords are hashed with Argon2id on a blocking thread; failed sign-ins are counted per
//!   address and per account and refused past the limits *before* the password is checked.
//! - Never logged: passwords, tokens, Telegram's initData.
use std::{
    collections::{HashMap, VecDeque},
    hash::Hash,
    net::IpAddr,
    sync::{Arc, Mutex, OnceLock},
    time::Duration,
};

use argon2::{
    Argon2,
    password_hash::{PasswordHasher, PasswordVerifier},
};
use axum::{
    Json,
    body::Bytes,
    extract::{Extension, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use boardcraft_protocol::{
    ErrorCode,
    http::{AccountInfo, Credentials, Me, SignedIn, TelegramSignIn},
};
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tokio::time::Instant;
use tracing::{info, warn};

use crate::{
    Settings,
    app::{AppState, Refused},
    client_addr::ClientIp,
    secrets,
    storage::{Account, StoreError, name_key},
};

/// The session cookie's name.
pub const COOKIE: &str = "boardcraft_session";

/// How long a browser keeps the cookie: a year (a guest's account is only as lasting as it).
const COOKIE_MAX_AGE_SECS: u64 = 365 * 24 * 3600;

/// Telegram's initData is accepted for a day after Telegram signed it.
const TELEGRAM_MAX_AGE_SECS: i64 = 24 * 3600;

/// Passwords: at least this many characters …
const PASSWORD_MIN_CHARS: usize = 8;
/// … and at most this many bytes (Argon2 reads all of it).
const PASSWORD_MAX_BYTES: usize = 256;

// ----- names

/// Five letters at most, as the animals: `Guest-` + 5 + `-` + 5 + `-` + 2 is 20 characters.
const ADJECTIVES: &[&str] = &[
    "brave", "calm", "cozy", "eager", "fair", "fast", "warm", "glad", "grand", "happy", "jolly",
    "keen", "kind", "lucky", "merry", "noble", "proud", "quick", "quiet", "sharp", "shy", "smart",
    "swift", "tidy", "witty", "wise", "bold", "sunny", "cool", "neat",
];

const ANIMALS: &[&str] = &[
    "otter", "fox", "hare", "lynx", "owl", "crow", "bear", "wolf", "deer", "seal", "swan", "crane",
    "moose", "bison", "eagle", "finch", "gecko", "heron", "koala", "lemur", "mole", "newt",
    "panda", "quail", "raven", "robin", "stoat", "tiger", "viper", "yak",
];

fn random_index(len: usize) -> usize {
    let mut b = [0u8; 4];
    getrandom::fill(&mut b).expect("the operating system's random source works");
    u32::from_le_bytes(b) as usize % len
}

/// A guest's readable name, `Guest-brave-otter-42` (at most 20 characters).
pub fn guest_name() -> String {
    format!(
        "Guest-{}-{}-{}",
        ADJECTIVES[random_index(ADJECTIVES.len())],
        ANIMALS[random_index(ANIMALS.len())],
        10 + random_index(90)
    )
}

/// The rules a chosen name follows: 3–20 characters, each a letter (any script), a digit, `-`
/// or `_`; nothing that passes for the server ("Boardcraft", in any case, with or without
/// `-`/`_`), for a guest ("Guest-…") or — unless the account is a bot — for a bot (ending in
/// "bot").
pub fn check_name(name: &str, is_bot: bool) -> Result<(), String> {
    let chars = name.chars().count();
    if !(3..=20).contains(&chars) {
        return Err(format!("a name has 3 to 20 characters, not {chars}"));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Err(format!(
            "a name has letters, digits, `-` and `_` only, not `{}`",
            c.escape_default()
        ));
    }
    let key: String = name_key(name)
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .collect();
    if key.contains("boardcraft") {
        return Err("a name may not pass for the server (\"Boardcraft\")".into());
    }
    if name_key(name).starts_with("guest") {
        return Err("names starting with \"Guest\" are the guests'".into());
    }
    if !is_bot && key.ends_with("bot") {
        return Err("names ending in \"bot\" are for bot accounts".into());
    }
    Ok(())
}

// ----- tokens and passwords

/// A session token: 52 characters from a 32-letter alphabet (260 bits).
fn session_token() -> String {
    secrets::seat_token()
}

/// What the database keeps of a token: its SHA-256, in hex.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Argon2id (the crate's defaults: 19 MiB, 2 passes) with a random 16-byte salt, in PHC form.
fn hash_password(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| e.to_string())?;
    Argon2::default()
        .hash_password_with_salt(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

fn password_matches(password: &str, phc: &str) -> bool {
    Argon2::default()
        .verify_password(password.as_bytes(), phc)
        .is_ok()
}

/// A hash no password matches: checked against when the name is unknown, so that an unknown
/// name takes as long to refuse as a wrong password.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash_password(&session_token()).expect("hashing works"))
}

/// Runs the slow hashing off the async threads.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, Refused> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Refused(ErrorCode::Internal, format!("hashing failed: {e}")))
}

// ----- limits

/// Events per key within a sliding window (failed sign-ins, new guests).
pub struct Window<K> {
    limit: u32,
    period: Duration,
    events: Mutex<HashMap<K, VecDeque<Instant>>>,
}

impl<K: Hash + Eq + Clone> Window<K> {
    pub fn new(limit: u32, period: Duration) -> Window<K> {
        Window {
            limit,
            period,
            events: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `key` is under its limit now (0: no limit). Old events are forgotten, and so
    /// are keys with none left, so that the map holds only recent keys.
    pub fn allows(&self, key: &K) -> bool {
        if self.limit == 0 {
            return true;
        }
        let now = Instant::now();
        let mut events = self.events.lock().expect("not poisoned");
        let Some(times) = events.get_mut(key) else {
            return true;
        };
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) > self.period)
        {
            times.pop_front();
        }
        if times.is_empty() {
            events.remove(key);
            return true;
        }
        (times.len() as u32) < self.limit
    }

    pub fn record(&self, key: K) {
        if self.limit == 0 {
            return;
        }
        let now = Instant::now();
        let mut events = self.events.lock().expect("not poisoned");
        // Keys asked about once are never looked at again (a stranger's guesses at names):
        // now and then, forget every key whose events are all older than the window.
        if events.len() >= PURGE_AT {
            events.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|t| now.duration_since(*t) <= self.period)
            });
        }
        events.entry(key).or_default().push_back(now);
    }

    /// Keys held (for tests).
    pub fn keys(&self) -> usize {
        self.events.lock().expect("not poisoned").len()
    }
}

/// A window's map is swept of stale keys when it holds this many.
const PURGE_AT: usize = 4096;

/// The accounts' share of the server's state.
pub struct AccountLimits {
    failed_by_ip: Window<IpAddr>,
    failed_by_account: Window<String>,
    guests_by_ip: Window<IpAddr>,
}

impl AccountLimits {
    pub fn new(settings: &Settings) -> AccountLimits {
        AccountLimits {
            failed_by_ip: Window::new(
                settings.max_sign_in_failures_per_ip,
                settings.sign_in_window,
            ),
            failed_by_account: Window::new(
                settings.max_sign_in_failures_per_account,
                settings.sign_in_window,
            ),
            guests_by_ip: Window::new(
                settings.max_new_guests_per_ip_per_hour,
                Duration::from_secs(3600),
            ),
        }
    }
}

// ----- requests

pub(crate) fn info_of(a: &Account) -> AccountInfo {
    AccountInfo {
        id: a.id.clone(),
        name: a.name.clone(),
        guest: a.is_guest(),
        bot: a.bot,
        telegram: a.telegram_id.is_some(),
    }
}

fn internal(e: StoreError) -> Refused {
    warn!("accounts: {e}");
    Refused(ErrorCode::Internal, e.to_string())
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// How a request presented its session.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Presented {
    Bearer,
    Cookie,
}

/// The session token a request carries: `Authorization: Bearer`, else the cookie.
pub(crate) fn presented_token(headers: &HeaderMap) -> Option<(String, Presented)> {
    if let Some(value) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        && let Some(token) = value.strip_prefix("Bearer ")
    {
        return Some((token.trim().to_owned(), Presented::Bearer));
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == COOKIE).then(|| (value.to_owned(), Presented::Cookie))
        })
}

/// A state-changing request must come from the server's own pages (or from no page at all:
/// the desktop game and bots send no `Origin`). Browsers send `Origin` with every POST and
/// DELETE; `Sec-Fetch-Site: cross-site` is believed too, for a browser that left it out.
fn same_origin(settings: &Settings, headers: &HeaderMap, ip: IpAddr) -> Result<(), Refused> {
    let cross_site = headers
        .get("sec-fetch-site")
        .is_some_and(|v| v.as_bytes() == b"cross-site");
    let result = if cross_site && headers.get(header::ORIGIN).is_none() {
        Err("a cross-site request (Sec-Fetch-Site) may not change anything here".to_owned())
    } else {
        crate::ws::origin_allowed(settings, headers)
    };
    result.map_err(|why| {
        info!(%ip, "refused an account request: {why}");
        Refused(ErrorCode::OriginNotAllowed, why)
    })
}

/// The signed-in account, or `not_signed_in`.
async fn signed_in(state: &AppState, headers: &HeaderMap) -> Result<Account, Refused> {
    let not_signed_in = || Refused(ErrorCode::NotSignedIn, "sign in first".into());
    let (token, _) = presented_token(headers).ok_or_else(not_signed_in)?;
    if !secrets::looks_like_id(&token) {
        return Err(not_signed_in());
    }
    state
        .games
        .store
        .session_account(token_hash(&token))
        .await
        .map_err(internal)?
        .ok_or_else(not_signed_in)
}

/// The `Set-Cookie` value for a session (`None`: the cookie's removal).
fn cookie(settings: &Settings, token: Option<&str>) -> HeaderValue {
    let secure = settings
        .public_url
        .as_deref()
        .is_some_and(|u| u.starts_with("https://"));
    let (value, age) = match token {
        Some(t) => (t, COOKIE_MAX_AGE_SECS),
        None => ("", 0),
    };
    let mut text = format!("{COOKIE}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax");
    if secure {
        text.push_str("; Secure");
    }
    HeaderValue::from_str(&text).expect("tokens are plain letters")
}

/// A new session for `account`: its token in the body and in the cookie.
async fn new_session(
    state: &AppState,
    account: &Account,
    status: StatusCode,
) -> Result<Response, Refused> {
    let token = session_token();
    state
        .games
        .store
        .create_session(token_hash(&token), account.id.clone(), now_ms())
        .await
        .map_err(internal)?;
    let mut response = (
        status,
        Json(SignedIn {
            account: info_of(account),
            token: token.clone(),
        }),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(&state.settings, Some(&token)));
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

fn parse<T: serde::de::DeserializeOwned>(body: &Bytes) -> Result<T, Refused> {
    serde_json::from_slice(body)
        .map_err(|e| Refused(ErrorCode::BadRequest, format!("bad request body: {e}")))
}

/// `POST /api/accounts/guest`: a guest account and its session, at once.
pub async fn create_guest(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    same_origin(&state.settings, &headers, ip)?;
    let limits = &state.accounts;
    if !limits.guests_by_ip.allows(&ip) {
        info!(%ip, "refused a guest account: too many from one address");
        return Err(Refused(
            ErrorCode::RateLimited,
            "too many new accounts from this address; try again later".into(),
        ));
    }
    // A random name may be taken: draw again (27 000 names per number of guests; past a
    // few collisions, a longer random name).
    for attempt in 0..8 {
        let name = if attempt < 6 {
            guest_name()
        } else {
            format!("Guest-{}", secrets::invite())
        };
        let account = Account {
            id: secrets::invite(),
            name,
            password_hash: None,
            telegram_id: None,
            bot: false,
            created_ms: now_ms(),
        };
        match state.games.store.create_account(account.clone()).await {
            Ok(()) => {
                limits.guests_by_ip.record(ip);
                info!(%ip, account = %account.id, name = %account.name, "guest account created");
                return new_session(&state, &account, StatusCode::CREATED).await;
            }
            Err(StoreError::Conflict(_)) => continue,
            Err(e) => return Err(internal(e)),
        }
    }
    Err(Refused(
        ErrorCode::Internal,
        "no free guest name found".into(),
    ))
}

/// Checks a password's length (the only rule: long passphrases welcome).
fn check_password(password: &str) -> Result<(), Refused> {
    let chars = password.chars().count();
    if chars < PASSWORD_MIN_CHARS || password.len() > PASSWORD_MAX_BYTES {
        return Err(Refused(
            ErrorCode::BadRequest,
            format!(
                "a password has at least {PASSWORD_MIN_CHARS} characters and at most {PASSWORD_MAX_BYTES} bytes"
            ),
        ));
    }
    Ok(())
}

/// `POST /api/accounts/claim`: the signed-in account (a guest, or a Telegram one) gets a
/// name and a password, to sign in anywhere.
pub async fn claim(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<AccountInfo>, Refused> {
    same_origin(&state.settings, &headers, ip)?;
    let account = signed_in(&state, &headers).await?;
    let Credentials { name, password } = parse(&body)?;
    check_name(&name, account.bot).map_err(|why| Refused(ErrorCode::NameInvalid, why))?;
    check_password(&password)?;
    if account.password_hash.is_some() {
        return Err(Refused(
            ErrorCode::AlreadyClaimed,
            "this account has a password already".into(),
        ));
    }
    let phc = blocking(move || hash_password(&password))
        .await?
        .map_err(|e| Refused(ErrorCode::Internal, format!("hashing failed: {e}")))?;
    let store = &state.games.store;
    match store
        .claim_account(account.id.clone(), name.clone(), phc)
        .await
    {
        Ok(true) => {}
        Ok(false) => {
            return Err(Refused(
                ErrorCode::AlreadyClaimed,
                "this account has a password already".into(),
            ));
        }
        Err(StoreError::Conflict(_)) => {
            return Err(Refused(
                ErrorCode::NameTaken,
                format!("the name `{name}` is taken"),
            ));
        }
        Err(e) => return Err(internal(e)),
    }
    info!(%ip, account = %account.id, %name, "account claimed");
    let account = store
        .account(account.id)
        .await
        .map_err(internal)?
        .ok_or_else(|| Refused(ErrorCode::NotSignedIn, "the account is gone".into()))?;
    Ok(Json(info_of(&account)))
}

/// `POST /api/session`: signs in with a name and a password.
pub async fn sign_in(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refused> {
    same_origin(&state.settings, &headers, ip)?;
    let Credentials { name, password } = parse(&body)?;
    // No account's name is longer than 26 characters (a guest's fallback name): a longer one
    // is counted by its start, so that a huge made-up name is not kept in memory.
    let key: String = name_key(&name).chars().take(32).collect();
    let limits = &state.accounts;
    if !limits.failed_by_ip.allows(&ip) || !limits.failed_by_account.allows(&key) {
        info!(%ip, %name, "refused a sign-in: too many failed attempts");
        return Err(Refused(
            ErrorCode::RateLimited,
            "too many failed sign-ins; try again later".into(),
        ));
    }
    let account = state
        .games
        .store
        .account_by_name(name.clone())
        .await
        .map_err(internal)?;
    let phc = account
        .as_ref()
        .and_then(|a| a.password_hash.clone())
        .unwrap_or_else(|| decoy_hash().to_owned());
    let matches = blocking(move || password_matches(&password, &phc)).await?;
    match account {
        Some(account) if matches && account.password_hash.is_some() => {
            info!(%ip, account = %account.id, "signed in");
            new_session(&state, &account, StatusCode::OK).await
        }
        _ => {
            limits.failed_by_ip.record(ip);
            limits.failed_by_account.record(key);
            info!(%ip, %name, "refused a sign-in: wrong name or password");
            Err(Refused(
                ErrorCode::WrongPassword,
                "no account has this name and password".into(),
            ))
        }
    }
}

/// `DELETE /api/session`: ends the session the request presents.
pub async fn sign_out(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    same_origin(&state.settings, &headers, ip)?;
    let (token, _) = presented_token(&headers)
        .ok_or_else(|| Refused(ErrorCode::NotSignedIn, "no session to end".into()))?;
    state
        .games
        .store
        .delete_session(token_hash(&token))
        .await
        .map_err(internal)?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(&state.settings, None));
    Ok(response)
}

/// `GET /api/me`: the signed-in account.
pub async fn me(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Json<Me>, Refused> {
    let account = signed_in(&state, &headers).await?;
    let ratings = state
        .games
        .store
        .ratings(account.id.clone())
        .await
        .map_err(internal)?;
    Ok(Json(Me {
        account: info_of(&account),
        ratings,
    }))
}

// ----- Telegram

/// The operator's Telegram bot token (`--telegram-bot-token-file`); never printed.
#[derive(Clone)]
pub struct TelegramBotToken(String);

impl TelegramBotToken {
    pub fn new(token: String) -> TelegramBotToken {
        TelegramBotToken(token)
    }
}

impl std::fmt::Debug for TelegramBotToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TelegramBotToken(…)")
    }
}

/// The Telegram user a checked initData names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TelegramUser {
    pub id: i64,
    pub username: Option<String>,
    pub first_name: Option<String>,
}

type HmacSha256 = Hmac<Sha256>;

fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(message);
    mac.finalize().into_bytes().into()
}

/// Checks `Telegram.WebApp.initData` as Telegram specifies ("Validating data received via the
/// Mini App"): the data-check string is every field but `hash`, sorted by key, `key=value`
/// joined by `\n`; `secret_key = HMAC_SHA256(key = "WebAppData", message = bot_token)`; the
/// data is Telegram's if `hex(HMAC_SHA256(key = secret_key, message = data_check_string))` is
/// `hash` (compared in constant time). `auth_date` must be within a day before `now_secs`.
pub fn verify_init_data(
    init_data: &str,
    bot_token: &TelegramBotToken,
    now_secs: i64,
) -> Result<TelegramUser, String> {
    let mut fields: Vec<(String, String)> = form_urlencoded::parse(init_data.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    fields.sort();
    if fields.windows(2).any(|w| w[0].0 == w[1].0) {
        return Err("a field appears twice".into());
    }
    let hash_at = fields
        .iter()
        .position(|(k, _)| k == "hash")
        .ok_or("no hash")?;
    let (_, hash) = fields.remove(hash_at);
    let presented = unhex(&hash)
        .filter(|h| h.len() == 32)
        .ok_or("the hash is not 64 hex digits")?;
    let check: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let secret_key = hmac_sha256(b"WebAppData", bot_token.0.as_bytes());
    let expected = hmac_sha256(&secret_key, check.join("\n").as_bytes());
    if !bool::from(expected.ct_eq(presented.as_slice())) {
        return Err("the signature does not match".into());
    }
    // Signed by Telegram: now its content can be read.
    let field = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let auth_date: i64 = field("auth_date")
        .and_then(|d| d.parse().ok())
        .ok_or("no auth_date")?;
    if now_secs - auth_date > TELEGRAM_MAX_AGE_SECS {
        return Err("the initData is more than a day old".into());
    }
    // A little clock difference is fine; a date far ahead is not Telegram's.
    if auth_date - now_secs > 300 {
        return Err("the initData is dated in the future".into());
    }
    #[derive(serde::Deserialize)]
    struct User {
        id: i64,
        username: Option<String>,
        first_name: Option<String>,
    }
    let user: User = serde_json::from_str(field("user").ok_or("no user")?)
        .map_err(|e| format!("bad user field: {e}"))?;
    Ok(TelegramUser {
        id: user.id,
        username: user.username,
        first_name: user.first_name,
    })
}

/// `POST /api/session/telegram`: signs in the Telegram user's account, linking it to the
/// signed-in account if that has no Telegram user yet, or making a new one.
pub async fn telegram(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refused> {
    same_origin(&state.settings, &headers, ip)?;
    let Some(bot_token) = &state.settings.telegram_bot_token else {
        return Err(Refused(
            ErrorCode::NotFound,
            "this server has no Telegram sign-in (see --telegram-bot-token-file)".into(),
        ));
    };
    let TelegramSignIn { init_data } = parse(&body)?;
    let now_secs = now_ms() / 1000;
    let user = verify_init_data(&init_data, bot_token, now_secs).map_err(|why| {
        info!(%ip, "refused a Telegram sign-in: {why}");
        Refused(
            ErrorCode::TelegramInvalid,
            format!("Telegram initData refused: {why}"),
        )
    })?;
    let store = &state.games.store;
    if let Some(account) = store.account_by_telegram(user.id).await.map_err(internal)? {
        info!(%ip, account = %account.id, "signed in with Telegram");
        return new_session(&state, &account, StatusCode::OK).await;
    }
    // Not known yet: the signed-in account, if it has no Telegram user …
    if let Ok(current) = signed_in(&state, &headers).await
        && current.telegram_id.is_none()
    {
        match store.link_telegram(current.id.clone(), user.id).await {
            Ok(true) => {
                let linked = Account {
                    telegram_id: Some(user.id),
                    ..current
                };
                info!(%ip, account = %linked.id, "Telegram user linked");
                return new_session(&state, &linked, StatusCode::OK).await;
            }
            // Linked meanwhile (a second tab): sign in whichever account has it.
            Ok(false) | Err(StoreError::Conflict(_)) => {}
            Err(e) => return Err(internal(e)),
        }
    }
    // … else a new account, named after the Telegram user when that name is free and valid.
    let preferred = [user.username.clone(), user.first_name.clone()];
    for attempt in 0..8 {
        if let Some(account) = store.account_by_telegram(user.id).await.map_err(internal)? {
            return new_session(&state, &account, StatusCode::OK).await;
        }
        let name = match preferred.get(attempt).cloned().flatten() {
            Some(n) if check_name(&n, false).is_ok() => n,
            _ => guest_name().replacen("Guest", "Tg", 1),
        };
        let account = Account {
            id: secrets::invite(),
            name,
            password_hash: None,
            telegram_id: Some(user.id),
            bot: false,
            created_ms: now_ms(),
        };
        match store.create_account(account.clone()).await {
            Ok(()) => {
                info!(%ip, account = %account.id, name = %account.name, "account created with Telegram");
                return new_session(&state, &account, StatusCode::CREATED).await;
            }
            Err(StoreError::Conflict(_)) => continue,
            Err(e) => return Err(internal(e)),
        }
    }
    Err(Refused(ErrorCode::Internal, "no free name found".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(check_name("Анна_2", false).is_ok());
        assert!(check_name("ab", false).is_err());
        assert!(check_name("a b c", false).is_err());
        assert!(check_name("Board-Craft", false).is_err());
        assert!(check_name("guest-me", false).is_err());
        assert!(check_name("MasterBot", false).is_err());
        assert!(check_name("MasterBot", true).is_ok());
        for _ in 0..50 {
            let g = guest_name();
            assert!(g.chars().count() <= 20, "{g}");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn windows_forget_old_events_and_stale_keys() {
        let window = Window::new(2, Duration::from_secs(60));
        window.record(1u32);
        window.record(1);
        assert!(!window.allows(&1));
        assert!(window.allows(&2));
        tokio::time::advance(Duration::from_secs(61)).await;
        assert!(window.allows(&1), "the old failures have left the window");
        for k in 0..PURGE_AT as u32 {
            window.record(k);
        }
        assert_eq!(window.keys(), PURGE_AT);
        tokio::time::advance(Duration::from_secs(61)).await;
        window.record(PURGE_AT as u32);
        assert_eq!(window.keys(), 1, "stale keys swept");
    }

    #[test]
    fn hex_round_trip() {
        assert_eq!(unhex(&hex(&[0, 1, 254, 255])).unwrap(), [0, 1, 254, 255]);
        assert!(unhex("abc").is_none());
        assert!(unhex("zz").is_none());
    }
}
