//! The client side of the online protocol: HTTP requests over a plain TCP socket (the server
//! speaks HTTP/1.1; no TLS here — put a TLS proxy in front for the internet) and websockets
//! with tokio-tungstenite.
use std::time::Duration;

use boardcraft_protocol::{
    ClientMessage, GameSnapshot, PROTOCOL_VERSION, ServerMessage, http::ApiError,
    parse_server_message,
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
}

/// One HTTP request; the status and body.
pub async fn request(
    server: &ServerUrl,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> Result<(u16, String), String> {
    let work = async {
        let mut stream = TcpStream::connect(&server.authority)
            .await
            .map_err(|e| format!("cannot reach {}: {e}", server.authority))?;
        let body = body.unwrap_or("");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
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
    let (status, text) = request(server, method, path, body).await?;
    if status != expected {
        return Err(match serde_json::from_str::<ApiError>(&text) {
            Ok(e) => format!("{method} {path}: {} ({})", e.message, e.code),
            Err(_) => format!("{method} {path}: HTTP {status}: {text}"),
        });
    }
    serde_json::from_str(&text).map_err(|e| format!("{method} {path}: bad answer {text}: {e}"))
}

pub async fn snapshot(server: &ServerUrl, game: &str) -> Result<GameSnapshot, String> {
    json(server, "GET", &format!("/api/games/{game}"), None, 200).await
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

/// The next protocol message; `None` when the connection closed.
pub async fn recv(ws: &mut Ws) -> Result<Option<ServerMessage>, String> {
    loop {
        match ws.next().await {
            None | Some(Ok(Message::Close(_))) => return Ok(None),
            Some(Err(e)) => return Err(format!("websocket: {e}")),
            Some(Ok(Message::Text(t))) => {
                return parse_server_message(&t)
                    .map(Some)
                    .map_err(|e| format!("bad server message {t}: {e}"));
            }
            Some(Ok(_)) => continue,
        }
    }
}
