//! Every string the UI shows, in English and Russian.
//!
//! A string is a [`Key`]; each language is a table ([`en`], [`ru`]) that is an exhaustive
//! `match` over the keys, so a key without a translation does not compile. Strings with
//! values name them (`"{side} to move"`) and are filled by [`trf`]; counted nouns take the
//! language's plural form through [`count`] (Russian has three: 1 ход, 2 хода, 5 ходов).
//! The test `tests/app/i18n.rs` checks every key in every language: not empty, the same
//! placeholders, and Russian text that is actually Russian.
//!
//! Not translated on purpose: move notation and square names, the variant files' own text for
//! mods (shipped variants have translated titles here: [`variant_text`]), and error details
//! written by the rules engine (a broken variant file's problems, for its modder).
use std::fmt::Display;

use boardcraft_rules::Seat;

pub use crate::game::seat_names::SeatNames;

use crate::{game::config::PlayerKind, settings::Language};

mod en;
mod learn;
mod ru;
mod variants;

pub use learn::{LearnKey, difficulty_name, family_name, goal_text, learn_tr, learn_trf};
pub use variants::{VariantText, variant_text};

macro_rules! keys {
    ($($key:ident),* $(,)?) => {
        /// A string of the UI.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Key {
            $($key),*
        }

        impl Key {
            /// Every key, for the completeness test.
            pub const ALL: &'static [Key] = &[$(Key::$key),*];
        }
    };
}

keys! {
    // Sides and players.
    White,
    Black,
    SeatRed,
    SeatBlue,
    SeatGreen,
    SeatYellow,
    SeatOrange,
    SeatPurple,
    MenuSeatCount,
    PassDevice,
    SeatFinished,
    PlacesTitle,
    Partners,
    Human,
    RemotePlayer,
    ComputerNovice,
    ComputerAmateur,
    ComputerStrong,
    ComputerMaster,
    PlayerOfSide,
    // Loading and errors.
    LoadingVariants,
    CannotStartTitle,
    CannotStartHint,
    VariantFilesTitle,
    FileBroken,
    FileWarnings,
    NoticeManifest,
    NoticeDuplicate,
    NoticeReplayed,
    NoticeRestarted,
    // Main menu.
    MenuNewGame,
    MenuChooseGame,
    MenuModTag,
    MenuMovesFirst,
    MenuPlayers,
    MenuStart,
    MenuContinue,
    MenuLoad,
    MenuSettings,
    MenuQuit,
    MenuNoVariants,
    // The game's panel.
    ToMove,
    Thinking,
    MoveNumber,
    LastMove,
    Lifting,
    LiftHint,
    ReviewStart,
    ReviewAfter,
    BackToGame,
    MovesTitle,
    GameTab,
    NoMovesYet,
    StartPosition,
    FirstPositionTip,
    PreviousTip,
    NextTip,
    LivePositionTip,
    Undo,
    UndoTip,
    Redo,
    RedoTip,
    NewGame,
    NewGameTip,
    Resign,
    ResignTip,
    ResignQuestion,
    Cancel,
    Save,
    Load,
    SaveLoadTip,
    Settings,
    Menu,
    ViewTopDownButton,
    View3dButton,
    ViewTip,
    Skip,
    SkipTip,
    // Game over.
    GameOverTitle,
    ResultWin,
    ResultDraw,
    ReasonTargetFilled,
    ReasonTargetBlockedButReached,
    ReasonBothFinished,
    ReasonHomeNotVacatedWin,
    ReasonHomeNotVacatedDraw,
    ReasonPieceCount,
    ReasonNoLegalMovesWin,
    ReasonNoLegalMovesDraw,
    ReasonNoStackNoReserve,
    ReasonReserveExhausted,
    ReasonNoGipfPiece,
    ReasonAnnihilated,
    ReasonRepetition,
    ReasonPlyCap,
    ReasonResigned,
    ReasonTimeout,
    ReasonAbandoned,
    ReasonDrawAgreed,
    ResultAborted,
    ReasonAborted,
    Rematch,
    ReviewGame,
    Close,
    // Settings.
    SettingsTitle,
    AnimateMoves,
    AnimationSpeed,
    EffectsVolume,
    View,
    ViewPerspective,
    ViewTopDown,
    Language,
    Coach,
    // The coach's checkbox: what ticking it does.
    CoachOn,
    CoachHint,
    UiScale,
    Graphics,
    GraphicsAuto,
    GraphicsFull,
    GraphicsLight,
    // Save and load.
    SavesTitle,
    SaveAs,
    SaveReplaces,
    SavedGames,
    NoSaves,
    Delete,
    DeleteQuestion,
    SlotLine,
    Unfinished,
    SlotResigned,
    SlotUnreadable,
    NoGameToSave,
    Working,
    Saved,
    Loaded,
    Deleted,
    SaveFailed,
    LoadFailed,
    DeleteFailed,
    // Storage problems and notices (the persistence's typed errors, worded here).
    SaveErrMissing,
    SaveErrUnreadable,
    SaveErrWriteFailed,
    SaveErrEmpty,
    SaveErrNotText,
    SaveErrTruncated,
    SaveErrSyntax,
    SaveErrVersion,
    SaveErrUnknownVariant,
    SaveErrVariantUnavailable,
    SaveErrWrongVariant,
    SaveErrBadStart,
    SaveErrIllegalMove,
    SaveErrVariantChanged,
    SaveErrInvalidName,
    SaveErrNoGame,
    SlotNameEmpty,
    SlotNameTooLong,
    SlotNameBadCharacter,
    SlotNameBadEdge,
    SlotNameReserved,
    NoticeRecovered,
    NoticeKeptDamaged,
    WarnVariantChanged,
    WarnResultDiffers,
    GameNotOver,
    WarnResignationIgnored,
    WarnDecisionIgnored,
    SlotNotice,
    SettingsNotice,
    SettingsLoadFailed,
    SettingsSaveFailed,
    StorageLocation,
    NoticesTitle,
    // Coach.
    CoachTitle,
    CoachThinking,
    CoachPlayedBest,
    CoachVerdict,
    CoachLine,
    CoachScoreNote,
    GradeBest,
    GradeGood,
    GradeInaccuracy,
    GradeMistake,
    GradeBlunder,
    ScoreWinIn,
    ScoreLossIn,
    ScoreWon,
    ScoreLost,
    DeadlineWarning,
    // Move chooser.
    ChooseMoveTitle,
    ChooseMoveHint,
}

/// Nouns that are counted ("3 moves" / "3 хода").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Noun {
    /// A move of one side (a turn).
    Move,
    /// One player's turn, as the rules count (a half-move).
    Ply,
    Piece,
    /// "3 times" (a repetition).
    Time,
}

impl Noun {
    pub const ALL: [Noun; 4] = [Noun::Move, Noun::Ply, Noun::Piece, Noun::Time];
}

/// The text of `key` in `language`.
pub fn tr(language: Language, key: Key) -> &'static str {
    match language {
        Language::English => en::text(key),
        Language::Russian => ru::text(key),
    }
}

/// The text of `key` with its `{name}` placeholders filled from `args`. A placeholder without
/// a value stays visible (and is reported in debug builds) rather than vanishing.
pub fn trf(language: Language, key: Key, args: &[(&str, &dyn Display)]) -> String {
    fill(tr(language, key), args)
}

/// Fills `{name}` placeholders.
pub fn fill(template: &str, args: &[(&str, &dyn Display)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let name = &after[..close];
        match args.iter().find(|(n, _)| *n == name) {
            Some((_, value)) => out.push_str(&value.to_string()),
            None => {
                debug_assert!(false, "no value for {{{name}}} in {template:?}");
                out.push_str(&rest[open..open + close + 2]);
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The placeholders a template uses, sorted (for the completeness test).
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut names: Vec<&str> = template
        .split('{')
        .skip(1)
        .filter_map(|part| part.split_once('}').map(|(name, _)| name))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// `n` with its noun in the right form: "1 move", "3 moves"; "1 ход", "3 хода", "5 ходов".
pub fn count(language: Language, n: u64, noun: Noun) -> String {
    let forms = match language {
        Language::English => en::noun(noun),
        Language::Russian => ru::noun(noun),
    };
    format!("{n} {}", forms[plural_form(language, n)])
}

/// Which of a noun's forms goes with `n`: English 0 = one, 1 = other (the third form is
/// never used); Russian 0 = one (1, 21, 31 …), 1 = few (2–4, 22–24 …), 2 = many.
pub fn plural_form(language: Language, n: u64) -> usize {
    match language {
        Language::English => usize::from(n != 1),
        Language::Russian => {
            let (last, last_two) = (n % 10, n % 100);
            if last == 1 && last_two != 11 {
                0
            } else if (2..=4).contains(&last) && !(12..=14).contains(&last_two) {
                1
            } else {
                2
            }
        }
    }
}

/// The key of a seat name the UI translates.
fn seat_key(name: &str) -> Option<Key> {
    Some(match name.to_ascii_lowercase().as_str() {
        "white" => Key::White,
        "black" => Key::Black,
        "red" => Key::SeatRed,
        "blue" => Key::SeatBlue,
        "green" => Key::SeatGreen,
        "yellow" => Key::SeatYellow,
        "orange" => Key::SeatOrange,
        "purple" => Key::SeatPurple,
        _ => return None,
    })
}

/// A seat's name: "White" / "Белые", "Red" / "Красные" (as the subject of a sentence).
pub fn side(language: Language, names: &SeatNames, seat: Seat) -> String {
    let name = names.english(seat);
    seat_key(name).map_or_else(|| name.to_owned(), |k| tr(language, k).to_owned())
}

/// A seat's name inside a sentence: Russian lower-cases the colours it translates ("ходят
/// белые"); English keeps the capital ("White to move"), and a mod's own names stay as written.
pub fn side_lower(language: Language, names: &SeatNames, seat: Seat) -> String {
    let name = side(language, names, seat);
    match language {
        Language::Russian if seat_key(names.english(seat)).is_some() => name.to_lowercase(),
        _ => name,
    }
}

/// A place at the table: "1st", "2nd" / "1-е", "2-е".
pub fn place(language: Language, place: u8) -> String {
    match language {
        Language::English => boardcraft_rules::outcome::ordinal(place),
        Language::Russian => format!("{place}-е"),
    }
}

/// Who plays a side: "Human", "Computer · amateur".
pub fn player(language: Language, kind: PlayerKind) -> &'static str {
    use crate::game::config::Level;
    tr(
        language,
        match kind {
            PlayerKind::Human => Key::Human,
            PlayerKind::Computer(Level::Novice) => Key::ComputerNovice,
            PlayerKind::Computer(Level::Amateur) => Key::ComputerAmateur,
            PlayerKind::Computer(Level::Strong) => Key::ComputerStrong,
            PlayerKind::Computer(Level::Master) => Key::ComputerMaster,
            PlayerKind::Remote => Key::RemotePlayer,
        },
    )
}

/// A notice about the variant library, in the player's language.
pub fn notice(language: Language, notice: &crate::game::variants::Notice) -> String {
    use crate::game::variants::Notice;
    match notice {
        Notice::ManifestUnreadable { why } => trf(language, Key::NoticeManifest, &[("why", why)]),
        Notice::DuplicateName {
            first,
            second,
            name,
        } => trf(
            language,
            Key::NoticeDuplicate,
            &[("first", first), ("second", second), ("name", name)],
        ),
        Notice::Replayed { path } => trf(language, Key::NoticeReplayed, &[("path", path)]),
        Notice::Restarted { path } => trf(language, Key::NoticeRestarted, &[("path", path)]),
    }
}

/// A language's own name, as its speakers write it (the same in every UI language, so a
/// player can always find their own).
pub fn language_name(language: Language) -> &'static str {
    match language {
        Language::English => "English",
        Language::Russian => "Русский",
    }
}
