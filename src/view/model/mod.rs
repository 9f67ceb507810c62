//! What the view needs to know about a game, in one shape for every family: the board's cells
//! and decorations ([`Layout`]), what stands where ([`Snapshot`]), how a played move moves the
//! pieces ([`Script`]), and which clicks name which legal move ([`InputPath`]).
//!
//! Everything here is *read* from the rules crate; nothing here decides a rule. Each family has
//! a small adapter module that translates its rules types into these shapes.
//!
//! Coordinates: layout space is 2D, one square (or one hex step) = 1.0, `+x` to the right of
//! White's side, `+y` away from White (towards Black). [`Layout::world`] maps it onto the
//! 3D board plane (`+x` right, `-z` away from White, `+y` up).
use std::collections::HashMap;

use bevy::math::{Vec2, Vec3};
use boardcraft_rules::{AnyEffect, AnyMove, AnyPosition, FamilyRules, Position, Seat, Variant};

pub mod focus;
pub mod gipf;
pub mod hex;
pub mod race;

/// Height of the board's playing surface (the tops of squares, spots and dots).
pub const SURFACE: f32 = 0.02;

/// Index of a cell in [`Layout::cells`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId(pub u16);

impl CellId {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// How a cell is drawn and whether pieces stand on it for long.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// A square of a square board (race games, Focus).
    Square,
    /// A point of the GIPF play area.
    Spot,
    /// A GIPF entry dot on the rim: pieces only pass through it.
    Dot,
}

#[derive(Clone, Debug)]
pub struct Cell {
    /// The name the game's notation uses (`e4`, `b2` …).
    pub name: String,
    pub at: Vec2,
    pub kind: CellKind,
    /// The side whose start camp this cell belongs to (tinted on the board).
    pub camp: Option<Seat>,
    /// For a cell of no seat's camp: the seat that races to it (tinted lighter), if any.
    pub goal: Option<Seat>,
    /// Checkerboard shading for square boards.
    pub dark: bool,
}

/// Where pieces wait off the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tray {
    /// Pieces a side can still bring into play (Focus reserve, GIPF reserve).
    Reserve(Seat),
    /// Pieces a side has captured (taken out of the game).
    Captured(Seat),
}

impl Tray {
    pub const ALL: [Tray; 4] = [
        Tray::Reserve(Seat::WHITE),
        Tray::Reserve(Seat::BLACK),
        Tray::Captured(Seat::WHITE),
        Tray::Captured(Seat::BLACK),
    ];

    /// Every tray of a table of `seats`: the reserves, then the captures.
    pub fn all(seats: usize) -> impl Iterator<Item = Tray> {
        Seat::all(seats)
            .map(Tray::Reserve)
            .chain(Seat::all(seats).map(Tray::Captured))
    }
}

/// How the cells of a board are arranged, which decides the shape of a cell and of the slab.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Grid {
    /// Squares in rows and columns (race boards on the square grid, Focus).
    #[default]
    Square,
    /// Hexagonal cells, six neighbours each one unit away (race boards on the hex grid).
    Hex,
    /// The GIPF play area: spots on the crossings of lines.
    Points,
}

/// The kind of a piece, as far as the view tells pieces apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceKind {
    pub color: Seat,
    /// A GIPF-piece (two basic pieces stacked, drawn as a double disc).
    pub gipf: bool,
}

impl PieceKind {
    pub const fn man(color: Seat) -> Self {
        PieceKind { color, gipf: false }
    }
}

/// Proportions of a piece, in cell units.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PieceStyle {
    pub radius: f32,
    /// Height of one piece; stacked pieces sit this far apart.
    pub height: f32,
    /// How a race piece looks: a tall rounded "pawn" instead of a flat disc.
    pub tall: bool,
}

/// Decorative board geometry, computed once per variant.
#[derive(Clone, Debug)]
pub struct Layout {
    pub cells: Vec<Cell>,
    /// Lines drawn on the board (GIPF's grid), in layout space.
    pub lines: Vec<(Vec2, Vec2)>,
    /// Labels around the board: text and where it goes.
    pub labels: Vec<(String, Vec2)>,
    pub piece: PieceStyle,
    /// Where each tray's first piece goes and the step to the next.
    pub trays: Vec<(Tray, Vec2, Vec2)>,
    /// Bounding box of the cells.
    pub min: Vec2,
    pub max: Vec2,
    /// Whether the board is hexagonal (GIPF), so the board slab is drawn as a hexagon.
    pub hex: bool,
    /// How the cells are arranged.
    pub grid: Grid,
    /// How many seats the table has (one snapshot tray of each kind per seat).
    pub seats: usize,
    /// Per seat, the direction of its home from the board's centre (radians, layout space,
    /// 0 = +x): the camera turns so that it points at the viewer.
    pub seat_angles: Vec<f32>,
    /// Per seat that races somewhere: the centre of the region it races to (where its
    /// placement shows once it has finished).
    pub goals: Vec<(Seat, Vec2)>,
    names: HashMap<String, CellId>,
}

impl Layout {
    /// Builds a layout from cells; computes the bounding box and the name index.
    pub fn new(cells: Vec<Cell>, piece: PieceStyle, hex: bool) -> Self {
        let mut min = Vec2::splat(f32::MAX);
        let mut max = Vec2::splat(f32::MIN);
        for c in &cells {
            min = min.min(c.at);
            max = max.max(c.at);
        }
        if cells.is_empty() {
            min = Vec2::ZERO;
            max = Vec2::ZERO;
        }
        let names = cells
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.clone(), CellId(i as u16)))
            .collect();
        Layout {
            cells,
            lines: Vec::new(),
            labels: Vec::new(),
            piece,
            trays: Vec::new(),
            min,
            max,
            hex,
            grid: if hex { Grid::Points } else { Grid::Square },
            seats: 2,
            seat_angles: vec![-std::f32::consts::FRAC_PI_2, std::f32::consts::FRAC_PI_2],
            goals: Vec::new(),
            names,
        }
    }

    /// The direction of `seat`'s home from the centre; seats of a table the layout does not
    /// know face the bottom (seat 0) or spread evenly around the board.
    pub fn seat_angle(&self, seat: Seat) -> f32 {
        self.seat_angles
            .get(seat.index())
            .copied()
            .unwrap_or_else(|| {
                let n = self.seats.max(1) as f32;
                -std::f32::consts::FRAC_PI_2 + seat.index() as f32 * std::f32::consts::TAU / n
            })
    }

    /// Where the placement of `seat` shows: the centre of its target region.
    pub fn goal(&self, seat: Seat) -> Option<Vec2> {
        self.goals
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, at)| *at)
    }

    /// The layout for a variant's board.
    pub fn for_variant(variant: &Variant) -> Layout {
        match &variant.rules {
            FamilyRules::Race(rules) => race::layout(rules),
            FamilyRules::Focus(rules) => focus::layout(rules),
            FamilyRules::Gipf(rules) => gipf::layout(rules),
        }
    }

    pub fn cell(&self, id: CellId) -> &Cell {
        &self.cells[id.index()]
    }

    pub fn id(&self, name: &str) -> Option<CellId> {
        self.names.get(name).copied()
    }

    pub fn ids(&self) -> impl Iterator<Item = CellId> + '_ {
        (0..self.cells.len()).map(|i| CellId(i as u16))
    }

    /// Centre of the cells' bounding box, in layout space.
    pub fn centre(&self) -> Vec2 {
        (self.min + self.max) / 2.0
    }

    /// A layout point on the board plane, `lift` above the board's surface.
    pub fn world(&self, at: Vec2, lift: f32) -> Vec3 {
        let c = self.centre();
        Vec3::new(at.x - c.x, lift, -(at.y - c.y))
    }

    /// Where the piece at `level` (0 = bottom) of `cell`'s stack stands (its bottom centre).
    pub fn slot_world(&self, cell: CellId, level: usize) -> Vec3 {
        self.world(
            self.cell(cell).at,
            SURFACE + level as f32 * self.piece.height,
        )
    }

    /// Where the `index`-th piece of a tray stands (trays fill a row, then stack).
    pub fn tray_world(&self, tray: Tray, index: usize) -> Vec3 {
        const PER_ROW: usize = 10;
        let Some((_, start, step)) = self.trays.iter().find(|(t, _, _)| *t == tray) else {
            // A family without trays never puts anything there; keep it off to the side.
            return self.world(self.max + Vec2::new(2.0, 0.0), 0.0);
        };
        let row = index / PER_ROW;
        let along = (index % PER_ROW) as f32;
        self.world(*start + *step * along, row as f32 * self.piece.height)
    }

    /// Half the larger side of the bounding box plus a margin: how far the camera must see.
    pub fn radius(&self) -> f32 {
        let half = (self.max - self.min) / 2.0;
        half.length() + 1.0
    }

    /// Half extents (x, y in layout space) of everything drawn, around the centre: cells,
    /// labels and a full first row of each tray, plus half a piece.
    pub fn half_extent(&self) -> Vec2 {
        self.half_extent_turned(0.0)
    }

    /// [`Self::half_extent`] of the board turned by `angle` (radians, anticlockwise in layout
    /// space) around its centre: what a camera turned that way must see.
    pub fn half_extent_turned(&self, angle: f32) -> Vec2 {
        let c = self.centre();
        let mut points: Vec<Vec2> = if angle == 0.0 || self.cells.is_empty() {
            vec![self.min, self.max]
        } else {
            self.cells.iter().map(|cell| cell.at).collect()
        };
        points.extend(self.labels.iter().map(|(_, at)| *at));
        for (_, start, step) in &self.trays {
            points.push(*start);
            points.push(*start + *step * 9.0);
        }
        let turn = Vec2::from_angle(angle);
        points
            .into_iter()
            .fold(Vec2::ZERO, |acc, p| acc.max(turn.rotate(p - c).abs()))
            + Vec2::splat(self.piece.radius + 0.3)
    }
}

/// Where pieces stand: a stack (bottom → top) per cell, plus the trays.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Snapshot {
    pub stacks: Vec<Vec<PieceKind>>,
    pub trays: Vec<(Tray, Vec<PieceKind>)>,
}

impl Snapshot {
    pub fn empty(layout: &Layout) -> Self {
        Snapshot {
            stacks: vec![Vec::new(); layout.cells.len()],
            trays: Tray::all(layout.seats).map(|t| (t, Vec::new())).collect(),
        }
    }

    pub fn tray(&self, tray: Tray) -> &[PieceKind] {
        self.trays
            .iter()
            .find(|(t, _)| *t == tray)
            .map(|(_, v)| v.as_slice())
            .unwrap_or(&[])
    }

    pub fn tray_mut(&mut self, tray: Tray) -> &mut Vec<PieceKind> {
        let i = match self.trays.iter().position(|(t, _)| *t == tray) {
            Some(i) => i,
            None => {
                self.trays.push((tray, Vec::new()));
                self.trays.len() - 1
            }
        };
        &mut self.trays[i].1
    }

    /// Pieces standing on the board.
    pub fn on_board(&self) -> usize {
        self.stacks.iter().map(Vec::len).sum()
    }

    /// The position's pieces as the view shows them.
    pub fn of(position: &AnyPosition, layout: &Layout) -> Snapshot {
        match position {
            AnyPosition::Race(p) => race::snapshot(p, layout),
            AnyPosition::Focus(p) => focus::snapshot(p, layout),
            AnyPosition::Gipf(p) => gipf::snapshot(p, layout),
        }
    }
}

/// Where a motion takes pieces from or puts them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Cell(CellId),
    Tray(Tray),
}

/// Which pieces of the source a motion takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Take {
    /// The top `n` pieces (a lifted part of a stack; 1 for a single piece).
    Top(usize),
    /// The bottom `n` pieces (Focus overflow).
    Bottom(usize),
    /// The topmost `n` pieces of this kind (from a tray, whose order does not matter).
    Kind(PieceKind, usize),
}

/// How pieces change on arrival: material counted in basic pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Reshape {
    #[default]
    Keep,
    /// A GIPF-piece becomes two basic pieces (returned to a reserve or captured).
    Split,
    /// The pieces become one GIPF-piece (a tournament GIPF-piece is made of two reserve pieces).
    Join,
}

/// Pieces travelling from one place to another during one [`Phase`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Motion {
    pub from: Place,
    pub take: Take,
    pub to: Place,
    pub reshape: Reshape,
}

impl Motion {
    /// Pieces moving unchanged.
    pub const fn carry(from: Place, take: Take, to: Place) -> Motion {
        Motion {
            from,
            take,
            to,
            reshape: Reshape::Keep,
        }
    }
}

/// How a phase's pieces travel, which decides its path and timing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PhaseKind {
    /// A step to a neighbouring cell: a low arc.
    Step,
    /// One jump of a chain (or a Focus move): a high arc.
    Hop,
    /// Pieces sliding along the board (GIPF entry and push).
    Slide,
    /// Pieces leaving the board for a tray (Focus overflow, GIPF row removal).
    Remove,
    /// A piece taken from a tray onto the board (Focus drop, GIPF piece put on a dot).
    Place,
}

/// One beat of a move's animation: motions that happen together, then a landing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    pub kind: PhaseKind,
    pub motions: Vec<Motion>,
    /// The cell the phase's landing sound and event refer to.
    pub landing: Option<CellId>,
}

/// A move's animation, phase by phase, in order.
pub type Script = Vec<Phase>;

/// The animation of a played move. `before` is the position the move was played in.
pub fn script(before: &AnyPosition, mv: &AnyMove, effect: &AnyEffect, layout: &Layout) -> Script {
    match (before, mv, effect) {
        (AnyPosition::Race(p), AnyMove::Race(m), AnyEffect::Race(e)) => {
            race::script(p, m, e, layout)
        }
        (AnyPosition::Focus(p), AnyMove::Focus(m), AnyEffect::Focus(e)) => {
            focus::script(p, m, e, layout)
        }
        (AnyPosition::Gipf(p), AnyMove::Gipf(m), AnyEffect::Gipf(e)) => {
            gipf::script(p, m, e, layout)
        }
        // A move of another family cannot have been played; nothing to animate.
        _ => Vec::new(),
    }
}

/// Applies a script to a snapshot: what the view will show once the animation has run.
/// Used by the animation to move entities, and by tests to check a script against the rules.
pub fn apply_motions(snapshot: &mut Snapshot, motions: &[Motion]) -> Result<(), ScriptError> {
    // Take everything first, then put: pieces of one phase move together (a GIPF push moves a
    // whole run one spot, which would otherwise stack the pieces onto each other).
    let mut carried = Vec::with_capacity(motions.len());
    for m in motions {
        let source = match m.from {
            Place::Cell(c) => snapshot
                .stacks
                .get_mut(c.index())
                .ok_or(ScriptError::NoSuchCell(c))?,
            Place::Tray(t) => snapshot.tray_mut(t),
        };
        let pieces = take(source, m.take, |k| Some(*k)).ok_or(ScriptError::NotEnoughPieces(*m))?;
        carried.push(reshape(pieces, m.reshape));
    }
    for (m, pieces) in motions.iter().zip(carried) {
        let target = match m.to {
            Place::Cell(c) => snapshot
                .stacks
                .get_mut(c.index())
                .ok_or(ScriptError::NoSuchCell(c))?,
            Place::Tray(t) => snapshot.tray_mut(t),
        };
        target.extend(pieces);
    }
    Ok(())
}

/// Removes the pieces `take` names from a stack, keeping their bottom → top order; `kind_of`
/// tells an element's piece kind (if known). `None` (and the stack unchanged) if they are not there.
pub fn take<T>(
    stack: &mut Vec<T>,
    take: Take,
    kind_of: impl Fn(&T) -> Option<PieceKind>,
) -> Option<Vec<T>> {
    match take {
        Take::Top(n) if n <= stack.len() => Some(stack.split_off(stack.len() - n)),
        Take::Bottom(n) if n <= stack.len() => Some(stack.drain(..n).collect()),
        Take::Kind(kind, n) => {
            let at: Vec<usize> = (0..stack.len())
                .rev()
                .filter(|&i| kind_of(&stack[i]) == Some(kind))
                .take(n)
                .collect();
            if at.len() < n {
                return None;
            }
            // `at` is descending, so removing in that order keeps the other indices valid.
            let mut taken: Vec<T> = at.into_iter().map(|i| stack.remove(i)).collect();
            taken.reverse();
            Some(taken)
        }
        _ => None,
    }
}

/// The pieces a motion delivers, after its [`Reshape`].
pub fn reshape(pieces: Vec<PieceKind>, how: Reshape) -> Vec<PieceKind> {
    match how {
        Reshape::Keep => pieces,
        Reshape::Split => pieces
            .into_iter()
            .flat_map(|p| {
                let n = if p.gipf { 2 } else { 1 };
                std::iter::repeat_n(PieceKind::man(p.color), n)
            })
            .collect(),
        Reshape::Join => pieces
            .first()
            .map(|p| PieceKind {
                color: p.color,
                gipf: true,
            })
            .into_iter()
            .collect(),
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    #[error("the script names cell {0:?}, which the board does not have")]
    NoSuchCell(CellId),
    #[error("the script moves pieces that are not there: {0:?}")]
    NotEnoughPieces(Motion),
}

/// One click of the player, as the input plugin sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Token {
    /// A cell (or a piece standing on it).
    Cell(CellId),
    /// A side's reserve (Focus drops).
    Reserve(Seat),
}

/// The clicks that name a legal move, in order (e.g. from-cell, to-cell).
#[derive(Clone, Debug)]
pub struct InputPath {
    pub mv: AnyMove,
    pub tokens: Vec<Token>,
    /// Focus: how many pieces the move lifts, so clicking a level of a tower (or scrolling)
    /// can narrow the targets.
    pub lift: Option<usize>,
    /// The move in the game's notation (what the chooser shows when clicks are not enough).
    pub notation: String,
}

/// Every legal move of the position with the clicks that choose it. Moves are in
/// `legal_moves` order; each move's tokens are unique among moves of the same position.
pub fn input_paths(position: &AnyPosition, layout: &Layout) -> Vec<InputPath> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter_map(|mv| {
            let (tokens, lift) = match (position, &mv) {
                (AnyPosition::Race(p), AnyMove::Race(m)) => (race::tokens(p, m, layout), None),
                (AnyPosition::Focus(p), AnyMove::Focus(m)) => {
                    (focus::tokens(p, m, layout), focus::lift(m))
                }
                (AnyPosition::Gipf(p), AnyMove::Gipf(m)) => (gipf::tokens(p, m, layout), None),
                _ => (None, None),
            };
            let notation = position.format_move(&mv);
            Some(InputPath {
                tokens: tokens?,
                mv,
                lift,
                notation,
            })
        })
        .collect()
}

/// Square-board helper: the layout of a `files × ranks` grid whose existing squares are
/// `exists(file, rank)`. Square names are chess-like (`a1` bottom-left from White's side;
/// ranks past 9 are two digits: `a16`).
pub fn square_grid(
    files: u8,
    ranks: u8,
    exists: impl Fn(u8, u8) -> bool,
    camp: impl Fn(u8, u8) -> Option<Seat>,
    piece: PieceStyle,
) -> Layout {
    let mut cells = Vec::new();
    for rank in 0..ranks {
        for file in 0..files {
            if !exists(file, rank) {
                continue;
            }
            cells.push(Cell {
                name: square_name(file, rank),
                at: Vec2::new(f32::from(file), f32::from(rank)),
                kind: CellKind::Square,
                camp: camp(file, rank),
                goal: None,
                dark: (file + rank) % 2 == 0,
            });
        }
    }
    let mut layout = Layout::new(cells, piece, false);
    // Square boards are labelled along the bottom and the left edge.
    for file in 0..files {
        layout.labels.push((
            char::from(b'a' + file).to_string(),
            Vec2::new(f32::from(file), -0.85),
        ));
    }
    for rank in 0..ranks {
        layout
            .labels
            .push(((rank + 1).to_string(), Vec2::new(-0.85, f32::from(rank))));
    }
    layout
}

/// `a1`-style name of a square, 0-based file and rank.
pub fn square_name(file: u8, rank: u8) -> String {
    format!("{}{}", char::from(b'a' + file), u16::from(rank) + 1)
}
