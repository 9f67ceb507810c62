//! Several nodes on one PostgreSQL: a game is run by the node that holds its lock,
//! never by two; a node that lost its lock cannot store; a game moves between nodes with every
//! acknowledged move, none twice.
use std::sync::Arc;

use boardcraft_protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerMessage, Side};
use boardcraft_rules::{Position, checks::SeededMoves};
use boardcraft_server::storage::{
    self, Acquired, ClusterStore, GameRecord, GameStore, StoreError, StoredMove,
    postgres::PostgresStore,
};
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use crate::support::{Mirror, Server, postgres_url, settings, wait};

fn record(id: &str) -> GameRecord {
    GameRecord {
        id: id.to_owned(),
        variant: "ugolki-hg-3x3".into(),
        variant_file: None,
        time_control: None,
        tokens: vec!["a".into(), "b".into()],
        creator: 0,
        invite: None,
        joined: vec![true, true],
        created_ms: 1,
        rematch_of: None,
        players: None,
    }
}

fn mv(ply: u32, notation: &str) -> StoredMove {
    StoredMove {
        ply,
        notation: notation.into(),
        clocks: None,
        at_ms: 1,
    }
}

/// Two nodes race for one game, again and again: every time exactly one gets it, and the
/// other gets it only once the first let go.
#[tokio::test]
async fn two_nodes_never_hold_one_game_at_once() {
    let Some(url) = postgres_url() else { return };
    let a = PostgresStore::connect(&url).await.unwrap();
    let b = PostgresStore::connect(&url).await.unwrap();
    let id = boardcraft_server::secrets::game_id();
    a.create_game(record(&id)).await.unwrap();
    for round in 0..40 {
        let (ra, rb) = tokio::join!(a.acquire(id.clone()), b.acquire(id.clone()));
        let (ra, rb) = (ra.unwrap(), rb.unwrap());
        let winners = [ra, rb].iter().filter(|r| **r == Acquired::Yes).count();
        assert_eq!(winners, 1, "round {round}: {ra:?} {rb:?}");
        let (winner, loser) = if ra == Acquired::Yes {
            (&a, &b)
        } else {
            (&b, &a)
        };
        // While held, the other node cannot take it.
        assert_eq!(
            loser.acquire(id.clone()).await.unwrap(),
            Acquired::Elsewhere
        );
        winner.release(id.clone()).await.unwrap();
    }
    // A game that does not exist is not held by anyone.
    assert_eq!(
        a.acquire("nosuchgame".into()).await.unwrap(),
        Acquired::NoGame
    );
    assert_eq!(
        b.acquire("nosuchgame".into()).await.unwrap(),
        Acquired::NoGame
    );
}

/// A node whose lock connection dropped (PostgreSQL freed its lock) cannot store anything for
/// the game once another node took it — whether or not it noticed the drop yet.
#[tokio::test]
async fn a_node_that_lost_its_lock_cannot_store() {
    let Some(url) = postgres_url() else { return };
    let a = PostgresStore::connect(&url).await.unwrap();
    let b = PostgresStore::connect(&url).await.unwrap();
    let id = boardcraft_server::secrets::game_id();
    a.create_game(record(&id)).await.unwrap();
    assert_eq!(a.acquire(id.clone()).await.unwrap(), Acquired::Yes);
    a.append_move(id.clone(), mv(0, "f3-f4")).await.unwrap();
    // A's lock connection ends (as when the network between A and the database fails).
    let pid = a.ownership().backend_pid().await.unwrap();
    kill_backend(pid).await;
    wait(async {
        while b.acquire(id.clone()).await.unwrap() != Acquired::Yes {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(matches!(
        a.append_move(id.clone(), mv(1, "c6-c5")).await,
        Err(StoreError::NotOwner(_))
    ));
    assert!(matches!(
        a.finish_game(
            id.clone(),
            boardcraft_protocol::SeatResult::from_two_seats(&boardcraft_protocol::GameResult {
                winner: None,
                cause: boardcraft_protocol::EndCause::DrawAgreed,
                text: "draw".into()
            })
        )
        .await,
        Err(StoreError::NotOwner(_))
    ));
    b.append_move(id.clone(), mv(1, "c6-c5")).await.unwrap();
    let stored = b.load_game(id.clone()).await.unwrap().unwrap();
    assert_eq!(stored.moves, [mv(0, "f3-f4"), mv(1, "c6-c5")]);
    assert_eq!(stored.result, None);
}

/// Ends a PostgreSQL session from outside (as a network failure would).
async fn kill_backend(pid: i32) {
    let (client, connection) =
        tokio_postgres::connect(&postgres_url().unwrap(), tokio_postgres::NoTls)
            .await
            .unwrap();
    tokio::spawn(connection);
    client
        .execute("SELECT pg_terminate_backend($1)", &[&pid])
        .await
        .unwrap();
}

/// A websocket to `node` for `game`; the welcome's ply.
async fn connect(
    node: &Server,
    game: &str,
    token: Option<&str>,
) -> Option<(crate::support::WsStream, u32)> {
    let url = format!("ws://{}/ws?game={game}", node.addr);
    let (mut ws, _) = wait(tokio_tungstenite::connect_async(url)).await.ok()?;
    let hello = ClientMessage::Hello {
        protocol: PROTOCOL_VERSION,
        game: game.to_owned(),
        token: token.map(str::to_owned),
        client: Some("cluster test".into()),
    };
    ws.send(Message::Text(hello.to_json().into())).await.ok()?;
    loop {
        match wait(ws.next()).await? {
            Ok(Message::Text(t)) => match boardcraft_protocol::parse_server_message(&t).ok()? {
                ServerMessage::Welcome { game, .. } => return Some((ws, game.ply)),
                ServerMessage::Error { .. } => return None,
                _ => continue,
            },
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => continue,
        }
    }
}

/// Sends the move and waits for its acknowledgement; `false` if the connection went first
/// (the game moved, the node stopped).
async fn play_on(ws: &mut crate::support::WsStream, ply: u32, notation: &str) -> bool {
    let m = ClientMessage::Move {
        ply,
        notation: notation.to_owned(),
    };
    if ws.send(Message::Text(m.to_json().into())).await.is_err() {
        return false;
    }
    loop {
        let Some(Ok(frame)) = wait(ws.next()).await else {
            return false;
        };
        let Message::Text(t) = frame else {
            if matches!(frame, Message::Close(_)) {
                return false;
            }
            continue;
        };
        match boardcraft_protocol::parse_server_message(&t).unwrap() {
            ServerMessage::Moved {
                ply: p,
                notation: n,
                ..
            } if p == ply => {
                assert_eq!(n, notation, "ply {ply} was acknowledged with another move");
                return true;
            }
            ServerMessage::Error {
                code: ErrorCode::GameMoved,
                ..
            } => return false,
            ServerMessage::Error { code, message, .. } => {
                panic!("ply {ply}: refused {code}: {message}")
            }
            _ => continue,
        }
    }
}

/// Players connect to one node or the other at random, while spectators keep opening the
/// game on the other node (each asks for a handover): the game moves back and forth, and
/// every acknowledged move is stored exactly once, in order.
#[tokio::test]
async fn a_game_moves_between_nodes_with_every_acknowledged_move() {
    let Some(url) = postgres_url() else { return };
    let nodes = [
        Arc::new(Server::start_on(&url, settings()).await),
        Arc::new(Server::start_on(&url, settings()).await),
    ];
    let (game, white, black) = nodes[0].game("ugolki-hg-3x3", "").await;
    let mut mirror = Mirror::of(&nodes[1].snapshot(&game).await);
    let mut picker = SeededMoves::new(24);
    let mut acked = Vec::new();
    let mut interrupted = 0;
    while !mirror.position.is_game_over() && acked.len() < 30 {
        let ply = acked.len() as u32;
        let notation = mirror.random_move(&mut picker);
        let token = if mirror.side() == Side::White {
            &white
        } else {
            &black
        };
        let mut attempt = 0usize;
        loop {
            let node = &nodes[(ply as usize + attempt) % 2];
            let other = nodes[(ply as usize + attempt + 1) % 2].clone();
            attempt += 1;
            assert!(attempt < 50, "ply {ply} never acknowledged");
            let Some((mut ws, welcome_ply)) = connect(node, &game, Some(token)).await else {
                continue;
            };
            // A resend after a lost connection: the stored ply is acknowledged again.
            assert!(
                welcome_ply == ply || welcome_ply == ply + 1,
                "{welcome_ply} vs {ply}"
            );
            // A spectator opens the game on the other node while the move is on its way: the
            // game is handed over before, during or after storing it.
            let id = game.clone();
            let spectator = tokio::spawn(async move { connect(&other, &id, None).await });
            // A varying head start, so that the handover lands at varying moments.
            let delay = (ply as u64 * 7 + attempt as u64 * 3) % 8;
            tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
            let acknowledged = play_on(&mut ws, ply, &notation).await;
            let _ = spectator.await;
            if acknowledged {
                break;
            }
            interrupted += 1;
        }
        mirror.apply(&notation);
        acked.push(notation);
    }
    let store = storage::open(&url).await.unwrap();
    let stored = store.load_game(game.clone()).await.unwrap().unwrap();
    let stored: Vec<String> = stored.moves.into_iter().map(|m| m.notation).collect();
    assert_eq!(stored, acked, "every acknowledged move once, in order");
    eprintln!(
        "{} moves, {interrupted} sent again after a handover cut their connection",
        acked.len()
    );
}

/// The event bus between nodes: what one node publishes, another hears; a node whose
/// listening connection dropped is told to re-read (what was sent meanwhile is lost), and
/// hears what comes after; an oversized payload is refused.
#[tokio::test]
async fn events_cross_nodes_and_a_lost_listener_is_told_to_re_read() {
    use boardcraft_server::events::{BusMessage, EventBus};
    let Some(url) = postgres_url() else { return };
    let channel = format!("test_{}", boardcraft_server::secrets::game_id());
    let a = EventBus::connect(&url, &[&channel]).await.unwrap();
    let b = EventBus::connect(&url, &[&channel]).await.unwrap();
    let mut heard = b.subscribe();
    let event = |payload: &str| BusMessage::Event {
        channel: channel.clone(),
        payload: payload.to_owned(),
    };
    a.publish(&channel, "seek 1").await.unwrap();
    assert_eq!(wait(heard.recv()).await.unwrap(), event("seek 1"));
    // B's listening connection ends: B is told to re-read, then hears new events again.
    kill_backend(b.backend_pid().await.unwrap()).await;
    assert_eq!(wait(heard.recv()).await.unwrap(), BusMessage::Reconnected);
    a.publish(&channel, "seek 2").await.unwrap();
    assert_eq!(wait(heard.recv()).await.unwrap(), event("seek 2"));
    assert!(a.publish(&channel, &"x".repeat(8000)).await.is_err());
    assert!(a.publish("Bad Channel", "x").await.is_err());
}

/// A node that takes a game announces it; a node that still runs the game with an older
/// epoch (its lock connection dropped, unnoticed) stops it at once: its players are told the
/// game moved.
#[tokio::test]
async fn a_takeover_is_announced_and_a_stale_node_stops_the_game() {
    let Some(url) = postgres_url() else { return };
    let a_store = Arc::new(PostgresStore::connect(&url).await.unwrap());
    let a = serve_on(a_store.clone()).await;
    let b = Server::start_on(&url, settings()).await;
    let (game, white, _black) = a.game("ugolki-hg-3x3", "").await;
    let (mut ws, _) = connect(&a, &game, Some(&white)).await.expect("joined on A");
    // A's lock goes (PostgreSQL frees it), and B takes the game for a spectator.
    kill_backend(a_store.ownership().backend_pid().await.unwrap()).await;
    wait(async {
        while connect(&b, &game, None).await.is_none() {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await;
    // A's player is told to reconnect (by the announcement, or by A noticing its lost lock).
    assert!(!play_on(&mut ws, 0, "f3-f4").await, "A kept the game");
    // On B the move is played.
    let (mut ws, ply) = connect(&b, &game, Some(&white)).await.expect("joined on B");
    assert_eq!(ply, 0);
    assert!(play_on(&mut ws, 0, "f3-f4").await);
}

async fn serve_on(store: Arc<PostgresStore>) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(boardcraft_server::serve(
        listener,
        store,
        settings(),
        std::future::pending(),
    ));
    Server::view(addr)
}

/// Clocks across a failover: the node that takes a timed game over starts the side to move's
/// clock when it loads the game, from the time stored with the last move — the time the game
/// had no node is not charged. (The bound below is what the test measured itself: the reply's
/// time can only be less than the stored time by the time the takeover took, never by the
/// 1.5 s the game had no node.)
#[tokio::test]
async fn the_time_between_a_death_and_the_takeover_is_not_charged() {
    let Some(url) = postgres_url() else { return };
    let a = crate::support::Killable::start(&url, settings());
    let on_a = Server::view(a.addr);
    let (game, w, b) = on_a
        .game(
            "ugolki-hg-3x3",
            r#","time_control":{"initial_ms":60000,"increment_ms":0}"#,
        )
        .await;
    let mut white = crate::support::Client::join(&on_a, &game, Some(&w)).await;
    let mut black = crate::support::Client::join(&on_a, &game, Some(&b)).await;
    let mut mirror = Mirror::of(white.welcome_game());
    let mut picker = SeededMoves::new(5);
    let mut clocks = None;
    // Three plies: from the third on the clocks run, so Black's is running now.
    for ply in 0..3 {
        let notation = mirror.random_move(&mut picker);
        let mover = if ply % 2 == 0 { &mut white } else { &mut black };
        mover
            .send(&ClientMessage::Move {
                ply,
                notation: notation.clone(),
            })
            .await;
        if let ServerMessage::Moved { clocks: c, .. } = mover
            .recv_until(|m| matches!(m, ServerMessage::Moved { ply: p, .. } if *p == ply))
            .await
        {
            clocks = c;
        }
        mirror.apply(&notation);
    }
    let stored = clocks.expect("a timed game").black_ms;
    a.kill();
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let b_node = Server::start_on(&url, settings()).await;
    let asked = std::time::Instant::now();
    let black = crate::support::Client::join(&b_node, &game, Some(&b)).await;
    let took = asked.elapsed().as_millis() as u64;
    let now = black.welcome_game().clocks.expect("clocks");
    assert_eq!(now.running, Some(Side::Black));
    assert!(now.black_ms <= stored, "{now:?} vs {stored}");
    assert!(
        now.black_ms + took >= stored,
        "Black was charged for the time without a node: {} ms left of {stored} ms, the takeover took {took} ms",
        now.black_ms
    );
}
