//! Zobrist keys, generated at compile time from a fixed SplitMix64 stream (no `rand`, and the
//! same hashes on every build and platform).
use super::geometry::{LINE_COUNT, SPOT_COUNT};

/// Reserve counts have one key each, up to this bound (> `spec::MAX_UNITS`).
pub(crate) const RESERVE_KEYS: usize = 128;

pub(crate) struct Keys {
    /// `cell[spot][code]`; code 0 (empty) has key 0.
    pub cell: [[u64; 5]; SPOT_COUNT],
    pub reserve: [[u64; RESERVE_KEYS]; 2],
    pub gipf_reserve: [[u64; RESERVE_KEYS]; 2],
    pub settled: [u64; LINE_COUNT],
    /// Moved White, moved Black, basic entered White, basic entered Black.
    pub flags: [u64; 4],
    pub pending: u64,
    pub black_to_move: u64,
}

const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build() -> Keys {
    let mut seed = 0x6769_7066_u64; // "gipf"
    let mut keys = Keys {
        cell: [[0; 5]; SPOT_COUNT],
        reserve: [[0; RESERVE_KEYS]; 2],
        gipf_reserve: [[0; RESERVE_KEYS]; 2],
        settled: [0; LINE_COUNT],
        flags: [0; 4],
        pending: 0,
        black_to_move: 0,
    };
    let mut s = 0;
    while s < SPOT_COUNT {
        let mut c = 1;
        while c < 5 {
            keys.cell[s][c] = splitmix64(&mut seed);
            c += 1;
        }
        s += 1;
    }
    let mut side = 0;
    while side < 2 {
        let mut n = 0;
        while n < RESERVE_KEYS {
            keys.reserve[side][n] = splitmix64(&mut seed);
            keys.gipf_reserve[side][n] = splitmix64(&mut seed);
            n += 1;
        }
        side += 1;
    }
    let mut l = 0;
    while l < LINE_COUNT {
        keys.settled[l] = splitmix64(&mut seed);
        l += 1;
    }
    let mut f = 0;
    while f < 4 {
        keys.flags[f] = splitmix64(&mut seed);
        f += 1;
    }
    keys.pending = splitmix64(&mut seed);
    keys.black_to_move = splitmix64(&mut seed);
    keys
}

pub(crate) static KEYS: Keys = build();
