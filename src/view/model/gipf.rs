//! View adapter for GIPF: the hexagonal board of 37 spots and 24 dots with its 21 lines,
//! reserves and captured pieces in trays; an entry puts a piece on a dot and pushes the run in
//! front one spot (all at once), then each removal step sends its rows to the trays.
use bevy::math::Vec2;
use boardcraft_rules::{
    Seat,
    gipf::{
        effect::{ActionEffect, Destination, GipfEffect, RemovalStep},
        geometry::{Direction, Dot, Point, Spot, geometry},
        moves::{Action, GipfMove},
        piece::PieceKind as GipfKind,
        position::GipfPosition,
        spec::{GipfEntry, GipfReturn, GipfRules},
    },
};

use super::{
    Cell, CellId, CellKind, Layout, Motion, Phase, PhaseKind, PieceKind, PieceStyle, Place,
    Reshape, Script, Snapshot, Take, Token, Tray,
};

const STYLE: PieceStyle = PieceStyle {
    radius: 0.36,
    height: 0.15,
    tall: false,
};

/// Column letters and their lengths (official coordinates, rules.md §6.1).
const COLUMNS: u8 = 9;

fn column_len(col: u8) -> u8 {
    9 - (i16::from(col) - 4).unsigned_abs() as u8
}

/// Where point `n` (1-based) of column `col` lies: columns are vertical lines one hex step
/// apart, `e1` (White's side) at the bottom.
fn point_at(col: u8, n: u8) -> Vec2 {
    let x = i16::from(col) - 4;
    let low = (-4 - x).max(-4);
    let y = i16::from(n) - 1 + low;
    Vec2::new(
        f32::from(x) * 3f32.sqrt() / 2.0,
        f32::from(y) + f32::from(x) / 2.0,
    )
}

fn name(col: u8, n: u8) -> String {
    format!("{}{n}", char::from(b'a' + col))
}

pub fn layout(_rules: &GipfRules) -> Layout {
    let mut cells = Vec::new();
    for col in 0..COLUMNS {
        for n in 1..=column_len(col) {
            let name = name(col, n);
            let kind = match Point::from_name(&name) {
                Some(Point::Spot(_)) => CellKind::Spot,
                Some(Point::Dot(_)) => CellKind::Dot,
                None => continue,
            };
            cells.push(Cell {
                name,
                at: point_at(col, n),
                kind,
                camp: None,
                goal: None,
                dark: false,
            });
        }
    }
    let mut layout = Layout::new(cells, STYLE, true);
    let g = geometry();
    let at = |name: String| layout.id(&name).map(|id| layout.cell(id).at);
    let mut lines = Vec::new();
    // Each line of the play area, drawn from the dot at one end to the dot at the other: the
    // entry segments (dot → first spot) plus the spots' run.
    for line in &g.lines {
        let spots = line.ray.spots();
        if let (Some(first), Some(last)) = (spots.first(), spots.last())
            && let (Some(a), Some(b)) = (at(first.to_string()), at(last.to_string()))
        {
            lines.push((a, b));
        }
    }
    for entry in &g.entries {
        if let (Some(a), Some(b)) = (at(entry.dot.to_string()), at(entry.spot.to_string())) {
            lines.push((a, b));
        }
    }
    layout.lines = lines;
    // Column letters below the bottom points, as on the official board.
    for col in 0..COLUMNS {
        let bottom = point_at(col, 1);
        layout.labels.push((
            char::from(b'a' + col).to_string(),
            bottom - Vec2::new(0.0, 0.75),
        ));
    }
    let (min, max) = (layout.min, layout.max);
    layout.trays = vec![
        (
            Tray::Reserve(Seat::WHITE),
            Vec2::new(max.x + 1.3, min.y + 0.5),
            Vec2::new(0.0, 0.8),
        ),
        (
            Tray::Captured(Seat::WHITE),
            Vec2::new(max.x + 2.3, min.y + 0.5),
            Vec2::new(0.0, 0.8),
        ),
        (
            Tray::Reserve(Seat::BLACK),
            Vec2::new(min.x - 1.3, max.y - 0.5),
            Vec2::new(0.0, -0.8),
        ),
        (
            Tray::Captured(Seat::BLACK),
            Vec2::new(min.x - 2.3, max.y - 0.5),
            Vec2::new(0.0, -0.8),
        ),
    ];
    layout
}

fn spot(layout: &Layout, s: Spot) -> Option<CellId> {
    layout.id(&s.to_string())
}

fn dot(layout: &Layout, d: Dot) -> Option<CellId> {
    layout.id(&d.to_string())
}

fn kind(color: Seat, k: GipfKind) -> PieceKind {
    PieceKind {
        color,
        gipf: k == GipfKind::Gipf,
    }
}

/// The board, the reserves (basic pieces, then GIPF-pieces of the seed variant) and the
/// captures. Captured material is counted in basic pieces (a GIPF-piece is two), so captured
/// GIPF-pieces lie in the tray as two basic pieces.
pub fn snapshot(position: &GipfPosition, layout: &Layout) -> Snapshot {
    let mut snapshot = Snapshot::empty(layout);
    for s in Spot::all() {
        if let (Some(piece), Some(c)) = (position.piece_at(s), spot(layout, s)) {
            snapshot.stacks[c.index()].push(kind(piece.color, piece.kind));
        }
    }
    for side in Seat::BOTH {
        let reserve = snapshot.tray_mut(Tray::Reserve(side));
        reserve.extend(std::iter::repeat_n(
            PieceKind::man(side),
            position.reserve(side) as usize,
        ));
        reserve.extend(std::iter::repeat_n(
            kind(side, GipfKind::Gipf),
            position.gipf_reserve(side) as usize,
        ));
        // `captured(c)` is c's material taken by the other side.
        *snapshot.tray_mut(Tray::Captured(side.other())) =
            vec![PieceKind::man(side); position.captured(side) as usize];
    }
    snapshot
}

/// Pieces of a removal step go to the trays all together, one phase per row taken.
fn removal_phases(step: &RemovalStep, rules: &GipfRules, layout: &Layout, script: &mut Script) {
    for row in &step.rows {
        let motions: Vec<Motion> = row
            .removed
            .iter()
            .filter_map(|r| {
                let cell = spot(layout, r.spot)?;
                let (tray, split) = match r.to {
                    Destination::OwnersReserve => (
                        Tray::Reserve(r.piece.color),
                        // An own GIPF-piece comes back as two basic pieces, unless the variant
                        // keeps it whole (seed variant with GIPF-pieces).
                        rules.own_gipf_returns_as == GipfReturn::TwoBasicPieces,
                    ),
                    // Captured material is counted in basic pieces.
                    Destination::Captured => (Tray::Captured(step.by), true),
                };
                Some(Motion {
                    from: Place::Cell(cell),
                    take: Take::Top(1),
                    to: Place::Tray(tray),
                    reshape: if split && r.piece.kind == GipfKind::Gipf {
                        Reshape::Split
                    } else {
                        Reshape::Keep
                    },
                })
            })
            .collect();
        if motions.is_empty() {
            continue;
        }
        let landing = row.run.first().and_then(|s| spot(layout, *s));
        script.push(Phase {
            kind: PhaseKind::Remove,
            motions,
            landing,
        });
    }
}

pub fn script(
    before: &GipfPosition,
    _mv: &GipfMove,
    effect: &GipfEffect,
    layout: &Layout,
) -> Script {
    let rules = before.rules();
    let mut script = Vec::new();
    if let Some(step) = &effect.pre_removal {
        removal_phases(step, rules, layout, &mut script);
    }
    match effect.action {
        Some(ActionEffect::Entry {
            dot: d,
            spot: s,
            piece,
        }) => {
            let (Some(d), Some(s)) = (dot(layout, d), spot(layout, s)) else {
                return script;
            };
            // From the reserve onto the dot …
            let reserve = Place::Tray(Tray::Reserve(piece.color));
            let entering = match piece.kind {
                GipfKind::Basic => Motion::carry(
                    reserve,
                    Take::Kind(PieceKind::man(piece.color), 1),
                    Place::Cell(d),
                ),
                // A GIPF-piece of the seed variant is a reserve item of its own …
                GipfKind::Gipf if rules.gipf_entry == GipfEntry::FromGipfReserve => Motion::carry(
                    reserve,
                    Take::Kind(kind(piece.color, GipfKind::Gipf), 1),
                    Place::Cell(d),
                ),
                // … a tournament one is made of two reserve pieces.
                GipfKind::Gipf => Motion {
                    from: reserve,
                    take: Take::Kind(PieceKind::man(piece.color), 2),
                    to: Place::Cell(d),
                    reshape: Reshape::Join,
                },
            };
            script.push(Phase {
                kind: PhaseKind::Place,
                motions: vec![entering],
                landing: Some(d),
            });
            // … then pushed onto the spot, the run in front moving with it.
            let mut motions = vec![Motion::carry(Place::Cell(d), Take::Top(1), Place::Cell(s))];
            motions.extend(shift_motions(effect, layout));
            script.push(Phase {
                kind: PhaseKind::Slide,
                motions,
                landing: Some(s),
            });
        }
        Some(ActionEffect::Step { from, to, .. }) => {
            let (Some(f), Some(t)) = (spot(layout, from), spot(layout, to)) else {
                return script;
            };
            let mut motions = vec![Motion::carry(Place::Cell(f), Take::Top(1), Place::Cell(t))];
            motions.extend(shift_motions(effect, layout));
            script.push(Phase {
                kind: PhaseKind::Slide,
                motions,
                landing: Some(t),
            });
        }
        None => {}
    }
    for step in &effect.removals {
        removal_phases(step, rules, layout, &mut script);
    }
    script
}

fn shift_motions<'a>(
    effect: &'a GipfEffect,
    layout: &'a Layout,
) -> impl Iterator<Item = Motion> + 'a {
    effect.shifts.iter().filter_map(|shift| {
        Some(Motion::carry(
            Place::Cell(spot(layout, shift.from)?),
            Take::Top(1),
            Place::Cell(spot(layout, shift.to)?),
        ))
    })
}

/// An entry: the dot, then the spot it pushes onto. A seed step: the piece, then the spot it
/// steps to. A pending decision that ends the game has no action: one of its spots. Moves that
/// share these clicks (removal choices, a GIPF-piece or a basic piece) are told apart by the
/// UI's chooser.
pub fn tokens(_position: &GipfPosition, mv: &GipfMove, layout: &Layout) -> Option<Vec<Token>> {
    match mv.action() {
        Some(Action::Entry { .. }) => {
            let (d, s) = mv.action()?.entry_points()?;
            Some(vec![
                Token::Cell(dot(layout, d)?),
                Token::Cell(spot(layout, s)?),
            ])
        }
        Some(Action::Step { from, dir }) => {
            let to = step_target(from, dir)?;
            Some(vec![
                Token::Cell(spot(layout, from)?),
                Token::Cell(spot(layout, to)?),
            ])
        }
        None => {
            let first = mv.pre_removal()?.iter().next()?;
            Some(vec![Token::Cell(spot(layout, first)?)])
        }
    }
}

fn step_target(from: Spot, dir: Direction) -> Option<Spot> {
    match geometry().neighbour(from, dir)? {
        Point::Spot(s) => Some(s),
        Point::Dot(_) => None,
    }
}
