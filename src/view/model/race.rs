//! View adapter for the race family (Ugolki, Halma): a rectangular board with tinted camps,
//! one piece per square, moves animated landing by landing along the effect's path.
use boardcraft_rules::{
    Position, Seat,
    race::{MoveKind, RaceEffect, RaceMove, RacePosition, RaceRules, Square},
};

use super::{
    CellId, Layout, Motion, Phase, PhaseKind, PieceKind, PieceStyle, Place, Script, Snapshot, Take,
    Token, square_grid,
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
        Seat::BOTH.into_iter().find(|side| rules.in_camp(*side, s))
    };
    square_grid(
        rules.width(),
        rules.height(),
        |file, rank| Square::new(file, rank).is_some_and(|s| rules.on_board(s)),
        camp,
        STYLE,
    )
}

fn cell(layout: &Layout, s: Square) -> Option<CellId> {
    layout.id(&s.to_string())
}

pub fn snapshot(position: &RacePosition, layout: &Layout) -> Snapshot {
    let mut snapshot = Snapshot::empty(layout);
    for side in Seat::BOTH {
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
