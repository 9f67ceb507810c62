//! A breadth-first flood of jump chains over one 64-bit set: a board of at most 64 squares
//! (Ugolki), or one parity class of a 16-wide board (Halma 16×16, see [`super::parity`]).
//!
//! A wave is a handful of shifts of one word. Each square a wave reaches is first reached by
//! the first direction, in the order N, NE, E, …, among the hops from the wave before; that hop
//! ends its chain, which is the same representative path as the square-by-square flood of
//! `movegen` (which wider boards use) records.
use super::moves::HOPS_PER_WORD;

/// `x` moved by `n` bits towards higher bits (`n` may be negative). A rotation: every square of
/// a hop set jumps to a square on the board, so nothing the flood keeps wraps around.
#[inline(always)]
fn shift(x: u64, n: i8) -> u64 {
    x.rotate_left(n as u32 & 63)
}

/// Runs `$body` with `$d` bound to each direction index 0 to 7 in turn, written out: the
/// index is a constant in each copy, so a test of a direction mask (`DIRS >> d & 1`) and the
/// bit planes a direction sets are decided at compile time (a loop with such a test was not
/// unrolled, and a closure called eight times was not inlined).
macro_rules! unroll_dirs {
    ($d:ident => $body:block) => {{
        {
            let $d: usize = 0;
            $body
        }
        {
            let $d: usize = 1;
            $body
        }
        {
            let $d: usize = 2;
            $body
        }
        {
            let $d: usize = 3;
            $body
        }
        {
            let $d: usize = 4;
            $body
        }
        {
            let $d: usize = 5;
            $body
        }
        {
            let $d: usize = 6;
            $body
        }
        {
            let $d: usize = 7;
            $body
        }
    }};
}
pub(crate) use unroll_dirs;

/// Every direction (bit `d` for [`super::square::Dir::index`] `d`): the mask of a flood over
/// all eight, whose hop sets are empty in the directions the board does not move in.
pub(crate) const ALL_DIRS: u8 = 0xff;

/// The records of one flood, per square of the set (only squares reached are meaningful).
pub(crate) struct Flood {
    /// The chain's first [`HOPS_PER_WORD`] directions, packed as in a move (a longer chain's
    /// first word).
    path: [u64; 64],
    /// The direction of the last hop, for squares more than [`HOPS_PER_WORD`] hops out (whose
    /// chain is read back from here).
    last: [u8; 64],
}

impl Flood {
    pub const fn new() -> Flood {
        Flood {
            path: [0; 64],
            last: [0; 64],
        }
    }

    /// Floods from bit `h0` with the hop sets `sets` (per direction, the squares that can jump
    /// that way; `land[d]` is the bit distance of such a jump), breadth first and one wave at a
    /// time, and hands every square reached to `found` (its bit, its number of hops and their
    /// directions packed, 3 bits each, 21 per word): wave by wave, so shorter chains first, and
    /// within a wave in the order of the bits.
    ///
    /// A wave is set-wise and without a branch per direction (the directions a front can jump
    /// in are as good as random, and a mispredicted branch costs more than the shift it skips);
    /// each new square then reads its direction off three bit planes.
    ///
    /// `jumpers` is every square of the set that can jump at all: a wave none of whose squares
    /// is one ends the flood without a last, empty wave.
    ///
    /// `DIRS`: the directions to read (bit `d` for direction `d`); the hop sets of the others
    /// must be empty. A hex board's six leave two shifts a wave out of eight.
    #[inline(always)]
    pub fn run<const DIRS: u8>(
        &mut self,
        h0: usize,
        sets: &[u64; 8],
        jumpers: u64,
        land: &[i8; 8],
        mut found: impl FnMut(usize, u8, [u64; 3]),
    ) {
        let origin = 1u64 << h0;
        let mut seen = origin;
        let mut front = origin;
        self.path[h0] = 0;
        let mut wave = 1u8;
        while front != 0 {
            let mut claimed = seen;
            let mut planes = [0u64; 3];
            unroll_dirs!(d => {
                if DIRS >> d & 1 == 1 {
                    let new = shift(front & sets[d], land[d]) & !claimed;
                    claimed |= new;
                    for (bit, plane) in planes.iter_mut().enumerate() {
                        if d >> bit & 1 == 1 {
                            *plane |= new;
                        }
                    }
                }
            });
            let mut next = claimed & !seen;
            seen = claimed;
            front = next & jumpers;
            let short = usize::from(wave) <= HOPS_PER_WORD;
            let at = 3 * (u32::from(wave) - 1);
            while next != 0 {
                let t = next.trailing_zeros() as usize;
                next &= next - 1;
                let d =
                    (planes[0] >> t & 1) | (planes[1] >> t & 1) << 1 | (planes[2] >> t & 1) << 2;
                let p = (t as isize - isize::from(land[d as usize])) as usize & 63;
                if short {
                    self.path[t] = self.path[p] | d << at;
                    found(t, wave, [self.path[t], 0, 0]);
                } else {
                    self.path[t] = self.path[p];
                    self.last[t] = d as u8;
                    found(t, wave, self.long_chain(t, wave, land));
                }
            }
            wave += 1;
        }
    }

    /// The directions of the chain to bit `t`, `hops` long (more than one word of them): the
    /// first word from its records, the rest read back hop by hop.
    #[cold]
    #[inline(never)]
    fn long_chain(&self, t: usize, hops: u8, land: &[i8; 8]) -> [u64; 3] {
        let mut dirs = [self.path[t], 0, 0];
        let mut cur = t;
        for i in (HOPS_PER_WORD..usize::from(hops)).rev() {
            let d = usize::from(self.last[cur]);
            dirs[i / HOPS_PER_WORD] |= (d as u64) << (3 * (i % HOPS_PER_WORD));
            cur = (cur as isize - isize::from(land[d])) as usize & 63;
        }
        dirs
    }
}
