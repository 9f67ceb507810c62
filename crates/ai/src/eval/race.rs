//! Evaluation of the race family. PLACEHOLDER until the family lands on main.
use boardcraft_rules::race::RacePosition;

use super::Evaluate;

impl Evaluate for RacePosition {
    fn evaluate(&self) -> i32 {
        0
    }
}
