//! One task per websocket: the hello, limits (frame size, rate, idle), keep-alive, and the
//! relay between the socket and its game's task.
use std::{net::IpAddr, sync::Arc, sync::atomic::Ordering, time::Duration};

use axum::{
    extract::{
        Extension, Query, State, WebSocketUpgrade,
        ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code},
    },
    http::{HeaderMap, header},
    response::{IntoResponse, Response},
};
use boardcraft_protocol::{
    ClientMessage, ErrorCode, MIN_PROTOCOL_VERSION, PROTOCOL_VERSION, ServerMessage,
    parse_client_message,
};
use tokio::{
    sync::mpsc,
    time::{Instant, interval_at, sleep_until},
};
use tracing::{debug, info};

use crate::{
    Settings,
    client_addr::ClientIp,
    game::{Command, ConnId, LoadError},
    http::{AppState, ConnectionSlot, Refused},
    secrets,
};

/// `/ws?game=<id>`: the game in the URL is for load balancers, which route by it (the hello
/// still names the game, and must name the same one).
#[derive(serde::Deserialize, Default)]
pub struct WsQuery {
    game: Option<String>,
}

/// `GET /ws`: checks the page's origin and the address's connection count, then upgrades.
pub async fn upgrade(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Query(query): Query<WsQuery>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if let Err(why) = origin_allowed(&state.settings, &headers) {
        info!(%ip, "refused a websocket: {why}");
        return Refused(ErrorCode::OriginNotAllowed, why).into_response();
    }
    let url_game = query.game;
    let Some(slot) = state.open_connection(ip) else {
        let why = format!(
            "at most {} connections from one address",
            state.settings.max_connections_per_ip
        );
        info!(%ip, "refused a websocket: {why}");
        return Refused(ErrorCode::TooManyConnections, why).into_response();
    };
    // A browser sends its session cookie with the upgrade: the socket closes when that
    // session ends. (The game itself is played by the seat token of the hello.)
    let session = crate::http::accounts::presented_token(&headers)
        .ok()
        .flatten()
        .filter(|(t, _)| secrets::looks_like_token(t))
        .map(|(t, _)| crate::http::accounts::token_hash(&t));
    let max = state.settings.max_frame_bytes;
    // The transport's own cap is far above ours, so that an oversized frame gets our error
    // message before the close; frames past even that cap just close the connection.
    ws.max_message_size(max * 4)
        .max_frame_size(max * 4)
        .on_upgrade(move |socket| connection(socket, state, ip, url_game, session, slot))
}

/// A browser page may open a websocket to any site, sending its cookies: the `Origin` header
/// says which page did. Allowed: no `Origin` (not a browser: bots, tools), the
/// `--allow-origin` list, and the server's own origin: `--public-url` when it is set — and
/// then nothing else, since the `Host` header is whatever name the page's browser used (a
/// DNS-rebinding page sends its own name as Host) — else the request's `Host`.
pub(crate) fn origin_allowed(settings: &Settings, headers: &HeaderMap) -> Result<(), String> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin
        .to_str()
        .map_err(|_| "the Origin header is not text".to_owned())?;
    if settings
        .allowed_origins
        .iter()
        .any(|o| o == "*" || o.trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        return Ok(());
    }
    if let Some(public) = &settings.public_url {
        if public.trim_end_matches('/').eq_ignore_ascii_case(origin) {
            return Ok(());
        }
        return Err(format!(
            "a page from {origin} may not open a websocket here (the server is {}; see --allow-origin)",
            public.trim_end_matches('/')
        ));
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    if !host.is_empty() && origin_host.eq_ignore_ascii_case(host) {
        return Ok(());
    }
    Err(format!(
        "a page from {origin} may not open a websocket here (the server is {host}; see --allow-origin)"
    ))
}

/// Messages a connection may send: a token bucket.
pub(crate) struct RateLimit {
    tokens: f64,
    per_second: f64,
    burst: f64,
    last: Instant,
    pub(crate) dropped: u32,
}

impl RateLimit {
    pub(crate) fn new(settings: &Settings) -> RateLimit {
        RateLimit {
            tokens: settings.message_burst as f64,
            per_second: settings.messages_per_second as f64,
            burst: settings.message_burst as f64,
            last: Instant::now(),
            dropped: 0,
        }
    }

    pub(crate) fn allow(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            self.dropped += 1;
            false
        }
    }
}

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

/// A game's answer, or why the connection is refused: no such game (a policy close), or the
/// store failed (an error close).
fn found<T>(
    answer: Result<Option<T>, LoadError>,
    game: &str,
) -> Result<T, (ErrorCode, String, u16)> {
    match answer {
        Err(e @ LoadError::Elsewhere(_)) => {
            Err((ErrorCode::GameMoved, e.to_string(), close_code::AGAIN))
        }
        Ok(Some(value)) => Ok(value),
        Ok(None) => Err((
            ErrorCode::GameNotFound,
            format!("no game `{game}`"),
            close_code::POLICY,
        )),
        Err(e) => Err((ErrorCode::Internal, e.to_string(), close_code::ERROR)),
    }
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

/// Resolves when the socket's session changes (never, for a socket without one).
async fn session_changed(
    watch: &mut Option<crate::socket_sessions::SessionWatch>,
) -> Option<crate::socket_sessions::SessionChange> {
    match watch {
        Some(w) => (&mut w.changed).await.ok(),
        None => std::future::pending().await,
    }
}

async fn connection(
    mut socket: WebSocket,
    state: Arc<AppState>,
    ip: IpAddr,
    url_game: Option<String>,
    session: Option<String>,
    slot: ConnectionSlot,
) {
    let _slot = slot;
    let mut watch = session.map(|hash| state.sessions.watch(hash));
    let settings = state.settings.clone();
    let conn: ConnId = state.next_conn.fetch_add(1, Ordering::Relaxed);
    let idle = settings.idle_timeout;

    // --- the hello
    let hello = tokio::time::timeout(idle, socket.recv()).await;
    let text = match hello {
        Err(_) => {
            return fail(
                &mut socket,
                ErrorCode::IdleTimeout,
                "no hello received".into(),
                close_code::POLICY,
            )
            .await;
        }
        Ok(None) => return,
        Ok(Some(Err(e))) => return receive_failed(&mut socket, &e).await,
        Ok(Some(Ok(Message::Text(t)))) => t,
        Ok(Some(Ok(_))) => {
            return fail(
                &mut socket,
                ErrorCode::HelloRequired,
                "the first message must be a hello text frame".into(),
                close_code::POLICY,
            )
            .await;
        }
    };
    let (game, token) = match parse_client_message(&text, settings.max_frame_bytes) {
        Ok(ClientMessage::Hello {
            protocol,
            game,
            token,
            client,
        }) => {
            if !(MIN_PROTOCOL_VERSION..=PROTOCOL_VERSION).contains(&protocol) {
                return fail(
                    &mut socket,
                    ErrorCode::UnsupportedProtocol,
                    format!(
                        "this server speaks protocols {MIN_PROTOCOL_VERSION} to {PROTOCOL_VERSION}, not {protocol}"
                    ),
                    close_code::PROTOCOL,
                )
                .await;
            }
            debug!(conn, %ip, game = %game, client = ?client, "hello");
            (game, token)
        }
        Ok(_) => {
            return fail(
                &mut socket,
                ErrorCode::HelloRequired,
                "the first message must be a hello".into(),
                close_code::POLICY,
            )
            .await;
        }
        Err(e) => {
            return fail(&mut socket, e.code, e.message, close_code::POLICY).await;
        }
    };
    if url_game.as_ref().is_some_and(|g| *g != game) {
        return fail(
            &mut socket,
            ErrorCode::BadMessage,
            "the hello names another game than the URL's ?game=".into(),
            close_code::POLICY,
        )
        .await;
    }
    if !secrets::looks_like_id(&game) {
        return fail(
            &mut socket,
            ErrorCode::GameNotFound,
            "no such game".into(),
            close_code::POLICY,
        )
        .await;
    }
    let (outbox, mut inbox) = mpsc::channel::<Utf8Bytes>(settings.outgoing_queue);
    let task = match found(state.games.task(&game).await, &game) {
        Ok(task) => task,
        Err((code, message, close_with)) => {
            return fail(&mut socket, code, message, close_with).await;
        }
    };
    let joined = state
        .games
        .ask(&game, |reply| Command::Connect {
            conn,
            token: token.clone(),
            outbox: outbox.clone(),
            reply,
        })
        .await;
    drop(outbox);
    drop(task);
    let side = match found(joined, &game) {
        Ok(Ok(side)) => side,
        Ok(Err((code, message))) => {
            return fail(&mut socket, code, message, close_code::POLICY).await;
        }
        Err((code, message, close_with)) => {
            return fail(&mut socket, code, message, close_with).await;
        }
    };
    // The task that accepted the connection (a retry may have started a new one).
    let Ok(Some(task)) = state.games.task(&game).await else {
        return;
    };
    debug!(conn, game = %game, side = ?side, "joined");
    // A seat holder of a lobby game counts as a player online (the lobby's counts).
    let seat_account = match (side, state.games.store.lobby()) {
        (Some(side), Some(db)) => db
            .seat_account(game.clone(), side == boardcraft_protocol::Side::White)
            .await
            .ok()
            .flatten(),
        _ => None,
    };
    if let Some(account) = &seat_account {
        state.lobby.game_presence(account, true);
    }

    // --- the session
    let mut limit = RateLimit::new(&settings);
    let mut last_heard = Instant::now();
    let ping_every = (idle / 3).max(Duration::from_millis(100));
    let mut pings = interval_at(Instant::now() + ping_every, ping_every);
    let reason = loop {
        tokio::select! {
            incoming = socket.recv() => {
                let message = match incoming {
                    None => break "closed",
                    Some(Err(e)) => {
                        receive_failed(&mut socket, &e).await;
                        break "receive error";
                    }
                    Some(Ok(m)) => m,
                };
                last_heard = Instant::now();
                let text = match message {
                    Message::Text(t) => t,
                    Message::Close(_) => break "closed by the client",
                    Message::Ping(_) | Message::Pong(_) => continue,
                    Message::Binary(_) => {
                        if !limit.allow() { continue; }
                        let _ = socket.send(error(ErrorCode::BadMessage, "the protocol uses text frames", false)).await;
                        continue;
                    }
                };
                if !limit.allow() {
                    if limit.dropped >= settings.flood_close_after {
                        fail(&mut socket, ErrorCode::RateLimited, "too many messages: closed".into(), close_code::POLICY).await;
                        break "flood";
                    }
                    if limit.dropped == 1 || limit.dropped.is_multiple_of(10) {
                        info!(conn, game = %game, dropped = limit.dropped, "refused: too many messages");
                        let _ = socket.send(error(ErrorCode::RateLimited, format!("at most {} messages per second: message dropped", settings.messages_per_second), false)).await;
                    }
                    continue;
                }
                match parse_client_message(&text, settings.max_frame_bytes) {
                    Ok(ClientMessage::Ping { n }) => {
                        let pong = ServerMessage::Pong { n }.to_json();
                        if socket.send(Message::Text(Utf8Bytes::from(pong))).await.is_err() {
                            break "closed";
                        }
                    }
                    Ok(ClientMessage::Hello { .. }) => {
                        let _ = socket.send(error(ErrorCode::AlreadyJoined, "this connection is in a game already; open another one for another game", false)).await;
                    }
                    Ok(msg) => {
                        if task.send(Command::Message { conn, msg }).await.is_err() {
                            break "the game stopped";
                        }
                    }
                    Err(e) if e.code == ErrorCode::FrameTooLarge => {
                        fail(&mut socket, e.code, e.message, close_code::SIZE).await;
                        break "frame too large";
                    }
                    Err(e) => {
                        info!(conn, game = %game, code = %e.code, "refused: {}", e.message);
                        let _ = socket.send(error(e.code, e.message, false)).await;
                    }
                }
            }
            out = inbox.recv() => {
                match out {
                    Some(text) => {
                        if socket.send(Message::Text(text)).await.is_err() {
                            break "closed";
                        }
                    }
                    None => {
                        // The game dropped this connection: it did not read its messages, or
                        // the game moved to another node (game_moved was sent before).
                        close(&mut socket, close_code::AGAIN, "reconnect").await;
                        break "dropped by the game";
                    }
                }
            }
            Some(change) = session_changed(&mut watch) => {
                close(&mut socket, crate::socket_sessions::CLOSE_SESSION_CHANGED, change.reason()).await;
                break change.reason();
            }
            _ = pings.tick() => {
                if socket.send(Message::Ping(axum::body::Bytes::new())).await.is_err() {
                    break "closed";
                }
            }
            _ = sleep_until(last_heard + idle) => {
                fail(&mut socket, ErrorCode::IdleTimeout, format!("nothing received for {} s", idle.as_secs_f32()), close_code::POLICY).await;
                break "idle";
            }
        }
    };
    debug!(conn, game = %game, "connection ended: {reason}");
    if let Some(account) = &seat_account {
        state.lobby.game_presence(account, false);
    }
    let _ = task.send(Command::Disconnect { conn }).await;
}
