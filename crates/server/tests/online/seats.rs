//! Protocol 3 (seats) beside protocols 1 and 2 in one two-seat game: the same game, the same
//! facts, each connection in its own version's words.
use boardcraft_protocol::{
    ClientMessage, EndCause, ErrorCode, Placement, SeatResult, SeatServerMessage, SeatSnapshot,
    ServerMessage, Side,
};
use boardcraft_rules::checks::SeededMoves;

use crate::support::{Client, Mirror, Server, http, settings};

#[tokio::test]
async fn a_seat_client_and_a_side_client_play_one_game() {
    let server = Server::start(settings()).await;
    let (game, white_token, black_token) = server.game("ugolki-9qum", "").await;
    let (mut white, welcome) = Client::join_seats(&server, &game, Some(&white_token)).await;
    let SeatServerMessage::Welcome {
        protocol,
        you,
        game: snapshot,
        ..
    } = &welcome
    else {
        unreachable!()
    };
    assert_eq!((*protocol, *you), (3, Some(0)));
    assert_eq!((snapshot.seat_count(), snapshot.to_move), (2, 0));
    let mut black = Client::join(&server, &game, Some(&black_token)).await;
    let mut watcher_v1 = Client::open(&server.ws_url()).await;
    watcher_v1
        .send(&ClientMessage::Hello {
            protocol: 1,
            game: game.clone(),
            token: None,
            client: None,
        })
        .await;
    assert!(matches!(
        watcher_v1.recv().await,
        ServerMessage::Welcome {
            protocol: 2,
            you: None,
            ..
        }
    ));

    let mut mirror = Mirror::of(black.welcome_game());
    let mut picker = SeededMoves::new(7);
    for ply in 0..4u32 {
        let notation = mirror.random_move(&mut picker);
        let side = mirror.side();
        let msg = ClientMessage::Move {
            ply,
            notation: notation.clone(),
        };
        if side == Side::White {
            white.send(&msg).await;
        } else {
            black.send(&msg).await;
        }
        mirror.apply(&notation);
        let is_moved = |m: &ServerMessage| matches!(m, ServerMessage::Moved { .. });
        let by_sides = black.recv_until(is_moved).await;
        assert_eq!(watcher_v1.recv_until(is_moved).await, by_sides);
        let by_seats = white
            .recv_seats_until(|m| matches!(m, SeatServerMessage::Moved { .. }))
            .await;
        let SeatServerMessage::Moved {
            ply: p, seat, hash, ..
        } = &by_seats
        else {
            unreachable!()
        };
        assert_eq!((*p, *seat), (ply, side.index() as u8));
        assert_eq!(*hash, mirror.hash());
        // The same event in both versions' words.
        assert_eq!(by_seats.two_seats(2), Some(by_sides));
    }

    black.send(&ClientMessage::Resign).await;
    let is_over = |m: &ServerMessage| matches!(m, ServerMessage::GameOver { .. });
    let by_sides = black.recv_until(is_over).await;
    let by_seats = white
        .recv_seats_until(|m| matches!(m, SeatServerMessage::GameOver { .. }))
        .await;
    let SeatServerMessage::GameOver { result, .. } = &by_seats else {
        unreachable!()
    };
    assert_eq!(result.placements, SeatResult::places(&[1, 2]));
    assert_eq!(
        (result.cause.clone(), result.by),
        (EndCause::Resignation, Some(1))
    );
    assert_eq!(result.winner(), Some(0));
    assert_eq!(by_seats.two_seats(2), Some(by_sides));

    // The public state, in both versions.
    let (status, text) = http(
        server.addr,
        "GET",
        &format!("/api/games/{game}?protocol=3"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{text}");
    let seats: SeatSnapshot = serde_json::from_str(&text).unwrap();
    assert_eq!(seats.seats.len(), 2);
    assert_eq!(
        seats.result.as_ref().map(|r| r.placements.clone()),
        Some(vec![
            Placement {
                seat: 0,
                place: 1,
                team: None
            },
            Placement {
                seat: 1,
                place: 2,
                team: None
            },
        ])
    );
    assert_eq!(seats.moves.len(), 4);
    assert_eq!(seats.two_seats(), Some(server.snapshot(&game).await));
    // Any other version is version 2's body; a query that does not read is a refusal.
    let (status, text) = http(
        server.addr,
        "GET",
        &format!("/api/games/{game}?protocol=2"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains(r#""side_to_move":"#), "{text}");
    let (status, text) = http(
        server.addr,
        "GET",
        &format!("/api/games/{game}?protocol=x"),
        None,
    )
    .await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains(r#""code":"bad_request""#), "{text}");
}

#[tokio::test]
async fn a_version_past_3_is_refused() {
    let server = Server::start(settings()).await;
    let (game, white_token, _) = server.game("ugolki-9qum", "").await;
    let mut client = Client::open(&server.ws_url()).await;
    client
        .send(&ClientMessage::Hello {
            protocol: 4,
            game,
            token: Some(white_token),
            client: None,
        })
        .await;
    assert_eq!(
        client.error_code().await,
        (ErrorCode::UnsupportedProtocol, true)
    );
}
