//! Learn through the game's logic, headless: the shipped lessons and puzzles load
//! over the asset server from their manifests; a lesson is walked step by step and one puzzle
//! of each family is solved through the normal move flow (the player's moves as move requests,
//! the computer's replies played by the session, each judged by `boardcraft_learn`); a wrong
//! try gets the file's feedback and is taken back; the solution is shown move by move; progress
//! is kept in the store; a broken file in `mods/` is a visible error. Every Learn word exists in
//! both languages.
use std::path::PathBuf;

use bevy::prelude::*;
use boardcraft::{
    automation::headless_app_with_mods,
    game::config::{GameConfig, Players, VariantChoice},
    game::match_state::{AppState, Match, TurnPhase},
    learn::content::{Exercise, ExerciseId, FileState, LearnLibrary, Origin},
    learn::progress::{LearnProgress, PROGRESS_KEY},
    learn::session::{
        Feedback, LearnSession, LeaveExercise, Progress, ShowSolution, StartExercise,
    },
    persistence::storage::Storage,
    settings::Language,
    ui::i18n::{LearnKey, goal_text, learn_tr, placeholders},
};
use boardcraft_learn::Goal;
use boardcraft_rules::{AnyMove, Position, Seat};

use crate::common::*;

fn learn_app(mods: Option<PathBuf>) -> App {
    let mut app = headless_app_with_mods(
        GameConfig {
            variant: VariantChoice::Name("ugolki-9qum".into()),
            ..default()
        },
        humans(),
        STEP,
        mods,
    );
    app.insert_state(AppState::Learn);
    run_until_loaded(&mut app, 120, "the Learn library", |w| {
        let library = w.resource::<LearnLibrary>();
        library.settled() && !library.files.is_empty()
    });
    app
}

fn library(app: &App) -> &LearnLibrary {
    app.world().resource::<LearnLibrary>()
}

fn session(app: &App) -> &LearnSession {
    app.world().resource::<LearnSession>()
}

fn progress_of(app: &App) -> Progress {
    session(app)
        .active
        .as_ref()
        .expect("an exercise")
        .progress
        .clone()
}

/// Starts `id` and waits until its position is on the board, waiting for the player.
fn start_exercise(app: &mut App, id: &ExerciseId) {
    app.world_mut().write_message(StartExercise(id.clone()));
    // The request is handled in this frame (the previous exercise's game is replaced).
    app.update();
    run_until(app, 300, "the exercise's game", |w| {
        let s = w.resource::<LearnSession>();
        let Some(active) = s.active.as_ref() else {
            return false;
        };
        active.id == *id
            && active.game_id.is_some()
            && w.get_resource::<Match>()
                .is_some_and(|m| Some(m.game_id) == active.game_id)
            && stable_phase(w) == Some(TurnPhase::Ready)
    });
    let game = app.world().resource::<Match>();
    let exercise = library(app).exercise(id).unwrap();
    assert_eq!(
        game.position.hash(),
        exercise.start.hash(),
        "{}: the game starts from the exercise's position",
        id.key()
    );
    assert!(game.history.is_empty());
}

/// Waits until the board waits for the player again (the animation, the computer's reply and
/// its animation are over) or the exercise is decided.
fn settle(app: &mut App) {
    run_until(app, 3000, "the board to settle", |w| {
        let s = w.resource::<LearnSession>();
        let active = s.active.as_ref().unwrap();
        let game = w.resource::<Match>();
        let waits_for_player = stable_phase(w) == Some(TurnPhase::Ready)
            && game.position.side_to_move() == active.player
            && active.progress == Progress::Trying;
        let decided = matches!(active.progress, Progress::Solved | Progress::Shown)
            && stable_phase(w).is_some_and(|p| p != TurnPhase::Animating);
        waits_for_player || decided
    });
}

/// Plays the player's moves of the exercise's first solution line (the replies are the
/// computer's) until the session says solved; returns the moves the game holds.
fn solve(app: &mut App, exercise: &Exercise) -> Vec<String> {
    let line = exercise.solutions.first().expect("a solution line").clone();
    for _ in 0..line.len() {
        if progress_of(app) == Progress::Solved {
            break;
        }
        // The player's next move: the line's move at this ply if the computer followed the
        // line, else the move the session's judge accepts (any line that continues).
        let played: Vec<AnyMove> = app
            .world()
            .resource::<Match>()
            .history
            .iter()
            .map(|p| p.mv.clone())
            .collect();
        let mv = exercise
            .solutions
            .iter()
            .find(|l| l.len() > played.len() && l[..played.len()] == played[..])
            .map(|l| l[played.len()].clone())
            .unwrap_or_else(|| {
                panic!(
                    "{}: the computer left the solution lines after {played:?}",
                    exercise.id.key()
                )
            });
        let notation = app.world().resource::<Match>().position.format_move(&mv);
        request(app, &notation);
        app.update();
        settle(app);
    }
    assert_eq!(
        progress_of(app),
        Progress::Solved,
        "{}: solved by its solution line",
        exercise.id.key()
    );
    let active = session(app).active.as_ref().unwrap();
    assert_eq!(active.feedback, Some(Feedback::Right));
    app.world()
        .resource::<Match>()
        .history
        .iter()
        .map(|p| p.notation.clone())
        .collect()
}

/// A legal first move that no solution line starts with.
fn a_wrong_move(exercise: &Exercise) -> Option<String> {
    let mut moves = Vec::new();
    exercise.start.legal_moves(&mut moves);
    moves
        .into_iter()
        .find(|m| exercise.solutions.iter().all(|l| l.first() != Some(m)))
        .map(|m| exercise.start.format_move(&m))
}

#[test]
fn the_shipped_lessons_and_puzzles_load_from_their_manifests() {
    let app = learn_app(None);
    let library = library(&app);
    assert!(
        library.broken().is_empty(),
        "shipped files are valid: {:?}",
        library.broken()
    );
    assert!(library.files.iter().all(|f| f.origin == Origin::Shipped));
    assert!(library.courses().count() >= 1);
    assert!(library.puzzles().count() >= 1);
    for (_, course) in library.courses() {
        assert!(!course.steps.is_empty(), "{}", course.id);
    }
}

#[test]
fn a_lesson_is_walked_step_by_step_and_a_wrong_try_gets_the_file_s_feedback() {
    let mut app = learn_app(None);
    let (_, course) = library(&app).courses().next().expect("a course");
    let course = course.clone();
    let players_before = app.world().resource::<Players>().clone();

    // A wrong try on the first step: the file's words, then the move is taken back.
    let first = &course.steps[0];
    start_exercise(&mut app, &first.id);
    if let Some(wrong) = a_wrong_move(first) {
        request(&mut app, &wrong);
        app.update();
        let active = session(&app).active.as_ref().unwrap();
        assert_eq!(active.feedback, Some(Feedback::Wrong));
        assert_eq!(active.wrong_tries, 1);
        assert!(
            first
                .wrong
                .as_ref()
                .is_some_and(|w| !w.en.is_empty() && !w.ru.is_empty()),
            "a step has its own words for a wrong try"
        );
        settle(&mut app);
        let game = app.world().resource::<Match>();
        assert!(game.history.is_empty(), "the wrong try is taken back");
        assert_eq!(game.position.hash(), first.start.hash());
        assert_eq!(progress_of(&app), Progress::Trying);
        assert!(
            !app.world()
                .resource::<LearnProgress>()
                .is_solved(&first.id.key())
        );
    }

    // Every step, in order, through "next".
    let mut id = Some(first.id.clone());
    let mut walked = 0;
    while let Some(step) = id {
        let exercise = library(&app).exercise(&step).unwrap().clone();
        start_exercise(&mut app, &step);
        solve(&mut app, &exercise);
        assert!(
            app.world()
                .resource::<LearnProgress>()
                .is_solved(&step.key()),
            "{} is marked solved",
            step.key()
        );
        walked += 1;
        id = library(&app).next_after(&step);
    }
    assert_eq!(walked, course.steps.len());

    // Leaving puts the menu's players back and shows the Learn screen.
    app.world_mut().write_message(LeaveExercise);
    app.update();
    app.update();
    assert_eq!(app_state(app.world()), AppState::Learn);
    assert!(session(&app).active.is_none());
    assert_eq!(*app.world().resource::<Players>(), players_before);
}

#[test]
fn one_puzzle_of_each_family_is_solved_with_the_computer_answering() {
    let mut app = learn_app(None);
    let mut answered = 0;
    for family in ["Race", "Focus", "Gipf"] {
        // The longest solution of the family, to make the computer answer where one does.
        let puzzle = library(&app)
            .puzzles()
            .map(|(_, p)| p)
            .filter(|p| p.family() == family)
            .max_by_key(|p| p.solutions.first().map_or(0, Vec::len))
            .unwrap_or_else(|| panic!("a {family} puzzle is shipped"))
            .clone();
        start_exercise(&mut app, &puzzle.id);
        let moves = solve(&mut app, &puzzle);
        let line = puzzle.solutions[0].len();
        assert!(moves.len() >= line.min(1));
        if line > 1 {
            let sides: Vec<Seat> = app
                .world()
                .resource::<Match>()
                .history
                .iter()
                .map(|p| p.side)
                .collect();
            assert!(
                sides.contains(&puzzle.start.side_to_move().other()),
                "{}: the computer answered",
                puzzle.id.key()
            );
            answered += 1;
        }
        let stored = app.world().resource::<LearnProgress>();
        assert!(stored.is_solved(&puzzle.id.key()));
    }
    assert!(
        answered > 0,
        "at least one puzzle needed the computer's reply"
    );
    // Progress is in the store, beside the settings.
    for _ in 0..3 {
        app.update();
    }
    let storage = app.world().resource::<Storage>();
    let text = storage
        .raw()
        .get(PROGRESS_KEY)
        .unwrap()
        .expect("progress is stored");
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains("puzzle:"), "{text}");
}

#[test]
fn show_the_solution_plays_it_move_by_move_and_does_not_count_as_solved() {
    let mut app = learn_app(None);
    let puzzle = library(&app).puzzles().next().unwrap().1.clone();
    start_exercise(&mut app, &puzzle.id);
    app.world_mut().write_message(ShowSolution);
    let mut seen_plies = Vec::new();
    run_until(&mut app, 4000, "the solution shown", |w| {
        let s = w.resource::<LearnSession>();
        s.active
            .as_ref()
            .is_some_and(|a| a.progress == Progress::Shown)
            && stable_phase(w).is_some_and(|p| p != TurnPhase::Animating)
    });
    // Collected after the fact: the game holds the line, played through the rules.
    let game = app.world().resource::<Match>();
    seen_plies.extend(game.history.iter().map(|p| p.mv.clone()));
    assert_eq!(seen_plies, puzzle.solutions[0]);
    assert!(
        !app.world()
            .resource::<LearnProgress>()
            .is_solved(&puzzle.id.key()),
        "a shown solution is not a solved puzzle"
    );
    // Retry: the start position again, the player to move.
    start_exercise(&mut app, &puzzle.id);
    assert_eq!(progress_of(&app), Progress::Trying);
}

#[test]
fn progress_survives_a_restart() {
    let home = std::env::temp_dir().join(format!("boardcraft-learn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let key = {
        let mut app = learn_app(None);
        app.insert_resource(Storage::folder(&home));
        let puzzle = library(&app).puzzles().next().unwrap().1.clone();
        start_exercise(&mut app, &puzzle.id);
        solve(&mut app, &puzzle);
        app.update();
        puzzle.id.key()
    };
    assert!(home.join(PROGRESS_KEY).is_file());
    let mut app = headless_app_with_mods(GameConfig::default(), humans(), STEP, None);
    app.insert_resource(Storage::folder(&home));
    app.update();
    assert!(app.world().resource::<LearnProgress>().is_solved(&key));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_broken_file_in_mods_is_a_visible_error_and_a_good_one_is_listed() {
    let mods = std::env::temp_dir().join(format!("boardcraft-learn-mods-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&mods);
    std::fs::create_dir_all(mods.join("puzzles")).unwrap();
    std::fs::create_dir_all(mods.join("lessons")).unwrap();
    // A field that does not exist (`hints`), on line 12.
    let broken = r#"(
    format_version: 1,
    puzzles: [
        (
            id: "my-broken",
            variant: "ugolki-9qum",
            position: "5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW5 w 0",
            goal: Play,
            solutions: ["c3-c4"],
            difficulty: Easy,
            title: (en: "Broken", ru: "Сломана"),
            hints: (en: "…", ru: "…"),
        ),
    ],
)"#;
    std::fs::write(mods.join("puzzles/broken.ron"), broken).unwrap();
    let shipped_lesson = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/lessons/ugolki.ron"
    ))
    .unwrap()
    .replace("id: \"ugolki\"", "id: \"my-course\"");
    std::fs::write(mods.join("lessons/mine.ron"), shipped_lesson).unwrap();

    let mut app = learn_app(Some(mods.clone()));
    run_until_loaded(&mut app, 120, "the mods' files", |w| {
        let library = w.resource::<LearnLibrary>();
        library
            .files
            .iter()
            .filter(|f| f.origin == Origin::Mod)
            .count()
            == 2
            && library.settled()
    });
    let library = library(&app);
    let broken = library.broken();
    let (path, why) = broken
        .iter()
        .find(|(p, _)| p.contains("broken.ron"))
        .expect("the broken file is listed with its error");
    assert!(path.starts_with("mods://"), "{path}");
    assert!(
        why.contains("broken.ron"),
        "the error names the file: {why}"
    );
    assert!(why.contains("hints"), "the error names the field: {why}");
    assert!(
        library
            .files
            .iter()
            .any(|f| f.path.ends_with("lessons/mine.ron") && matches!(f.state, FileState::Ready(_))),
        "a good mod lesson loads"
    );
    assert!(library.course("my-course").is_some());
    // Still running, nothing started by itself.
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(app_state(app.world()), AppState::Learn);
    let _ = std::fs::remove_dir_all(&mods);
}

fn has_cyrillic(text: &str) -> bool {
    text.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c))
}

#[test]
fn every_learn_word_is_in_every_language() {
    let mut problems = Vec::new();
    for &key in LearnKey::ALL {
        let (en, ru) = (
            learn_tr(Language::English, key),
            learn_tr(Language::Russian, key),
        );
        let lower = |t: &str| -> Vec<String> {
            let mut v: Vec<String> = placeholders(t).into_iter().map(str::to_lowercase).collect();
            v.dedup();
            v
        };
        if en.trim().is_empty() || ru.trim().is_empty() {
            problems.push(format!("{key:?}: empty"));
        }
        if lower(en) != lower(ru) {
            problems.push(format!("{key:?}: placeholders differ"));
        }
        if !has_cyrillic(ru) {
            problems.push(format!("{key:?}: the Russian text is not Russian: {ru}"));
        }
        if has_cyrillic(en) {
            problems.push(format!("{key:?}: the English text has Cyrillic: {en}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let goals = [
        Goal::WinIn(2),
        Goal::LongestJump,
        Goal::ReachTarget {
            pieces: 3,
            moves: 2,
        },
        Goal::LeaveHome { moves: 5 },
        Goal::CaptureMost,
        Goal::NoMoveIn(1),
        Goal::RowIn(3),
        Goal::TakeGipfIn(2),
        Goal::Play,
    ];
    for goal in goals {
        for language in Language::ALL {
            let text = goal_text(language, goal);
            assert!(!text.contains('{') && !text.is_empty(), "{goal:?}: {text}");
        }
    }
    assert_eq!(
        goal_text(Language::Russian, Goal::WinIn(2)),
        "Выиграйте за 2 хода."
    );
    assert_eq!(
        goal_text(Language::English, Goal::WinIn(1)),
        "Win in 1 move."
    );
}

const QUM_TEXT: &str = "5B2/5BBB/5BBB/8/8/1B1B4/WWW2W2/WWWW2W1 w 20";

#[test]
fn a_game_starts_from_a_position_given_as_text_and_a_bad_text_is_an_error() {
    let config = |position: &str| GameConfig {
        variant: VariantChoice::Name("ugolki-9qum".into()),
        after: "a1:a3:c3:e3".into(),
        position: Some(position.to_owned()),
        players: None,
    };
    let mut app = headless_app_with_mods(config(QUM_TEXT), humans(), STEP, None);
    start(&mut app);
    let game = app.world().resource::<Match>();
    assert_eq!(
        game.start.to_text(),
        QUM_TEXT,
        "the start is the given position"
    );
    assert_eq!(game.line(), "a1:a3:c3:e3", "--after is played from it");
    assert_eq!(game.position.ply(), 21);

    // The page URL's `position=` reads through the same definition.
    let options = boardcraft::game::config::QueryOptions::parse([
        ("variant".to_owned(), "ugolki-9qum".to_owned()),
        ("position".to_owned(), QUM_TEXT.to_owned()),
    ]);
    assert_eq!(options.error, None);
    assert_eq!(
        options.cli.game_config().position.as_deref(),
        Some(QUM_TEXT)
    );

    // A text that is not a position of the variant: the game cannot start, and says why.
    let mut app = headless_app_with_mods(config("5B2/5BBB w 20"), humans(), STEP, None);
    run_until(&mut app, 600, "the failure", |w| {
        app_state(w) == AppState::Failed
    });
    let why = app
        .world()
        .resource::<boardcraft::game::match_state::StartError>()
        .0
        .clone()
        .unwrap();
    assert!(
        why.contains("--position") && why.contains("ugolki-9qum"),
        "{why}"
    );
    assert!(!app.world().contains_resource::<Match>());
}

#[test]
fn copy_position_gives_the_position_s_text() {
    use boardcraft::learn::copy_position::{CopiedPosition, CopyPositionRequested};
    let mut app = app_for("focus", "d4-d5 e5-e4", humans());
    start(&mut app);
    app.world_mut().write_message(CopyPositionRequested);
    app.update();
    let copied = app.world().resource::<CopiedPosition>().clone();
    let game = app.world().resource::<Match>();
    assert_eq!(copied.text, game.position.to_text());
    assert_eq!(copied.at, Some((game.game_id, 2)));
    // The text reads back as the same position.
    let again = game.variant.position_from_text(&copied.text).unwrap();
    assert_eq!(again.to_text(), copied.text);
    assert_eq!(again.hash(), game.position.hash());
    // The headless app has no clipboard: said so, the text still there to read off.
    assert!(copied.error.is_some());
}

#[test]
fn exercise_keys_read_back() {
    for id in [
        ExerciseId::Puzzle("ugolki-9qum-longest-1".into()),
        ExerciseId::Step {
            lesson: "ugolki".into(),
            step: 4,
        },
    ] {
        assert_eq!(ExerciseId::from_key(&id.key()), Some(id));
    }
    assert_eq!(
        ExerciseId::from_key("focus"),
        Some(ExerciseId::Step {
            lesson: "focus".into(),
            step: 0
        })
    );
    assert_eq!(ExerciseId::from_key("lesson:focus:0"), None);
    assert_eq!(ExerciseId::from_key("puzzle:"), None);
}

/// A lesson step that marks a square and draws an arrow has them on the board, at
/// their squares; a wrong try says why; they go when the step is left.
#[test]
fn a_lesson_step_draws_its_marks_and_arrows_and_a_wrong_try_says_why() {
    use boardcraft::view::{
        board::Board,
        lesson_marks::{LessonArrowHop, LessonMark},
    };
    let mut app = learn_app(None);
    let course = library(&app)
        .course("ugolki")
        .expect("the ugolki course")
        .clone();
    let step = course
        .steps
        .iter()
        .find(|s| s.title.en == "Jumping over your own piece")
        .expect("the step")
        .clone();
    start_exercise(&mut app, &step.id);
    app.update();
    let world = app.world_mut();
    let layout = world.resource::<Board>().layout.clone();
    let on = |name: &str| layout.world(layout.cell(layout.id(name).unwrap()).at, 0.0);
    let marks: Vec<(LessonMark, Vec3)> = world
        .query::<(&LessonMark, &Transform)>()
        .iter(world)
        .map(|(m, t)| (m.clone(), t.translation))
        .collect();
    assert_eq!(marks.len(), 1, "{marks:?}");
    assert_eq!(marks[0].0.square, "b3");
    assert!((marks[0].1 - on("b3")).xz().length() < 1e-4);
    let hops: Vec<(LessonArrowHop, Vec3)> = world
        .query::<(&LessonArrowHop, &Transform)>()
        .iter(world)
        .map(|(h, t)| (h.clone(), t.translation))
        .collect();
    assert_eq!(hops.len(), 1, "{hops:?}");
    assert_eq!(
        (hops[0].0.from.as_str(), hops[0].0.to.as_str()),
        ("b2", "b4")
    );
    assert!(hops[0].0.last);
    // Drawn between its squares: at the middle of b2 and b4, that is on b3.
    assert!((hops[0].1 - (on("b2") + on("b4")) / 2.0).xz().length() < 1e-4);

    // A wrong try: the step's words, and why in data.
    let wrong = a_wrong_move(&step).expect("a wrong move");
    request(&mut app, &wrong);
    app.update();
    let active = session(&app).active.as_ref().unwrap();
    assert_eq!(active.feedback, Some(Feedback::Wrong));
    let why = active.why_wrong.as_ref().expect("why the try is wrong");
    assert_eq!(why.text("en"), "The move asked for here is b2:b4.");
    assert!(has_cyrillic(&why.text("ru")));

    // Leaving the exercise takes them off the board.
    app.world_mut().write_message(LeaveExercise);
    app.update();
    app.update();
    let world = app.world_mut();
    assert_eq!(world.query::<&LessonMark>().iter(world).count(), 0);
    assert_eq!(world.query::<&LessonArrowHop>().iter(world).count(), 0);
}
