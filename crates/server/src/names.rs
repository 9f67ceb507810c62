//! The names players choose: what a name may be made of, and when two names look alike.
//!
//! A name is what other players read in the lobby, on a profile and beside a board, so it must
//! be visible and must not pass for someone else:
//! - it is kept in NFKC (fullwidth `Ａｎｎａ` and mathematical `𝐀𝐧𝐧𝐚` become `Anna`);
//! - every character is a letter or digit that Unicode's identifier rules allow (UAX #31 with
//!   the general security profile of UTS #39: no default-ignorable characters, no Hangul
//!   fillers, no invisible or obsolete letters), or `-`/`_`;
//! - its letters are of one script, or of a combination UTS #39 calls highly restrictive
//!   (Latin with Han and Japanese kana, or with Han and Hangul): `Вoard` (a Cyrillic В
//!   among Latin letters) is refused;
//! - its confusable skeleton ([`skeleton_key`]: UTS #39's skeleton, case folded) is unique
//!   among accounts (the storage keeps it in a unique column) and is not the server's
//!   ("Boardcraft"), a guest's ("Guest…") or — unless the account is a bot — a bot's ("…bot").
//!
//! The tables come from the unicode-rs crates (`unicode-security`, `unicode-normalization`).
use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

/// Characters in a name, counted after NFKC.
pub const MIN_CHARS: usize = 3;
pub const MAX_CHARS: usize = 20;

/// Why a name is refused (the words a player reads).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("a name has {MIN_CHARS} to {MAX_CHARS} characters, not {0}")]
    Length(usize),
    #[error("a name has letters, digits, `-` and `_` only, not `{0}`")]
    Character(String),
    #[error("a name's letters are of one script (not Latin and Cyrillic mixed, for example)")]
    MixedScripts,
    #[error("a name may not pass for the server (\"Boardcraft\")")]
    Server,
    #[error("names starting with \"Guest\" are the guests'")]
    Guest,
    #[error("names ending in \"bot\" are for bot accounts")]
    Bot,
}

/// The name as it is kept: NFKC.
pub fn normalized(name: &str) -> String {
    name.nfkc().collect()
}

/// What two names that look alike share: UTS #39's skeleton of the NFKC name, lower-cased,
/// and skeletonised again (so that `I`, `l` and `1`, or `O` and `0`, meet whatever their
/// case), without `-` and `_`.
pub fn skeleton_key(name: &str) -> String {
    let once: String = unicode_security::skeleton(&normalized(name)).collect();
    let lower = once.to_lowercase();
    unicode_security::skeleton(&lower)
        .flat_map(char::to_lowercase)
        .filter(|c| *c != '-' && *c != '_')
        .collect()
}

/// Checks a chosen name (already [`normalized`]).
pub fn check(name: &str, is_bot: bool) -> Result<(), NameError> {
    let chars = name.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&chars) {
        return Err(NameError::Length(chars));
    }
    let allowed = |c: char| c == '-' || c == '_' || (c.is_alphanumeric() && c.identifier_allowed());
    if let Some(c) = name.chars().find(|c| !allowed(*c)) {
        return Err(NameError::Character(format!("{}", c.escape_unicode())));
    }
    if name.detect_restriction_level() > RestrictionLevel::HighlyRestrictive {
        return Err(NameError::MixedScripts);
    }
    let key = skeleton_key(name);
    if key.contains(&skeleton_key("boardcraft")) {
        return Err(NameError::Server);
    }
    if key.starts_with(&skeleton_key("guest")) {
        return Err(NameError::Guest);
    }
    if !is_bot && key.ends_with(&skeleton_key("bot")) {
        return Err(NameError::Bot);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(name: &str) -> Result<(), NameError> {
        check(&normalized(name), false)
    }

    #[test]
    fn ordinary_names_in_any_script() {
        for name in [
            "Anna",
            "Анна_2",
            "Ёжик",
            "Αλέξανδρος",
            "山田太郎",
            "たろう",
            "김민준",
            "Ana-Lí",
            "x_y_z",
        ] {
            assert_eq!(checked(name), Ok(()), "{name}");
        }
        assert!(check("MasterBot", true).is_ok());
    }

    #[test]
    fn invisible_and_filler_characters_are_refused() {
        for name in [
            "An\u{3164}na",
            "\u{3164}\u{3164}\u{3164}",
            "An\u{FFA0}na",
            "An\u{200B}na",
            "An\u{00AD}na",
            "Ann\u{2060}a",
            "a b c",
        ] {
            assert!(
                matches!(checked(name), Err(NameError::Character(_))),
                "{name:?}: {:?}",
                checked(name)
            );
        }
        assert_eq!(checked("ab"), Err(NameError::Length(2)));
    }

    #[test]
    fn look_alikes_of_the_server_guests_and_bots() {
        for name in [
            "Boardcraft",
            "Board-Craft",
            "BOARDCRAFT",
            "B0ardcraft",
            "Ｂｏａｒｄｃｒａｆｔ",
            "𝐁𝐨𝐚𝐫𝐝𝐜𝐫𝐚𝐟𝐭",
            "The_Boardcraft",
        ] {
            assert!(checked(name).is_err(), "{name}");
        }
        // Cyrillic and Greek letters among Latin ones: mixed scripts.
        for name in ["Вoardcraft", "Bοardcraft", "Аnna"] {
            assert_eq!(checked(name), Err(NameError::MixedScripts), "{name}");
        }
        // Small capitals are not identifier letters.
        assert!(checked("ʙᴏᴀʀᴅᴄʀᴀꜰᴛ").is_err());
        assert_eq!(checked("guest-me"), Err(NameError::Guest));
        assert_eq!(checked("Gue5t_me"), Ok(()));
        assert_eq!(checked("MasterBot"), Err(NameError::Bot));
        assert_eq!(checked("Masterb0t"), Err(NameError::Bot));
    }

    #[test]
    fn skeletons_meet_across_case_scripts_and_digits() {
        let anna = skeleton_key("Anna");
        for alike in ["anna", "ANNA", "Аnnа", "Ａｎｎａ", "𝐀𝐧𝐧𝐚", "An_na"] {
            assert_eq!(skeleton_key(alike), anna, "{alike}");
        }
        assert_eq!(skeleton_key("Pau1"), skeleton_key("Paul"));
        assert_eq!(skeleton_key("PauI"), skeleton_key("Paul"));
        assert_eq!(skeleton_key("B0B"), skeleton_key("bob"));
        assert_ne!(skeleton_key("Anna"), skeleton_key("Anne"));
        // A whole name in another script that reads the same: one script each, so both are
        // valid names, but they share a skeleton (the second is refused as taken).
        assert_eq!(checked("Рара"), Ok(()));
        assert_eq!(skeleton_key("Рара"), skeleton_key("Papa"));
        assert_eq!(normalized("Ｂｏｂ"), "Bob");
    }
}
