//! The words of online play, in English and Russian: a table of their own (so the online
//! screens stay in this folder), built like `ui::i18n` — every [`Say`] has a text in every
//! language (an exhaustive `match`: a missing one does not compile), `{name}` placeholders
//! filled by [`sayf`]. The test `tests/app/online.rs` checks both languages.
use std::fmt::Display;

use crate::{settings::Language, ui::i18n::fill};

macro_rules! says {
    ($($key:ident => $en:expr, $ru:expr;)*) => {
        /// A text of the online UI.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Say {
            $($key),*
        }

        impl Say {
            /// Every text, for the completeness test.
            pub const ALL: &'static [Say] = &[$(Say::$key),*];
        }

        /// The text in `language`.
        pub fn say(language: Language, key: Say) -> &'static str {
            match (language, key) {
                $(
                    (Language::English, Say::$key) => $en,
                    (Language::Russian, Say::$key) => $ru,
                )*
            }
        }
    };
}

says! {
    PlayOnline => "Play online…", "Игра по сети…";
    Title => "Play a friend online", "Игра с другом по сети";
    Server => "Server", "Сервер";
    CreateHeading => "Create a game and invite a friend", "Создать игру и пригласить друга";
    JoinHeading => "Join a friend's game", "Присоединиться к игре друга";
    Game => "Game", "Игра";
    YourSide => "Your side", "Ваша сторона";
    RandomSide => "Random", "Случайно";
    Clock => "Clock", "Часы";
    Untimed => "No clock", "Без часов";
    Create => "Create the game", "Создать игру";
    InviteField => "Invite code or link", "Код или ссылка приглашения";
    Join => "Join", "Присоединиться";
    Creating => "Creating the game…", "Создаём игру…";
    Joining => "Joining…", "Присоединяемся…";
    Close => "Close", "Закрыть";
    WaitingTitle => "Waiting for your friend", "Ждём друга";
    WaitingText => "Give your friend this code or link. The game starts as soon as they join.",
        "Отправьте другу этот код или ссылку. Игра начнётся, как только он присоединится.";
    Code => "Code: {code}", "Код: {code}";
    CopyCode => "Copy the code", "Копировать код";
    CopyLink => "Copy the link", "Копировать ссылку";
    Connecting => "Connecting…", "Подключение…";
    Online => "Online", "В сети";
    Reconnecting => "Connection lost — reconnecting (attempt {n})…",
        "Связь потеряна — переподключаемся (попытка {n})…";
    Gone => "Disconnected", "Отключено";
    YourSideIs => "You play: {Side}", "Вы играете: {Side}";
    Watching => "You are watching this game", "Вы смотрите эту игру";
    You => "(you)", "(вы)";
    Present => "{Side}: here", "{Side}: в игре";
    Absent => "{Side}: not here yet", "{Side}: ещё не подключились";
    Left => "{Side}: left the game", "{Side}: покинули игру";
    GoneClaimIn => "{Side}: gone · may be claimed in {seconds} s",
        "{Side}: нет на месте · засчитать уход можно через {seconds} с";
    LeftComputer => "{Side}: left · the computer plays", "{Side}: вышли · играет компьютер";
    ToMove => "· to move", "· ходят";
    Claim => "Claim: the player is gone", "Засчитать уход игрока";
    Spectators => "Watching: {n}", "Зрителей: {n}";
    Pending => "Sending {move}…", "Отправляем {move}…";
    MoveRefused => "The server refused the move ({reason}); it was taken back.",
        "Сервер не принял ход ({reason}); ход отменён.";
    Refused => "Refused: {reason}", "Отказано: {reason}";
    CannotStart => "Cannot start the online game: {reason}", "Не удалось начать игру по сети: {reason}";
    SeatTaken => "That seat is taken already: {reason}", "Это место уже занято: {reason}";
    WatchInstead => "Watch this game", "Смотреть эту игру";
    Declined => "Another player said no.", "Другой игрок отказался.";
    Resynced => "The board was rebuilt from the server's record.", "Доска восстановлена по записи сервера.";
    Fatal => "The server ended the session: {reason}", "Сервер завершил сеанс: {reason}";
    OfferDraw => "Offer a draw", "Предложить ничью";
    OfferDrawShort => "Offer draw", "Ничья?";
    DrawOffered => "You offered a draw ({agreed} of {needed} agree).",
        "Вы предложили ничью (согласны {agreed} из {needed}).";
    SeatOffersDraw => "{who} offers a draw ({agreed} of {needed} agree).",
        "{who} предлагает ничью (согласны {agreed} из {needed}).";
    AskTakeback => "Ask to take back", "Попросить вернуть ход";
    AskTakebackShort => "Take back", "Вернуть ход";
    TakebackAsked => "You asked to take back your move.", "Вы попросили вернуть ход.";
    SeatAsksTakeback => "{who} asks to take back their last move.",
        "{who} просит вернуть последний ход.";
    OfferRematch => "Rematch", "Реванш";
    RematchOffered => "You offered a rematch, everyone one seat on ({agreed} of {needed} agree).",
        "Вы предложили реванш, все пересаживаются на место дальше (согласны {agreed} из {needed}).";
    SeatOffersRematch => "{who} wants a rematch, everyone one seat on ({agreed} of {needed} agree).",
        "{who} хочет реванш, все пересаживаются на место дальше (согласны {agreed} из {needed}).";
    Accept => "Accept", "Принять";
    Decline => "Decline", "Отказаться";
    Withdraw => "Withdraw", "Отозвать";
    Leave => "Leave the online game", "Выйти из игры по сети";
    LeaveShort => "Leave", "Выйти";
    GameId => "Online game {game}", "Игра по сети {game}";
    ServerResult => "Server: {text}", "Сервер: {text}";
    LobbyTitle => "Play online", "Игра по сети";
    InviteFriend => "Play a friend (invite)…", "Игра с другом (приглашение)…";
    Back => "Back", "Назад";
    SigningIn => "Signing in…", "Входим…";
    SignedInAs => "Signed in as {name}", "Вы вошли как {name}";
    GuestNote => "A guest account: choose a name and a password to keep it on other devices.",
        "Гостевой аккаунт: выберите имя и пароль, чтобы пользоваться им на других устройствах.";
    PlayAsGuest => "Play as a guest", "Играть как гость";
    NameField => "Name", "Имя";
    PasswordField => "Password", "Пароль";
    KeepAccount => "Keep this account", "Сохранить аккаунт";
    SignInOther => "Sign in", "Войти";
    SignOut => "Sign out", "Выйти";
    AccountHeading => "Account", "Аккаунт";
    TabPlay => "Play", "Играть";
    TabProfile => "Profile", "Профиль";
    TabGames => "My games", "Мои партии";
    TabLeaders => "Leaders", "Лидеры";
    QuickPairing => "Quick pairing", "Быстрая игра";
    Waiting => "{n} waiting", "ждут: {n}";
    Searching => "Looking for opponents: {pool}", "Ищем соперников: {pool}";
    Cancel => "Cancel", "Отмена";
    SeeksHeading => "Open games", "Открытые вызовы";
    NoSeeks => "No open games now.", "Сейчас открытых вызовов нет.";
    Rated => "rated", "на рейтинг";
    Casual => "casual", "без рейтинга";
    BotMark => "computer", "компьютер";
    YourSeek => "your game", "ваш вызов";
    CreateSeek => "Create a game", "Создать вызов";
    RatedChoice => "Rated", "На рейтинг";
    PlayersChoice => "Players", "Игроков";
    TablePool => "{game} ×{n}", "{game} на {n}";
    SeatedOf => "{k} of {n} seated: {names}", "Сели {k} из {n}: {names}";
    TakeSeat => "Take a seat", "Сесть";
    LeaveSeat => "Leave the seat", "Встать из-за стола";
    Post => "Post it", "Опубликовать";
    ChallengeHeading => "Challenge a player", "Вызвать игрока";
    ChallengeButton => "Challenge", "Вызвать";
    ChallengesHeading => "Challenges", "Вызовы";
    ChallengeFrom => "{name} ({rating}) challenges you: {game}", "{name} ({rating}) вызывает вас: {game}";
    ChallengeTo => "You challenged {name}: {game}", "Вы вызвали {name}: {game}";
    Counts => "Players online: {players} · games now: {games}", "Игроков в сети: {players} · партий сейчас: {games}";
    YourRatings => "Your ratings", "Ваши рейтинги";
    NoRatings => "No rated games yet (1500? to start).", "Рейтинговых партий ещё нет (начальный рейтинг 1500?).";
    RatingLine => "{game}: {rating} (games: {n})", "{game}: {rating} (партий: {n})";
    Tally => "Won {w} · drawn {d} · lost {l}", "Побед {w} · ничьих {d} · поражений {l}";
    RecentGames => "Recent games", "Последние партии";
    NoGames => "No finished games yet.", "Законченных партий ещё нет.";
    Page => "Page {n}", "Страница {n}";
    Newer => "Newer", "Новее";
    Older => "Older", "Старше";
    Open => "Review", "Разбор";
    Opening => "Opening the game…", "Открываем партию…";
    Refresh => "Refresh", "Обновить";
    LeadersOf => "Best players", "Лучшие игроки";
    NoLeaders => "Nobody has a settled rating here yet.", "Здесь ещё ни у кого нет устоявшегося рейтинга.";
    Versus => "White: {white} · Black: {black}", "Белые: {white} · Чёрные: {black}";
    RatingChange => "Your rating: {before} → {after} ({delta})", "Ваш рейтинг: {before} → {after} ({delta})";
    Unrated => "Casual game: ratings do not change.", "Партия без рейтинга: рейтинги не меняются.";
    AbortedNote => "Aborted: the game does not count.", "Партия прервана и не засчитывается.";
    PlacesOnline => "Places", "Места";
    SharedPlace => "{place} (shared)", "{place} (поровну)";
    TeamMark => "team {n}", "команда {n}";
    BackToLobby => "Back to the lobby", "В лобби";
    LobbyError => "Lobby: {reason}", "Лобби: {reason}";
    SignInFailed => "Cannot sign in: {reason}", "Не удалось войти: {reason}";
    ClaimFailed => "Cannot keep the account: {reason}", "Не удалось сохранить аккаунт: {reason}";
}

/// The text of `key` with its `{name}` placeholders filled.
pub fn sayf(language: Language, key: Say, args: &[(&str, &dyn Display)]) -> String {
    fill(say(language, key), args)
}

/// A clock reading: `4:59`, `0:07.3` under ten seconds.
pub fn clock_text(ms: u64) -> String {
    let total = ms / 1000;
    if ms < 10_000 {
        format!("0:{:02}.{}", total, (ms % 1000) / 100)
    } else if total >= 3600 {
        format!(
            "{}:{:02}:{:02}",
            total / 3600,
            (total / 60) % 60,
            total % 60
        )
    } else {
        format!("{}:{:02}", total / 60, total % 60)
    }
}
