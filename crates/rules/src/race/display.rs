//! The ASCII printout of a position (what the CLI shows).
use std::fmt;

use super::position::RacePosition;
use super::square::{Directions, Square};
use crate::Position;

/// A square grid:
/// ```text
///      a b c d e f g h
///   8  B B B . . . . .  8
///   …
///   1  . . . . . W W W  1
///      a b c d e f g h
/// ```
/// Seats' letters are their pieces (`W`/`B` in the two-seat games); an empty home cell shows its
/// owner's letter in lower case. A hex grid is drawn with each rank half a cell to the right of
/// the one below (so the six neighbours of a cell touch it), cells off the board left blank.
impl fmt::Display for RacePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.rules();
        let (w, h) = (rules.width(), rules.height());
        let hex = rules.directions() == Directions::Hex;
        let files: String = (0..w).map(|x| format!(" {}", (b'a' + x) as char)).collect();
        if !hex {
            writeln!(f, "    {files}")?;
        }
        for r in (0..h).rev() {
            write!(f, "{:>3} ", r + 1)?;
            if hex {
                write!(f, "{}", " ".repeat(usize::from(r)))?;
            }
            for x in 0..w {
                let s = Square::new(x, r).expect("on the grid");
                if !rules.on_board(s) {
                    write!(f, "  ")?;
                    continue;
                }
                let home = rules.seats().find(|&c| rules.in_camp(c, s));
                let c = match (self.piece_at(s), home) {
                    (Some(c), _) => rules.seat(c).letter,
                    (None, Some(c)) => rules.seat(c).letter.to_ascii_lowercase(),
                    (None, None) => '.',
                };
                write!(f, " {c}")?;
            }
            if hex {
                writeln!(f)?;
            } else {
                writeln!(f, "  {}", r + 1)?;
            }
        }
        if hex {
            writeln!(
                f,
                "    (hex grid: a cell's file a–{} runs along its rank, which is drawn half a cell right of the one below)",
                (b'a' + w - 1) as char
            )?;
        } else {
            writeln!(f, "    {files}")?;
        }
        let seats: Vec<String> = rules
            .seats()
            .map(|c| {
                let l = rules.seat(c).letter;
                format!("{l}/{}: {}", l.to_ascii_lowercase(), rules.seat_name(c))
            })
            .collect();
        writeln!(f, "{} (pieces / empty home cells)", seats.join(", "))?;
        match self.outcome() {
            Some(o) => write!(
                f,
                "Game over after ply {}: {}",
                self.ply(),
                o.describe(|s| rules.seat_name(s).to_owned())
            ),
            None => write!(
                f,
                "{} to move, ply {}",
                rules.seat_name(self.side_to_move()),
                self.ply()
            ),
        }
    }
}
