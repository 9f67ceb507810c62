//! PLACEHOLDER — the GIPF family is being written in its own branch (issue 4).
//! Only the names the rest of the crate refers to exist here.
use std::{fmt, sync::Arc};

use serde::Deserialize;

use crate::{Color, FieldError, IllegalMove, NotationError, Outcome, Position};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GipfSpec {}

impl GipfSpec {
    pub fn validate(self) -> Result<GipfRules, Vec<FieldError>> {
        Err(vec![FieldError::new(
            "rules",
            "this family is not implemented yet",
        )])
    }
}

#[derive(Debug)]
pub struct GipfRules;

#[derive(Clone, Debug)]
pub struct GipfPosition {
    rules: Arc<GipfRules>,
}

impl GipfPosition {
    pub fn new(rules: Arc<GipfRules>) -> Self {
        GipfPosition { rules }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GipfMove;

impl Position for GipfPosition {
    type Move = GipfMove;
    type Undo = ();
    type Effect = ();

    fn side_to_move(&self) -> Color {
        Color::White
    }
    fn ply(&self) -> u32 {
        0
    }
    fn legal_moves(&self, moves: &mut Vec<GipfMove>) {
        let _ = &self.rules;
        moves.clear();
    }
    fn play(&mut self, _mv: &GipfMove) -> Result<(), IllegalMove> {
        Err(IllegalMove {
            notation: String::new(),
            why: "not implemented".into(),
        })
    }
    fn play_unchecked(&mut self, _mv: &GipfMove) {}
    fn undo(&mut self, _mv: &GipfMove, _undo: ()) {}
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn hash(&self) -> u64 {
        0
    }
    fn format_move(&self, _mv: &GipfMove) -> String {
        String::new()
    }
    fn parse_move(&self, text: &str) -> Result<GipfMove, NotationError> {
        Err(NotationError::syntax(text, "not implemented"))
    }
}

impl fmt::Display for GipfPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(placeholder)")
    }
}
