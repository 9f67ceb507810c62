//! Online play through a real `boardcraft-server` in this test process (bound to 127.0.0.1:0,
//! SQLite in a temporary folder), with real websocket and HTTP clients: the apps' own
//! (ewebsock, ehttp). Two headless apps are two players, each with its own storage.
use std::time::{Duration, Instant};

use bevy::prelude::*;
use boardcraft::{
    game::{
        config::{PlayerKind, Players},
        match_state::{AppState, EndCause, Match, MoveRequested, TurnPhase},
    },
    online::{NoticeKind, Online, OnlineCommand, Stage, link::LinkState},
    persistence::storage::Storage,
    settings::Language,
    ui::online::text,
    view::animation::PieceLanded,
};
use boardcraft_protocol::{ColorChoice, OfferKind, Side, seat_of};
use boardcraft_rules::{AnyPosition, Position, Seat};

use crate::common::{
    Landings, app_for, finished_line, humans, phase, record_landings, stable_phase,
};

/// A server on a free loopback port, on a runtime of its own, for the test's lifetime.
pub(crate) struct TestServer {
    pub(crate) url: String,
    _runtime: tokio::runtime::Runtime,
    _dir: tempfile::TempDir,
}

fn start_server() -> TestServer {
    start_server_with(boardcraft_server::Settings::default())
}

pub(crate) fn start_server_with(settings: boardcraft_server::Settings) -> TestServer {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(boardcraft_server::SQLITE_FILE);
    let store = runtime
        .block_on(boardcraft_server::storage::open(&path.to_string_lossy()))
        .expect("the SQLite store opens");
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a loopback port");
    let url = format!("http://{}", listener.local_addr().unwrap());
    runtime.spawn(boardcraft_server::serve(
        listener,
        store,
        settings,
        std::future::pending(),
    ));
    TestServer {
        url,
        _runtime: runtime,
        _dir: dir,
    }
}

/// A player's app: headless, started on the default game, pointed at the server.
pub(crate) fn player(server: &TestServer) -> App {
    let mut app = app_for("ugolki-hg-3x3", "", humans());
    record_landings(&mut app);
    app.world_mut()
        .write_message(OnlineCommand::SetServer(server.url.clone()));
    app
}

pub(crate) fn online(app: &App) -> &Online {
    app.world().resource::<Online>()
}

pub(crate) fn game(app: &App) -> &Match {
    app.world().resource::<Match>()
}

pub(crate) fn line(app: &App) -> String {
    app.world()
        .get_resource::<Match>()
        .map(|m| m.line())
        .unwrap_or_default()
}

/// Steps every app (with a short real pause: the sockets live on threads) until `done`; panics
/// after `seconds` of real time.
pub(crate) fn run_all(
    apps: &mut [&mut App],
    seconds: f64,
    what: &str,
    done: impl Fn(&[&mut App]) -> bool,
) {
    let start = Instant::now();
    loop {
        if done(apps) {
            return;
        }
        if start.elapsed().as_secs_f64() > seconds {
            let states: Vec<String> = apps
                .iter()
                .map(|a| {
                    let o = online(a);
                    format!(
                        "stage {:?} link {:?} seat {:?} status {:?} server moves {:?} pending {:?} notice {:?} rebuilds {} desyncs {} phase {:?} | board: {}",
                        o.stage, o.link, o.seat, o.status, o.moves, o.pending, o.notice, o.rebuilds, o.desyncs, phase(a.world()), line(a)
                    )
                })
                .collect();
            panic!("{what}: not within {seconds} s\n{}", states.join("\n"));
        }
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Settled: the board shows the session's game, online, nothing pending or animating.
pub(crate) fn settled(app: &App) -> bool {
    let o = online(app);
    let Some(game) = app.world().get_resource::<Match>() else {
        return false;
    };
    o.shows(game)
        && o.link == Some(LinkState::Online)
        && o.pending.is_none()
        && matches!(
            stable_phase(app.world()),
            Some(TurnPhase::Ready | TurnPhase::GameOver)
        )
        && game.history.len() == o.moves.len()
}

/// A creates a game of `variant` as White; B joins by its invite; both are in and settled.
fn start_game(server: &TestServer, variant: &str) -> (App, App) {
    let mut a = player(server);
    let mut b = player(server);
    a.world_mut().write_message(OnlineCommand::Create {
        variant: variant.into(),
        color: ColorChoice::White,
        time_control: None,
    });
    run_all(&mut [&mut a], 30.0, "the game created", |apps| {
        online(apps[0]).invite.is_some() && settled(apps[0])
    });
    assert_eq!(online(&a).seat, Some(seat_of(Side::White)));
    let invite = online(&a).invite.clone().unwrap();
    // The link, as a friend would paste it.
    let link = online(&a).invite_url.clone().unwrap();
    assert!(link.ends_with(&format!("?join={invite}")), "{link}");
    b.world_mut()
        .write_message(OnlineCommand::Join { invite: link });
    run_all(&mut [&mut a, &mut b], 30.0, "both players in", |apps| {
        apps.iter().all(|a| settled(a) && online(a).is_playing())
    });
    assert_eq!(online(&b).seat, Some(seat_of(Side::Black)));
    assert_eq!(game(&a).variant.name, variant);
    assert_eq!(game(&b).variant.name, variant);
    // The remote side is the remote player: nobody's clicks move it.
    let players = |app: &App| app.world().resource::<Players>().clone();
    assert_eq!(players(&a).of(Seat::BLACK), PlayerKind::Remote);
    assert_eq!(players(&b).of(Seat::WHITE), PlayerKind::Remote);
    (a, b)
}

/// Plays `notation` as the local player of `app` would by clicking.
pub(crate) fn play(app: &mut App, notation: &str) {
    crate::common::request(app, notation);
}

/// The move the side to move plays: the longest chain of jumps, the first in the rules' order.
pub(crate) fn longest_chain(position: &AnyPosition) -> String {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let notations: Vec<String> = moves.iter().map(|m| position.format_move(m)).collect();
    let hops = |m: &String| m.matches(':').count();
    notations
        .iter()
        .fold(None::<&String>, |best, m| match best {
            Some(b) if hops(b) >= hops(m) => Some(b),
            _ => Some(m),
        })
        .expect("a legal move")
        .clone()
}

/// Plays `moves` alternately from the apps of the side to move, waiting after each for both
/// boards to settle on the same line.
fn play_line<'a>(a: &mut App, b: &mut App, moves: impl IntoIterator<Item = &'a str>) {
    for notation in moves {
        let mover_is_a = game(a).position.side_to_move() == boardcraft_rules::Seat::WHITE;
        let n = game(a).history.len() + 1;
        if mover_is_a {
            play(a, notation);
        } else {
            play(b, notation);
        }
        run_all(
            &mut [a, b],
            30.0,
            &format!("{notation} on both boards"),
            |apps| {
                apps.iter()
                    .all(|x| settled(x) && game(x).history.len() == n)
            },
        );
        assert_eq!(line(a), line(b));
    }
}

#[test]
fn two_apps_play_a_game_to_its_end_through_the_server() {
    let server = start_server();
    let (mut a, mut b) = start_game(&server, "gipf-basic");
    let moves = finished_line("gipf-basic");
    play_line(&mut a, &mut b, moves.iter().map(String::as_str));
    // Both boards: the rules' final position of that line, and the game over on both.
    let v = boardcraft_rules::shipped_variant("gipf-basic").unwrap();
    let mut expected = v.new_game();
    for m in &moves {
        let mv = expected.parse_move(m).unwrap();
        expected.play(&mv).unwrap();
    }
    for app in [&a, &b] {
        assert_eq!(game(app).position.hash(), expected.hash());
        assert_eq!(game(app).outcome(), expected.outcome());
        assert_eq!(phase(app.world()), Some(TurnPhase::GameOver));
        assert_eq!(online(app).moves, moves, "the server's record");
    }
    run_all(&mut [&mut a, &mut b], 10.0, "the server's result", |apps| {
        apps.iter().all(|a| online(a).result.is_some())
    });
}

#[test]
fn the_opponents_jump_chain_lands_hop_by_hop_and_both_boards_agree() {
    let server = start_server();
    let (mut a, mut b) = start_game(&server, "ugolki-hg-3x3");
    let mut chains = 0;
    for _ in 0..16 {
        let mover_is_a = game(&a).position.side_to_move() == boardcraft_rules::Seat::WHITE;
        let notation = longest_chain(&game(&a).position);
        let ply = game(&a).position.ply() + 1;
        play_line(&mut a, &mut b, [notation.as_str()]);
        // The receiving board animated the move one landing per hop, in order.
        let receiver = if mover_is_a { &b } else { &a };
        let landings: Vec<&PieceLanded> = receiver
            .world()
            .resource::<Landings>()
            .0
            .iter()
            .map(|(_, l)| l)
            .filter(|l| l.ply == ply && l.game_id == game(receiver).game_id)
            .collect();
        let hops = notation.split([':', '-']).count() - 1;
        assert_eq!(landings.len(), hops, "{notation}: {landings:?}");
        for (i, l) in landings.iter().enumerate() {
            assert_eq!((l.index, l.of), (i, hops), "{notation}");
        }
        if hops > 1 {
            chains += 1;
        }
    }
    assert!(chains > 0, "no chain of jumps was played: {}", line(&a));
    // The server's record is the boards' line.
    assert_eq!(online(&a).moves.join(" "), line(&a));
}

#[test]
fn a_dropped_connection_reconnects_and_resyncs() {
    let server = start_server();
    let (mut a, mut b) = start_game(&server, "ugolki-hg-3x3");
    let first = longest_chain(&game(&a).position);
    play_line(&mut a, &mut b, [first.as_str()]);
    let connections = online(&b).connections;
    b.world_mut().write_message(OnlineCommand::DropConnection);
    b.update();
    assert!(matches!(
        online(&b).link,
        Some(LinkState::Reconnecting { .. })
    ));
    // Black's turn: B plays its reply once it is back.
    run_all(&mut [&mut a, &mut b], 30.0, "b back online", |apps| {
        online(apps[1]).connections > connections && settled(apps[1])
    });
    let reply = longest_chain(&game(&b).position);
    play_line(&mut a, &mut b, [reply.as_str()]);
    // Now drop B while A moves: B gets the move from the resync on its return.
    b.world_mut().write_message(OnlineCommand::DropConnection);
    b.update();
    let next = longest_chain(&game(&a).position);
    play(&mut a, &next);
    run_all(&mut [&mut a], 30.0, "a's move stored", |apps| {
        settled(apps[0])
    });
    run_all(&mut [&mut a, &mut b], 30.0, "b resynced", |apps| {
        settled(apps[1]) && game(apps[1]).history.len() == 3
    });
    assert_eq!(line(&a), line(&b));
    assert!(online(&b).connections >= connections + 2);
    // The move B missed was played on its board (animated), not rebuilt.
    assert_eq!(online(&b).rebuilds, 0);
}

#[test]
fn a_move_the_server_refuses_is_taken_back() {
    let server = start_server();
    let mut a = player(&server);
    a.world_mut().write_message(OnlineCommand::Create {
        variant: "ugolki-hg-3x3".into(),
        color: ColorChoice::White,
        time_control: None,
    });
    run_all(&mut [&mut a], 30.0, "the game created", |apps| {
        settled(apps[0]) && online(apps[0]).invite.is_some()
    });
    // Nobody has joined: the server refuses any move. The rules allow it, so the board plays
    // it first …
    let mv = longest_chain(&game(&a).position);
    play(&mut a, &mv);
    run_all(&mut [&mut a], 10.0, "the move played and sent", |apps| {
        game(apps[0]).history.len() == 1 || online(apps[0]).notice.is_some()
    });
    // … and takes it back with the server's reason.
    run_all(&mut [&mut a], 30.0, "the move taken back", |apps| {
        settled(apps[0]) && game(apps[0]).history.is_empty()
    });
    let notice = online(&a).notice.clone().expect("a notice");
    assert_eq!(notice.kind, NoticeKind::MoveRefused);
    assert!(!notice.detail.is_empty());
}

#[test]
fn a_desync_is_repaired_from_the_servers_record() {
    let server = start_server();
    let (mut a, mut b) = start_game(&server, "ugolki-hg-3x3");
    // B's board gets a White move the server never saw (as a bug or a tampered client would).
    let mut moves = Vec::new();
    game(&b).position.legal_moves(&mut moves);
    let rogue = game(&b).position.format_move(&moves[moves.len() - 1]);
    let real = longest_chain(&game(&a).position);
    assert_ne!(rogue, real);
    let world = b.world_mut();
    let g = world.resource::<Match>();
    let request = MoveRequested {
        mv: moves[moves.len() - 1].clone(),
        game_id: g.game_id,
        ply: 0,
    };
    world.write_message(request);
    run_all(&mut [&mut b], 10.0, "the rogue move on b", |apps| {
        game(apps[0]).history.len() == 1
    });
    // A plays its real move: B notices the difference and rebuilds from the server's record.
    // B's board counts one move as the server's record does from the frame the real move
    // arrives, before the rebuild a frame later: the wait is for the rebuilt board.
    play(&mut a, &real);
    run_all(
        &mut [&mut a, &mut b],
        30.0,
        "the real move on both boards, b rebuilt",
        |apps| {
            apps.iter()
                .all(|x| settled(x) && game(x).history.len() == 1 && line(x) == real)
        },
    );
    assert_eq!(line(&b), real);
    assert!(online(&b).rebuilds >= 1);
}

#[test]
fn a_draw_offer_and_a_takeback_are_answered() {
    let server = start_server();
    let (mut a, mut b) = start_game(&server, "ugolki-hg-3x3");
    let first = longest_chain(&game(&a).position);
    play_line(&mut a, &mut b, [first.as_str()]);
    let reply = longest_chain(&game(&b).position);
    play_line(&mut a, &mut b, [reply.as_str()]);
    // Takeback: Black asks, White accepts; both boards lose Black's move.
    b.world_mut()
        .write_message(OnlineCommand::Offer(OfferKind::Takeback));
    run_all(
        &mut [&mut a, &mut b],
        30.0,
        "the takeback request",
        |apps| {
            online(apps[0])
                .offer_to_answer(OfferKind::Takeback)
                .is_some()
        },
    );
    a.world_mut()
        .write_message(OnlineCommand::Accept(OfferKind::Takeback));
    run_all(&mut [&mut a, &mut b], 30.0, "the move taken back", |apps| {
        apps.iter()
            .all(|x| settled(x) && game(x).history.len() == 1)
    });
    assert_eq!(line(&a), first);
    assert_eq!(line(&b), first);
    // Draw: White offers, Black declines; then Black offers and White accepts.
    a.world_mut()
        .write_message(OnlineCommand::Offer(OfferKind::Draw));
    run_all(&mut [&mut a, &mut b], 30.0, "the draw offer", |apps| {
        online(apps[1]).offer_to_answer(OfferKind::Draw).is_some()
    });
    b.world_mut()
        .write_message(OnlineCommand::Decline(OfferKind::Draw));
    run_all(&mut [&mut a, &mut b], 30.0, "the decline", |apps| {
        online(apps[0])
            .notice
            .as_ref()
            .is_some_and(|n| n.kind == NoticeKind::Declined(OfferKind::Draw))
    });
    b.world_mut()
        .write_message(OnlineCommand::Offer(OfferKind::Draw));
    run_all(&mut [&mut a, &mut b], 30.0, "the second offer", |apps| {
        online(apps[0]).offer_to_answer(OfferKind::Draw).is_some()
    });
    a.world_mut()
        .write_message(OnlineCommand::Accept(OfferKind::Draw));
    run_all(
        &mut [&mut a, &mut b],
        30.0,
        "the draw on both boards",
        |apps| {
            apps.iter()
                .all(|x| phase(x.world()) == Some(TurnPhase::GameOver))
        },
    );
    for app in [&a, &b] {
        let end = game(app).end().expect("the game is over");
        assert_eq!(end.cause, EndCause::DrawAgreed);
        assert_eq!(end.winner(), None);
    }
}

#[test]
fn a_restarted_app_takes_its_seat_again_and_a_spectator_is_counted() {
    let server = start_server();
    let (mut a, mut b) = start_game(&server, "ugolki-hg-3x3");
    let first = longest_chain(&game(&a).position);
    play_line(&mut a, &mut b, [first.as_str()]);
    // B closes and starts again with the same data (its storage): the same invite takes the
    // same seat with the stored token.
    let storage: Storage = b.world().resource::<Storage>().clone();
    let invite = online(&a).invite.clone().unwrap();
    drop(b);
    let mut b = player(&server);
    b.insert_resource(storage);
    b.world_mut().write_message(OnlineCommand::Join { invite });
    run_all(&mut [&mut a, &mut b], 30.0, "b back in its seat", |apps| {
        settled(apps[1]) && online(apps[1]).is_playing()
    });
    assert_eq!(online(&b).seat, Some(seat_of(Side::Black)));
    assert_eq!(line(&b), first);
    // A third friend opens the invite: the seat is taken, and the refusal names the game, so
    // it can be watched (the online window offers it).
    let mut c = player(&server);
    let invite = online(&a).invite.clone().unwrap();
    c.world_mut().write_message(OnlineCommand::Join { invite });
    run_all(&mut [&mut c], 30.0, "the seat taken", |apps| {
        online(apps[0]).notice.as_ref().map(|n| n.kind) == Some(NoticeKind::SeatTaken)
    });
    let id = online(&c).watchable.clone().expect("the taken seat's game");
    assert_eq!(Some(&id), online(&a).game.as_ref());
    // It watches: both players see the count; the spectator cannot move.
    c.world_mut()
        .write_message(OnlineCommand::Watch { game: id });
    run_all(
        &mut [&mut a, &mut b, &mut c],
        30.0,
        "the spectator counted",
        |apps| {
            settled(apps[2]) && online(apps[0]).spectators == 1 && online(apps[1]).spectators == 1
        },
    );
    assert_eq!(online(&c).seat, None);
    let players = c.world().resource::<Players>().clone();
    assert_eq!(
        (players.of(Seat::WHITE), players.of(Seat::BLACK)),
        (PlayerKind::Remote, PlayerKind::Remote)
    );
    assert_eq!(online(&c).stage, Stage::InGame);
    assert_eq!(app_state(&c), AppState::InGame);
}

fn app_state(app: &App) -> AppState {
    *app.world().resource::<State<AppState>>().get()
}

#[test]
fn online_texts_exist_in_every_language() {
    for &key in text::Say::ALL {
        let en = text::say(Language::English, key);
        let ru = text::say(Language::Russian, key);
        assert!(!en.trim().is_empty() && !ru.trim().is_empty(), "{key:?}");
        let placeholders = |s: &str| {
            let mut names: Vec<String> = s
                .split('{')
                .skip(1)
                .filter_map(|p| p.split_once('}').map(|(n, _)| n.to_owned()))
                .collect();
            names.sort();
            names
        };
        assert_eq!(placeholders(en), placeholders(ru), "{key:?}");
        assert!(
            ru.chars()
                .any(|c| ('а'..='я').contains(&c.to_lowercase().next().unwrap())),
            "{key:?} is not Russian: {ru}"
        );
    }
    assert_eq!(text::clock_text(300_000), "5:00");
    assert_eq!(text::clock_text(7_300), "0:07.3");
}

#[test]
fn a_flag_fall_and_an_abandoned_game_end_in_words() {
    // Time: each side has 1.5 s for the whole game.
    let server = start_server_with(boardcraft_server::Settings {
        grace: Duration::from_millis(800),
        ..Default::default()
    });
    let mut a = player(&server);
    let mut b = player(&server);
    a.world_mut().write_message(OnlineCommand::Create {
        variant: "ugolki-hg-3x3".into(),
        color: ColorChoice::White,
        time_control: Some(boardcraft_protocol::TimeControl {
            initial_ms: 1500,
            increment_ms: 0,
        }),
    });
    run_all(&mut [&mut a], 30.0, "the game created", |apps| {
        settled(apps[0]) && online(apps[0]).invite.is_some()
    });
    let invite = online(&a).invite.clone().unwrap();
    b.world_mut().write_message(OnlineCommand::Join { invite });
    run_all(&mut [&mut a, &mut b], 30.0, "both in", |apps| {
        apps.iter().all(|x| settled(x) && online(x).is_playing())
    });
    assert_eq!(
        online(&a).remaining_ms(seat_of(Side::White), 0.0),
        Some(1500)
    );
    // The clocks run from the third ply on (each side's first move is free): White, to move
    // then, does not move.
    let first = longest_chain(&game(&a).position);
    play_line(&mut a, &mut b, [first.as_str()]);
    let reply = longest_chain(&game(&b).position);
    play_line(&mut a, &mut b, [reply.as_str()]);
    assert_eq!(online(&a).running(), Some(seat_of(Side::White)));
    run_all(&mut [&mut a, &mut b], 30.0, "White's flag falls", |apps| {
        apps.iter()
            .all(|x| phase(x.world()) == Some(TurnPhase::GameOver))
    });
    for app in [&a, &b] {
        let end = game(app).end().unwrap();
        assert_eq!(end.cause, EndCause::Timeout(boardcraft_rules::Seat::WHITE));
        assert_eq!(end.winner(), Some(boardcraft_rules::Seat::BLACK));
    }

    // Abandonment: a new untimed game; B goes away for good, A claims after the grace period.
    let (mut a, b) = start_game(&server, "ugolki-hg-3x3");
    drop(b);
    run_all(&mut [&mut a], 30.0, "Black gone, claimable", |apps| {
        let o = online(apps[0]);
        matches!(
            o.presence(seat_of(Side::Black)),
            Some(boardcraft_protocol::Presence::Gone { .. })
        ) && o.claim_at(seat_of(Side::Black)).is_some()
    });
    let claim_at = online(&a).claim_at(seat_of(Side::Black)).unwrap();
    run_all(&mut [&mut a], 10.0, "the grace period over", |_| {
        boardcraft::online::wall_now() > claim_at
    });
    a.world_mut().write_message(OnlineCommand::Claim);
    run_all(&mut [&mut a], 30.0, "the claim", |apps| {
        phase(apps[0].world()) == Some(TurnPhase::GameOver)
    });
    let end = game(&a).end().unwrap();
    assert_eq!(
        end.cause,
        EndCause::Abandoned(boardcraft_rules::Seat::BLACK)
    );
    // In words, in both languages.
    for lang in [Language::English, Language::Russian] {
        let text = boardcraft::ui::words::end_text(
            lang,
            end,
            &game(&a).variant,
            game(&a).position.side_to_move(),
        );
        assert!(
            !text.reason.is_empty() && !text.reason.contains('{'),
            "{text:?}"
        );
    }
}
