//! English.
use super::{Key, Noun};

pub fn text(key: Key) -> &'static str {
    match key {
        Key::White => "White",
        Key::Black => "Black",
        Key::SeatRed => "Red",
        Key::SeatBlue => "Blue",
        Key::SeatGreen => "Green",
        Key::SeatYellow => "Yellow",
        Key::SeatOrange => "Orange",
        Key::SeatPurple => "Purple",
        Key::MenuSeatCount => "Players at the table",
        Key::PassDevice => "Pass the device to {Side}",
        Key::SeatFinished => "{place} place",
        Key::PlacesTitle => "Places",
        Key::Partners => "Partners",
        Key::Human => "Human",
        Key::RemotePlayer => "Friend online",
        Key::ComputerNovice => "Computer · novice",
        Key::ComputerAmateur => "Computer · amateur",
        Key::ComputerStrong => "Computer · strong",
        Key::ComputerMaster => "Computer · master",
        Key::PlayerOfSide => "{Side}: {player}",

        Key::LoadingVariants => "Loading the games…",
        Key::CannotStartTitle => "The game cannot start",
        Key::CannotStartHint => "Fix the variant file and save it: the game reloads it and starts.",
        Key::VariantFilesTitle => "Variant files",
        Key::FileBroken => "{file} has errors:",
        Key::FileWarnings => "{file} loads, with warnings:",
        Key::NoticeManifest => "{why}. Using the variants built into the game instead.",
        Key::NoticeDuplicate => {
            "{first} and {second} both define the variant “{name}”; the game uses {first}."
        }
        Key::NoticeReplayed => "{path} changed; the game was replayed on the new rules.",
        Key::NoticeRestarted => {
            "{path} changed and the game's moves no longer fit it; a new game was started."
        }

        Key::MenuNewGame => "New game",
        Key::MenuChooseGame => "Choose a game",
        Key::MenuModTag => "mod",
        Key::MenuMovesFirst => "{Side} moves first.",
        Key::MenuPlayers => "Players",
        Key::MenuStart => "Start the game",
        Key::MenuContinue => "Back to the game",
        Key::MenuLoad => "Load a game…",
        Key::MenuSettings => "Settings…",
        Key::MenuQuit => "Quit",
        Key::MenuNoVariants => "No playable game was found (see the variant files' errors).",

        Key::ToMove => "{Side} to move",
        Key::Thinking => "{Side} is thinking… {seconds} s",
        Key::MoveNumber => "Move {n}",
        Key::LastMove => "Last move: {move}",
        Key::Lifting => "Lifting {n}: scroll or click a level of the tower to change.",
        Key::LiftHint => "Click a level of the tower, or scroll, to choose how many to lift.",
        Key::ReviewStart => "Reviewing: the start position",
        Key::ReviewAfter => "Reviewing: after {move} ({ply} of {total})",
        Key::BackToGame => "Back to the game",
        Key::MovesTitle => "Moves",
        Key::GameTab => "Game",
        Key::NoMovesYet => "No moves yet.",
        Key::StartPosition => "Start",
        Key::FirstPositionTip => "The start position (Home)",
        Key::PreviousTip => "One move back (←)",
        Key::NextTip => "One move forward (→)",
        Key::LivePositionTip => "The game as it stands (End, Esc)",
        Key::Undo => "Undo",
        Key::UndoTip => "Take back your last move (Ctrl+Z)",
        Key::Redo => "Redo",
        Key::RedoTip => "Replay the move taken back (Ctrl+Y)",
        Key::NewGame => "New game",
        Key::NewGameTip => "Choose a game and the players",
        Key::Resign => "Resign",
        Key::ResignTip => "Give up this game",
        Key::ResignQuestion => "Does {side} resign?",
        Key::Cancel => "Cancel",
        Key::Save => "Save",
        Key::Load => "Load",
        Key::SaveLoadTip => "Save this game, or load a saved one",
        Key::Settings => "Settings",
        Key::Menu => "Menu",
        Key::ViewTopDownButton => "Top-down view",
        Key::View3dButton => "3D view",
        Key::Skip => "Skip",
        Key::ViewTip => "Switch between the 3D and the top-down view (T)",
        Key::SkipTip => "Finish the move's animation now (Space)",

        Key::GameOverTitle => "Game over",
        Key::ResultWin => "{Side} wins",
        Key::ResultDraw => "Draw",
        Key::ReasonTargetFilled => "{Winner} filled the target camp with their own pieces.",
        Key::ReasonTargetBlockedButReached => {
            "{Winner} reached the target camp: it is full and holds at least one of their pieces (the anti-blocking rule)."
        }
        Key::ReasonBothFinished => {
            "Both sides reached their target camps: the second player equalised with the last reply."
        }
        Key::ReasonHomeNotVacatedWin => "{n}-move rule: {Loser} still had a piece at home.",
        Key::ReasonHomeNotVacatedDraw => "{n}-move rule: both sides still had a piece at home.",
        Key::ReasonPieceCount => {
            "Count after move {n}: White {white}, Black {black} in the opposite corner."
        }
        Key::ReasonNoLegalMovesWin => "{Loser} had no legal move.",
        Key::ReasonNoLegalMovesDraw => "{Side} had no legal move: a draw in this variant.",
        Key::ReasonNoStackNoReserve => "{Loser} controlled no stack and had no piece in reserve.",
        Key::ReasonReserveExhausted => "{Loser} had no piece left to bring into play.",
        Key::ReasonNoGipfPiece => "{Loser} had no GIPF-piece left on the board.",
        Key::ReasonAnnihilated => "{Loser} had no pieces left.",
        Key::ReasonRepetition => "The same position occurred {n}: a draw by repetition.",
        Key::ReasonPlyCap => {
            "The limit of {n} was reached: a guard of the program, not a rule of the game."
        }
        Key::ReasonResigned => "{Loser} resigned.",
        Key::ReasonTimeout => "{Loser} ran out of time.",
        Key::ReasonAbandoned => "{Loser} left the game and did not come back in time.",
        Key::ReasonDrawAgreed => "Both players agreed to a draw.",
        Key::ResultAborted => "Game aborted",
        Key::ReasonAborted => {
            "The game ended before both sides made two moves: it does not count and ratings do not change."
        }
        Key::Rematch => "Rematch",
        Key::ReviewGame => "Review the game",
        Key::Close => "Close",

        Key::SettingsTitle => "Settings",
        Key::AnimateMoves => "Animate moves",
        Key::AnimationSpeed => "Animation speed",
        Key::EffectsVolume => "Sound volume",
        Key::View => "View",
        Key::ViewPerspective => "3D",
        Key::ViewTopDown => "Top-down",
        Key::Language => "Language",
        Key::Coach => "Coach",
        Key::CoachOn => "Rate my moves",
        Key::UiScale => "Text and button size",
        Key::Graphics => "Graphics",
        Key::GraphicsAuto => "Automatic",
        Key::GraphicsFull => "Full",
        Key::GraphicsLight => "Light",
        Key::CoachHint => {
            "After each of your moves the computer rates it and shows what it would have played. In 9qum Ugolki it also warns before the 40-move deadline."
        }

        Key::SavesTitle => "Save and load",
        Key::SaveAs => "Name:",
        Key::SaveReplaces => {
            "A game is saved under this name: saving replaces it (the previous one is kept as a backup)."
        }
        Key::SavedGames => "Saved games",
        Key::NoSaves => "No saved games yet.",
        Key::Delete => "Delete",
        Key::DeleteQuestion => "Delete “{slot}”?",
        Key::SlotLine => "{title} · {plies} · {result}",
        Key::Unfinished => "unfinished",
        Key::SlotResigned => "{Side} wins: {loser} resigned",
        Key::SlotUnreadable => "cannot be read: {why}",
        Key::NoGameToSave => "Start a game to save it.",
        Key::Working => "Working…",
        Key::Saved => "Saved as “{slot}”.",
        Key::Loaded => "Loaded “{slot}”.",
        Key::Deleted => "Deleted “{slot}”.",
        Key::SaveFailed => "Could not save “{slot}”: {why}",
        Key::LoadFailed => "Could not load “{slot}”: {why}",
        Key::DeleteFailed => "Could not delete “{slot}”: {why}",

        Key::SaveErrMissing => "there is no such save",
        Key::SaveErrUnreadable => "the file cannot be read: {message}",
        Key::SaveErrWriteFailed => "the file cannot be written: {message}",
        Key::SaveErrEmpty => "the file is empty",
        Key::SaveErrNotText => {
            "the file is not text (invalid byte at offset {offset}): it is damaged"
        }
        Key::SaveErrTruncated => {
            "the file ends too early (line {line}, column {column}): it is truncated"
        }
        Key::SaveErrSyntax => "line {line}, column {column}: {message}",
        Key::SaveErrVersion => {
            "the save is in format {found}; this version of Boardcraft reads format {supported}"
        }
        Key::SaveErrUnknownVariant => {
            "the save is a game of “{name}”, a variant this game does not know"
        }
        Key::SaveErrVariantUnavailable => "the variant “{name}” cannot be played right now: {why}",
        Key::SaveErrBadStart => "the start position of the save cannot be read: {why}",
        Key::SaveErrWrongVariant => "the save is a game of “{saved}”, not of “{given}”",
        Key::SaveErrIllegalMove => "move {number} ({notation}) cannot be played: {reason}",
        Key::SaveErrVariantChanged => "the variant file changed since this game was saved",
        Key::SaveErrInvalidName => "“{name}” cannot name a save: {problem}",
        Key::SaveErrNoGame => "there is no game to save",
        Key::SlotNameEmpty => "the name is empty",
        Key::SlotNameTooLong => "the name is too long (the limit is {max})",
        Key::SlotNameBadCharacter => {
            "use letters, digits, spaces, “-”, “_” and “.” only (found {found})"
        }
        Key::SlotNameBadEdge => "the name must not start or end with a space or a dot",
        Key::SlotNameReserved => "the name is reserved by the operating system",
        Key::NoticeRecovered => {
            "the file is damaged ({problem}); it was left as it is and the previous version was used"
        }
        Key::NoticeKeptDamaged => {
            "the damaged file that was replaced is kept beside it as .damaged"
        }
        Key::WarnVariantChanged => {
            "the variant file changed since this game was saved; every move still replays"
        }
        Key::WarnResultDiffers => {
            "the save says the result is “{saved}”, but the moves give “{replayed}”"
        }
        Key::GameNotOver => "game not over",
        Key::WarnResignationIgnored => {
            "the save says {Side} resigned, but the game had already ended by its rules; the resignation is ignored"
        }
        Key::WarnDecisionIgnored => {
            "the save says the game ended on time, by abandonment or by an agreed draw, but it had already ended otherwise; that end is ignored"
        }
        Key::SlotNotice => "“{slot}”: {notice}.",
        Key::SettingsNotice => "Settings: {notice}.",
        Key::SettingsLoadFailed => {
            "The stored settings cannot be used ({why}); the defaults are used and the file is left as it is."
        }
        Key::SettingsSaveFailed => "The settings could not be stored: {why}",
        Key::StorageLocation => "Stored in: {location}",
        Key::NoticesTitle => "Please note",

        Key::CoachTitle => "Coach",
        Key::CoachThinking => "Looking at your move…",
        Key::CoachPlayedBest => "{move} ({score}): the computer's choice too.",
        Key::CoachVerdict => "Your move {move}: {score}. Best was {best} ({best_score}).",
        Key::CoachLine => "Expected line: {line}",
        Key::CoachScoreNote => "Scores are for the side that moved: +1.00 is about one move ahead.",
        Key::GradeBest => "Best move",
        Key::GradeGood => "Good move",
        Key::GradeInaccuracy => "Inaccuracy",
        Key::GradeMistake => "Mistake",
        Key::GradeBlunder => "Blunder",
        Key::ScoreWinIn => "wins in {moves}",
        Key::ScoreLossIn => "loses in {moves}",
        Key::ScoreWon => "wins at once",
        Key::ScoreLost => "loses at once",
        Key::DeadlineWarning => {
            "{n}-move rule: {turns} left to clear your home camp. Still at home: {squares}."
        }

        Key::ChooseMoveTitle => "Choose your move",
        Key::ChooseMoveHint => "These moves start the same way; they differ in what is removed:",
    }
}

/// Singular and plural (the third form is unused in English).
pub fn noun(noun: Noun) -> [&'static str; 3] {
    match noun {
        Noun::Move => ["move", "moves", "moves"],
        Noun::Ply => ["half-move", "half-moves", "half-moves"],
        Noun::Piece => ["piece", "pieces", "pieces"],
        Noun::Time => ["time", "times", "times"],
    }
}
