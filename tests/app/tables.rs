//! Online tables of more than two seats through a real `boardcraft-server` in this test process
//! (see `online.rs`), with the apps' own clients and the server's computer players: the lobby's
//! grid shows a three-seat pool, a person who joined it sees it waiting, two apps and the
//! server's computer are seated at one table, every seat is listed in the online panel with
//! its player, the apps' moves reach the server (the other app hears them from it), two
//! players resign in turn and the game-over window lists the places with each player's rating
//! change, in English and in Russian; a seek of four seats shows "k of 4 seated" with the
//! seated players' names, a seat is taken at it and given back.
use std::time::{Duration, Instant};

use bevy::prelude::*;
use boardcraft::{
    game::match_state::{EndCause, Match, ResignRequested, TurnPhase},
    online::{
        Online, OnlineCommand, Stage,
        lobby::{Lobby, LobbyCommand, SignIn},
    },
    settings::{Language, Settings},
    ui::{
        i18n::{Key, tr, variant_text},
        online::lobby::{pool_label, pool_name, seated_text, standings},
    },
};
use boardcraft_protocol::{ColorChoice, EndCause as ServerEnd, GameTerms, SeatIndex, TimeControl};
use boardcraft_rules::{Position, Seat};

use crate::{
    common::phase,
    online::{TestServer, longest_chain, player, settled, start_server_with},
    ui_harness::{Role, Screens},
};

/// The three-seat pool of the tests, as the server's `--pools` writes it.
const TABLE_POOL: &str = "chinese-checkers 5+0 x3";

fn pick(lang: Language, english: &'static str, russian: &'static str) -> &'static str {
    match lang {
        Language::English => english,
        Language::Russian => russian,
    }
}

fn online(app: &App) -> &Online {
    app.world().resource::<Online>()
}

fn lobby(app: &App) -> &Lobby {
    app.world().resource::<Lobby>()
}

fn game(app: &App) -> &Match {
    app.world().resource::<Match>()
}

fn welcomed(app: &App) -> bool {
    let l = lobby(app);
    l.sign_in == SignIn::In && l.welcomed
}

fn my_name(app: &App) -> String {
    lobby(app).account.as_ref().expect("signed in").name.clone()
}

/// Steps the screens' app and the other apps together (the sockets live on threads, so with
/// a short real pause) until `done`; panics after `seconds` of real time with what each knows.
fn run(
    s: &mut Screens,
    others: &mut [&mut App],
    seconds: f64,
    what: &str,
    done: impl Fn(&Screens, &[&mut App]) -> bool,
) {
    let start = Instant::now();
    while !done(s, others) {
        if start.elapsed().as_secs_f64() > seconds {
            let describe = |app: &App| {
                let o = online(app);
                let l = lobby(app);
                format!(
                    "lobby: welcomed {} waiting {:?} paired {} notice {:?} | online: stage {:?} seat {:?} seats {} status {:?} moves {:?} left {:?} result {:?} notice {:?} desyncs {} phase {:?}",
                    l.welcomed,
                    l.waiting_in,
                    l.paired,
                    l.notice,
                    o.stage,
                    o.seat,
                    o.seat_count(),
                    o.status,
                    o.moves,
                    o.left,
                    o.result,
                    o.notice,
                    o.desyncs,
                    phase(app.world())
                )
            };
            let mut states = vec![describe(&s.app)];
            states.extend(others.iter().map(|a| describe(a)));
            panic!(
                "{what}: not within {seconds} s\n{}\nthe screen shows {:?}",
                states.join("\n"),
                s.texts()
            );
        }
        s.frame();
        for app in others.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// A server offering the three-seat pool and a two-seat one; with `fill_after`, the computer
/// takes the seats no person has taken that long after the first player came.
fn table_server(fill_after: Option<Duration>) -> TestServer {
    let mut settings = boardcraft_server::Settings::default();
    settings.lobby.pools =
        boardcraft_server::lobby::parse_pools(&format!("ugolki-9qum 5+3, {TABLE_POOL}")).unwrap();
    settings.lobby.fill_with_bots_after = fill_after;
    settings.lobby.bot_level = boardcraft_ai::Level::Novice;
    start_server_with(settings)
}

/// The menu's screens, pointed at `server`, turned to the Lobby (signed in as a guest).
fn lobby_screens(server: &TestServer, lang: Language) -> Screens {
    let mut s = Screens::menu(lang);
    s.app
        .world_mut()
        .write_message(OnlineCommand::SetServer(server.url.clone()));
    s.frames(2);
    s.click_button(pick(lang, "Play online…", "Игра по сети…"));
    s
}

fn title(lang: Language, variant: &str) -> &'static str {
    variant_text(lang, variant)
        .unwrap_or_else(|| panic!("{variant} has a title"))
        .title
}

/// Whether the app's own seat is to move on its board.
fn my_turn(app: &App) -> bool {
    let to_move = game(app).position.side_to_move().index() as SeatIndex;
    online(app).seat == Some(to_move) && online(app).is_playing()
}

#[test]
fn three_seats_from_a_pool_play_online_and_end_in_places_with_rating_changes() {
    let lang = Language::English;
    let server = table_server(Some(Duration::from_secs(3)));
    let mut s = lobby_screens(&server, lang);
    let mut b = player(&server);
    b.world_mut().write_message(LobbyCommand::Enter);
    run(&mut s, &mut [&mut b], 30.0, "both in the lobby", |s, o| {
        welcomed(&s.app) && welcomed(o[0])
    });

    // The grid names the table's pool with its seats.
    let key = lobby(&s.app)
        .pools
        .iter()
        .find(|p| pool_name(&p.pool) == "chinese-checkers ×3 5+0")
        .expect("the three-seat pool is offered")
        .pool
        .clone();
    assert_eq!(key.seats, 3);
    let label = pool_label(lang, &key, "");
    assert_eq!(label, format!("{} ×3 5+0", title(lang, "chinese-checkers")));
    assert_eq!(
        pool_label(Language::Russian, &key, ""),
        format!("{} на 3 5+0", title(Language::Russian, "chinese-checkers"))
    );
    let button = |waiting: u32| format!("{label}\n{waiting} waiting");
    assert!(s.shows(Role::Button, &button(0)), "{:?}", s.texts());

    // B waits in the pool; A sees one waiting and joins by the grid's button.
    b.world_mut()
        .write_message(LobbyCommand::JoinPool(key.clone()));
    run(&mut s, &mut [&mut b], 30.0, "one waiting", |s, _| {
        s.shows(Role::Button, &button(1))
    });
    s.click_button(&button(1));
    let searching = format!("Looking for opponents: {label}");
    run(
        &mut s,
        &mut [&mut b],
        30.0,
        "A waits in the pool",
        |s, _| lobby(&s.app).waiting_in.as_ref() == Some(&key) && s.says(&searching),
    );

    // The computer takes the third seat; both apps are seated at one game of three seats.
    run(&mut s, &mut [&mut b], 60.0, "seated and playing", |s, o| {
        [&s.app, &*o[0]]
            .iter()
            .all(|x| online(x).stage == Stage::InGame && settled(x) && online(x).is_playing())
    });
    let (a_seat, b_seat) = (online(&s.app).seat.unwrap(), online(&b).seat.unwrap());
    assert_ne!(a_seat, b_seat);
    assert_eq!(online(&s.app).game, online(&b).game);
    assert_eq!(lobby(&s.app).waiting_in, None);
    for x in [&s.app, &b] {
        assert_eq!(online(x).seat_count(), 3);
        assert_eq!(game(x).variant.name, "chinese-checkers");
        assert_eq!(game(x).position.seat_count(), 3);
    }
    let players = online(&s.app)
        .players
        .clone()
        .expect("a lobby game's players");
    assert!(players.rated);
    assert_eq!(players.seats.len(), 3);
    assert_eq!(players.seats[a_seat as usize].name, my_name(&s.app));
    assert_eq!(players.seats[b_seat as usize].name, my_name(&b));
    let bot_seat = (0..3).find(|x| *x != a_seat && *x != b_seat).unwrap();
    assert!(players.seats[bot_seat as usize].bot, "{players:?}");

    // The panel lists every seat with its player, the player's own marked.
    s.frames(3);
    for info in &players.seats {
        let mut text = format!("{} (1500?)", info.name);
        if info.bot {
            text.push_str(" · computer");
        }
        assert!(s.says(&text), "{text} in {:?}", s.texts());
    }
    assert_eq!(s.all(Role::Label, "(you)").len(), 1);
    assert_eq!(s.all(Role::Label, "· to move").len(), 1);

    // Each app plays two moves of its seat (fewer would abort the game; the computer plays
    // its own); each move reaches the server, which tells the other app.
    let mut played = [0, 0];
    while played.iter().any(|n| *n < 2) {
        let n = game(&s.app).history.len();
        let which = if my_turn(&s.app) {
            Some(0)
        } else if my_turn(&b) {
            Some(1)
        } else {
            None
        };
        let Some(which) = which else {
            run(
                &mut s,
                &mut [&mut b],
                60.0,
                "the computer's move",
                |s, o| {
                    [&s.app, &*o[0]]
                        .iter()
                        .all(|x| settled(x) && game(x).history.len() > n)
                },
            );
            continue;
        };
        let mover = if which == 0 { &mut s.app } else { &mut b };
        let notation = longest_chain(&game(mover).position);
        crate::online::play(mover, &notation);
        played[which] += 1;
        run(
            &mut s,
            &mut [&mut b],
            30.0,
            &format!("{notation} on both boards"),
            |s, o| {
                [&s.app, &*o[0]].iter().all(|x| {
                    settled(x)
                        && game(x).history.len() > n
                        && online(x).moves.get(n) == Some(&notation)
                })
            },
        );
    }
    for x in [&s.app, &b] {
        assert_eq!(
            online(x).desyncs,
            0,
            "the boards agree with the server's hashes"
        );
    }

    // Once an app's seat is to move (the computer moved first if it was its turn), the other
    // app resigns: it leaves the table, which plays on.
    run(&mut s, &mut [&mut b], 60.0, "an app to move", |s, o| {
        (my_turn(&s.app) || my_turn(o[0])) && settled(&s.app) && settled(o[0])
    });
    let a_to_move = my_turn(&s.app);
    let (first, second) = if a_to_move {
        (b_seat, a_seat)
    } else {
        (a_seat, b_seat)
    };
    let first_app = if a_to_move { &mut b } else { &mut s.app };
    first_app.world_mut().write_message(ResignRequested {
        side: Seat::at(first as usize),
    });
    run(
        &mut s,
        &mut [&mut b],
        30.0,
        "the first resignation",
        |s, o| {
            [&s.app, &*o[0]]
                .iter()
                .all(|x| online(x).left(first).is_some())
        },
    );
    assert!(online(&s.app).result.is_none());
    let first_name = &players.seats[first as usize].name;
    let names = boardcraft::game::seat_names::SeatNames::of(&game(&s.app).position);
    let side_name = |lang: Language, seat: SeatIndex| {
        boardcraft::ui::i18n::side(lang, &names, Seat::at(seat as usize))
    };
    let left_line = format!("{}: left · the computer plays", side_name(lang, first));
    s.frames(2);
    // The game's panel names every seat's player as the server does, not "Friend online".
    for (seat, player) in players.seats.iter().enumerate() {
        let line = format!("{}: {}", side_name(lang, seat as SeatIndex), player.name);
        assert!(s.says(&line), "{line} in {:?}", s.texts());
    }
    assert!(!s.says("Friend online"), "{:?}", s.texts());
    assert!(
        s.says(&left_line),
        "{left_line} for {first_name} in {:?}",
        s.texts()
    );
    // The server's computer has the seat now: the leaver's board plays it through the server
    // and offers it no draw.
    let leaver = if a_to_move { &b } else { &s.app };
    let kinds = leaver
        .world()
        .resource::<boardcraft::game::config::Players>()
        .clone();
    assert_eq!(
        kinds.of(Seat::at(first as usize)),
        boardcraft::game::config::PlayerKind::Remote
    );
    assert!(!online(leaver).plays());
    if !a_to_move {
        assert!(!s.shows(Role::Button, "Offer a draw"), "{:?}", s.texts());
    }

    // The second plays on; the computer moves in the seat that left and in its own, and both
    // boards follow, until the second is to move again.
    let n = game(&s.app).history.len();
    let second_app = if a_to_move { &mut s.app } else { &mut b };
    let notation = longest_chain(&game(second_app).position);
    crate::online::play(second_app, &notation);
    run(
        &mut s,
        &mut [&mut b],
        60.0,
        "the computer's moves in both seats",
        |s, o| {
            [&s.app, &*o[0]]
                .iter()
                .all(|x| settled(x) && game(x).history.len() >= n + 3)
                && (my_turn(&s.app) || my_turn(o[0]))
        },
    );
    let movers: Vec<Seat> = game(&s.app).history[n..].iter().map(|m| m.side).collect();
    assert!(
        movers.contains(&Seat::at(first as usize)),
        "the computer moved for the seat that left: {movers:?}"
    );
    for x in [&s.app, &b] {
        assert_eq!(online(x).desyncs, 0);
        assert_eq!(online(x).moves.len(), game(x).history.len());
    }

    // The second resigns: the game is over, the computer first.
    let second_app = if a_to_move { &mut s.app } else { &mut b };
    second_app.world_mut().write_message(ResignRequested {
        side: Seat::at(second as usize),
    });
    run(
        &mut s,
        &mut [&mut b],
        30.0,
        "the end and the ratings",
        |s, o| {
            [&s.app, &*o[0]].iter().all(|x| {
                online(x).ratings.is_some() && phase(x.world()) == Some(TurnPhase::GameOver)
            })
        },
    );
    for x in [&s.app, &b] {
        let result = online(x).result.clone().unwrap();
        assert_eq!(result.cause, ServerEnd::Resignation);
        assert_eq!(result.place_of(bot_seat), Some(1), "{result:?}");
        assert_eq!(result.place_of(second), Some(2), "{result:?}");
        assert_eq!(result.place_of(first), Some(3), "{result:?}");
        // The board ends as the server said, with its places.
        let end = game(x).end().unwrap();
        assert_eq!(end.cause, EndCause::Resigned(Seat::at(second as usize)));
        assert_eq!(end.places.as_slice().len(), 3);
        for seat in 0..3u8 {
            assert_eq!(
                Some(end.places.of(Seat::at(seat as usize))),
                result.place_of(seat)
            );
        }
        assert_eq!(online(x).desyncs, 0);
    }
    let ratings = online(&s.app).ratings.clone().unwrap();
    assert_eq!(Some(&ratings), online(&b).ratings.as_ref());
    assert_eq!(ratings.len(), 3);
    assert!(ratings[bot_seat as usize].delta() > 0, "{ratings:?}");
    assert!(ratings[first as usize].delta() < 0, "{ratings:?}");

    // The game-over window lists the places, the players and their rating changes, in both
    // languages.
    for lang in Language::ALL {
        s.app.world_mut().resource_mut::<Settings>().language = lang;
        s.frames(3);
        let window = tr(lang, Key::GameOverTitle);
        assert!(
            s.shows_in(window, Role::Label, pick(lang, "Places", "Места")),
            "{lang:?}: {:?}",
            s.texts()
        );
        let rows = standings(lang, online(&s.app), |seat| side_name(lang, seat));
        assert_eq!(rows.len(), 3);
        let places: Vec<&str> = rows.iter().map(|r| r.place.as_str()).collect();
        assert_eq!(
            places,
            match lang {
                Language::English => ["1st", "2nd", "3rd"],
                Language::Russian => ["1-е", "2-е", "3-е"],
            }
        );
        for (row, seat) in rows.iter().zip([bot_seat, second, first]) {
            assert_eq!(row.seat, seat);
            let delta = boardcraft::ui::online::lobby::delta_text(ratings[seat as usize].delta());
            assert_eq!(row.delta.as_deref(), Some(delta.as_str()));
            assert!(row.player.starts_with(&players.seats[seat as usize].name));
            for text in [&row.place, &row.player, &delta] {
                assert!(
                    s.shows_in(window, Role::Label, text),
                    "{lang:?}: {text} in {:?}",
                    s.texts()
                );
            }
        }
        // The player's own change in words too.
        let mine = ratings[a_seat as usize];
        let own = match lang {
            Language::English => format!("Your rating: {} → {}", mine.before, mine.after),
            Language::Russian => format!("Ваш рейтинг: {} → {}", mine.before, mine.after),
        };
        assert!(
            s.texts().iter().any(|t| t.contains(&own)),
            "{lang:?}: {own} in {:?}",
            s.texts()
        );
    }
}

#[test]
fn a_four_seat_seek_shows_who_is_seated_and_a_seat_is_taken_and_given_back() {
    let lang = Language::English;
    let server = table_server(None);
    let mut s = lobby_screens(&server, lang);
    let mut a = player(&server);
    a.world_mut().write_message(LobbyCommand::Enter);
    run(&mut s, &mut [&mut a], 30.0, "both in the lobby", |s, o| {
        welcomed(&s.app) && welcomed(o[0])
    });
    a.world_mut().write_message(LobbyCommand::Seek(GameTerms {
        variant: "chinese-checkers".into(),
        time_control: Some(TimeControl::minutes(5, 0)),
        rated: true,
        color: ColorChoice::Random,
        seats: 4,
    }));
    run(
        &mut s,
        &mut [&mut a],
        30.0,
        "the seek in the list",
        |s, _| !lobby(&s.app).seeks.is_empty(),
    );
    let seek = lobby(&s.app).seeks[0].clone();
    assert_eq!(seek.seats, 4);
    let a_name = my_name(&a);
    let one = format!("1 of 4 seated: {a_name} (1500?)");
    assert_eq!(seated_text(lang, &seek), one);
    assert_eq!(
        seated_text(Language::Russian, &seek),
        format!("Сели 1 из 4: {a_name} (1500?)")
    );
    let game_line = format!("{} 5+0 · rated", title(lang, "chinese-checkers"));
    let take = format!("{game_line}\n{one}\n{a_name} (1500?) · Take a seat");
    assert!(s.shows(Role::Button, &take), "{take} in {:?}", s.texts());

    // The screen's player takes a seat: two of four, and it may give the seat back.
    s.click_button(&take);
    let me = my_name(&s.app);
    let two = format!("2 of 4 seated: {a_name} (1500?), {me} (1500?)");
    run(&mut s, &mut [&mut a], 30.0, "seated at the seek", |s, o| {
        [&s.app, &*o[0]].iter().all(|x| {
            lobby(x)
                .seeks
                .first()
                .is_some_and(|k| seated_text(lang, k) == two)
        }) && s.shows(Role::Button, "Leave the seat")
    });
    assert!(
        s.says(&format!("{game_line}\n{two}\n{a_name} (1500?)")),
        "{:?}",
        s.texts()
    );
    assert_eq!(
        online(&s.app).stage,
        Stage::Off,
        "nobody plays before the table is full"
    );
    s.click_button("Leave the seat");
    run(
        &mut s,
        &mut [&mut a],
        30.0,
        "the seat given back",
        |s, o| {
            [&s.app, &*o[0]].iter().all(|x| {
                lobby(x)
                    .seeks
                    .first()
                    .is_some_and(|k| seated_text(lang, k) == one)
            }) && s.shows(Role::Button, &take)
        },
    );
}

#[test]
fn a_pool_is_read_as_the_server_writes_it() {
    use boardcraft::online::lobby::parse_pool;
    let table = parse_pool(TABLE_POOL).unwrap();
    assert_eq!(table.variant, "chinese-checkers");
    assert_eq!(table.seats, 3);
    assert_eq!(table.time_control, TimeControl::minutes(5, 0));
    assert_eq!(table.id(), "chinese-checkers 300+0 x3");
    let two = parse_pool("ugolki-9qum 3+2").unwrap();
    assert_eq!(two.seats, 2);
    assert_eq!(pool_name(&two), "ugolki-9qum 3+2");
    for bad in [
        "",
        "ugolki-9qum",
        "ugolki-9qum 3",
        "ugolki-9qum 3+2 4",
        "a 1+1 x3 more",
    ] {
        assert!(parse_pool(bad).is_err(), "{bad}");
    }
}
