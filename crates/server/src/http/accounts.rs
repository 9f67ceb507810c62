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
    net::IpAddr,
    sync::{Arc, OnceLock},
    time::Duration,
};

use crate::storage::now_ms;
use argon2::{Argon2, password_hash::PasswordHasher};
use axum::{
    Json,
    body::Bytes,
    extract::{Extension, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use boardcraft_protocol::{
    ErrorCode,
    http::{AccountInfo, Credentials, Me, PasswordChange, SignedIn, TelegramSignIn},
};
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tracing::{info, warn};

pub use crate::secrets::TelegramBotToken;
use crate::{
    Settings,
    client_addr::ClientIp,
    http::{AppState, CurrentAccount, JsonBody, Refused, SameOrigin, errors::parse_body},
    rate_limit::Window,
    secrets,
    storage::{Account, StoreError, info_of, limits::LimitStore, name_key},
};

/// The session cookie's name.
pub const COOKIE: &str = "boardcraft_session";

/// How long a browser keeps the cookie: a year (a guest's account is only as lasting as it).
const COOKIE_MAX_AGE_SECS: u64 = 365 * 24 * 3600;

/// Telegram's initData is accepted for a day after Telegram signed it.
const TELEGRAM_MAX_AGE_SECS: i64 = 24 * 3600;

/// initData dated this far ahead of the server's clock is not Telegram's (a little clock
/// difference is fine).
const TELEGRAM_MAX_AHEAD_SECS: i64 = 60;

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

/// The rules a chosen name follows (`crate::names`), on the name as it will be kept (NFKC).
pub fn check_name(name: &str, is_bot: bool) -> Result<(), String> {
    crate::names::check(name, is_bot).map_err(|e| e.to_string())
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

/// A hash no password matches: checked against when the name is unknown, so that an unknown
/// name takes as long to refuse as a wrong password.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).expect("the operating system's random source works");
        Argon2::default()
            .hash_password_with_salt(session_token().as_bytes(), &salt)
            .expect("hashing works")
            .to_string()
    })
}

// ----- limits

/// The database's windows are swept of ended ones once in this many reservations.
const PURGE_EVERY: u64 = 256;

/// The accounts' limits and password hashing.
pub struct AccountLimits {
    failed_by_ip: Window<IpAddr>,
    /// Used only when the store keeps no shared limits (every store here does).
    failed_by_account: Window<String>,
    account_limit: u32,
    window: Duration,
    guests_by_ip: Window<IpAddr>,
    reservations: std::sync::atomic::AtomicU64,
    pub hasher: crate::passwords::Hasher,
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
            account_limit: settings.max_sign_in_failures_per_account,
            window: settings.sign_in_window,
            guests_by_ip: Window::new(
                settings.max_new_guests_per_ip_per_hour,
                Duration::from_secs(3600),
            ),
            reservations: std::sync::atomic::AtomicU64::new(0),
            hasher: crate::passwords::Hasher::new(
                settings.password_hash_workers,
                settings.password_hash_queue,
            ),
        }
    }
}

/// A place taken in the failed-sign-in windows: given back unless the attempt failed.
struct Attempt {
    ip: IpAddr,
    account: AccountPlace,
}

enum AccountPlace {
    Shared(crate::storage::limits::Reserved),
    Local(String),
    Unlimited,
}

impl AccountLimits {
    /// Takes a place for one more password check of `key` (an account's name key) from
    /// `ip`, before the check: parallel guesses are counted as they arrive, so at most the
    /// limit's number of them are checked. The account's window is the database's (shared by
    /// every node); the address's is this node's.
    async fn attempt(
        &self,
        shared: Option<&dyn LimitStore>,
        ip: IpAddr,
        key: String,
    ) -> Result<Attempt, Refused> {
        let too_many = |wait: Duration| {
            Refused::new(
                ErrorCode::RateLimited,
                "too many failed sign-ins; try again later",
            )
            .retry_after(wait.as_secs().max(1))
        };
        self.failed_by_ip.reserve(&ip).map_err(too_many)?;
        let account = match (self.account_limit, shared) {
            (0, _) => AccountPlace::Unlimited,
            (limit, Some(shared)) => {
                use crate::storage::limits::Reservation;
                let now = now_ms();
                if self
                    .reservations
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                    .is_multiple_of(PURGE_EVERY)
                {
                    let _ = shared.purge(now).await;
                }
                let period = self.window.as_millis() as i64;
                match shared
                    .reserve(format!("sign_in:{key}"), limit, period, now)
                    .await
                {
                    Ok(Reservation::Reserved(r)) => AccountPlace::Shared(r),
                    Ok(Reservation::Full { until_ms }) => {
                        self.failed_by_ip.release(&ip);
                        let wait = Duration::from_millis((until_ms - now).max(0) as u64);
                        return Err(too_many(wait));
                    }
                    Err(e) => {
                        self.failed_by_ip.release(&ip);
                        return Err(e.into());
                    }
                }
            }
            (_, None) => match self.failed_by_account.reserve(&key) {
                Ok(()) => AccountPlace::Local(key),
                Err(wait) => {
                    self.failed_by_ip.release(&ip);
                    return Err(too_many(wait));
                }
            },
        };
        Ok(Attempt { ip, account })
    }

    /// The attempt did not fail after all (the password was right, or it was never checked):
    /// its places are given back.
    async fn give_back(&self, shared: Option<&dyn LimitStore>, attempt: Attempt) {
        self.failed_by_ip.release(&attempt.ip);
        match attempt.account {
            AccountPlace::Shared(r) => {
                if let Some(shared) = shared
                    && let Err(e) = shared.release(r).await
                {
                    warn!("accounts: giving back a sign-in attempt: {e}");
                }
            }
            AccountPlace::Local(key) => self.failed_by_account.release(&key),
            AccountPlace::Unlimited => {}
        }
    }
}

// ----- requests

/// How a request presented its session.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Presented {
    Bearer,
    Cookie,
}

/// The session token a request carries: `Authorization: Bearer <token>`, else the cookie;
/// `Err` for an `Authorization` header that is not exactly that (one space, a token of the
/// server's shape), which is refused rather than passed over for the cookie.
pub(crate) fn presented_token(headers: &HeaderMap) -> Result<Option<(String, Presented)>, ()> {
    if let Some(value) = headers.get(header::AUTHORIZATION) {
        let value = value.to_str().map_err(|_| ())?;
        let (scheme, token) = value.split_once(' ').ok_or(())?;
        if !scheme.eq_ignore_ascii_case("bearer") || !secrets::looks_like_token(token) {
            return Err(());
        }
        return Ok(Some((token.to_owned(), Presented::Bearer)));
    }
    Ok(headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == COOKIE).then(|| (value.to_owned(), Presented::Cookie))
        }))
}

/// A state-changing request must come from the server's own pages (or from no page at all:
/// the desktop game and bots send no `Origin`). Browsers send `Origin` with every POST and
/// DELETE; `Sec-Fetch-Site: cross-site` is believed too, for a browser that left it out.
/// (Browsers that send neither cannot send a cross-site `application/json` POST without the
/// server's consent, which `crate::http`'s content-type rule relies on.)
pub(crate) fn same_origin(
    settings: &Settings,
    headers: &HeaderMap,
    ip: IpAddr,
) -> Result<(), Refused> {
    let cross_site = headers
        .get("sec-fetch-site")
        .is_some_and(|v| v.as_bytes() == b"cross-site");
    let result = if cross_site && headers.get(header::ORIGIN).is_none() {
        Err("a cross-site request (Sec-Fetch-Site) may not change anything here".to_owned())
    } else {
        crate::http::ws::origin_allowed(settings, headers)
    };
    result.map_err(|why| {
        info!(%ip, "refused an account request: {why}");
        Refused::new(ErrorCode::OriginNotAllowed, why)
    })
}

fn not_signed_in() -> Refused {
    Refused::new(ErrorCode::NotSignedIn, "sign in first")
}

/// The signed-in account and its session's token hash, or `not_signed_in`.
pub(crate) async fn signed_in(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(Account, String), Refused> {
    let (token, _) = presented_token(headers)
        .map_err(|()| not_signed_in())?
        .ok_or_else(not_signed_in)?;
    if !secrets::looks_like_token(&token) {
        return Err(not_signed_in());
    }
    let hash = token_hash(&token);
    let account = state
        .store
        .session_account(hash.clone())
        .await?
        .ok_or_else(not_signed_in)?;
    Ok((account, hash))
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
        .store
        .create_session(token_hash(&token), account.id.clone(), now_ms())
        .await?;
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

/// `POST /api/accounts/guest`: a guest account and its session, at once.
pub async fn create_guest(
    State(state): State<Arc<AppState>>,
    _: SameOrigin,
    Extension(ClientIp(ip)): Extension<ClientIp>,
) -> Result<Response, Refused> {
    let limits = &state.accounts;
    // The place is taken before the account is made, so that parallel requests from one
    // address make exactly the limit's number of guests.
    if let Err(wait) = limits.guests_by_ip.reserve(&ip) {
        info!(%ip, "refused a guest account: too many from one address");
        return Err(Refused::new(
            ErrorCode::RateLimited,
            "too many new accounts from this address; try again later",
        )
        .retry_after(wait.as_secs().max(1)));
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
        match state.store.create_account(account.clone()).await {
            Ok(()) => {
                info!(%ip, account = %account.id, name = %account.name, "guest account created");
                return new_session(&state, &account, StatusCode::CREATED).await;
            }
            Err(StoreError::Conflict(_)) => continue,
            Err(e) => {
                limits.guests_by_ip.release(&ip);
                return Err(e.into());
            }
        }
    }
    limits.guests_by_ip.release(&ip);
    Err(Refused::new(
        ErrorCode::Internal,
        "no free guest name found",
    ))
}

fn weak(why: String) -> Refused {
    Refused::new(ErrorCode::PasswordWeak, why)
}

/// `POST /api/accounts/claim`: the signed-in account (a guest, or a Telegram one) gets a
/// name and a password, to sign in anywhere.
pub async fn claim(
    State(state): State<Arc<AppState>>,
    _: SameOrigin,
    CurrentAccount { account, session }: CurrentAccount,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    JsonBody(Credentials { name, password }): JsonBody<Credentials>,
) -> Result<Json<AccountInfo>, Refused> {
    let name = crate::names::normalized(&name);
    check_name(&name, account.bot).map_err(|why| Refused::new(ErrorCode::NameInvalid, why))?;
    crate::passwords::check_strength(&password, &name).map_err(weak)?;
    if account.password_hash.is_some() {
        return Err(Refused::new(
            ErrorCode::AlreadyClaimed,
            "this account has a password already",
        ));
    }
    let phc = state.accounts.hasher.hash(password).await?;
    let store = &state.store;
    match store
        .claim_account(account.id.clone(), name.clone(), phc)
        .await
    {
        Ok(true) => {}
        Ok(false) => {
            return Err(Refused::new(
                ErrorCode::AlreadyClaimed,
                "this account has a password already",
            ));
        }
        Err(StoreError::Conflict(_)) => {
            return Err(Refused::new(
                ErrorCode::NameTaken,
                format!("the name `{name}` is taken, or looks too much like one that is"),
            ));
        }
        Err(e) => return Err(e.into()),
    }
    info!(%ip, account = %account.id, %name, "account claimed");
    // The session's sockets know the account by its old name: they reconnect.
    state
        .sessions
        .change(&session, crate::socket_sessions::SessionChange::Claimed);
    let account = store
        .account(account.id)
        .await?
        .ok_or_else(|| Refused::new(ErrorCode::NotSignedIn, "the account is gone"))?;
    Ok(Json(info_of(&account)))
}

/// `POST /api/session`: signs in with a name and a password.
pub async fn sign_in(
    State(state): State<Arc<AppState>>,
    _: SameOrigin,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    JsonBody(Credentials { name, password }): JsonBody<Credentials>,
) -> Result<Response, Refused> {
    // No account's name is longer than 26 characters (a guest's fallback name): a longer one
    // is counted by its start, so that a huge made-up name is not kept.
    let key: String = name_key(&name).chars().take(32).collect();
    let limits = &state.accounts;
    let store = state.store.as_ref();
    let attempt = match limits.attempt(store.limits(), ip, key).await {
        Ok(a) => a,
        Err(refusal) => {
            info!(%ip, %name, "refused a sign-in: too many failed attempts");
            return Err(refusal);
        }
    };
    let found = match store.account_by_name(name.clone()).await {
        Ok(None) if crate::names::normalized(&name) != name => {
            store.account_by_name(crate::names::normalized(&name)).await
        }
        other => other,
    };
    let account = match found {
        Ok(a) => a,
        Err(e) => {
            limits.give_back(store.limits(), attempt).await;
            return Err(e.into());
        }
    };
    let phc = account
        .as_ref()
        .and_then(|a| a.password_hash.clone())
        .unwrap_or_else(|| decoy_hash().to_owned());
    let matches = match limits.hasher.verify(password, phc).await {
        Ok(m) => m,
        Err(e) => {
            limits.give_back(store.limits(), attempt).await;
            return Err(e.into());
        }
    };
    match account {
        Some(account) if matches && account.password_hash.is_some() => {
            limits.give_back(store.limits(), attempt).await;
            info!(%ip, account = %account.id, "signed in");
            new_session(&state, &account, StatusCode::OK).await
        }
        _ => {
            info!(%ip, %name, "refused a sign-in: wrong name or password");
            Err(Refused::new(
                ErrorCode::WrongPassword,
                "no account has this name and password",
            ))
        }
    }
}

/// `POST /api/accounts/password`: a new password for the signed-in account, given its
/// password now. The account's other sessions end (a thief's among them); this one stays.
pub async fn change_password(
    State(state): State<Arc<AppState>>,
    _: SameOrigin,
    CurrentAccount { account, session }: CurrentAccount,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    JsonBody(PasswordChange {
        password,
        new_password,
    }): JsonBody<PasswordChange>,
) -> Result<StatusCode, Refused> {
    let Some(phc) = account.password_hash.clone() else {
        return Err(Refused::new(
            ErrorCode::BadRequest,
            "this account has no password yet: claim it (POST /api/accounts/claim)",
        ));
    };
    crate::passwords::check_strength(&new_password, &account.name).map_err(weak)?;
    // A wrong password here is a guess like a sign-in's, counted in the same windows.
    let limits = &state.accounts;
    let store = state.store.as_ref();
    let attempt = limits
        .attempt(store.limits(), ip, name_key(&account.name))
        .await?;
    let matches = match limits.hasher.verify(password, phc).await {
        Ok(m) => m,
        Err(e) => {
            limits.give_back(store.limits(), attempt).await;
            return Err(e.into());
        }
    };
    if !matches {
        info!(%ip, account = %account.id, "refused a password change: wrong password");
        return Err(Refused::new(
            ErrorCode::WrongPassword,
            "the account's password is not that",
        ));
    }
    limits.give_back(store.limits(), attempt).await;
    let new_phc = limits.hasher.hash(new_password).await?;
    let ended = store
        .set_password(account.id.clone(), new_phc, session)
        .await?;
    for hash in &ended {
        state
            .sessions
            .change(hash, crate::socket_sessions::SessionChange::PasswordChanged);
    }
    info!(%ip, account = %account.id, sessions_ended = ended.len(), "password changed");
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/session`: ends the session the request presents, and closes its sockets.
pub async fn sign_out(
    State(state): State<Arc<AppState>>,
    _: SameOrigin,
    current: Result<CurrentAccount, Refused>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
) -> Result<Response, Refused> {
    let (account, hash) = match current {
        Ok(CurrentAccount { account, session }) => (account, session),
        Err(refused) => {
            // The cookie of an ended session is removed all the same.
            let mut response = refused.into_response();
            response
                .headers_mut()
                .insert(header::SET_COOKIE, cookie(&state.settings, None));
            return Ok(response);
        }
    };
    state.store.delete_session(hash.clone()).await?;
    let closed = state
        .sessions
        .change(&hash, crate::socket_sessions::SessionChange::SignedOut);
    info!(%ip, account = %account.id, sockets_closed = closed, "signed out");
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(&state.settings, None));
    Ok(response)
}

/// `GET /api/me`: the signed-in account.
pub async fn me(
    State(state): State<Arc<AppState>>,
    CurrentAccount { account, .. }: CurrentAccount,
) -> Result<Json<Me>, Refused> {
    let ratings = state.store.ratings(account.id.clone()).await?;
    Ok(Json(Me {
        account: info_of(&account),
        ratings,
    }))
}

// ----- Telegram

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
    let secret_key = hmac_sha256(b"WebAppData", bot_token.as_str().as_bytes());
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
    if auth_date - now_secs > TELEGRAM_MAX_AHEAD_SECS {
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
    _: SameOrigin,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refused> {
    let Some(bot_token) = &state.settings.telegram_bot_token else {
        return Err(Refused::new(
            ErrorCode::NotFound,
            "this server has no Telegram sign-in (see --telegram-bot-token-file)",
        ));
    };
    // Read here, not by an extractor: a server without Telegram sign-in says so first.
    let TelegramSignIn { init_data } = parse_body(&body)?;
    let now_secs = now_ms() / 1000;
    let user = verify_init_data(&init_data, bot_token, now_secs).map_err(|why| {
        info!(%ip, "refused a Telegram sign-in: {why}");
        Refused::new(
            ErrorCode::TelegramInvalid,
            format!("Telegram initData refused: {why}"),
        )
    })?;
    let store = &state.store;
    if let Some(account) = store.account_by_telegram(user.id).await? {
        info!(%ip, account = %account.id, "signed in with Telegram");
        return new_session(&state, &account, StatusCode::OK).await;
    }
    // Not known yet: the signed-in account, if it has no Telegram user …
    if let Ok((current, _)) = signed_in(&state, &headers).await
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
            Err(e) => return Err(e.into()),
        }
    }
    // … else a new account, named after the Telegram user when that name is free and valid.
    let preferred = [user.username.clone(), user.first_name.clone()];
    for attempt in 0..8 {
        if let Some(account) = store.account_by_telegram(user.id).await? {
            return new_session(&state, &account, StatusCode::OK).await;
        }
        let name = match preferred
            .get(attempt)
            .cloned()
            .flatten()
            .map(|n| crate::names::normalized(&n))
        {
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
            Err(e) => return Err(e.into()),
        }
    }
    Err(Refused::new(ErrorCode::Internal, "no free name found"))
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

    #[test]
    fn authorization_is_parsed_strictly() {
        let token = session_token();
        let with = |value: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
            h.insert(
                header::COOKIE,
                HeaderValue::from_str(&format!("{COOKIE}={token}")).unwrap(),
            );
            presented_token(&h)
        };
        assert_eq!(
            with(&format!("Bearer {token}")),
            Ok(Some((token.clone(), Presented::Bearer)))
        );
        assert!(
            with(&format!("bearer {token}")).is_ok(),
            "the scheme in any case"
        );
        for bad in [
            format!("Bearer  {token}"),
            format!("Bearer {token} "),
            format!("Bearer {token}x"),
            format!("Basic {token}"),
            format!("Bearer{token}"),
            "Bearer".to_owned(),
            "Bearer ".to_owned(),
        ] {
            assert_eq!(
                with(&bad),
                Err(()),
                "{bad:?}: not tried as the cookie either"
            );
        }
    }

    #[test]
    fn hex_round_trip() {
        assert_eq!(unhex(&hex(&[0, 1, 254, 255])).unwrap(), [0, 1, 254, 255]);
        assert!(unhex("abc").is_none());
        assert!(unhex("zz").is_none());
    }
}
