//! Tables of more than two (protocol 3) on a real server with real websocket clients: a
//! three-seat Chinese checkers game between accounts played in turn to its end after a seat
//! resigned (its places and Weng-Lin's rating changes checked against skillratings' own
//! computation), a four-seat draw that needs every seat, clients of protocol 2 refused from a
//! three-seat game while a two-seat game plays, and a three-seat game that outlives its
//! server. Each case runs on a fresh SQLite file and on PostgreSQL in a schema of its own.
use boardcraft_protocol::{
    ClientMessage, EndCause, ErrorCode, OfferKind, PROTOCOL_VERSION, SeatIndex, SeatResult,
    SeatServerMessage, SeatSnapshot, ServerMessage, SnapshotReason, TimeControl,
    http::{ApiError, GameCreated, Me, SeatJoined, SignedIn},
};
use boardcraft_rules::{AnyPosition, Position, checks::SeededMoves, shipped_variant};
use boardcraft_server::game::paired::{SeatedGame, SeatedSeats, create_seated_game};
use skillratings::{
    MultiTeamOutcome,
    weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team},
};

use crate::{
    ratings::{Db, Rated},
    support::{Client, http, http_full},
};

const VARIANT: &str = "chinese-checkers";

/// A seat's client's own copy of the game, replayed with the rules from what the server sent
/// (the seats that left are played by the server's computer: their moves are moves as any),
/// which is what a client of protocol 3 does.
pub(crate) struct SeatMirror {
    pub(crate) position: AnyPosition,
    pub(crate) moves: Vec<String>,
    pub(crate) departed: Vec<SeatIndex>,
}

impl SeatMirror {
    pub(crate) fn of(snapshot: &SeatSnapshot) -> SeatMirror {
        let variant = shipped_variant(&snapshot.variant)
            .unwrap()
            .for_players(snapshot.seat_count())
            .unwrap();
        let mut m = SeatMirror {
            position: variant.new_game(),
            moves: Vec::new(),
            departed: Vec::new(),
        };
        for mv in &snapshot.moves {
            m.apply(mv);
        }
        for l in &snapshot.left {
            m.leave(l.seat);
        }
        assert_eq!(
            m.hash(),
            snapshot.hash,
            "the snapshot's hash is the replayed one"
        );
        assert_eq!(m.seat(), snapshot.to_move);
        m
    }

    pub(crate) fn leave(&mut self, seat: SeatIndex) {
        if !self.departed.contains(&seat) {
            self.departed.push(seat);
        }
    }

    pub(crate) fn apply(&mut self, notation: &str) {
        let mv = self.position.parse_move(notation).expect("a legal move");
        self.position.play(&mv).expect("a legal move");
        self.moves.push(notation.to_owned());
    }

    pub(crate) fn hash(&self) -> String {
        boardcraft_protocol::hash_text(self.position.hash())
    }

    pub(crate) fn seat(&self) -> SeatIndex {
        self.position.side_to_move().index() as SeatIndex
    }

    /// A move that brings the mover's pieces nearest the tip of its target (the sum of their
    /// hex distances to it), a random one among equals: enough for a race game to finish.
    fn greedy_move(&self, picker: &mut SeededMoves) -> String {
        let AnyPosition::Race(race) = &self.position else {
            return self.random_move(picker);
        };
        let seat = race.side_to_move();
        let rules = race.rules().clone();
        let hex = |a: boardcraft_rules::race::Square, b: boardcraft_rules::race::Square| {
            let dq = i32::from(a.file()) - i32::from(b.file());
            let dr = i32::from(a.rank()) - i32::from(b.rank());
            (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
        };
        // The target cell farthest from the seat's home.
        let home = rules.camp(seat).to_vec();
        let tip = *rules
            .target(seat)
            .iter()
            .max_by_key(|&&t| home.iter().map(|&h| hex(h, t)).sum::<i32>())
            .expect("a target");
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        let score = |mv: &boardcraft_rules::AnyMove| {
            let mut next = self.position.clone();
            next.play(mv).expect("a legal move");
            let AnyPosition::Race(next) = next else {
                unreachable!()
            };
            next.pieces(seat).iter().map(|&p| hex(p, tip)).sum::<i32>()
        };
        let scores: Vec<i32> = moves.iter().map(score).collect();
        let best = *scores.iter().min().expect("a legal move");
        let equal: Vec<_> = moves
            .iter()
            .zip(&scores)
            .filter(|(_, s)| **s == best)
            .map(|(m, _)| m.clone())
            .collect();
        let mv = picker.pick(&equal).expect("a move");
        self.position.format_move(mv)
    }

    pub(crate) fn random_move(&self, picker: &mut SeededMoves) -> String {
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        let mv = picker.pick(&moves).expect("a legal move");
        self.position.format_move(mv)
    }
}

/// Every seat at the board (protocol 3), in seat order.
struct SeatTable {
    game: String,
    seats: Vec<Client>,
    mirror: SeatMirror,
    picker: SeededMoves,
    /// Moves toward the target rather than at random.
    greedy: bool,
}

impl SeatTable {
    async fn sit(addr: std::net::SocketAddr, game: &str, tokens: &[String]) -> SeatTable {
        let url = format!("ws://{addr}/ws?game={game}");
        let mut seats = Vec::new();
        let mut snapshot = None;
        for (i, token) in tokens.iter().enumerate() {
            let (client, welcome) = join_seats_url(&url, game, Some(token)).await;
            let SeatServerMessage::Welcome { you, game, .. } = welcome else {
                unreachable!()
            };
            assert_eq!(you, Some(i as SeatIndex), "each token plays its own seat");
            assert_eq!(game.seat_count(), tokens.len());
            snapshot = Some(game);
            seats.push(client);
        }
        let snapshot = snapshot.expect("a seat");
        SeatTable {
            game: game.to_owned(),
            mirror: SeatMirror::of(&snapshot),
            seats,
            picker: SeededMoves::new(11),
            greedy: false,
        }
    }

    /// Every seat reads until a message matches; the messages (the same for all).
    async fn all_until(&mut self, what: impl Fn(&SeatServerMessage) -> bool) -> SeatServerMessage {
        let mut seen: Vec<SeatServerMessage> = Vec::new();
        for c in &mut self.seats {
            seen.push(c.recv_seats_until(&what).await);
        }
        for m in &seen[1..] {
            assert_eq!(*m, seen[0], "every seat hears the same");
        }
        seen.pop().unwrap()
    }

    /// Plays one random legal move of the seat to move, acknowledged to every seat; the
    /// `moved` message. The seat of a person who left is the server's computer's: its move is
    /// waited for.
    async fn play_one(&mut self) -> SeatServerMessage {
        let ply = self.mirror.moves.len() as u32;
        let seat = self.mirror.seat();
        if self.mirror.departed.contains(&seat) {
            let moved = self
                .all_until(|m| matches!(m, SeatServerMessage::Moved { ply: p, .. } if *p == ply))
                .await;
            let SeatServerMessage::Moved {
                seat: by,
                hash,
                notation,
                ..
            } = &moved
            else {
                unreachable!()
            };
            assert_eq!(*by, seat, "the computer plays the seat that left");
            self.mirror.apply(notation);
            assert_eq!(
                *hash,
                self.mirror.hash(),
                "ply {ply}: the hash is the rules'"
            );
            return moved;
        }
        let notation = if self.greedy {
            self.mirror.greedy_move(&mut self.picker)
        } else {
            self.mirror.random_move(&mut self.picker)
        };
        self.seats[usize::from(seat)]
            .send(&ClientMessage::Move {
                ply,
                notation: notation.clone(),
            })
            .await;
        let moved = self
            .all_until(|m| matches!(m, SeatServerMessage::Moved { ply: p, .. } if *p == ply))
            .await;
        self.mirror.apply(&notation);
        let SeatServerMessage::Moved {
            seat: by,
            hash,
            notation: played,
            ..
        } = &moved
        else {
            unreachable!()
        };
        assert_eq!((*by, played.as_str()), (seat, notation.as_str()));
        assert_eq!(
            *hash,
            self.mirror.hash(),
            "ply {ply}: the hash is the rules'"
        );
        moved
    }

    /// Plays `plies` moves, the game going on.
    async fn play(&mut self, plies: usize) {
        for _ in 0..plies {
            let moved = self.play_one().await;
            assert!(
                matches!(moved, SeatServerMessage::Moved { result: None, .. }),
                "the game goes on: {moved:?}"
            );
        }
    }

    /// Plays until a move ends the game; its result.
    async fn play_to_end(&mut self) -> SeatResult {
        for _ in 0..2000 {
            if let SeatServerMessage::Moved {
                result: Some(result),
                ..
            } = self.play_one().await
            {
                return result;
            }
        }
        panic!("the game did not end in 2000 plies");
    }

    /// A seat leaves (resigns) and the others play on: the snapshot every seat gets.
    async fn resign_and_play_on(&mut self, seat: SeatIndex) -> SeatSnapshot {
        self.seats[usize::from(seat)]
            .send(&ClientMessage::Resign)
            .await;
        let SeatServerMessage::Snapshot { reason, game } = self
            .all_until(|m| matches!(m, SeatServerMessage::Snapshot { .. }))
            .await
        else {
            unreachable!()
        };
        assert_eq!(reason, SnapshotReason::SeatLeft);
        self.mirror.leave(seat);
        assert_eq!(game.hash, self.mirror.hash());
        assert_eq!(game.to_move, self.mirror.seat());
        game
    }

    async fn close(self) {
        for c in self.seats {
            c.close().await;
        }
    }
}

/// Says hello with protocol 3 on `url` and waits for the welcome.
pub(crate) async fn join_seats_url(
    url: &str,
    game: &str,
    token: Option<&str>,
) -> (Client, SeatServerMessage) {
    let mut client = Client::open(url).await;
    client
        .send(&ClientMessage::Hello {
            protocol: 3,
            game: game.to_owned(),
            token: token.map(str::to_owned),
            client: Some("server tests, tables".into()),
        })
        .await;
    let welcome = client.recv_seats().await;
    assert!(
        matches!(welcome, SeatServerMessage::Welcome { .. }),
        "expected a welcome, got {welcome:?}"
    );
    (client, welcome)
}

/// A hello of `protocol` to `game`: the error the server answers (and closes with).
async fn refused_hello(
    url: &str,
    game: &str,
    protocol: u32,
    token: Option<&str>,
) -> (ErrorCode, bool) {
    let mut client = Client::open(url).await;
    client
        .send(&ClientMessage::Hello {
            protocol,
            game: game.to_owned(),
            token: token.map(str::to_owned),
            client: None,
        })
        .await;
    client.error_code().await
}

/// A new invite game of `seats` seats, every seat taken by the invite: the creator's answer
/// and the joiners'.
async fn invite_table(addr: std::net::SocketAddr, seats: usize) -> (GameCreated, Vec<SeatJoined>) {
    invite_table_of(addr, VARIANT, seats).await
}

/// A table of `variant` for `seats` from one invite, every seat taken.
async fn invite_table_of(
    addr: std::net::SocketAddr,
    variant: &str,
    seats: usize,
) -> (GameCreated, Vec<SeatJoined>) {
    let body = format!(r#"{{"variant":"{variant}","seats":{seats},"color":"white"}}"#);
    let (status, text) = http(addr, "POST", "/api/games", Some(&body)).await;
    assert_eq!(status, 201, "{text}");
    let created: GameCreated = serde_json::from_str(&text).unwrap();
    assert_eq!(created.seat, 0);
    let mut joined = Vec::new();
    for seat in 1..seats {
        let (status, text) = http(
            addr,
            "POST",
            &format!("/api/invites/{}", created.invite),
            None,
        )
        .await;
        assert_eq!(status, 200, "{text}");
        let j: SeatJoined = serde_json::from_str(&text).unwrap();
        assert_eq!(
            (j.game.as_str(), usize::from(j.seat)),
            (created.game.as_str(), seat)
        );
        joined.push(j);
    }
    // Every seat is taken now.
    let (status, text) = http(
        addr,
        "POST",
        &format!("/api/invites/{}", created.invite),
        None,
    )
    .await;
    assert_eq!(status, 409, "{text}");
    let refusal: ApiError = serde_json::from_str(&text).unwrap();
    assert_eq!(refusal.code, ErrorCode::SeatTaken);
    (created, joined)
}

fn tokens_of(created: &GameCreated, joined: &[SeatJoined]) -> Vec<String> {
    std::iter::once(created.token.clone())
        .chain(joined.iter().map(|j| j.token.clone()))
        .collect()
}

/// The account's stored rating in Chinese checkers for `seats`.
async fn rating_of(
    server: &Rated,
    who: &SignedIn,
    seats: u8,
) -> Option<boardcraft_protocol::Rating> {
    let auth = format!("Bearer {}", who.token);
    let (status, _, body) = http_full(
        server.addr,
        "GET",
        "/api/me",
        None,
        &[("Authorization", &auth)],
    )
    .await;
    assert_eq!(status, 200);
    let me: Me = serde_json::from_slice(&body).unwrap();
    me.ratings
        .into_iter()
        .find(|r| r.variant == VARIANT && r.seats == seats)
}

// ----- the cases

/// Three new guests seated at a rated 10+5 table of Chinese checkers.
async fn rated_table_of_three(server: &Rated) -> ([SignedIn; 3], SeatedSeats) {
    let players = [
        server.guest().await,
        server.guest().await,
        server.guest().await,
    ];
    let made = create_seated_game(
        &server.games,
        SeatedGame {
            variant: VARIANT.into(),
            time_control: Some(TimeControl::minutes(10, 5)),
            rated: true,
            accounts: players.iter().map(|p| p.account.id.clone()).collect(),
        },
    )
    .await
    .expect("a table of three");
    (players, made)
}

/// Three accounts at a rated table of Chinese checkers: moves in turn (one out of turn
/// refused), seat 1 resigns after each seat made two moves and is placed last, the server's
/// computer plays its seat and seats 0 and 2 play on (toward their targets) until one fills its
/// target, which ends the game with one seat left playing; the places and each seat's
/// Weng-Lin change are skillratings' own.
async fn three_seats_play_on(db: Db) {
    let server = Rated::start(&db.url());
    let (players, made) = rated_table_of_three(&server).await;
    assert_eq!(made.players.seats.len(), 3);
    assert_eq!(
        made.players.seats[0].rating.map(|r| r.rating),
        Some(1500),
        "a new player at a table of three: Weng-Lin's 1500"
    );
    let url = format!("ws://{}/ws?game={}", server.addr, made.game);
    // Clients of protocols 1 and 2 cannot be told of three seats.
    for protocol in [1, PROTOCOL_VERSION] {
        assert_eq!(
            refused_hello(&url, &made.game, protocol, Some(&made.tokens[0])).await,
            (ErrorCode::UnsupportedProtocol, true)
        );
        assert_eq!(
            refused_hello(&url, &made.game, protocol, None).await,
            (ErrorCode::UnsupportedProtocol, true)
        );
    }
    let mut table = SeatTable::sit(server.addr, &made.game, &made.tokens).await;
    let (mut watcher, welcome) = join_seats_url(&url, &made.game, None).await;
    assert!(matches!(
        welcome,
        SeatServerMessage::Welcome { you: None, .. }
    ));

    // Seat 1 moves out of turn: refused, nothing changes.
    assert_eq!(table.mirror.seat(), 0);
    let notation = table.mirror.random_move(&mut SeededMoves::new(1));
    table.seats[1]
        .send(&ClientMessage::Move { ply: 0, notation })
        .await;
    match table.seats[1]
        .recv_seats_until(|m| matches!(m, SeatServerMessage::Error { .. }))
        .await
    {
        SeatServerMessage::Error { code, ply, .. } => {
            assert_eq!((code, ply), (ErrorCode::NotYourTurn, Some(0)))
        }
        _ => unreachable!(),
    }
    // Two rounds, seat by seat in turn.
    for ply in 0..6u32 {
        assert_eq!(table.mirror.seat(), (ply % 3) as SeatIndex);
        table.play(1).await;
    }
    // A takeback is refused at a table of three.
    table.seats[0]
        .send(&ClientMessage::Offer {
            offer: OfferKind::Takeback,
            ply: None,
        })
        .await;
    assert_eq!(
        table.seats[0].error_code_seats().await,
        (ErrorCode::OfferNotAllowed, false)
    );

    // Seat 1 resigns: placed last, the others play on.
    let snapshot = table.resign_and_play_on(1).await;
    assert_eq!(snapshot.left.len(), 1);
    assert_eq!(
        (
            snapshot.left[0].seat,
            snapshot.left[0].place,
            snapshot.left[0].ply
        ),
        (1, 3, 6)
    );
    assert_eq!(snapshot.left[0].cause, EndCause::Resignation);
    assert_eq!(snapshot.status, boardcraft_protocol::GameStatus::Playing);
    // The person in seat 1 plays no more: the computer has the seat.
    let notation = table.mirror.random_move(&mut SeededMoves::new(2));
    table.seats[1]
        .send(&ClientMessage::Move { ply: 6, notation })
        .await;
    assert_eq!(
        table.seats[1].error_code_seats().await.0,
        ErrorCode::ReadOnly
    );
    table.seats[1].send(&ClientMessage::Resign).await;
    assert_eq!(
        table.seats[1].error_code_seats().await.0,
        ErrorCode::ReadOnly
    );
    table.greedy = true;
    let result = table.play_to_end().await;
    let computer_moves = table.mirror.moves[6..]
        .iter()
        .enumerate()
        .filter(|(i, _)| (6 + i) % 3 == 1)
        .count();
    assert!(computer_moves > 5, "the computer played seat 1 on");

    // The places: seat 1 last; of seats 0 and 2 the first to fill its target is first, and
    // the game ends there, the other alone still playing, second.
    assert_eq!(result.placements.len(), 3);
    assert_eq!(result.place_of(1), Some(3));
    let mut finished = table.mirror.position.finish_order();
    finished.retain(|s| s.index() != 1);
    assert_eq!(finished.len(), 1, "one seat finished: {result:?}");
    let first = finished[0].index() as SeatIndex;
    assert_ne!(first, 1);
    assert_eq!(result.place_of(first), Some(1));
    assert_eq!(result.place_of(2 - first), Some(2));
    assert_eq!(
        result.cause,
        EndCause::Rules {
            rule: "target_filled".into()
        }
    );
    let over = table
        .all_until(|m| matches!(m, SeatServerMessage::GameOver { .. }))
        .await;
    let SeatServerMessage::GameOver {
        result: over_result,
        ratings: Some(changes),
        ..
    } = over
    else {
        panic!("a rated game over: {over:?}")
    };
    assert_eq!(over_result, result);
    assert!(matches!(
        watcher
            .recv_seats_until(|m| matches!(m, SeatServerMessage::GameOver { .. }))
            .await,
        SeatServerMessage::GameOver { .. }
    ));

    // Weng-Lin as skillratings computes it: new players (1500, 500) on Glicko's scale (β 250),
    // each seat a team of one ranked by its place.
    let fresh = WengLinRating {
        rating: 1500.0,
        uncertainty: 500.0,
    };
    let teams = [[fresh], [fresh], [fresh]];
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&result.placements)
        .map(|(t, p)| (&t[..], MultiTeamOutcome::new(usize::from(p.place))))
        .collect();
    let config = WengLinConfig {
        beta: 250.0,
        ..WengLinConfig::new()
    };
    let expected = weng_lin_multi_team(&ranked, &config);
    for (seat, who) in players.iter().enumerate() {
        let stored = rating_of(&server, who, 3)
            .await
            .expect("a rating at three seats");
        let want = expected[seat][0];
        assert!(
            (stored.rating - want.rating).abs() < 1e-9
                && (stored.deviation - want.uncertainty).abs() < 1e-9,
            "seat {seat}: stored {stored:?}, Weng-Lin says {want:?}"
        );
        assert_eq!(stored.games, 1);
        assert_eq!(changes[seat].after.rating, want.rating.round() as i32);
        assert_eq!(changes[seat].before.rating, 1500);
        assert!(
            rating_of(&server, who, 2).await.is_none(),
            "no two-seat rating"
        );
    }
    // The winner gained, the last lost.
    assert!(expected[1][0].rating < 1500.0);

    // The public state says the same, in version 3's words either way.
    let state: SeatSnapshot = server.get(&format!("/api/games/{}", table.game)).await;
    assert_eq!(state.result.as_ref(), Some(&result));
    assert_eq!(state.seats.len(), 3);
    assert_eq!(state.ratings.as_ref(), Some(&changes));
    let state3: SeatSnapshot = server
        .get(&format!("/api/games/{}?protocol=3", table.game))
        .await;
    assert_eq!(state3, state);
    watcher.close().await;
    table.close().await;
    server.stop();
    db.finish().await;
}

/// Four seats from one invite: a draw offered by one seat, agreed by two, declined by the
/// fourth; offered again, it ends the game only with the fourth seat's agreement.
async fn four_seat_draw_needs_everyone(db: Db) {
    let server = Rated::start(&db.url());
    let (created, joined) = invite_table(server.addr, 4).await;
    let tokens = tokens_of(&created, &joined);
    let mut table = SeatTable::sit(server.addr, &created.game, &tokens).await;
    table.play(4).await;
    let offer = |o| ClientMessage::Offer {
        offer: o,
        ply: None,
    };
    let accept = ClientMessage::Accept {
        offer: OfferKind::Draw,
        ply: None,
    };
    let offer_by = |by: SeatIndex| move |m: &SeatServerMessage| matches!(m, SeatServerMessage::Offer { offer: OfferKind::Draw, by: b, .. } if *b == by);

    table.seats[0].send(&offer(OfferKind::Draw)).await;
    table.all_until(offer_by(0)).await;
    table.seats[1].send(&accept).await;
    table.all_until(offer_by(1)).await;
    // Offering what another seat offered agrees too.
    table.seats[2].send(&offer(OfferKind::Draw)).await;
    table.all_until(offer_by(2)).await;
    // Three of four agree: the game goes on, and the snapshot shows who agrees.
    let state: SeatSnapshot = server.get(&format!("/api/games/{}", table.game)).await;
    assert_eq!(state.status, boardcraft_protocol::GameStatus::Playing);
    assert_eq!(state.offers.len(), 1);
    assert_eq!(state.offers[0].agreed, [0, 1, 2]);
    table.seats[3]
        .send(&ClientMessage::Decline {
            offer: OfferKind::Draw,
        })
        .await;
    let declined = table
        .all_until(|m| matches!(m, SeatServerMessage::OfferDeclined { .. }))
        .await;
    assert_eq!(
        declined,
        SeatServerMessage::OfferDeclined {
            offer: OfferKind::Draw,
            by: 3
        }
    );
    // Accepting a declined offer: none is pending.
    table.seats[1].send(&accept).await;
    assert_eq!(
        table.seats[1].error_code_seats().await.0,
        ErrorCode::NoOffer
    );

    // Again, and this time all four agree.
    table.play(1).await;
    table.seats[1].send(&offer(OfferKind::Draw)).await;
    table.all_until(offer_by(1)).await;
    for seat in [0, 2] {
        table.seats[seat].send(&accept).await;
        table.all_until(offer_by(seat as SeatIndex)).await;
    }
    table.seats[3].send(&accept).await;
    let SeatServerMessage::GameOver {
        result, ratings, ..
    } = table
        .all_until(|m| matches!(m, SeatServerMessage::GameOver { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(result.cause, EndCause::DrawAgreed);
    assert_eq!(result.placements, SeatResult::places(&[1, 1, 1, 1]));
    assert_eq!(ratings, None, "an invite game is not rated");
    table.close().await;
    server.stop();
    db.finish().await;
}

/// Clients of protocol 2 are refused from a three-seat game, seat or spectator, while a
/// two-seat game on the same server plays on as version 2 always did.
async fn version_2_beside_three_seats(db: Db) {
    let server = Rated::start(&db.url());
    let (created, joined) = invite_table(server.addr, 3).await;
    let url = format!("ws://{}/ws", server.addr);
    assert_eq!(
        refused_hello(
            &url,
            &created.game,
            PROTOCOL_VERSION,
            Some(&joined[0].token)
        )
        .await,
        (ErrorCode::UnsupportedProtocol, true)
    );
    assert_eq!(
        refused_hello(&url, &created.game, 1, None).await,
        (ErrorCode::UnsupportedProtocol, true)
    );
    // Its public state has no version-2 form: version 3's.
    let state: SeatSnapshot = server.get(&format!("/api/games/{}", created.game)).await;
    assert_eq!(state.seats.len(), 3);

    // A two-seat game, version 2 throughout.
    let (status, text) = http(
        server.addr,
        "POST",
        "/api/games",
        Some(r#"{"variant":"chinese-checkers","color":"white"}"#),
    )
    .await;
    assert_eq!(status, 201, "{text}");
    let two: GameCreated = serde_json::from_str(&text).unwrap();
    let (status, text) = http(
        server.addr,
        "POST",
        &format!("/api/invites/{}", two.invite),
        None,
    )
    .await;
    assert_eq!(status, 200, "{text}");
    let other: SeatJoined = serde_json::from_str(&text).unwrap();
    assert_eq!((two.seat, other.seat), (0, 1));
    assert_eq!(other.color, boardcraft_protocol::Side::Black);
    let mut white = Client::join_url(&url, &two.game, Some(&two.token)).await;
    let mut black = Client::join_url(&url, &two.game, Some(&other.token)).await;
    let mut mirror = crate::support::Mirror::of(white.welcome_game());
    let mut picker = SeededMoves::new(5);
    for ply in 0..6u32 {
        let notation = mirror.random_move(&mut picker);
        let msg = ClientMessage::Move {
            ply,
            notation: notation.clone(),
        };
        match mirror.side() {
            boardcraft_protocol::Side::White => white.send(&msg).await,
            boardcraft_protocol::Side::Black => black.send(&msg).await,
        }
        mirror.apply(&notation);
        for c in [&mut white, &mut black] {
            let moved = c
                .recv_until(|m| matches!(m, ServerMessage::Moved { .. }))
                .await;
            let ServerMessage::Moved { hash, ply: p, .. } = moved else {
                unreachable!()
            };
            assert_eq!((p, hash), (ply, mirror.hash()));
        }
    }
    black.send(&ClientMessage::Resign).await;
    let over = white
        .recv_until(|m| matches!(m, ServerMessage::GameOver { .. }))
        .await;
    let ServerMessage::GameOver { result, .. } = over else {
        unreachable!()
    };
    assert_eq!(result.winner, Some(boardcraft_protocol::Side::White));
    assert_eq!(result.cause, EndCause::Resignation);
    white.close().await;
    black.close().await;
    server.stop();
    db.finish().await;
}

/// A three-seat game outlives its server: moves, the seat that left and the turn to move are
/// what they were when the new server loads it from the same database, and play goes on.
async fn three_seats_survive_a_restart(db: Db) {
    let server = Rated::start(&db.url());
    let (created, joined) = invite_table(server.addr, 3).await;
    let tokens = tokens_of(&created, &joined);
    let mut table = SeatTable::sit(server.addr, &created.game, &tokens).await;
    table.play(4).await;
    table.resign_and_play_on(2).await;
    table.play(3).await;
    let before: SeatSnapshot = server.get(&format!("/api/games/{}", created.game)).await;
    let (moves, hash) = (table.mirror.moves.clone(), table.mirror.hash());
    table.close().await;
    server.stop();

    let server = Rated::start(&db.url());
    let mut table = SeatTable::sit(server.addr, &created.game, &tokens).await;
    assert_eq!(table.mirror.moves, moves);
    assert_eq!(table.mirror.hash(), hash);
    assert_eq!(table.mirror.departed, [2]);
    let after: SeatSnapshot = server.get(&format!("/api/games/{}", created.game)).await;
    assert_eq!(
        (
            after.moves,
            after.hash,
            after.to_move,
            after.left,
            after.status
        ),
        (
            before.moves,
            before.hash,
            before.to_move,
            before.left,
            before.status
        )
    );
    // Play goes on between seats 0 and 1.
    table.play(4).await;
    table.close().await;
    server.stop();
    db.finish().await;
}

/// A seat gone past the grace period leaves by itself (abandoned, placed last): nobody has
/// to claim it, the server's computer plays it, the two others play on to the end, and the
/// person who comes back watches — the seat is the computer's now.
async fn a_gone_seat_is_taken_over_by_the_computer(db: Db) {
    let server = Rated::start(&db.url());
    let (created, joined) = invite_table(server.addr, 3).await;
    let tokens = tokens_of(&created, &joined);
    let mut table = SeatTable::sit(server.addr, &created.game, &tokens).await;
    table.play(3).await;
    // Too early: seat 2 is connected.
    table.seats[0].send(&ClientMessage::ClaimVictory).await;
    assert_eq!(
        table.seats[0].error_code_seats().await,
        (ErrorCode::ClaimNotAllowed, false)
    );
    let gone = table.seats.pop().expect("seat 2");
    gone.close().await;
    table
        .all_until(|m| {
            matches!(
                m,
                SeatServerMessage::Presence {
                    seat: 2,
                    presence: boardcraft_protocol::Presence::Gone { .. }
                }
            )
        })
        .await;
    // The grace (300 ms in these servers) passes: the seat leaves without a claim.
    let SeatServerMessage::Snapshot { reason, game } = table
        .all_until(|m| matches!(m, SeatServerMessage::Snapshot { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(reason, SnapshotReason::SeatLeft);
    assert_eq!(game.left.len(), 1);
    assert_eq!(
        (game.left[0].seat, game.left[0].place, &game.left[0].cause),
        (2, 3, &EndCause::Abandoned)
    );
    table.mirror.leave(2);
    assert_eq!(game.hash, table.mirror.hash());
    table.play(4).await;

    // The person comes back: welcomed to the seat, but the computer moves for it.
    let url = format!("ws://{}/ws?game={}", server.addr, created.game);
    let (mut back, welcome) = join_seats_url(&url, &created.game, Some(&tokens[2])).await;
    assert!(matches!(
        welcome,
        SeatServerMessage::Welcome { you: Some(2), .. }
    ));
    let notation = table.mirror.random_move(&mut SeededMoves::new(3));
    let ply = table.mirror.moves.len() as u32;
    back.send(&ClientMessage::Move { ply, notation }).await;
    assert_eq!(back.error_code_seats().await.0, ErrorCode::ReadOnly);
    back.close().await;

    table.greedy = true;
    let result = table.play_to_end().await;
    assert_eq!(result.place_of(2), Some(3), "{result:?}");
    assert_eq!(
        [result.place_of(0), result.place_of(1)]
            .map(Option::unwrap)
            .iter()
            .sum::<u8>(),
        3,
        "seats 0 and 1 first and second: {result:?}"
    );
    table.close().await;
    server.stop();
    db.finish().await;
}

/// Focus for four is played by two partnerships (opposite seats): a partner who resigns is
/// replaced by the computer and the table plays on; when the other partner resigns too, only
/// the other partnership is left playing and the game ends, the partnership first, the two who
/// left below it, each placed alone (no team: the ratings rank a leaver last).
async fn focus_partners_play_on_after_a_resignation(db: Db) {
    let server = Rated::start(&db.url());
    let (created, joined) = invite_table_of(server.addr, "focus", 4).await;
    let tokens = tokens_of(&created, &joined);
    let mut table = SeatTable::sit(server.addr, &created.game, &tokens).await;
    table.play(8).await;
    let snapshot = table.resign_and_play_on(0).await;
    assert_eq!(
        (snapshot.left[0].seat, snapshot.left[0].place),
        (0, 4),
        "placed last of the four"
    );
    // A round: the computer moves for seat 0.
    table.play(4).await;
    let plies = table.mirror.moves.len();
    table.seats[2].send(&ClientMessage::Resign).await;
    let SeatServerMessage::GameOver { result, .. } = table
        .all_until(|m| matches!(m, SeatServerMessage::GameOver { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(table.mirror.moves.len(), plies);
    assert_eq!(result.cause, EndCause::Resignation);
    assert_eq!(result.by, Some(2));
    let placed = |seat: SeatIndex| {
        let p = result
            .placements
            .iter()
            .find(|p| p.seat == seat)
            .expect("every seat placed");
        (p.place, p.team.is_some())
    };
    assert_eq!(placed(1), (1, true), "{result:?}");
    assert_eq!(placed(3), (1, true), "{result:?}");
    assert_eq!(
        placed(2),
        (3, false),
        "the last to leave, alone: {result:?}"
    );
    assert_eq!(
        placed(0),
        (4, false),
        "the first to leave, alone: {result:?}"
    );
    table.close().await;
    server.stop();
    db.finish().await;
}

/// A rated table of three that a seat leaves before every seat made two moves is aborted at
/// once: nobody's rating changes.
async fn an_early_leaver_aborts(db: Db) {
    let server = Rated::start(&db.url());
    let (players, made) = rated_table_of_three(&server).await;
    let mut table = SeatTable::sit(server.addr, &made.game, &made.tokens).await;
    table.play(4).await;
    table.seats[2].send(&ClientMessage::Resign).await;
    let SeatServerMessage::GameOver {
        result, ratings, ..
    } = table
        .all_until(|m| matches!(m, SeatServerMessage::GameOver { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(result.cause, EndCause::Aborted);
    assert_eq!(result.placements, SeatResult::places(&[1, 1, 1]));
    assert_eq!(ratings, None);
    for who in &players {
        assert!(rating_of(&server, who, 3).await.is_none(), "not rated");
    }
    table.close().await;
    server.stop();
    db.finish().await;
}

both!(
    three_seats_play_on,
    tables_sqlite_three_seats_play_on,
    tables_postgres_three_seats_play_on
);
both!(
    four_seat_draw_needs_everyone,
    tables_sqlite_four_seat_draw_needs_everyone,
    tables_postgres_four_seat_draw_needs_everyone
);
both!(
    version_2_beside_three_seats,
    tables_sqlite_version_2_beside_three_seats,
    tables_postgres_version_2_beside_three_seats
);
both!(
    an_early_leaver_aborts,
    tables_sqlite_an_early_leaver_aborts,
    tables_postgres_an_early_leaver_aborts
);
both!(
    a_gone_seat_is_taken_over_by_the_computer,
    tables_sqlite_a_gone_seat_is_taken_over_by_the_computer,
    tables_postgres_a_gone_seat_is_taken_over_by_the_computer
);
both!(
    focus_partners_play_on_after_a_resignation,
    tables_sqlite_focus_partners_play_on_after_a_resignation,
    tables_postgres_focus_partners_play_on_after_a_resignation
);
both!(
    three_seats_survive_a_restart,
    tables_sqlite_three_seats_survive_a_restart,
    tables_postgres_three_seats_survive_a_restart
);

// ----- several nodes

/// A protocol-3 websocket to `node` for `game`: the welcome's snapshot (`None`: refused or
/// cut, e.g. the game moved).
async fn connect_seats(
    node: &crate::support::Server,
    game: &str,
    token: Option<&str>,
) -> Option<(crate::support::WsStream, SeatSnapshot)> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let url = format!("ws://{}/ws?game={game}", node.addr);
    let (mut ws, _) = crate::support::wait(tokio_tungstenite::connect_async(url))
        .await
        .ok()?;
    let hello = ClientMessage::Hello {
        protocol: 3,
        game: game.to_owned(),
        token: token.map(str::to_owned),
        client: Some("cluster test, tables".into()),
    };
    ws.send(Message::Text(hello.to_json().into())).await.ok()?;
    loop {
        match crate::support::wait(ws.next()).await? {
            Ok(Message::Text(t)) => {
                match boardcraft_protocol::parse_seat_server_message(&t).ok()? {
                    SeatServerMessage::Welcome { game, .. } => return Some((ws, game)),
                    SeatServerMessage::Error { .. } => return None,
                    _ => continue,
                }
            }
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => continue,
        }
    }
}

/// Sends `msg` (if any) and waits for what acknowledges it (`done`); `None` if the
/// connection went first (the game moved to the other node).
async fn ask_seats(
    ws: &mut crate::support::WsStream,
    msg: Option<&ClientMessage>,
    done: impl Fn(&SeatServerMessage) -> bool,
) -> Option<SeatServerMessage> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    if let Some(msg) = msg {
        ws.send(Message::Text(msg.to_json().into())).await.ok()?;
    }
    loop {
        let Some(Ok(frame)) = crate::support::wait(ws.next()).await else {
            return None;
        };
        let Message::Text(t) = frame else {
            if matches!(frame, Message::Close(_)) {
                return None;
            }
            continue;
        };
        let m = boardcraft_protocol::parse_seat_server_message(&t).unwrap();
        if done(&m) {
            return Some(m);
        }
        match m {
            SeatServerMessage::Error {
                code: ErrorCode::GameMoved,
                ..
            } => return None,
            SeatServerMessage::Error { code, message, .. } => panic!("refused {code}: {message}"),
            _ => continue,
        }
    }
}

/// A three-seat table on two nodes of one PostgreSQL: each move is sent to one node or the
/// other while a spectator opens the game on the other (a handover each time), and a seat
/// resigns halfway; from then on the server's computer plays that seat on whichever node runs
/// the game (its turns are watched for from one node or the other, a handover each time).
/// Every acknowledged move is stored once, in order, the departure with it, and both nodes
/// serve the same game.
#[tokio::test]
async fn tables_postgres_a_table_moves_between_nodes() {
    use crate::support::{Server, postgres_url, settings};
    let Some(url) = postgres_url() else { return };
    let nodes = [
        std::sync::Arc::new(Server::start_on(&url, settings()).await),
        std::sync::Arc::new(Server::start_on(&url, settings()).await),
    ];
    let (created, joined) = invite_table(nodes[0].addr, 3).await;
    let game = created.game.clone();
    let tokens = tokens_of(&created, &joined);
    let (_, snapshot) = connect_seats(&nodes[1], &game, None)
        .await
        .expect("a welcome");
    let mut mirror = SeatMirror::of(&snapshot);
    let mut picker = SeededMoves::new(31);
    let mut acked: Vec<String> = Vec::new();
    let mut step = 0usize;
    while acked.len() < 24 {
        let ply = acked.len() as u32;
        if mirror.departed.contains(&mirror.seat()) {
            let played = computer_move(&nodes, &game, ply, &mut step).await;
            mirror.apply(&played);
            acked.push(played);
            continue;
        }
        let resign = ply == 9 && mirror.departed.is_empty();
        let seat = if resign { 1 } else { mirror.seat() };
        let notation = mirror.random_move(&mut picker);
        let mut attempt = 0usize;
        loop {
            step += 1;
            attempt += 1;
            assert!(attempt < 50, "ply {ply} never acknowledged");
            let node = &nodes[step % 2];
            let other = nodes[(step + 1) % 2].clone();
            let Some((mut ws, welcome)) =
                connect_seats(node, &game, Some(&tokens[usize::from(seat)])).await
            else {
                continue;
            };
            if resign && welcome.left.iter().any(|l| l.seat == 1) {
                // Stored before the connection was cut: the departure is there.
                break;
            }
            if !resign && welcome.ply == ply + 1 {
                // A resend after a lost connection: the stored move is acknowledged again.
                assert_eq!(welcome.moves[ply as usize], notation);
            }
            let id = game.clone();
            let spectator = tokio::spawn(async move { connect_seats(&other, &id, None).await });
            tokio::time::sleep(std::time::Duration::from_millis((step as u64 * 5) % 8)).await;
            let answer = if resign {
                ask_seats(&mut ws, Some(&ClientMessage::Resign), |m| {
                    matches!(
                        m,
                        SeatServerMessage::Snapshot {
                            reason: SnapshotReason::SeatLeft,
                            ..
                        }
                    )
                })
                .await
            } else {
                ask_seats(
                    &mut ws,
                    Some(&ClientMessage::Move {
                        ply,
                        notation: notation.clone(),
                    }),
                    |m| matches!(m, SeatServerMessage::Moved { ply: p, .. } if *p == ply),
                )
                .await
            };
            let _ = spectator.await;
            if answer.is_some() {
                break;
            }
        }
        if resign {
            mirror.leave(1);
        } else {
            mirror.apply(&notation);
            acked.push(notation);
        }
    }
    let store = boardcraft_server::storage::open(&url).await.unwrap();
    let stored = store.load_game(game.clone()).await.unwrap().unwrap();
    let moves: Vec<String> = stored.moves.iter().map(|m| m.notation.clone()).collect();
    assert_eq!(moves, acked, "every acknowledged move once, in order");
    assert_eq!(stored.left.len(), 1);
    assert_eq!((stored.left[0].seat, stored.left[0].ply), (1, 9));
    assert!(
        stored.moves.len() > 10 && stored.moves[10].ply == 10,
        "the computer played seat 1's turn at ply 10"
    );
    // Whichever node answers, the game is the one the moves and the departure replay to.
    for node in &nodes {
        let (_, snapshot) = connect_seats(node, &game, None).await.expect("a welcome");
        assert_eq!(snapshot.hash, mirror.hash());
        assert_eq!(snapshot.to_move, mirror.seat());
    }
}

/// Waits for the server's computer to play ply `ply`, watching from one node or the other
/// (each look may hand the game over, and the computer with it); its move.
async fn computer_move(
    nodes: &[std::sync::Arc<crate::support::Server>; 2],
    game: &str,
    ply: u32,
    step: &mut usize,
) -> String {
    for _ in 0..50 {
        *step += 1;
        let Some((mut ws, welcome)) = connect_seats(&nodes[*step % 2], game, None).await else {
            continue;
        };
        if let Some(played) = welcome.moves.get(ply as usize) {
            return played.clone();
        }
        let moved = ask_seats(
            &mut ws,
            None,
            |m| matches!(m, SeatServerMessage::Moved { ply: p, .. } if *p == ply),
        )
        .await;
        if let Some(SeatServerMessage::Moved { notation, .. }) = moved {
            return notation;
        }
    }
    panic!("the computer never played ply {ply}");
}
