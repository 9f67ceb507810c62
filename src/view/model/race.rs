//! View adapter for the race family (Ugolki, Halma, Chinese checkers): a board of squares or
//! of hex cells with every seat's home tinted, one piece per cell, moves animated landing by
//! landing along the effect's path.
use bevy::math::Vec2;
use boardcraft_rules::{
    Position, Seat,
    race::{Directions, MoveKind, RaceEffect, RaceMove, RacePosition, RaceRules, Square},
};

use super::{
    CellId, Layout, Motion, Phase, PhaseKind, PieceKind, PieceStyle, Place, Script, Snapshot, Take,
    Token, hex, square_grid,
};

/// Race pieces are single men: tall enough to read as pieces in 3D, round from above.
const STYLE: PieceStyle = PieceStyle {
    radius: 0.34,
    height: 0.46,
    tall: true,
};

pub fn layout(rules: &RaceRules) -> Layout {
    let camp = |file: u8, rank: u8| {
        let s = Square::new(file, rank)?;
        rules.seats().find(|side| rules.in_camp(*side, s))
    };
    let mut layout = if rules.directions() == Directions::Hex {
        // A point that is nobody's home but somebody's target (the three-seat star) is
        // tinted for the seat racing there, lighter than a home.
        let goal = |file: u8, rank: u8| {
            let s = Square::new(file, rank)?;
            if camp(file, rank).is_some() {
                return None;
            }
            rules.seats().find(|side| rules.in_target(*side, s))
        };
        hex::hex_grid(
            rules.cells().iter().map(|s| (s.file(), s.rank())),
            camp,
            goal,
            STYLE,
        )
    } else {
        square_grid(
            rules.width(),
            rules.height(),
            |file, rank| Square::new(file, rank).is_some_and(|s| rules.on_board(s)),
            camp,
            STYLE,
        )
    };
    layout.seats = rules.seat_count();
    let centroid = |squares: &[Square]| -> Option<Vec2> {
        let points: Vec<Vec2> = squares
            .iter()
            .filter_map(|s| cell(&layout, *s))
            .map(|id| layout.cell(id).at)
            .collect();
        (!points.is_empty()).then(|| points.iter().sum::<Vec2>() / points.len() as f32)
    };
    let centre = layout.centre();
    let homes: Vec<Option<Vec2>> = rules.seats().map(|s| centroid(rules.camp(s))).collect();
    let goals: Vec<(Seat, Vec2)> = rules
        .seats()
        .filter_map(|s| Some((s, centroid(rules.target(s))?)))
        .collect();
    let angles: Vec<f32> = rules
        .seats()
        .zip(homes)
        .map(|(seat, home)| match home {
            Some(at) if at.distance(centre) > 1e-3 => (at - centre).to_angle(),
            _ => layout.seat_angle(seat),
        })
        .collect();
    // Two-seat boards keep the two sides facing each other across the board (seat 0 at the
    // bottom, seat 1 at the top) even when the camps sit in corners: the camera flips between
    // them rather than looking along a diagonal.
    if rules.seat_count() > 2 {
        layout.seat_angles = angles;
    }
    layout.goals = goals;
    layout
}

fn cell(layout: &Layout, s: Square) -> Option<CellId> {
    layout.id(&s.to_string())
}

pub fn snapshot(position: &RacePosition, layout: &Layout) -> Snapshot {
    let mut snapshot = Snapshot::empty(layout);
    for side in position.rules().seats() {
        for s in position.pieces(side) {
            if let Some(c) = cell(layout, s) {
                snapshot.stacks[c.index()].push(PieceKind::man(side));
            }
        }
    }
    snapshot
}

/// A step is one low arc; a chain is one high arc per jump, each landing its own phase.
pub fn script(
    _before: &RacePosition,
    _mv: &<RacePosition as Position>::Move,
    effect: &<RacePosition as Position>::Effect,
    layout: &Layout,
) -> Script {
    let RaceEffect { kind, path, .. } = effect;
    let kind = match kind {
        MoveKind::Step => PhaseKind::Step,
        MoveKind::Jump => PhaseKind::Hop,
    };
    path.windows(2)
        .filter_map(|pair| {
            let (from, to) = (cell(layout, pair[0])?, cell(layout, pair[1])?);
            Some(Phase {
                kind,
                motions: vec![Motion::carry(
                    Place::Cell(from),
                    Take::Top(1),
                    Place::Cell(to),
                )],
                landing: Some(to),
            })
        })
        .collect()
}

/// Click the piece, then its destination (the move's identity is `(from, to)`).
pub fn tokens(_position: &RacePosition, mv: &RaceMove, layout: &Layout) -> Option<Vec<Token>> {
    Some(vec![
        Token::Cell(cell(layout, mv.from())?),
        Token::Cell(cell(layout, mv.to())?),
    ])
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;

    use boardcraft_rules::{FamilyRules, Seat, shipped_variant};

    use super::layout;

    fn race_layout(name: &str, seats: usize) -> super::Layout {
        let v = shipped_variant(name).unwrap().with_players(seats).unwrap();
        match &v.rules {
            FamilyRules::Race(r) => layout(r),
            _ => unreachable!("{name} is a race"),
        }
    }

    #[test]
    fn two_seat_boards_face_each_other_across_the_board() {
        // Ugolki's camps are in the corners; the sides still face each other straight.
        let ugolki = race_layout("ugolki-9qum", 2);
        assert_eq!(ugolki.seat_angle(Seat::WHITE), -FRAC_PI_2);
        assert_eq!(ugolki.seat_angle(Seat::BLACK), FRAC_PI_2);
    }

    #[test]
    fn the_star_s_seats_face_their_points() {
        let star = race_layout("chinese-checkers", 6);
        for (i, seat) in Seat::all(6).enumerate() {
            // S, SW, NW, N, NE, SE: a sixth of a turn apart, clockwise from the bottom.
            let want = -FRAC_PI_2 - i as f32 * std::f32::consts::TAU / 6.0;
            let got = star.seat_angle(seat);
            let apart =
                (bevy::math::Vec2::from_angle(got) - bevy::math::Vec2::from_angle(want)).length();
            assert!(apart < 1e-3, "{seat:?}: {got} vs {want}");
        }
    }
}
