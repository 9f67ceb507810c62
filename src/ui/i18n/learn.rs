//! The words of the Learn screens and of "copy position", in English and Russian.
//!
//! A table of its own beside the main one ([`super::Key`]) so the Learn screens can grow
//! without touching the lines other screens' words live on; it follows the same rules: each
//! language is an exhaustive `match` (a key without a translation does not compile), values go
//! in `{name}` placeholders filled by [`learn_trf`], and `tests/app/learn.rs` checks every key
//! in every language as `tests/app/i18n.rs` does for the main table.
//!
//! The lessons' and puzzles' own texts (titles, steps, hints, feedback) are not here: the files
//! carry them in both languages (`boardcraft_learn::Text`).
use std::fmt::Display;

use boardcraft_learn::{Difficulty, Goal};

use super::{Noun, count, fill};
use crate::settings::Language;

macro_rules! learn_keys {
    ($($key:ident),* $(,)?) => {
        /// A string of the Learn screens.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum LearnKey {
            $($key),*
        }

        impl LearnKey {
            /// Every key, for the completeness test.
            pub const ALL: &'static [LearnKey] = &[$(LearnKey::$key),*];
        }
    };
}

learn_keys! {
    // The main menu's button.
    MenuLearn,
    // The Learn screen.
    Title,
    Loading,
    Nothing,
    Courses,
    Puzzles,
    Steps,
    StepsDone,
    SolvedCount,
    StartCourse,
    ContinueCourse,
    CourseDone,
    StepNumber,
    AllDifficulties,
    Solved,
    NotSolved,
    BrokenFiles,
    ModTag,
    BackToMenu,
    NoPuzzlesHere,
    SolvePuzzle,
    FamilyRace,
    FamilyFocus,
    FamilyGipf,
    Easy,
    Medium,
    Hard,
    Expert,
    // Playing a step or a puzzle.
    StepOf,
    YourSide,
    GoalWinIn,
    GoalLongestJump,
    GoalReachTarget,
    GoalLeaveHome,
    GoalCaptureMost,
    GoalNoMoveIn,
    GoalRowIn,
    GoalTakeGipfIn,
    GoalPlay,
    Hint,
    NoHint,
    ShowSolution,
    Retry,
    NextStep,
    NextPuzzle,
    BackToLearn,
    RightDefault,
    WrongDefault,
    GoodGoOn,
    OpponentAnswers,
    Showing,
    Shown,
    SolvedBefore,
    CannotCheck,
    // Copy position (any game).
    CopyPosition,
    CopyPositionTip,
    Copied,
    CopyFailed,
}

/// The text of `key` in `language`.
pub fn learn_tr(language: Language, key: LearnKey) -> &'static str {
    match language {
        Language::English => en(key),
        Language::Russian => ru(key),
    }
}

/// The text of `key` with its `{name}` placeholders filled from `args`.
pub fn learn_trf(language: Language, key: LearnKey, args: &[(&str, &dyn Display)]) -> String {
    fill(learn_tr(language, key), args)
}

/// A difficulty's name.
pub fn difficulty_name(language: Language, difficulty: Difficulty) -> &'static str {
    learn_tr(
        language,
        match difficulty {
            Difficulty::Easy => LearnKey::Easy,
            Difficulty::Medium => LearnKey::Medium,
            Difficulty::Hard => LearnKey::Hard,
            Difficulty::Expert => LearnKey::Expert,
        },
    )
}

/// A family's name as the Learn screen groups puzzles (`Race`, `Focus`, `Gipf` as in variant
/// files; anything else is shown as written).
pub fn family_name(language: Language, family: &str) -> String {
    let key = match family {
        "Race" => LearnKey::FamilyRace,
        "Focus" => LearnKey::FamilyFocus,
        "Gipf" => LearnKey::FamilyGipf,
        other => return other.to_owned(),
    };
    learn_tr(language, key).to_owned()
}

/// What the player must do, in words: "Win in 2 moves.".
pub fn goal_text(language: Language, goal: Goal) -> String {
    let moves = |n: u32| count(language, u64::from(n), Noun::Move);
    match goal {
        Goal::WinIn(n) => learn_trf(language, LearnKey::GoalWinIn, &[("moves", &moves(n))]),
        Goal::LongestJump => learn_tr(language, LearnKey::GoalLongestJump).to_owned(),
        Goal::ReachTarget { pieces, moves: n } => learn_trf(
            language,
            LearnKey::GoalReachTarget,
            &[
                ("pieces", &count(language, u64::from(pieces), Noun::Piece)),
                ("moves", &moves(n)),
            ],
        ),
        Goal::LeaveHome { moves: n } => {
            learn_trf(language, LearnKey::GoalLeaveHome, &[("moves", &moves(n))])
        }
        Goal::CaptureMost => learn_tr(language, LearnKey::GoalCaptureMost).to_owned(),
        Goal::NoMoveIn(n) => learn_trf(language, LearnKey::GoalNoMoveIn, &[("moves", &moves(n))]),
        Goal::RowIn(n) => learn_trf(language, LearnKey::GoalRowIn, &[("moves", &moves(n))]),
        Goal::TakeGipfIn(n) => {
            learn_trf(language, LearnKey::GoalTakeGipfIn, &[("moves", &moves(n))])
        }
        Goal::Play => learn_tr(language, LearnKey::GoalPlay).to_owned(),
    }
}

fn en(key: LearnKey) -> &'static str {
    use LearnKey::*;
    match key {
        MenuLearn => "Learn…",
        Title => "Learn to play",
        Loading => "Loading lessons and puzzles…",
        Nothing => "No lessons or puzzles were found.",
        Courses => "Courses",
        Puzzles => "Puzzles",
        Steps => "Steps",
        StepsDone => "{done} of {total} steps done",
        SolvedCount => "{done} of {total} solved",
        StartCourse => "Start the course",
        ContinueCourse => "Continue the course",
        CourseDone => "Course complete",
        StepNumber => "Step {n}",
        AllDifficulties => "All",
        Solved => "solved",
        NotSolved => "not solved yet",
        BrokenFiles => "Lesson and puzzle files with errors",
        ModTag => "mod",
        BackToMenu => "Back to the menu",
        NoPuzzlesHere => "No puzzles of this kind.",
        SolvePuzzle => "Solve it",
        FamilyRace => "Ugolki and Halma",
        FamilyFocus => "Focus",
        FamilyGipf => "GIPF",
        Easy => "Easy",
        Medium => "Medium",
        Hard => "Hard",
        Expert => "Expert",
        StepOf => "Step {n} of {total}",
        YourSide => "You play {Side}.",
        GoalWinIn => "Win in {moves}.",
        GoalLongestJump => "Make the jump that gains the most ground towards the far corner.",
        GoalReachTarget => "Goal: {pieces} in the target camp within {moves}.",
        GoalLeaveHome => "Get every piece out of your home within {moves}.",
        GoalCaptureMost => "Capture as many pieces as you can with one move.",
        GoalNoMoveIn => "Leave your opponent without a move within {moves}.",
        GoalRowIn => "Make a row of four of your colour within {moves}.",
        GoalTakeGipfIn => "Capture one of your opponent's GIPF pieces within {moves}.",
        GoalPlay => "Make the move the text describes.",
        Hint => "Hint",
        NoHint => "No hint here: read the step's text again.",
        ShowSolution => "Show the solution",
        Retry => "Retry",
        NextStep => "Next step",
        NextPuzzle => "Next puzzle",
        BackToLearn => "Back to Learn",
        RightDefault => "Solved!",
        WrongDefault => "That is not the move. Try again.",
        GoodGoOn => "Good. Go on.",
        OpponentAnswers => "Your opponent answers…",
        Showing => "The solution: {line}",
        Shown => "That was the solution. Press Retry to play it yourself.",
        SolvedBefore => "You solved this one before.",
        CannotCheck => "This move cannot be checked: {why}",
        CopyPosition => "Copy position",
        CopyPositionTip => "Copy the position as text (for --position, a URL or a puzzle file)",
        Copied => "Copied: {text}",
        CopyFailed => "Cannot copy to the clipboard ({why}). The position: {text}",
    }
}

fn ru(key: LearnKey) -> &'static str {
    use LearnKey::*;
    match key {
        MenuLearn => "Обучение…",
        Title => "Учимся играть",
        Loading => "Загрузка уроков и задач…",
        Nothing => "Уроки и задачи не найдены.",
        Courses => "Курсы",
        Puzzles => "Задачи",
        Steps => "Шаги",
        StepsDone => "Пройдено шагов: {done} из {total}",
        SolvedCount => "Решено: {done} из {total}",
        StartCourse => "Начать курс",
        ContinueCourse => "Продолжить курс",
        CourseDone => "Курс пройден",
        StepNumber => "Шаг {n}",
        AllDifficulties => "Все",
        Solved => "решена",
        NotSolved => "ещё не решена",
        BrokenFiles => "Файлы уроков и задач с ошибками",
        ModTag => "мод",
        BackToMenu => "В главное меню",
        NoPuzzlesHere => "Таких задач нет.",
        SolvePuzzle => "Решать",
        FamilyRace => "Уголки и хальма",
        FamilyFocus => "Фокус",
        FamilyGipf => "ГИПФ",
        Easy => "Лёгкие",
        Medium => "Средние",
        Hard => "Трудные",
        Expert => "Для мастеров",
        StepOf => "Шаг {n} из {total}",
        YourSide => "Ваш цвет: {side}.",
        GoalWinIn => "Выиграйте за {moves}.",
        GoalLongestJump => {
            "Сделайте прыжок, который больше всего продвигает шашку к дальнему углу."
        }
        GoalReachTarget => "Цель: {pieces} в лагере соперника не позже чем за {moves}.",
        GoalLeaveHome => "Выведите все шашки из своего лагеря за {moves}.",
        GoalCaptureMost => "Возьмите одним ходом как можно больше фишек.",
        GoalNoMoveIn => "Оставьте соперника без ходов за {moves}.",
        GoalRowIn => "Постройте ряд из четырёх фишек своего цвета за {moves}.",
        GoalTakeGipfIn => "Возьмите ГИПФ-фишку соперника за {moves}.",
        GoalPlay => "Сделайте ход, о котором говорится в тексте.",
        Hint => "Подсказка",
        NoHint => "Подсказки нет: перечитайте текст шага.",
        ShowSolution => "Показать решение",
        Retry => "Заново",
        NextStep => "Следующий шаг",
        NextPuzzle => "Следующая задача",
        BackToLearn => "К урокам и задачам",
        RightDefault => "Решено!",
        WrongDefault => "Не тот ход. Попробуйте ещё раз.",
        GoodGoOn => "Хорошо. Продолжайте.",
        OpponentAnswers => "Соперник отвечает…",
        Showing => "Решение: {line}",
        Shown => "Это было решение. Нажмите «Заново», чтобы сыграть его самостоятельно.",
        SolvedBefore => "Эту задачу вы уже решали.",
        CannotCheck => "Ход не удаётся проверить: {why}",
        CopyPosition => "Скопировать позицию",
        CopyPositionTip => {
            "Скопировать позицию текстом (для --position, адреса страницы или файла задач)"
        }
        Copied => "Скопировано: {text}",
        CopyFailed => "Не удалось скопировать в буфер обмена ({why}). Позиция: {text}",
    }
}
