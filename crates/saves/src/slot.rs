//! Save slots: the names players give their saves, and where a slot is stored.
//!
//! A slot name becomes a file name (natively) or a storage key (on the web), so it is checked
//! rather than escaped: the file keeps the name the player chose, readable in a file manager.
//! Letters of any script are allowed (`Партия 1`), so are digits, spaces, `-`, `_` and `.`;
//! not path separators, not names Windows reserves (`con`, `lpt1` …), not a leading or trailing
//! space or dot.
use crate::{SaveError, SlotNameProblem};

/// The folder (key prefix) that holds the saves.
pub const SAVES_DIR: &str = "saves";
/// The extension of a save.
pub const SAVE_EXTENSION: &str = ".ron";
/// Longest slot name, in characters.
pub const MAX_SLOT_CHARS: usize = 64;

/// Checks a slot name.
pub fn check_slot_name(name: &str) -> Result<(), SaveError> {
    let bad = |problem| {
        Err(SaveError::InvalidSlotName {
            name: name.to_owned(),
            problem,
        })
    };
    if name.is_empty() {
        return bad(SlotNameProblem::Empty);
    }
    if name.chars().count() > MAX_SLOT_CHARS {
        return bad(SlotNameProblem::TooLong);
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.')))
    {
        return bad(SlotNameProblem::BadCharacter(c));
    }
    let edge = |c: char| c == ' ' || c == '.';
    if name.starts_with(edge) || name.ends_with(edge) {
        return bad(SlotNameProblem::BadEdge);
    }
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    let reserved = matches!(stem.as_str(), "con" | "prn" | "aux" | "nul")
        || ((stem.starts_with("com") || stem.starts_with("lpt"))
            && stem.len() == 4
            && stem.as_bytes()[3].is_ascii_digit());
    if reserved {
        return bad(SlotNameProblem::Reserved);
    }
    Ok(())
}

/// The storage key of a slot (`saves/<name>.ron`), after checking the name.
pub fn slot_key(name: &str) -> Result<String, SaveError> {
    check_slot_name(name)?;
    Ok(format!("{SAVES_DIR}/{name}{SAVE_EXTENSION}"))
}

/// The slot a file in the saves folder holds, if it is a save (backups, damaged copies and
/// temporary files are not).
pub fn slot_of_file(file_name: &str) -> Option<&str> {
    let name = file_name.strip_suffix(SAVE_EXTENSION)?;
    check_slot_name(name).ok().map(|()| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_names() {
        for name in [
            "game",
            "My game 2",
            "Партия 1",
            "a.b",
            "x_y-z",
            "com",
            "com10",
        ] {
            assert_eq!(check_slot_name(name), Ok(()), "{name}");
            assert_eq!(slot_of_file(&format!("{name}.ron")), Some(name));
        }
    }

    #[test]
    fn bad_names() {
        let cases = [
            ("", SlotNameProblem::Empty),
            ("a/b", SlotNameProblem::BadCharacter('/')),
            ("a\\b", SlotNameProblem::BadCharacter('\\')),
            ("..", SlotNameProblem::BadEdge),
            (".hidden", SlotNameProblem::BadEdge),
            ("trailing ", SlotNameProblem::BadEdge),
            ("a:b", SlotNameProblem::BadCharacter(':')),
            ("CON", SlotNameProblem::Reserved),
            ("lpt1.x", SlotNameProblem::Reserved),
            ("new\nline", SlotNameProblem::BadCharacter('\n')),
        ];
        for (name, problem) in cases {
            assert_eq!(
                check_slot_name(name),
                Err(SaveError::InvalidSlotName {
                    name: name.to_owned(),
                    problem
                }),
                "{name:?}"
            );
        }
        let long = "x".repeat(MAX_SLOT_CHARS + 1);
        assert!(check_slot_name(&long).is_err());
        assert!(check_slot_name(&"я".repeat(MAX_SLOT_CHARS)).is_ok());
    }

    #[test]
    fn only_saves_are_slots() {
        assert_eq!(slot_of_file("game.ron.bak"), None);
        assert_eq!(slot_of_file("game.ron.damaged"), None);
        assert_eq!(slot_of_file(".game.ron.123-0.tmp"), None);
        assert_eq!(slot_of_file("notes.txt"), None);
    }
}
