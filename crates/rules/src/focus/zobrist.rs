//! Zobrist keys, computed rather than tabled: a stack has 2^31 possible values per square, so
//! the key of `(square, stack)` is a SplitMix64 mix of the pair — deterministic, no `rand`, and
//! as well spread as a random table.
use super::square::Square;
use super::stack::Stack;
use crate::Seat;

/// SplitMix64's finaliser: a bijective mix of a 64-bit value.
#[inline]
const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

// Domain tags keep the three kinds of keys apart.
const STACK: u64 = 1 << 40;
const RESERVE: u64 = 2 << 40;
const CAPTURED: u64 = 3 << 40;

/// Black to move.
pub const SIDE: u64 = mix(0xf0c5);

/// The key of `seat` being to move: 0 for seat 0, [`SIDE`] for seat 1.
#[inline]
pub const fn side(seat: Seat) -> u64 {
    match seat.index() {
        0 => 0,
        1 => SIDE,
        n => mix(0xf0c5 ^ (n as u64) << 20),
    }
}

/// The key of `stack` standing on `sq`; 0 for an empty square, so empty squares cost nothing.
#[inline]
pub fn stack(sq: Square, stack: Stack) -> u64 {
    if stack.is_empty() {
        0
    } else {
        mix(STACK | (sq.index() as u64) << 32 | u64::from(stack.bits()))
    }
}

/// The key of `color` holding `n` pieces in reserve; 0 for none.
#[inline]
pub fn reserve(color: Seat, n: u16) -> u64 {
    if n == 0 {
        0
    } else {
        mix(RESERVE | (color.index() as u64) << 16 | u64::from(n))
    }
}

/// The key of `color` having captured `n` opponent pieces; 0 for none.
#[inline]
pub fn captured(color: Seat, n: u16) -> u64 {
    if n == 0 {
        0
    } else {
        mix(CAPTURED | (color.index() as u64) << 16 | u64::from(n))
    }
}
