//! `GET /lobby`: the lobby's websocket. The same checks and loop as the game's
//! ([`crate::http::socket`]: origin check, connections per address, frame size, message rate,
//! idle timeout with pings); signed in by the session cookie or bearer header of the upgrade,
//! or by the hello's `token`.
use std::{net::IpAddr, sync::Arc, sync::atomic::Ordering};

use axum::{
    extract::{
        Extension, State, WebSocketUpgrade,
        ws::{Message, Utf8Bytes, WebSocket, close_code},
    },
    http::HeaderMap,
    response::Response,
};
use boardcraft_protocol::{
    ErrorCode, LobbyClientMessage, LobbyServerMessage, PROTOCOL_VERSION, ParseError,
    SEATS_PROTOCOL_VERSION, parse_lobby_client_message,
};
use tokio::sync::mpsc;
use tracing::{debug, warn};

use crate::{
    client_addr::ClientIp,
    http::{
        AppState, ConnectionSlot, Refused, accounts,
        socket::{self, Next, Session, error, fail},
    },
    lobby::Lobby,
    refusals::Refusal,
    secrets,
    socket_sessions::{CLOSE_SESSION_CHANGED, SessionChange},
    storage::Account,
};

/// Whether a lobby message changes anything (a ping, or asking for counts, does not).
fn changes_state(msg: &LobbyClientMessage) -> bool {
    !matches!(
        msg,
        LobbyClientMessage::Ping { .. } | LobbyClientMessage::Hello { .. }
    )
}

/// `GET /lobby`: checks the origin and the address's connection count, then upgrades.
pub async fn upgrade(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, Refused> {
    let slot = socket::admit(&state, ip, &headers, "a lobby websocket")?;
    let presented = accounts::presented_token(&headers)
        .ok()
        .flatten()
        .map(|(t, _)| t);
    Ok(socket::frame_limits(ws, &state.settings)
        .on_upgrade(move |socket| connection(socket, state, ip, presented, slot)))
}

fn text(msg: &LobbyServerMessage) -> Message {
    Message::Text(Utf8Bytes::from(msg.to_json()))
}

/// A refused lobby request (or the server's failure) as the lobby's error message; the
/// connection stays open.
fn refusal(e: &impl Refusal) -> LobbyServerMessage {
    if e.is_internal() {
        warn!("lobby: {e}");
    }
    LobbyServerMessage::error(e.code(), e.to_string())
}

/// A lobby socket, signed in: messages go to the lobby, as the session's account.
struct LobbySocket {
    state: Arc<AppState>,
    lobby: Arc<Lobby>,
    /// The session's token hash.
    session: String,
    account: Account,
    /// The hello's protocol (2 is not shown the tables of more than two).
    protocol: u32,
}

impl Session for LobbySocket {
    type Message = LobbyClientMessage;
    const KIND: &'static str = "lobby";

    fn parse(text: &str, max_bytes: usize) -> Result<LobbyClientMessage, ParseError> {
        parse_lobby_client_message(text, max_bytes)
    }

    async fn message(&mut self, socket: &mut WebSocket, msg: LobbyClientMessage) -> Next {
        // A message that changes something is the session's own act: the session is read
        // again (ended on another node of a cluster, or its account renamed by a claim there).
        if changes_state(&msg) {
            match self.state.store.session_account(self.session.clone()).await {
                Ok(Some(now)) => self.account = now,
                Ok(None) => {
                    let _ = socket
                        .send(error(
                            ErrorCode::NotSignedIn,
                            "the session has ended: sign in again",
                            true,
                        ))
                        .await;
                    socket::close(
                        socket,
                        CLOSE_SESSION_CHANGED,
                        SessionChange::SignedOut.reason(),
                    )
                    .await;
                    return Next::Stop("session ended");
                }
                Err(e) => {
                    let _ = socket.send(text(&refusal(&e))).await;
                    return Next::Continue;
                }
            }
        }
        let answer = match self.lobby.handle(&self.account, self.protocol, msg).await {
            Ok(None) => return Next::Continue,
            Ok(Some(answer)) => answer,
            Err(e) => refusal(&e),
        };
        if socket.send(text(&answer)).await.is_err() {
            return Next::Stop("closed");
        }
        Next::Continue
    }

    /// The lobby needs the session: the client is told it ended (a claim keeps it, under the
    /// account's new name: the client just reconnects).
    async fn session_changed(&mut self, socket: &mut WebSocket, change: SessionChange) {
        if change != SessionChange::Claimed {
            let _ = socket
                .send(error(
                    ErrorCode::NotSignedIn,
                    format!("the session has ended ({})", change.reason()),
                    true,
                ))
                .await;
        }
    }
}

async fn connection(
    mut socket: WebSocket,
    state: Arc<AppState>,
    ip: IpAddr,
    presented: Option<String>,
    slot: ConnectionSlot,
) {
    let _slot = slot;
    let settings = state.settings.clone();
    let lobby = state.lobby.clone();
    let conn = state.next_conn.fetch_add(1, Ordering::Relaxed);

    // --- the hello
    let Some(hello) = socket::first_message::<LobbySocket>(&mut socket, &settings).await else {
        return;
    };
    let (token, protocol) = match hello {
        LobbyClientMessage::Hello {
            protocol,
            token,
            client,
        } => {
            // 2, and 3 for the tables of more than two (the same lobby, more of it shown).
            if protocol != PROTOCOL_VERSION && protocol != SEATS_PROTOCOL_VERSION {
                return fail(
                    &mut socket,
                    ErrorCode::UnsupportedProtocol,
                    format!(
                        "the lobby speaks protocol {PROTOCOL_VERSION} or \
                         {SEATS_PROTOCOL_VERSION}, not {protocol}"
                    ),
                    close_code::PROTOCOL,
                )
                .await;
            }
            debug!(conn, %ip, client = ?client, protocol, "lobby hello");
            (token.or(presented), protocol)
        }
        _ => return socket::not_a_hello(&mut socket).await,
    };
    let session = token
        .filter(|t| secrets::looks_like_token(t))
        .map(|t| accounts::token_hash(&t));
    let account = match &session {
        None => None,
        Some(hash) => match state.store.session_account(hash.clone()).await {
            Ok(a) => a,
            Err(e) => return socket::fail_with(&mut socket, &e).await,
        },
    };
    let (Some(account), Some(session)) = (account, session) else {
        return fail(
            &mut socket,
            ErrorCode::NotSignedIn,
            "sign in first: the lobby needs an account (POST /api/accounts/guest)".into(),
            close_code::POLICY,
        )
        .await;
    };

    // From now on, ending the session (sign-out, a password change, a claim) closes this
    // socket.
    let watch = state.sessions.watch(session.clone());

    // --- registered (events queue up from now on), then the welcome
    let (outbox, inbox) = mpsc::channel::<Utf8Bytes>(settings.outgoing_queue);
    let welcome = match lobby.connect(conn, &account, protocol, outbox).await {
        Ok(()) => lobby.welcome(&account, protocol).await,
        Err(e) => Err(e),
    };
    let welcome = match welcome {
        Ok(w) => w,
        Err(e) => {
            lobby.disconnect(conn).await;
            return socket::fail_with(&mut socket, &e).await;
        }
    };
    if socket.send(text(&welcome)).await.is_err() {
        lobby.disconnect(conn).await;
        return;
    }
    debug!(conn, account = %account.id, "in the lobby");

    // --- the session
    let mut session = LobbySocket {
        state: state.clone(),
        lobby: lobby.clone(),
        session,
        account,
        protocol,
    };
    let reason = socket::run(
        &mut socket,
        &settings,
        conn,
        &mut session,
        inbox,
        Some(watch),
    )
    .await;
    debug!(conn, account = %session.account.id, "lobby connection ended: {reason}");
    lobby.disconnect(conn).await;
}
