//! The server-wide connection cap and per-address limits behind a trusted proxy.
use std::net::IpAddr;

use tokio::net::TcpStream;

use crate::support::{Server, error_code_text, http, http_full, settings, wait};

/// Past the server's connection cap a new connection gets a clear 503 in JSON (the server
/// keeps descriptors to answer it), and is served again once connections close.
#[tokio::test]
async fn the_connection_cap_answers_503() {
    let server = Server::start(boardcraft_server::Settings {
        max_connections: 3,
        ..settings()
    })
    .await;
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let (status, headers, body) = http_full(server.addr, "GET", "/healthz", None, &[]).await;
    assert_eq!(status, 503, "{}", String::from_utf8_lossy(&body));
    assert_eq!(error_code_text(&body), "server_busy");
    assert!(
        headers.iter().any(|(n, _)| n == "retry-after"),
        "{headers:?}"
    );
    idle.clear();
    wait(async {
        while http(server.addr, "GET", "/healthz", None).await.0 != 200 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await;
}

/// `X-Forwarded-For` names the client only when the connection comes from a trusted proxy:
/// the new-games limit then counts per forwarded address; from anyone else the header is
/// ignored (it would let one client pose as many).
#[tokio::test]
async fn forwarded_addresses_are_believed_from_trusted_proxies_only() {
    let limited = |trusted: Vec<IpAddr>| boardcraft_server::Settings {
        max_new_games_per_ip_per_minute: 1,
        trusted_proxies: trusted,
        ..settings()
    };
    let create = |server: &Server, from: &'static str| {
        let addr = server.addr;
        async move {
            let (status, _, body) = http_full(
                addr,
                "POST",
                "/api/games",
                Some(r#"{"variant":"focus"}"#),
                &[("X-Forwarded-For", from)],
            )
            .await;
            (status, body)
        }
    };
    let behind_proxy = Server::start(limited(vec!["127.0.0.1".parse().unwrap()])).await;
    assert_eq!(create(&behind_proxy, "198.51.100.1").await.0, 201);
    let (status, body) = create(&behind_proxy, "198.51.100.1").await;
    assert_eq!(status, 429);
    assert_eq!(error_code_text(&body), "too_many_games");
    assert_eq!(create(&behind_proxy, "198.51.100.2").await.0, 201);
    // A client left of the proxy cannot pick its address: the proxy's own entry counts.
    assert_eq!(create(&behind_proxy, "10.9.9.9, 198.51.100.2").await.0, 429);

    let direct = Server::start(limited(Vec::new())).await;
    assert_eq!(create(&direct, "198.51.100.1").await.0, 201);
    assert_eq!(create(&direct, "198.51.100.2").await.0, 429);
}

/// `/ws?game=<id>` (for load balancers): the hello must name the same game.
#[tokio::test]
async fn the_url_game_and_the_hello_agree() {
    use boardcraft_protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION};

    use crate::support::Client;
    let server = Server::start(settings()).await;
    let (game, white, _) = server.game("ugolki-hg-3x3", "").await;
    let (other, _, _) = server.game("ugolki-hg-3x3", "").await;
    let joined = Client::join_url(
        &format!("ws://{}/ws?game={game}", server.addr),
        &game,
        Some(&white),
    )
    .await;
    assert_eq!(joined.welcome_game().game, game);
    let mut mismatched = Client::open(&format!("ws://{}/ws?game={other}", server.addr)).await;
    mismatched
        .send(&ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            game: game.clone(),
            token: Some(white),
            client: None,
        })
        .await;
    assert_eq!(mismatched.error_code().await, (ErrorCode::BadMessage, true));
}
