//! A breadth-first flood of jump chains over one 64-bit set: a board of at most 64 squares
//! (Ugolki), or one parity class of a 16-wide board (Halma 16×16, see [`super::parity`]).
//!
//! A wave is a handful of shifts of one word; each square a wave reaches records how it was
//! first reached (the wave, and the first direction in the order N, NE, E, … among the hops
//! from the wave before) and the packed directions of its chain — the same records, and so the
//! same representative paths, as the square-by-square flood of `movegen` that wider boards use.
use super::moves::HOPS_PER_WORD;

/// `x` moved by `n` bits towards higher bits (`n` may be negative). A rotation: every square of
/// a hop set jumps to a square on the board, so nothing the flood keeps wraps around.
#[inline(always)]
fn shift(x: u64, n: i8) -> u64 {
    x.rotate_left(n as u32 & 63)
}

/// What one flood found: the squares reached and, per square of the class, how.
pub(crate) struct Flood {
    /// The squares reached (the origin excluded).
    pub reached: u64,
    /// Per square reached: chain length << 3 | the direction of the last hop.
    rec: [u16; 64],
    /// Per square reached: the chain's first [`HOPS_PER_WORD`] directions, packed as in a move.
    path: [u64; 64],
}

impl Flood {
    pub const fn new() -> Flood {
        Flood {
            reached: 0,
            rec: [0; 64],
            path: [0; 64],
        }
    }

    /// Floods from bit `h0` with the hop sets `sets` (per direction, the squares that can jump
    /// that way; `land[d]` is the bit distance of such a jump), breadth first and one wave
    /// at a time; within a wave the directions are tried in order, so a square keeps the first
    /// wave and, within it, the first direction that reaches it.
    ///
    /// A wave is set-wise and without a branch per direction (the directions a front can jump
    /// in are as good as random, and a mispredicted branch costs more than the shift it skips);
    /// each new square then reads its direction off three bit planes.
    ///
    /// `jumpers` is every square of the class that can jump at all: a wave none of whose
    /// squares is one ends the flood without a last, empty wave.
    #[inline(always)]
    pub fn run(&mut self, h0: usize, sets: &[u64; 8], jumpers: u64, land: &[i8; 8]) {
        let origin = 1u64 << h0;
        let mut seen = origin;
        let mut front = origin;
        self.path[h0] = 0;
        let mut wave = 1u16;
        while front != 0 {
            let mut claimed = seen;
            let mut planes = [0u64; 3];
            for d in 0..8 {
                let new = shift(front & sets[d], land[d]) & !claimed;
                claimed |= new;
                for (bit, plane) in planes.iter_mut().enumerate() {
                    if d >> bit & 1 == 1 {
                        *plane |= new;
                    }
                }
            }
            let mut next = claimed & !seen;
            seen = claimed;
            front = next & jumpers;
            // Garbage past the first word of hops, where `chain` reads the records instead.
            let at = (3 * u32::from(wave - 1)) & 63;
            while next != 0 {
                let t = next.trailing_zeros() as usize;
                next &= next - 1;
                let d =
                    (planes[0] >> t & 1) | (planes[1] >> t & 1) << 1 | (planes[2] >> t & 1) << 2;
                let p = (t as isize - isize::from(land[d as usize])) as usize & 63;
                self.path[t] = self.path[p] | d << at;
                self.rec[t] = wave << 3 | d as u16;
            }
            wave += 1;
        }
        self.reached = seen & !origin;
    }

    /// The chain to bit `h` (which the flood reached): its number of hops and their
    /// directions, packed (3 bits each, 21 per word).
    #[inline]
    pub fn chain(&self, h: usize, land: &[i8; 8]) -> (u8, u64, u64, u64) {
        let hops = usize::from(self.rec[h] >> 3);
        if hops > HOPS_PER_WORD {
            return self.long_chain(h, land);
        }
        (hops as u8, self.path[h], 0, 0)
    }

    #[cold]
    #[inline(never)]
    fn long_chain(&self, h: usize, land: &[i8; 8]) -> (u8, u64, u64, u64) {
        let hops = usize::from(self.rec[h] >> 3);
        let mut dirs = [0u64; 3];
        let mut cur = h;
        for i in (0..hops).rev() {
            let d = usize::from(self.rec[cur] & 7);
            dirs[i / HOPS_PER_WORD] |= (d as u64) << (3 * (i % HOPS_PER_WORD));
            cur = (cur as isize - isize::from(land[d])) as usize & 63;
        }
        (hops as u8, dirs[0], dirs[1], dirs[2])
    }
}
