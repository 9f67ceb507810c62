//! The transposition table: a fixed-size array indexed by the Zobrist hash, one entry per slot,
//! replace-by-depth with aging.
//!
//! Moves are stored as their index in `legal_moves` order (which the `Position` contract makes
//! deterministic), so the table is independent of the move type and 16 bytes per entry.

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at most `score` (fail low).
    Upper,
    /// The true score is at least `score` (fail high).
    Lower,
    Exact,
}

#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    /// Index of the best move in `legal_moves` order, `u16::MAX` for none.
    mv: u16,
    depth: i8,
    /// 0 = empty, 1 = upper, 2 = lower, 3 = exact.
    bound: u8,
    generation: u8,
}

/// What a probe returns.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Hit {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    pub mv: Option<usize>,
}

pub(crate) struct TransTable {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl TransTable {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u8) -> Self {
        let len = 1usize << bits.clamp(4, 28);
        TransTable {
            entries: vec![Entry::default(); len],
            mask: len - 1,
            generation: 0,
        }
    }

    /// Marks later stores as newer than anything already in the table, so stale entries from
    /// earlier searches give way even to shallow new ones.
    #[cfg(test)]
    fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = &self.entries[(key as usize) & self.mask];
        if e.bound == 0 || e.key != key {
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

    pub fn store(&mut self, key: u64, depth: i32, score: i32, bound: Bound, mv: Option<usize>) {
        let slot = &mut self.entries[(key as usize) & self.mask];
        let replace = slot.bound == 0
            || slot.generation != self.generation
            || slot.key != key && depth >= i32::from(slot.depth)
            || slot.key == key && (depth >= i32::from(slot.depth) || bound == Bound::Exact);
        if !replace {
            return;
        }
        // Keep the old best move when the new result has none (fail low) for the same position.
        let mv = match mv {
            Some(i) => u16::try_from(i).unwrap_or(u16::MAX),
            None if slot.key == key => slot.mv,
            None => u16::MAX,
        };
        *slot = Entry {
            key,
            score,
            mv,
            depth: depth.clamp(-1, i32::from(i8::MAX)) as i8,
            bound: match bound {
                Bound::Upper => 1,
                Bound::Lower => 2,
                Bound::Exact => 3,
            },
            generation: self.generation,
        };
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
