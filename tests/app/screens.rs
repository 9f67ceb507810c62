//! The egui screens as a player meets them, in English and in Russian: what each shows (its
//! words, which buttons can be clicked, which choice is selected) and what a click on it does
//! to the game (its states and resources). The screens are the game's own systems, headless
//! (`ui_harness`: egui's AccessKit tree read with kittest, clicks as egui pointer events).
//!
//! Expected words are written out for both languages where a player reads them (a broken
//! translation table fails too); longer texts are composed with the game's own `tr`.
use bevy::prelude::*;
use boardcraft::{
    game::config::{PlayerKind, Players},
    game::match_state::{AppState, Match, TurnPhase},
    game::review::Review,
    game::variants::VariantLibrary,
    learn::content::LearnLibrary,
    online::OnlineCommand,
    settings::{Graphics, Language, Settings},
    ui::{
        i18n::{Key, tr, trf, variant_text},
        menu::MenuDraft,
    },
};
use boardcraft_rules::{Position, Seat};

use crate::common::{humans, phase, request, stable_phase};
use crate::ui_harness::{NodeT as _, Queryable as _, Role, Screens};

/// The words a test looks for, in each language.
fn pick(lang: Language, english: &'static str, russian: &'static str) -> &'static str {
    match lang {
        Language::English => english,
        Language::Russian => russian,
    }
}

fn title(lang: Language, variant: &str) -> &'static str {
    variant_text(lang, variant)
        .unwrap_or_else(|| panic!("{variant} has a title"))
        .title
}

/// A game of `variant` against nobody (two humans at the board), its panel drawn and the
/// position waiting for a move.
fn game(variant: &str, after: &str, lang: Language) -> Screens {
    let mut screens = Screens::new(variant, after, humans(), lang, None);
    screens.until(60, "the game", |s| {
        let w = s.app.world();
        w.contains_resource::<Match>() && stable_phase(w) == Some(TurnPhase::Ready)
    });
    screens.frames(3);
    screens
}

fn app_state(screens: &Screens) -> AppState {
    crate::common::app_state(screens.app.world())
}

#[test]
fn the_menu_lists_every_game_and_starts_the_chosen_one() {
    for lang in Language::ALL {
        let mut s = Screens::menu(lang);
        assert!(s.says(pick(lang, "New game", "Новая партия")), "{lang:?}");
        assert!(s.says(pick(lang, "Choose a game", "Выберите игру")));
        // Every game of the library is a row, named in the player's language.
        let names: Vec<String> = s
            .app
            .world()
            .resource::<VariantLibrary>()
            .ready()
            .map(|(_, v)| v.name.clone())
            .collect();
        assert!(names.len() >= 10, "the shipped games are loaded: {names:?}");
        for name in &names {
            assert!(
                s.shows(Role::Button, title(lang, name)),
                "{lang:?}: the row of {name}"
            );
        }
        assert!(s.shows(Role::Button, pick(lang, "Halma (16×16)", "Хальма (16×16)")));
        // The game named at start (`--variant ugolki-9qum`) is chosen, and Start can be
        // clicked.
        assert!(s.selected(Role::Button, title(lang, "ugolki-9qum")));
        assert!(!s.selected(Role::Button, title(lang, "halma-16")));
        let start = pick(lang, "Start the game", "Начать партию");
        assert!(s.enabled(start));
        for other in [
            pick(lang, "Learn…", "Обучение…"),
            pick(lang, "Settings…", "Настройки…"),
            pick(lang, "Load a game…", "Загрузить партию…"),
            pick(lang, "Play online…", "Игра по сети…"),
        ] {
            assert!(s.enabled(other), "{lang:?}: {other}");
        }
        // No game yet: nothing to continue.
        assert!(!s.shows(Role::Button, tr(lang, Key::MenuContinue)));

        // Choosing another game selects it and shows its details.
        s.click_button(title(lang, "halma-16"));
        assert_eq!(
            s.app.world().resource::<MenuDraft>().selected.as_deref(),
            Some("variants/halma-16.ron")
        );
        assert!(s.selected(Role::Button, title(lang, "halma-16")));
        assert!(!s.selected(Role::Button, title(lang, "ugolki-9qum")));
        assert!(s.says(title(lang, "halma-16")), "the details' heading");

        // Start starts it.
        s.click_button(start);
        s.until(60, "the game", |s| {
            s.app.world().contains_resource::<Match>()
        });
        assert_eq!(app_state(&s), AppState::InGame);
        assert_eq!(s.app.world().resource::<Match>().variant.name, "halma-16");
        s.frames(2);
        assert!(s.says(title(lang, "halma-16")), "the panel names the game");
    }
}

#[test]
fn the_menu_seats_the_computer_chosen_for_a_side() {
    for lang in Language::ALL {
        let mut s = Screens::menu(lang);
        let (human, strong) = (
            pick(lang, "Human", "Человек"),
            pick(lang, "Computer · strong", "Компьютер · сильный"),
        );
        // A chooser per side, White's then Black's, each showing who plays it.
        let shown = |s: &Screens| -> Vec<String> {
            s.root()
                .query_all_by_role(Role::ComboBox)
                .map(|n| n.accesskit_node().value().unwrap_or_default().to_string())
                .collect()
        };
        assert_eq!(shown(&s), [human, human], "{lang:?}");
        assert!(s.says(pick(lang, "White", "Белые")));
        assert!(s.says(pick(lang, "Black", "Чёрные")));
        // Black's chooser opens the list; a click on a level takes it.
        s.root()
            .query_all_by_role(Role::ComboBox)
            .nth(1)
            .expect("Black's chooser")
            .click();
        s.frames(4);
        assert!(s.enabled(strong), "{lang:?}: the list offers {strong}");
        s.click_button(strong);
        assert_eq!(shown(&s), [human, strong], "{lang:?}");
        s.click_button(pick(lang, "Start the game", "Начать партию"));
        s.until(60, "the game", |s| {
            s.app.world().contains_resource::<Match>()
        });
        let players = s.app.world().resource::<Players>();
        assert_eq!(
            (players.of(Seat::WHITE), players.of(Seat::BLACK)),
            (
                PlayerKind::Human,
                PlayerKind::Computer(boardcraft::game::config::Level::Strong)
            )
        );
    }
}

#[test]
fn the_game_panel_tells_whose_turn_it_is_and_takes_a_move_back() {
    for lang in Language::ALL {
        let mut s = game("ugolki-9qum", "", lang);
        let first = s.app.world().resource::<Match>().position.side_to_move();
        assert_eq!(first, Seat::WHITE);
        assert!(s.says(title(lang, "ugolki-9qum")));
        assert!(
            s.says(pick(lang, "White to move", "Ходят белые")),
            "{lang:?}: {:?}",
            s.texts()
        );
        assert!(s.says(pick(lang, "Move 1", "Ход 1")));
        let (undo, redo) = (
            pick(lang, "Undo", "Отменить ход"),
            pick(lang, "Redo", "Вернуть ход"),
        );
        // Nothing to take back or play again at the start; resigning is possible, skipping an
        // animation is not (none runs).
        assert!(!s.enabled(undo), "{lang:?}: Undo at the start");
        assert!(!s.enabled(redo));
        assert!(s.enabled(pick(lang, "Resign", "Сдаться")));
        assert!(!s.enabled(tr(lang, Key::Skip)));
        assert!(s.says(pick(lang, "Moves", "Ходы")));

        // A move: the list shows it, Black is to move, and it can be taken back.
        request(&mut s.app, "a3-a4");
        s.until(60, "the move played", |s| {
            let w = s.app.world();
            w.resource::<Match>().history.len() == 1 && stable_phase(w) == Some(TurnPhase::Ready)
        });
        s.frames(2);
        assert!(s.shows(Role::Button, "a3-a4"), "the move list's entry");
        assert!(s.says(&trf(lang, Key::LastMove, &[("move", &"a3-a4")])));
        assert!(s.says(pick(lang, "Black to move", "Ходят чёрные")));
        assert!(s.enabled(undo), "{lang:?}: Undo after a move");
        assert!(!s.enabled(redo));

        // Undo takes it back; Redo plays it again.
        s.click_button(undo);
        s.until(60, "the move taken back", |s| {
            s.app.world().resource::<Match>().history.is_empty()
        });
        s.frames(2);
        assert!(!s.enabled(undo));
        assert!(s.enabled(redo), "{lang:?}: Redo after Undo");
        assert!(s.says(pick(lang, "White to move", "Ходят белые")));
        s.click_button(redo);
        s.until(60, "the move played again", |s| {
            s.app.world().resource::<Match>().line() == "a3-a4"
        });

        // A click on the list's start shows the start position, and the game is unchanged.
        s.frames(3);
        s.click_button(tr(lang, Key::StartPosition));
        assert_eq!(s.app.world().resource::<Review>().ply, Some(0));
        assert_eq!(s.app.world().resource::<Match>().history.len(), 1);
    }
}

#[test]
fn resigning_ends_the_game_and_the_game_over_window_offers_what_next() {
    for lang in Language::ALL {
        let mut s = game("ugolki-hg-3x3", "", lang);
        let resign = pick(lang, "Resign", "Сдаться");
        s.click_button(resign);
        assert!(
            s.shows(Role::Window, resign),
            "{lang:?}: the question's window"
        );
        // The question names the side resigning: White, to move with two humans at the board.
        assert!(s.says(pick(lang, "Does White resign?", "Белые сдаются?")));
        s.click_in(resign, Role::Button, resign);
        s.until(60, "the game's end", |s| {
            phase(s.app.world()) == Some(TurnPhase::GameOver)
        });
        s.frames(3);
        let over = pick(lang, "Game over", "Партия окончена");
        assert!(s.shows(Role::Window, over), "{lang:?}: {:?}", s.texts());
        let game = s.app.world().resource::<Match>();
        assert_eq!(game.end().and_then(|e| e.winner()), Some(Seat::BLACK));
        assert!(s.shows_in(
            over,
            Role::Label,
            pick(lang, "Black wins", "Победили чёрные")
        ));
        assert!(s.says(pick(lang, "White resigned.", "Белые сдались.")));
        let (rematch, review, new_game, close) = (
            pick(lang, "Rematch", "Реванш"),
            pick(lang, "Review the game", "Просмотреть партию"),
            tr(lang, Key::NewGame),
            pick(lang, "Close", "Закрыть"),
        );
        for button in [rematch, review, new_game, close] {
            assert!(
                !s.get_in(over, Role::Button, button)
                    .accesskit_node()
                    .is_disabled(),
                "{lang:?}: {button}"
            );
        }
        // The panel agrees: the game is over, nothing is left to resign.
        assert!(!s.enabled(resign), "{lang:?}: Resign once the game is over");

        // Rematch: a new game of the same variant, the window gone.
        let before = s.app.world().resource::<Match>().game_id;
        s.click_in(over, Role::Button, rematch);
        s.until(60, "the rematch", |s| {
            let w = s.app.world();
            w.resource::<Match>().game_id != before && stable_phase(w) == Some(TurnPhase::Ready)
        });
        s.frames(2);
        assert!(!s.shows(Role::Window, over));
        assert!(s.app.world().resource::<Match>().history.is_empty());
        assert!(s.enabled(resign));

        // Resigned again, "New game" leads to the menu.
        s.click_button(resign);
        s.click_in(resign, Role::Button, resign);
        s.until(60, "the second game's end", |s| {
            phase(s.app.world()) == Some(TurnPhase::GameOver)
        });
        s.frames(3);
        s.click_in(over, Role::Button, new_game);
        s.until(60, "the menu", |s| app_state(s) == AppState::Menu);
        s.frames(3);
        assert!(s.shows(Role::Button, pick(lang, "Start the game", "Начать партию")));
        // The menu leads back to the game, over as it was.
        assert!(s.enabled(tr(lang, Key::MenuContinue)));
    }
}

#[test]
fn the_review_button_of_the_game_over_window_shows_the_start() {
    for lang in Language::ALL {
        // Two moves to review (a game resigned before any move has nothing to step through).
        let mut s = game("ugolki-9qum", "a3-a4 h6-h5", lang);
        let resign = tr(lang, Key::Resign);
        s.click_button(resign);
        s.click_in(resign, Role::Button, resign);
        s.until(60, "the game's end", |s| {
            phase(s.app.world()) == Some(TurnPhase::GameOver)
        });
        s.frames(3);
        let over = tr(lang, Key::GameOverTitle);
        s.click_in(over, Role::Button, tr(lang, Key::ReviewGame));
        assert_eq!(s.app.world().resource::<Review>().ply, Some(0));
        assert!(!s.shows(Role::Window, over), "{lang:?}: the window closes");
        assert!(
            s.says(tr(lang, Key::ReviewStart)),
            "{lang:?}: {:?}",
            s.texts()
        );
        assert!(s.enabled(tr(lang, Key::BackToGame)));
    }
}

#[test]
fn settings_switch_the_language_and_toggle_their_options() {
    let mut s = Screens::menu(Language::English);
    assert!(!s.shows(Role::Window, "Settings"));
    s.click_button("Settings…");
    assert!(s.shows(Role::Window, "Settings"));
    for row in [
        "Animation speed",
        "Sound volume",
        "View",
        "Language",
        "Text and button size",
        "Graphics",
        "Coach",
    ] {
        assert!(s.says(row), "the row {row}: {:?}", s.texts());
    }
    assert!(s.selected(Role::RadioButton, "English"));
    assert!(!s.selected(Role::RadioButton, "Русский"));

    // A check box: animation off, then the coach on.
    assert!(s.selected(Role::CheckBox, "Animate moves"));
    s.click(Role::CheckBox, "Animate moves");
    assert_eq!(s.app.world().resource::<Settings>().animation_speed, 0.0);
    assert!(!s.selected(Role::CheckBox, "Animate moves"));
    assert!(!s.app.world().resource::<Settings>().coach);
    assert!(!s.selected(Role::CheckBox, "Rate my moves"));
    s.click(Role::CheckBox, "Rate my moves");
    assert!(s.app.world().resource::<Settings>().coach);
    assert!(s.selected(Role::CheckBox, "Rate my moves"));

    // The graphics: automatic until the player chooses.
    assert!(s.selected(Role::RadioButton, "Automatic"));
    s.click(Role::RadioButton, "Light");
    assert_eq!(
        s.app.world().resource::<Settings>().graphics,
        Graphics::Light
    );
    assert!(s.selected(Role::RadioButton, "Light"));
    assert!(!s.selected(Role::RadioButton, "Automatic"));

    // Russian: the setting, and every word of the window and the menu behind it.
    s.click(Role::RadioButton, "Русский");
    assert_eq!(
        s.app.world().resource::<Settings>().language,
        Language::Russian
    );
    assert!(s.shows(Role::Window, "Настройки"));
    assert!(!s.shows(Role::Window, "Settings"));
    for row in [
        "Скорость анимации",
        "Громкость звуков",
        "Язык",
        "Графика",
        "Тренер",
    ] {
        assert!(s.says(row), "the row {row}: {:?}", s.texts());
    }
    assert!(s.selected(Role::RadioButton, "Русский"));
    assert!(s.selected(Role::RadioButton, "Лёгкая"));
    s.click(Role::RadioButton, "Автоматически");
    assert_eq!(
        s.app.world().resource::<Settings>().graphics,
        Graphics::Auto
    );
    assert!(!s.selected(Role::RadioButton, "Лёгкая"));
    assert!(!s.selected(Role::CheckBox, "Анимировать ходы"));
    assert!(s.selected(Role::CheckBox, "Оценивать мои ходы"));
    assert!(s.enabled("Начать партию"));
    assert!(!s.shows(Role::Button, "Start the game"));

    // In Russian, the check box works the same; then back to English.
    s.click(Role::CheckBox, "Анимировать ходы");
    assert_eq!(s.app.world().resource::<Settings>().animation_speed, 1.0);
    s.click(Role::RadioButton, "English");
    assert_eq!(
        s.app.world().resource::<Settings>().language,
        Language::English
    );
    assert!(s.selected(Role::CheckBox, "Animate moves"));
    assert!(s.enabled("Start the game"));

    // Close closes it.
    s.click_in("Settings", Role::Button, "Close");
    assert!(!s.shows(Role::Window, "Settings"));
    assert!(s.enabled("Start the game"), "the menu is still there");
}

#[test]
fn learn_lists_the_courses_and_opens_a_lesson() {
    for lang in Language::ALL {
        let mut s = Screens::menu(lang);
        s.click_button(pick(lang, "Learn…", "Обучение…"));
        assert_eq!(app_state(&s), AppState::Learn);
        s.until(60, "the lessons", |s| {
            s.app.world().resource::<LearnLibrary>().settled()
        });
        s.frames(3);
        assert!(s.says(pick(lang, "Learn to play", "Учимся играть")));
        let (courses, puzzles) = (
            pick(lang, "Courses", "Курсы"),
            pick(lang, "Puzzles", "Задачи"),
        );
        assert!(s.selected(Role::Button, courses));
        assert!(!s.selected(Role::Button, puzzles));
        // Every course is listed by its title in the player's language; the first is chosen.
        let library = s.app.world().resource::<LearnLibrary>();
        let titles: Vec<String> = library
            .courses()
            .map(|(_, c)| c.title.get(lang.code()).to_owned())
            .collect();
        let (first_step, steps) = library
            .courses()
            .next()
            .map(|(_, c)| (c.steps[0].title.get(lang.code()).to_owned(), c.steps.len()))
            .expect("a course");
        assert!(!titles.is_empty());
        for t in &titles {
            assert!(s.shows(Role::Button, t), "{lang:?}: the course {t}");
        }
        assert!(s.selected(Role::Button, &titles[0]));
        assert!(s.says(pick(lang, "Steps", "Шаги")));
        let start = pick(lang, "Start the course", "Начать курс");
        assert!(s.enabled(start));
        assert!(s.enabled(pick(lang, "Back to the menu", "В главное меню")));

        // The puzzles' tab, and back.
        s.click_button(puzzles);
        assert!(s.selected(Role::Button, puzzles));
        assert!(!s.selected(Role::Button, courses));
        s.click_button(courses);

        // Starting the course opens its first step as a game, with the lesson's panel.
        s.click_button(start);
        s.until(60, "the lesson", |s| {
            let w = s.app.world();
            crate::common::app_state(w) == AppState::InGame && w.contains_resource::<Match>()
        });
        s.frames(4);
        assert!(
            s.says(&first_step),
            "{lang:?}: the step's title {first_step}: {:?}",
            s.texts()
        );
        // Where the step is: the course and "Step 1 of N".
        let place = format!(
            "{} · {}",
            titles[0],
            pick(lang, "Step 1 of {total}", "Шаг 1 из {total}")
                .replace("{total}", &steps.to_string())
        );
        assert!(s.says(&place), "{lang:?}: {place}: {:?}", s.texts());
        let back = pick(lang, "Back to Learn", "К урокам и задачам");
        assert!(s.enabled(back));
        s.click_button(back);
        s.until(60, "Learn again", |s| app_state(s) == AppState::Learn);
        s.frames(3);
        assert!(
            s.enabled(start),
            "{lang:?}: the course can be started again"
        );
    }
}

#[test]
fn the_lobby_shows_its_tabs_and_switches_between_them() {
    let server = crate::online::start_server_with(boardcraft_server::Settings::default());
    for lang in Language::ALL {
        let mut s = Screens::menu(lang);
        s.app
            .world_mut()
            .write_message(OnlineCommand::SetServer(server.url.clone()));
        let title = pick(lang, "Play online", "Игра по сети");
        assert!(!s.says(title));
        s.click_button(pick(lang, "Play online…", "Игра по сети…"));
        assert!(s.says(title));
        // Each tab with a heading only it shows.
        let tabs = [
            (
                pick(lang, "Play", "Играть"),
                pick(lang, "Quick pairing", "Быстрая игра"),
            ),
            (
                pick(lang, "Profile", "Профиль"),
                pick(lang, "Recent games", "Последние партии"),
            ),
            (
                pick(lang, "My games", "Мои партии"),
                pick(lang, "Page 1", "Страница 1"),
            ),
            (
                pick(lang, "Leaders", "Лидеры"),
                pick(lang, "Best players", "Лучшие игроки"),
            ),
        ];
        for (label, _) in tabs {
            assert!(s.enabled(label), "{lang:?}: the tab {label}");
        }
        assert!(s.selected(Role::Button, tabs[0].0));
        // The menu is hidden behind it.
        assert!(!s.shows(Role::Button, pick(lang, "Start the game", "Начать партию")));
        // Signed in as a guest by the real server.
        s.until(30, "the guest's sign-in", |s| {
            s.root()
                .query_all_by(|n| {
                    n.value().is_some_and(|v| {
                        v.starts_with(pick(lang, "Signed in as ", "Вы вошли как "))
                    })
                })
                .next()
                .is_some()
        });
        assert!(s.says(tabs[0].1));

        // Each tab in turn is selected, alone, and shows its part (once the server's data
        // has come: the wait fails the test if it never does).
        for (label, heading) in tabs.iter().skip(1).chain(tabs.iter().take(1)) {
            s.click_button(label);
            for (other, other_heading) in tabs {
                assert_eq!(
                    s.selected(Role::Button, other),
                    other == *label,
                    "{lang:?}: {other} after clicking {label}"
                );
                if other != *label {
                    assert!(
                        !s.says(other_heading),
                        "{lang:?}: {other_heading} on {label}"
                    );
                }
            }
            s.until(30, heading, |s| s.says(heading));
        }

        // Back to the menu.
        s.click_button(pick(lang, "Back", "Назад"));
        assert!(!s.says(title));
        assert!(s.enabled(pick(lang, "Start the game", "Начать партию")));
    }
}

#[test]
fn a_computer_opponent_is_named_in_the_panel() {
    for lang in Language::ALL {
        let players = Players::two(
            PlayerKind::Human,
            PlayerKind::Computer(boardcraft::game::config::Level::Novice),
        );
        let mut s = Screens::new("ugolki-9qum", "", players, lang, None);
        s.until(60, "the game", |s| {
            s.app.world().contains_resource::<Match>()
        });
        s.frames(3);
        assert!(
            s.says(pick(
                lang,
                "Black: Computer · novice",
                "Чёрные: Компьютер · новичок"
            )),
            "{lang:?}: {:?}",
            s.texts()
        );
        assert!(s.says(pick(lang, "White: Human", "Белые: Человек")));
    }
}

/// The menu offers Chinese checkers' tables; a table of six seats six people, the panel names
/// the seat to move and, after a move, asks to pass the device to the next person.
#[test]
fn a_table_of_six_is_chosen_in_the_menu_and_the_panel_passes_the_device() {
    for lang in Language::ALL {
        let mut s = Screens::menu(lang);
        s.click_button(title(lang, "chinese-checkers"));
        s.frames(3);
        let choosers = |s: &Screens| s.root().query_all_by_role(Role::ComboBox).count();
        assert_eq!(choosers(&s), 2, "{lang:?}: two seats to begin with");
        for n in ["2", "3", "4", "6"] {
            assert!(s.enabled(n), "{lang:?}: the table of {n} is offered");
        }
        s.click_button("6");
        s.frames(3);
        assert_eq!(choosers(&s), 6, "{lang:?}: a chooser per seat");
        for name in [
            pick(lang, "Red", "Красные"),
            pick(lang, "Purple", "Фиолетовые"),
            pick(lang, "Orange", "Оранжевые"),
        ] {
            assert!(s.says(name), "{lang:?}: {name}");
        }
        s.click_button(pick(lang, "Start the game", "Начать партию"));
        s.until(60, "the game", |s| {
            let w = s.app.world();
            w.contains_resource::<Match>() && stable_phase(w) == Some(TurnPhase::Ready)
        });
        s.frames(3);
        assert_eq!(s.app.world().resource::<Players>().count(), 6);
        assert_eq!(s.app.world().resource::<Match>().position.seat_count(), 6);
        assert!(
            s.says(pick(lang, "Red to move", "Ходят красные")),
            "{lang:?}: {:?}",
            s.texts()
        );
        request(&mut s.app, "k3:k5");
        s.until(60, "the move played", |s| {
            let w = s.app.world();
            w.resource::<Match>().history.len() == 1 && stable_phase(w) == Some(TurnPhase::Ready)
        });
        s.frames(3);
        let pass = pick(
            lang,
            "Pass the device to Purple",
            "Передайте устройство: ходят фиолетовые",
        );
        assert!(s.says(pass), "{lang:?}: {:?}", s.texts());
    }
}

/// The move list keeps a round per row while a round fits the panel: always for two seats; a
/// round of Chinese checkers for three (moves like `d10-e10` with their seats' chips) does not
/// fit beside the move numbers, so each move gets a row of its own and no move is cut off.
#[test]
fn the_move_list_gives_a_move_a_row_when_a_round_does_not_fit() {
    let row_of = |s: &Screens, notation: &str| s.get(Role::Button, notation).rect().center().y;
    let mut two = Screens::new(
        "ugolki-9qum",
        "b3:d3 h6-h5",
        humans(),
        Language::English,
        None,
    );
    two.until(60, "the game", |s| {
        s.app.world().contains_resource::<Match>()
    });
    two.frames(3);
    assert_eq!(
        row_of(&two, "b3:d3"),
        row_of(&two, "h6-h5"),
        "two seats: a round per row"
    );

    let three = Players::new(vec![PlayerKind::Human; 3]).unwrap();
    let mut s = Screens::new(
        "chinese-checkers",
        "k4-k5 d10-e10 j13-j12",
        three,
        Language::English,
        None,
    );
    s.until(60, "the game", |s| {
        s.app.world().contains_resource::<Match>()
    });
    s.frames(3);
    assert_eq!(s.app.world().resource::<Match>().position.seat_count(), 3);
    let rows: Vec<f32> = ["k4-k5", "d10-e10", "j13-j12"]
        .iter()
        .map(|m| row_of(&s, m))
        .collect();
    assert!(
        rows[0] < rows[1] && rows[1] < rows[2],
        "a row per move: {rows:?}"
    );
    for m in ["k4-k5", "d10-e10", "j13-j12"] {
        let rect = s.get(Role::Button, m).rect();
        assert!(
            rect.right() <= 1280.0 && rect.left() >= 0.0,
            "{m} is on the screen: {rect:?}"
        );
    }
}

/// A window that grows out of touch sizes (a tablet-sized page widened to a desktop's) gets
/// the desktop's controls back: the touch sizes are not left behind.
#[test]
fn a_window_grown_out_of_touch_sizes_gets_desktop_controls_back() {
    use boardcraft::ui::layout::Layout;
    let mut s = game("ugolki-9qum", "", Language::English);
    let height = |s: &Screens| s.get(Role::Button, "Undo").rect().height();
    let desktop = height(&s);
    s.app.insert_resource(Layout::of(Vec2::new(1024.0, 600.0)));
    s.frames(3);
    let touch = height(&s);
    assert!(
        touch >= 44.0 && desktop < 44.0,
        "a tap high on touch ({touch}), lower on the desktop ({desktop})"
    );
    s.app.insert_resource(Layout::of(Vec2::new(1280.0, 800.0)));
    s.frames(3);
    assert_eq!(height(&s), desktop, "the desktop's buttons again");
}

/// A finished online game says how it ended in the player's language — the board's words, in
/// the game's panel and the game-over window — and the online panel does not add the server's
/// English line.
#[test]
fn a_finished_online_game_is_told_in_the_players_language() {
    use boardcraft::game::match_state::ResignRequested;
    use boardcraft_protocol::ColorChoice;

    use crate::online::{game, online, player, settled};

    let server = crate::online::start_server_with(boardcraft_server::Settings::default());
    for lang in Language::ALL {
        let mut s = Screens::new("ugolki-hg-3x3", "", humans(), lang, None);
        s.app
            .world_mut()
            .write_message(OnlineCommand::SetServer(server.url.clone()));
        s.app.world_mut().write_message(OnlineCommand::Create {
            variant: "ugolki-hg-3x3".into(),
            color: ColorChoice::White,
            time_control: None,
        });
        s.until(30, "the game created", |s| {
            online(&s.app).invite.is_some() && settled(&s.app)
        });
        let invite = online(&s.app).invite.clone().unwrap();
        let mut b = player(&server);
        b.world_mut().write_message(OnlineCommand::Join { invite });
        both(&mut s, &mut b, "both players in", |s, b| {
            settled(&s.app) && settled(b) && online(&s.app).is_playing() && online(b).is_playing()
        });
        b.world_mut()
            .write_message(ResignRequested { side: Seat::BLACK });
        both(&mut s, &mut b, "the resignation", |s, _| {
            online(&s.app).result.is_some() && game(&s.app).end().is_some()
        });
        s.frames(3);
        let end = game(&s.app).end().unwrap();
        let words = boardcraft::ui::words::end_text(
            lang,
            end,
            &game(&s.app).variant,
            game(&s.app).position.side_to_move(),
        );
        assert!(s.says(&words.reason), "{lang:?}: {:?}", s.texts());
        let server_words = &online(&s.app).result.as_ref().unwrap().text;
        assert!(
            !s.texts().iter().any(|t| t.contains(server_words.as_str())),
            "{lang:?}: the server's words {server_words:?} in {:?}",
            s.texts()
        );
    }
}

/// Steps the harness's app and a plain one until `done`; panics after 30 s of wall-clock time.
fn both(s: &mut Screens, b: &mut App, what: &str, done: impl Fn(&Screens, &App) -> bool) {
    let start = std::time::Instant::now();
    while !done(s, b) {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "{what}: not reached; the screen shows {:?}",
            s.texts()
        );
        s.frame();
        b.update();
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
