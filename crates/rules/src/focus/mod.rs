//! PLACEHOLDER — the Focus family is being written in its own branch (issue 3).
//! Only the names the rest of the crate refers to exist here.
use std::{fmt, sync::Arc};

use serde::Deserialize;

use crate::{Color, FieldError, IllegalMove, NotationError, Outcome, Position};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FocusSpec {}

impl FocusSpec {
    pub fn validate(self) -> Result<FocusRules, Vec<FieldError>> {
        Err(vec![FieldError::new(
            "rules",
            "this family is not implemented yet",
        )])
    }
}

#[derive(Debug)]
pub struct FocusRules;

#[derive(Clone, Debug)]
pub struct FocusPosition {
    rules: Arc<FocusRules>,
}

impl FocusPosition {
    pub fn new(rules: Arc<FocusRules>) -> Self {
        FocusPosition { rules }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FocusMove;

impl Position for FocusPosition {
    type Move = FocusMove;
    type Undo = ();
    type Effect = ();

    fn side_to_move(&self) -> Color {
        Color::White
    }
    fn ply(&self) -> u32 {
        0
    }
    fn legal_moves(&self, moves: &mut Vec<FocusMove>) {
        let _ = &self.rules;
        moves.clear();
    }
    fn play(&mut self, _mv: &FocusMove) -> Result<(), IllegalMove> {
        Err(IllegalMove {
            notation: String::new(),
            why: "not implemented".into(),
        })
    }
    fn play_unchecked(&mut self, _mv: &FocusMove) {}
    fn undo(&mut self, _mv: &FocusMove, _undo: ()) {}
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn hash(&self) -> u64 {
        0
    }
    fn format_move(&self, _mv: &FocusMove) -> String {
        String::new()
    }
    fn parse_move(&self, text: &str) -> Result<FocusMove, NotationError> {
        Err(NotationError::syntax(text, "not implemented"))
    }
}

impl fmt::Display for FocusPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(placeholder)")
    }
}
