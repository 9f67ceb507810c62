//! Draw offers, takebacks, resignation and rematches.
use boardcraft_protocol::{
    ClientMessage, EndCause, ErrorCode, GameStatus, OfferKind, ServerMessage, Side, SnapshotReason,
};

use crate::support::{Client, Server, settings};

async fn both_see(
    clients: [&mut Client; 2],
    what: impl Fn(&ServerMessage) -> bool + Copy,
) -> ServerMessage {
    let [a, b] = clients;
    let seen = a.recv_until(what).await;
    assert_eq!(b.recv_until(what).await, seen);
    seen
}

async fn play(mover: &mut Client, other: &mut Client, ply: u32, notation: &str) {
    mover
        .send(&ClientMessage::Move {
            ply,
            notation: notation.into(),
        })
        .await;
    both_see([mover, other], |m| matches!(m, ServerMessage::Moved { .. })).await;
}

fn offer(offer: OfferKind) -> ClientMessage {
    ClientMessage::Offer { offer, ply: None }
}

fn accept(offer: OfferKind) -> ClientMessage {
    ClientMessage::Accept { offer, ply: None }
}

/// The game's save file, as `GET /api/games/{id}/save.ron` serves it.
async fn save_file(server: &Server, game: &str) -> String {
    let (status, save) = crate::support::http(
        server.addr,
        "GET",
        &format!("/api/games/{game}/save.ron"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{save}");
    save
}

#[tokio::test]
async fn a_draw_offered_declined_offered_again_and_accepted() {
    let server = Server::start(settings()).await;
    let (game, w, b) = server.game("ugolki-hg-3x3", "").await;
    let mut white = Client::join(&server, &game, Some(&w)).await;
    let mut black = Client::join(&server, &game, Some(&b)).await;
    play(&mut white, &mut black, 0, "f3-f4").await;
    white.send(&offer(OfferKind::Draw)).await;
    assert_eq!(
        both_see([&mut white, &mut black], |m| matches!(
            m,
            ServerMessage::Offer { .. }
        ))
        .await,
        ServerMessage::Offer {
            offer: OfferKind::Draw,
            by: Side::White,
            ply: 1
        }
    );
    // Accepting one's own offer is not possible; a stale ply is refused.
    white.send(&accept(OfferKind::Draw)).await;
    assert_eq!(white.error_code().await.0, ErrorCode::NoOffer);
    black
        .send(&ClientMessage::Accept {
            offer: OfferKind::Draw,
            ply: Some(0),
        })
        .await;
    assert_eq!(black.error_code().await.0, ErrorCode::StaleOffer);
    black
        .send(&ClientMessage::Decline {
            offer: OfferKind::Draw,
        })
        .await;
    assert_eq!(
        both_see([&mut white, &mut black], |m| matches!(
            m,
            ServerMessage::OfferDeclined { .. }
        ))
        .await,
        ServerMessage::OfferDeclined {
            offer: OfferKind::Draw,
            by: Side::Black
        }
    );
    // A move cancels a draw offer.
    white.send(&offer(OfferKind::Draw)).await;
    both_see([&mut white, &mut black], |m| {
        matches!(m, ServerMessage::Offer { .. })
    })
    .await;
    play(&mut black, &mut white, 1, "c6-c5").await;
    assert!(server.snapshot(&game).await.offers.is_empty());
    black.send(&accept(OfferKind::Draw)).await;
    assert_eq!(black.error_code().await.0, ErrorCode::NoOffer);
    // Offered and accepted.
    black.send(&offer(OfferKind::Draw)).await;
    both_see([&mut white, &mut black], |m| {
        matches!(m, ServerMessage::Offer { .. })
    })
    .await;
    white.send(&accept(OfferKind::Draw)).await;
    match both_see([&mut white, &mut black], |m| {
        matches!(m, ServerMessage::GameOver { .. })
    })
    .await
    {
        ServerMessage::GameOver { result, .. } => {
            assert_eq!(result.winner, None);
            assert_eq!(result.cause, EndCause::DrawAgreed);
        }
        _ => unreachable!(),
    }
    let stored = server.snapshot(&game).await;
    assert_eq!(stored.status, GameStatus::Finished);
    assert_eq!(stored.result.unwrap().cause, EndCause::DrawAgreed);
    // The save file keeps the agreed draw, and the game's saves read it back as the end.
    let save = save_file(&server, &game).await;
    assert!(save.contains("decided: Some(DrawAgreed)"), "{save}");
    let replayed = boardcraft_saves::SavedGame::parse(&save)
        .unwrap()
        .replay_shipped()
        .unwrap();
    assert_eq!(
        replayed.decided,
        Some(boardcraft_saves::Decided::DrawAgreed)
    );
}

#[tokio::test]
async fn a_takeback_removes_the_moves_from_the_record() {
    let server = Server::start(settings()).await;
    let (game, w, b) = server.game("ugolki-hg-3x3", "").await;
    let mut white = Client::join(&server, &game, Some(&w)).await;
    let mut black = Client::join(&server, &game, Some(&b)).await;
    // Black has no move to take back yet.
    black.send(&offer(OfferKind::Takeback)).await;
    assert_eq!(black.error_code().await.0, ErrorCode::OfferNotAllowed);
    play(&mut white, &mut black, 0, "f3-f4").await;
    play(&mut black, &mut white, 1, "c6-c5").await;
    play(&mut white, &mut black, 2, "f4-f5").await;
    // White takes back its last move (ply 2): the opponent accepts.
    white.send(&offer(OfferKind::Takeback)).await;
    both_see([&mut white, &mut black], |m| {
        matches!(m, ServerMessage::Offer { .. })
    })
    .await;
    black.send(&accept(OfferKind::Takeback)).await;
    match both_see([&mut white, &mut black], |m| {
        matches!(m, ServerMessage::Snapshot { .. })
    })
    .await
    {
        ServerMessage::Snapshot { reason, game } => {
            assert_eq!(reason, SnapshotReason::Takeback);
            assert_eq!(game.moves, ["f3-f4", "c6-c5"]);
            assert_eq!(game.side_to_move, Side::White);
        }
        _ => unreachable!(),
    }
    // Black, with White to move, takes back its own move and White's reply does not exist:
    // back to ply 1.
    black.send(&offer(OfferKind::Takeback)).await;
    both_see([&mut white, &mut black], |m| {
        matches!(m, ServerMessage::Offer { .. })
    })
    .await;
    white.send(&offer(OfferKind::Takeback)).await; // offering the same accepts
    match both_see([&mut white, &mut black], |m| {
        matches!(m, ServerMessage::Snapshot { .. })
    })
    .await
    {
        ServerMessage::Snapshot { game, .. } => assert_eq!(game.moves, ["f3-f4"]),
        _ => unreachable!(),
    }
    assert_eq!(server.snapshot(&game).await.moves, ["f3-f4"]);
    // The record goes on from there; a new move at ply 1 is stored.
    play(&mut black, &mut white, 1, "b6-b5").await;
    assert_eq!(server.snapshot(&game).await.moves, ["f3-f4", "b6-b5"]);
}

#[tokio::test]
async fn resign_then_a_rematch_with_the_colours_swapped() {
    let server = Server::start(settings()).await;
    let (game, w, b) = server.game("focus-6x6", "").await;
    let mut white = Client::join(&server, &game, Some(&w)).await;
    let mut black = Client::join(&server, &game, Some(&b)).await;
    let mut watcher = Client::join(&server, &game, None).await;
    // Before the end a rematch is not offered.
    white.send(&offer(OfferKind::Rematch)).await;
    assert_eq!(white.error_code().await.0, ErrorCode::OfferNotAllowed);
    black.send(&ClientMessage::Resign).await;
    match both_see([&mut white, &mut black], |m| {
        matches!(m, ServerMessage::GameOver { .. })
    })
    .await
    {
        ServerMessage::GameOver { result, .. } => {
            assert_eq!(result.winner, Some(Side::White));
            assert_eq!(result.cause, EndCause::Resignation);
        }
        _ => unreachable!(),
    }
    // The save file says who resigned.
    let save = save_file(&server, &game).await;
    assert!(save.contains("resigned: Some(Black)"), "{save}");
    white.send(&offer(OfferKind::Rematch)).await;
    both_see([&mut white, &mut black], |m| {
        matches!(m, ServerMessage::Offer { .. })
    })
    .await;
    black.send(&accept(OfferKind::Rematch)).await;
    let ServerMessage::Rematch { game: rematch } = both_see([&mut white, &mut black], |m| {
        matches!(m, ServerMessage::Rematch { .. })
    })
    .await
    else {
        unreachable!()
    };
    assert!(matches!(
        watcher
            .recv_until(|m| matches!(m, ServerMessage::Rematch { .. }))
            .await,
        ServerMessage::Rematch { .. }
    ));
    assert_eq!(
        server.snapshot(&game).await.rematch.as_deref(),
        Some(rematch.as_str())
    );
    // Each keeps their token, for the other colour.
    let new_black = Client::join(&server, &rematch, Some(&w)).await;
    let new_white = Client::join(&server, &rematch, Some(&b)).await;
    assert!(matches!(
        new_black.welcome,
        Some(ServerMessage::Welcome {
            you: Some(Side::Black),
            ..
        })
    ));
    assert!(matches!(
        new_white.welcome,
        Some(ServerMessage::Welcome {
            you: Some(Side::White),
            ..
        })
    ));
    let snapshot = new_white.welcome_game();
    assert_eq!(snapshot.status, GameStatus::Playing);
    assert_eq!(snapshot.rematch_of.as_deref(), Some(game.as_str()));
    assert!(snapshot.moves.is_empty());
    // A second rematch of the same game is not possible.
    white.send(&offer(OfferKind::Rematch)).await;
    assert_eq!(white.error_code().await.0, ErrorCode::OfferNotAllowed);
}
