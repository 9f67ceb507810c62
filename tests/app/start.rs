//! Starting a game: one message (`StartGame`), one system. It sets the seats, the library
//! entry the game follows, the position and the turn phase; a start whose moves do not replay
//! changes nothing but the error. The menu's Start and a loaded save arrive as that message.
use bevy::prelude::*;
use boardcraft::{
    game::config::{Level, PlayerKind, Players},
    game::match_state::{
        AppState, ContinueGame, Follows, Match, ResignRequested, StartError, StartGame, TurnPhase,
    },
    game::variants::{NewGameRequested, VariantLibrary},
    persistence::{LoadRequested, SaveRequested, SaveSlots, storage::Storage},
};
use boardcraft_rules::{Seat, shipped_variant};

use crate::common::*;

/// Every `StartGame` sent, in order.
#[derive(Resource, Default)]
struct Starts(Vec<StartGame>);

fn record_starts(mut reader: MessageReader<StartGame>, mut starts: ResMut<Starts>) {
    starts.0.extend(reader.read().cloned());
}

fn recording(mut app: App) -> App {
    app.init_resource::<Starts>()
        .add_systems(Last, record_starts);
    app
}

fn human_and_computer() -> Players {
    Players::two(PlayerKind::Human, PlayerKind::Computer(Level::Novice))
}

/// Two frames: the start is handled in the first, its state changes are entered in the second.
fn settle(app: &mut App) {
    app.update();
    app.update();
}

fn playing(world: &World) -> Option<String> {
    world.resource::<VariantLibrary>().playing.clone()
}

#[test]
fn start_game_sets_the_seats_the_followed_entry_the_position_and_the_phase() {
    let mut app = app_for("ugolki-hg-3x3", "", humans());
    start(&mut app);
    let before = app.world().resource::<Match>().game_id;
    assert_eq!(
        playing(app.world()).as_deref(),
        Some("variants/ugolki-hg-3x3.ron")
    );

    let focus = shipped_variant("focus").unwrap();
    app.world_mut().write_message(
        StartGame::new(focus.into(), "")
            .with_players(human_and_computer())
            .following("variants/focus.ron"),
    );
    settle(&mut app);
    let world = app.world();
    let game = world.resource::<Match>();
    assert_eq!(game.variant.name, "focus");
    assert_eq!(game.game_id, before + 1);
    assert!(game.history.is_empty());
    assert_eq!(*world.resource::<Players>(), human_and_computer());
    assert_eq!(playing(world).as_deref(), Some("variants/focus.ron"));
    assert_eq!(app_state(world), AppState::InGame);
    assert_eq!(stable_phase(world), Some(TurnPhase::Ready));

    // A start that keeps the seats and the entry (a rematch), of a game already over: the
    // phase is GameOver, the seats and the followed entry stay.
    let focus = world.resource::<Match>().variant.clone();
    app.world_mut().write_message(StartGame {
        resigned: Some(Seat::WHITE),
        ..StartGame::new(focus, "")
    });
    settle(&mut app);
    let world = app.world();
    assert_eq!(world.resource::<Match>().resigned, Some(Seat::WHITE));
    assert_eq!(*world.resource::<Players>(), human_and_computer());
    assert_eq!(playing(world).as_deref(), Some("variants/focus.ron"));
    assert_eq!(stable_phase(world), Some(TurnPhase::GameOver));

    // An exercise's start follows no entry.
    let focus = world.resource::<Match>().variant.clone();
    app.world_mut().write_message(StartGame {
        follows: Follows::Nothing,
        ..StartGame::new(focus, "")
    });
    settle(&mut app);
    assert_eq!(playing(app.world()), None);
    assert_eq!(stable_phase(app.world()), Some(TurnPhase::Ready));
}

#[test]
fn a_start_whose_moves_do_not_replay_changes_nothing_but_the_error() {
    let mut app = app_for("ugolki-hg-3x3", "", humans());
    start(&mut app);
    let game_id = app.world().resource::<Match>().game_id;
    let variant = app.world().resource::<Match>().variant.clone();
    app.world_mut().write_message(
        StartGame::new(variant, "not-a-move")
            .with_players(human_and_computer())
            .following("variants/focus.ron"),
    );
    app.update();
    app.update();
    let world = app.world();
    assert_eq!(app_state(world), AppState::Failed);
    assert!(world.resource::<StartError>().0.is_some());
    assert_eq!(world.resource::<Match>().game_id, game_id);
    assert_eq!(*world.resource::<Players>(), humans());
    assert_eq!(
        playing(world).as_deref(),
        Some("variants/ugolki-hg-3x3.ron")
    );
}

#[test]
fn the_menu_start_arrives_as_start_game() {
    let mut app = recording(app_for("ugolki-hg-3x3", "", humans()));
    app.insert_state(AppState::Menu);
    run_until_loaded(&mut app, 60, "the variant library", |w| {
        w.resource::<VariantLibrary>().settled()
    });
    app.world_mut().write_message(NewGameRequested {
        path: "variants/focus.ron".into(),
        players: human_and_computer(),
    });
    run_until(&mut app, 20, "the menu's game", |w| {
        w.contains_resource::<Match>() && app_state(w) == AppState::InGame
    });
    let world = app.world();
    let starts = &world.resource::<Starts>().0;
    assert_eq!(starts.len(), 1, "one start: {starts:?}");
    assert_eq!(starts[0].variant.name, "focus");
    assert_eq!(starts[0].players, Some(human_and_computer()));
    assert_eq!(
        starts[0].follows,
        Follows::Entry("variants/focus.ron".into())
    );
    assert_eq!(*world.resource::<Players>(), human_and_computer());
    assert_eq!(playing(world).as_deref(), Some("variants/focus.ron"));
}

#[test]
fn a_loaded_save_arrives_as_start_game() {
    let home = tempfile::tempdir().unwrap();
    let mut app = app_for("ugolki-hg-3x3", "f2:f4", humans());
    app.insert_resource(Storage::folder(home.path()));
    start(&mut app);
    app.world_mut().write_message(SaveRequested {
        slot: "kept".into(),
    });
    run_until(&mut app, 20, "the save", |w| {
        w.resource::<SaveSlots>().0.iter().any(|s| s.slot == "kept")
    });
    drop(app);

    // Another run with other seats and another variant: the load starts the saved game
    // through `StartGame`, which seats the saved players and follows the saved variant.
    let mut app = recording(app_for("focus", "", human_and_computer()));
    app.insert_resource(Storage::folder(home.path()));
    start(&mut app);
    run_until_loaded(&mut app, 60, "the variant library", |w| {
        w.resource::<VariantLibrary>().settled()
    });
    app.world_mut().resource_mut::<Starts>().0.clear();
    app.world_mut().write_message(LoadRequested {
        slot: "kept".into(),
    });
    run_until(&mut app, 20, "the loaded game", |w| {
        w.resource::<Match>().variant.name == "ugolki-hg-3x3"
    });
    app.update();
    let world = app.world();
    let starts = &world.resource::<Starts>().0;
    assert_eq!(starts.len(), 1, "one start: {starts:?}");
    assert_eq!(starts[0].after, "f2:f4");
    assert_eq!(starts[0].players, Some(humans()));
    assert_eq!(
        starts[0].follows,
        Follows::Entry("variants/ugolki-hg-3x3.ron".into())
    );
    assert_eq!(world.resource::<Match>().line(), "f2:f4");
    assert_eq!(*world.resource::<Players>(), humans());
    assert_eq!(
        playing(world).as_deref(),
        Some("variants/ugolki-hg-3x3.ron")
    );
}

#[test]
fn continuing_from_the_menu_returns_to_the_phase_the_game_rests_in() {
    let mut app = app_for("ugolki-hg-3x3", "", humans());
    start(&mut app);
    app.world_mut()
        .write_message(ResignRequested { side: Seat::WHITE });
    settle(&mut app);
    assert_eq!(stable_phase(app.world()), Some(TurnPhase::GameOver));
    app.world_mut()
        .resource_mut::<NextState<AppState>>()
        .set(AppState::Menu);
    settle(&mut app);
    assert_eq!(app_state(app.world()), AppState::Menu);
    assert_eq!(phase(app.world()), None);

    // Entering InGame again would start the phase at its default (Ready): the game is over.
    app.world_mut().write_message(ContinueGame);
    settle(&mut app);
    assert_eq!(app_state(app.world()), AppState::InGame);
    assert_eq!(stable_phase(app.world()), Some(TurnPhase::GameOver));
}
