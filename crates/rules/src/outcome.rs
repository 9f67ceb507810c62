use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Seat;

/// Where every seat finished: place 1 is first; seats that share a place share its number (a
/// draw of two is both in first place; a winner of six leaves five sharing second place when
/// the game stops at its first finisher).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Places {
    seats: u8,
    /// `place[seat]`, 1-based; only the first `seats` entries mean anything (the rest are 0).
    place: [u8; Seat::MAX],
}

impl Places {
    /// Places from each seat's place number (1-based), seat by seat. `None` unless there are 2
    /// to [`Seat::MAX`] seats, some seat is first and the numbers are ranks as standings give
    /// them (a place shared by k seats is followed by the place k further on).
    pub fn new(places: &[u8]) -> Option<Places> {
        let n = places.len();
        if !(2..=Seat::MAX).contains(&n) {
            return None;
        }
        let mut place = [0; Seat::MAX];
        place[..n].copy_from_slice(places);
        let p = Places {
            seats: n as u8,
            place,
        };
        // Standard competition ranking: a seat's place is one more than the seats before it.
        let ranked = places.iter().all(|&mine| {
            mine >= 1 && usize::from(mine) == 1 + places.iter().filter(|&&o| o < mine).count()
        });
        ranked.then_some(p)
    }

    /// `winner` first, every other seat of the `seats` sharing second place.
    pub fn win(winner: Seat, seats: usize) -> Places {
        let mut place = [0; Seat::MAX];
        for s in Seat::all(seats) {
            place[s.index()] = if s == winner { 1 } else { 2 };
        }
        Places {
            seats: seats as u8,
            place,
        }
    }

    /// Every seat sharing first place.
    pub fn shared(seats: usize) -> Places {
        let mut place = [0; Seat::MAX];
        place[..seats].fill(1);
        Places {
            seats: seats as u8,
            place,
        }
    }

    /// Places from finishing order: `finished` in the order the seats finished (each alone in
    /// its place), then every other seat sharing the next place.
    pub fn from_order(finished: &[Seat], seats: usize) -> Places {
        let mut place = [0; Seat::MAX];
        let rest = finished.len() as u8 + 1;
        place[..seats].fill(rest);
        for (i, s) in finished.iter().enumerate() {
            place[s.index()] = i as u8 + 1;
        }
        Places {
            seats: seats as u8,
            place,
        }
    }

    /// Places from groups in finishing order: each group's seats share one place, the next
    /// group's place counts the seats before it (standard competition ranking). Seats in no
    /// group share the place after the last group.
    pub fn from_groups(groups: &[&[Seat]], seats: usize) -> Places {
        let mut place = [0; Seat::MAX];
        let mut next = 1u8;
        for group in groups.iter().filter(|g| !g.is_empty()) {
            for s in group.iter() {
                place[s.index()] = next;
            }
            next += group.len() as u8;
        }
        for p in place[..seats].iter_mut().filter(|p| **p == 0) {
            *p = next;
        }
        Places {
            seats: seats as u8,
            place,
        }
    }

    pub const fn seats(&self) -> usize {
        self.seats as usize
    }

    /// These places with the seats in `departed` (in the order they left the game while the
    /// others played on) moved below the rest: the seats that stayed keep their order, and
    /// the last seat to leave is placed highest of those that left.
    pub fn with_departed_last(&self, departed: &[Seat]) -> Places {
        let n = self.seats();
        let mut stayed: Vec<Seat> = Seat::all(n).filter(|s| !departed.contains(s)).collect();
        stayed.sort_by_key(|&s| self.of(s));
        let mut groups: Vec<&[Seat]> = stayed.chunk_by(|&a, &b| self.of(a) == self.of(b)).collect();
        groups.extend(departed.iter().rev().map(std::slice::from_ref));
        Places::from_groups(&groups, n)
    }

    /// The seat's place, 1 for first.
    pub fn of(&self, seat: Seat) -> u8 {
        self.place[seat.index()]
    }

    /// The places seat by seat.
    pub fn as_slice(&self) -> &[u8] {
        &self.place[..self.seats()]
    }

    /// The seat alone in first place, if one is.
    pub fn winner(&self) -> Option<Seat> {
        let mut first = Seat::all(self.seats()).filter(|&s| self.of(s) == 1);
        match (first.next(), first.next()) {
            (Some(w), None) => Some(w),
            _ => None,
        }
    }

    /// Every seat shares first place.
    pub fn is_draw(&self) -> bool {
        self.as_slice().iter().all(|&p| p == 1)
    }

    /// The seat's result on a scale from 1 (alone in first place) to -1 (alone in last), 0 for
    /// a place in the middle of the table or a place shared by everyone: how searches score a
    /// finished game. Two seats: +1 win, -1 loss, 0 draw.
    pub fn score(&self, seat: Seat) -> f64 {
        let n = self.seats() as f64;
        let mine = f64::from(self.of(seat));
        // Mean rank of the seats sharing this place, 1 … n.
        let sharing = self
            .as_slice()
            .iter()
            .filter(|&&p| p == self.of(seat))
            .count() as f64;
        let rank = mine + (sharing - 1.0) / 2.0;
        1.0 - 2.0 * (rank - 1.0) / (n - 1.0)
    }
}

impl fmt::Debug for Places {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// How a finished game ended: every seat's place and the rule that decided it. Serialisable
/// so that a save can name its result in typed form (see `boardcraft-saves`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "OutcomeFields", into = "OutcomeFields")]
pub struct Outcome {
    pub places: Places,
    pub reason: EndReason,
}

impl Outcome {
    /// A two-seat game won by `winner`.
    pub fn win(winner: Seat, reason: EndReason) -> Outcome {
        Outcome::placed(Places::win(winner, 2), reason)
    }

    /// A drawn two-seat game.
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome::placed(Places::shared(2), reason)
    }

    pub const fn placed(places: Places, reason: EndReason) -> Outcome {
        Outcome { places, reason }
    }

    /// The seat alone in first place, if one is.
    pub fn winner(&self) -> Option<Seat> {
        self.places.winner()
    }

    /// Every seat shares first place.
    pub fn is_draw(&self) -> bool {
        self.places.is_draw()
    }

    /// +1 if `side` is alone in first place, 0 if every seat shares it, -1 otherwise.
    pub fn score_for(&self, side: Seat) -> i32 {
        match self.winner() {
            Some(w) if w == side => 1,
            _ if self.is_draw() => 0,
            _ => -1,
        }
    }
}

/// How an outcome is written: the places, and the winner beside them as saves written for two
/// seats only had it (and read without places: the two-seat game it describes).
#[derive(Serialize, Deserialize)]
struct OutcomeFields {
    winner: Option<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    places: Option<Vec<u8>>,
    reason: EndReason,
}

impl From<OutcomeFields> for Outcome {
    fn from(f: OutcomeFields) -> Outcome {
        let places = f
            .places
            .and_then(|p| Places::new(&p))
            .unwrap_or_else(|| match f.winner {
                Some(w) => Places::win(w, 2),
                None => Places::shared(2),
            });
        Outcome::placed(places, f.reason)
    }
}

impl From<Outcome> for OutcomeFields {
    fn from(o: Outcome) -> OutcomeFields {
        OutcomeFields {
            winner: o.winner(),
            // Two-seat outcomes are written as before: the winner says everything.
            places: (o.places.seats() > 2).then(|| o.places.as_slice().to_vec()),
            reason: o.reason,
        }
    }
}

/// The rule that ended a game, in the rules' own terms. One list for all families so that the
/// app can explain any ending; each family uses its own subset.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// Race games: the winner's pieces fill its target camp.
    TargetFilled,
    /// Happy-Games Ugolki anti-blocking rule: the target camp is full (any colour) and holds at
    /// least one of the winner's pieces.
    TargetBlockedButReached,
    /// 9qum Ugolki: White finished, Black finished with its equalising reply.
    BothFinished,
    /// 9qum Ugolki 40-move rule (checked after ply 80): the loser (or both, for a draw) still had
    /// a piece on its own home squares.
    HomeNotVacated,
    /// 9qum Ugolki count after ply 200: pieces in the opponent's corner.
    PieceCount { white: u8, black: u8 },
    /// The side to move had no legal move (and the family's rules make that a loss).
    NoLegalMoves,
    /// Focus: the side to move controls no stack and has an empty reserve.
    NoStackNoReserve,
    /// GIPF: the side to move has no piece left to bring into play.
    ReserveExhausted,
    /// GIPF standard/tournament: the loser has no GIPF-piece left on the board.
    NoGipfPiece,
    /// GIPF seed variant: the loser has no pieces at all (board and reserve).
    Annihilated,
    /// The same position (with the same side to move) occurred for the third time.
    Repetition,
    /// The variant's ply cap was reached (an engine guard, not a rule of the game).
    PlyCap,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::TargetFilled => f.write_str("all pieces reached the target camp"),
            EndReason::TargetBlockedButReached => {
                f.write_str("target camp full and holding at least one of the winner's pieces")
            }
            EndReason::BothFinished => f.write_str("both sides finished (equalising reply)"),
            EndReason::HomeNotVacated => {
                f.write_str("40-move rule: pieces still at home after move 40")
            }
            EndReason::PieceCount { white, black } => {
                write!(
                    f,
                    "count after move 100: White {white}, Black {black} in the opponent's corner"
                )
            }
            EndReason::NoLegalMoves => f.write_str("no legal move"),
            EndReason::NoStackNoReserve => f.write_str("no controlled stack and no reserve"),
            EndReason::ReserveExhausted => f.write_str("no piece left to bring into play"),
            EndReason::NoGipfPiece => f.write_str("no GIPF-piece left on the board"),
            EndReason::Annihilated => f.write_str("no pieces left"),
            EndReason::Repetition => f.write_str("threefold repetition"),
            EndReason::PlyCap => f.write_str("move limit reached"),
        }
    }
}

impl Outcome {
    /// The outcome in words, with the seats called by `name` ("Red wins: …", "1st Red, 2nd
    /// Blue, 3rd Green: …").
    pub fn describe(&self, name: impl Fn(Seat) -> String) -> String {
        match self.winner() {
            Some(w) if self.places.seats() == 2 => format!("{} wins: {}", name(w), self.reason),
            _ if self.is_draw() => format!("draw: {}", self.reason),
            _ => {
                let mut order: Vec<Seat> = Seat::all(self.places.seats()).collect();
                order.sort_by_key(|&s| self.places.of(s));
                let list: Vec<String> = order
                    .iter()
                    .map(|&s| format!("{} {}", ordinal(self.places.of(s)), name(s)))
                    .collect();
                format!("{}: {}", list.join(", "), self.reason)
            }
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(|s| s.name().to_owned()))
    }
}

/// "1st", "2nd" … for places at a table of at most six.
pub fn ordinal(place: u8) -> String {
    let suffix = match place {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_must_be_standings() {
        assert!(Places::new(&[1, 2, 2]).is_some());
        assert!(Places::new(&[1, 1, 3]).is_some());
        assert!(Places::new(&[1, 1, 2]).is_none());
        assert!(Places::new(&[2, 3]).is_none());
        assert!(Places::new(&[1]).is_none());
        let (a, b, c, d) = (Seat::at(0), Seat::at(1), Seat::at(2), Seat::at(3));
        assert_eq!(
            Places::from_groups(&[&[c], &[a, d], &[b]], 4).as_slice(),
            [2, 4, 1, 2]
        );
        assert_eq!(
            Places::from_order(&[Seat::at(2), Seat::WHITE], 4).as_slice(),
            [2, 3, 1, 3]
        );
    }

    #[test]
    fn scores_run_from_first_to_last() {
        let p = Places::new(&[2, 1, 3]).unwrap();
        assert_eq!(p.score(Seat::BLACK), 1.0);
        assert_eq!(p.score(Seat::WHITE), 0.0);
        assert_eq!(p.score(Seat::at(2)), -1.0);
        assert_eq!(Places::shared(4).score(Seat::at(3)), 0.0);
        let two = Outcome::win(Seat::BLACK, EndReason::TargetFilled);
        assert_eq!(two.score_for(Seat::BLACK), 1);
        assert_eq!(two.score_for(Seat::WHITE), -1);
        assert_eq!(two.places.score(Seat::WHITE), -1.0);
    }

    #[test]
    fn two_seat_outcomes_read_and_write_as_before() {
        let old = "(winner: Some(Black), reason: TargetFilled)";
        let o: Outcome = ron::from_str(old).unwrap();
        assert_eq!(o, Outcome::win(Seat::BLACK, EndReason::TargetFilled));
        assert_eq!(ron::to_string(&o).unwrap(), old.replace(" ", ""));
        let four = Outcome::placed(Places::new(&[3, 1, 2, 4]).unwrap(), EndReason::TargetFilled);
        let text = ron::to_string(&four).unwrap();
        assert_eq!(ron::from_str::<Outcome>(&text).unwrap(), four);
        assert_eq!(
            four.to_string(),
            "1st Black, 2nd Seat 3, 3rd White, 4th Seat 4: all pieces reached the target camp"
        );
    }
}
