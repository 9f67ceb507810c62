//! The ASCII printout of a position (what the CLI shows).
use std::fmt;

use super::position::RacePosition;
use super::square::Square;
use crate::{Color, Position};

/// ```text
///      a b c d e f g h
///   8  B B B . . . . .  8
///   …
///   1  . . . . . W W W  1
///      a b c d e f g h
/// ```
/// `W`/`B` are pieces; an empty camp square shows its owner in lower case (`w`/`b`).
impl fmt::Display for RacePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.rules();
        let (w, h) = (rules.width(), rules.height());
        let files: String = (0..w).map(|x| format!(" {}", (b'a' + x) as char)).collect();
        writeln!(f, "    {files}")?;
        for r in (0..h).rev() {
            write!(f, "{:>3} ", r + 1)?;
            for x in 0..w {
                let s = Square::new(x, r).expect("board up to 16×16");
                let c = match self.piece_at(s) {
                    Some(Color::White) => 'W',
                    Some(Color::Black) => 'B',
                    None if rules.in_camp(Color::White, s) => 'w',
                    None if rules.in_camp(Color::Black, s) => 'b',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f, "  {}", r + 1)?;
        }
        writeln!(f, "    {files}")?;
        writeln!(
            f,
            "W/B: White/Black pieces; w/b: empty squares of White's/Black's camp"
        )?;
        match self.outcome() {
            Some(o) => write!(f, "Game over after ply {}: {o}", self.ply()),
            None => write!(f, "{} to move, ply {}", self.side_to_move(), self.ply()),
        }
    }
}
