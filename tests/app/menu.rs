//! The main menu's flow without the egui window: the game opens the menu unless a game is
//! named (`--variant`, `--after`; the page URL's `variant=`), the menu waits (the configured
//! game does not start by itself), and the menu's Start (a `NewGameRequested`) seats the
//! players and starts the chosen variant.
use bevy::prelude::*;
use boardcraft::{
    game::config::{GameConfig, Level, PlayerKind, Players, VariantChoice},
    game::match_state::{AppState, Match, TurnPhase},
    game::variants::{NewGameRequested, VariantLibrary},
};

use crate::common::*;

fn command_line(args: &[&str]) -> boardcraft::game::config::Cli {
    use clap::Parser;
    boardcraft::game::config::Cli::try_parse_from(
        std::iter::once("boardcraft").chain(args.iter().copied()),
    )
    .unwrap()
}

#[test]
fn the_first_screen_is_the_menu_unless_a_game_is_named() {
    use boardcraft::game::config::{DEFAULT_VARIANT, QueryOptions};
    // A new player, on the desktop and in the browser, starts in the menu.
    assert!(command_line(&[]).opens_menu());
    assert!(command_line(&["--lang", "ru", "--black", "master"]).opens_menu());
    let page = |pairs: &[(&str, &str)]| {
        QueryOptions::parse(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string()))).cli
    };
    assert!(page(&[]).opens_menu());
    // A named game starts directly, as before; moves alone start the default variant.
    assert!(!command_line(&["--variant", "halma-16"]).opens_menu());
    assert!(!page(&[("variant", "gipf-basic")]).opens_menu());
    let moves = command_line(&["--after", "g2:e2"]);
    assert!(!moves.opens_menu());
    assert_eq!(
        moves.game_config().variant,
        VariantChoice::Name(DEFAULT_VARIANT.into())
    );
    // `--menu` keeps the menu, with the named game preselected.
    let both = command_line(&["--menu", "--variant", "focus"]);
    assert!(both.opens_menu());
    assert_eq!(
        both.game_config().variant,
        VariantChoice::Name("focus".into())
    );
}

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

    let players = Players::two(PlayerKind::Computer(Level::Strong), PlayerKind::Human);
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
