//! The client side of the online protocol: HTTP requests over a plain TCP socket (the server
//! speaks HTTP/1.1; no TLS here — put a TLS proxy in front for the internet) and websockets
//! with tokio-tungstenite.
use std::time::Duration;

use boardcraft_protocol::{
    ClientMessage, ErrorCode, GameSnapshot, LobbyClientMessage, LobbyServerMessage,
    PROTOCOL_VERSION, SeatServerMessage, ServerMessage, http::ApiError, parse_lobby_server_message,
    parse_seat_server_message, parse_server_message,
};
use futures_util::{SinkExt, StreamExt};
use serde::de::DeserializeOwned;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, tungstenite::Message};

/// A server address as given on the command line: `http://host:port`, `host:port`.
#[derive(Clone, Debug)]
pub struct ServerUrl {
    /// `host:port`
    pub authority: String,
}

impl ServerUrl {
    pub fn parse(text: &str) -> Result<ServerUrl, String> {
        let rest = text
            .strip_prefix("http://")
            .or_else(|| text.strip_prefix("ws://"))
            .unwrap_or(text);
        if text.starts_with("https://") || text.starts_with("wss://") {
            return Err("this client speaks plain http:// and ws:// only".into());
        }
        let authority = rest.split('/').next().unwrap_or("").to_owned();
        if authority.is_empty() {
            return Err(format!(
                "`{text}` is not a server address (http://host:port)"
            ));
        }
        let authority = if authority.contains(':') {
            authority
        } else {
            format!("{authority}:80")
        };
        Ok(ServerUrl { authority })
    }

    pub fn ws(&self) -> String {
        format!("ws://{}{}", self.authority, boardcraft_protocol::WS_PATH)
    }

    /// The game websocket with the game in its query (`/ws?game=<id>`), which a cluster's
    /// load balancer routes by.
    pub fn game_ws(&self, game: &str) -> String {
        format!(
            "ws://{}{}?game={game}",
            self.authority,
            boardcraft_protocol::WS_PATH
        )
    }

    pub fn lobby(&self) -> String {
        format!("ws://{}{}", self.authority, boardcraft_protocol::LOBBY_PATH)
    }
}

/// One HTTP request, signed in with a session token (`Authorization: Bearer`) when given.
pub async fn request_as(
    server: &ServerUrl,
    method: &str,
    path: &str,
    body: Option<&str>,
    token: Option<&str>,
) -> Result<(u16, String), String> {
    let work = async {
        let mut stream = TcpStream::connect(&server.authority)
            .await
            .map_err(|e| format!("cannot reach {}: {e}", server.authority))?;
        let body = body.unwrap_or("");
        let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            server.authority,
            body.len()
        );
        stream
            .write_all(format!("{head}{body}").as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let mut raw = Vec::new();
        stream
            .read_to_end(&mut raw)
            .await
            .map_err(|e| e.to_string())?;
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .ok_or("a broken HTTP answer")?;
        let head = String::from_utf8_lossy(&raw[..split]).into_owned();
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or("a broken HTTP status line")?;
        let mut payload = raw[split + 4..].to_vec();
        if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            payload = dechunk(&payload);
        }
        Ok((status, String::from_utf8_lossy(&payload).into_owned()))
    };
    tokio::time::timeout(Duration::from_secs(30), work)
        .await
        .map_err(|_| format!("{method} {path}: no answer in 30 s"))?
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = data.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&data[..end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.trim(), 16).ok())
            .unwrap_or(0);
        if size == 0 || data.len() < end + 2 + size {
            break;
        }
        out.extend_from_slice(&data[end + 2..end + 2 + size]);
        data = &data[(end + 4 + size).min(data.len())..];
    }
    out
}

/// A JSON request whose success is `expected`; a refusal becomes its code and message.
pub async fn json<T: DeserializeOwned>(
    server: &ServerUrl,
    method: &str,
    path: &str,
    body: Option<&str>,
    expected: u16,
) -> Result<T, String> {
    json_as(server, method, path, body, None, expected)
        .await
        .map_err(|e| e.text)
}

/// A refused or failed HTTP request: the server's error code when it gave one.
#[derive(Debug)]
pub struct HttpError {
    pub code: Option<ErrorCode>,
    pub text: String,
}

/// A JSON request signed in with `token`, whose success is `expected`.
pub async fn json_as<T: DeserializeOwned>(
    server: &ServerUrl,
    method: &str,
    path: &str,
    body: Option<&str>,
    token: Option<&str>,
    expected: u16,
) -> Result<T, HttpError> {
    let (status, text) = request_as(server, method, path, body, token)
        .await
        .map_err(|text| HttpError { code: None, text })?;
    if status != expected {
        return Err(match serde_json::from_str::<ApiError>(&text) {
            Ok(e) => HttpError {
                code: Some(e.code),
                text: format!("{method} {path}: {} ({})", e.message, e.code),
            },
            Err(_) => HttpError {
                code: None,
                text: format!("{method} {path}: HTTP {status}: {text}"),
            },
        });
    }
    serde_json::from_str(&text).map_err(|e| HttpError {
        code: None,
        text: format!("{method} {path}: bad answer {text}: {e}"),
    })
}

pub async fn snapshot(server: &ServerUrl, game: &str) -> Result<GameSnapshot, String> {
    json(
        server,
        "GET",
        &boardcraft_protocol::paths::game(game),
        None,
        200,
    )
    .await
}

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Opens a websocket and says hello; returns it with the welcome.
pub async fn connect(
    server: &ServerUrl,
    game: &str,
    token: Option<&str>,
    client: &str,
) -> Result<(Ws, ServerMessage), String> {
    let work = async {
        let (mut ws, _) = tokio_tungstenite::connect_async(server.ws())
            .await
            .map_err(|e| format!("websocket: {e}"))?;
        send(
            &mut ws,
            &ClientMessage::Hello {
                protocol: PROTOCOL_VERSION,
                game: game.to_owned(),
                token: token.map(str::to_owned),
                client: Some(client.to_owned()),
            },
        )
        .await?;
        match recv(&mut ws).await? {
            Some(m @ ServerMessage::Welcome { .. }) => Ok((ws, m)),
            Some(ServerMessage::Error { code, message, .. }) => {
                Err(format!("refused: {message} ({code})"))
            }
            other => Err(format!("expected a welcome, got {other:?}")),
        }
    };
    tokio::time::timeout(Duration::from_secs(30), work)
        .await
        .map_err(|_| "no welcome in 30 s".to_owned())?
}

pub async fn send(ws: &mut Ws, msg: &ClientMessage) -> Result<(), String> {
    ws.send(Message::Text(msg.to_json().into()))
        .await
        .map_err(|e| format!("websocket: {e}"))
}

/// The next text frame; `None` when the connection closed.
async fn recv_text(ws: &mut Ws) -> Result<Option<String>, String> {
    loop {
        match ws.next().await {
            None | Some(Ok(Message::Close(_))) => return Ok(None),
            Some(Err(e)) => return Err(format!("websocket: {e}")),
            Some(Ok(Message::Text(t))) => return Ok(Some(t.to_string())),
            Some(Ok(_)) => continue,
        }
    }
}

/// The next protocol message; `None` when the connection closed.
pub async fn recv(ws: &mut Ws) -> Result<Option<ServerMessage>, String> {
    match recv_text(ws).await? {
        None => Ok(None),
        Some(t) => parse_server_message(&t)
            .map(Some)
            .map_err(|e| format!("bad server message {t}: {e}")),
    }
}

/// The next message of a connection of protocol 3 (seats); `None` when the connection closed.
pub async fn recv_seats(ws: &mut Ws) -> Result<Option<SeatServerMessage>, String> {
    match recv_text(ws).await? {
        None => Ok(None),
        Some(t) => parse_seat_server_message(&t)
            .map(Some)
            .map_err(|e| format!("bad server message {t}: {e}")),
    }
}

/// Opens the lobby websocket and says hello with the session token in lobby protocol
/// `protocol` (2, or 3 to see the tables of more than two); returns it with the welcome.
pub async fn lobby_connect(
    server: &ServerUrl,
    token: &str,
    client: &str,
    protocol: u32,
) -> Result<(Ws, LobbyServerMessage), String> {
    let work = async {
        let (mut ws, _) = tokio_tungstenite::connect_async(server.lobby())
            .await
            .map_err(|e| format!("lobby websocket: {e}"))?;
        lobby_send(
            &mut ws,
            &LobbyClientMessage::Hello {
                protocol,
                token: Some(token.to_owned()),
                client: Some(client.to_owned()),
            },
        )
        .await?;
        match lobby_recv(&mut ws).await? {
            Some(m @ LobbyServerMessage::Welcome { .. }) => Ok((ws, m)),
            Some(LobbyServerMessage::Error { code, message, .. }) => {
                Err(format!("lobby refused: {message} ({code})"))
            }
            other => Err(format!("expected the lobby's welcome, got {other:?}")),
        }
    };
    tokio::time::timeout(Duration::from_secs(30), work)
        .await
        .map_err(|_| "no lobby welcome in 30 s".to_owned())?
}

pub async fn lobby_send(ws: &mut Ws, msg: &LobbyClientMessage) -> Result<(), String> {
    ws.send(Message::Text(msg.to_json().into()))
        .await
        .map_err(|e| format!("lobby websocket: {e}"))
}

/// The next lobby message; `None` when the connection closed.
pub async fn lobby_recv(ws: &mut Ws) -> Result<Option<LobbyServerMessage>, String> {
    match recv_text(ws).await? {
        None => Ok(None),
        Some(t) => parse_lobby_server_message(&t)
            .map(Some)
            .map_err(|e| format!("bad lobby message {t}: {e}")),
    }
}
