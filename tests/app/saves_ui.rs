//! The save/load window's side of persistence: what it shows for each answer, in both
//! languages, over the real persistence systems (in-memory storage).
use bevy::prelude::*;
use boardcraft::{
    game::match_state::{Match, ResignRequested, TurnPhase},
    persistence::{
        LoadRequested, Notice, PersistenceAction, PersistenceResult, SaveError, SaveRequested,
        SaveSlots, SlotResult,
    },
    settings::Language,
    ui::{
        saves::{Heard, result_text},
        words::{save_error_text, slot_result_text},
    },
};
use boardcraft_rules::Seat;
use boardcraft_saves::{SaveWarning, SlotNameProblem};

use crate::common::*;

#[derive(Resource, Default)]
struct Heards(Vec<PersistenceResult>);

fn ask(app: &mut App, request: impl Message) -> PersistenceResult {
    let before = app.world().resource::<Heards>().0.len();
    app.world_mut().write_message(request);
    run_until(app, 20, "an answer", |w| {
        w.resource::<Heards>().0.len() > before
    });
    app.world().resource::<Heards>().0[before].clone()
}

#[test]
fn the_window_words_each_answer_of_a_save_and_load_round_trip() {
    let mut app = app_for("ugolki-9qum", "a3-a4 h6-h5", humans());
    app.init_resource::<Heards>().add_systems(
        Last,
        |mut r: MessageReader<PersistenceResult>, mut h: ResMut<Heards>| {
            h.0.extend(r.read().cloned())
        },
    );
    start(&mut app);
    let saved = ask(
        &mut app,
        SaveRequested {
            slot: "партия 1".into(),
        },
    );
    assert_eq!(
        result_text(Language::Russian, &saved),
        Heard::Status(true, "Партия сохранена как «партия 1».".into())
    );
    let slots = &app.world().resource::<SaveSlots>().0;
    assert!(slots.iter().any(|s| s.slot == "партия 1" && s.plies == 2));

    // Another game, then the save again.
    play_animated(&mut app, "b3-b4");
    let loaded = ask(
        &mut app,
        LoadRequested {
            slot: "партия 1".into(),
        },
    );
    assert_eq!(
        result_text(Language::English, &loaded),
        Heard::Status(true, "Loaded “партия 1”.".into())
    );
    run_until(&mut app, 100, "the loaded game", |w| {
        w.resource::<Match>().line() == "a3-a4 h6-h5"
    });

    let missing = ask(
        &mut app,
        LoadRequested {
            slot: "nothing".into(),
        },
    );
    assert_eq!(
        result_text(Language::Russian, &missing),
        Heard::Status(
            false,
            "Не удалось загрузить «nothing»: такого сохранения нет".into()
        )
    );
    let bad_name = ask(&mut app, SaveRequested { slot: "a/b".into() });
    let Heard::Status(false, text) = result_text(Language::Russian, &bad_name) else {
        panic!("a bad name fails: {bad_name:?}");
    };
    assert!(text.contains("допустимы только"), "{text}");
}

/// An app recording persistence answers, with `variant` started after `after`.
fn recording_app(variant: &str, after: &str) -> App {
    let mut app = app_for(variant, after, humans());
    app.init_resource::<Heards>().add_systems(
        Last,
        |mut r: MessageReader<PersistenceResult>, mut h: ResMut<Heards>| {
            h.0.extend(r.read().cloned())
        },
    );
    start(&mut app);
    app
}

/// The slot list's result of the game just saved as `slot`, in both languages.
fn listed_result(app: &mut App, slot: &str) -> (SlotResult, String, String) {
    ask(app, SaveRequested { slot: slot.into() });
    let slots = &app.world().resource::<SaveSlots>().0;
    let info = slots.iter().find(|s| s.slot == slot).expect("listed");
    (
        info.result.clone(),
        slot_result_text(Language::English, &info.result, &info.seats),
        slot_result_text(Language::Russian, &info.result, &info.seats),
    )
}

#[test]
fn the_slot_list_words_a_finished_games_result_in_both_languages() {
    // A game the rules ended: the headline of the game-over dialog.
    let line = finished_line("gipf-basic").join(" ");
    let mut app = recording_app("gipf-basic", &line);
    let end = app
        .world()
        .resource::<Match>()
        .end()
        .expect("the line ends the game");
    let (result, english, russian) = listed_result(&mut app, "done");
    assert_eq!(result, SlotResult::Over(end));
    let expected = match end.winner() {
        Some(Seat::WHITE) => ("White wins", "Победили белые"),
        Some(_) => ("Black wins", "Победили чёрные"),
        None => ("Draw", "Ничья"),
    };
    assert_eq!((english.as_str(), russian.as_str()), expected);

    // A resignation says who resigned.
    let mut app = recording_app("ugolki-hg-3x3", "f2:f4");
    app.world_mut()
        .write_message(ResignRequested { side: Seat::BLACK });
    run_until(&mut app, 20, "the resignation", |w| {
        phase(w) == Some(TurnPhase::GameOver)
    });
    let (_, english, russian) = listed_result(&mut app, "resigned");
    assert_eq!(english, "White wins: Black resigned");
    assert_eq!(russian, "Победили белые: чёрные сдались");

    // A game still on, and a save that cannot be read.
    let mut app = recording_app("ugolki-hg-3x3", "f2:f4");
    let (result, english, russian) = listed_result(&mut app, "on");
    assert_eq!(result, SlotResult::Unfinished);
    assert_eq!(
        (english.as_str(), russian.as_str()),
        ("unfinished", "не окончена")
    );
    let unreadable = SlotResult::Unreadable(SaveError::Empty);
    assert_eq!(
        slot_result_text(
            Language::Russian,
            &unreadable,
            &boardcraft::game::seat_names::SeatNames::two()
        ),
        "не читается: файл пуст"
    );
}

#[test]
fn every_storage_problem_is_worded_in_every_language() {
    let errors = [
        SaveError::Missing,
        SaveError::unreadable(&std::io::Error::other("x")),
        SaveError::write_failed(&std::io::Error::other("x")),
        SaveError::Empty,
        SaveError::NotText { offset: 3 },
        SaveError::Truncated { line: 1, column: 2 },
        SaveError::Syntax {
            line: 1,
            column: 2,
            message: "m".into(),
        },
        SaveError::UnsupportedVersion {
            found: 9,
            supported: 1,
        },
        SaveError::UnknownVariant { name: "n".into() },
        SaveError::VariantUnavailable {
            name: "n".into(),
            why: "w".into(),
        },
        SaveError::WrongVariant {
            saved: "a".into(),
            given: "b".into(),
        },
        SaveError::IllegalMove {
            number: 3,
            notation: "a3-a4".into(),
            reason: "r".into(),
            variant_changed: true,
        },
        SaveError::InvalidSlotName {
            name: "x".into(),
            problem: SlotNameProblem::BadCharacter('/'),
        },
        SaveError::InvalidSlotName {
            name: "x".into(),
            problem: SlotNameProblem::TooLong,
        },
        SaveError::NoGame,
    ];
    for error in &errors {
        for language in Language::ALL {
            let text = save_error_text(language, error);
            assert!(!text.is_empty() && !text.contains('{'), "{text}");
        }
    }
    let notices = [
        Notice::KeptDamagedFile,
        Notice::RecoveredFromBackup {
            problem: SaveError::Empty,
        },
        Notice::Save(SaveWarning::ResignationIgnored { side: Seat::WHITE }),
        Notice::Save(SaveWarning::DecisionIgnored {
            decided: boardcraft_saves::Decided::DrawAgreed,
        }),
        Notice::Save(SaveWarning::ResultDiffers {
            saved: None,
            replayed: Some("x".into()),
        }),
    ];
    for notice in notices {
        let result = PersistenceResult::Notice {
            action: PersistenceAction::Load,
            slot: "s".into(),
            message: String::new(),
            notice,
        };
        let Heard::Notice(text) = result_text(Language::Russian, &result) else {
            panic!("a notice is shown as one");
        };
        assert!(text.starts_with("«s»: "), "{text}");
    }
}
