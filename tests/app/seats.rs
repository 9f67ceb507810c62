//! Tables of more than two: a three-seat Chinese checkers game against two computers played to
//! its end through move requests, a six-seat hot-seat round, a four-seat Halma save loaded and
//! reviewed, undo against computers at a larger table, and the places as the UI words them.
use bevy::prelude::*;
use boardcraft::{
    game::config::{Level, PlayerKind, Players},
    game::match_state::{Match, MoveRequested, TurnPhase, UndoRequested},
    game::review::{Review, ReviewCommand},
    game::seat_names::SeatNames,
    persistence::storage::Storage,
    persistence::{LoadRequested, SaveRequested},
    settings::Language,
    ui::hud::pass_to,
    ui::words::places_text,
    view::board::Board,
    view::model::Snapshot,
};
use boardcraft_ai::{AnySearch, Level as AiLevel};
use boardcraft_rules::{AnyEffect, AnyPosition, Position, Seat};

use crate::common::*;

const HUMAN: PlayerKind = PlayerKind::Human;
const NOVICE: PlayerKind = PlayerKind::Computer(Level::Novice);

fn players(seats: &[PlayerKind]) -> Players {
    Players::new(seats.to_vec()).expect("two to six seats")
}

/// A reasonable move for a person at the board: the novice computer's choice.
fn person_move(position: &AnyPosition, seed: u64) -> boardcraft_rules::AnyMove {
    let cfg = AiLevel::Novice.config(position, seed);
    AnySearch::new(position, cfg)
        .run()
        .best_move
        .expect("a legal move")
}

/// Requests the person's move for the position now shown.
fn play_person_move(app: &mut App, seed: u64) {
    let world = app.world_mut();
    let game = world.resource::<Match>();
    let msg = MoveRequested {
        mv: person_move(&game.position, seed),
        game_id: game.game_id,
        ply: game.position.ply(),
    };
    world.write_message(msg);
}

/// Waits until the game waits for a move (or is over).
fn settle(app: &mut App) {
    run_until(app, 400, "the move's animation", |w| {
        matches!(
            stable_phase(w),
            Some(TurnPhase::Ready | TurnPhase::GameOver)
        )
    });
}

/// Plays on, the people's moves chosen here, until `plies` moves have been played.
fn play_until(app: &mut App, plies: usize) {
    for frame in 0..20_000u64 {
        let world = app.world();
        let game = world.resource::<Match>();
        if game.history.len() >= plies && stable_phase(world) == Some(TurnPhase::Ready) {
            return;
        }
        let players = world.resource::<Players>();
        if stable_phase(world) == Some(TurnPhase::Ready)
            && players.of(game.position.side_to_move()).is_human()
        {
            play_person_move(app, frame);
        }
        app.update();
    }
    panic!("{plies} moves were not played");
}

/// The landings each move of the history has (one per hop of a chain, one for a step).
fn landings_of(game: &Match) -> Vec<usize> {
    game.history
        .iter()
        .map(|m| match &m.effect {
            AnyEffect::Race(e) => e.path.len() - 1,
            other => panic!("not a race move: {other:?}"),
        })
        .collect()
}

#[test]
fn three_seats_one_person_two_computers_play_to_the_end_with_every_hop_animated() {
    let mut app = app_for("chinese-checkers", "", players(&[HUMAN, NOVICE, NOVICE]));
    record_landings(&mut app);
    start(&mut app);
    {
        let game = app.world().resource::<Match>();
        assert_eq!(game.position.seat_count(), 3);
        assert_eq!(game.variant.players(), 3);
    }
    assert_same_pieces(
        &view_snapshot(app.world_mut()),
        &rules_snapshot(app.world()),
    );
    let mut seed = 1;
    let mut finished_seen = 0;
    for _ in 0..60_000 {
        let world = app.world();
        let game = world.resource::<Match>();
        if stable_phase(world) == Some(TurnPhase::GameOver) {
            break;
        }
        // A seat that finished while the others play on: the view shows the same pieces as
        // the rules, and the finishers are named in order.
        let finished = game.position.finish_order().len();
        if finished > finished_seen && stable_phase(world) == Some(TurnPhase::Ready) {
            finished_seen = finished;
            assert_same_pieces(
                &view_snapshot(app.world_mut()),
                &rules_snapshot(app.world()),
            );
        }
        let world = app.world();
        let game = world.resource::<Match>();
        if stable_phase(world) == Some(TurnPhase::Ready)
            && game.position.side_to_move() == Seat::WHITE
            && world.resource::<Review>().is_live()
        {
            seed += 1;
            play_person_move(&mut app, seed);
        }
        app.update();
    }
    let game = app.world().resource::<Match>().clone();
    let end = game.end().expect("the game ended");
    assert_eq!(end.places.seats(), 3);
    // Played on for the places: two seats finished, in order, and the third is last.
    let order = game.position.finish_order();
    assert_eq!(order.len(), 2, "{:?}", end);
    assert_eq!(end.places.of(order[0]), 1);
    assert_eq!(end.places.of(order[1]), 2);
    let last = Seat::all(3).find(|s| !order.contains(s)).unwrap();
    assert_eq!(end.places.of(last), 3);
    // Every hop of every move was landed by the animation.
    let landings = app.world().resource::<Landings>();
    for (ply, expected) in landings_of(&game).into_iter().enumerate() {
        let seen = landings
            .0
            .iter()
            .filter(|(_, l)| l.game_id == game.game_id && l.ply as usize == ply + 1)
            .count();
        assert_eq!(seen, expected, "landings of ply {}", ply + 1);
    }
    // The places as the game-over window lists them, best first.
    let seats = SeatNames::of(&game.position);
    let en = places_text(Language::English, &end, &seats);
    let ru = places_text(Language::Russian, &end, &seats);
    assert_eq!(en.len(), 3);
    assert!(en[0].1.starts_with("1st "), "{en:?}");
    assert!(en[1].1.starts_with("2nd "), "{en:?}");
    assert!(en[2].1.starts_with("3rd "), "{en:?}");
    assert_eq!(en[0].0, order[0]);
    assert!(ru[0].1.starts_with("1-е "), "{ru:?}");
    assert_same_pieces(
        &view_snapshot(app.world_mut()),
        &rules_snapshot(app.world()),
    );
}

#[test]
fn six_people_at_one_screen_play_a_round_passing_the_device() {
    let mut app = app_for("chinese-checkers", "", players(&[HUMAN; 6]));
    start(&mut app);
    assert_eq!(app.world().resource::<Match>().position.seat_count(), 6);
    assert_same_pieces(
        &view_snapshot(app.world_mut()),
        &rules_snapshot(app.world()),
    );
    let mut movers = Vec::new();
    for ply in 0..8u64 {
        let (to_move, pass) = {
            let game = app.world().resource::<Match>();
            let players = app.world().resource::<Players>();
            (game.position.side_to_move(), pass_to(game, players))
        };
        // Nobody passes before the first move; after it, each turn is another person's.
        assert_eq!(pass, (ply > 0).then_some(to_move), "ply {ply}");
        movers.push(to_move);
        play_person_move(&mut app, ply + 1);
        app.update();
        settle(&mut app);
        assert_same_pieces(
            &view_snapshot(app.world_mut()),
            &rules_snapshot(app.world()),
        );
    }
    // A full round in turn order, then the first seat again.
    let expected: Vec<Seat> = (0..8).map(|i| Seat::at(i % 6)).collect();
    assert_eq!(movers, expected);
    // Undo at a table of people takes back one move.
    app.world_mut().write_message(UndoRequested);
    app.update();
    settle(&mut app);
    assert_eq!(app.world().resource::<Match>().history.len(), 7);
}

#[test]
fn undo_against_computers_returns_to_the_persons_last_turn_at_a_larger_table() {
    let mut app = app_for(
        "chinese-checkers",
        "",
        players(&[HUMAN, NOVICE, NOVICE, NOVICE]),
    );
    start(&mut app);
    play_person_move(&mut app, 7);
    // The three computers answer.
    run_until(&mut app, 4000, "the computers' moves", |w| {
        w.resource::<Match>().history.len() == 4 && stable_phase(w) == Some(TurnPhase::Ready)
    });
    app.world_mut().write_message(UndoRequested);
    app.update();
    settle(&mut app);
    let game = app.world().resource::<Match>();
    assert_eq!(game.history.len(), 0);
    assert_eq!(game.position.side_to_move(), Seat::WHITE);
}

#[test]
fn a_master_at_a_table_of_four_answers_by_its_monte_carlo_search() {
    const MASTER: PlayerKind = PlayerKind::Computer(Level::Master);
    let mut app = app_for(
        "chinese-checkers",
        "",
        players(&[HUMAN, MASTER, NOVICE, NOVICE]),
    );
    start(&mut app);
    let position = app.world().resource::<Match>().position.clone();
    // Master's search at this table is the Monte-Carlo one, stepped in the app's slices.
    assert!(AnySearch::plays_monte_carlo(
        &position,
        &AiLevel::Master.config(&position, 1)
    ));
    play_person_move(&mut app, 3);
    run_until(&mut app, 4000, "the computers' moves", |w| {
        w.resource::<Match>().history.len() == 4 && stable_phase(w) == Some(TurnPhase::Ready)
    });
    let game = app.world().resource::<Match>();
    assert_eq!(game.position.side_to_move(), Seat::WHITE);
    // The second move of the game was Master's (seat 1), legal where it was played.
    let mut replay = position;
    replay.play(&game.history[0].mv).unwrap();
    assert_eq!(replay.side_to_move().index(), 1);
    assert!(replay.is_legal(&game.history[1].mv));
}

#[test]
fn a_four_seat_halma_save_loads_and_reviews() {
    let home = tempfile::tempdir().unwrap();
    let mut app = app_for("halma-16", "", players(&[HUMAN, NOVICE, HUMAN, NOVICE]));
    app.insert_resource(Storage::folder(home.path()));
    start(&mut app);
    run_until_loaded(&mut app, 60, "the variant library", |w| {
        w.resource::<boardcraft::game::variants::VariantLibrary>()
            .settled()
    });
    assert_eq!(app.world().resource::<Match>().position.seat_count(), 4);
    // Eight moves: the people's chosen here, the computers' by the computers.
    play_until(&mut app, 8);
    let saved = app.world().resource::<Match>().clone();
    app.world_mut().write_message(SaveRequested {
        slot: "four".into(),
    });
    app.update();
    app.update();
    // Another game at another table, then the save.
    app.world_mut().write_message(
        boardcraft::game::match_state::StartGame::new(saved.variant.clone(), String::new())
            .with_players(Players::two(HUMAN, HUMAN)),
    );
    app.update();
    settle(&mut app);
    assert_eq!(app.world().resource::<Match>().position.seat_count(), 2);
    app.world_mut().write_message(LoadRequested {
        slot: "four".into(),
    });
    let mut loaded = false;
    for _ in 0..100 {
        app.update();
        let game = app.world().resource::<Match>();
        if game.position.seat_count() == 4 && game.history.len() == saved.history.len() {
            loaded = true;
            break;
        }
    }
    assert!(loaded, "the four-seat game did not load");
    settle(&mut app);
    let game = app.world().resource::<Match>().clone();
    assert_eq!(game.line(), saved.line());
    assert_eq!(
        *app.world().resource::<Players>(),
        players(&[HUMAN, NOVICE, HUMAN, NOVICE])
    );
    // Review: every earlier position is shown as the rules replay it.
    let layout = app.world().resource::<Board>().layout.clone();
    for ply in [0, 3, 5] {
        app.world_mut().write_message(ReviewCommand::Go(ply));
        app.update();
        app.update();
        let expected = Snapshot::of(&game.position_at(ply), &layout);
        assert_same_pieces(&view_snapshot(app.world_mut()), &expected);
    }
    app.world_mut().write_message(ReviewCommand::Live);
    app.update();
    assert!(app.world().resource::<Review>().is_live());
}

#[test]
fn partnerships_are_read_from_the_variant() {
    use boardcraft::game::seat_names::partnerships;
    let at = |i| Seat::at(i);
    let focus4 = boardcraft_rules::shipped_variant("focus")
        .unwrap()
        .for_players(4)
        .unwrap();
    assert_eq!(
        partnerships(&focus4),
        Some(vec![vec![at(0), at(2)], vec![at(1), at(3)]])
    );
    let halma = boardcraft_rules::shipped_variant("halma-16-partners").unwrap();
    assert_eq!(
        partnerships(&halma),
        Some(vec![vec![at(0), at(2)], vec![at(1), at(3)]])
    );
    let star = boardcraft_rules::shipped_variant("chinese-checkers")
        .unwrap()
        .for_players(6)
        .unwrap();
    assert_eq!(partnerships(&star), None);
    // The seats' names as the UI says them, translated where the UI knows the colour.
    let names = SeatNames::of_variant(&star);
    let ru: Vec<String> = Seat::all(6)
        .map(|s| boardcraft::ui::i18n::side(Language::Russian, &names, s))
        .collect();
    assert_eq!(
        ru,
        [
            "Красные",
            "Фиолетовые",
            "Синие",
            "Зелёные",
            "Жёлтые",
            "Оранжевые"
        ]
    );
}

#[test]
fn the_command_line_seats_the_table_or_says_which_tables_there_are() {
    use boardcraft::game::config::{Cli, GameConfig, VariantChoice};
    use clap::Parser;
    let cli = Cli::parse_from([
        "boardcraft",
        "--variant",
        "chinese-checkers",
        "--seats",
        "human,master,human",
    ]);
    assert_eq!(
        cli.players(),
        players(&[HUMAN, PlayerKind::Computer(Level::Master), HUMAN])
    );
    assert_eq!(cli.game_config().players, Some(3));
    let cli = Cli::parse_from(["boardcraft", "--players", "4", "--black", "novice"]);
    assert_eq!(cli.players(), players(&[HUMAN, NOVICE, NOVICE, NOVICE]));

    // A table the variant does not offer: the game says which it does.
    let mut app = boardcraft::automation::headless_app(
        GameConfig {
            variant: VariantChoice::parse("chinese-checkers"),
            after: String::new(),
            position: None,
            players: Some(5),
        },
        players(&[HUMAN; 5]),
        STEP,
    );
    run_until_loaded(&mut app, 60, "the refusal", |w| {
        app_state(w) == boardcraft::game::match_state::AppState::Failed
    });
    let why = app
        .world()
        .resource::<boardcraft::game::match_state::StartError>()
        .0
        .clone()
        .unwrap_or_default();
    assert!(why.contains('5') && why.contains('6'), "{why}");
}
