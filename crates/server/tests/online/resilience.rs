//! Resends, reconnects, the grace period and claim, and restarts on the same database.
use std::time::Duration;

use boardcraft_protocol::{
    ClientMessage, EndCause, ErrorCode, Presence, ServerMessage, Side, SnapshotReason,
};
use boardcraft_rules::checks::SeededMoves;

use crate::support::{Client, Killable, Mirror, Server, paused_time, settings};

/// Plays `n` random moves through the two clients, each acknowledged to both.
pub async fn play_moves(
    white: &mut Client,
    black: &mut Client,
    mirror: &mut Mirror,
    picker: &mut SeededMoves,
    n: usize,
) {
    for _ in 0..n {
        let notation = mirror.random_move(picker);
        let ply = mirror.moves.len() as u32;
        let mover = if mirror.side() == Side::White {
            &mut *white
        } else {
            &mut *black
        };
        mover
            .send(&ClientMessage::Move {
                ply,
                notation: notation.clone(),
            })
            .await;
        mirror.apply(&notation);
        for c in [&mut *white, &mut *black] {
            let m = c
                .recv_until(|m| matches!(m, ServerMessage::Moved { ply: p, .. } if *p == ply))
                .await;
            assert!(matches!(m, ServerMessage::Moved { ref hash, .. } if *hash == mirror.hash()));
        }
    }
}

#[tokio::test]
async fn a_resent_move_is_answered_with_the_stored_one_and_not_played_twice() {
    let server = Server::start(settings()).await;
    let (game, w, b) = server.game("ugolki-hg-3x3", "").await;
    let mut white = Client::join(&server, &game, Some(&w)).await;
    let mut black = Client::join(&server, &game, Some(&b)).await;
    let mv = ClientMessage::Move {
        ply: 0,
        notation: "f3-f4".into(),
    };
    white.send(&mv).await;
    let first = white
        .recv_until(|m| matches!(m, ServerMessage::Moved { .. }))
        .await;
    black
        .recv_until(|m| matches!(m, ServerMessage::Moved { .. }))
        .await;
    // The same move again (the client did not see the ack, say): the stored move, to the
    // sender only.
    white.send(&mv).await;
    let again = white.recv().await;
    match (&first, &again) {
        (
            ServerMessage::Moved {
                ply: 0,
                notation: a,
                hash: ha,
                ..
            },
            ServerMessage::Moved {
                ply: 0,
                notation: b,
                hash: hb,
                ..
            },
        ) => assert_eq!((a, ha), (b, hb)),
        other => panic!("{other:?}"),
    }
    // A different move for the played ply: the stored move, and an error.
    white
        .send(&ClientMessage::Move {
            ply: 0,
            notation: "f3-e3".into(),
        })
        .await;
    assert!(matches!(
        white.recv().await,
        ServerMessage::Moved { ply: 0, ref notation, .. } if notation == "f3-f4"
    ));
    assert_eq!(
        white.error_code().await,
        (ErrorCode::PlyAlreadyPlayed, false)
    );
    // Black heard of the move once; the game has one move.
    assert!(black.quiet_for(Duration::from_millis(300)).await);
    let stored = server.snapshot(&game).await;
    assert_eq!(stored.moves, ["f3-f4"]);
}

#[tokio::test]
async fn a_dropped_client_reconnects_and_resyncs() {
    let server = Server::start(settings()).await;
    let (game, w, b) = server.game("halma-16", "").await;
    let mut white = Client::join(&server, &game, Some(&w)).await;
    let mut black = Client::join(&server, &game, Some(&b)).await;
    let mut mirror = Mirror::of(white.welcome_game());
    let mut picker = SeededMoves::new(7);
    play_moves(&mut white, &mut black, &mut mirror, &mut picker, 6).await;
    // Black's connection drops: White sees Black gone, with the grace period to wait.
    drop(black);
    match white
        .recv_until(|m| matches!(m, ServerMessage::Presence { .. }))
        .await
    {
        ServerMessage::Presence {
            side: Side::Black,
            presence: Presence::Gone { claim_in_ms },
        } => assert!(claim_in_ms > 55_000 && claim_in_ms <= 60_000),
        other => panic!("{other:?}"),
    }
    // A move while Black is away is fine; Black gets it on reconnecting.
    play_one(&mut white, &mut mirror, &mut picker).await;
    let mut black = Client::join(&server, &game, Some(&b)).await;
    let resynced = Mirror::of(black.welcome_game());
    assert_eq!(resynced.moves, mirror.moves);
    assert!(matches!(
        black.welcome,
        Some(ServerMessage::Welcome {
            you: Some(Side::Black),
            ..
        })
    ));
    assert_eq!(
        white
            .recv_until(|m| matches!(m, ServerMessage::Presence { .. }))
            .await,
        ServerMessage::Presence {
            side: Side::Black,
            presence: Presence::Present
        }
    );
    // `resync` sends the whole game again.
    black.send(&ClientMessage::Resync).await;
    match black
        .recv_until(|m| matches!(m, ServerMessage::Snapshot { .. }))
        .await
    {
        ServerMessage::Snapshot {
            reason: SnapshotReason::Resync,
            game: snapshot,
        } => {
            assert_eq!(snapshot.moves, mirror.moves);
            assert_eq!(snapshot.hash, mirror.hash());
        }
        other => panic!("{other:?}"),
    }
    // And play goes on.
    play_moves(&mut white, &mut black, &mut mirror, &mut picker, 2).await;
}

/// White plays one move while Black is away.
async fn play_one(white: &mut Client, mirror: &mut Mirror, picker: &mut SeededMoves) {
    assert_eq!(mirror.side(), Side::White);
    let notation = mirror.random_move(picker);
    let ply = mirror.moves.len() as u32;
    white
        .send(&ClientMessage::Move {
            ply,
            notation: notation.clone(),
        })
        .await;
    mirror.apply(&notation);
    white
        .recv_until(|m| matches!(m, ServerMessage::Moved { .. }))
        .await;
}

#[tokio::test(start_paused = true)]
async fn the_grace_period_then_a_claim() {
    paused_time();
    let server = Server::start(boardcraft_server::Settings {
        grace: Duration::from_secs(60),
        idle_timeout: Duration::from_secs(3600),
        ..settings()
    })
    .await;
    let (game, w, b) = server.game("ugolki-hg-3x3", "").await;
    let mut white = Client::join(&server, &game, Some(&w)).await;
    let black = Client::join(&server, &game, Some(&b)).await;
    black.close().await;
    white
        .recv_until(|m| {
            matches!(
                m,
                ServerMessage::Presence {
                    presence: Presence::Gone { .. },
                    ..
                }
            )
        })
        .await;
    // Too early.
    tokio::time::advance(Duration::from_secs(30)).await;
    white.send(&ClientMessage::ClaimVictory).await;
    assert_eq!(
        white.error_code().await,
        (ErrorCode::ClaimNotAllowed, false)
    );
    // Black comes back in time: nothing to claim; and leaves again.
    let black = Client::join(&server, &game, Some(&b)).await;
    white
        .recv_until(|m| {
            matches!(
                m,
                ServerMessage::Presence {
                    presence: Presence::Present,
                    ..
                }
            )
        })
        .await;
    white.send(&ClientMessage::ClaimVictory).await;
    assert_eq!(
        white.error_code().await,
        (ErrorCode::ClaimNotAllowed, false)
    );
    black.close().await;
    white
        .recv_until(|m| {
            matches!(
                m,
                ServerMessage::Presence {
                    presence: Presence::Gone {
                        claim_in_ms: 60_000
                    },
                    ..
                }
            )
        })
        .await;
    // The grace period ends: the server says so, and the claim wins.
    tokio::time::advance(Duration::from_secs(61)).await;
    white
        .recv_until(|m| {
            matches!(
                m,
                ServerMessage::Presence {
                    presence: Presence::Gone { claim_in_ms: 0 },
                    ..
                }
            )
        })
        .await;
    white.send(&ClientMessage::ClaimVictory).await;
    match white
        .recv_until(|m| matches!(m, ServerMessage::GameOver { .. }))
        .await
    {
        ServerMessage::GameOver { result, .. } => {
            assert_eq!(result.winner, Some(Side::White));
            assert_eq!(result.cause, EndCause::Abandoned);
        }
        _ => unreachable!(),
    }
    let stored = server.snapshot(&game).await;
    assert_eq!(stored.result.unwrap().cause, EndCause::Abandoned);
}

/// Kills the server (its runtime dropped at once) and starts another on the same database.
pub async fn restart_keeps_every_acknowledged_move(url: &str) {
    let server = Killable::start(url, settings());
    let view = Server::view(server.addr);
    let (game, w, b) = view.game("gipf-basic", "").await;
    let mut white = Client::join(&view, &game, Some(&w)).await;
    let mut black = Client::join(&view, &game, Some(&b)).await;
    let mut mirror = Mirror::of(white.welcome_game());
    let mut picker = SeededMoves::new(11);
    play_moves(&mut white, &mut black, &mut mirror, &mut picker, 12).await;
    server.kill();
    assert!(matches!(
        white.ended().await,
        crate::support::Ended::Dropped | crate::support::Ended::Closed(_)
    ));

    let server = Killable::start(url, settings());
    let view = Server::view(server.addr);
    let stored = view.snapshot(&game).await;
    assert_eq!(
        stored.moves, mirror.moves,
        "every acknowledged move is kept"
    );
    assert_eq!(stored.hash, mirror.hash());
    let mut white = Client::join(&view, &game, Some(&w)).await;
    let mut black = Client::join(&view, &game, Some(&b)).await;
    // A resend of an old move is answered from the store; play goes on.
    white
        .send(&ClientMessage::Move {
            ply: 0,
            notation: mirror.moves[0].clone(),
        })
        .await;
    assert!(matches!(
        white
            .recv_until(|m| matches!(m, ServerMessage::Moved { .. }))
            .await,
        ServerMessage::Moved { ply: 0, .. }
    ));
    play_moves(&mut white, &mut black, &mut mirror, &mut picker, 3).await;
    server.kill();
}

#[tokio::test]
async fn a_restart_on_the_same_sqlite_file_keeps_every_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("server.sqlite3").display().to_string();
    restart_keeps_every_acknowledged_move(&db).await;
}
