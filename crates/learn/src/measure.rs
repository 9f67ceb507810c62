//! How much ground a race move gains: the measure behind "the jump that gains the most ground"
//! puzzles, the audit and the why-text of a wrong try. Not a rule (the rules do not care which
//! way a piece goes): a teaching measure, so it lives here and not in `boardcraft_rules`.
//!
//! The ground a piece still has to cover is its distance to the **target corner** (the square
//! of the target camp farthest from the own camp: the one the 9qum advice fills first),
//! counted in diagonal rows: the lines of squares at the same file + rank distance from that
//! corner. A step towards the corner crosses one row (two on a diagonal), a jump two, and a
//! chain the rows between its first and last square, whatever path it takes. The gain of a
//! move is the mover's distance before minus after: positive towards the target, negative
//! back towards home.
use std::cmp::Ordering;

use boardcraft_rules::{
    AnyMove, AnyPosition, Seat,
    race::{RaceMove, RacePosition, RaceRules, Square},
};

/// The square of `side`'s target camp farthest from `side`'s own camp (ties: the first in the
/// camp's order), the corner a race is run to.
pub fn target_corner(rules: &RaceRules, side: Seat) -> Square {
    let camp = rules.camp(side);
    let far = |t: &Square| camp.iter().map(|c| rows_between(*c, *t)).sum::<u32>();
    let target = rules.target(side);
    let mut best = target[0];
    for t in target {
        if far(t) > far(&best) {
            best = *t;
        }
    }
    best
}

/// Diagonal rows between two squares (file distance + rank distance).
pub fn rows_between(a: Square, b: Square) -> u32 {
    u32::from(a.file().abs_diff(b.file())) + u32::from(a.rank().abs_diff(b.rank()))
}

/// The rows a piece of `side` on `square` still has to cover to the target corner.
pub fn distance_to_target(rules: &RaceRules, side: Seat, square: Square) -> u32 {
    rows_between(square, target_corner(rules, side))
}

/// The ground a race move of the side to move gains towards its target corner, in rows
/// (negative: it goes back).
pub fn race_gain(pos: &RacePosition, mv: &RaceMove) -> i32 {
    let rules = pos.rules();
    let side = boardcraft_rules::Position::side_to_move(pos);
    let corner = target_corner(rules, side);
    rows_between(mv.from(), corner) as i32 - rows_between(mv.to(), corner) as i32
}

/// [`race_gain`] for a move of any family; `None` outside the race family.
pub fn gain(pos: &AnyPosition, mv: &AnyMove) -> Option<i32> {
    match (pos, mv) {
        (AnyPosition::Race(p), AnyMove::Race(m)) => Some(race_gain(p, m)),
        _ => None,
    }
}

/// How a move scores for a one-move "best move" goal. The order is the goal's: a better score
/// is greater.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BestScore {
    /// The race goal `LongestJump`: the most ground gained towards the target, ties broken by
    /// the jumps of the longest path (a step has 0 jumps).
    Jump { gain: i32, jumps: u32 },
    /// Focus `CaptureMost`: the opponent pieces taken.
    Capture(u32),
}

impl BestScore {
    fn key(self) -> (i64, i64) {
        match self {
            BestScore::Jump { gain, jumps } => (i64::from(gain), i64::from(jumps)),
            BestScore::Capture(n) => (i64::from(n), 0),
        }
    }
}

impl Ord for BestScore {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for BestScore {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for BestScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BestScore::Jump { gain, jumps } => write!(f, "gain {gain:+} rows, {jumps} jump(s)"),
            BestScore::Capture(n) => write!(f, "captures {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use boardcraft_rules::{FamilyRules, Position, Variant};

    use super::*;

    fn race(name: &str, text: &str) -> RacePosition {
        match Variant::resolve(name)
            .unwrap()
            .position_from_text(text)
            .unwrap()
        {
            AnyPosition::Race(p) => p,
            _ => unreachable!(),
        }
    }

    #[test]
    fn the_corner_is_the_far_square_of_the_target() {
        for (name, white, black) in [
            ("ugolki-9qum", "h8", "a1"),
            ("ugolki-hg-3x3", "a8", "h1"),
            ("halma-16", "a16", "p1"),
        ] {
            let FamilyRules::Race(r) = Variant::resolve(name).unwrap().rules else {
                unreachable!()
            };
            assert_eq!(target_corner(&r, Seat::WHITE).to_string(), white, "{name}");
            assert_eq!(target_corner(&r, Seat::BLACK).to_string(), black, "{name}");
        }
    }

    #[test]
    fn a_jump_back_home_loses_ground() {
        // ugolki-9qum-2 of the old set: Black's chain with the most jumps, g4:g6:g8:e8, goes
        // back towards h8; h6:h4:f4 goes towards a1.
        let p = race(
            "ugolki-9qum",
            "5B1B/6BB/5B1B/6BB/1W4B1/W1WW4/W2WW3/W1W5 b 7",
        );
        let back = p.parse_move("g4:g6:g8:e8").unwrap();
        assert_eq!(race_gain(&p, &back), -2);
        let forward = p.parse_move("h6:h4:f4").unwrap();
        assert_eq!(race_gain(&p, &forward), 4);
        let step = p.parse_move("g4-g3").unwrap();
        assert_eq!(race_gain(&p, &step), 1);
    }
}
