//! The two draw guards every family's variant file spells the same way:
//! `repetition_draw: Some(n) | None` and `ply_cap: Some(n) | None`.
//!
//! They are engine guards against endless games, not rules of the games themselves (rules.md
//! A-U5, A-H3, A-H4, A-F5, A-G10), so their checks and messages live here once.
//! The file values are read as signed numbers so that a negative one gets a message in a
//! modder's words instead of a parse error.
use crate::FieldError;

/// The highest occurrence count `repetition_draw` accepts.
pub const MAX_REPETITION_DRAW: u16 = 1000;
/// The highest `ply_cap` accepted.
pub const MAX_PLY_CAP: u32 = 1_000_000;

/// Checks `repetition_draw` (2 to [`MAX_REPETITION_DRAW`], or `None`); returns the validated
/// count, `None` also after recording a problem.
pub(crate) fn repetition_draw(value: Option<i64>, errors: &mut Vec<FieldError>) -> Option<u16> {
    let n = value?;
    if (2..=i64::from(MAX_REPETITION_DRAW)).contains(&n) {
        Some(n as u16)
    } else {
        errors.push(FieldError::new(
            "repetition_draw",
            format!(
                "repetition_draw is {n}; use a number of occurrences from 2 to {MAX_REPETITION_DRAW} (3 = threefold repetition), or None"
            ),
        ));
        None
    }
}

/// Checks `ply_cap` (1 to [`MAX_PLY_CAP`], or `None`); returns the validated cap, `None` also
/// after recording a problem.
pub(crate) fn ply_cap(value: Option<i64>, errors: &mut Vec<FieldError>) -> Option<u32> {
    let n = value?;
    if (1..=i64::from(MAX_PLY_CAP)).contains(&n) {
        Some(n as u32)
    } else {
        errors.push(FieldError::new(
            "ply_cap",
            format!(
                "ply_cap is {n}; use a number of plies from 1 to {MAX_PLY_CAP} (the game is drawn once that many have been played), or None"
            ),
        ));
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_inclusive_and_none_is_no_rule() {
        let mut errors = Vec::new();
        assert_eq!(repetition_draw(None, &mut errors), None);
        assert_eq!(repetition_draw(Some(2), &mut errors), Some(2));
        assert_eq!(repetition_draw(Some(1000), &mut errors), Some(1000));
        assert_eq!(ply_cap(None, &mut errors), None);
        assert_eq!(ply_cap(Some(1), &mut errors), Some(1));
        assert_eq!(ply_cap(Some(1_000_000), &mut errors), Some(1_000_000));
        assert!(errors.is_empty(), "{errors:?}");
        for bad in [1, 0, -3, 1001, i64::MAX] {
            assert_eq!(repetition_draw(Some(bad), &mut errors), None);
        }
        for bad in [0, -1, 1_000_001, i64::from(u32::MAX) + 1] {
            assert_eq!(ply_cap(Some(bad), &mut errors), None);
        }
        assert_eq!(errors.len(), 9);
        assert_eq!(
            errors[2].message,
            "repetition_draw is -3; use a number of occurrences from 2 to 1000 (3 = threefold repetition), or None"
        );
        assert_eq!(errors[5].field, "ply_cap");
        assert!(
            errors[5]
                .message
                .starts_with("ply_cap is 0; use a number of plies from 1 to 1000000")
        );
    }
}
