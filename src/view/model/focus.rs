//! View adapter for Focus: the masked square board, stacks as towers of discs, the reserves
//! and captured pieces in trays beside the board; a move lifts the top pieces in one arc,
//! then any overflow leaves the bottom of the landing stack for a tray.
use bevy::math::Vec2;
use boardcraft_rules::{
    Seat,
    focus::{Action, Fate, FocusEffect, FocusMove, FocusPosition, FocusRules, Square},
};

use super::{
    CellId, Layout, Motion, Phase, PhaseKind, PieceKind, PieceStyle, Place, Script, Snapshot, Take,
    Token, Tray, square_grid,
};

/// Flat discs, so a five-high tower stays low and every level can be clicked.
const STYLE: PieceStyle = PieceStyle {
    radius: 0.38,
    height: 0.16,
    tall: false,
};

pub fn layout(rules: &FocusRules) -> Layout {
    let board = rules.board();
    let mut layout = square_grid(
        board.width(),
        board.height(),
        |file, rank| Square::new(file, rank).is_some_and(|s| board.contains(s)),
        |_, _| None,
        STYLE,
    );
    // Trays: each side's reserve and its captures stand beside the board on its right hand
    // (White's at the lower right, Black's at the upper left, seen from White).
    let (min, max) = (layout.min, layout.max);
    layout.trays = vec![
        (
            Tray::Reserve(Seat::WHITE),
            Vec2::new(max.x + 1.5, min.y),
            Vec2::new(0.0, 0.85),
        ),
        (
            Tray::Captured(Seat::WHITE),
            Vec2::new(max.x + 2.5, min.y),
            Vec2::new(0.0, 0.85),
        ),
        (
            Tray::Reserve(Seat::BLACK),
            Vec2::new(min.x - 1.5, max.y),
            Vec2::new(0.0, -0.85),
        ),
        (
            Tray::Captured(Seat::BLACK),
            Vec2::new(min.x - 2.5, max.y),
            Vec2::new(0.0, -0.85),
        ),
    ];
    layout.seats = rules.seat_count();
    if layout.seats > 2 {
        // The third and fourth seats' trays run along the bottom and the top edge; seats
        // sit around the board in turn order.
        for (seat, y, step) in [(2, min.y - 1.5, 0.85), (3, max.y + 1.5, -0.85)] {
            let Some(seat) = Seat::new(seat).filter(|s| s.index() < layout.seats) else {
                continue;
            };
            let x = if step > 0.0 { min.x } else { max.x };
            let further = if y < min.y { -1.0 } else { 1.0 };
            layout
                .trays
                .push((Tray::Reserve(seat), Vec2::new(x, y), Vec2::new(step, 0.0)));
            layout.trays.push((
                Tray::Captured(seat),
                Vec2::new(x, y + further),
                Vec2::new(step, 0.0),
            ));
        }
        layout.seat_angles = Vec::new();
    }
    layout
}

fn cell(layout: &Layout, s: Square) -> Option<CellId> {
    layout.id(&s.to_string())
}

pub fn snapshot(position: &FocusPosition, layout: &Layout) -> Snapshot {
    let mut snapshot = Snapshot::empty(layout);
    for (s, stack) in position.stacks() {
        if let Some(c) = cell(layout, s) {
            snapshot.stacks[c.index()] = stack.pieces().map(PieceKind::man).collect();
        }
    }
    for side in Seat::all(position.rules().seat_count()) {
        let reserve = usize::from(position.reserve(side));
        *snapshot.tray_mut(Tray::Reserve(side)) = vec![PieceKind::man(side); reserve];
        *snapshot.tray_mut(Tray::Captured(side)) = if layout.seats > 2 {
            // At a larger table the count of pieces taken does not say whose they were: each
            // seat's tray shows its own pieces taken out of the game.
            vec![PieceKind::man(side); usize::from(position.lost(side))]
        } else {
            // `captured_by(side)` counts the opponent's pieces `side` has taken.
            let captured = usize::from(position.captured_by(side));
            vec![PieceKind::man(side.other()); captured]
        };
    }
    snapshot
}

/// The lifted pieces fly to the landing square in one arc (a drop comes from the reserve);
/// then the overflow, bottom piece first, goes to the reserve or the captures.
pub fn script(
    _before: &FocusPosition,
    _mv: &FocusMove,
    effect: &FocusEffect,
    layout: &Layout,
) -> Script {
    let mut script = Vec::new();
    let to = match &effect.action {
        Action::Move {
            from, to, lifted, ..
        } => {
            let (Some(f), Some(t)) = (cell(layout, *from), cell(layout, *to)) else {
                return script;
            };
            script.push(Phase {
                kind: PhaseKind::Hop,
                motions: vec![Motion::carry(
                    Place::Cell(f),
                    Take::Top(usize::from(lifted.height())),
                    Place::Cell(t),
                )],
                landing: Some(t),
            });
            t
        }
        Action::Drop { to } => {
            let Some(t) = cell(layout, *to) else {
                return script;
            };
            script.push(Phase {
                kind: PhaseKind::Place,
                motions: vec![Motion::carry(
                    Place::Tray(Tray::Reserve(effect.mover)),
                    Take::Kind(PieceKind::man(effect.mover), 1),
                    Place::Cell(t),
                )],
                landing: Some(t),
            });
            t
        }
    };
    if !effect.overflow.is_empty() {
        let motions = effect
            .overflow
            .iter()
            .map(|o| {
                Motion::carry(
                    Place::Cell(to),
                    Take::Bottom(1),
                    Place::Tray(match o.fate {
                        Fate::MoverReserve => Tray::Reserve(effect.mover),
                        Fate::CapturedByMover if layout.seats > 2 => Tray::Captured(o.color),
                        Fate::CapturedByMover => Tray::Captured(effect.mover),
                    }),
                )
            })
            .collect();
        script.push(Phase {
            kind: PhaseKind::Remove,
            motions,
            landing: Some(to),
        });
    }
    script
}

/// A move: the stack, then the landing square (the distance says how many pieces are lifted).
/// A drop: the reserve, then the square.
pub fn tokens(position: &FocusPosition, mv: &FocusMove, layout: &Layout) -> Option<Vec<Token>> {
    match *mv {
        FocusMove::Move { from, to, .. } => Some(vec![
            Token::Cell(cell(layout, from)?),
            Token::Cell(cell(layout, to)?),
        ]),
        FocusMove::Drop { to } => Some(vec![
            Token::Reserve(boardcraft_rules::Position::side_to_move(position)),
            Token::Cell(cell(layout, to)?),
        ]),
    }
}

/// How many pieces a move lifts (none for a drop).
pub fn lift(mv: &FocusMove) -> Option<usize> {
    match *mv {
        FocusMove::Move { count, .. } => Some(usize::from(count)),
        FocusMove::Drop { .. } => None,
    }
}
