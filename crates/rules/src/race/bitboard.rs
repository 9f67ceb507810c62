//! Bit sets of squares. A square's bit is `rank * width + file` (dense, no padding), so an 8×8
//! board fits a `u64`, anything up to 128 squares a `u128`, and a 16×16 board the 256-bit
//! [`Wide`]. The hot code is generic over [`Bits`] and monomorphised for all three; positions
//! always store the wide form (the low words *are* the narrow forms, so converting is free).
//!
//! Shifts are plain integer shifts; bits that would wrap from one rank's edge to the next are
//! removed by per-direction source masks built once per variant, so no wrap masks appear in the
//! flood fill itself.
use std::{
    fmt,
    ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not},
};

/// The operations the move generator needs from a bit set.
pub trait Bits:
    Copy
    + Eq
    + fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Send
    + Sync
    + 'static
{
    const ZERO: Self;
    /// How many squares this representation can hold.
    const CAPACITY: usize;
    /// The low bits of a wide set (the squares of a board this small).
    fn from_wide(w: &Wide) -> Self;
    fn bit(i: usize) -> Self;
    /// Towards higher squares; `n < 64`.
    fn shl(self, n: u32) -> Self;
    /// Towards lower squares; `n < 64`.
    fn shr(self, n: u32) -> Self;
    fn is_zero(self) -> bool;
    fn count(self) -> u32;
    /// Index of the lowest set bit; the set must not be empty.
    fn lowest(self) -> usize;
    fn without_lowest(self) -> Self;
    /// How many 64-bit words the set holds.
    const WORDS: usize;
    /// Word `k` (`k < WORDS`): squares `64k .. 64k + 63`.
    fn word(&self, k: usize) -> u64;
    /// Square `i` as 0 or 1, without a branch (for branch-free code in the flood).
    #[inline]
    fn get(&self, i: usize) -> u64 {
        self.word(i >> 6) >> (i & 63) & 1
    }
    #[inline]
    fn has(self, i: usize) -> bool {
        !(self & Self::bit(i)).is_zero()
    }
    /// Adds square `i`.
    #[inline]
    fn insert(&mut self, i: usize) {
        *self |= Self::bit(i);
    }
    /// The indices of the set bits, lowest first.
    #[inline]
    fn iter(self) -> BitIter<Self> {
        BitIter {
            cur: self.word(0),
            bits: self,
            k: 0,
        }
    }
}

/// Iterator over the set bits of a [`Bits`], lowest first, a word at a time (a wide set is not
/// rescanned from its first word for every bit).
pub struct BitIter<B> {
    bits: B,
    /// The word being read and what is left of it.
    k: usize,
    cur: u64,
}

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.cur == 0 {
            self.k += 1;
            if self.k >= B::WORDS {
                return None;
            }
            self.cur = self.bits.word(self.k);
        }
        let i = self.k * 64 + self.cur.trailing_zeros() as usize;
        self.cur &= self.cur - 1;
        Some(i)
    }
}

macro_rules! native_bits {
    ($t:ty, $cap:expr, $from:expr) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const CAPACITY: usize = $cap;
            const WORDS: usize = $cap / 64;
            #[inline]
            fn word(&self, k: usize) -> u64 {
                (*self >> (64 * k)) as u64
            }
            #[inline]
            fn from_wide(w: &Wide) -> Self {
                $from(w)
            }
            #[inline]
            fn bit(i: usize) -> Self {
                1 << i
            }
            #[inline]
            fn shl(self, n: u32) -> Self {
                self << n
            }
            #[inline]
            fn shr(self, n: u32) -> Self {
                self >> n
            }
            #[inline]
            fn is_zero(self) -> bool {
                self == 0
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    };
}

native_bits!(u64, 64, |w: &Wide| w.0[0]);
native_bits!(u128, 128, |w: &Wide| u128::from(w.0[0])
    | (u128::from(w.0[1]) << 64));

/// A 256-bit set: four little-endian 64-bit words (square 0 is bit 0 of word 0).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Wide(pub [u64; 4]);

impl Wide {
    pub const EMPTY: Wide = Wide([0; 4]);

    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    #[inline]
    pub fn toggle(&mut self, i: usize) {
        self.0[i >> 6] ^= 1 << (i & 63);
    }
}

impl fmt::Debug for Wide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

macro_rules! wide_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Wide {
            type Output = Wide;
            #[inline]
            fn $f(self, o: Wide) -> Wide {
                Wide([
                    self.0[0] $op o.0[0],
                    self.0[1] $op o.0[1],
                    self.0[2] $op o.0[2],
                    self.0[3] $op o.0[3],
                ])
            }
        }
        impl $tra for Wide {
            #[inline]
            fn $fa(&mut self, o: Wide) {
                *self = *self $op o;
            }
        }
    };
}
wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Wide {
    type Output = Wide;
    #[inline]
    fn not(self) -> Wide {
        Wide([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl Bits for Wide {
    const ZERO: Self = Wide::EMPTY;
    const CAPACITY: usize = 256;
    const WORDS: usize = 4;
    #[inline]
    fn word(&self, k: usize) -> u64 {
        self.0[k]
    }
    #[inline]
    fn from_wide(w: &Wide) -> Self {
        *w
    }
    #[inline]
    fn bit(i: usize) -> Self {
        let mut w = Wide::EMPTY;
        w.set(i);
        w
    }
    #[inline]
    fn shl(self, n: u32) -> Self {
        debug_assert!(n > 0 && n < 64);
        let a = self.0;
        let m = 64 - n;
        Wide([
            a[0] << n,
            (a[1] << n) | (a[0] >> m),
            (a[2] << n) | (a[1] >> m),
            (a[3] << n) | (a[2] >> m),
        ])
    }
    #[inline]
    fn shr(self, n: u32) -> Self {
        debug_assert!(n > 0 && n < 64);
        let a = self.0;
        let m = 64 - n;
        Wide([
            (a[0] >> n) | (a[1] << m),
            (a[1] >> n) | (a[2] << m),
            (a[2] >> n) | (a[3] << m),
            a[3] >> n,
        ])
    }
    #[inline]
    fn is_zero(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> usize {
        for (k, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return k * 64 + w.trailing_zeros() as usize;
            }
        }
        256
    }
    #[inline]
    fn without_lowest(mut self) -> Self {
        for w in self.0.iter_mut() {
            if *w != 0 {
                *w &= *w - 1;
                break;
            }
        }
        self
    }
    #[inline]
    fn has(self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 == 1
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        self.set(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_shifts_cross_words() {
        let x = Wide::bit(63) | Wide::bit(130);
        assert_eq!(x.shl(1), Wide::bit(64) | Wide::bit(131));
        assert_eq!(x.shl(34).iter().collect::<Vec<_>>(), vec![97, 164]);
        assert_eq!(x.shr(63).iter().collect::<Vec<_>>(), vec![0, 67]);
        assert_eq!(Wide::bit(255).shl(1), Wide::EMPTY);
        assert_eq!(Wide::bit(0).shr(1), Wide::EMPTY);
    }

    #[test]
    fn narrow_forms_are_the_low_words() {
        let mut w = Wide::EMPTY;
        w.set(5);
        w.set(70);
        assert_eq!(u64::from_wide(&w), 1 << 5);
        assert_eq!(u128::from_wide(&w), (1 << 5) | (1 << 70));
        assert_eq!(w.count(), 2);
        assert_eq!(w.lowest(), 5);
        assert_eq!(w.without_lowest().lowest(), 70);
    }
}
