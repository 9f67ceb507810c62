//! The transposition table: a fixed-size array indexed by the Zobrist hash, one entry per slot,
//! replace-by-depth with aging.
//!
//! Moves are stored as their index in `legal_moves` order (which the `Position` contract makes
//! deterministic), so the table is independent of the move type and 16 bytes per entry.
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at most `score` (fail low).
    Upper,
    /// The true score is at least `score` (fail high).
    Lower,
    Exact,
}

/// What a probe returns.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Hit {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub mv: Option<usize>,
}

/// One slot: the entry's data (score, move, depth, bound, generation packed in 64 bits) and
/// the key XOR the data. Several search threads share the table without locks: a slot torn by
/// two threads writing at once fails the key check and reads as a miss (the lockless scheme of
/// Hyatt and Mann); a single thread sees exactly the plain table it would own.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The fields of an entry, unpacked.
#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    score: i32,
    /// Index of the best move in `legal_moves` order, `u16::MAX` for none.
    mv: u16,
    depth: i8,
    /// 0 = empty, 1 = upper, 2 = lower, 3 = exact.
    bound: u8,
    /// Six bits.
    generation: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.score as u32)
            | u64::from(self.mv) << 32
            | u64::from(self.depth as u8) << 48
            | u64::from(self.bound & 3) << 56
            | u64::from(self.generation & 63) << 58
    }

    fn unpack(d: u64) -> Entry {
        Entry {
            score: d as u32 as i32,
            mv: (d >> 32) as u16,
            depth: (d >> 48) as u8 as i8,
            bound: (d >> 56) as u8 & 3,
            generation: (d >> 58) as u8 & 63,
        }
    }
}

pub(crate) struct TransTable {
    slots: Vec<Slot>,
    mask: usize,
    generation: u8,
}

impl TransTable {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u8) -> Self {
        let len = 1usize << bits.clamp(4, 28);
        TransTable {
            slots: (0..len).map(|_| Slot::default()).collect(),
            mask: len - 1,
            generation: 0,
        }
    }

    /// Marks later stores as newer than anything already in the table, so stale entries from
    /// earlier searches give way even to shallow new ones.
    #[cfg(test)]
    fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1) & 63;
    }

    /// The entry in `key`'s slot, and whether it is `key`'s.
    #[inline]
    fn read(&self, key: u64) -> (Entry, bool) {
        let slot = &self.slots[(key as usize) & self.mask];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (Entry::unpack(data), check ^ data == key)
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let (e, same) = self.read(key);
        if e.bound == 0 || !same {
            return None;
        }
        Some(Hit {
            score: e.score,
            depth: i32::from(e.depth),
            bound: match e.bound {
                1 => Bound::Upper,
                2 => Bound::Lower,
                _ => Bound::Exact,
            },
            mv: (e.mv != u16::MAX).then_some(usize::from(e.mv)),
        })
    }

    pub fn store(&self, key: u64, depth: i32, score: i32, bound: Bound, mv: Option<usize>) {
        let (slot, same) = self.read(key);
        let replace = slot.bound == 0
            || slot.generation != self.generation
            || !same && depth >= i32::from(slot.depth)
            || same && (depth >= i32::from(slot.depth) || bound == Bound::Exact);
        if !replace {
            return;
        }
        // Keep the old best move when the new result has none (fail low) for the same position.
        let mv = match mv {
            Some(i) => u16::try_from(i).unwrap_or(u16::MAX),
            None if same => slot.mv,
            None => u16::MAX,
        };
        let data = Entry {
            score,
            mv,
            depth: depth.clamp(-1, i32::from(i8::MAX)) as i8,
            bound: match bound {
                Bound::Upper => 1,
                Bound::Lower => 2,
                Bound::Exact => 3,
            },
            generation: self.generation,
        }
        .pack();
        let s = &self.slots[(key as usize) & self.mask];
        s.data.store(data, Ordering::Relaxed);
        s.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_and_replacement() {
        let mut tt = TransTable::new(4);
        assert!(tt.probe(7).is_none());
        tt.store(7, 5, 42, Bound::Exact, Some(3));
        let hit = tt.probe(7).unwrap();
        assert_eq!(
            (hit.score, hit.depth, hit.bound, hit.mv),
            (42, 5, Bound::Exact, Some(3))
        );
        // Same slot (7 + 16), shallower, same generation: the deeper entry stays.
        tt.store(7 + 16, 2, 1, Bound::Lower, None);
        assert!(tt.probe(7 + 16).is_none());
        assert!(tt.probe(7).is_some());
        // A new search ages the old entry out.
        tt.new_search();
        tt.store(7 + 16, 2, 1, Bound::Lower, None);
        assert!(tt.probe(7).is_none());
        assert_eq!(tt.probe(7 + 16).unwrap().bound, Bound::Lower);
        // A fail-low store of the same position keeps the known best move.
        tt.store(7 + 16, 3, 0, Bound::Upper, None);
        tt.store(7 + 16, 4, 0, Bound::Upper, None);
        tt.store(9, 1, 0, Bound::Exact, Some(1));
        tt.store(9, 2, 0, Bound::Upper, None);
        assert_eq!(tt.probe(9).unwrap().mv, Some(1));
    }
}
