//! PLACEHOLDER — the race family (Ugolki, Halma) is being written in its own branch (issue 2).
//! Only the names the rest of the crate refers to exist here.
use std::{fmt, sync::Arc};

use serde::Deserialize;

use crate::{Color, FieldError, IllegalMove, NotationError, Outcome, Position};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceSpec {}

impl RaceSpec {
    pub fn validate(self) -> Result<RaceRules, Vec<FieldError>> {
        Err(vec![FieldError::new(
            "rules",
            "this family is not implemented yet",
        )])
    }
}

#[derive(Debug)]
pub struct RaceRules;

#[derive(Clone, Debug)]
pub struct RacePosition {
    rules: Arc<RaceRules>,
}

impl RacePosition {
    pub fn new(rules: Arc<RaceRules>) -> Self {
        RacePosition { rules }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RaceMove;

impl Position for RacePosition {
    type Move = RaceMove;
    type Undo = ();
    type Effect = ();

    fn side_to_move(&self) -> Color {
        Color::White
    }
    fn ply(&self) -> u32 {
        0
    }
    fn legal_moves(&self, moves: &mut Vec<RaceMove>) {
        let _ = &self.rules;
        moves.clear();
    }
    fn play(&mut self, _mv: &RaceMove) -> Result<(), IllegalMove> {
        Err(IllegalMove {
            notation: String::new(),
            why: "not implemented".into(),
        })
    }
    fn play_unchecked(&mut self, _mv: &RaceMove) {}
    fn undo(&mut self, _mv: &RaceMove, _undo: ()) {}
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn hash(&self) -> u64 {
        0
    }
    fn format_move(&self, _mv: &RaceMove) -> String {
        String::new()
    }
    fn parse_move(&self, text: &str) -> Result<RaceMove, NotationError> {
        Err(NotationError::syntax(text, "not implemented"))
    }
}

impl fmt::Display for RacePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(placeholder)")
    }
}
