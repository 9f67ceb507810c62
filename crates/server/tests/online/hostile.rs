//! What an adversarial client of the cluster found, one test each: idle and trickling
//! connections, the per-address limit on every connection, the open-file limit, the origin
//! check behind `--public-url`, forged log lines, the body limit against JSON escapes, and
//! refusals that were not the documented JSON.
use std::time::Duration;

use boardcraft_protocol::{ClientMessage, PROTOCOL_VERSION};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use tokio_tungstenite::tungstenite::{
    self, Message,
    protocol::frame::{
        Frame,
        coding::{CloseCode, Data, OpCode},
    },
};

use crate::support::{
    Binary, Client, Ended, Server, error_code_text, http, http_full, settings, wait,
};

/// Reads until the server closes the connection (EOF or reset); panics if it stays open
/// longer than the tests wait.
async fn closed_by_server(stream: &mut TcpStream) {
    let mut buf = [0u8; 1024];
    wait(async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => continue,
            }
        }
    })
    .await
}

/// Finding 1: a connection that sends nothing, and one whose request header trickles in a
/// byte at a time, are closed (by the header-read timeout, 10 s by default); they used to stay
/// open for ever.
#[tokio::test]
async fn idle_and_trickling_connections_are_closed() {
    let server = Server::start(settings()).await;
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    let mut trickle = TcpStream::connect(server.addr).await.unwrap();
    let trickling = async {
        let header = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".to_vec();
        for byte in header.iter().chain(std::iter::repeat(&b'a')) {
            if trickle.write_all(&[*byte]).await.is_err() {
                return;
            }
            // Has the server closed it meanwhile?
            let mut buf = [0u8; 256];
            match tokio::time::timeout(Duration::from_millis(300), trickle.read(&mut buf)).await {
                Ok(Ok(0)) | Ok(Err(_)) => return,
                _ => {}
            }
        }
    };
    let (_, ()) = tokio::join!(closed_by_server(&mut silent), wait(trickling));
    // The server still answers.
    assert_eq!(http(server.addr, "GET", "/healthz", None).await.0, 200);
}

/// Finding 1: the per-address limit counts every connection, not only websockets — idle TCP
/// connections from one address used to fill the server's file descriptors.
#[tokio::test]
async fn every_connection_counts_against_the_address_limit() {
    let server = Server::start(boardcraft_server::Settings {
        max_connections_per_ip: 3,
        ..settings()
    })
    .await;
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let (status, _, body) = http_full(server.addr, "GET", "/healthz", None, &[]).await;
    assert_eq!(status, 429, "{}", String::from_utf8_lossy(&body));
    assert_eq!(error_code_text(&body), "too_many_connections");
    // One lets go: the address may connect again (once the server has seen the close).
    drop(idle.pop());
    wait(async {
        while http(server.addr, "GET", "/healthz", None).await.0 != 200 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
}

/// Finding 1: the open-file soft limit is raised to the hard limit at start (and logged), so
/// that the usual 1 024 does not cap the server.
#[tokio::test]
async fn the_open_file_limit_is_raised_at_start() {
    let server = Binary::start(1024, &[]);
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", server.child.id())).unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap()
        .to_owned();
    let numbers: Vec<&str> = line.split_whitespace().skip(3).take(2).collect();
    assert_eq!(numbers[0], numbers[1], "soft and hard limit: {line}");
    server.wait_for_log("open files: soft limit").await;
}

/// Finding 2: with `--public-url`, only that origin (and `--allow-origin` ones) may open a
/// websocket, whatever the Host header says (a DNS-rebinding page sends its own name as Host).
#[tokio::test]
async fn the_origin_check_does_not_trust_the_host_header() {
    let server = Server::start(boardcraft_server::Settings {
        public_url: Some("http://play.example:8787/".into()),
        allowed_origins: vec!["https://friends.example".into()],
        ..settings()
    })
    .await;
    let url = server.ws_url();
    let own = format!("http://{}", server.addr);
    let local = server.addr.to_string();
    for (host, origin) in [
        ("evil.example:8787", "http://evil.example:8787"),
        ("evil.example:8787", "https://evil.example:8787"),
        (local.as_str(), own.as_str()),
    ] {
        match Client::open_with(&url, &[("host", host), ("origin", origin)]).await {
            Err(tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 403, "{origin}");
                assert_eq!(
                    error_code_text(response.body().as_deref().unwrap_or_default()),
                    "origin_not_allowed"
                );
            }
            Err(e) => panic!("expected an HTTP 403 for {origin}, got {e}"),
            Ok(_) => panic!("a websocket from {origin} (Host {host}) was accepted"),
        }
    }
    for origin in ["http://play.example:8787", "https://friends.example"] {
        assert!(
            Client::open_with(&url, &[("host", "evil.example"), ("origin", origin)])
                .await
                .is_ok(),
            "{origin}"
        );
    }
}

/// Finding 3: client text with a line break cannot write a line of its own into the log (a
/// variant's name in a request, a posted variant file's name, a move's notation).
#[tokio::test]
async fn client_text_cannot_forge_log_lines() {
    let server = Binary::start(1024, &[]);
    let forged = "\n1999-01-01T00:00:00.000000Z ERROR boardcraft_server: forged";
    let body = serde_json::json!({ "variant": format!("nosuch{forged}") }).to_string();
    let (status, _) = http(server.addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 404);
    let file = boardcraft_rules::variant::shipped_files()
        .iter()
        .find(|(f, _)| *f == "ugolki-hg-3x3.ron")
        .unwrap()
        .1
        .replace(
            "name: \"ugolki-hg-3x3\"",
            &format!("name: \"mine{}\"", forged.replace('\n', "\\n")),
        );
    // Not a usable name: refused, and the refusal (with the name) is logged.
    let body = serde_json::json!({ "variant_file": file, "color": "white" }).to_string();
    let (status, text) = http(server.addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 400, "{text}");
    let view = Server::view(server.addr);
    let (game, white, _) = view.game("ugolki-hg-3x3", "").await;
    let mut white = Client::join(&view, &game, Some(&white)).await;
    white
        .send(&ClientMessage::Move {
            ply: 0,
            notation: format!("zz{forged}"),
        })
        .await;
    white.error_code().await;
    server.wait_for_log("game created").await;
    server.wait_for_log("zz").await;
    let log = server.log();
    let forged_lines: Vec<&String> = log.iter().filter(|l| l.starts_with("1999-01-01")).collect();
    assert!(
        forged_lines.is_empty(),
        "forged log lines: {forged_lines:?}\n{log:#?}"
    );
    assert!(log.iter().any(|l| l.contains("forged")), "{log:#?}");
}

/// JSON text of `text` with every character that is not plain ASCII written as `\uXXXX`, as
/// some encoders do.
fn json_string_escaping_all(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        if c.is_ascii() && !c.is_ascii_control() && c != '"' && c != '\\' {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out.push('"');
    out
}

/// Finding 4: a variant file under the documented 64 KiB is taken in any valid JSON encoding
/// (Cyrillic and quotes sent as `\u` escapes: a body several times the file); one over it is
/// refused for its decoded size.
#[tokio::test]
async fn a_variant_file_under_the_limit_fits_in_any_json_encoding() {
    let server = Server::start(settings()).await;
    let base = boardcraft_rules::variant::shipped_files()
        .iter()
        .find(|(f, _)| *f == "ugolki-hg-3x3.ron")
        .unwrap()
        .1
        .to_owned();
    let padded = |size: usize| {
        let mut text = base.clone();
        while text.len() < size {
            text.push_str("\n// Доска \"угольков\": \"\"\"\"\"\"\"\" ");
        }
        text
    };
    let file = padded(60 * 1024);
    assert!(file.len() < 64 * 1024);
    let body = format!(
        r#"{{"variant_file":{},"color":"white"}}"#,
        json_string_escaping_all(&file)
    );
    assert!(
        body.len() > 3 * file.len(),
        "{} / {}",
        body.len(),
        file.len()
    );
    let (status, text) = http(server.addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 201, "{}", &text[..text.len().min(300)]);
    // Over the limit once decoded: refused, in JSON.
    let file = padded(66 * 1024);
    let body = serde_json::json!({ "variant_file": file }).to_string();
    let (status, _, body) = http_full(server.addr, "POST", "/api/games", Some(&body), &[]).await;
    assert_eq!(status, 413);
    assert_eq!(error_code_text(&body), "body_too_large");
}

/// One request whose body may be refused before it is all sent; the status and the body.
async fn request_ignoring_write_errors(
    server: &Server,
    method: &str,
    path: &str,
    body: &[u8],
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).await;
    let _ = stream.write_all(body).await;
    let mut raw = Vec::new();
    let _ = wait(stream.read_to_end(&mut raw)).await;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP answer: {}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let headers = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, raw[split + 4..].to_vec())
}

/// Finding 5: every refusal is `{code, message}` JSON — a body over the limit, a path that is
/// not UTF-8, a method a route lacks, a path that does not exist — and a text frame that is
/// not UTF-8 is closed with 1007.
#[tokio::test]
async fn every_refusal_is_the_documented_json() {
    let server = Server::start(settings()).await;
    let json = |headers: &[(String, String)]| {
        headers
            .iter()
            .any(|(n, v)| n == "content-type" && v.starts_with("application/json"))
    };
    let huge = vec![b' '; 2 * 1024 * 1024];
    let (status, headers, body) =
        request_ignoring_write_errors(&server, "POST", "/api/games", &huge).await;
    assert_eq!(status, 413);
    assert!(json(&headers), "{headers:?}");
    assert_eq!(error_code_text(&body), "body_too_large");
    let (game, _, _) = server.game("ugolki-hg-3x3", "").await;
    for (method, path, status, code) in [
        ("GET", "/api/games/%ff%fe".to_owned(), 400, "bad_request"),
        (
            "DELETE",
            format!("/api/games/{game}"),
            405,
            "method_not_allowed",
        ),
        (
            "PUT",
            format!("/api/games/{game}"),
            405,
            "method_not_allowed",
        ),
        (
            "PATCH",
            format!("/api/games/{game}"),
            405,
            "method_not_allowed",
        ),
        ("GET", "/no/such/path".to_owned(), 404, "not_found"),
    ] {
        let (s, headers, body) = http_full(server.addr, method, &path, None, &[]).await;
        assert_eq!(s, status, "{method} {path}");
        assert!(json(&headers), "{method} {path}: {headers:?}");
        assert_eq!(error_code_text(&body), code, "{method} {path}");
    }
    // A text frame that is not UTF-8: before the hello, and in a game.
    let invalid = || {
        Message::Frame(Frame::message(
            vec![b'{', 0xff, 0xfe, b'}'],
            OpCode::Data(Data::Text),
            true,
        ))
    };
    let mut before_hello = Client::open(&server.ws_url()).await;
    before_hello.send_raw(invalid()).await;
    closed_with_invalid(before_hello.ended().await);
    let mut joined = Client::open(&server.ws_url()).await;
    joined
        .send(&ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            game: game.clone(),
            token: None,
            client: None,
        })
        .await;
    joined.recv().await;
    joined.send_raw(invalid()).await;
    closed_with_invalid(joined.ended().await);
}

fn closed_with_invalid(ended: Ended) {
    match ended {
        Ended::Closed(Some(frame)) => assert_eq!(frame.code, CloseCode::Invalid, "{frame:?}"),
        other => panic!("expected a close with 1007, got {other:?}"),
    }
}
