//! Русский.
use super::{Key, Noun};

pub fn text(key: Key) -> &'static str {
    match key {
        Key::White => "Белые",
        Key::Black => "Чёрные",
        Key::SeatRed => "Красные",
        Key::SeatBlue => "Синие",
        Key::SeatGreen => "Зелёные",
        Key::SeatYellow => "Жёлтые",
        Key::SeatOrange => "Оранжевые",
        Key::SeatPurple => "Фиолетовые",
        Key::MenuSeatCount => "Игроков за столом",
        Key::PassDevice => "Передайте устройство: ходят {side}",
        Key::SeatFinished => "{place} место",
        Key::PlacesTitle => "Места",
        Key::Partners => "Пары",
        Key::Human => "Человек",
        Key::RemotePlayer => "Соперник по сети",
        Key::ComputerNovice => "Компьютер · новичок",
        Key::ComputerAmateur => "Компьютер · любитель",
        Key::ComputerStrong => "Компьютер · сильный",
        Key::ComputerMaster => "Компьютер · мастер",
        Key::PlayerOfSide => "{Side}: {player}",

        Key::LoadingVariants => "Загрузка игр…",
        Key::CannotStartTitle => "Партию не удаётся начать",
        Key::CannotStartHint => {
            "Исправьте файл варианта и сохраните его: игра перечитает файл и начнёт партию."
        }
        Key::VariantFilesTitle => "Файлы вариантов",
        Key::FileBroken => "Ошибки в файле {file}:",
        Key::FileWarnings => "Файл {file} загружен, но есть предупреждения:",
        Key::NoticeManifest => "{why}. Используются варианты, встроенные в игру.",
        Key::NoticeDuplicate => {
            "{first} и {second} описывают один и тот же вариант «{name}»; игра использует {first}."
        }
        Key::NoticeReplayed => "Файл {path} изменился; партия переиграна по новым правилам.",
        Key::NoticeRestarted => {
            "Файл {path} изменился, и ходы партии ему больше не подходят; начата новая партия."
        }

        Key::MenuNewGame => "Новая партия",
        Key::MenuChooseGame => "Выберите игру",
        Key::MenuModTag => "мод",
        Key::MenuMovesFirst => "Первыми ходят {side}.",
        Key::MenuPlayers => "Игроки",
        Key::MenuStart => "Начать партию",
        Key::MenuContinue => "Вернуться к партии",
        Key::MenuLoad => "Загрузить партию…",
        Key::MenuSettings => "Настройки…",
        Key::MenuQuit => "Выход",
        Key::MenuNoVariants => "Не найдено ни одной игры (см. ошибки в файлах вариантов).",

        Key::ToMove => "Ходят {side}",
        Key::Thinking => "{Side} думают… {seconds} с",
        Key::MoveNumber => "Ход {n}",
        Key::LastMove => "Последний ход: {move}",
        Key::Lifting => "Поднимаете {n}: число меняется колесом мыши или щелчком по уровню башни.",
        Key::LiftHint => {
            "Щёлкните по уровню башни или прокрутите колесо мыши, чтобы выбрать, сколько фишек поднять."
        }
        Key::ReviewStart => "Просмотр: начальная позиция",
        Key::ReviewAfter => "Просмотр: после хода {move} ({ply} из {total})",
        Key::BackToGame => "К текущей позиции",
        Key::MovesTitle => "Ходы",
        Key::GameTab => "Партия",
        Key::NoMovesYet => "Ходов пока нет.",
        Key::StartPosition => "Начало",
        Key::FirstPositionTip => "Начальная позиция (Home)",
        Key::PreviousTip => "На ход назад (←)",
        Key::NextTip => "На ход вперёд (→)",
        Key::LivePositionTip => "Текущая позиция партии (End, Esc)",
        Key::Undo => "Отменить ход",
        Key::UndoTip => "Взять назад свой последний ход (Ctrl+Z)",
        Key::Redo => "Вернуть ход",
        Key::RedoTip => "Снова сделать отменённый ход (Ctrl+Y)",
        Key::NewGame => "Новая партия",
        Key::NewGameTip => "Выбрать игру и игроков",
        Key::Resign => "Сдаться",
        Key::ResignTip => "Признать поражение в этой партии",
        Key::ResignQuestion => "{Side} сдаются?",
        Key::Cancel => "Отмена",
        Key::Save => "Сохранить",
        Key::Load => "Загрузить",
        Key::SaveLoadTip => "Сохранить эту партию или загрузить сохранённую",
        Key::Settings => "Настройки",
        Key::Menu => "Меню",
        Key::ViewTopDownButton => "Вид сверху",
        Key::View3dButton => "Объёмный вид",
        Key::Skip => "Пропустить",
        Key::ViewTip => "Переключить объёмный вид и вид сверху (T)",
        Key::SkipTip => "Сразу закончить анимацию хода (пробел)",

        Key::GameOverTitle => "Партия окончена",
        Key::ResultWin => "Победили {side}",
        Key::ResultDraw => "Ничья",
        Key::ReasonTargetFilled => "{Winner} заняли своими шашками весь чужой лагерь.",
        Key::ReasonTargetBlockedButReached => {
            "{Winner} дошли до цели: чужой лагерь заполнен, и в нём есть хотя бы одна их шашка (правило против блокировки)."
        }
        Key::ReasonBothFinished => {
            "Обе стороны дошли до цели: второй игрок уравнял последним ответным ходом."
        }
        Key::ReasonHomeNotVacatedWin => {
            "Правило {n} ходов: {loser} не вывели все шашки из своего лагеря."
        }
        Key::ReasonHomeNotVacatedDraw => {
            "Правило {n} ходов: ни одна из сторон не вывела все шашки из своего лагеря."
        }
        Key::ReasonPieceCount => {
            "Подсчёт после {n}-го хода: в чужом углу у белых {white}, у чёрных {black}."
        }
        Key::ReasonNoLegalMovesWin => "{Loser} не могли сделать ни одного хода.",
        Key::ReasonNoLegalMovesDraw => {
            "{Side} не могли сделать ни одного хода: в этом варианте это ничья."
        }
        Key::ReasonNoStackNoReserve => {
            "{Loser} не управляли ни одной башней, и в запасе у них не осталось фишек."
        }
        Key::ReasonReserveExhausted => "{Loser} исчерпали запас: вводить в игру было нечего.",
        Key::ReasonNoGipfPiece => "{Loser} остались без GIPF-фишек на доске.",
        Key::ReasonAnnihilated => "{Loser} лишились всех фишек.",
        Key::ReasonRepetition => "Одна и та же позиция повторилась {n}: ничья по повторению.",
        Key::ReasonPlyCap => {
            "Достигнут предел в {n}: это ограничение программы, а не правило игры."
        }
        Key::ReasonResigned => "{Loser} сдались.",
        Key::ReasonTimeout => "{Loser} просрочили время.",
        Key::ReasonAbandoned => "{Loser} покинули игру и не вернулись вовремя.",
        Key::ReasonDrawAgreed => "Игроки согласились на ничью.",
        Key::ResultAborted => "Партия прервана",
        Key::ReasonAborted => {
            "Партия закончилась раньше, чем каждая сторона сделала два хода: она не засчитывается, рейтинги не меняются."
        }
        Key::Rematch => "Реванш",
        Key::ReviewGame => "Просмотреть партию",
        Key::Close => "Закрыть",

        Key::SettingsTitle => "Настройки",
        Key::AnimateMoves => "Анимировать ходы",
        Key::AnimationSpeed => "Скорость анимации",
        Key::EffectsVolume => "Громкость звуков",
        Key::View => "Вид",
        Key::ViewPerspective => "Объёмный",
        Key::ViewTopDown => "Сверху",
        Key::Language => "Язык",
        Key::Coach => "Тренер",
        Key::CoachOn => "Оценивать мои ходы",
        Key::UiScale => "Размер текста и кнопок",
        Key::Graphics => "Графика",
        Key::GraphicsAuto => "Автоматически",
        Key::GraphicsFull => "Полная",
        Key::GraphicsLight => "Лёгкая",
        Key::CoachHint => {
            "После каждого вашего хода компьютер оценивает его и показывает, как сыграл бы сам. В уголках по правилам 9qum тренер также предупреждает о сроке правила 40 ходов."
        }

        Key::SavesTitle => "Сохранение и загрузка",
        Key::SaveAs => "Название:",
        Key::SaveReplaces => {
            "Партия с таким названием уже сохранена: она будет заменена (прежняя останется резервной копией)."
        }
        Key::SavedGames => "Сохранённые партии",
        Key::NoSaves => "Сохранённых партий пока нет.",
        Key::Delete => "Удалить",
        Key::DeleteQuestion => "Удалить «{slot}»?",
        Key::SlotLine => "{title} · {plies} · {result}",
        Key::Unfinished => "не окончена",
        Key::SlotResigned => "Победили {side}: {loser} сдались",
        Key::SlotUnreadable => "не читается: {why}",
        Key::NoGameToSave => "Сохранять пока нечего: начните партию.",
        Key::Working => "Выполняется…",
        Key::Saved => "Партия сохранена как «{slot}».",
        Key::Loaded => "Загружена партия «{slot}».",
        Key::Deleted => "Партия «{slot}» удалена.",
        Key::SaveFailed => "Не удалось сохранить «{slot}»: {why}",
        Key::LoadFailed => "Не удалось загрузить «{slot}»: {why}",
        Key::DeleteFailed => "Не удалось удалить «{slot}»: {why}",

        Key::SaveErrMissing => "такого сохранения нет",
        Key::SaveErrUnreadable => "файл не читается: {message}",
        Key::SaveErrWriteFailed => "файл не удаётся записать: {message}",
        Key::SaveErrEmpty => "файл пуст",
        Key::SaveErrNotText => {
            "файл не текстовый (недопустимый байт по смещению {offset}): он повреждён"
        }
        Key::SaveErrTruncated => "файл обрывается (строка {line}, столбец {column}): он обрезан",
        Key::SaveErrSyntax => "строка {line}, столбец {column}: {message}",
        Key::SaveErrVersion => {
            "сохранение в формате {found}, а эта версия Boardcraft читает формат {supported}"
        }
        Key::SaveErrUnknownVariant => {
            "сохранена партия варианта «{name}», которого эта игра не знает"
        }
        Key::SaveErrVariantUnavailable => "вариант «{name}» сейчас недоступен: {why}",
        Key::SaveErrBadStart => "начальную позицию сохранения не прочитать: {why}",
        Key::SaveErrWrongVariant => "сохранена партия варианта «{saved}», а не «{given}»",
        Key::SaveErrIllegalMove => "ход {number} ({notation}) невозможен: {reason}",
        Key::SaveErrVariantChanged => "файл варианта изменился после сохранения партии",
        Key::SaveErrInvalidName => "«{name}» не годится как название: {problem}",
        Key::SaveErrNoGame => "нет партии для сохранения",
        Key::SlotNameEmpty => "название пустое",
        Key::SlotNameTooLong => "название слишком длинное (предел — {max})",
        Key::SlotNameBadCharacter => {
            "допустимы только буквы, цифры, пробелы, «-», «_» и «.» (встретился {found})"
        }
        Key::SlotNameBadEdge => {
            "название не может начинаться или заканчиваться пробелом или точкой"
        }
        Key::SlotNameReserved => "это название занято операционной системой",
        Key::NoticeRecovered => {
            "файл повреждён ({problem}); он оставлен как есть, использована предыдущая версия"
        }
        Key::NoticeKeptDamaged => {
            "заменённый повреждённый файл сохранён рядом, с расширением .damaged"
        }
        Key::WarnVariantChanged => {
            "файл варианта изменился после сохранения партии; все ходы по-прежнему воспроизводятся"
        }
        Key::WarnResultDiffers => {
            "в сохранении записан результат «{saved}», а ходы дают «{replayed}»"
        }
        Key::GameNotOver => "партия не окончена",
        Key::WarnResignationIgnored => {
            "в сохранении записано, что {side} сдались, но партия уже окончена по правилам; сдача не учтена"
        }
        Key::WarnDecisionIgnored => {
            "в сохранении записано, что партия окончена по времени, уходом игрока или ничьей по согласию, но она уже была окончена иначе; это окончание не учтено"
        }
        Key::SlotNotice => "«{slot}»: {notice}.",
        Key::SettingsNotice => "Настройки: {notice}.",
        Key::SettingsLoadFailed => {
            "Сохранённые настройки нельзя использовать ({why}); действуют настройки по умолчанию, файл оставлен как есть."
        }
        Key::SettingsSaveFailed => "Не удалось сохранить настройки: {why}",
        Key::StorageLocation => "Место хранения: {location}",
        Key::NoticesTitle => "Обратите внимание",

        Key::CoachTitle => "Тренер",
        Key::CoachThinking => "Оцениваю ваш ход…",
        Key::CoachPlayedBest => "{move} ({score}): компьютер сыграл бы так же.",
        Key::CoachVerdict => "Ваш ход {move}: {score}. Лучше было {best} ({best_score}).",
        Key::CoachLine => "Ожидаемое продолжение: {line}",
        Key::CoachScoreNote => {
            "Оценка дана за сходившую сторону: +1,00 — это примерно один ход преимущества."
        }
        Key::GradeBest => "Лучший ход",
        Key::GradeGood => "Хороший ход",
        Key::GradeInaccuracy => "Неточность",
        Key::GradeMistake => "Ошибка",
        Key::GradeBlunder => "Грубая ошибка",
        Key::ScoreWinIn => "выигрыш за {moves}",
        Key::ScoreLossIn => "проигрыш за {moves}",
        Key::ScoreWon => "немедленный выигрыш",
        Key::ScoreLost => "немедленный проигрыш",
        Key::DeadlineWarning => {
            "Правило {n} ходов: чтобы освободить свой лагерь, осталось {turns}. Ещё дома: {squares}."
        }

        Key::ChooseMoveTitle => "Выберите ход",
        Key::ChooseMoveHint => {
            "Эти ходы начинаются одинаково и отличаются тем, какие фишки снимаются с доски:"
        }
    }
}

/// Forms for 1, for 2–4 and for 5 and more (see `plural_form`).
pub fn noun(noun: Noun) -> [&'static str; 3] {
    match noun {
        Noun::Move => ["ход", "хода", "ходов"],
        Noun::Ply => ["полуход", "полухода", "полуходов"],
        Noun::Piece => ["фишка", "фишки", "фишек"],
        Noun::Time => ["раз", "раза", "раз"],
    }
}
