//! Boards on a hex grid (the race family's `directions: Hex`): the rules name a cell by its
//! axial coordinates (file, rank), and the view places it so that all six neighbours are one
//! unit away, each rank half a cell further right than the one below it.
use bevy::math::Vec2;
use boardcraft_rules::Seat;

use super::{Cell, CellKind, Grid, Layout, PieceStyle, square_name};

/// The height of one rank: rows of a hex grid are closer than its cells are wide.
pub const ROW: f32 = 0.866_025_4;

/// Where the cell at axial (`file`, `rank`) goes in layout space.
pub fn at(file: u8, rank: u8) -> Vec2 {
    Vec2::new(
        f32::from(file) + f32::from(rank) / 2.0,
        f32::from(rank) * ROW,
    )
}

/// Half the distance between the centres of neighbouring cells' outer corners: the
/// circumradius of a cell's hexagon when the cells tile the board.
pub const CELL_RADIUS: f32 = 0.577_350_3;

/// The layout of the hex-grid cells `cells` (file, rank), with the seat whose home each cell
/// is in (`camp`) and, for cells of no home, the seat that races there (`goal`).
pub fn hex_grid(
    cells: impl IntoIterator<Item = (u8, u8)>,
    camp: impl Fn(u8, u8) -> Option<Seat>,
    goal: impl Fn(u8, u8) -> Option<Seat>,
    piece: PieceStyle,
) -> Layout {
    let coords: Vec<(u8, u8)> = cells.into_iter().collect();
    let cells = coords
        .iter()
        .map(|&(file, rank)| Cell {
            name: square_name(file, rank),
            at: at(file, rank),
            kind: CellKind::Square,
            camp: camp(file, rank),
            goal: goal(file, rank),
            dark: false,
        })
        .collect();
    let mut layout = Layout::new(cells, piece, false);
    layout.grid = Grid::Hex;
    layout.labels = labels(&coords);
    layout
}

/// A file's letter below the lowest cell of its line (files run up and to the right, so the
/// letter sits below and to the left), a rank's number at the right end of its row: on a star
/// the left ends of some rows are the lower ends of some files, and two labels there would
/// crowd each other out.
fn labels(coords: &[(u8, u8)]) -> Vec<(String, Vec2)> {
    const OFF: f32 = 0.85;
    let mut labels = Vec::new();
    let ranks = coords.iter().map(|c| c.1).max().map_or(0, |r| r + 1);
    let files = coords.iter().map(|c| c.0).max().map_or(0, |f| f + 1);
    for file in 0..files {
        if let Some(rank) = coords.iter().filter(|c| c.0 == file).map(|c| c.1).min() {
            let below = at(file, rank) - Vec2::new(0.5, ROW) * OFF;
            labels.push((char::from(b'a' + file).to_string(), below));
        }
    }
    for rank in 0..ranks {
        if let Some(file) = coords.iter().filter(|c| c.1 == rank).map(|c| c.0).max() {
            let right = at(file, rank) + Vec2::new(OFF, 0.0);
            labels.push(((u16::from(rank) + 1).to_string(), right));
        }
    }
    labels
}

#[cfg(test)]
mod tests {
    use super::*;

    const STYLE: PieceStyle = PieceStyle {
        radius: 0.34,
        height: 0.46,
        tall: true,
    };

    /// The six axial neighbour offsets of a hex grid.
    const NEIGHBOURS: [(i8, i8); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

    #[test]
    fn every_neighbour_is_one_unit_away() {
        let centre = at(5, 5);
        for (df, dr) in NEIGHBOURS {
            let n = at((5 + df) as u8, (5 + dr) as u8);
            assert!((n.distance(centre) - 1.0).abs() < 1e-5, "{df},{dr}");
        }
    }

    #[test]
    fn cells_that_are_not_neighbours_are_further() {
        // (1, 1) and (2, -1) are the next ring's nearest cells: √3 away.
        let centre = at(5, 5);
        for (df, dr) in [(1i8, 1i8), (2, -1), (-1, -1), (-2, 1)] {
            let d = at((5 + df) as u8, (5 + dr) as u8).distance(centre);
            assert!((d - 3f32.sqrt()).abs() < 1e-5, "{df},{dr}: {d}");
        }
    }

    #[test]
    fn a_hexagon_is_symmetric_around_its_centre() {
        // Hexagon(3) in axial coordinates: |q|, |r|, |q + r| ≤ 2 around (2, 2).
        let cells: Vec<(u8, u8)> = (0..5u8)
            .flat_map(|r| (0..5u8).map(move |f| (f, r)))
            .filter(|&(f, r)| {
                let (q, s) = (i16::from(f) - 2, i16::from(r) - 2);
                q.abs() <= 2 && s.abs() <= 2 && (q + s).abs() <= 2
            })
            .collect();
        assert_eq!(cells.len(), 19);
        let layout = hex_grid(cells, |_, _| None, |_, _| None, STYLE);
        assert_eq!(layout.grid, Grid::Hex);
        let c = layout.centre();
        assert!(c.distance(at(2, 2)) < 1e-5, "{c}");
        // Its width is 4 cells, its height 4 rows.
        assert!(((layout.max.x - layout.min.x) - 4.0).abs() < 1e-5);
        assert!(((layout.max.y - layout.min.y) - 4.0 * ROW).abs() < 1e-5);
        // One label per rank and per file, none on a cell.
        assert_eq!(layout.labels.len(), 10);
        for (text, p) in &layout.labels {
            for cell in &layout.cells {
                assert!(
                    cell.at.distance(*p) > 0.5,
                    "{text} at {p} is on {}",
                    cell.name
                );
            }
        }
    }

    #[test]
    fn cells_keep_their_chess_like_names() {
        let layout = hex_grid([(0, 0), (1, 0), (0, 1)], |_, _| None, |_, _| None, STYLE);
        assert_eq!(layout.id("a2").map(|id| layout.cell(id).at), Some(at(0, 1)));
        assert_eq!(at(0, 1), Vec2::new(0.5, ROW));
    }
}
