//! The text printout of a position (CLI, logs, test failures).
use std::fmt;

use super::{
    geometry::{Dot, Point, Spot, point_name_parts},
    position::GipfPosition,
};
use crate::{Position, Seat};

/// Every point with its printout coordinates: column 0…8 and half-step level 0…16 (bottom up).
fn layout() -> Vec<(Point, usize, usize)> {
    Spot::all()
        .map(Point::Spot)
        .chain(Dot::all().map(Point::Dot))
        .map(|p| {
            let (col, n) = point_name_parts(p);
            let offset = (col as isize - 4).unsigned_abs();
            (p, col as usize, offset + 2 * (n as usize - 1))
        })
        .collect()
}

impl fmt::Display for GipfPosition {
    /// The board as a hexagon seen from White (columns a…i left to right, `*` = dot on the
    /// rim, `.` = empty spot, `o`/`O` White, `x`/`X` Black, capitals = GIPF-pieces), the names
    /// of each printed row's points on the right, then reserves, captures and whose turn it is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let points = layout();
        for level in (0..=16).rev() {
            let mut row: Vec<(usize, Point)> = points
                .iter()
                .filter(|(_, _, l)| *l == level)
                .map(|&(p, col, _)| (col, p))
                .collect();
            row.sort_by_key(|&(col, _)| col);
            let mut line = vec![' '; 9 * 4];
            for &(col, p) in &row {
                line[2 + col * 4] = match p {
                    Point::Dot(_) => '*',
                    Point::Spot(s) => self.piece_at(s).map_or('.', |pc| pc.symbol()),
                };
            }
            let names: Vec<String> = row.iter().map(|(_, p)| p.to_string()).collect();
            let line: String = line.into_iter().collect();
            writeln!(f, "{line}   {}", names.join(" "))?;
        }
        writeln!(f, "  a   b   c   d   e   f   g   h   i")?;
        for c in Seat::BOTH {
            let (basic, gipf) = match c {
                Seat::WHITE => ('o', 'O'),
                _ => ('x', 'X'),
            };
            write!(
                f,
                "{c} ({basic}, {gipf} = GIPF): reserve {}",
                self.reserve(c)
            )?;
            if self.rules().gipf_reserve != [0, 0] || self.gipf_reserve(c) > 0 {
                write!(f, " + {} GIPF", self.gipf_reserve(c))?;
            }
            writeln!(
                f,
                ", on board {} ({} GIPF), lost {}",
                self.board_units(c),
                self.gipf_on_board(c),
                self.captured(c)
            )?;
        }
        match self.outcome() {
            Some(o) => writeln!(f, "Ply {}: game over, {o}", self.ply())?,
            None => writeln!(f, "Ply {}: {} to move", self.ply(), self.side_to_move())?,
        }
        if let Some(opts) = self.pending_removal() {
            let opts: Vec<String> = opts.iter().map(|s| format!("x{s}")).collect();
            writeln!(
                f,
                "{} first removes one of his row choices: {}",
                self.side_to_move(),
                opts.join(" | ")
            )?;
        }
        let settled = self.state().settled;
        if settled != 0 {
            let g = super::geometry::geometry();
            let lines: Vec<String> = (0..g.lines.len())
                .filter(|l| settled & (1 << l) != 0)
                .map(|l| {
                    let s = g.lines[l].ray.spots();
                    format!("{}–{}", s[0], s[s.len() - 1])
                })
                .collect();
            writeln!(
                f,
                "Rows kept whole (not offered again until their line changes): {}",
                lines.join(", ")
            )?;
        }
        Ok(())
    }
}
