//! Every HTTP refusal in the documented shape, `{"code", "message"}` (docs/protocol.md): the
//! refusals axum makes by itself (a body over the limit, a path that is not UTF-8, a method a
//! route does not have, no such route) are plain text or empty, so they are rewritten here.
//! And the request deadline: a request whose body trickles in gets 408, not a task for ever.
use std::sync::Arc;

use axum::{
    extract::{Request, State},
    http::{StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};
use boardcraft_protocol::ErrorCode;

use crate::http::{AppState, Refused};

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
    let mut fixed = Refused(code_of(status), message).into_response();
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
            let mut r = Refused(
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
    Refused(
        ErrorCode::NotFound,
        "no such path (the browser game is served only with --web DIR; see scripts/serve-online.sh)"
            .into(),
    )
    .into_response()
}
