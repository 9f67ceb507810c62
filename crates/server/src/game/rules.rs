//! The bridge between the rules crate and the protocol's words.
use boardcraft_protocol::{EndCause, GameResult, Placement, SeatIndex, SeatResult, Side, side_of};
use boardcraft_rules::{
    AnyPosition, EndReason, FamilyRules, Outcome, Places, Position, Seat, Variant, VariantError,
    shipped_variant,
};

use super::GameError;

pub fn side(color: Seat) -> Side {
    match color {
        Seat::WHITE => Side::White,
        _ => Side::Black,
    }
}

pub fn color(side: Side) -> Seat {
    match side {
        Side::White => Seat::WHITE,
        Side::Black => Seat::BLACK,
    }
}

/// The rules' reason as the protocol's `rule` code.
pub fn rule_code(reason: EndReason) -> &'static str {
    match reason {
        EndReason::TargetFilled => "target_filled",
        EndReason::TargetBlockedButReached => "target_blocked_but_reached",
        EndReason::BothFinished => "both_finished",
        EndReason::HomeNotVacated => "home_not_vacated",
        EndReason::PieceCount { .. } => "piece_count",
        EndReason::NoLegalMoves => "no_legal_moves",
        EndReason::NoStackNoReserve => "no_stack_no_reserve",
        EndReason::ReserveExhausted => "reserve_exhausted",
        EndReason::NoGipfPiece => "no_gipf_piece",
        EndReason::Annihilated => "annihilated",
        EndReason::Repetition => "repetition",
        EndReason::PlyCap => "ply_cap",
    }
}

pub fn rules_result(outcome: Outcome) -> GameResult {
    GameResult {
        winner: outcome.winner().map(side),
        cause: EndCause::Rules {
            rule: rule_code(outcome.reason).to_owned(),
        },
        text: outcome.to_string(),
    }
}

/// Refuses a variant whose seating is not for two players ([`GameError::MoreThanTwoSeats`]):
/// the game task plays two seats, and would take seats 2 and up for Black's.
pub fn two_seats(variant: &Variant) -> Result<(), GameError> {
    match variant.players() {
        2 => Ok(()),
        seats => Err(GameError::MoreThanTwoSeats {
            variant: variant.name.clone(),
            seats,
        }),
    }
}

/// The variant played by `seats` players ([`GameError::SeatsNotOffered`] if it is not).
pub fn seated(variant: Variant, seats: usize) -> Result<Variant, GameError> {
    if variant.players() == seats {
        return Ok(variant);
    }
    variant
        .for_players(seats)
        .map_err(|e| GameError::SeatsNotOffered {
            variant: e.variant,
            asked: e.asked,
            offered: e
                .offered
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// A seat as refusals name it: `white` and `black` in a two-seat game, `seat N` beyond.
pub fn seat_name(seat: SeatIndex, seats: usize) -> String {
    match side_of(seat) {
        Some(side) if seats == 2 => side.name().to_owned(),
        _ => format!("seat {seat}"),
    }
}

/// Every seat's placement from the places, with its team where the variant has partners. A
/// partner who left (`departed`) is placed alone, below the seats that stayed: the partner
/// who played on keeps the team's place, and the ratings rank the one who left last.
pub fn placements(variant: &Variant, places: &Places, departed: &[SeatIndex]) -> Vec<Placement> {
    let mut placements = SeatResult::places(places.as_slice());
    if let Some(teams) = teams(variant) {
        for (seat, (p, team)) in placements.iter_mut().zip(teams).enumerate() {
            if !departed.contains(&(seat as SeatIndex)) {
                p.team = Some(team);
            }
        }
    }
    placements
}

/// The places in words: "1st Red, 2nd Green, 3rd Blue", the seats named as the variant names
/// them.
fn places_text(position: &AnyPosition, places: &Places) -> String {
    let mut order: Vec<Seat> = Seat::all(places.seats()).collect();
    order.sort_by_key(|&s| places.of(s));
    order
        .iter()
        .map(|&s| {
            format!(
                "{} {}",
                boardcraft_rules::outcome::ordinal(places.of(s)),
                position.seat_name(s)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The seats that left, as the rules count them.
fn left(departed: &[SeatIndex]) -> Vec<Seat> {
    departed.iter().map(|&d| Seat::at(usize::from(d))).collect()
}

/// The end a seat's departure decides when the game stops there: in a two-seat game the
/// other side wins (version 2's words); at a larger table (the seats left playing have
/// nothing to play for) the rules' standings with the seat and those that left before it
/// below the seats still playing.
pub fn ended_by(
    variant: &Variant,
    position: &AnyPosition,
    seat: SeatIndex,
    cause: EndCause,
    departed: &[SeatIndex],
) -> SeatResult {
    let seats = position.seat_count();
    if seats == 2 {
        let side = side_of(seat).unwrap_or(Side::Black);
        let two = match cause {
            EndCause::Timeout => timeout(side),
            EndCause::Abandoned => abandoned(side.other()),
            _ => resignation(side),
        };
        return SeatResult::from_two_seats(&two);
    }
    let mut gone = departed.to_vec();
    gone.retain(|&d| d != seat);
    gone.push(seat);
    let places = position.standings(&left(&gone));
    let placements = placements(variant, &places, &gone);
    let what = match cause {
        EndCause::Timeout => "ran out of time",
        EndCause::Abandoned => "left the game",
        _ => "resigned",
    };
    SeatResult {
        placements,
        text: format!(
            "{}: {} {what}",
            places_text(position, &places),
            position.seat_name(Seat::at(usize::from(seat)))
        ),
        cause,
        by: Some(seat),
    }
}

/// The end when the seats still playing agreed to a draw: two seats as version 2 says it; at a
/// larger table the seats that finished keep their places, those still playing share the next.
pub fn drawn(variant: &Variant, position: &AnyPosition, departed: &[SeatIndex]) -> SeatResult {
    if position.seat_count() == 2 {
        return SeatResult::from_two_seats(&draw_agreed());
    }
    let places = position.standings(&left(departed));
    SeatResult {
        placements: placements(variant, &places, departed),
        text: format!("draw by agreement: {}", places_text(position, &places)),
        cause: EndCause::DrawAgreed,
        by: None,
    }
}

/// The end of a larger table whose rules ended it (`outcome`) or where one seat is left
/// playing after the others finished or left: the places with the seats that left below.
pub fn played_out(
    variant: &Variant,
    position: &AnyPosition,
    outcome: Option<Outcome>,
    departed: &[SeatIndex],
) -> SeatResult {
    let (places, reason) = match outcome {
        Some(o) => (o.places.with_departed_last(&left(departed)), o.reason),
        None => (position.standings(&left(departed)), EndReason::TargetFilled),
    };
    SeatResult {
        placements: placements(variant, &places, departed),
        text: format!("{}: {reason}", places_text(position, &places)),
        cause: EndCause::Rules {
            rule: rule_code(reason).to_owned(),
        },
        by: None,
    }
}

/// An aborted game (ended before every seat made two moves) of `seats` seats.
pub fn aborted_seats(seats: usize) -> SeatResult {
    if seats == 2 {
        return SeatResult::from_two_seats(&aborted());
    }
    SeatResult {
        placements: SeatResult::places(&vec![1; seats]),
        cause: EndCause::Aborted,
        by: None,
        text: "game aborted".into(),
    }
}

/// Each seat's team, where the variant's seats play as partners (`None`: each plays alone).
pub fn teams(variant: &Variant) -> Option<Vec<u8>> {
    let seats = Seat::all(variant.players());
    match &variant.rules {
        FamilyRules::Race(r) if r.partners() => {
            Some(seats.map(|s| r.team(s).index() as u8).collect())
        }
        FamilyRules::Focus(r) if r.partners() => Some(seats.map(|s| r.team(s) as u8).collect()),
        _ => None,
    }
}

/// The rules' end as every seat's place (with its team where the variant has partners): the
/// result of a game of any number of seats, from the rules' placements. Its text is version
/// 2's for two seats; at a larger table it names every seat's place as the variant names the
/// seats ("1st Red, 2nd Yellow, 3rd Blue: …").
pub fn seat_result(variant: &Variant, position: &AnyPosition, outcome: Outcome) -> SeatResult {
    SeatResult {
        placements: placements(variant, &outcome.places, &[]),
        cause: EndCause::Rules {
            rule: rule_code(outcome.reason).to_owned(),
        },
        by: None,
        text: if outcome.places.seats() == 2 {
            outcome.to_string()
        } else {
            format!(
                "{}: {}",
                places_text(position, &outcome.places),
                outcome.reason
            )
        },
    }
}

fn title(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

pub fn resignation(loser: Side) -> GameResult {
    GameResult {
        winner: Some(loser.other()),
        cause: EndCause::Resignation,
        text: format!("{} wins: {} resigned", title(loser.other()), title(loser)),
    }
}

pub fn timeout(loser: Side) -> GameResult {
    GameResult {
        winner: Some(loser.other()),
        cause: EndCause::Timeout,
        text: format!("{} wins on time", title(loser.other())),
    }
}

pub fn draw_agreed() -> GameResult {
    GameResult {
        winner: None,
        cause: EndCause::DrawAgreed,
        text: "draw by agreement".into(),
    }
}

pub fn abandoned(winner: Side) -> GameResult {
    GameResult {
        winner: Some(winner),
        cause: EndCause::Abandoned,
        text: format!(
            "{} wins: {} left the game",
            title(winner),
            title(winner.other())
        ),
    }
}

/// A game between accounts that ended before each side made two moves.
pub fn aborted() -> GameResult {
    GameResult {
        winner: None,
        cause: EndCause::Aborted,
        text: "game aborted".into(),
    }
}

/// The variant a game is played with: its posted file, or the shipped one by name.
pub fn variant_of(name: &str, file: Option<&str>) -> Result<Variant, VariantError> {
    match file {
        Some(text) => Variant::from_ron("posted variant file", text),
        None => shipped_variant(name),
    }
}

/// The rules' ends against whole games played by the rules (seeded random moves).
#[cfg(test)]
mod tests {
    use boardcraft_rules::{AnyPosition, Position, checks::SeededMoves};

    use super::*;

    /// Plays seeded random legal moves until the game ends; its outcome.
    fn played(variant: &Variant, seed: u64) -> Outcome {
        let mut position: AnyPosition = variant.new_game();
        let mut picker = SeededMoves::new(seed);
        let mut moves = Vec::new();
        while !position.is_game_over() {
            moves.clear();
            position.legal_moves(&mut moves);
            let mv = picker.pick(&moves).expect("a legal move").clone();
            position.play(&mv).expect("a legal move");
        }
        position.outcome().expect("an outcome at the end")
    }

    #[test]
    fn three_seats_end_in_the_rules_places() {
        let variant = shipped_variant("chinese-checkers")
            .unwrap()
            .for_players(3)
            .unwrap();
        let outcome = played(&variant, 3);
        let result = seat_result(&variant, &variant.new_game(), outcome);
        let first = Seat::all(3).find(|&s| outcome.places.of(s) == 1).unwrap();
        let name = variant.new_game().seat_name(first);
        assert!(
            result.text.starts_with(&format!("1st {name}")),
            "the seats as the variant names them: {}",
            result.text
        );
        assert_eq!(result.placements.len(), 3);
        for (seat, p) in Seat::all(3).zip(&result.placements) {
            assert_eq!(
                (p.seat, p.place, p.team),
                (seat.index() as u8, outcome.places.of(seat), None)
            );
        }
        assert_eq!(result.winner(), outcome.winner().map(|s| s.index() as u8));
        assert_eq!(
            result.two_seats(),
            None,
            "three seats have no version-2 result"
        );
    }

    #[test]
    fn partners_have_teams_and_share_places() {
        let variant = shipped_variant("halma-16-partners").unwrap();
        assert_eq!(variant.players(), 4);
        assert_eq!(teams(&variant), Some(vec![0, 1, 0, 1]));
        let result = seat_result(&variant, &variant.new_game(), played(&variant, 5));
        let place = |seat: usize| result.placements[seat].place;
        assert_eq!(place(0), place(2));
        assert_eq!(place(1), place(3));
        assert!(result.placements.iter().all(|p| p.team == Some(p.seat % 2)));
        // Chinese checkers for four has no partners.
        let four = shipped_variant("chinese-checkers")
            .unwrap()
            .for_players(4)
            .unwrap();
        assert_eq!(teams(&four), None);
    }

    /// For two seats the places say what the winner said: one path for any number of seats.
    #[test]
    fn two_seats_end_as_version_2_says() {
        for (name, seed) in [("ugolki-9qum", 1), ("focus", 2), ("halma-16", 3)] {
            let variant = shipped_variant(name).unwrap();
            let outcome = played(&variant, seed);
            assert_eq!(
                seat_result(&variant, &variant.new_game(), outcome).two_seats(),
                Some(rules_result(outcome)),
                "{name}"
            );
        }
    }

    /// The tables each variant is played at, as the docs list them; another is refused.
    #[test]
    fn tables_offered() {
        for (name, offered) in [
            ("chinese-checkers", &[2, 3, 4, 6][..]),
            ("halma-16", &[2, 4]),
            ("focus", &[2, 3, 4]),
        ] {
            let variant = shipped_variant(name).unwrap();
            for seats in 2..=6 {
                let seated = seated(variant.clone(), seats);
                assert_eq!(
                    seated.is_ok(),
                    offered.contains(&seats),
                    "{name} at {seats}"
                );
                if let Ok(v) = seated {
                    assert_eq!(v.new_game().seat_count(), seats);
                }
            }
        }
        assert!(matches!(
            seated(shipped_variant("ugolki-9qum").unwrap(), 3),
            Err(GameError::SeatsNotOffered { asked: 3, .. })
        ));
    }

    /// A seat that leaves is placed last (the rules' standings, tested in the rules crate); a
    /// draw after a departure shares the next place among the seats still playing.
    #[test]
    fn departures_are_placed_last_of_those_playing() {
        let variant = seated(shipped_variant("chinese-checkers").unwrap(), 4).unwrap();
        let position = variant.new_game();
        let result = ended_by(&variant, &position, 2, EndCause::Resignation, &[]);
        assert_eq!(result.by, Some(2));
        assert_eq!(result.place_of(2), Some(4));
        let drawn = drawn(&variant, &position, &[1]);
        assert_eq!(
            drawn.placements,
            SeatResult::places(&[1, 4, 1, 1]),
            "the seats playing share first, the one that left is below"
        );
    }
}
