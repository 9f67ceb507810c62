//! What the seats of a game are called: the variant's own names, read from its rules.
use boardcraft_rules::{FamilyRules, Position, Seat, Variant};

/// What the seats of a game are called, as its variant names them ("White", "Red" …), in
/// turn order. Names of colours the UI knows are translated; a mod's own names are shown as
/// written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatNames(Vec<String>);

impl SeatNames {
    /// The seats of `position`'s table.
    pub fn of(position: &impl Position) -> SeatNames {
        SeatNames(
            Seat::all(position.seat_count())
                .map(|s| position.seat_name(s))
                .collect(),
        )
    }

    /// The seats of `variant`'s table.
    pub fn of_variant(variant: &Variant) -> SeatNames {
        let n = variant.players();
        SeatNames(
            Seat::all(n)
                .map(|s| match &variant.rules {
                    FamilyRules::Race(r) => r.seat_name(s).to_owned(),
                    FamilyRules::Focus(r) => r.seat_name(s).to_owned(),
                    FamilyRules::Gipf(_) => s.name().to_owned(),
                })
                .collect(),
        )
    }

    /// The seats of a saved game of the variant called `name` at a table of `seats`: the
    /// shipped variant's names, else the seats' own names (White, Black, Seat 3 …).
    pub fn of_saved(name: &str, seats: usize) -> SeatNames {
        match boardcraft_rules::shipped_variant(name)
            .ok()
            .and_then(|v| v.with_players(seats))
        {
            Some(v) => SeatNames::of_variant(&v),
            None => SeatNames(Seat::all(seats).map(|s| s.name().to_owned()).collect()),
        }
    }

    /// White and Black (a two-seat game whose position is not at hand, e.g. online).
    pub fn two() -> SeatNames {
        SeatNames(vec!["White".to_owned(), "Black".to_owned()])
    }

    pub fn count(&self) -> usize {
        self.0.len()
    }

    /// The variant's own (English) name of `seat`.
    pub fn english(&self, seat: Seat) -> &str {
        self.0.get(seat.index()).map_or(seat.name(), String::as_str)
    }
}

/// The partnerships of `variant`'s table, each a list of seats in turn order; `None` when every
/// seat plays for itself.
pub fn partnerships(variant: &Variant) -> Option<Vec<Vec<Seat>>> {
    let team: Box<dyn Fn(Seat) -> usize> = match &variant.rules {
        FamilyRules::Race(r) if r.partners() => Box::new(|s| r.team(s).index()),
        FamilyRules::Focus(r) if r.partners() => Box::new(|s| r.team(s)),
        _ => return None,
    };
    let mut teams: Vec<(usize, Vec<Seat>)> = Vec::new();
    for seat in Seat::all(variant.players()) {
        let t = team(seat);
        match teams.iter_mut().find(|(k, _)| *k == t) {
            Some((_, seats)) => seats.push(seat),
            None => teams.push((t, vec![seat])),
        }
    }
    Some(teams.into_iter().map(|(_, seats)| seats).collect())
}
