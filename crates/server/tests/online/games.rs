//! Whole games, to their end, by two clients (and a spectator), in every family.
use boardcraft_protocol::{ClientMessage, GameStatus, ServerMessage, Side};
use boardcraft_rules::{Position, checks::SeededMoves};
use boardcraft_saves::SavedGame;

use crate::support::{Client, Mirror, Server, http, settings};

/// Plays random legal moves until the game ends; checks that both players and the spectator
/// saw every move with the hash their own replay gives, and that the stored game, its public
/// state and its save file are that game.
pub async fn play_to_end(server: &Server, variant: &str, seed: u64) -> Vec<String> {
    let (game, white_token, black_token) = server.game(variant, "").await;
    let mut white = Client::join(server, &game, Some(&white_token)).await;
    let mut black = Client::join(server, &game, Some(&black_token)).await;
    let mut watcher = Client::join(server, &game, None).await;
    let mut mirror = Mirror::of(white.welcome_game());
    let mut picker = SeededMoves::new(seed);
    while !mirror.position.is_game_over() {
        let side = mirror.side();
        let notation = mirror.random_move(&mut picker);
        let ply = mirror.moves.len() as u32;
        let mover = if side == Side::White {
            &mut white
        } else {
            &mut black
        };
        mover
            .send(&ClientMessage::Move {
                ply,
                notation: notation.clone(),
            })
            .await;
        mirror.apply(&notation);
        for client in [&mut white, &mut black, &mut watcher] {
            match client
                .recv_until(|m| matches!(m, ServerMessage::Moved { .. }))
                .await
            {
                ServerMessage::Moved {
                    ply: p,
                    notation: n,
                    side: s,
                    hash,
                    ..
                } => {
                    assert_eq!((p, &n, s), (ply, &notation, side));
                    assert_eq!(hash, mirror.hash(), "ply {ply}: the hash agrees");
                }
                _ => unreachable!(),
            }
        }
    }
    let outcome = mirror.position.outcome().unwrap();
    for client in [&mut white, &mut black, &mut watcher] {
        match client
            .recv_until(|m| matches!(m, ServerMessage::GameOver { .. }))
            .await
        {
            ServerMessage::GameOver { result, .. } => {
                assert_eq!(
                    result.winner,
                    outcome.winner().map(|c| match c {
                        boardcraft_rules::Seat::WHITE => Side::White,
                        _ => Side::Black,
                    })
                );
                assert_eq!(result.text, outcome.to_string());
            }
            _ => unreachable!(),
        }
    }
    let stored = server.snapshot(&game).await;
    assert_eq!(stored.status, GameStatus::Finished);
    assert_eq!(stored.moves, mirror.moves);
    assert_eq!(stored.hash, mirror.hash());
    // The finished game is a save file the game loads.
    let (status, text) = http(
        server.addr,
        "GET",
        &format!("/api/games/{game}/save.ron"),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let save = SavedGame::parse(&text).expect("a save file");
    let variant = boardcraft_rules::shipped_variant(variant).unwrap();
    let replayed = save.replay(&variant).expect("the save replays");
    assert_eq!(replayed.outcome, Some(outcome));
    assert_eq!(save.moves, mirror.moves);
    // A move after the end is refused.
    white
        .send(&ClientMessage::Move {
            ply: mirror.moves.len() as u32,
            notation: "a1-a2".into(),
        })
        .await;
    assert_eq!(
        white.error_code().await.0,
        boardcraft_protocol::ErrorCode::GameOver
    );
    mirror.moves
}

#[tokio::test]
async fn a_race_game_to_its_end() {
    let server = Server::start(settings()).await;
    let moves = play_to_end(&server, "ugolki-9qum", 1).await;
    assert!(moves.len() > 10);
}

#[tokio::test]
async fn a_focus_game_to_its_end() {
    let server = Server::start(settings()).await;
    play_to_end(&server, "focus-6x6", 2).await;
}

#[tokio::test]
async fn a_gipf_game_to_its_end() {
    let server = Server::start(settings()).await;
    play_to_end(&server, "gipf-basic", 3).await;
}

#[tokio::test]
async fn a_posted_variant_file_is_played_and_sent_to_clients() {
    let server = Server::start(settings()).await;
    let text = boardcraft_rules::variant::shipped_files()
        .iter()
        .find(|(f, _)| *f == "ugolki-hg-3x3.ron")
        .unwrap()
        .1
        .replace("name: \"ugolki-hg-3x3\"", "name: \"my-ugolki\"");
    let body = serde_json::json!({ "variant_file": text, "color": "black" }).to_string();
    let created = server.create(&body).await;
    assert_eq!(created.color, Side::Black);
    let joined = server.join(&created.invite).await;
    let client = Client::join(&server, &created.game, Some(&joined.token)).await;
    let game = client.welcome_game();
    assert_eq!(game.variant, "my-ugolki");
    assert_eq!(game.variant_file.as_deref(), Some(text.as_str()));
    let mirror = Mirror::of(game);
    assert!(mirror.moves.is_empty());
}
