//! The lobby's tables of more than two (lobby protocol 3) against a real server on
//! 127.0.0.1:0 and real websocket clients, on SQLite and on PostgreSQL (each PostgreSQL case
//! in a schema of its own): a six-seat pool of twelve players seated at two tables by rating;
//! a three-seat seek raced by more accepters than it has seats (exactly three seated, every
//! time); a seat given back before the seek fills; a pool's table and a seek topped up with
//! the computer after `fill_with_bots_after`, the computer then playing its seat's moves
//! beside people, and again on the next server after the first was killed mid-game; and
//! version-2 lobby clients shown none of it. On PostgreSQL the pool and the race also run
//! with their players spread over two nodes of one database.
use std::{
    collections::{HashMap, HashSet},
    net::SocketAddr,
    time::Duration,
};

use boardcraft_protocol::{
    ClientMessage, ErrorCode, GameTerms, LobbyClientMessage, LobbyServerMessage, PROTOCOL_VERSION,
    PoolKey, SEATS_PROTOCOL_VERSION, SeatIndex, SeatPlayers, SeatServerMessage, TimeControl,
};
use boardcraft_rules::checks::SeededMoves;
use boardcraft_server::Settings;
use futures_util::future::join_all;

use crate::{
    lobby::{CloneSigned, Db, Lobby, guest, lobby_settings},
    support::{Client, Killable, Server},
    tables::{SeatMirror, join_seats_url},
};

const VARIANT: &str = "chinese-checkers";

fn table_pool(seats: u8) -> PoolKey {
    PoolKey {
        seats,
        ..PoolKey::new(VARIANT, TimeControl::minutes(5, 3))
    }
}

fn table_terms(seats: u8) -> GameTerms {
    GameTerms {
        variant: VARIANT.into(),
        time_control: None,
        rated: false,
        color: Default::default(),
        seats,
    }
}

/// What `seated` told a player.
#[derive(Clone, Debug)]
struct Seated {
    game: String,
    seat: SeatIndex,
    token: String,
    players: SeatPlayers,
}

impl Lobby {
    /// A new guest's lobby connection of protocol 3.
    async fn table_guest(addr: SocketAddr) -> Lobby {
        let me = guest(addr).await;
        Lobby::open_with(addr, me, SEATS_PROTOCOL_VERSION).await
    }

    /// Waits for `seated`, or an error: what the lobby answered.
    async fn seated_or_error(&mut self) -> Result<Seated, ErrorCode> {
        match self
            .until(|m| {
                matches!(
                    m,
                    LobbyServerMessage::Seated { .. } | LobbyServerMessage::Error { .. }
                )
            })
            .await
        {
            LobbyServerMessage::Seated {
                game,
                seat,
                token,
                players,
                ..
            } => Ok(Seated {
                game,
                seat,
                token,
                players,
            }),
            LobbyServerMessage::Error { code, .. } => Err(code),
            _ => unreachable!(),
        }
    }

    async fn seated(&mut self) -> Seated {
        self.seated_or_error().await.expect("seated")
    }

    /// Waits for the `seek_added` of seek `id` with `n` seated; its seated players' names.
    async fn seek_with(&mut self, id: &str, n: usize) -> Vec<String> {
        match self
            .until(|m| {
                matches!(m, LobbyServerMessage::SeekAdded { seek } if seek.id == id && seek.seated.len() == n)
            })
            .await
        {
            LobbyServerMessage::SeekAdded { seek } => {
                seek.seated.into_iter().map(|p| p.name).collect()
            }
            _ => unreachable!(),
        }
    }
}

fn with_pools(pools: Vec<PoolKey>) -> Settings {
    let mut s = lobby_settings();
    s.lobby.pools = pools;
    s
}

/// Gives `account` a settled rating in `variant` at a table of `seats`.
async fn set_rating_at(db: &Db, account: &str, seats: u8, rating: i32) {
    db.execute(
        "INSERT INTO ratings (account, variant, seats, rating, deviation, volatility, games, updated_ms)
         VALUES (?1, ?2, CAST(CAST(?3 AS TEXT) AS INTEGER),
                 CAST(CAST(?4 AS TEXT) AS DOUBLE PRECISION), 100.0, 0.0, 30, 1)",
        &[account, VARIANT, &seats.to_string(), &rating.to_string()],
    )
    .await;
}

// ----- a six-seat pool of twelve

/// Twelve players in the six-seat pool, ratings in two groups far apart (six around 1200,
/// six around 2000, joining mixed): two tables, each of one group, each player seated once
/// with its own seat and token; then one table plays a few moves over the game websocket.
async fn six_seat_pool_of_twelve(db: Db) {
    six_seat_pool(db, 1).await;
}

/// The twelve spread over `nodes` servers on one database (PostgreSQL): one pool, one
/// leader seating its tables.
async fn six_seat_pool(db: Db, nodes: usize) {
    let key = table_pool(6);
    let mut servers = Vec::new();
    for _ in 0..nodes {
        servers.push(Server::start_on(db.url(), with_pools(vec![key.clone()])).await);
    }
    let server = &servers[0];
    let mut lobbies = Vec::new();
    let mut group: HashMap<String, bool> = HashMap::new();
    for i in 0..12 {
        let me = guest(server.addr).await;
        let high = i % 2 == 1;
        let rating = if high { 2000 } else { 1200 } + 10 * (i / 2);
        set_rating_at(&db, &me.account.id, 6, rating).await;
        group.insert(me.account.name.clone(), high);
        let node = &servers[i as usize % nodes];
        lobbies.push(Lobby::open_with(node.addr, me.clone_signed(), SEATS_PROTOCOL_VERSION).await);
    }
    // A version-2 client sees two-seat pools only (here: none).
    let old = Lobby::open_with(server.addr, guest(server.addr).await, PROTOCOL_VERSION).await;
    match &old.welcome {
        LobbyServerMessage::Welcome {
            pools, protocol, ..
        } => {
            assert!(pools.is_empty(), "{pools:?}");
            assert_eq!(*protocol, PROTOCOL_VERSION);
        }
        other => panic!("{other:?}"),
    }
    match &lobbies[0].welcome {
        LobbyServerMessage::Welcome {
            pools, protocol, ..
        } => {
            assert_eq!(*protocol, SEATS_PROTOCOL_VERSION);
            assert_eq!(pools.len(), 1);
            assert_eq!(pools[0].pool, key);
        }
        other => panic!("{other:?}"),
    }
    for l in &mut lobbies {
        l.send(LobbyClientMessage::JoinPool { pool: key.clone() })
            .await;
    }
    let mut games: HashMap<String, Vec<(String, Seated)>> = HashMap::new();
    for l in &mut lobbies {
        // Taken from the pool: told so first, as a two-seat pool's pair is.
        l.until(|m| matches!(m, LobbyServerMessage::PoolLeft)).await;
        let seated = l.seated().await;
        games
            .entry(seated.game.clone())
            .or_default()
            .push((l.name().to_owned(), seated));
    }
    assert_eq!(games.len(), 2, "twelve players, two tables");
    for (game, seats) in &games {
        assert_eq!(seats.len(), 6, "{game}");
        let mut numbers: Vec<SeatIndex> = seats.iter().map(|(_, s)| s.seat).collect();
        numbers.sort();
        assert_eq!(numbers, [0, 1, 2, 3, 4, 5], "one player per seat");
        let tokens: HashSet<&str> = seats.iter().map(|(_, s)| s.token.as_str()).collect();
        assert_eq!(tokens.len(), 6, "each its own token");
        let high = group[&seats[0].0];
        for (name, s) in seats {
            assert_eq!(group[name], high, "{game}: one group at a table");
            assert_eq!(s.players.seats[usize::from(s.seat)].name, *name);
            assert!(s.players.rated);
        }
    }
    // One table plays: each seat's client moves in turn (the hashes are the rules').
    let (game, seats) = games.iter().next().unwrap();
    let mut ordered: Vec<&Seated> = seats.iter().map(|(_, s)| s).collect();
    ordered.sort_by_key(|s| s.seat);
    let url = format!("ws://{}/ws?game={game}", server.addr);
    let mut clients = Vec::new();
    let mut mirror = None;
    for s in &ordered {
        let (client, welcome) = join_seats_url(&url, game, Some(&s.token)).await;
        let SeatServerMessage::Welcome { you, game, .. } = welcome else {
            unreachable!()
        };
        assert_eq!(you, Some(s.seat));
        mirror = Some(SeatMirror::of(&game));
        clients.push(client);
    }
    let mut mirror = mirror.unwrap();
    let mut picker = SeededMoves::new(6);
    for _ in 0..12 {
        play_one(&mut clients, &mut mirror, &mut picker).await;
    }
    old.close().await;
    db.drop_schema().await;
}

/// The seat to move plays a random move; every client hears it, with the rules' hash.
async fn play_one(clients: &mut [Client], mirror: &mut SeatMirror, picker: &mut SeededMoves) {
    let ply = mirror.moves.len() as u32;
    let seat = mirror.seat();
    let notation = mirror.random_move(picker);
    clients[usize::from(seat)]
        .send(&ClientMessage::Move {
            ply,
            notation: notation.clone(),
        })
        .await;
    mirror.apply(&notation);
    for c in clients.iter_mut() {
        let SeatServerMessage::Moved { hash, seat: by, .. } = c
            .recv_seats_until(|m| matches!(m, SeatServerMessage::Moved { ply: p, .. } if *p == ply))
            .await
        else {
            unreachable!()
        };
        assert_eq!((by, hash), (seat, mirror.hash()));
    }
}

// ----- a three-seat seek raced

/// A three-seat seek: one accepter sits down and gets up again (the seek shows it), then
/// five accepters race for its two free seats, all at once: exactly two are seated (with the
/// seeker: three, never four), the others are told `seek_not_found`; three rounds. A client
/// of lobby protocol 2 is shown none of it and cannot take a seat.
async fn three_seat_seek_race(db: Db) {
    seek_race(db, 1).await;
}

/// The race with the accepters spread over `nodes` servers on one database (PostgreSQL):
/// the seek's seats are counted in the database, not in a node.
async fn seek_race(db: Db, nodes: usize) {
    let mut servers = Vec::new();
    for _ in 0..nodes {
        servers.push(Server::start_on(db.url(), with_pools(Vec::new())).await);
    }
    let server = &servers[0];
    let mut seeker = Lobby::table_guest(server.addr).await;
    let mut accepters = Vec::new();
    for i in 0..5 {
        accepters.push(Lobby::table_guest(servers[i % nodes].addr).await);
    }
    // A version-2 client is not shown seeks of more than two.
    let mut old = Lobby::open_with(server.addr, guest(server.addr).await, PROTOCOL_VERSION).await;
    let mut earlier: Vec<String> = Vec::new();
    for round in 0..3 {
        seeker
            .send(LobbyClientMessage::Seek {
                terms: table_terms(3),
            })
            .await;
        let seeker_name = seeker.name().to_owned();
        // (An earlier round's seek may still be told as it was, then removed again: events
        // from two nodes arrive in the order their publishers committed.)
        let id = match seeker
            .until(|m| {
                matches!(m, LobbyServerMessage::SeekAdded { seek }
                    if seek.by.name == seeker_name && !earlier.contains(&seek.id))
            })
            .await
        {
            LobbyServerMessage::SeekAdded { seek } => {
                assert_eq!(seek.seats, 3);
                assert_eq!(seek.seated.len(), 1, "the seeker sits at it");
                seek.id
            }
            _ => unreachable!(),
        };
        earlier.push(id.clone());
        // One sits down and gets up again; leaving twice is refused.
        let first = &mut accepters[round];
        first
            .send(LobbyClientMessage::AcceptSeek { id: id.clone() })
            .await;
        let names = first.seek_with(&id, 2).await;
        assert_eq!(names, [seeker_name.clone(), first.name().to_owned()]);
        first
            .send(LobbyClientMessage::AcceptSeek { id: id.clone() })
            .await;
        assert_eq!(first.error().await, ErrorCode::NotAllowed, "one seat each");
        first
            .send(LobbyClientMessage::LeaveSeek { id: id.clone() })
            .await;
        first.seek_with(&id, 1).await;
        first
            .send(LobbyClientMessage::LeaveSeek { id: id.clone() })
            .await;
        assert_eq!(first.error().await, ErrorCode::SeekNotFound);
        // A client of protocol 2 cannot take a seat (it is never shown the seek).
        old.send(LobbyClientMessage::AcceptSeek { id: id.clone() })
            .await;
        assert_eq!(old.error().await, ErrorCode::SeekNotFound);
        // The seeker cannot take a seat at its own seek.
        seeker
            .send(LobbyClientMessage::AcceptSeek { id: id.clone() })
            .await;
        assert_eq!(seeker.error().await, ErrorCode::NotAllowed);
        // The race: everyone at once.
        join_all(accepters.iter_mut().map(|a| {
            let id = id.clone();
            async move { a.send(LobbyClientMessage::AcceptSeek { id }).await }
        }))
        .await;
        let answers = join_all(accepters.iter_mut().map(|a| a.seated_or_error())).await;
        let mut seated: Vec<Seated> = Vec::new();
        for answer in answers {
            match answer {
                Ok(s) => seated.push(s),
                Err(code) => assert_eq!(code, ErrorCode::SeekNotFound, "round {round}"),
            }
        }
        assert_eq!(seated.len(), 2, "round {round}: two free seats, two seated");
        let mine = seeker.seated().await;
        assert_eq!(mine.game, seated[0].game);
        assert!(seated.iter().all(|s| s.game == mine.game));
        let mut seats: Vec<SeatIndex> = seated.iter().map(|s| s.seat).collect();
        seats.push(mine.seat);
        seats.sort();
        assert_eq!(seats, [0, 1, 2], "round {round}: three seated, never four");
        assert_eq!(mine.players.seats.len(), 3);
        // Every seated player's token plays its seat.
        let url = format!("ws://{}/ws?game={}", server.addr, mine.game);
        for s in seated.iter().chain([&mine]) {
            let (client, welcome) = join_seats_url(&url, &mine.game, Some(&s.token)).await;
            let SeatServerMessage::Welcome { you, game, .. } = welcome else {
                unreachable!()
            };
            assert_eq!(you, Some(s.seat));
            assert_eq!(game.seat_count(), 3);
            client.close().await;
        }
    }
    // The seeker leaves before the seek fills: it is gone for its accepter too.
    seeker
        .send(LobbyClientMessage::Seek {
            terms: table_terms(3),
        })
        .await;
    let seeker_name = seeker.name().to_owned();
    let id = match seeker
        .until(|m| {
            matches!(m, LobbyServerMessage::SeekAdded { seek }
                if seek.by.name == seeker_name && !earlier.contains(&seek.id))
        })
        .await
    {
        LobbyServerMessage::SeekAdded { seek } => seek.id,
        _ => unreachable!(),
    };
    let first = &mut accepters[0];
    first
        .send(LobbyClientMessage::AcceptSeek { id: id.clone() })
        .await;
    first.seek_with(&id, 2).await;
    seeker
        .send(LobbyClientMessage::CancelSeek { id: id.clone() })
        .await;
    first
        .until(|m| matches!(m, LobbyServerMessage::SeekRemoved { id: gone } if *gone == id))
        .await;
    first
        .send(LobbyClientMessage::LeaveSeek { id: id.clone() })
        .await;
    assert_eq!(first.error().await, ErrorCode::SeekNotFound);
    // A client of protocol 2 asks for no table.
    old.send(LobbyClientMessage::Seek {
        terms: table_terms(3),
    })
    .await;
    assert_eq!(old.error().await, ErrorCode::BadMessage);
    old.send(LobbyClientMessage::JoinPool {
        pool: table_pool(3),
    })
    .await;
    assert_eq!(old.error().await, ErrorCode::PoolNotFound);
    // The version-2 client heard of none of these seeks; a two-seat seek it does see.
    seeker
        .send(LobbyClientMessage::Seek {
            terms: table_terms(2),
        })
        .await;
    match old
        .until(|m| {
            // (A `seek_removed` of a seek it never saw is allowed, and ignored.)
            !matches!(
                m,
                LobbyServerMessage::Counts { .. }
                    | LobbyServerMessage::Pools { .. }
                    | LobbyServerMessage::SeekRemoved { .. }
            )
        })
        .await
    {
        LobbyServerMessage::SeekAdded { seek } => {
            assert_eq!((seek.seats, seek.by.name.as_str()), (2, seeker.name()))
        }
        other => panic!("a version-2 client was told {other:?}"),
    }
    db.drop_schema().await;
}

// ----- the computer fills the empty seats

fn fill_settings(key: &PoolKey) -> Settings {
    let mut settings = with_pools(vec![key.clone()]);
    settings.lobby.fill_with_bots_after = Some(Duration::from_secs(2));
    settings.lobby.bot_level = boardcraft_ai::Level::Novice;
    settings
}

/// The people's seats of a game connected (protocol 3), and the game as they see it.
async fn sit_people(
    addr: SocketAddr,
    game: &str,
    seated: &[Seated],
) -> (Vec<(SeatIndex, Client)>, SeatMirror) {
    let url = format!("ws://{addr}/ws?game={game}");
    let mut clients = Vec::new();
    let mut mirror = None;
    for s in seated {
        let (client, welcome) = join_seats_url(&url, game, Some(&s.token)).await;
        let SeatServerMessage::Welcome { you, game, .. } = welcome else {
            unreachable!()
        };
        assert_eq!(you, Some(s.seat));
        mirror = Some(SeatMirror::of(&game));
        clients.push((s.seat, client));
    }
    (clients, mirror.expect("people"))
}

/// People play random moves and the computer its own seat's, until `plies` are played, every
/// move heard by every person with the rules' hash; the computer's moves.
async fn play_with_computer(
    clients: &mut [(SeatIndex, Client)],
    mirror: &mut SeatMirror,
    computer: SeatIndex,
    picker: &mut SeededMoves,
    plies: usize,
) -> usize {
    let mut by_computer = 0;
    while mirror.moves.len() < plies {
        let ply = mirror.moves.len() as u32;
        let seat = mirror.seat();
        if seat != computer {
            let notation = mirror.random_move(picker);
            let (_, c) = clients.iter_mut().find(|(s, _)| *s == seat).unwrap();
            c.send(&ClientMessage::Move { ply, notation }).await;
        }
        let mut heard = None;
        for (_, c) in clients.iter_mut() {
            let SeatServerMessage::Moved {
                notation,
                seat: by,
                hash,
                result,
                ..
            } = c
                .recv_seats_until(
                    |m| matches!(m, SeatServerMessage::Moved { ply: p, .. } if *p == ply),
                )
                .await
            else {
                unreachable!()
            };
            assert_eq!(by, seat);
            assert!(result.is_none(), "the game goes on");
            heard = Some((notation, hash));
        }
        let (notation, hash) = heard.unwrap();
        mirror.apply(&notation);
        assert_eq!(hash, mirror.hash(), "ply {ply}: the hash is the rules'");
        if seat == computer {
            by_computer += 1;
        }
    }
    by_computer
}

/// With `fill_with_bots_after` 2 s: two people in a three-seat pool get the computer as
/// their third and play with it (the computer's moves arrive as anyone's, also after the
/// server was killed and another started on the same database), and a four-seat seek with
/// one accepter starts with two computers.
async fn the_computer_fills_a_table(db: Db) {
    let key = table_pool(3);
    let server = Killable::start(db.url(), fill_settings(&key));
    let mut people = vec![
        Lobby::table_guest(server.addr).await,
        Lobby::table_guest(server.addr).await,
    ];
    let started = std::time::Instant::now();
    for l in &mut people {
        l.send(LobbyClientMessage::JoinPool { pool: key.clone() })
            .await;
    }
    let mut seated = Vec::new();
    for l in &mut people {
        seated.push(l.seated().await);
    }
    let waited = started.elapsed();
    assert!(waited >= Duration::from_secs(2), "seated after {waited:?}");
    let game = seated[0].game.clone();
    assert!(seated.iter().all(|s| s.game == game));
    let players = &seated[0].players;
    assert_eq!(players.seats.len(), 3);
    let computers: Vec<usize> = (0..3).filter(|i| players.seats[*i].bot).collect();
    assert_eq!(computers.len(), 1, "{players:?}");
    let computer = computers[0] as SeatIndex;
    // The two people play; the computer plays its own seat.
    let (mut clients, mut mirror) = sit_people(server.addr, &game, &seated).await;
    let mut picker = SeededMoves::new(3);
    let by_computer =
        play_with_computer(&mut clients, &mut mirror, computer, &mut picker, 15).await;
    assert!(by_computer >= 4, "the computer moved {by_computer} times");
    let played = mirror.moves.clone();
    for (_, c) in clients {
        c.close().await;
    }
    // The server goes away mid-game; the next one that loads the game plays the computer's
    // seat again.
    server.kill();
    let server = Killable::start(db.url(), fill_settings(&key));
    let (mut clients, mut mirror) = sit_people(server.addr, &game, &seated).await;
    // (The computer may have played its next move before the server went.)
    assert_eq!(
        mirror.moves[..played.len()],
        played[..],
        "every acknowledged move kept"
    );
    let after = play_with_computer(&mut clients, &mut mirror, computer, &mut picker, 24).await;
    assert!(
        after >= 2,
        "the computer moved {after} times after the restart"
    );
    for (_, c) in clients {
        c.close().await;
    }
    // A four-seat seek with one accepter: two computers join them after the wait.
    let (mut seeker, mut accepter) = (
        Lobby::table_guest(server.addr).await,
        Lobby::table_guest(server.addr).await,
    );
    seeker
        .send(LobbyClientMessage::Seek {
            terms: table_terms(4),
        })
        .await;
    let seeker_name = seeker.name().to_owned();
    let id = match seeker
        .until(
            |m| matches!(m, LobbyServerMessage::SeekAdded { seek } if seek.by.name == seeker_name),
        )
        .await
    {
        LobbyServerMessage::SeekAdded { seek } => seek.id,
        _ => unreachable!(),
    };
    accepter
        .send(LobbyClientMessage::AcceptSeek { id: id.clone() })
        .await;
    let a = accepter.seated().await;
    let b = seeker.seated().await;
    assert_eq!(a.game, b.game);
    assert_eq!(a.players.seats.len(), 4);
    assert_eq!(a.players.seats.iter().filter(|p| p.bot).count(), 2);
    assert_ne!(a.seat, b.seat);
    db.drop_schema().await;
}

both!(
    six_seat_pool_of_twelve,
    lobby_tables_sqlite_six_seat_pool_of_twelve,
    lobby_tables_postgres_six_seat_pool_of_twelve
);
both!(
    three_seat_seek_race,
    lobby_tables_sqlite_three_seat_seek_race,
    lobby_tables_postgres_three_seat_seek_race
);
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_tables_postgres_six_seat_pool_on_two_nodes() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    six_seat_pool(db, 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_tables_postgres_seek_race_on_two_nodes() {
    let Some(db) = Db::postgres().await else {
        return;
    };
    seek_race(db, 2).await;
}

both!(
    the_computer_fills_a_table,
    lobby_tables_sqlite_the_computer_fills_a_table,
    lobby_tables_postgres_the_computer_fills_a_table
);
