//! Every HTTP refusal in the documented shape, `{"code", "message"}` (docs/protocol.md): the
//! one error type of the HTTP side, [`Refused`], which the services' errors convert into (by
//! their [`Refusal`] impls: each case's code is written beside the case); the
//! extractors that refuse with it ([`SameOrigin`], [`CurrentAccount`], [`JsonBody`]); the
//! refusals axum makes by itself (a body over the limit, a path that is not UTF-8, a method a
//! route does not have, no such route), plain text or empty, rewritten here.
//! And the request deadline: a request whose body trickles in gets 408, not a task for ever.
use std::{net::IpAddr, sync::Arc};

use axum::{
    Json,
    body::Bytes,
    extract::{FromRequest, FromRequestParts, Request, State},
    http::{HeaderValue, StatusCode, header, request::Parts},
    middleware::Next,
    response::{IntoResponse, Response},
};
use boardcraft_protocol::{ErrorCode, http::ApiError};
use tracing::{info, warn};

use crate::{
    client_addr::ClientIp,
    game::{GameError, LoadError},
    http::{AppState, accounts},
    passwords::HashError,
    refusals::Refusal,
    storage::{Account, StoreError},
};

/// A refusal: its code (which gives the HTTP status), its message, and what some refusals
/// add: the game it is about (an invite whose seat is taken: its holder may still watch),
/// and when to try again (`Retry-After`, in seconds).
#[derive(Debug)]
pub struct Refused {
    pub code: ErrorCode,
    pub message: String,
    pub game: Option<String>,
    pub retry_after: Option<u64>,
}

impl Refused {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refused {
        Refused {
            code,
            message: message.into(),
            game: None,
            retry_after: None,
        }
    }

    /// A service's error as the protocol's refusal: its code and its words. A failure of the
    /// server's own (the database, a broken game) is logged as a warning.
    pub fn of(e: &impl Refusal) -> Refused {
        if e.is_internal() {
            warn!("a request failed: {e}");
        }
        Refused::new(e.code(), e.to_string())
    }

    /// The refusal names the game it is about.
    pub fn about_game(self, game: String) -> Refused {
        Refused {
            game: Some(game),
            ..self
        }
    }

    /// The refusal says when to try again.
    pub fn retry_after(self, secs: u64) -> Refused {
        Refused {
            retry_after: Some(secs),
            ..self
        }
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.code.http_status()).unwrap_or(StatusCode::BAD_REQUEST);
        let body = ApiError {
            code: self.code,
            message: self.message,
            game: self.game,
        };
        let mut response = (status, Json(body)).into_response();
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

impl From<Refused> for Response {
    fn from(refused: Refused) -> Response {
        refused.into_response()
    }
}

/// The database failed: an internal error (logged; the message says what failed).
impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Refused {
        Refused::of(&e)
    }
}

/// A game could not be loaded: run by another node now (`game_moved`: try again), or an
/// internal error.
impl From<LoadError> for Refused {
    fn from(e: LoadError) -> Refused {
        Refused::of(&e)
    }
}

/// The game service refused (or failed).
impl From<GameError> for Refused {
    fn from(e: GameError) -> Refused {
        Refused::of(&e)
    }
}

/// Password hashing: busy (try again in a second), or failed.
impl From<HashError> for Refused {
    fn from(e: HashError) -> Refused {
        match e {
            HashError::Busy => Refused::new(ErrorCode::ServerBusy, e.to_string()).retry_after(1),
            HashError::Failed(why) => {
                warn!("accounts: {why}");
                Refused::new(ErrorCode::Internal, why)
            }
        }
    }
}

/// The client's address, as the accept loop found it (through trusted proxies).
fn client_ip(parts: &Parts) -> IpAddr {
    parts
        .extensions
        .get::<ClientIp>()
        .map(|ClientIp(ip)| *ip)
        .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED))
}

/// A request that may change something comes from the server's own pages, or from no page
/// (`accounts::same_origin`); else `origin_not_allowed`. Put it before the other extractors,
/// so that a page of another site learns nothing else.
pub struct SameOrigin;

impl FromRequestParts<Arc<AppState>> for SameOrigin {
    type Rejection = Refused;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<SameOrigin, Refused> {
        accounts::same_origin(&state.settings, &parts.headers, client_ip(parts))?;
        Ok(SameOrigin)
    }
}

/// The signed-in account, by the session the request presents (bearer header or cookie);
/// else `not_signed_in`.
pub struct CurrentAccount {
    pub account: Account,
    /// The session's token hash.
    pub session: String,
}

impl FromRequestParts<Arc<AppState>> for CurrentAccount {
    type Rejection = Refused;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<CurrentAccount, Refused> {
        let (account, session) = accounts::signed_in(state, &parts.headers).await?;
        Ok(CurrentAccount { account, session })
    }
}

/// A JSON body the server reads, and how a body that does not parse is refused.
pub trait RequestBody: serde::de::DeserializeOwned {
    /// The message's start, before serde's reason (`bad_request`).
    const BAD: &'static str = "bad request body";
}

impl RequestBody for boardcraft_protocol::http::CreateGame {
    const BAD: &'static str = "bad create-game body";
}
impl RequestBody for boardcraft_protocol::http::Credentials {}
impl RequestBody for boardcraft_protocol::http::PasswordChange {}
impl RequestBody for boardcraft_protocol::http::TelegramSignIn {}

/// A request's JSON body (its content type is checked for every POST before: `http`'s
/// `json_posts_only`); one that does not parse is `bad_request`, with serde's reason.
pub struct JsonBody<T>(pub T);

impl<T: RequestBody, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> Result<JsonBody<T>, Response> {
        let body = Bytes::from_request(request, state)
            .await
            .map_err(IntoResponse::into_response)?;
        parse_body(&body).map(JsonBody).map_err(|refused| {
            info!(code = %refused.code, "refused a request: {}", refused.message);
            refused.into_response()
        })
    }
}

/// Parses a JSON body as [`JsonBody`] does.
pub fn parse_body<T: RequestBody>(body: &[u8]) -> Result<T, Refused> {
    serde_json::from_slice(body)
        .map_err(|e| Refused::new(ErrorCode::BadRequest, format!("{}: {e}", T::BAD)))
}

/// The code that goes with a status axum or tower-http chose.
fn code_of(status: StatusCode) -> ErrorCode {
    match status.as_u16() {
        404 => ErrorCode::NotFound,
        405 => ErrorCode::MethodNotAllowed,
        408 => ErrorCode::RequestTimeout,
        413 => ErrorCode::BodyTooLarge,
        429 => ErrorCode::RateLimited,
        503 => ErrorCode::ServerBusy,
        500.. => ErrorCode::Internal,
        _ => ErrorCode::BadRequest,
    }
}

/// Rewrites an error response that is not JSON into `{code, message}` (same status).
pub async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    // axum's own messages are one short line; keep at most that much of whatever it was.
    let text = axum::body::to_bytes(body, 1024).await.unwrap_or_default();
    let mut message = String::from_utf8_lossy(&text).trim().to_owned();
    if message.is_empty() {
        message = status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase();
    }
    let mut fixed = Refused::new(code_of(status), message).into_response();
    *fixed.status_mut() = status;
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(v) = parts.headers.get(&name) {
            fixed.headers_mut().insert(name, v.clone());
        }
    }
    fixed
}

/// Answers 408 when a request (reading its body included) is not done within
/// `--request-timeout-secs`.
pub async fn deadline(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let limit = state.settings.request_timeout;
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            let mut r = Refused::new(
                ErrorCode::RequestTimeout,
                format!("the request took longer than {} s", limit.as_secs_f32()),
            )
            .into_response();
            r.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            r
        }
    }
}

/// The fallback when no browser game is served.
pub async fn no_web_folder() -> Response {
    Refused::new(
        ErrorCode::NotFound,
        "no such path (the browser game is served only with --web DIR; see scripts/serve-online.sh)"
            ,
    )
    .into_response()
}
