//! `GET /lobby`: the lobby's websocket. The same limits as the game's (`crate::http::ws`:
//! origin check, connections per address, frame size, message rate, idle timeout with pings),
//! whose pieces it uses; signed in by the session cookie or bearer header of the upgrade, or by
//! the hello's `token`.
use std::{net::IpAddr, sync::Arc, sync::atomic::Ordering, time::Duration};

use axum::{
    extract::{
        Extension, State, WebSocketUpgrade,
        ws::{Message, Utf8Bytes, WebSocket, close_code},
    },
    http::HeaderMap,
    response::{IntoResponse, Response},
};
use boardcraft_protocol::{
    ErrorCode, LobbyClientMessage, PROTOCOL_VERSION, parse_lobby_client_message,
};
use tokio::{
    sync::mpsc,
    time::{Instant, interval_at, sleep_until},
};
use tracing::{debug, info};

use crate::{
    client_addr::ClientIp,
    http::{
        AppState, ConnectionSlot, Refused, accounts,
        ws::{RateLimit, close, error, fail, origin_allowed, receive_failed},
    },
    secrets,
    socket_sessions::{CLOSE_SESSION_CHANGED, SessionChange},
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
) -> Response {
    if let Err(why) = origin_allowed(&state.settings, &headers) {
        info!(%ip, "refused a lobby websocket: {why}");
        return Refused(ErrorCode::OriginNotAllowed, why).into_response();
    }
    let Some(slot) = state.open_connection(ip) else {
        let why = format!(
            "at most {} connections from one address",
            state.settings.max_connections_per_ip
        );
        info!(%ip, "refused a lobby websocket: {why}");
        return Refused(ErrorCode::TooManyConnections, why).into_response();
    };
    let presented = accounts::presented_token(&headers)
        .ok()
        .flatten()
        .map(|(t, _)| t);
    let max = state.settings.max_frame_bytes;
    ws.max_message_size(max * 4)
        .max_frame_size(max * 4)
        .on_upgrade(move |socket| connection(socket, state, ip, presented, slot))
}

fn text(msg: &boardcraft_protocol::LobbyServerMessage) -> Message {
    Message::Text(Utf8Bytes::from(msg.to_json()))
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
    let idle = settings.idle_timeout;

    // --- the hello
    let text_in = match tokio::time::timeout(idle, socket.recv()).await {
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
    let token = match parse_lobby_client_message(&text_in, settings.max_frame_bytes) {
        Ok(LobbyClientMessage::Hello {
            protocol,
            token,
            client,
        }) => {
            if protocol != PROTOCOL_VERSION {
                return fail(
                    &mut socket,
                    ErrorCode::UnsupportedProtocol,
                    format!("the lobby speaks protocol {PROTOCOL_VERSION}, not {protocol}"),
                    close_code::PROTOCOL,
                )
                .await;
            }
            debug!(conn, %ip, client = ?client, "lobby hello");
            token.or(presented)
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
        Err(e) => return fail(&mut socket, e.code, e.message, close_code::POLICY).await,
    };
    let session = token
        .filter(|t| secrets::looks_like_token(t))
        .map(|t| accounts::token_hash(&t));
    let account = match &session {
        None => None,
        Some(hash) => match state.games.store.session_account(hash.clone()).await {
            Ok(a) => a,
            Err(e) => {
                return fail(
                    &mut socket,
                    ErrorCode::Internal,
                    e.to_string(),
                    close_code::ERROR,
                )
                .await;
            }
        },
    };
    let (Some(mut account), Some(session)) = (account, session) else {
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
    let mut watch = state.sessions.watch(session.clone());

    // --- registered (events queue up from now on), then the welcome
    let (outbox, mut inbox) = mpsc::channel::<Utf8Bytes>(settings.outgoing_queue);
    if let Err(e) = lobby.connect(conn, &account, outbox).await {
        lobby.disconnect(conn).await;
        return fail(
            &mut socket,
            ErrorCode::Internal,
            e.to_string(),
            close_code::ERROR,
        )
        .await;
    }
    let welcome = match lobby.welcome(&account).await {
        Ok(w) => w,
        Err(e) => {
            lobby.disconnect(conn).await;
            return fail(
                &mut socket,
                ErrorCode::Internal,
                e.to_string(),
                close_code::ERROR,
            )
            .await;
        }
    };
    if socket.send(text(&welcome)).await.is_err() {
        lobby.disconnect(conn).await;
        return;
    }
    debug!(conn, account = %account.id, "in the lobby");

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
                let t = match message {
                    Message::Text(t) => t,
                    Message::Close(_) => break "closed by the client",
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
                        fail(&mut socket, ErrorCode::RateLimited, "too many messages: closed".into(), close_code::POLICY).await;
                        break "flood";
                    }
                    if limit.dropped == 1 || limit.dropped.is_multiple_of(10) {
                        let _ = socket.send(error(ErrorCode::RateLimited, format!("at most {} messages per second: message dropped", settings.messages_per_second), false)).await;
                    }
                    continue;
                }
                match parse_lobby_client_message(&t, settings.max_frame_bytes) {
                    Ok(msg) => {
                        // A message that changes something is the session's own act: the
                        // session is read again (ended on another node of a cluster, or
                        // its account renamed by a claim there).
                        if changes_state(&msg) {
                            match state.games.store.session_account(session.clone()).await {
                                Ok(Some(now)) => account = now,
                                Ok(None) => {
                                    let _ = socket.send(error(ErrorCode::NotSignedIn, "the session has ended: sign in again", true)).await;
                                    close(&mut socket, CLOSE_SESSION_CHANGED, SessionChange::SignedOut.reason()).await;
                                    break "session ended";
                                }
                                Err(e) => {
                                    let _ = socket.send(error(ErrorCode::Internal, e.to_string(), false)).await;
                                    continue;
                                }
                            }
                        }
                        if let Some(answer) = lobby.handle(&account, msg).await
                            && socket.send(text(&answer)).await.is_err()
                        {
                            break "closed";
                        }
                    }
                    Err(e) if e.code == ErrorCode::FrameTooLarge => {
                        fail(&mut socket, e.code, e.message, close_code::SIZE).await;
                        break "frame too large";
                    }
                    Err(e) => {
                        info!(conn, code = %e.code, "lobby: refused: {}", e.message);
                        let _ = socket.send(error(e.code, e.message, false)).await;
                    }
                }
            }
            out = inbox.recv() => {
                match out {
                    Some(t) => {
                        if socket.send(Message::Text(t)).await.is_err() {
                            break "closed";
                        }
                    }
                    None => {
                        // It did not read its events: the client reconnects for the whole lobby.
                        close(&mut socket, close_code::AGAIN, "reconnect").await;
                        break "too slow";
                    }
                }
            }
            Ok(change) = &mut watch.changed => {
                if change != SessionChange::Claimed {
                    let _ = socket.send(error(ErrorCode::NotSignedIn, format!("the session has ended ({})", change.reason()), true)).await;
                }
                close(&mut socket, CLOSE_SESSION_CHANGED, change.reason()).await;
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
    debug!(conn, account = %account.id, "lobby connection ended: {reason}");
    lobby.disconnect(conn).await;
}
