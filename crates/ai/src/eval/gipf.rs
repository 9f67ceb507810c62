//! Evaluation of GIPF positions.
//!
//! A player loses when his reserve runs dry (official rules), when his last GIPF-piece leaves
//! the board (standard, tournament) or when nothing of his is left (seed variant). So under the
//! official rules the reserve is life; pieces on the board are material still owned (a row
//! brings them back) but committed; captured pieces are gone. Under the seed rules only the
//! material alive counts, wherever it is. Rows decide the game: three of a colour in four spots
//! of a line with the fourth free is a threat of taking a row (own pieces back, the opponent's
//! in the extension captured), two is the start of one. Central spots lie on longer lines and
//! take part in more rows.
use boardcraft_rules::{
    Position, Seat,
    gipf::{GipfMove, GipfPosition, LoseWhen, geometry::geometry},
};

use super::Evaluate;

/// Per basic piece in reserve (a GIPF-piece in reserve counts twice).
const RESERVE: i32 = 100;
/// Seed rules (you lose when nothing of yours is left, and pieces can step instead of
/// entering): every unit alive counts alike, wherever it stands.
const ALIVE_SEED: i32 = 150;
/// Per unit on the board.
const ON_BOARD: i32 = 45;
/// A reserve this small is one bad exchange from running out (per missing piece, squared).
const LOW_RESERVE: i32 = 30;
const LOW_RESERVE_BELOW: i32 = 5;
/// Standard/tournament: a side down to its last GIPF-piece (second-to-last: a third of it).
const LAST_GIPF: i32 = 400;
/// Three own pieces in four spots of a line, the fourth empty.
const THREAT3: i32 = 70;
/// Two own pieces in four spots of a line, the others empty.
const THREAT2: i32 = 12;
/// Per piece, per ring closer to the centre (ring 3 is the rim).
const CENTRE: i32 = 6;
const TEMPO: i32 = 30;

impl Evaluate for GipfPosition {
    fn evaluate(&self) -> i32 {
        let rules = self.rules();
        let g = geometry();
        let mut side = [0i32; 2];
        for c in Seat::BOTH {
            let reserve = (self.reserve(c) + 2 * self.gipf_reserve(c)) as i32;
            let board = self.board_units(c) as i32;
            let mut v = match rules.lose_when {
                LoseWhen::ReserveEmpty => {
                    let short = (LOW_RESERVE_BELOW - reserve).max(0);
                    RESERVE * reserve + ON_BOARD * board - LOW_RESERVE * short * short
                }
                LoseWhen::NoPiecesLeft => ALIVE_SEED * (reserve + board),
            };
            if rules.lose_without_gipf && self.has_moved(c) {
                match self.gipf_on_board(c) {
                    1 => v -= LAST_GIPF,
                    2 => v -= LAST_GIPF / 3,
                    _ => {}
                }
            }
            side[c.index()] = v;
        }
        // Row potential along the 21 lines, 4-spot windows. A spot counts 1 for White and 8
        // for Black, so a window's sum holds both counts (at most 4 each); it slides one spot
        // at a time.
        const THREAT: [i32; 5] = [0, 0, THREAT2, THREAT3, 0];
        let mut cells = [0u32; 7];
        for line in &g.lines {
            let spots = line.ray.spots();
            for (cell, &s) in cells.iter_mut().zip(spots) {
                *cell = match self.piece_at(s).map(|p| p.color) {
                    Some(Seat::WHITE) => 1,
                    Some(_) => 8,
                    None => 0,
                };
            }
            let cells = &cells[..spots.len()];
            if cells.len() < 4 {
                continue;
            }
            let mut sum: u32 = cells[..4].iter().sum();
            for i in 0..=cells.len() - 4 {
                if i > 0 {
                    sum = sum + cells[i + 3] - cells[i - 1];
                }
                let (white, black) = ((sum & 7) as usize, (sum >> 3) as usize);
                if black == 0 {
                    side[Seat::WHITE.index()] += THREAT[white];
                }
                if white == 0 {
                    side[Seat::BLACK.index()] += THREAT[black];
                }
            }
        }
        for s in boardcraft_rules::gipf::Spot::all() {
            if let Some(p) = self.piece_at(s) {
                let (x, y, z) = g.cube(s);
                let ring = i32::from(x.unsigned_abs().max(y.unsigned_abs()).max(z.unsigned_abs()));
                side[p.color.index()] += CENTRE * (3 - ring);
            }
        }
        let me = self.side_to_move();
        side[me.index()] - side[me.other().index()] + TEMPO
    }

    /// Moves that take rows first, the more of the opponent's pieces the better.
    fn order_hint(&self, mv: &GipfMove) -> i32 {
        let me = self.side_to_move();
        let removed = mv.removal();
        if removed.is_empty() {
            return 0;
        }
        let captured = removed
            .iter()
            .filter(|&s| self.piece_at(s).is_some_and(|p| p.color != me))
            .count() as i32;
        200 + 300 * captured + 20 * removed.len() as i32
    }
}
