//! What a lesson step draws on the board: marked squares (the squares a rule is about, a
//! target, a home) and arrows (a move or a chain, drawn hop by hop). Written in a step as
//! ```ron
//! marks: ["h8", "g8", "h7"],
//! arrows: ["e4:c4:a4:a2", "a3-a4"],
//! ```
//! in the variant's square names (race and Focus `a1`…; GIPF's spots and dots `a1`…`i5`). An
//! arrow is two or more squares joined by `:` or `-`, each hop drawn from one square to the
//! next. [`crate::load`] checks every square against the step's board, so the game only ever
//! gets squares it can draw.
use std::fmt;

use boardcraft_rules::{AnyPosition, focus, gipf, race};

/// A square of a step's board, checked to be on it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoardSquare {
    Race(race::Square),
    Focus(focus::Square),
    /// A GIPF spot or a rim dot.
    Gipf(gipf::Point),
}

impl fmt::Display for BoardSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardSquare::Race(s) => write!(f, "{s}"),
            BoardSquare::Focus(s) => write!(f, "{s}"),
            BoardSquare::Gipf(p) => write!(f, "{p}"),
        }
    }
}

/// An arrow: the squares of a move or chain in order, two or more, no square twice in a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    squares: Vec<BoardSquare>,
}

impl Arrow {
    /// The squares from the start to the end.
    pub fn squares(&self) -> &[BoardSquare] {
        &self.squares
    }

    /// The hops, each `(from, to)`, in order.
    pub fn hops(&self) -> impl Iterator<Item = (BoardSquare, BoardSquare)> + '_ {
        self.squares.windows(2).map(|w| (w[0], w[1]))
    }
}

/// Reads a square name on the board of `pos`; the error says why it is not one.
pub fn square(pos: &AnyPosition, name: &str) -> Result<BoardSquare, String> {
    let off = || format!("`{name}` is not a square of this board");
    match pos {
        AnyPosition::Race(p) => {
            let s = race::Square::parse(name).ok_or_else(off)?;
            if p.rules().on_board(s) {
                Ok(BoardSquare::Race(s))
            } else {
                Err(off())
            }
        }
        AnyPosition::Focus(p) => {
            let s: focus::Square = name.parse().map_err(|_| off())?;
            if p.rules().board().contains(s) {
                Ok(BoardSquare::Focus(s))
            } else {
                Err(off())
            }
        }
        AnyPosition::Gipf(_) => gipf::Point::from_name(name)
            .map(BoardSquare::Gipf)
            .ok_or_else(off),
    }
}

/// Reads an arrow (`e4:c4:a4:a2`, `a3-a4`) on the board of `pos`.
pub fn arrow(pos: &AnyPosition, text: &str) -> Result<Arrow, String> {
    let names: Vec<&str> = text.split([':', '-']).map(str::trim).collect();
    if names.len() < 2 || names.iter().any(|n| n.is_empty()) {
        return Err(format!(
            "`{text}` is not an arrow: write two or more squares joined by ':' or '-', e.g. \"e4:c4:a4\""
        ));
    }
    let squares = names
        .iter()
        .map(|n| square(pos, n))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(w) = squares.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!(
            "`{text}` goes from {} to itself: each hop needs two different squares",
            w[0]
        ));
    }
    Ok(Arrow { squares })
}

#[cfg(test)]
mod tests {
    use boardcraft_rules::Variant;

    use super::*;

    fn start(name: &str) -> AnyPosition {
        Variant::resolve(name).unwrap().new_game()
    }

    #[test]
    fn squares_must_be_on_the_board() {
        let ugolki = start("ugolki-9qum");
        assert_eq!(square(&ugolki, "h8").unwrap().to_string(), "h8");
        assert!(square(&ugolki, "i1").is_err());
        assert!(square(&ugolki, "a9").is_err());
        let halma = start("halma-16");
        assert!(square(&halma, "p16").is_ok());
        let focus = start("focus");
        assert!(square(&focus, "a1").is_err(), "Focus has no corner squares");
        assert!(square(&focus, "c3").is_ok());
        let gipf = start("gipf-standard");
        assert!(square(&gipf, "e5").is_ok());
        assert!(square(&gipf, "a1").is_ok(), "a dot");
        assert!(square(&gipf, "a6").is_err());
    }

    #[test]
    fn an_arrow_is_a_chain_of_two_or_more_squares() {
        let ugolki = start("ugolki-9qum");
        let a = arrow(&ugolki, "e4:c4:a4:a2").unwrap();
        assert_eq!(a.squares().len(), 4);
        let hops: Vec<String> = a.hops().map(|(x, y)| format!("{x}{y}")).collect();
        assert_eq!(hops, ["e4c4", "c4a4", "a4a2"]);
        assert_eq!(arrow(&ugolki, "a3-a4").unwrap().squares().len(), 2);
        assert!(arrow(&ugolki, "a3").unwrap_err().contains("not an arrow"));
        assert!(
            arrow(&ugolki, "a3::a4")
                .unwrap_err()
                .contains("not an arrow")
        );
        assert!(arrow(&ugolki, "a3:a3").unwrap_err().contains("to itself"));
        assert!(
            arrow(&ugolki, "a3:z9")
                .unwrap_err()
                .contains("`z9` is not a square")
        );
    }
}
