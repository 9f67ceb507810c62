//! One task per game websocket: the hello, then the relay between the socket and its game's
//! task, in the loop both websockets share ([`crate::http::socket`]: limits, keep-alive, idle
//! timeout).
use std::{net::IpAddr, sync::Arc, sync::atomic::Ordering};

use axum::{
    extract::{
        Extension, Query, State, WebSocketUpgrade,
        ws::{Message, Utf8Bytes, WebSocket, close_code},
    },
    http::{HeaderMap, header},
    response::Response,
};
use boardcraft_protocol::{
    ClientMessage, ErrorCode, MIN_PROTOCOL_VERSION, ParseError, SEATS_PROTOCOL_VERSION,
    ServerMessage, parse_client_message,
};
use tokio::sync::mpsc;
use tracing::debug;

use crate::{
    Settings,
    client_addr::ClientIp,
    game::{Command, ConnId, GameError, LoadError},
    http::{
        AppState, ConnectionSlot, Refused,
        socket::{self, Next, Session, error, fail},
    },
    secrets,
    socket_sessions::SessionChange,
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
) -> Result<Response, Refused> {
    let slot = socket::admit(&state, ip, &headers, "a websocket")?;
    let url_game = query.game;
    // A browser sends its session cookie with the upgrade: the socket closes when that
    // session ends. (The game itself is played by the seat token of the hello.)
    let session = crate::http::accounts::presented_token(&headers)
        .ok()
        .flatten()
        .filter(|(t, _)| secrets::looks_like_token(t))
        .map(|(t, _)| crate::http::accounts::token_hash(&t));
    Ok(socket::frame_limits(ws, &state.settings)
        .on_upgrade(move |socket| connection(socket, state, ip, url_game, session, slot)))
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

/// A game's answer, or why the connection is refused: no such game, or the game could not
/// be loaded.
fn found<T>(answer: Result<Option<T>, LoadError>, game: &str) -> Result<T, GameError> {
    answer?.ok_or_else(|| GameError::NotFound(game.to_owned()))
}

/// A game socket in its game: messages go to the game's task.
struct GameSocket {
    conn: ConnId,
    task: mpsc::Sender<Command>,
}

impl Session for GameSocket {
    type Message = ClientMessage;
    const KIND: &'static str = "game";

    fn parse(text: &str, max_bytes: usize) -> Result<ClientMessage, ParseError> {
        parse_client_message(text, max_bytes)
    }

    async fn message(&mut self, socket: &mut WebSocket, msg: ClientMessage) -> Next {
        match msg {
            ClientMessage::Ping { n } => {
                let pong = ServerMessage::Pong { n }.to_json();
                if socket
                    .send(Message::Text(Utf8Bytes::from(pong)))
                    .await
                    .is_err()
                {
                    return Next::Stop("closed");
                }
            }
            ClientMessage::Hello { .. } => {
                let _ = socket
                    .send(error(
                        ErrorCode::AlreadyJoined,
                        "this connection is in a game already; open another one for another game",
                        false,
                    ))
                    .await;
            }
            msg => {
                let conn = self.conn;
                if self
                    .task
                    .send(Command::Message { conn, msg })
                    .await
                    .is_err()
                {
                    return Next::Stop("the game stopped");
                }
            }
        }
        Next::Continue
    }

    /// The game is played by the seat token, not the session: the socket just closes (the
    /// page reconnects with its new session).
    async fn session_changed(&mut self, _socket: &mut WebSocket, _change: SessionChange) {}
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
    let watch = session.map(|hash| state.sessions.watch(hash));
    let settings = state.settings.clone();
    let conn: ConnId = state.next_conn.fetch_add(1, Ordering::Relaxed);

    // --- the hello
    let Some(hello) = socket::first_message::<GameSocket>(&mut socket, &settings).await else {
        return;
    };
    let (game, token, protocol) = match hello {
        ClientMessage::Hello {
            protocol,
            game,
            token,
            client,
        } => {
            if !(MIN_PROTOCOL_VERSION..=SEATS_PROTOCOL_VERSION).contains(&protocol) {
                return fail(
                    &mut socket,
                    ErrorCode::UnsupportedProtocol,
                    format!(
                        "this server speaks protocols {MIN_PROTOCOL_VERSION} to {SEATS_PROTOCOL_VERSION}, not {protocol}"
                    ),
                    close_code::PROTOCOL,
                )
                .await;
            }
            debug!(conn, %ip, game = %game, protocol, client = ?client, "hello");
            (game, token, protocol)
        }
        _ => return socket::not_a_hello(&mut socket).await,
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
    let (outbox, inbox) = mpsc::channel::<Utf8Bytes>(settings.outgoing_queue);
    let task = match found(state.games.task(&game).await, &game) {
        Ok(task) => task,
        Err(e) => return socket::fail_with(&mut socket, &e).await,
    };
    let joined = state
        .games
        .ask(&game, |reply| Command::Connect {
            conn,
            token: token.clone(),
            protocol,
            computer: false,
            outbox: outbox.clone(),
            reply,
        })
        .await;
    drop(outbox);
    drop(task);
    let side = match found(joined, &game).and_then(|side| side) {
        Ok(side) => side,
        Err(e) => return socket::fail_with(&mut socket, &e).await,
    };
    // The task that accepted the connection (a retry may have started a new one).
    let Ok(Some(task)) = state.games.task(&game).await else {
        return;
    };
    debug!(conn, game = %game, side = ?side, "joined");
    // A seat holder of a lobby game counts as a player online (the lobby's counts).
    // (The lobby's accounts sit at two-seat tables: White's and Black's.)
    let seat_account = match side.and_then(boardcraft_protocol::side_of) {
        Some(side) => state
            .store
            .seat_account(game.clone(), side == boardcraft_protocol::Side::White)
            .await
            .ok()
            .flatten(),
        None => None,
    };
    if let Some(account) = &seat_account {
        state.lobby.game_presence(account, true);
    }

    // --- the session
    let mut session = GameSocket { conn, task };
    let reason = socket::run(&mut socket, &settings, conn, &mut session, inbox, watch).await;
    debug!(conn, game = %game, "connection ended: {reason}");
    if let Some(account) = &seat_account {
        state.lobby.game_presence(account, false);
    }
    let _ = session.task.send(Command::Disconnect { conn }).await;
}
