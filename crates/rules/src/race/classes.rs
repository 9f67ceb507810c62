//! Jump chains on boards of more than 64 cells that are not 16 squares wide (the Chinese
//! checkers star, hexagons, rectangles up to about 16 × 16), flooded one parity class at a time
//! in one word.
//!
//! A jump moves two cells along a line, so every landing of a chain keeps the parity of the
//! cell's file and rank (on a square grid and on a hex grid alike): a chain never leaves the
//! quarter of the board its piece stands on. A class's cell `(2x + a, 2y + b)` is bit
//! `W·y + x − low` of one `u64`, with the class's own row width `W` chosen so that the bits keep
//! the board's bit order (rank by rank, file by file) and fit the word; a jump is then a shift of
//! one word, and a wave of a flood a handful of shifts, as [`super::word_flood`] does for Ugolki
//! and for the classes of a 16-wide board ([`super::parity`]). The cells jumped over lie in the
//! other classes: they only decide, once per position, which cells of a class can jump which way
//! (the board's hop sets, gathered into the classes).
//!
//! Because the class bits keep the board's order, the flood gives the moves in the same order
//! and with the same representative paths as the square-by-square flood of `movegen`, whose
//! tests compare the two.
use super::{
    bitboard::{Bits, Wide},
    parity::{ClassGeometry, class_hop_sets},
    square::Square,
};

/// A cell's class and bit in it, packed: class << 6 | bit.
type Code = u8;

/// The class layout of one board, when every class fits a word in board order. Sets of the
/// board split by class are [`Wide`]s whose word `c` is class `c`.
#[derive(Clone, Debug)]
pub(crate) struct ClassTables {
    /// Per bit index of the board: the cell's [`Code`] (0 for a bit that is no cell).
    code: Vec<Code>,
    /// Per class and class bit: the board's bit index of that cell.
    index: [[u8; 64]; 4],
    /// Per class and class bit: the square of that cell (a1 for a bit that is no cell), so a
    /// chain's destination is one look-up.
    square: [[Square; 64]; 4],
    /// The bit distance of a jump in each direction (by `Dir::index`), the same in every class.
    pub land: [i8; 8],
    /// The directions the board moves in (bit `d` for `Dir::index` `d`).
    pub dirs: u8,
    /// The board's cells, by class.
    pub board: Wide,
    /// Per seat: its home, its target and where its moves may end, by class.
    pub homes: Vec<Wide>,
    pub targets: Vec<Wide>,
    pub rest: Vec<Wide>,
    /// Per direction, by class: the cells whose jump in that direction lands on the board.
    pub jump_ok: [Wide; 8],
    /// Per class and direction: the class of the cell jumped over, and the bit distance from a
    /// cell to the one it jumps over within that class.
    pub over: [[(u8, i8); 8]; 4],
}

impl ClassTables {
    /// The classes of a board whose cells (file, rank) are at bit `index(file, rank)`, moving
    /// in the directions `deltas` (by `Dir::index`; `None` for a direction it does not move
    /// in), or `None` when the classes do not fit one word each in board order or a bit index
    /// does not fit a byte. `homes`, `targets` and `rest` are per seat.
    pub fn new<B: Bits>(
        cells: &[(i32, i32)],
        index: impl Fn(i32, i32) -> usize,
        span: usize,
        deltas: [Option<(i32, i32)>; 8],
        (homes, targets, rest): (&[B], &[B], &[B]),
    ) -> Option<ClassTables> {
        if span > 256 {
            return None;
        }
        let class = |f: i32, r: i32| (f.rem_euclid(2) | r.rem_euclid(2) << 1) as usize;
        let half = |f: i32, r: i32| (f.div_euclid(2), r.div_euclid(2));
        // One row width for every class, so a jump is the same shift in each.
        let mut width = 1;
        for c in 0..4 {
            let mut members: Vec<(i32, i32)> = cells
                .iter()
                .filter(|&&(f, r)| class(f, r) == c)
                .map(|&(f, r)| half(f, r))
                .collect();
            members.sort_by_key(|&(x, y)| (y, x));
            width = width.max(row_width(&members));
        }
        let at = |f: i32, r: i32| {
            let (x, y) = half(f, r);
            width * y + x
        };
        let mut low = [i32::MAX; 4];
        let mut high = [i32::MIN; 4];
        for &(f, r) in cells {
            let c = class(f, r);
            low[c] = low[c].min(at(f, r));
            high[c] = high[c].max(at(f, r));
        }
        if (0..4).any(|c| low[c] <= high[c] && high[c] - low[c] >= 64) {
            return None;
        }
        let on_board: std::collections::HashSet<(i32, i32)> = cells.iter().copied().collect();
        let on = |f: i32, r: i32| on_board.contains(&(f, r));
        let bit = |f: i32, r: i32| (at(f, r) - low[class(f, r)]) as usize;
        let mut code = vec![0; span];
        let mut to_index = [[0u8; 64]; 4];
        let mut board = Wide::EMPTY;
        let mut jump_ok = [Wide::EMPTY; 8];
        for &(f, r) in cells {
            let (c, h) = (class(f, r), bit(f, r));
            let i = index(f, r);
            code[i] = (c << 6 | h) as u8;
            to_index[c][h] = i as u8;
            board.0[c] |= 1 << h;
            for (d, delta) in deltas.iter().enumerate() {
                if let Some((dx, dy)) = *delta
                    && on(f + 2 * dx, r + 2 * dy)
                {
                    jump_ok[d].0[c] |= 1 << h;
                }
            }
        }
        let mut land = [0i8; 8];
        let mut over = [[(0u8, 0i8); 8]; 4];
        let mut dirs = 0u8;
        for (d, delta) in deltas.iter().enumerate() {
            let Some((dx, dy)) = *delta else { continue };
            dirs |= 1 << d;
            land[d] = i8::try_from(width * dy + dx).ok()?;
            for (c, over) in over.iter_mut().enumerate() {
                let (a, b) = ((c & 1) as i32 + dx, (c >> 1) as i32 + dy);
                let to = class(a, b);
                let distance = width * b.div_euclid(2) + a.div_euclid(2) + low[c] - low[to];
                over[d] = (to as u8, i8::try_from(distance).ok()?);
            }
        }
        let mut tables = ClassTables {
            code,
            index: to_index,
            square: [[Square::from_code(0); 64]; 4],
            land,
            dirs,
            board,
            homes: Vec::new(),
            targets: Vec::new(),
            rest: Vec::new(),
            jump_ok,
            over,
        };
        tables.homes = homes.iter().map(|s| tables.split(s)).collect();
        tables.targets = targets.iter().map(|s| tables.split(s)).collect();
        tables.rest = rest.iter().map(|s| tables.split(s)).collect();
        Some(tables)
    }

    /// The class and class bit of the cell at bit index `i`, packed (class << 6 | bit).
    #[inline(always)]
    pub fn code(&self, i: usize) -> usize {
        usize::from(self.code[i])
    }

    /// The class and class bit of the cell at bit index `i`.
    #[inline(always)]
    pub fn class_bit(&self, i: usize) -> (usize, usize) {
        let code = self.code[i];
        (usize::from(code >> 6), usize::from(code & 63))
    }

    /// The board's bit index of bit `h` of class `c`.
    #[cfg(test)]
    pub fn index_of(&self, c: usize, h: usize) -> usize {
        usize::from(self.index[c][h])
    }

    /// Fills the squares of the class bits from the square of every bit index.
    pub fn name_squares(&mut self, squares: &[Square]) {
        for (c, row) in self.square.iter_mut().enumerate() {
            for (h, square) in row.iter_mut().enumerate() {
                if self.board.0[c] >> h & 1 == 1 {
                    *square = squares[usize::from(self.index[c][h])];
                }
            }
        }
    }

    /// The square of bit `h` of class `c` (a1 if that bit is no cell).
    #[inline(always)]
    pub fn square(&self, c: usize, h: usize) -> Square {
        self.square[c][h & 63]
    }

    /// A set of the board (of cells only) split by class.
    pub fn split<B: Bits>(&self, set: &B) -> Wide {
        let mut out = Wide::EMPTY;
        for i in set.iter() {
            let (c, h) = self.class_bit(i);
            out.0[c] |= 1 << h;
        }
        out
    }

    /// The hop sets of class `c` (see [`super::parity::hop_sets`]): per direction, the cells
    /// of the class a chain can jump from in that direction. Written in place; returns every
    /// cell of the class that can jump at all. `DIRS` must hold every direction of
    /// [`Self::dirs`] (it may hold more).
    #[inline(always)]
    pub fn hop_sets<const DIRS: u8>(
        &self,
        c: usize,
        occupied: &Wide,
        rules: &([Wide; 3], [Wide; 3]),
        phases: usize,
        sets: &mut [u64; 8],
    ) -> u64 {
        let geometry = ClassGeometry {
            over: &self.over[c],
            land: &self.land,
            jump_ok: &self.jump_ok,
        };
        class_hop_sets::<DIRS>(geometry, c, occupied, rules, phases, sets)
    }
}

/// The smallest row width that keeps the class's cells (sorted rank by rank, then file) in
/// order: every cell of a row before every cell of a later row.
fn row_width(members: &[(i32, i32)]) -> i32 {
    let mut rows: Vec<(i32, i32, i32)> = Vec::new(); // (row, lowest x, highest x)
    for &(x, y) in members {
        match rows.last_mut() {
            Some(row) if row.0 == y => row.2 = x,
            _ => rows.push((y, x, x)),
        }
    }
    let mut width = 1;
    for (i, &(y1, _, hi)) in rows.iter().enumerate() {
        for &(y2, lo, _) in &rows[i + 1..] {
            width = width.max((hi - lo).div_euclid(y2 - y1) + 1);
        }
    }
    width
}

#[cfg(test)]
mod tests {
    use super::super::square::Directions;
    use super::*;

    /// The star's 121 cells: four classes, each in one word in board order.
    #[test]
    fn the_star_fits_four_words_in_board_order() {
        let mut cells = Vec::new();
        for q in -8i32..=8 {
            for r in -8i32..=8 {
                let lower = q >= -4 && r >= -4 && q + r <= 4;
                let upper = q <= 4 && r <= 4 && q + r >= -4;
                if lower || upper {
                    cells.push((q + 8, r + 8));
                }
            }
        }
        assert_eq!(cells.len(), 121);
        // Bit indices in board order (rank by rank, then file), as the rules lay a board out.
        cells.sort_by_key(|&(f, r)| (r, f));
        let index = |f: i32, r: i32| cells.iter().position(|&c| c == (f, r)).unwrap();
        let mut deltas = [None; 8];
        for d in Directions::Hex.iter() {
            let (dx, dy) = d.delta();
            deltas[usize::from(d.index())] = Some((i32::from(dx), i32::from(dy)));
        }
        let t = ClassTables::new::<u64>(&cells, index, 121, deltas, (&[], &[], &[])).expect("fits");
        // Every jump: the cell jumped over and the landing are where the tables say.
        for &(f, r) in &cells {
            let (c, h) = t.class_bit(index(f, r));
            for (d, delta) in deltas.iter().enumerate() {
                let Some((dx, dy)) = *delta else { continue };
                let lands = cells.contains(&(f + 2 * dx, r + 2 * dy));
                assert_eq!(t.jump_ok[d].0[c] >> h & 1 == 1, lands);
                if !lands || !cells.contains(&(f + dx, r + dy)) {
                    continue;
                }
                let (oc, os) = t.over[c][d];
                let (mc, mh) = t.class_bit(index(f + dx, r + dy));
                assert_eq!(
                    (usize::from(oc), h as isize + isize::from(os)),
                    (mc, mh as isize)
                );
                let (lc, lh) = t.class_bit(index(f + 2 * dx, r + 2 * dy));
                assert_eq!((lc, lh as isize), (c, h as isize + isize::from(t.land[d])));
            }
        }
        let mut seen = [0u64; 4];
        let mut by_index: Vec<_> = cells.iter().map(|&(f, r)| index(f, r)).collect();
        by_index.sort();
        let mut last = [None; 4];
        for i in by_index {
            let (c, h) = t.class_bit(i);
            assert_eq!(seen[c] >> h & 1, 0, "two cells share a bit");
            seen[c] |= 1 << h;
            assert_eq!(t.index_of(c, h), i);
            assert!(last[c] < Some(h), "class bits keep the board's order");
            last[c] = Some(h);
        }
        assert_eq!(seen.iter().map(|w| w.count_ones()).sum::<u32>(), 121);
    }
}
