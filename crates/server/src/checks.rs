//! The body of the `protocol_message` fuzz target (feature `checks`): any bytes as one client
//! frame, parsed by the protocol crate and, when it is a message, handled by a real game task
//! (SQLite in a temp folder) from each of the game's connections — White, Black, a spectator.
//! Nothing may panic; a spectator's message changes nothing; the game afterwards is one its
//! moves replay to, at most one move longer than before (or shorter by a takeback).
use std::{cell::RefCell, sync::Arc};

use boardcraft_protocol::{
    ClientMessage, DEFAULT_MAX_FRAME_BYTES, GameSnapshot, hash_text, parse_client_message,
};
use boardcraft_rules::{Position, shipped_variant};
use tokio::sync::{mpsc, oneshot};

use crate::{
    Settings,
    game::{Command, Games},
    secrets,
    storage::{GameRecord, StoredMove, sqlite::SqliteStore},
};

struct Fixture {
    runtime: tokio::runtime::Runtime,
    games: Arc<Games>,
    _dir: std::path::PathBuf,
}

thread_local! {
    static FIXTURE: RefCell<Option<Fixture>> = const { RefCell::new(None) };
}

fn fixture() -> Fixture {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let dir = std::env::temp_dir().join(format!("boardcraft-fuzz-{}", std::process::id()));
    let store = SqliteStore::open(&dir.join("fuzz.sqlite3")).expect("a database");
    let games =
        runtime.block_on(async { Games::new(Arc::new(store), Arc::new(Settings::default())) });
    Fixture {
        runtime,
        games,
        _dir: dir,
    }
}

/// One frame, as the fuzz target gets it.
pub fn one_message(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let msg = match parse_client_message(text, DEFAULT_MAX_FRAME_BYTES) {
        Ok(msg) => msg,
        Err(e) => {
            assert!(!e.message.is_empty());
            return;
        }
    };
    // What the parser accepts survives a round trip.
    assert_eq!(
        parse_client_message(&msg.to_json(), usize::MAX).as_ref(),
        Ok(&msg)
    );
    if matches!(
        msg,
        ClientMessage::Hello { .. } | ClientMessage::Ping { .. }
    ) {
        return; // answered by the connection task, not the game
    }
    FIXTURE.with(|f| {
        let mut f = f.borrow_mut();
        let f = f.get_or_insert_with(fixture);
        let games = f.games.clone();
        f.runtime.block_on(handle(games, msg));
    });
}

async fn ask(games: &Arc<Games>, id: &str) -> GameSnapshot {
    games
        .ask(id, |reply| Command::Snapshot { reply })
        .await
        .expect("the game loads")
        .expect("the game exists")
        .two_seats()
        .expect("a two-seat game")
}

async fn handle(games: Arc<Games>, msg: ClientMessage) {
    // A fresh game with two moves played, both seats taken.
    let variant = shipped_variant("ugolki-hg-3x3").expect("shipped");
    let mut position = variant.new_game();
    let mut moves = Vec::new();
    for ply in 0..2u32 {
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        let notation = position.format_move(&legal[0]);
        position.play(&legal[0]).expect("legal");
        moves.push(StoredMove {
            ply,
            notation,
            clocks: None,
            at_ms: 0,
        });
    }
    let id = secrets::game_id();
    let tokens = [secrets::seat_token(), secrets::seat_token()];
    let store = games.store.clone();
    store
        .create_game(GameRecord {
            id: id.clone(),
            variant: variant.name.clone(),
            variant_file: None,
            time_control: None,
            tokens: tokens.to_vec(),
            creator: 0,
            invite: Some(secrets::invite()),
            joined: vec![true, true],
            created_ms: 0,
            rematch_of: None,
            players: None,
        })
        .await
        .expect("stored");
    for m in moves {
        store.append_move(id.clone(), m).await.expect("stored");
    }
    let mut inboxes = Vec::new();
    for (conn, token) in [(1, Some(&tokens[0])), (2, Some(&tokens[1])), (3, None)] {
        let (outbox, inbox) = mpsc::channel(1024);
        inboxes.push(inbox);
        let joined = games
            .ask(&id, |reply: oneshot::Sender<_>| Command::Connect {
                conn,
                token: token.cloned(),
                protocol: boardcraft_protocol::PROTOCOL_VERSION,
                computer: false,
                outbox: outbox.clone(),
                reply,
            })
            .await
            .expect("loads")
            .expect("exists");
        assert!(joined.is_ok());
    }
    let task = games.task(&id).await.expect("loads").expect("exists");
    let before = ask(&games, &id).await;
    // The spectator first: nothing changes.
    task.send(Command::Message {
        conn: 3,
        msg: msg.clone(),
    })
    .await
    .expect("the game runs");
    let after_spectator = ask(&games, &id).await;
    assert_eq!(after_spectator.moves, before.moves);
    assert_eq!(after_spectator.status, before.status);
    assert_eq!(after_spectator.offers, before.offers);
    for conn in [1, 2] {
        task.send(Command::Message {
            conn,
            msg: msg.clone(),
        })
        .await
        .expect("the game runs");
    }
    let after = ask(&games, &id).await;
    let (short, long) = if after.moves.len() >= before.moves.len() {
        (&before.moves, &after.moves)
    } else {
        (&after.moves, &before.moves)
    };
    assert!(long.starts_with(short), "{before:?} -> {after:?}");
    assert!(after.moves.len() <= before.moves.len() + 1);
    // The record replays to the hash the server gives.
    let mut replay = variant.new_game();
    for m in &after.moves {
        let mv = replay.parse_move(m).expect("stored moves replay");
        replay.play(&mv).expect("stored moves replay");
    }
    assert_eq!(hash_text(replay.hash()), after.hash);
    // Every message the game sent is a server message that serialises.
    for inbox in &mut inboxes {
        while let Ok(text) = inbox.try_recv() {
            boardcraft_protocol::parse_server_message(&text).expect("a server message");
        }
    }
    for conn in [1, 2, 3] {
        let _ = task.send(Command::Disconnect { conn }).await;
    }
}
