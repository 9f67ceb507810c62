//! Variant files as assets: a broken file is a visible error, never a panic; fixing it (hot
//! reload) starts the game.
use std::path::PathBuf;

use bevy::prelude::*;
use boardcraft::{
    game::match_state::{AppState, Match, StartError},
    game::variants::{EntryState, VariantLibrary},
};

use crate::common::*;

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardcraft-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const BROKEN: &str = r#"(
    format_version: 1,
    name: "broken",
    title: "Broken",
    rules: Race(
        width: 8,
        height: 8,
        colour: Red,
    ),
)"#;

#[test]
fn a_broken_variant_file_is_a_visible_error_and_a_fix_starts_the_game() {
    let dir = scratch("broken");
    let file = dir.join("broken.ron");
    std::fs::write(&file, BROKEN).unwrap();
    let mut app = app_for(file.to_str().unwrap(), "", humans());
    run_until(&mut app, 600, "failed state", |w| {
        app_state(w) == AppState::Failed
    });

    // The error names the file, the line and the problem, for the UI to show.
    let why = app
        .world()
        .resource::<StartError>()
        .0
        .clone()
        .expect("an error");
    assert!(why.contains("broken.ron"), "{why}");
    assert!(why.contains("colour"), "{why}");
    assert!(!app.world().contains_resource::<Match>());
    let library = app.world().resource::<VariantLibrary>();
    let (entry, _) = library
        .broken()
        .find(|(e, _)| e.path.ends_with("broken.ron"))
        .expect("the broken entry is listed");
    assert!(matches!(entry.state, EntryState::Broken(_)));

    // Still running, still failed, no panic.
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(app_state(app.world()), AppState::Failed);

    // The modder fixes the file; the reload (here asked for directly, in the game by the
    // file watcher) starts the game.
    let fixed = boardcraft_rules::variant::shipped_files()
        .iter()
        .find(|(f, _)| *f == "ugolki-hg-3x3.ron")
        .expect("ugolki-hg-3x3 is shipped")
        .1;
    std::fs::write(&file, fixed).unwrap();
    app.world()
        .resource::<AssetServer>()
        .reload("cli://broken.ron");
    run_until(&mut app, 600, "game after the fix", |w| {
        app_state(w) == AppState::InGame && w.contains_resource::<Match>()
    });
    assert!(app.world().resource::<StartError>().0.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// No loading frame between the start and the game: the update that starts the first game also
/// enters it and builds its board (in the browser the frame in between cost 0.6–1.0 s of the
/// page's load).
#[test]
fn the_first_game_is_on_in_the_frame_it_starts() {
    let mut app = app_for("ugolki-hg-3x3", "", humans());
    run_until(&mut app, 600, "the game started", |w| {
        w.contains_resource::<Match>()
    });
    assert_eq!(app_state(app.world()), AppState::InGame);
    assert!(
        app.world()
            .contains_resource::<boardcraft::view::board::Board>()
    );
}

#[test]
fn an_unknown_variant_name_is_a_visible_error() {
    let mut app = app_for("no-such-game", "", humans());
    run_until(&mut app, 600, "failed state", |w| {
        app_state(w) == AppState::Failed
    });
    let why = app
        .world()
        .resource::<StartError>()
        .0
        .clone()
        .expect("an error");
    assert!(why.contains("no-such-game"), "{why}");
}

#[test]
fn moves_that_do_not_replay_are_a_visible_error() {
    let mut app = app_for("ugolki-hg-3x3", "z9-z10", humans());
    run_until(&mut app, 600, "failed state", |w| {
        app_state(w) == AppState::Failed
    });
    let why = app
        .world()
        .resource::<StartError>()
        .0
        .clone()
        .expect("an error");
    assert!(why.contains("z9-z10"), "{why}");
}

#[test]
fn the_manifest_lists_every_shipped_variant() {
    let mut app = app_for("ugolki-hg-3x3", "", humans());
    run_until(&mut app, 600, "library loaded", |w| {
        w.resource::<VariantLibrary>().settled()
    });
    let library = app.world().resource::<VariantLibrary>();
    let loaded: Vec<&str> = library.ready().map(|(_, v)| v.name.as_str()).collect();
    // Every shipped variant the game plays, the star (Chinese checkers) among them; the
    // four-seat partnership Halma is the engine's and the CLI's until the game seats more
    // than two.
    let shipped: Vec<&str> = boardcraft_rules::shipped_variants()
        .filter(|&n| n != "halma-16-partners")
        .collect();
    assert_eq!(loaded, shipped);
    let star = boardcraft_rules::shipped_variant("chinese-checkers").unwrap();
    assert!(boardcraft::game::variants::drawable(&star));
    let partners = boardcraft_rules::shipped_variant("halma-16-partners").unwrap();
    assert!(!boardcraft::game::variants::drawable(&partners));
    assert_eq!(library.broken().count(), 0);
    assert_eq!(library.warned().count(), 0);
}

/// `--variant gipf-seed` (and the page's `variant=gipf-seed`) from before the rename starts the
/// renamed variant.
#[test]
fn a_former_variant_name_starts_the_renamed_game() {
    let mut app = app_for("gipf-seed-gipf", "", humans());
    run_until(&mut app, 600, "the game", |w| {
        app_state(w) == AppState::InGame && w.contains_resource::<Match>()
    });
    assert_eq!(
        app.world().resource::<Match>().variant.name,
        "gipf-steps-gipf-pieces"
    );
}

/// A file whose `name` differs from its file name plays (the name wins) and the library lists
/// its warning for the variant-files window, in the errors' file:line: field form.
#[test]
fn a_name_that_differs_from_the_file_name_plays_with_a_warning() {
    let dir = scratch("renamed");
    let file = dir.join("my-halma.ron");
    let halma = boardcraft_rules::variant::shipped_files()
        .iter()
        .find(|(f, _)| *f == "halma-16.ron")
        .expect("halma-16 is shipped")
        .1;
    std::fs::write(&file, halma).unwrap();
    let mut app = app_for(file.to_str().unwrap(), "", humans());
    run_until(&mut app, 600, "the game", |w| {
        app_state(w) == AppState::InGame && w.contains_resource::<Match>()
    });
    assert_eq!(app.world().resource::<Match>().variant.name, "halma-16");
    let library = app.world().resource::<VariantLibrary>();
    let warned: Vec<String> = library
        .warned()
        .flat_map(|(e, v)| v.warnings.iter().map(move |w| format!("{} {w}", e.path)))
        .collect();
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(
        warned[0].starts_with("cli://my-halma.ron cli://my-halma.ron:6: warning: field `name`"),
        "{warned:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
