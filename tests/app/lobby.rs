//! The lobby through a real `boardcraft-server` in this test process (127.0.0.1:0, SQLite in a
//! temporary folder; see `online.rs`), with the apps' own HTTP and websocket clients: signing
//! in as a guest (and again with the kept token), keeping the account with a name and a
//! password, signing out and in, the lobby's welcome, two apps paired by quick pairing, the
//! game started on both boards as an invite game is, played and resigned, the rating change on
//! both sides, the game in both archives, and an archived game opened in review.
use bevy::prelude::*;
use boardcraft::{
    game::{
        match_state::{EndCause, ResignRequested, TurnPhase},
        review::Review,
    },
    online::{
        Stage,
        lobby::{Lobby, LobbyCommand, SignIn, stored_session},
    },
    persistence::storage::Storage,
    settings::Language,
    ui::online::{
        lobby::{pool_name, result_note},
        text,
    },
};
use boardcraft_protocol::{EndCause as ServerEnd, Side, seat_of};
use boardcraft_rules::Position;

use crate::{
    common::phase,
    online::{TestServer, game, longest_chain, online, play, player, settled, start_server_with},
};

const POOL: &str = "ugolki-hg-3x3 1+0";

fn lobby_server() -> TestServer {
    let mut settings = boardcraft_server::Settings::default();
    settings.lobby.pools =
        boardcraft_server::lobby::parse_pools(&format!("{POOL}, ugolki-9qum 5+3")).unwrap();
    start_server_with(settings)
}

/// `online::run_all`, telling the lobby's state too when it fails.
fn run_all(apps: &mut [&mut App], seconds: f64, what: &str, done: impl Fn(&[&mut App]) -> bool) {
    let start = std::time::Instant::now();
    while !done(apps) {
        if start.elapsed().as_secs_f64() > seconds {
            let states: Vec<String> = apps
                .iter()
                .map(|a| {
                    let l = lobby(a);
                    let o = online(a);
                    format!(
                        "lobby: entered {} sign-in {:?} account {:?} server {} link {:?} welcomed {} waiting {:?} paired {} notice {:?} | online: stage {:?} link {:?} seat {:?} status {:?} moves {:?} result {:?} ratings {:?}",
                        l.entered, l.sign_in, l.account, l.server, l.link, l.welcomed, l.waiting_in, l.paired, l.notice,
                        o.stage, o.link, o.seat, o.status, o.moves, o.result, o.ratings
                    )
                })
                .collect();
            panic!("{what}: not within {seconds} s\n{}", states.join("\n"));
        }
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

fn lobby(app: &App) -> &Lobby {
    app.world().resource::<Lobby>()
}

fn enter(app: &mut App) {
    app.world_mut().write_message(LobbyCommand::Enter);
}

fn welcomed(app: &App) -> bool {
    let l = lobby(app);
    l.sign_in == SignIn::In && l.welcomed
}

#[test]
fn a_guest_signs_in_sees_the_lobby_keeps_the_account_and_signs_in_again() {
    let server = lobby_server();
    let mut a = player(&server);
    enter(&mut a);
    run_all(&mut [&mut a], 30.0, "signed in and welcomed", |apps| {
        welcomed(apps[0])
    });
    let account = lobby(&a).account.clone().unwrap();
    assert!(account.guest, "{account:?}");
    assert!(account.name.starts_with("Guest"), "{account:?}");
    let pools: Vec<String> = lobby(&a).pools.iter().map(|p| pool_name(&p.pool)).collect();
    assert_eq!(pools, [POOL, "ugolki-9qum 5+3"]);
    // The counts follow (the welcome's may be of the moment before this player came).
    run_all(&mut [&mut a], 10.0, "counted online", |apps| {
        lobby(apps[0]).counts.players >= 1
    });
    // The session is kept for the server …
    let kept = stored_session(a.world().resource::<Storage>(), &server.url).unwrap();
    assert_eq!(kept.name, account.name);
    // … and signs the same account in again after leaving the lobby.
    a.world_mut().write_message(LobbyCommand::Leave);
    a.update();
    assert_eq!(lobby(&a).link, None);
    enter(&mut a);
    run_all(&mut [&mut a], 30.0, "welcomed again", |apps| {
        welcomed(apps[0])
    });
    assert_eq!(lobby(&a).account.as_ref().unwrap().name, account.name);

    // Keeping the account: a name and a password.
    a.world_mut().write_message(LobbyCommand::Claim {
        name: "Anna_ui".into(),
        password: "correct horse battery".into(),
    });
    run_all(&mut [&mut a], 60.0, "claimed", |apps| {
        lobby(apps[0])
            .account
            .as_ref()
            .is_some_and(|a| a.name == "Anna_ui" && !a.guest)
            && welcomed(apps[0])
    });
    // A wrong password is refused, the account stays signed in.
    a.world_mut().write_message(LobbyCommand::SignIn {
        name: "Anna_ui".into(),
        password: "wrong password!".into(),
    });
    run_all(&mut [&mut a], 60.0, "the refusal", |apps| {
        lobby(apps[0]).notice.is_some()
    });
    let notice = lobby(&a).notice.clone().unwrap();
    assert_eq!(
        notice.code,
        Some(boardcraft_protocol::ErrorCode::WrongPassword),
        "{notice:?}"
    );
    assert_eq!(lobby(&a).sign_in, SignIn::In);
    // Signing out forgets the token.
    a.world_mut().write_message(LobbyCommand::SignOut);
    a.update();
    assert_eq!(lobby(&a).sign_in, SignIn::Out);
    assert_eq!(lobby(&a).account, None);
    assert!(stored_session(a.world().resource::<Storage>(), &server.url).is_none());
    // Another app (another device) signs in with the name and the password.
    let mut b = player(&server);
    enter(&mut b);
    run_all(&mut [&mut b], 30.0, "b a guest", |apps| welcomed(apps[0]));
    b.world_mut().write_message(LobbyCommand::SignIn {
        name: "anna_UI".into(),
        password: "correct horse battery".into(),
    });
    run_all(&mut [&mut b], 60.0, "b signed in as Anna_ui", |apps| {
        lobby(apps[0])
            .account
            .as_ref()
            .is_some_and(|a| a.name == "Anna_ui")
            && welcomed(apps[0])
    });
    let kept = stored_session(b.world().resource::<Storage>(), &server.url).unwrap();
    assert_eq!(kept.name, "Anna_ui");
}

/// The app whose seat is to move.
fn mover<'a>(a: &'a mut App, b: &'a mut App) -> &'a mut App {
    let to_move = match game(a).position.side_to_move() {
        boardcraft_rules::Seat::WHITE => Side::White,
        _ => Side::Black,
    };
    if online(a).seat == Some(seat_of(to_move)) {
        a
    } else {
        b
    }
}

#[test]
fn two_strangers_are_paired_play_and_see_their_ratings_change_and_the_game_archived() {
    let server = lobby_server();
    let (mut a, mut b) = (player(&server), player(&server));
    both_in_the_lobby(&mut a, &mut b);
    let pool = lobby(&a)
        .pools
        .iter()
        .find(|p| pool_name(&p.pool) == POOL)
        .unwrap()
        .pool
        .clone();
    a.world_mut()
        .write_message(LobbyCommand::JoinPool(pool.clone()));
    run_all(&mut [&mut a, &mut b], 30.0, "a waits in the pool", |apps| {
        lobby(apps[0]).waiting_in.as_ref() == Some(&pool)
            && lobby(apps[1])
                .pools
                .iter()
                .any(|p| p.pool == pool && p.waiting == 1)
    });
    b.world_mut().write_message(LobbyCommand::JoinPool(pool));
    run_all(&mut [&mut a, &mut b], 60.0, "paired and playing", |apps| {
        apps.iter().all(|x| {
            lobby(x).paired == 1
                && online(x).stage == Stage::InGame
                && settled(x)
                && online(x).is_playing()
        })
    });
    assert_eq!(lobby(&a).last_paired, lobby(&b).last_paired);
    assert_eq!(online(&a).game, lobby(&a).last_paired);
    assert_ne!(online(&a).seat, online(&b).seat);
    assert_eq!(game(&a).variant.name, "ugolki-hg-3x3");
    let names = [&a, &b].map(|x| lobby(x).account.clone().unwrap().name);
    for (x, me) in [(&a, &names[0]), (&b, &names[1])] {
        let players = online(x)
            .players
            .clone()
            .expect("the players of a lobby game");
        assert!(players.rated);
        let seat = online(x).seat.unwrap();
        assert_eq!(&players.seats[seat as usize].name, me);
        assert_eq!(
            players.seats[seat as usize]
                .rating
                .map(|r| r.to_string())
                .as_deref(),
            Some("1500?")
        );
    }
    // Two moves of each side (fewer would abort the game), then the side to move resigns.
    for _ in 0..4 {
        let n = game(&a).history.len() + 1;
        let m = mover(&mut a, &mut b);
        let notation = longest_chain(&game(m).position);
        play(m, &notation);
        run_all(
            &mut [&mut a, &mut b],
            30.0,
            &format!("{notation} on both"),
            |apps| {
                apps.iter()
                    .all(|x| settled(x) && game(x).history.len() == n)
            },
        );
    }
    let resigner = mover(&mut a, &mut b);
    let side = game(resigner).position.side_to_move();
    resigner.world_mut().write_message(ResignRequested { side });
    run_all(&mut [&mut a, &mut b], 30.0, "the rating changes", |apps| {
        apps.iter()
            .all(|x| online(x).ratings.is_some() && phase(x.world()) == Some(TurnPhase::GameOver))
    });
    let ratings = online(&a).ratings.clone().unwrap();
    assert_eq!(Some(&ratings), online(&b).ratings.as_ref());
    let loser = match side {
        boardcraft_rules::Seat::WHITE => Side::White,
        _ => Side::Black,
    };
    let (loser, winner) = (seat_of(loser) as usize, seat_of(loser.other()) as usize);
    assert!(ratings[loser].delta() < 0, "{ratings:?}");
    assert!(ratings[winner].delta() > 0, "{ratings:?}");
    for x in [&a, &b] {
        assert_eq!(
            online(x).result.as_ref().unwrap().cause,
            ServerEnd::Resignation
        );
        // The game-over dialog's line, in both languages.
        let me = online(x).seat.unwrap();
        let delta = ratings[me as usize].delta();
        let (en, _) = result_note(Language::English, online(x)).unwrap();
        let (ru, _) = result_note(Language::Russian, online(x)).unwrap();
        let shown = boardcraft::ui::online::lobby::delta_text(delta);
        assert!(
            en.starts_with("Your rating: 1500? → ") && en.ends_with(&format!("({shown})")),
            "{en}"
        );
        assert!(ru.starts_with("Ваш рейтинг: 1500? → "), "{ru}");
    }

    // Both archives list the game, newest first; the loser opens it in review.
    let id = online(&a).game.clone().unwrap();
    for (x, name) in [(&mut a, &names[0]), (&mut b, &names[1])] {
        x.world_mut().write_message(LobbyCommand::Archive {
            name: name.clone(),
            page: 1,
        });
    }
    run_all(&mut [&mut a, &mut b], 30.0, "both archives", |apps| {
        apps.iter().all(|x| lobby(x).archive.is_some())
    });
    for x in [&a, &b] {
        let archive = lobby(x).archive.clone().unwrap();
        assert_eq!(
            archive.games.first().map(|g| g.game.clone()),
            Some(id.clone())
        );
        let archived = archive.games[0].ratings.unwrap();
        assert_eq!(vec![archived.white, archived.black], ratings);
    }
    let played = game(&a).history.len();
    a.world_mut().write_message(LobbyCommand::OpenGame(id));
    run_all(&mut [&mut a], 30.0, "the archived game in review", |apps| {
        let x = &*apps[0];
        lobby(x).opening.is_none()
            && online(x).stage == Stage::Off
            && x.world().resource::<Review>().shown_ply(game(x)) == 0
            && game(x).history.len() == played
    });
    assert_eq!(
        game(&a).end().map(|e| e.cause),
        Some(EndCause::Resigned(side))
    );
}

/// Both apps enter the lobby and are welcomed there (signed in as guests).
fn both_in_the_lobby(a: &mut App, b: &mut App) {
    enter(a);
    enter(b);
    run_all(&mut [a, b], 30.0, "both in the lobby", |apps| {
        apps.iter().all(|x| welcomed(x))
    });
}

/// `a` challenges `b` by name (Ugolki 3×3, one minute, rated, `a` White), `b` accepts, and both
/// play the game.
fn challenge_accepted(a: &mut App, b: &mut App) {
    let to = lobby(b).account.clone().unwrap().name;
    a.world_mut().write_message(LobbyCommand::Challenge {
        to,
        terms: boardcraft_protocol::GameTerms {
            variant: "ugolki-hg-3x3".into(),
            time_control: Some(boardcraft_protocol::TimeControl::minutes(1, 0)),
            rated: true,
            color: boardcraft_protocol::ColorChoice::White,
            seats: 2,
        },
    });
    run_all(
        &mut [&mut *a, &mut *b],
        30.0,
        "b sees the challenge",
        |apps| {
            lobby(apps[1])
                .challenges
                .iter()
                .any(|c| lobby(apps[1]).is_to_me(c))
        },
    );
    let id = lobby(b).challenges[0].id.clone();
    b.world_mut()
        .write_message(LobbyCommand::AcceptChallenge(id));
    run_all(
        &mut [&mut *a, &mut *b],
        60.0,
        "paired and playing",
        |apps| {
            apps.iter()
                .all(|x| online(x).stage == Stage::InGame && settled(x) && online(x).is_playing())
        },
    );
}

#[test]
fn a_lobby_game_resigned_at_once_is_aborted_and_unrated() {
    let server = lobby_server();
    let (mut a, mut b) = (player(&server), player(&server));
    both_in_the_lobby(&mut a, &mut b);
    // A challenge by name this time: b accepts it.
    challenge_accepted(&mut a, &mut b);
    assert_eq!(online(&a).seat, Some(seat_of(Side::White)));
    // White resigns before any move: too early to count.
    a.world_mut().write_message(ResignRequested {
        side: boardcraft_rules::Seat::WHITE,
    });
    run_all(
        &mut [&mut a, &mut b],
        30.0,
        "the aborted end on both boards",
        |apps| {
            apps.iter().all(|x| {
                online(x).result.is_some() && phase(x.world()) == Some(TurnPhase::GameOver)
            })
        },
    );
    for x in [&a, &b] {
        assert_eq!(online(x).result.as_ref().unwrap().cause, ServerEnd::Aborted);
        assert_eq!(online(x).ratings, None);
        assert_eq!(online(x).desyncs, 0);
        let (note, _) = result_note(Language::English, online(x)).unwrap();
        assert_eq!(note, "Aborted: the game does not count.");
    }
    // b's board was ended by the server's word: aborted, nobody won.
    let end = game(&b).end().unwrap();
    assert_eq!(end.cause, EndCause::Aborted);
    assert_eq!(end.winner(), None);
    let words = boardcraft::ui::words::end_text(
        Language::Russian,
        end,
        &game(&b).variant,
        game(&b).position.side_to_move(),
    );
    assert_eq!(words.headline, "Партия прервана");
}

#[test]
fn the_lobby_words_are_in_both_languages() {
    for key in text::Say::ALL {
        for lang in [Language::English, Language::Russian] {
            assert!(!text::say(lang, *key).is_empty(), "{key:?} {lang:?}");
        }
    }
    use boardcraft::ui::i18n::{Key, tr};
    assert_eq!(tr(Language::English, Key::ResultAborted), "Game aborted");
    assert_eq!(tr(Language::Russian, Key::ResultAborted), "Партия прервана");
}

/// On a phone the online strip keeps the clock, "(you)" and "· to move" on the first line of
/// the seat's row, beside the player's name (a long guest name with its rating wraps under
/// itself, never cut short), instead of on lines of their own — at the phone sizes the browser
/// test uses, in both languages.
#[test]
fn a_phones_online_strip_keeps_the_clock_and_marks_beside_the_name() {
    use bevy_egui::egui;
    use boardcraft::ui::online::{lobby::player_text, text::Say};

    use crate::ui_harness::Screens;

    let server = lobby_server();
    for lang in Language::ALL {
        let mut s = Screens::new("ugolki-hg-3x3", "", crate::common::humans(), lang, None);
        s.app
            .world_mut()
            .write_message(boardcraft::online::OnlineCommand::SetServer(
                server.url.clone(),
            ));
        let mut b = player(&server);
        both_in_the_lobby(&mut s.app, &mut b);
        challenge_accepted(&mut s.app, &mut b);
        assert_eq!(online(&s.app).seat, Some(seat_of(Side::White)));
        let names: Vec<String> = online(&s.app)
            .players
            .as_ref()
            .expect("a lobby game names its players")
            .seats
            .iter()
            .map(|p| player_text(lang, p))
            .collect();
        for (w, h) in [(360.0, 640.0), (390.0, 844.0), (844.0, 390.0)] {
            s.resize(egui::vec2(w, h));
            // Where each label's first line starts (its top).
            let row = |text: &str| -> Vec<f32> {
                s.labels_containing(text)
                    .iter()
                    .map(|n| n.rect().top())
                    .collect()
            };
            let (white, black) = (row(&names[0]), row(&names[1]));
            assert_eq!(
                (white.len(), black.len()),
                (1, 1),
                "{w}×{h} {lang:?}: {:?}",
                s.texts()
            );
            // Neither clock runs before the first moves: both show the whole minute.
            let clocks = row("1:00");
            let beside = |y: f32, of: f32| (y - of).abs() < 3.0;
            assert!(
                clocks.iter().any(|&y| beside(y, white[0]))
                    && clocks.iter().any(|&y| beside(y, black[0])),
                "{w}×{h} {lang:?}: clocks at {clocks:?}, names at {white:?} and {black:?}"
            );
            for mark in [Say::You, Say::ToMove] {
                let at = row(text::say(lang, mark));
                assert!(
                    at.len() == 1 && beside(at[0], white[0]),
                    "{w}×{h} {lang:?}: {mark:?} at {at:?}, White's name at {white:?}"
                );
            }
        }
    }
}
