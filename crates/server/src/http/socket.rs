//! What the game's and the lobby's websockets share: the checks before the upgrade (origin,
//! connections per address, frame size), the first frame, and the loop of a session — the
//! message rate and flood close, text frames only, the keep-alive pings, the idle timeout,
//! the outbox of messages from the game or the lobby, and the end of the signed-in session.
//! What each socket does with a message, and with the end of its session, is its
//! `Session`.
use std::{future::Future, net::IpAddr, sync::Arc, time::Duration};

use axum::{
    extract::{
        WebSocketUpgrade,
        ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code},
    },
    http::HeaderMap,
};
use boardcraft_protocol::{ErrorCode, ParseError, ServerMessage};
use tokio::{
    sync::mpsc,
    time::{Instant, interval_at, sleep_until},
};
use tracing::{info, warn};

use crate::{
    Settings,
    http::{AppState, ConnectionSlot, Refused, ws::origin_allowed},
    rate_limit::MessageRate,
    refusals::Refusal,
    socket_sessions::{SessionChange, SessionWatch},
};

/// Checks a websocket's upgrade (`what`: which socket, for the log): the page's origin, then
/// the address's connection count. The slot counts the connection until it is dropped.
pub(crate) fn admit(
    state: &Arc<AppState>,
    ip: IpAddr,
    headers: &HeaderMap,
    what: &str,
) -> Result<ConnectionSlot, Refused> {
    if let Err(why) = origin_allowed(&state.settings, headers) {
        info!(%ip, "refused {what}: {why}");
        return Err(Refused::new(ErrorCode::OriginNotAllowed, why));
    }
    state.open_connection(ip).ok_or_else(|| {
        let why = format!(
            "at most {} connections from one address",
            state.settings.max_connections_per_ip
        );
        info!(%ip, "refused {what}: {why}");
        Refused::new(ErrorCode::TooManyConnections, why)
    })
}

/// The transport's own cap is far above ours, so that an oversized frame gets our error
/// message before the close; frames past even that cap just close the connection.
pub(crate) fn frame_limits(ws: WebSocketUpgrade, settings: &Settings) -> WebSocketUpgrade {
    let max = settings.max_frame_bytes;
    ws.max_message_size(max * 4).max_frame_size(max * 4)
}

/// An error frame (`fatal`: the server closes next).
pub(crate) fn error(code: ErrorCode, message: impl Into<String>, fatal: bool) -> Message {
    Message::Text(Utf8Bytes::from(
        ServerMessage::Error {
            code,
            message: message.into(),
            ply: None,
            fatal,
        }
        .to_json(),
    ))
}

/// The closing handshake: our close frame, then (briefly) the client's, so that the client
/// reads everything that was sent before the connection goes.
pub(crate) async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let sent = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: Utf8Bytes::from(reason.to_owned()),
        })))
        .await;
    if sent.is_err() {
        return;
    }
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        while let Some(Ok(m)) = socket.recv().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// Sends a fatal error and closes.
pub(crate) async fn fail(
    socket: &mut WebSocket,
    code: ErrorCode,
    message: String,
    close_with: u16,
) {
    info!(code = %code, "closing a websocket: {message}");
    let _ = socket.send(error(code, message, true)).await;
    close(socket, close_with, code.as_str()).await;
}

/// A service refused the connection (or failed): its error as the protocol's fatal error,
/// then the close that goes with it: 1011 when the server failed, 1013 (try again) when the
/// game moved to another node, else a policy close.
pub(crate) async fn fail_with(socket: &mut WebSocket, refusal: &impl Refusal) {
    let code = refusal.code();
    let close_with = match code {
        ErrorCode::Internal => close_code::ERROR,
        ErrorCode::GameMoved => close_code::AGAIN,
        _ => close_code::POLICY,
    };
    if refusal.is_internal() {
        warn!("a websocket failed: {refusal}");
    }
    fail(socket, code, refusal.to_string(), close_with).await;
}

/// Whether a websocket error is a text frame that is not UTF-8 (answered with close 1007).
fn invalid_utf8(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if let Some(tungstenite::Error::Utf8(_)) = s.downcast_ref::<tungstenite::Error>() {
            return true;
        }
        source = s.source();
    }
    false
}

/// A receive error: an invalid-UTF-8 text frame gets the close the standard asks for (1007);
/// anything else has broken the connection already.
pub(crate) async fn receive_failed(socket: &mut WebSocket, e: &axum::Error) {
    if invalid_utf8(e) {
        fail(
            socket,
            ErrorCode::BadMessage,
            "a text frame that is not UTF-8".into(),
            close_code::INVALID,
        )
        .await;
    }
}

/// The first message, which must be a text frame within the idle timeout and parse; `None`
/// once the socket is answered and closed (or gone). Whether it is a hello is the caller's
/// to check ([`not_a_hello`]).
pub(crate) async fn first_message<S: Session>(
    socket: &mut WebSocket,
    settings: &Settings,
) -> Option<S::Message> {
    let text = first_text(socket, settings.idle_timeout).await?;
    match S::parse(&text, settings.max_frame_bytes) {
        Ok(message) => Some(message),
        Err(e) => {
            fail(socket, e.code, e.message, close_code::POLICY).await;
            None
        }
    }
}

/// Refuses a first message that is not a hello, and closes.
pub(crate) async fn not_a_hello(socket: &mut WebSocket) {
    fail(
        socket,
        ErrorCode::HelloRequired,
        "the first message must be a hello".into(),
        close_code::POLICY,
    )
    .await;
}

/// The first frame, which must be a text frame within the idle timeout; `None` once the
/// socket is answered and closed (or gone).
async fn first_text(socket: &mut WebSocket, idle: Duration) -> Option<Utf8Bytes> {
    match tokio::time::timeout(idle, socket.recv()).await {
        Err(_) => {
            fail(
                socket,
                ErrorCode::IdleTimeout,
                "no hello received".into(),
                close_code::POLICY,
            )
            .await;
            None
        }
        Ok(None) => None,
        Ok(Some(Err(e))) => {
            receive_failed(socket, &e).await;
            None
        }
        Ok(Some(Ok(Message::Text(t)))) => Some(t),
        Ok(Some(Ok(_))) => {
            fail(
                socket,
                ErrorCode::HelloRequired,
                "the first message must be a hello text frame".into(),
                close_code::POLICY,
            )
            .await;
            None
        }
    }
}

/// After a message: go on, or end the session (why, for the log).
pub(crate) enum Next {
    Continue,
    Stop(&'static str),
}

/// What one kind of socket does in the loop of [`run`].
pub(crate) trait Session: Send {
    /// The client's messages, as the protocol parses them.
    type Message: Send;
    /// What the log says the socket is (`game`, `lobby`).
    const KIND: &'static str;

    /// Parses a text frame.
    fn parse(text: &str, max_bytes: usize) -> Result<Self::Message, ParseError>;

    /// Handles one message the rate allowed.
    fn message(
        &mut self,
        socket: &mut WebSocket,
        message: Self::Message,
    ) -> impl Future<Output = Next> + Send;

    /// The socket's signed-in session ended or changed: tells the client (or not) before the
    /// socket closes with [`crate::socket_sessions::CLOSE_SESSION_CHANGED`].
    fn session_changed(
        &mut self,
        socket: &mut WebSocket,
        change: SessionChange,
    ) -> impl Future<Output = ()> + Send;
}

/// Resolves when the socket's session changes (never, for a socket without one).
async fn session_changed(watch: &mut Option<SessionWatch>) -> Option<SessionChange> {
    match watch {
        Some(w) => (&mut w.changed).await.ok(),
        None => std::future::pending().await,
    }
}

/// The session's loop, until one side ends it: the client's messages within the rate (a
/// flood closes the socket), the outbox's messages to the client (the outbox closed by its
/// sender: the client is told to reconnect), pings every third of the idle timeout, and the
/// close when nothing was heard for the idle timeout or when `watch` reports the end of the
/// signed-in session. Answers why it ended (for the log).
pub(crate) async fn run<S: Session>(
    socket: &mut WebSocket,
    settings: &Settings,
    conn: u64,
    session: &mut S,
    mut inbox: mpsc::Receiver<Utf8Bytes>,
    mut watch: Option<SessionWatch>,
) -> &'static str {
    let idle = settings.idle_timeout;
    let mut limit = MessageRate::new(settings);
    let mut last_heard = Instant::now();
    let ping_every = (idle / 3).max(Duration::from_millis(100));
    let mut pings = interval_at(Instant::now() + ping_every, ping_every);
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let message = match incoming {
                    None => return "closed",
                    Some(Err(e)) => {
                        receive_failed(socket, &e).await;
                        return "receive error";
                    }
                    Some(Ok(m)) => m,
                };
                last_heard = Instant::now();
                let text = match message {
                    Message::Text(t) => t,
                    Message::Close(_) => return "closed by the client",
                    Message::Ping(_) | Message::Pong(_) => continue,
                    Message::Binary(_) => {
                        if limit.allow() {
                            let _ = socket.send(error(ErrorCode::BadMessage, "the protocol uses text frames", false)).await;
                        }
                        continue;
                    }
                };
                if !limit.allow() {
                    if limit.dropped >= settings.flood_close_after {
                        fail(socket, ErrorCode::RateLimited, "too many messages: closed".into(), close_code::POLICY).await;
                        return "flood";
                    }
                    if limit.dropped == 1 || limit.dropped.is_multiple_of(10) {
                        info!(conn, socket = S::KIND, dropped = limit.dropped, "refused: too many messages");
                        let _ = socket.send(error(ErrorCode::RateLimited, format!("at most {} messages per second: message dropped", settings.messages_per_second), false)).await;
                    }
                    continue;
                }
                match S::parse(&text, settings.max_frame_bytes) {
                    Ok(message) => {
                        if let Next::Stop(why) = session.message(socket, message).await {
                            return why;
                        }
                    }
                    Err(e) if e.code == ErrorCode::FrameTooLarge => {
                        fail(socket, e.code, e.message, close_code::SIZE).await;
                        return "frame too large";
                    }
                    Err(e) => {
                        info!(conn, socket = S::KIND, code = %e.code, "refused: {}", e.message);
                        let _ = socket.send(error(e.code, e.message, false)).await;
                    }
                }
            }
            out = inbox.recv() => {
                match out {
                    Some(text) => {
                        if socket.send(Message::Text(text)).await.is_err() {
                            return "closed";
                        }
                    }
                    None => {
                        // Its sender dropped this connection: it did not read its messages,
                        // or (a game) the game moved to another node, which it was told.
                        close(socket, close_code::AGAIN, "reconnect").await;
                        return "dropped: too slow, or moved";
                    }
                }
            }
            Some(change) = session_changed(&mut watch) => {
                session.session_changed(socket, change).await;
                close(socket, crate::socket_sessions::CLOSE_SESSION_CHANGED, change.reason()).await;
                return change.reason();
            }
            _ = pings.tick() => {
                if socket.send(Message::Ping(axum::body::Bytes::new())).await.is_err() {
                    return "closed";
                }
            }
            _ = sleep_until(last_heard + idle) => {
                fail(socket, ErrorCode::IdleTimeout, format!("nothing received for {} s", idle.as_secs_f32()), close_code::POLICY).await;
                return "idle";
            }
        }
    }
}
