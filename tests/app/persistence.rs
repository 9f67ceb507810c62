//! Saves and settings in the running game: save → load round trips, rejected saves that leave
//! the current game alone, damaged files reported and left untouched, settings kept between
//! runs, the slot list. Each test has its own data folder.
use std::{fs, path::Path};

use bevy::prelude::*;
use boardcraft::{
    game::config::{GameConfig, Level, PlayerKind, Players, VariantChoice},
    game::match_state::{
        EndCause, GameDecided, GameEnd, Match, ResignRequested, TurnPhase, UndoRequested,
    },
    persistence::storage::Storage,
    persistence::{
        DeleteRequested, LoadRequested, Notice, PersistenceAction, PersistenceResult, SETTINGS_KEY,
        SETTINGS_WRITE_DELAY_SECS, SaveError, SaveRequested, SaveSlots, SettingsProblem,
        SlotResult, StorageStatus, settings_text,
    },
    settings::{Language, Settings},
};
use boardcraft_rules::{Seat, shipped_variant};
use boardcraft_saves::SavedGame;

use crate::common::*;

/// Every persistence result, in order.
#[derive(Resource, Default)]
struct Results(Vec<PersistenceResult>);

fn record_results(mut reader: MessageReader<PersistenceResult>, mut results: ResMut<Results>) {
    results.0.extend(reader.read().cloned());
}

/// A started game of `variant` after `after`, storing in `home`.
fn app_in(home: &Path, variant: &str, after: &str, players: Players) -> App {
    let mut app = app_for(variant, after, players);
    app.insert_resource(Storage::folder(home))
        .init_resource::<Results>()
        .add_systems(Last, record_results);
    start(&mut app);
    // A save may be of any variant: wait for every file of the library, not just the game's.
    run_until_loaded(&mut app, 60, "the variant library", |w| {
        w.resource::<boardcraft::game::variants::VariantLibrary>()
            .settled()
    });
    app
}

/// Sends a request and runs until a result arrives; returns the results of that request.
fn ask(app: &mut App, request: impl Message) -> Vec<PersistenceResult> {
    let before = app.world().resource::<Results>().0.len();
    app.world_mut().write_message(request);
    run_until(app, 20, "a persistence result", |w| {
        w.resource::<Results>().0.len() > before
    });
    // Notices follow their result in the same frame.
    app.world().resource::<Results>().0[before..].to_vec()
}

fn failure(results: &[PersistenceResult]) -> (PersistenceAction, SaveError) {
    match results {
        [PersistenceResult::Failed { action, error, .. }] => (*action, error.clone()),
        other => panic!("expected one failure, got {other:?}"),
    }
}

/// The game as a comparable value: variant, moves, outcome.
fn game_of(world: &World) -> (String, String, Option<String>, u64) {
    let game = world.resource::<Match>();
    (
        game.variant.name.clone(),
        game.line(),
        game.outcome().map(|o| o.to_string()),
        game.game_id,
    )
}

#[test]
fn a_finished_game_round_trips() {
    let home = tempfile::tempdir().unwrap();
    let line = finished_line("gipf-basic").join(" ");
    let players = Players::two(PlayerKind::Human, PlayerKind::Computer(Level::Master));
    let mut app = app_in(home.path(), "gipf-basic", &line, players.clone());
    assert_eq!(phase(app.world()), Some(TurnPhase::GameOver));
    let saved = game_of(app.world());
    assert!(saved.2.is_some());
    let results = ask(
        &mut app,
        SaveRequested {
            slot: "done".into(),
        },
    );
    assert!(matches!(&results[..], [PersistenceResult::Saved { slot }] if slot == "done"));
    drop(app);

    // Another run, another game, human players: the load brings everything back.
    let mut app = app_in(home.path(), "ugolki-hg-3x3", "f2:f4", humans());
    let results = ask(
        &mut app,
        LoadRequested {
            slot: "done".into(),
        },
    );
    assert!(
        matches!(&results[..], [PersistenceResult::Loaded { slot }] if slot == "done"),
        "{results:?}"
    );
    run_until(&mut app, 50, "the loaded game", |w| {
        w.resource::<Match>().variant.name == "gipf-basic"
    });
    app.update();
    let loaded = game_of(app.world());
    assert_eq!(
        (&loaded.0, &loaded.1, &loaded.2),
        (&saved.0, &saved.1, &saved.2)
    );
    assert_eq!(*app.world().resource::<Players>(), players);
    assert_eq!(phase(app.world()), Some(TurnPhase::GameOver));
    assert_same_pieces(
        &view_snapshot(app.world_mut()),
        &rules_snapshot(app.world()),
    );
}

#[test]
fn a_resigned_game_round_trips_as_resigned() {
    let home = tempfile::tempdir().unwrap();
    let mut app = app_in(home.path(), "ugolki-hg-3x3", "f2:f4 c7-d7", humans());
    app.world_mut()
        .write_message(ResignRequested { side: Seat::WHITE });
    run_until(&mut app, 20, "the resignation", |w| {
        phase(w) == Some(TurnPhase::GameOver)
    });
    let resigned = GameEnd::two(Some(Seat::BLACK), EndCause::Resigned(Seat::WHITE));
    assert_eq!(app.world().resource::<Match>().end(), Some(resigned));
    ask(
        &mut app,
        SaveRequested {
            slot: "gave up".into(),
        },
    );
    let slots = app.world().resource::<SaveSlots>().0.clone();
    let listed = slots.iter().find(|s| s.slot == "gave up").expect("listed");
    assert_eq!(listed.result, SlotResult::Over(resigned));
    drop(app);

    // Another run, a game still on: the load brings back a game that is over, by resignation.
    let mut app = app_in(home.path(), "ugolki-hg-3x3", "f2:f4", humans());
    assert_eq!(app.world().resource::<Match>().end(), None);
    load_line(&mut app, "gave up", "f2:f4 c7-d7");
    let game = app.world().resource::<Match>();
    assert_eq!(game.end(), Some(resigned));
    assert_eq!(game.outcome(), None, "the rules did not end it");
    assert_eq!(phase(app.world()), Some(TurnPhase::GameOver));

    // As in play, an undo takes the resignation back and the game goes on.
    app.world_mut().write_message(UndoRequested);
    run_until(&mut app, 20, "the resignation taken back", |w| {
        stable_phase(w) == Some(TurnPhase::Ready)
    });
    let game = app.world().resource::<Match>();
    assert_eq!((game.end(), game.line()), (None, "f2:f4 c7-d7".to_owned()));
}

/// Loads `slot` and waits until the board shows its game, the moves `line`.
fn load_line(app: &mut App, slot: &str, line: &str) {
    let results = ask(app, LoadRequested { slot: slot.into() });
    assert!(
        matches!(&results[..], [PersistenceResult::Loaded { .. }]),
        "{results:?}"
    );
    run_until(app, 50, "the loaded game", |w| {
        w.resource::<Match>().line() == line
    });
    app.update();
}

/// An online game that ended on time, by abandonment or by an agreed draw (none of them a rule
/// the replay can find) is saved with that end and loads as over, with it.
#[test]
fn a_game_decided_online_round_trips_with_its_end() {
    for (slot, end) in [
        (
            "on time",
            GameEnd::two(Some(Seat::BLACK), EndCause::Timeout(Seat::WHITE)),
        ),
        (
            "abandoned",
            GameEnd::two(Some(Seat::WHITE), EndCause::Abandoned(Seat::BLACK)),
        ),
        ("agreed", GameEnd::two(None, EndCause::DrawAgreed)),
    ] {
        let home = tempfile::tempdir().unwrap();
        let mut app = app_in(home.path(), "ugolki-hg-3x3", "f2:f4 c7-d7", humans());
        app.world_mut().write_message(GameDecided(end));
        run_until(&mut app, 20, "the decided end", |w| {
            phase(w) == Some(TurnPhase::GameOver)
        });
        assert_eq!(app.world().resource::<Match>().end(), Some(end));
        ask(&mut app, SaveRequested { slot: slot.into() });
        let slots = app.world().resource::<SaveSlots>().0.clone();
        let listed = slots.iter().find(|s| s.slot == slot).expect("listed");
        assert_eq!(listed.result, SlotResult::Over(end), "{slot}");
        drop(app);

        let mut app = app_in(home.path(), "ugolki-hg-3x3", "", humans());
        load_line(&mut app, slot, "f2:f4 c7-d7");
        let game = app.world().resource::<Match>();
        assert_eq!(game.end(), Some(end), "{slot}");
        assert_eq!(game.outcome(), None, "the rules did not end it");
        assert_eq!(phase(app.world()), Some(TurnPhase::GameOver));
    }
}

#[test]
fn an_unfinished_game_round_trips_and_plays_on() {
    let home = tempfile::tempdir().unwrap();
    let mut app = app_in(home.path(), "ugolki-hg-3x3", "", humans());
    for mv in ["f2:f4", "c7-d7", "g2:e4"] {
        play_animated(&mut app, mv);
    }
    let saved = game_of(app.world());
    assert_eq!(saved.1, "f2:f4 c7-d7 g2:g4:e4");
    ask(
        &mut app,
        SaveRequested {
            slot: "Партия 1".into(),
        },
    );
    let file = home.path().join("saves/Партия 1.ron");
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"g2:g4:e4\""), "{text}");

    let mut app = app_in(home.path(), "focus", "", humans());
    let results = ask(
        &mut app,
        LoadRequested {
            slot: "Партия 1".into(),
        },
    );
    assert!(
        matches!(&results[..], [PersistenceResult::Loaded { .. }]),
        "{results:?}"
    );
    run_until(&mut app, 50, "the loaded game", |w| {
        w.resource::<Match>().variant.name == "ugolki-hg-3x3"
    });
    start(&mut app);
    let loaded = game_of(app.world());
    assert_eq!(
        (&loaded.0, &loaded.1, &loaded.2),
        (&saved.0, &saved.1, &saved.2)
    );
    assert_eq!(phase(app.world()), Some(TurnPhase::Ready));
    assert_same_pieces(
        &view_snapshot(app.world_mut()),
        &rules_snapshot(app.world()),
    );
    // The loaded game goes on.
    play_animated(&mut app, "a6-a5");
    assert_eq!(app.world().resource::<Match>().history.len(), 4);
}

/// A game in progress that a failed load must leave exactly as it is.
fn game_in_progress(home: &Path) -> (App, (String, String, Option<String>, u64)) {
    let mut app = app_in(home, "ugolki-hg-3x3", "f2:f4 c7-d7", humans());
    app.update();
    let before = game_of(app.world());
    (app, before)
}

fn assert_untouched(app: &mut App, before: &(String, String, Option<String>, u64)) {
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(&game_of(app.world()), before, "the current game changed");
    assert_eq!(phase(app.world()), Some(TurnPhase::Ready));
}

fn write_save(home: &Path, slot: &str, save: &SavedGame) -> std::path::PathBuf {
    let path = home.join("saves").join(format!("{slot}.ron"));
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, save.to_ron()).unwrap();
    path
}

fn a_save(moves: &[&str]) -> SavedGame {
    let variant = shipped_variant("ugolki-hg-3x3").unwrap();
    SavedGame::new(
        &variant,
        boardcraft_saves::Player::Human,
        boardcraft_saves::Player::Human,
        moves.iter().map(|m| m.to_string()).collect(),
        None,
    )
}

#[test]
fn a_tampered_save_is_rejected_and_the_current_game_kept() {
    let home = tempfile::tempdir().unwrap();
    let (mut app, before) = game_in_progress(home.path());
    // The third move starts from c7, which the second move emptied.
    let path = write_save(
        home.path(),
        "tampered",
        &a_save(&["f2:f4", "c7-d7", "c7-c6"]),
    );
    let bytes = fs::read(&path).unwrap();
    let (action, error) = failure(&ask(
        &mut app,
        LoadRequested {
            slot: "tampered".into(),
        },
    ));
    assert_eq!(action, PersistenceAction::Load);
    assert!(
        matches!(&error, SaveError::IllegalMove { number: 3, notation, .. } if notation == "c7-c6"),
        "{error:?}"
    );
    assert_untouched(&mut app, &before);
    assert_eq!(fs::read(&path).unwrap(), bytes, "the save file was changed");
}

#[test]
fn saves_of_unknown_variants_or_other_formats_are_rejected() {
    let home = tempfile::tempdir().unwrap();
    let (mut app, before) = game_in_progress(home.path());
    let mut save = a_save(&[]);
    save.variant = "no-such-game".into();
    write_save(home.path(), "unknown", &save);
    let (_, error) = failure(&ask(
        &mut app,
        LoadRequested {
            slot: "unknown".into(),
        },
    ));
    assert_eq!(
        error,
        SaveError::UnknownVariant {
            name: "no-such-game".into()
        }
    );
    let path = home.path().join("saves/newer.ron");
    fs::write(
        &path,
        a_save(&[])
            .to_ron()
            .replace("format_version: 1", "format_version: 7"),
    )
    .unwrap();
    let (_, error) = failure(&ask(
        &mut app,
        LoadRequested {
            slot: "newer".into(),
        },
    ));
    assert!(matches!(
        error,
        SaveError::UnsupportedVersion { found: 7, .. }
    ));
    let (_, error) = failure(&ask(
        &mut app,
        LoadRequested {
            slot: "nothing here".into(),
        },
    ));
    assert_eq!(error, SaveError::Missing);
    let (_, error) = failure(&ask(
        &mut app,
        LoadRequested {
            slot: "../escape".into(),
        },
    ));
    assert!(matches!(error, SaveError::InvalidSlotName { .. }));
    assert_untouched(&mut app, &before);
}

/// A save written before `gipf-seed` became `gipf-steps` names the old variant: it loads on
/// the renamed one, with the note that the variant file changed (the rename changed it).
#[test]
fn a_save_naming_a_former_variant_name_loads() {
    let home = tempfile::tempdir().unwrap();
    let (mut app, _) = game_in_progress(home.path());
    let old = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/saves/tests/before-rename/gipf-seed-midgame.ron"
    ))
    .unwrap();
    assert!(old.contains("variant: \"gipf-seed\""));
    fs::create_dir_all(home.path().join("saves")).unwrap();
    fs::write(home.path().join("saves/before-rename.ron"), &old).unwrap();
    let results = ask(
        &mut app,
        LoadRequested {
            slot: "before-rename".into(),
        },
    );
    assert!(
        matches!(&results[0], PersistenceResult::Loaded { slot } if slot == "before-rename"),
        "{results:?}"
    );
    run_until(&mut app, 50, "the loaded game", |w| {
        w.resource::<Match>().variant.name == "gipf-steps"
    });
    app.update();
    assert_eq!(
        app.world().resource::<Match>().line().split(' ').count(),
        24
    );
}

#[test]
fn truncated_and_corrupted_saves_are_reported_and_left_untouched() {
    let home = tempfile::tempdir().unwrap();
    let (mut app, before) = game_in_progress(home.path());
    let full = a_save(&["f2:f4", "c7-d7"]).to_ron().into_bytes();
    let cuts = [0, 1, full.len() / 3, full.len() / 2, full.len() - 3];
    for cut in cuts {
        let path = home.path().join("saves/cut.ron");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, &full[..cut]).unwrap();
        let (_, error) = failure(&ask(&mut app, LoadRequested { slot: "cut".into() }));
        assert!(
            matches!(error, SaveError::Truncated { .. } | SaveError::Empty),
            "cut at {cut}: {error:?}"
        );
        assert_eq!(fs::read(&path).unwrap(), &full[..cut]);
    }
    let mut corrupt = full.clone();
    corrupt[10] = 0xfe;
    let path = home.path().join("saves/corrupt.ron");
    fs::write(&path, &corrupt).unwrap();
    let (_, error) = failure(&ask(
        &mut app,
        LoadRequested {
            slot: "corrupt".into(),
        },
    ));
    assert_eq!(error, SaveError::NotText { offset: 10 });
    assert_eq!(fs::read(&path).unwrap(), corrupt);
    assert_untouched(&mut app, &before);
    // The broken saves are listed with their problem, so the player can see and delete them.
    ask(
        &mut app,
        SaveRequested {
            slot: "good".into(),
        },
    );
    let slots = app.world().resource::<SaveSlots>().0.clone();
    let cut = slots.iter().find(|s| s.slot == "cut").expect("listed");
    assert!(
        matches!(
            cut.result,
            SlotResult::Unreadable(SaveError::Truncated { .. })
        ),
        "{cut:?}"
    );
}

#[test]
fn a_damaged_save_with_a_backup_loads_the_backup_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let (mut app, _) = game_in_progress(home.path());
    ask(
        &mut app,
        SaveRequested {
            slot: "game".into(),
        },
    );
    play_animated(&mut app, "g2:e4");
    ask(
        &mut app,
        SaveRequested {
            slot: "game".into(),
        },
    );
    let path = home.path().join("saves/game.ron");
    let bak = home.path().join("saves/game.ron.bak");
    assert!(fs::read_to_string(&path).unwrap().contains("g2:g4:e4"));
    assert!(!fs::read_to_string(&bak).unwrap().contains("g2:g4:e4"));
    // The newest save is cut short (say, a disk problem).
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() - 20]).unwrap();
    let results = ask(
        &mut app,
        LoadRequested {
            slot: "game".into(),
        },
    );
    match &results[..] {
        [
            PersistenceResult::Loaded { .. },
            PersistenceResult::Notice {
                notice: Notice::RecoveredFromBackup { problem },
                ..
            },
        ] => assert!(matches!(problem, SaveError::Truncated { .. })),
        other => panic!("{other:?}"),
    }
    run_until(&mut app, 50, "the backup's game", |w| {
        w.resource::<Match>().history.len() == 2
    });
    assert_eq!(fs::read(&path).unwrap(), &bytes[..bytes.len() - 20]);
    // Saving again keeps the damaged file apart and the good backup in place.
    let results = ask(
        &mut app,
        SaveRequested {
            slot: "game".into(),
        },
    );
    assert!(matches!(
        &results[..],
        [
            PersistenceResult::Saved { .. },
            PersistenceResult::Notice {
                notice: Notice::KeptDamagedFile,
                ..
            }
        ]
    ));
    assert_eq!(
        fs::read(home.path().join("saves/game.ron.damaged")).unwrap(),
        &bytes[..bytes.len() - 20]
    );
    assert!(!fs::read_to_string(&bak).unwrap().contains("g2:g4:e4"));
}

#[test]
fn slots_are_listed_newest_first_and_deleted() {
    let home = tempfile::tempdir().unwrap();
    for (slot, time) in [("old", 1_600_000_000), ("new", 1_700_000_000)] {
        write_save(home.path(), slot, &a_save(&["f2:f4"]).with_saved_at(time));
    }
    let (mut app, _) = game_in_progress(home.path());
    let names = |app: &App| -> Vec<String> {
        app.world()
            .resource::<SaveSlots>()
            .0
            .iter()
            .map(|s| s.slot.clone())
            .collect()
    };
    assert_eq!(names(&app), ["new", "old"]);
    let first = &app.world().resource::<SaveSlots>().0[0];
    assert_eq!(first.variant_title, "Ugolki 3×3 (Happy Games)");
    assert_eq!(first.plies, 1);
    assert_eq!(first.result, SlotResult::Unfinished);
    ask(&mut app, SaveRequested { slot: "now".into() });
    assert_eq!(names(&app), ["now", "new", "old"]);
    assert_eq!(app.world().resource::<SaveSlots>().0[0].plies, 2);
    let results = ask(&mut app, DeleteRequested { slot: "new".into() });
    assert!(matches!(&results[..], [PersistenceResult::Deleted { slot }] if slot == "new"));
    assert_eq!(names(&app), ["now", "old"]);
    // Its last version is kept as a backup file.
    assert!(home.path().join("saves/new.ron.bak").exists());
    let (_, error) = failure(&ask(&mut app, DeleteRequested { slot: "new".into() }));
    assert_eq!(error, SaveError::Missing);
}

fn settings_app(home: &Path) -> App {
    app_in(home, "ugolki-hg-3x3", "", humans())
}

/// Runs long enough for a settings change to be written.
fn settle_settings(app: &mut App) {
    let frames = (SETTINGS_WRITE_DELAY_SECS / STEP.as_secs_f64()).ceil() as u32 + 3;
    for _ in 0..frames {
        app.update();
    }
}

#[test]
fn settings_persist_between_runs() {
    let home = tempfile::tempdir().unwrap();
    let mut app = settings_app(home.path());
    assert_eq!(*app.world().resource::<Settings>(), Settings::default());
    settle_settings(&mut app);
    // Nothing changed, nothing written.
    assert!(!home.path().join(SETTINGS_KEY).exists());
    let changed = Settings {
        effects_volume: 0.25,
        language: Language::Russian,
        coach: true,
        ui_scale: 1.3,
        ..Settings::default()
    };
    *app.world_mut().resource_mut::<Settings>() = changed.clone();
    settle_settings(&mut app);
    let text = fs::read_to_string(home.path().join(SETTINGS_KEY)).unwrap();
    assert!(text.contains("Russian"), "{text}");
    drop(app);
    let app = settings_app(home.path());
    assert_eq!(*app.world().resource::<Settings>(), changed);
    assert!(
        app.world()
            .resource::<StorageStatus>()
            .settings_problem
            .is_none()
    );
}

#[test]
fn damaged_settings_are_reported_left_untouched_and_the_defaults_used() {
    let full = settings_text(&Settings {
        coach: true,
        ..Settings::default()
    })
    .into_bytes();
    let cases: Vec<Vec<u8>> = vec![
        full[..full.len() / 2].to_vec(),
        full[..full.len() - 3].to_vec(),
        Vec::new(),
        b"\x00\xff\xfe binary junk".to_vec(),
        b"(coach: maybe)".to_vec(),
    ];
    for damaged in cases {
        let home = tempfile::tempdir().unwrap();
        let path = home.path().join(SETTINGS_KEY);
        fs::write(&path, &damaged).unwrap();
        let mut app = settings_app(home.path());
        assert_eq!(*app.world().resource::<Settings>(), Settings::default());
        let problem = app
            .world()
            .resource::<StorageStatus>()
            .settings_problem
            .clone()
            .expect("the problem is reported");
        assert!(!problem.recovered_from_backup);
        assert!(problem.error.is_damage(), "{:?}", problem.error);
        // Reported once, as a failed settings load.
        let reports: Vec<_> = app
            .world()
            .resource::<Results>()
            .0
            .iter()
            .filter(|r| {
                matches!(
                    r,
                    PersistenceResult::Failed {
                        action: PersistenceAction::LoadSettings,
                        ..
                    }
                )
            })
            .cloned()
            .collect();
        assert_eq!(reports.len(), 1, "{reports:?}");
        settle_settings(&mut app);
        assert_eq!(fs::read(&path).unwrap(), damaged, "the file was touched");
        // When the player changes a setting, the damaged file is kept beside the new one.
        app.world_mut().resource_mut::<Settings>().coach = true;
        settle_settings(&mut app);
        assert_eq!(
            fs::read(home.path().join("settings.ron.damaged")).unwrap(),
            damaged
        );
        let app = settings_app(home.path());
        assert!(app.world().resource::<Settings>().coach);
    }
}

#[test]
fn truncated_settings_fall_back_to_the_previous_version() {
    let home = tempfile::tempdir().unwrap();
    let mut app = settings_app(home.path());
    app.world_mut().resource_mut::<Settings>().effects_volume = 0.5;
    settle_settings(&mut app);
    app.world_mut().resource_mut::<Settings>().effects_volume = 0.1;
    settle_settings(&mut app);
    drop(app);
    let path = home.path().join(SETTINGS_KEY);
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() - 4]).unwrap();
    let app = settings_app(home.path());
    assert_eq!(app.world().resource::<Settings>().effects_volume, 0.5);
    assert!(matches!(
        app.world().resource::<StorageStatus>().settings_problem,
        Some(SettingsProblem {
            recovered_from_backup: true,
            error: SaveError::Truncated { .. }
        })
    ));
    assert_eq!(fs::read(&path).unwrap(), &bytes[..bytes.len() - 4]);
}

#[test]
fn a_game_from_a_position_given_as_text_round_trips_from_that_position() {
    let home = tempfile::tempdir().unwrap();
    // Ugolki (9qum) at ply 20, where the 40-move rule already counts: the save must keep the
    // start position, not only the moves played from it.
    let text = "5B2/5BBB/5BBB/8/8/1B1B4/WWW2W2/WWWW2W1 w 20";
    let config = GameConfig {
        variant: VariantChoice::Name("ugolki-9qum".into()),
        after: "a1:a3:c3:e3".into(),
        position: Some(text.to_owned()),
        players: None,
    };
    let mut app = boardcraft::automation::headless_app(config, humans(), STEP);
    app.insert_resource(Storage::folder(home.path()))
        .init_resource::<Results>()
        .add_systems(Last, record_results);
    start(&mut app);
    let saved = game_of(app.world());
    let saved_position = app.world().resource::<Match>().position.to_text();
    let results = ask(
        &mut app,
        SaveRequested {
            slot: "from-text".into(),
        },
    );
    assert!(
        matches!(&results[..], [PersistenceResult::Saved { .. }]),
        "{results:?}"
    );
    let file = std::fs::read_to_string(home.path().join("saves/from-text.ron")).unwrap();
    assert!(file.contains(&format!("start: Some(\"{text}\")")), "{file}");
    drop(app);

    let mut app = app_in(home.path(), "ugolki-hg-3x3", "", humans());
    let results = ask(
        &mut app,
        LoadRequested {
            slot: "from-text".into(),
        },
    );
    assert!(
        matches!(&results[..], [PersistenceResult::Loaded { .. }]),
        "{results:?}"
    );
    run_until(&mut app, 50, "the loaded game", |w| {
        w.resource::<Match>().variant.name == "ugolki-9qum"
    });
    let game = app.world().resource::<Match>();
    assert_eq!(game.start.to_text(), text);
    assert_eq!(game.position.to_text(), saved_position);
    assert_eq!(game.line(), saved.1);
}
