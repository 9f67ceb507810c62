//! Bad input and abuse: each gets a clear error or a close, never a panic,
//! and the game is unchanged afterwards (asserted on the stored game).
use std::time::Duration;

use boardcraft_protocol::{
    ClientMessage, ErrorCode, GameSnapshot, OfferKind, ServerMessage, http::ApiError,
};
use tokio_tungstenite::tungstenite::{self, Message, protocol::frame::coding::CloseCode};

use crate::support::{Client, Ended, Server, http, settings};

/// What must not change: the record and the state of play.
fn core(s: &GameSnapshot) -> impl PartialEq + std::fmt::Debug {
    (
        s.moves.clone(),
        s.ply,
        s.hash.clone(),
        s.status,
        s.result.clone(),
        s.offers.clone(),
        s.side_to_move,
    )
}

/// A game with one move played: (server, game, white, black).
async fn game_in_progress(server: &Server) -> (String, Client, Client) {
    let (game, w, b) = server.game("ugolki-hg-3x3", "").await;
    let mut white = Client::join(server, &game, Some(&w)).await;
    let mut black = Client::join(server, &game, Some(&b)).await;
    white
        .send(&ClientMessage::Move {
            ply: 0,
            notation: "f3-f4".into(),
        })
        .await;
    for c in [&mut white, &mut black] {
        c.recv_until(|m| matches!(m, ServerMessage::Moved { .. }))
            .await;
    }
    (game, white, black)
}

fn closed_with(ended: Ended, code: CloseCode) {
    match ended {
        Ended::Closed(Some(frame)) => assert_eq!(frame.code, code, "{frame:?}"),
        other => panic!("expected a close with {code:?}, got {other:?}"),
    }
}

#[tokio::test]
async fn bad_frames_and_moves_get_errors_and_change_nothing() {
    let server = Server::start(settings()).await;
    let (game, mut white, mut black) = game_in_progress(&server).await;
    let before = server.snapshot(&game).await;

    // Malformed JSON, a non-object, a missing type, wrong field types, a binary frame.
    for text in [
        "{not json",
        "[1,2,3]",
        r#"{"ply":1}"#,
        r#"{"type":"move","ply":"one","notation":5}"#,
        r#"{"type":"move","ply":-1,"notation":"c6-c5"}"#,
    ] {
        black.send_text(text).await;
        assert_eq!(
            black.error_code().await,
            (ErrorCode::BadMessage, false),
            "{text}"
        );
    }
    black.send_raw(Message::Binary(vec![1, 2, 3].into())).await;
    assert_eq!(black.error_code().await, (ErrorCode::BadMessage, false));
    // An unknown message.
    black.send_text(r#"{"type":"teleport","to":"e5"}"#).await;
    assert_eq!(black.error_code().await, (ErrorCode::UnknownMessage, false));
    // A move out of turn (White moved; it is Black's turn).
    white
        .send(&ClientMessage::Move {
            ply: 1,
            notation: "f4-f5".into(),
        })
        .await;
    assert_eq!(white.error_code().await, (ErrorCode::NotYourTurn, false));
    // Illegal moves: not readable, and readable but not legal.
    for notation in ["zz99", "a1-a2", "f6-f2", ""] {
        black
            .send(&ClientMessage::Move {
                ply: 1,
                notation: notation.into(),
            })
            .await;
        assert_eq!(
            black.error_code().await,
            (ErrorCode::IllegalMove, false),
            "{notation}"
        );
    }
    // A move for a future ply.
    black
        .send(&ClientMessage::Move {
            ply: 7,
            notation: "c6-c5".into(),
        })
        .await;
    assert_eq!(black.error_code().await, (ErrorCode::FuturePly, false));
    // Answers to offers nobody made, a second hello, claiming while the opponent is here.
    black
        .send(&ClientMessage::Accept {
            offer: OfferKind::Draw,
            ply: None,
        })
        .await;
    assert_eq!(black.error_code().await, (ErrorCode::NoOffer, false));
    black
        .send(&ClientMessage::Offer {
            offer: OfferKind::Rematch,
            ply: None,
        })
        .await;
    assert_eq!(
        black.error_code().await,
        (ErrorCode::OfferNotAllowed, false)
    );
    black.send(&ClientMessage::ClaimVictory).await;
    assert_eq!(
        black.error_code().await,
        (ErrorCode::ClaimNotAllowed, false)
    );
    black
        .send(&ClientMessage::Hello {
            protocol: 1,
            game: game.clone(),
            token: None,
            client: None,
        })
        .await;
    assert_eq!(black.error_code().await, (ErrorCode::AlreadyJoined, false));

    // The connections still work, and the game is as it was.
    black.send(&ClientMessage::Ping { n: 42 }).await;
    assert_eq!(
        black
            .recv_until(|m| matches!(m, ServerMessage::Pong { .. }))
            .await,
        ServerMessage::Pong { n: 42 }
    );
    assert_eq!(core(&server.snapshot(&game).await), core(&before));
    // And play goes on.
    black
        .send(&ClientMessage::Move {
            ply: 1,
            notation: "c6-c5".into(),
        })
        .await;
    black
        .recv_until(|m| matches!(m, ServerMessage::Moved { ply: 1, .. }))
        .await;
}

#[tokio::test]
async fn an_oversized_frame_is_refused_and_closed() {
    let server = Server::start(settings()).await;
    let (game, _white, mut black) = game_in_progress(&server).await;
    let before = server.snapshot(&game).await;
    let huge = format!(
        r#"{{"type":"move","ply":1,"notation":"{}"}}"#,
        "f".repeat(5000)
    );
    black.send_text(&huge).await;
    assert_eq!(black.error_code().await, (ErrorCode::FrameTooLarge, true));
    closed_with(black.ended().await, CloseCode::Size);
    // Far past even the transport's cap: the connection is just closed.
    let (game2, _w, b) = server.game("ugolki-hg-3x3", "").await;
    let mut other = Client::join(&server, &game2, Some(&b)).await;
    other.send_text(&"x".repeat(100_000)).await;
    assert!(matches!(
        other.ended().await,
        Ended::Closed(_) | Ended::Dropped
    ));
    assert_eq!(core(&server.snapshot(&game).await), core(&before));
}

#[tokio::test]
async fn wrong_and_missing_tokens() {
    let server = Server::start(settings()).await;
    let (game, _white, _black) = game_in_progress(&server).await;
    let before = server.snapshot(&game).await;
    // A wrong token: refused and closed.
    let mut intruder = Client::open(&server.ws_url()).await;
    intruder
        .send(&ClientMessage::Hello {
            protocol: 1,
            game: game.clone(),
            token: Some("a".repeat(52)),
            client: None,
        })
        .await;
    assert_eq!(intruder.error_code().await, (ErrorCode::BadToken, true));
    closed_with(intruder.ended().await, CloseCode::Policy);
    // Another game's token is as wrong.
    let (_, other_white, _) = server.game("ugolki-hg-3x3", "").await;
    let mut intruder = Client::open(&server.ws_url()).await;
    intruder
        .send(&ClientMessage::Hello {
            protocol: 1,
            game: game.clone(),
            token: Some(other_white),
            client: None,
        })
        .await;
    assert_eq!(intruder.error_code().await, (ErrorCode::BadToken, true));
    // No token: a spectator, who may watch but not act.
    let mut spectator = Client::join(&server, &game, None).await;
    assert!(matches!(
        spectator.welcome,
        Some(ServerMessage::Welcome { you: None, .. })
    ));
    for msg in [
        ClientMessage::Move {
            ply: 1,
            notation: "c6-c5".into(),
        },
        ClientMessage::Resign,
        ClientMessage::Offer {
            offer: OfferKind::Draw,
            ply: None,
        },
        ClientMessage::ClaimVictory,
    ] {
        spectator.send(&msg).await;
        assert_eq!(
            spectator.error_code().await,
            (ErrorCode::ReadOnly, false),
            "{msg:?}"
        );
    }
    // An unknown game, a game id that is not one.
    for id in ["aaaaaaaaaaaa", "../../etc"] {
        let mut lost = Client::open(&server.ws_url()).await;
        lost.send(&ClientMessage::Hello {
            protocol: 1,
            game: id.into(),
            token: None,
            client: None,
        })
        .await;
        assert_eq!(lost.error_code().await, (ErrorCode::GameNotFound, true));
    }
    assert_eq!(core(&server.snapshot(&game).await), core(&before));
}

#[tokio::test]
async fn the_hello_is_checked() {
    let server = Server::start(settings()).await;
    let (game, _white, _black) = game_in_progress(&server).await;
    let mut first_not_hello = Client::open(&server.ws_url()).await;
    first_not_hello
        .send(&ClientMessage::Move {
            ply: 1,
            notation: "c6-c5".into(),
        })
        .await;
    assert_eq!(
        first_not_hello.error_code().await,
        (ErrorCode::HelloRequired, true)
    );
    let mut future = Client::open(&server.ws_url()).await;
    future
        .send_text(&format!(
            r#"{{"type":"hello","protocol":{},"game":"{game}"}}"#,
            boardcraft_protocol::SEATS_PROTOCOL_VERSION + 1
        ))
        .await;
    assert_eq!(
        future.error_code().await,
        (ErrorCode::UnsupportedProtocol, true)
    );
    closed_with(future.ended().await, CloseCode::Protocol);
}

#[tokio::test]
async fn a_flood_is_limited_then_closed() {
    let server = Server::start(boardcraft_server::Settings {
        messages_per_second: 5,
        message_burst: 10,
        flood_close_after: 30,
        ..settings()
    })
    .await;
    let (game, _white, mut black) = game_in_progress(&server).await;
    let before = server.snapshot(&game).await;
    for _ in 0..120 {
        black
            .send(&ClientMessage::Move {
                ply: 1,
                notation: "zz99".into(),
            })
            .await;
    }
    let mut rate_limited;
    loop {
        match black
            .recv_until(|m| matches!(m, ServerMessage::Error { .. }))
            .await
        {
            ServerMessage::Error {
                code: ErrorCode::RateLimited,
                fatal,
                ..
            } => {
                rate_limited = true;
                if fatal {
                    break;
                }
            }
            ServerMessage::Error {
                code: ErrorCode::IllegalMove,
                ..
            } => {}
            other => panic!("{other:?}"),
        }
    }
    assert!(rate_limited);
    closed_with(black.ended().await, CloseCode::Policy);
    assert_eq!(core(&server.snapshot(&game).await), core(&before));
}

#[tokio::test]
async fn a_client_that_never_answers_is_closed() {
    let server = Server::start(boardcraft_server::Settings {
        idle_timeout: Duration::from_millis(600),
        ..settings()
    })
    .await;
    let (game, w, _b) = server.game("ugolki-hg-3x3", "").await;
    // Says nothing at all.
    let mut mute = Client::open(&server.ws_url()).await;
    assert_eq!(mute.error_code().await, (ErrorCode::IdleTimeout, true));
    // Says hello, then neither sends nor reads (so it answers no ping): closed after the
    // idle timeout.
    let mut sleeper = Client::join(&server, &game, Some(&w)).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(sleeper.error_code().await, (ErrorCode::IdleTimeout, true));
    closed_with(sleeper.ended().await, CloseCode::Policy);
}

#[tokio::test]
async fn a_websocket_from_another_site_is_refused() {
    let server = Server::start(settings()).await;
    let url = server.ws_url();
    match Client::open_with(&url, &[("origin", "https://evil.example")]).await {
        Err(tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 403);
            let body: ApiError =
                serde_json::from_slice(response.body().as_deref().unwrap_or_default()).unwrap();
            assert_eq!(body.code, ErrorCode::OriginNotAllowed);
        }
        Err(e) => panic!("expected an HTTP 403, got {e}"),
        Ok(_) => panic!("a cross-site websocket was accepted"),
    }
    // The server's own pages may.
    let own = format!("http://{}", server.addr);
    assert!(Client::open_with(&url, &[("origin", &own)]).await.is_ok());
    // And so may a site allowed on the command line.
    let server = Server::start(boardcraft_server::Settings {
        allowed_origins: vec!["https://friends.example".into()],
        ..settings()
    })
    .await;
    assert!(
        Client::open_with(&server.ws_url(), &[("origin", "https://friends.example")])
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn http_refusals_have_codes() {
    let server = Server::start(boardcraft_server::Settings {
        max_new_games_per_ip_per_minute: 3,
        max_connections_per_ip: 2,
        ..settings()
    })
    .await;
    let code = |text: &str| serde_json::from_str::<ApiError>(text).unwrap().code;
    for (body, status, expected) in [
        ("{", 400, ErrorCode::BadRequest),
        (r#"{"variant":"chess"}"#, 404, ErrorCode::VariantNotFound),
        // A table the variant is not played at: Ugolki is for two, the partners' Halma for
        // four.
        (
            r#"{"variant":"ugolki-9qum","seats":3}"#,
            400,
            ErrorCode::VariantInvalid,
        ),
        (
            r#"{"variant":"halma-16-partners","seats":2}"#,
            400,
            ErrorCode::VariantInvalid,
        ),
        (
            r#"{"variant":"chinese-checkers","seats":5}"#,
            400,
            ErrorCode::VariantInvalid,
        ),
        (
            r#"{"variant_file":"(format_version: 1)"}"#,
            400,
            ErrorCode::VariantInvalid,
        ),
        (r#"{}"#, 400, ErrorCode::BadRequest),
        (
            r#"{"variant":"focus","colour":"white"}"#,
            400,
            ErrorCode::BadRequest,
        ),
        (
            r#"{"variant":"focus","time_control":{"initial_ms":0}}"#,
            400,
            ErrorCode::BadRequest,
        ),
    ] {
        let (s, text) = http(server.addr, "POST", "/api/games", Some(body)).await;
        assert_eq!((s, code(&text)), (status, expected), "{body}: {text}");
    }
    let created = server.create(r#"{"variant":"focus"}"#).await;
    server.join(&created.invite).await;
    let (s, text) = http(
        server.addr,
        "POST",
        &format!("/api/invites/{}", created.invite),
        None,
    )
    .await;
    assert_eq!((s, code(&text)), (409, ErrorCode::SeatTaken));
    // The taken seat's refusal names the game, so the invite's holder can watch it.
    let body: ApiError = serde_json::from_str(&text).unwrap();
    assert_eq!(body.game.as_deref(), Some(created.game.as_str()), "{text}");
    let (s, text) = http(server.addr, "POST", "/api/invites/nosuchinvite", None).await;
    assert_eq!((s, code(&text)), (404, ErrorCode::InviteNotFound));
    let body: ApiError = serde_json::from_str(&text).unwrap();
    assert_eq!(body.game, None, "{text}");
    let (s, text) = http(server.addr, "GET", "/api/games/nosuchgame", None).await;
    assert_eq!((s, code(&text)), (404, ErrorCode::GameNotFound));
    // New games per address per minute.
    server.create(r#"{"variant":"focus"}"#).await;
    server.create(r#"{"variant":"focus"}"#).await;
    let (s, text) = http(
        server.addr,
        "POST",
        "/api/games",
        Some(r#"{"variant":"focus"}"#),
    )
    .await;
    assert_eq!((s, code(&text)), (429, ErrorCode::TooManyGames));
    // Health.
    let (s, text) = http(server.addr, "GET", "/healthz", None).await;
    assert_eq!(s, 200, "{text}");
    let health: boardcraft_protocol::http::Health = serde_json::from_str(&text).unwrap();
    assert_eq!(health.status, "ok");
    assert_eq!(health.database, "sqlite");
    // Connections per address (every connection counts, not only websockets).
    let _a = Client::open(&server.ws_url()).await;
    let _b = Client::open(&server.ws_url()).await;
    match Client::open_with(&server.ws_url(), &[]).await {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 429),
        other => panic!("expected 429, got {:?}", other.map(|_| ())),
    }
}
