//! Reproducible random games for tests, tools and seed generators: one seeded picker instead of
//! an inline generator in each of them.

/// Picks moves with a 64-bit linear congruential generator (Knuth's MMIX constants, the high
/// bits used): the same starting state always picks the same moves.
#[derive(Clone, Debug)]
pub struct SeededMoves {
    state: u64,
}

impl SeededMoves {
    /// A picker starting from `state` (any value; callers mix their seeds as they like).
    pub fn new(state: u64) -> Self {
        SeededMoves { state }
    }

    /// One of `moves`, or `None` if there are none.
    pub fn pick<'a, M>(&mut self, moves: &'a [M]) -> Option<&'a M> {
        if moves.is_empty() {
            return None;
        }
        self.state = self
            .state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        Some(&moves[((self.state >> 33) % moves.len() as u64) as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_state_same_picks_and_every_index_reachable() {
        let moves: Vec<u32> = (0..7).collect();
        let picks = |s| {
            let mut p = SeededMoves::new(s);
            (0..200)
                .map(|_| *p.pick(&moves).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(42), picks(42));
        assert_ne!(picks(42), picks(43));
        let seen: std::collections::BTreeSet<u32> = picks(1).into_iter().collect();
        assert_eq!(seen.len(), moves.len());
        assert_eq!(SeededMoves::new(1).pick::<u32>(&[]), None);
    }
}
