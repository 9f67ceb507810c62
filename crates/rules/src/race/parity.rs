//! Jump chains on boards 16 squares wide (Halma 16×16), flooded one parity class at a time.
//!
//! Every landing of a chain keeps the parity of file and rank, so a chain never leaves the
//! quarter of the board its piece stands on: the squares of one (file parity, rank parity)
//! class, an 8×8 grid at most. Squeezed into one `u64` each (a class's square (2x+a, 2y+b) is
//! bit 8y + x), a jump is a shift of one word, exactly like a king's step on a chess bitboard,
//! and a whole wave of a flood is eight shifts of one word instead of sixteen wide shifts
//! across four. The squares jumped over are in the other classes; they only decide, once per
//! position, which squares of a class can jump in which direction (the class's hop sets).
//!
//! A class is flooded by [`super::word_flood`], which gives the same records as the
//! square-by-square flood of `movegen` (first wave, and within a wave the first direction N, NE,
//! E, …), so the moves, their order and their representative paths are the same; `movegen`'s
//! tests compare the two on random games.
use super::{
    bitboard::{Bits, Wide},
    square::{Dir, Directions},
};

/// The class of bit index `i` of a 16-wide board: file parity + 2 × rank parity.
#[inline(always)]
pub(crate) const fn class_of(i: usize) -> usize {
    (i & 1) | (i >> 3 & 2)
}

/// The bit of bit index `i` of a 16-wide board within its class: 8 × (rank / 2) + file / 2.
#[inline(always)]
pub(crate) const fn half_of(i: usize) -> usize {
    (i >> 5) << 3 | (i & 15) >> 1
}

/// The bit index of a 16-wide board of bit `h` of class `c` (the inverse of the two above).
#[inline(always)]
pub(crate) const fn index_of(c: usize, h: usize) -> usize {
    ((h >> 3) << 1 | c >> 1) << 4 | (h & 7) << 1 | (c & 1)
}

/// The bit of bit index `i` in a set arranged by class (word `class_of(i)`, bit `half_of(i)`).
#[inline(always)]
pub(crate) const fn class_bit(i: usize) -> usize {
    class_of(i) << 6 | half_of(i)
}

/// One word of a 16-wide board (four ranks of 16 squares) into its four classes' 16-bit shares:
/// lanes (in the order of the result) class 0, class 2, class 1, class 3.
#[inline(always)]
fn split_word(mut x: u64) -> u64 {
    // Even bits (files a, c, …) to the low half, odd bits to the high half (Hacker's Delight
    // 7-2, the outer perfect unshuffle): bytes 0–3 are the even files of ranks 0–3.
    let mut t = (x ^ (x >> 1)) & 0x2222_2222_2222_2222;
    x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0C0C_0C0C_0C0C_0C0C;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00F0_00F0_00F0_00F0;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 8)) & 0x0000_FF00_0000_FF00;
    x ^= t ^ (t << 8);
    t = (x ^ (x >> 16)) & 0x0000_0000_FFFF_0000;
    x ^= t ^ (t << 16);
    // Bytes 1 and 2 (and 5 and 6) change places, so each 16-bit lane holds the even ranks or
    // the odd ranks of one file parity.
    t = (x ^ (x >> 8)) & 0x0000_FF00_0000_FF00;
    x ^ t ^ (t << 8)
}

/// A set of a 16-wide board (its words) as its four classes: word `c` holds class `c`.
#[inline]
pub(crate) fn split<B: Bits>(set: &B) -> Wide {
    let mut out = [0u64; 4];
    for k in 0..B::WORDS.min(4) {
        let x = split_word(set.word(k));
        let s = 16 * k;
        out[0] |= (x & 0xffff) << s;
        out[2] |= (x >> 16 & 0xffff) << s;
        out[1] |= (x >> 32 & 0xffff) << s;
        out[3] |= (x >> 48) << s;
    }
    Wide(out)
}

/// Per direction (by [`Dir::index`]): the bit distance of one jump within a class.
pub(crate) const LAND: [i8; 8] = {
    let mut land = [0; 8];
    let mut d = 0;
    while d < 8 {
        let (dx, dy) = Dir::from_index(d as u8).delta();
        land[d] = dx + 8 * dy;
        d += 1;
    }
    land
};

/// Per direction (by [`Dir::index`]): the bit distance of one jump on the 16-wide board.
pub(crate) const JUMP: [isize; 8] = {
    let mut jump = [0; 8];
    let mut d = 0;
    while d < 8 {
        let (dx, dy) = Dir::from_index(d as u8).delta();
        jump[d] = 2 * (dx as isize + 16 * dy as isize);
        d += 1;
    }
    jump
};

/// The directions in the order of where a jump in them lands (ascending [`LAND`]).
pub(crate) const BY_LANDING: [usize; 8] = {
    let mut order = [0, 1, 2, 3, 4, 5, 6, 7];
    // Insertion sort: a const fn has no `sort`.
    let mut i = 1;
    while i < 8 {
        let mut j = i;
        while j > 0 && LAND[order[j - 1]] > LAND[order[j]] {
            let t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    order
};

/// `x` moved by `n` bits towards higher bits (`n` may be negative).
#[inline(always)]
pub(crate) fn shift(x: u64, n: i8) -> u64 {
    if n >= 0 { x << n } else { x >> -n }
}

/// The geometry of a 16-wide board in classes.
#[derive(Clone, Debug)]
pub(crate) struct ParityTables {
    pub board: Wide,
    /// Per seat: its home and its target, split by class.
    pub homes: Vec<Wide>,
    pub targets: Vec<Wide>,
    /// Per direction (by [`Dir::index`]), per class: the squares whose jump in that direction
    /// stays on the board (none for a direction the variant does not move in).
    pub jump_ok: [Wide; 8],
    /// The bit distances of a square's eight neighbours, ascending (so in the order of the
    /// squares). A table field, not a constant: the list's loop over it measured faster so.
    pub neighbours: [isize; 8],
    /// Per class and direction: the class of the square jumped over, and the bit distance from
    /// a square to the one it jumps over within that class.
    pub over: [[(u8, i8); 8]; 4],
}

impl ParityTables {
    /// For a board 16 squares wide and at most 16 high.
    pub fn new(
        height: u8,
        directions: Directions,
        homes: &[Wide],
        targets: &[Wide],
    ) -> ParityTables {
        let h = i32::from(height);
        let on = |f: i32, r: i32| (0..16).contains(&f) && (0..h).contains(&r);
        let mut board = Wide::EMPTY;
        let mut jump_ok = [Wide::EMPTY; 8];
        for r in 0..h {
            for f in 0..16 {
                let i = (r * 16 + f) as usize;
                let (c, bit) = (class_of(i), 1u64 << half_of(i));
                board.0[c] |= bit;
                for d in directions.iter() {
                    let (dx, dy) = d.delta();
                    if on(f + 2 * i32::from(dx), r + 2 * i32::from(dy)) {
                        jump_ok[usize::from(d.index())].0[c] |= bit;
                    }
                }
            }
        }
        let mut over = [[(0u8, 0i8); 8]; 4];
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            for (c, over) in over.iter_mut().enumerate() {
                let (a, b) = ((c & 1) as i8 + dx, (c >> 1) as i8 + dy);
                let class = (a & 1) as u8 | ((b & 1) as u8) << 1;
                over[usize::from(d.index())] = (class, a.div_euclid(2) + 8 * b.div_euclid(2));
            }
        }
        ParityTables {
            board,
            homes: homes.iter().map(split).collect(),
            targets: targets.iter().map(split).collect(),
            neighbours: [-17, -16, -15, -1, 1, 15, 16, 17],
            jump_ok,
            over,
        }
    }
}

/// The hop sets of one class: per direction, the squares of the class a chain can jump from in
/// that direction — a piece next door, and a landing the flight allows from the square's phase
/// (`here[p]`: the class's squares of phase p, `allowed[p]`: the landings allowed from there).
/// Written in place, and returns every square of the class that can jump at all.
#[inline(always)]
pub(crate) fn hop_sets(
    pt: &ParityTables,
    c: usize,
    occupied: &Wide,
    rules: &([Wide; 3], [Wide; 3]),
    phases: usize,
    sets: &mut [u64; 8],
) -> u64 {
    let geometry = ClassGeometry {
        over: &pt.over[c],
        land: &LAND,
        jump_ok: &pt.jump_ok,
    };
    class_hop_sets::<{ super::word_flood::ALL_DIRS }>(geometry, c, occupied, rules, phases, sets)
}

/// What the hop sets of a class are read from: per direction, the class of the square jumped
/// over and its bit distance, the bit distance of the landing, and the squares whose jump stays
/// on the board (by class).
#[derive(Clone, Copy)]
pub(crate) struct ClassGeometry<'a> {
    pub over: &'a [(u8, i8); 8],
    pub land: &'a [i8; 8],
    pub jump_ok: &'a [Wide; 8],
}

/// [`hop_sets`] for any board laid out in classes (16-wide boards here, others in
/// [`super::classes`]), in the directions `DIRS` (bit `d` for direction `d`; the sets of the
/// others are left empty).
#[inline(always)]
pub(crate) fn class_hop_sets<const DIRS: u8>(
    g: ClassGeometry<'_>,
    c: usize,
    occupied: &Wide,
    (here, allowed): &([Wide; 3], [Wide; 3]),
    phases: usize,
    sets: &mut [u64; 8],
) -> u64 {
    let mut any = 0;
    super::word_flood::unroll_dirs!(d => {
        if DIRS >> d & 1 == 0 {
            sets[d] = 0;
        } else {
            // Rotations, not shifts by a signed amount (a branch or two shifts each): the
            // result is kept only on cells whose jump lands on the board (`jump_ok`), whose
            // neighbour and landing bits lie in their words, so nothing that wraps is kept.
            let (oc, os) = g.over[d];
            let over = occupied.0[usize::from(oc)].rotate_right(os as u32 & 63);
            let ld = g.land[d] as u32 & 63;
            let mut landing = 0;
            for p in 0..phases {
                landing |= here[p].0[c] & allowed[p].0[c].rotate_right(ld);
            }
            sets[d] = g.jump_ok[d].0[c] & over & landing;
            any |= sets[d];
        }
    });
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_index_and_invert() {
        for i in 0..256 {
            let (c, h) = (class_of(i), half_of(i));
            assert_eq!(c, (i % 16) % 2 + 2 * ((i / 16) % 2));
            assert_eq!(h, 8 * (i / 32) + (i % 16) / 2);
            assert_eq!(index_of(c, h), i);
        }
    }

    #[test]
    fn split_puts_every_square_in_its_class() {
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..200 {
            let mut w = Wide::EMPTY;
            for k in 0..4 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                w.0[k] = x;
            }
            let mut expected = [0u64; 4];
            for i in w.iter() {
                expected[class_of(i)] |= 1 << half_of(i);
            }
            assert_eq!(split(&w).0, expected);
        }
    }

    #[test]
    fn jumps_over_the_square_between() {
        let pt = ParityTables::new(16, Directions::All, &[Wide::EMPTY; 2], &[Wide::EMPTY; 2]);
        for i in 0..256usize {
            let (f, r) = ((i % 16) as i32, (i / 16) as i32);
            for d in Dir::ALL {
                let (dx, dy) = d.delta();
                let (dx, dy) = (i32::from(dx), i32::from(dy));
                let (c, h) = (class_of(i), half_of(i));
                let ok = pt.jump_ok[usize::from(d.index())].0[c] >> h & 1 == 1;
                let lands = (0..16).contains(&(f + 2 * dx)) && (0..16).contains(&(r + 2 * dy));
                assert_eq!(ok, lands);
                if !lands {
                    continue;
                }
                let mid = ((r + dy) * 16 + f + dx) as usize;
                let (oc, os) = pt.over[c][usize::from(d.index())];
                assert_eq!(usize::from(oc), class_of(mid));
                assert_eq!(h as isize + isize::from(os), half_of(mid) as isize);
                let to = ((r + 2 * dy) * 16 + f + 2 * dx) as usize;
                assert_eq!(class_of(to), c);
                let ld = LAND[usize::from(d.index())];
                assert_eq!(h as isize + isize::from(ld), half_of(to) as isize);
            }
        }
    }
}
