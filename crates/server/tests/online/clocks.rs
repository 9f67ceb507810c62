//! Clocks kept by the server, with paused tokio time: charged after the free plies, with
//! increment, sent with every move, and a flag fall ends the game.
use std::time::Duration;

use boardcraft_protocol::{ClientMessage, Clocks, EndCause, ServerMessage, Side};

use crate::support::{Client, Server, paused_time, settings};

async fn moved(client: &mut Client) -> Option<Clocks> {
    match client
        .recv_until(|m| matches!(m, ServerMessage::Moved { .. }))
        .await
    {
        ServerMessage::Moved { clocks, .. } => clocks,
        _ => unreachable!(),
    }
}

async fn play(mover: &mut Client, other: &mut Client, ply: u32, notation: &str) -> Option<Clocks> {
    mover
        .send(&ClientMessage::Move {
            ply,
            notation: notation.into(),
        })
        .await;
    let seen = moved(other).await;
    assert_eq!(moved(mover).await, seen);
    seen
}

#[tokio::test(start_paused = true)]
async fn clocks_run_with_increment_and_a_flag_fall_ends_the_game() {
    paused_time();
    let server = Server::start(boardcraft_server::Settings {
        idle_timeout: Duration::from_secs(3600),
        ..settings()
    })
    .await;
    let (game, w, b) = server
        .game(
            "ugolki-hg-3x3",
            r#","time_control":{"initial_ms":10000,"increment_ms":1000}"#,
        )
        .await;
    let mut white = Client::join(&server, &game, Some(&w)).await;
    let mut black = Client::join(&server, &game, Some(&b)).await;
    let full = Clocks {
        white_ms: 10_000,
        black_ms: 10_000,
        running: None,
    };
    assert_eq!(white.welcome_game().clocks, Some(full));
    // The first move of each side is free (nobody loses time while the page opens).
    tokio::time::advance(Duration::from_secs(30)).await;
    assert_eq!(play(&mut white, &mut black, 0, "f3-f4").await, Some(full));
    tokio::time::advance(Duration::from_secs(30)).await;
    let after_black = play(&mut black, &mut white, 1, "c6-c5").await;
    assert_eq!(
        after_black,
        Some(Clocks {
            running: Some(Side::White),
            ..full
        })
    );
    // Now White's clock runs: 3 s, plus the 1 s increment.
    tokio::time::advance(Duration::from_secs(3)).await;
    assert_eq!(
        play(&mut white, &mut black, 2, "f4-f5").await,
        Some(Clocks {
            white_ms: 8_000,
            black_ms: 10_000,
            running: Some(Side::Black),
        })
    );
    // The public state counts the running clock down.
    tokio::time::advance(Duration::from_secs(4)).await;
    let snapshot = server.snapshot(&game).await;
    assert_eq!(
        snapshot.clocks,
        Some(Clocks {
            white_ms: 8_000,
            black_ms: 6_000,
            running: Some(Side::Black),
        })
    );
    // Black's flag falls: White wins on time, at once, with nobody sending anything.
    tokio::time::advance(Duration::from_millis(6_001)).await;
    for client in [&mut white, &mut black] {
        match client
            .recv_until(|m| matches!(m, ServerMessage::GameOver { .. }))
            .await
        {
            ServerMessage::GameOver { result, clocks, .. } => {
                assert_eq!(result.winner, Some(Side::White));
                assert_eq!(result.cause, EndCause::Timeout);
                assert_eq!(clocks.unwrap().black_ms, 0);
            }
            _ => unreachable!(),
        }
    }
    // A move after the flag fell is refused.
    black
        .send(&ClientMessage::Move {
            ply: 3,
            notation: "c5-c4".into(),
        })
        .await;
    assert_eq!(
        black.error_code().await.0,
        boardcraft_protocol::ErrorCode::GameOver
    );
    assert_eq!(server.snapshot(&game).await.moves.len(), 3);
}

#[tokio::test(start_paused = true)]
async fn an_untimed_game_has_no_clocks() {
    paused_time();
    let server = Server::start(boardcraft_server::Settings {
        idle_timeout: Duration::from_secs(3600 * 48),
        ..settings()
    })
    .await;
    let (game, w, b) = server.game("ugolki-hg-3x3", "").await;
    let mut white = Client::join(&server, &game, Some(&w)).await;
    let mut black = Client::join(&server, &game, Some(&b)).await;
    assert_eq!(white.welcome_game().clocks, None);
    tokio::time::advance(Duration::from_secs(3600 * 24)).await;
    assert_eq!(play(&mut white, &mut black, 0, "f3-f4").await, None);
}
