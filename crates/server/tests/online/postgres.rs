//! The storage tests against a real PostgreSQL (BOARDCRAFT_TEST_POSTGRES; `.ci/run` installs,
//! starts and sets it). Without the variable they print SKIP, except under CI, where they fail.
use boardcraft_server::storage::{self, GameRecord, StoreError, StoredMove};

use crate::support::{Server, postgres_url, settings};

#[tokio::test]
async fn postgres_a_whole_game() {
    let Some(url) = postgres_url() else { return };
    let server = Server::start_on(&url, settings()).await;
    crate::games::play_to_end(&server, "ugolki-9qum", 21).await;
}

#[tokio::test]
async fn postgres_a_restart_keeps_every_acknowledged_move() {
    let Some(url) = postgres_url() else { return };
    crate::resilience::restart_keeps_every_acknowledged_move(&url).await;
}

/// The store itself: a ply is stored once, whatever the database.
async fn a_ply_is_stored_once(url: &str) {
    let store = storage::open(url).await.unwrap();
    let id = boardcraft_server::secrets::game_id();
    store
        .create_game(GameRecord {
            id: id.clone(),
            variant: "focus".into(),
            variant_file: None,
            time_control: None,
            tokens: vec!["a".into(), "b".into()],
            creator: 0,
            invite: Some(boardcraft_server::secrets::invite()),
            joined: vec![true, false],
            created_ms: 1,
            rematch_of: None,
            players: None,
        })
        .await
        .unwrap();
    let mv = |n: &str| StoredMove {
        ply: 0,
        notation: n.into(),
        clocks: Some(vec![1, 2]),
        at_ms: 5,
    };
    store.append_move(id.clone(), mv("first")).await.unwrap();
    assert!(matches!(
        store.append_move(id.clone(), mv("second")).await,
        Err(StoreError::Conflict(_))
    ));
    assert!(store.mark_joined(id.clone(), 1).await.unwrap());
    assert!(!store.mark_joined(id.clone(), 1).await.unwrap());
    let game = store.load_game(id.clone()).await.unwrap().unwrap();
    assert_eq!(game.moves, [mv("first")]);
    assert_eq!(game.record.joined, [true, true]);
    store.truncate_moves(id.clone(), 0).await.unwrap();
    assert!(
        store
            .load_game(id.clone())
            .await
            .unwrap()
            .unwrap()
            .moves
            .is_empty()
    );
    assert!(store.game_ids().await.unwrap().contains(&id));
    assert!(
        store
            .load_game("nosuchgame".into())
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn sqlite_a_ply_is_stored_once() {
    let dir = tempfile::tempdir().unwrap();
    a_ply_is_stored_once(&dir.path().join("s.sqlite3").display().to_string()).await;
}

#[tokio::test]
async fn postgres_a_ply_is_stored_once() {
    let Some(url) = postgres_url() else { return };
    a_ply_is_stored_once(&url).await;
}
