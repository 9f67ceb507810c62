//! How a seat's pieces look: a colour and a mark. The board, the pieces, the panel's turn
//! banner and the game-over list all take a seat's look from here, so a seat is the same colour
//! and shape everywhere.
//!
//! A seat named after a colour in its variant file ("Red", "Blue" …) gets that colour, in a
//! shade from a palette that colour-blind players can tell apart (Okabe and Ito's); other seats
//! take the palette in turn order. White and Black stay the light and dark pieces of the
//! two-seat games. Colour alone is not enough for everybody, so every coloured seat also has a
//! mark — a small shape on its pieces and beside its name — different for each seat of a table.
use bevy::color::Color;
use boardcraft_rules::Seat;

/// The shape a seat's pieces carry on top (and its name carries in the panel).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// No mark: White and Black, told apart by light and dark.
    None,
    Dot,
    Triangle,
    Square,
    Diamond,
    Cross,
    Ring,
}

impl Mark {
    /// The marks in the order seats take them (seat 0 the first).
    pub const IN_TURN: [Mark; 6] = [
        Mark::Dot,
        Mark::Triangle,
        Mark::Square,
        Mark::Diamond,
        Mark::Cross,
        Mark::Ring,
    ];
}

/// A seat's colour and mark.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SeatLook {
    pub colour: Color,
    pub mark: Mark,
    /// Whether the colour is light (a mark or text on it is drawn dark).
    pub light: bool,
}

/// The named colours, as sRGB: Okabe–Ito shades, lightened where a piece in 3D light needs it.
const NAMED: [(&str, [f32; 3], bool); 8] = [
    ("red", [0.84, 0.33, 0.10], false),
    ("blue", [0.10, 0.40, 0.75], false),
    ("green", [0.00, 0.58, 0.42], false),
    ("yellow", [0.94, 0.86, 0.26], true),
    ("orange", [0.92, 0.62, 0.05], true),
    ("purple", [0.78, 0.45, 0.65], false),
    ("sky", [0.34, 0.71, 0.91], true),
    ("grey", [0.55, 0.55, 0.55], false),
];

/// The palette order for seats whose name is not a colour.
const IN_TURN: [&str; 6] = ["red", "blue", "green", "yellow", "purple", "orange"];

pub const WHITE: Color = Color::srgb(0.95, 0.93, 0.88);
pub const BLACK: Color = Color::srgb(0.12, 0.12, 0.14);

/// The look of `seat`, called `name` by its variant, at a table of `seats`.
pub fn seat_look(name: &str, seat: Seat, seats: usize) -> SeatLook {
    let lower = name.to_ascii_lowercase();
    if seats <= 2 {
        match lower.as_str() {
            "white" | "player 1" => return plain(WHITE, true),
            "black" | "player 2" => return plain(BLACK, false),
            _ => {}
        }
    }
    let named = NAMED
        .iter()
        .find(|(n, _, _)| lower == *n || lower.starts_with(n));
    let (_, rgb, light) = named.copied().unwrap_or_else(|| {
        let by_turn = IN_TURN[seat.index() % IN_TURN.len()];
        *NAMED
            .iter()
            .find(|(n, _, _)| *n == by_turn)
            .expect("palette")
    });
    SeatLook {
        colour: Color::srgb(rgb[0], rgb[1], rgb[2]),
        mark: Mark::IN_TURN[seat.index() % Mark::IN_TURN.len()],
        light,
    }
}

fn plain(colour: Color, light: bool) -> SeatLook {
    SeatLook {
        colour,
        mark: Mark::None,
        light,
    }
}

/// The looks of every seat of a table, named by `name`.
pub fn table_looks(seats: usize, name: impl Fn(Seat) -> String) -> Vec<SeatLook> {
    Seat::all(seats)
        .map(|s| seat_look(&name(s), s, seats))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_seat_games_keep_white_and_black() {
        assert_eq!(seat_look("White", Seat::WHITE, 2).colour, WHITE);
        assert_eq!(seat_look("Black", Seat::BLACK, 2).colour, BLACK);
        assert_eq!(seat_look("Black", Seat::BLACK, 2).mark, Mark::None);
    }

    #[test]
    fn six_seats_differ_in_colour_and_mark() {
        let names = ["Red", "Purple", "Blue", "Green", "Yellow", "Orange"];
        let looks = table_looks(6, |s| names[s.index()].to_owned());
        for (i, a) in looks.iter().enumerate() {
            for b in &looks[i + 1..] {
                assert_ne!(a.colour, b.colour);
                assert_ne!(a.mark, b.mark);
                assert_ne!(a.mark, Mark::None);
            }
        }
    }

    #[test]
    fn unnamed_seats_take_the_palette() {
        let looks = table_looks(4, |s| format!("Player {}", s.index() + 1));
        assert_ne!(looks[0].colour, looks[1].colour);
        assert_ne!(looks[2].colour, looks[3].colour);
        assert_eq!(looks[0].colour, seat_look("red", Seat::at(0), 4).colour);
    }
}
