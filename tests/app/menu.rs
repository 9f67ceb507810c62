//! The main menu's flow without the egui window: `--menu` waits in the menu (the configured
//! game does not start by itself), and the menu's Start (a `NewGameRequested`) seats the
//! players and starts the chosen variant.
use bevy::prelude::*;
use boardcraft::{
    game::config::{GameConfig, Level, PlayerKind, Players, VariantChoice},
    game::match_state::{AppState, Match, TurnPhase},
    game::variants::{NewGameRequested, VariantLibrary},
};

use crate::common::*;

#[test]
fn the_menu_starts_the_chosen_game_with_the_chosen_players() {
    let mut app = app_for("ugolki-hg-3x3", "", humans());
    app.insert_state(AppState::Menu);
    run_until(&mut app, 600, "the library", |w| {
        w.resource::<VariantLibrary>().settled()
    });
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(app_state(app.world()), AppState::Menu);
    assert!(
        !app.world().contains_resource::<Match>(),
        "in the menu, no game starts by itself"
    );

    let players = Players {
        white: PlayerKind::Computer(Level::Strong),
        black: PlayerKind::Human,
    };
    app.world_mut().write_message(NewGameRequested {
        path: "variants/focus.ron".into(),
        players: players.clone(),
    });
    run_until(&mut app, 100, "the game", |w| {
        app_state(w) == AppState::InGame && w.contains_resource::<Match>()
    });
    let world = app.world();
    assert_eq!(world.resource::<Match>().variant.name, "focus");
    assert_eq!(*world.resource::<Players>(), players);
    assert_eq!(
        world.resource::<VariantLibrary>().playing.as_deref(),
        Some("variants/focus.ron")
    );
    assert_eq!(
        world.resource::<GameConfig>().variant,
        VariantChoice::Name("focus".into())
    );
    assert!(matches!(
        phase(world),
        Some(TurnPhase::Ready | TurnPhase::Animating)
    ));
}

#[test]
fn an_unplayable_entry_starts_nothing() {
    let mut app = app_for("ugolki-hg-3x3", "", humans());
    app.insert_state(AppState::Menu);
    run_until(&mut app, 600, "the library", |w| {
        w.resource::<VariantLibrary>().settled()
    });
    app.world_mut().write_message(NewGameRequested {
        path: "variants/no-such-game.ron".into(),
        players: humans(),
    });
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(app_state(app.world()), AppState::Menu);
    assert!(!app.world().contains_resource::<Match>());
}
