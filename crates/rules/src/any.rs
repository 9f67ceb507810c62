//! One position type for every family, for callers that choose the game at run time.
use std::fmt;

use crate::{
    FamilyRules, IllegalMove, IllegalReason, NotationError, Outcome, Places, Position, Seat,
    Variant, focus::FocusPosition, gipf::GipfPosition, race::RacePosition, text::PositionTextError,
};

// A race position holds a bit set per seat (six of them): the largest variant by far, kept
// inline because the search plays and undoes moves on it millions of times a second and a box
// would add an indirection to each.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum AnyPosition {
    Race(RacePosition),
    Focus(FocusPosition),
    Gipf(GipfPosition),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    Race(<RacePosition as Position>::Move),
    Focus(<FocusPosition as Position>::Move),
    Gipf(<GipfPosition as Position>::Move),
}

#[derive(Clone, Debug)]
pub enum AnyEffect {
    Race(<RacePosition as Position>::Effect),
    Focus(<FocusPosition as Position>::Effect),
    Gipf(<GipfPosition as Position>::Effect),
}

pub enum AnyUndo {
    Race(<RacePosition as Position>::Undo),
    Focus(<FocusPosition as Position>::Undo),
    Gipf(<GipfPosition as Position>::Undo),
}

/// Runs `$body` with `$p` bound to the inner position, whatever the family.
macro_rules! each {
    ($self:expr, $p:ident => $body:expr) => {
        match $self {
            AnyPosition::Race($p) => $body,
            AnyPosition::Focus($p) => $body,
            AnyPosition::Gipf($p) => $body,
        }
    };
}

/// Runs `$body` with the inner position and move of the same family; a move of another family
/// goes to `$mismatch`.
macro_rules! pair {
    ($self:expr, $mv:expr, ($p:ident, $m:ident) => $body:expr, $mismatch:expr) => {
        match ($self, $mv) {
            (AnyPosition::Race($p), AnyMove::Race($m)) => $body,
            (AnyPosition::Focus($p), AnyMove::Focus($m)) => $body,
            (AnyPosition::Gipf($p), AnyMove::Gipf($m)) => $body,
            _ => $mismatch,
        }
    };
}

impl AnyPosition {
    /// The seats that have finished so far, in the order they finished (race games that play
    /// on for the places; empty in the other families, whose games end at the first finish).
    pub fn finish_order(&self) -> Vec<Seat> {
        match self {
            AnyPosition::Race(p) => p.finish_order(),
            AnyPosition::Focus(_) | AnyPosition::Gipf(_) => Vec::new(),
        }
    }

    /// The places when `seat` resigns here: the seats that finished keep their places, the
    /// resigning seat takes the last, and the seats still playing share the places between.
    /// With two seats: the other seat wins.
    pub fn places_after_resignation(&self, seat: Seat) -> Places {
        self.standings(std::slice::from_ref(&seat))
    }

    /// The places when the game stops here after the seats in `departed` left it (resigned,
    /// ran out of time or were gone), in the order they left: the seats that finished keep
    /// their places, the seats still playing share the next one, and the seats that left take
    /// the last places, the last to leave highest — each was placed last of those still
    /// playing when it left. A seat that finished after it left (played on by someone else)
    /// keeps its departure's place.
    pub fn standings(&self, departed: &[Seat]) -> Places {
        let n = self.seat_count();
        let mut finished = self.finish_order();
        finished.retain(|s| !departed.contains(s));
        let playing: Vec<Seat> = Seat::all(n)
            .filter(|s| !departed.contains(s) && !finished.contains(s))
            .collect();
        let mut groups: Vec<&[Seat]> = finished.chunks(1).collect();
        groups.push(&playing);
        groups.extend(departed.iter().rev().map(std::slice::from_ref));
        Places::from_groups(&groups, n)
    }
}

fn wrong_family(mv: &AnyMove) -> IllegalMove {
    IllegalMove {
        notation: format!("{mv:?}"),
        reason: IllegalReason::OtherGame,
    }
}

impl Position for AnyPosition {
    type Move = AnyMove;
    type Undo = AnyUndo;
    type Effect = AnyEffect;

    fn side_to_move(&self) -> Seat {
        each!(self, p => p.side_to_move())
    }

    fn seat_count(&self) -> usize {
        each!(self, p => p.seat_count())
    }

    fn seat_name(&self, seat: Seat) -> String {
        each!(self, p => p.seat_name(seat))
    }

    fn ply(&self) -> u32 {
        each!(self, p => p.ply())
    }

    fn legal_moves(&self, moves: &mut Vec<AnyMove>) {
        moves.clear();
        match self {
            AnyPosition::Race(p) => {
                let mut inner = Vec::new();
                p.legal_moves(&mut inner);
                moves.extend(inner.into_iter().map(AnyMove::Race));
            }
            AnyPosition::Focus(p) => {
                let mut inner = Vec::new();
                p.legal_moves(&mut inner);
                moves.extend(inner.into_iter().map(AnyMove::Focus));
            }
            AnyPosition::Gipf(p) => {
                let mut inner = Vec::new();
                p.legal_moves(&mut inner);
                moves.extend(inner.into_iter().map(AnyMove::Gipf));
            }
        }
    }

    fn count_legal_moves(&self) -> u64 {
        each!(self, p => p.count_legal_moves())
    }

    fn is_legal(&self, mv: &AnyMove) -> bool {
        pair!(self, mv, (p, m) => p.is_legal(m), false)
    }

    fn play(&mut self, mv: &AnyMove) -> Result<AnyEffect, IllegalMove> {
        match (self, mv) {
            (AnyPosition::Race(p), AnyMove::Race(m)) => p.play(m).map(AnyEffect::Race),
            (AnyPosition::Focus(p), AnyMove::Focus(m)) => p.play(m).map(AnyEffect::Focus),
            (AnyPosition::Gipf(p), AnyMove::Gipf(m)) => p.play(m).map(AnyEffect::Gipf),
            _ => Err(wrong_family(mv)),
        }
    }

    fn play_unchecked(&mut self, mv: &AnyMove) -> AnyUndo {
        match (self, mv) {
            (AnyPosition::Race(p), AnyMove::Race(m)) => AnyUndo::Race(p.play_unchecked(m)),
            (AnyPosition::Focus(p), AnyMove::Focus(m)) => AnyUndo::Focus(p.play_unchecked(m)),
            (AnyPosition::Gipf(p), AnyMove::Gipf(m)) => AnyUndo::Gipf(p.play_unchecked(m)),
            _ => panic!("play_unchecked: {}", wrong_family(mv)),
        }
    }

    fn undo(&mut self, mv: &AnyMove, undo: AnyUndo) {
        match (self, mv, undo) {
            (AnyPosition::Race(p), AnyMove::Race(m), AnyUndo::Race(u)) => p.undo(m, u),
            (AnyPosition::Focus(p), AnyMove::Focus(m), AnyUndo::Focus(u)) => p.undo(m, u),
            (AnyPosition::Gipf(p), AnyMove::Gipf(m), AnyUndo::Gipf(u)) => p.undo(m, u),
            _ => panic!("undo: {}", wrong_family(mv)),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        each!(self, p => p.outcome())
    }

    fn hash(&self) -> u64 {
        each!(self, p => p.hash())
    }

    fn format_move(&self, mv: &AnyMove) -> String {
        pair!(self, mv, (p, m) => p.format_move(m), format!("{mv:?}"))
    }

    fn parse_move(&self, text: &str) -> Result<AnyMove, NotationError> {
        match self {
            AnyPosition::Race(p) => p.parse_move(text).map(AnyMove::Race),
            AnyPosition::Focus(p) => p.parse_move(text).map(AnyMove::Focus),
            AnyPosition::Gipf(p) => p.parse_move(text).map(AnyMove::Gipf),
        }
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(self, p => fmt::Display::fmt(p, f))
    }
}

impl Variant {
    /// Reads a position of this variant from its text.
    pub fn position_from_text(&self, text: &str) -> Result<AnyPosition, PositionTextError> {
        position_from_text(&self.rules, text)
    }
}

/// Reads a position of a variant with these rules from its text.
fn position_from_text(rules: &FamilyRules, text: &str) -> Result<AnyPosition, PositionTextError> {
    Ok(match rules {
        FamilyRules::Race(r) => AnyPosition::Race(RacePosition::from_text(r.clone(), text)?),
        FamilyRules::Focus(r) => AnyPosition::Focus(FocusPosition::from_text(r.clone(), text)?),
        FamilyRules::Gipf(r) => AnyPosition::Gipf(GipfPosition::from_text(r.clone(), text)?),
    })
}

impl AnyPosition {
    /// Where `seat`'s pieces stand, by cell name: a race game's pieces, Focus's stacks the seat
    /// controls (its piece on top), GIPF's pieces (`o`/`O` … as the family prints them).
    pub fn pieces_text(&self, seat: Seat) -> Vec<String> {
        match self {
            AnyPosition::Race(p) => p.pieces(seat).iter().map(|s| s.to_string()).collect(),
            AnyPosition::Focus(p) => p
                .stacks()
                .filter(|(_, st)| st.top() == Some(seat))
                .map(|(sq, st)| format!("{sq}:{st}"))
                .collect(),
            AnyPosition::Gipf(p) => crate::gipf::Spot::all()
                .filter_map(|s| {
                    p.piece_at(s)
                        .filter(|pc| pc.color == seat)
                        .map(|pc| format!("{s}:{}", pc.symbol()))
                })
                .collect(),
        }
    }

    /// The position as one line of text (read back by [`Variant::position_from_text`]).
    pub fn to_text(&self) -> String {
        match self {
            AnyPosition::Race(p) => p.to_text(),
            AnyPosition::Focus(p) => p.to_text(),
            AnyPosition::Gipf(p) => p.to_text(),
        }
    }
}

#[cfg(test)]
mod resignation_tests {
    use crate::{Position, Seat, shipped_variant};

    #[test]
    fn two_seats_the_other_wins_more_seats_the_resigner_is_last() {
        let two = shipped_variant("chinese-checkers").unwrap().new_game();
        let places = two.places_after_resignation(Seat::WHITE);
        assert_eq!(places.winner(), Some(Seat::BLACK));
        let four = shipped_variant("chinese-checkers")
            .unwrap()
            .for_players(4)
            .unwrap()
            .new_game();
        assert_eq!(four.seat_count(), 4);
        let places = four.places_after_resignation(Seat::at(1));
        assert_eq!(places.as_slice(), &[1, 4, 1, 1]);
    }

    /// Seats that left are placed below those still playing, the last to leave highest; the
    /// rules' places with leavers moved below keep the order of those that stayed.
    #[test]
    fn seats_that_left_are_placed_last_the_last_to_leave_highest() {
        let four = shipped_variant("chinese-checkers")
            .unwrap()
            .for_players(4)
            .unwrap()
            .new_game();
        let s = Seat::at;
        for seat in 0..4 {
            assert_eq!(
                four.standings(&[s(seat)]),
                four.places_after_resignation(s(seat))
            );
        }
        assert_eq!(four.standings(&[s(1), s(3)]).as_slice(), [1, 4, 1, 3]);
        assert_eq!(four.standings(&[s(1), s(3), s(0)]).as_slice(), [2, 4, 1, 3]);
        let rules = crate::Places::new(&[2, 2, 1, 2]).unwrap();
        assert_eq!(rules.with_departed_last(&[s(3)]).as_slice(), [2, 2, 1, 4]);
        assert_eq!(
            rules.with_departed_last(&[s(0), s(3)]).as_slice(),
            [4, 2, 1, 3]
        );
        assert_eq!(rules.with_departed_last(&[]), rules);
    }

    /// A seat whose person left may finish later (someone else played it on): it keeps the
    /// place its departure gave it, and the seats that finished otherwise keep theirs.
    #[test]
    fn a_seat_that_finished_after_it_left_keeps_its_departures_place() {
        let variant = shipped_variant("chinese-checkers")
            .unwrap()
            .for_players(4)
            .unwrap();
        let start = variant.new_game().to_text();
        let letter = |seat: usize| {
            variant
                .new_game()
                .seat_name(Seat::at(seat))
                .chars()
                .next()
                .unwrap()
                .to_ascii_uppercase()
        };
        // Seats 2 and then 1 finished (the text's finish order).
        let text = format!("{start} {}{}", letter(2), letter(1));
        let position = variant.position_from_text(&text).unwrap();
        assert_eq!(position.finish_order(), [Seat::at(2), Seat::at(1)]);
        let s = Seat::at;
        assert_eq!(position.standings(&[]).as_slice(), [3, 2, 1, 3]);
        assert_eq!(
            position.standings(&[s(1)]).as_slice(),
            [2, 4, 1, 2],
            "seat 1 left, then finished: last, not second"
        );
    }
}
