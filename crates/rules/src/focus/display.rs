//! The text printout of a position (the CLI shows it): the board with every stack written
//! bottom → top (`WBW`), then reserves, captures, side to move and ply.
use std::fmt;

use super::position::FocusPosition;
use crate::{Position, Seat};

impl fmt::Display for FocusPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.rules().board();
        let letters = self.rules().letters();
        let seats = || Seat::all(self.seat_count());
        // Room for the tallest stack and a space.
        let cell = usize::from(self.rules().height_limit()).max(1) + 1;
        let files = || {
            let mut line = String::from("    ");
            for file in 0..board.width() {
                line.push_str(&format!("{:<cell$}", char::from(b'a' + file)));
            }
            line.trim_end().to_owned()
        };
        writeln!(f, "{}", files())?;
        for (row, rank) in board.rows().zip((1..=board.height()).rev()) {
            let mut line = format!("{rank:>2}  ");
            for (sq, playable) in row {
                let text = if playable {
                    self.stack(sq).to_text_with(&letters)
                } else {
                    String::new()
                };
                line.push_str(&format!("{text:<cell$}"));
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        writeln!(f, "{}", files())?;
        let list = |what: &dyn Fn(Seat) -> String| seats().map(what).collect::<Vec<_>>().join(", ");
        let name = |c: Seat| self.seat_name(c);
        writeln!(
            f,
            "Reserve:  {}",
            list(&|c| format!("{} {}", name(c), self.reserve(c)))
        )?;
        writeln!(
            f,
            "Captured: {}",
            list(&|c| format!("by {} {}", name(c), self.captured_by(c)))
        )?;
        let out = self.out_order();
        if self.seat_count() > 2 && !out.is_empty() {
            let groups: Vec<String> = out
                .iter()
                .map(|g| g.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" and "))
                .collect();
            writeln!(f, "Out (first out first): {}", groups.join(", "))?;
        }
        match self.outcome() {
            Some(outcome) => write!(f, "Game over after ply {}: {outcome}", self.ply()),
            None => write!(
                f,
                "{} to move, ply {}",
                name(self.side_to_move()),
                self.ply()
            ),
        }
    }
}
