//! A set of squares of the 16×16 frame as 256 bits, iterated in square order (a1, b1, …).
use super::square::Square;

/// One bit per [`Square::index`]; the position keeps one per seat for the stacks it controls,
/// so that move generation and counting visit those squares only instead of the whole board.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct SquareSet([u64; 4]);

impl SquareSet {
    pub const EMPTY: SquareSet = SquareSet([0; 4]);

    #[inline]
    pub fn insert(&mut self, sq: Square) {
        let i = sq.index();
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    pub fn remove(&mut self, sq: Square) {
        let i = sq.index();
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// The squares, lowest index first.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Square> {
        self.0.into_iter().enumerate().flat_map(|(w, mut bits)| {
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let i = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Square::from_index(w << 6 | i)
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate_in_order() {
        let sq = |f, r| Square::new(f, r).unwrap();
        let mut set = SquareSet::EMPTY;
        for s in [sq(15, 15), sq(0, 0), sq(3, 4), sq(0, 4)] {
            set.insert(s);
        }
        set.remove(sq(0, 0));
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            vec![sq(0, 4), sq(3, 4), sq(15, 15)]
        );
        for s in [sq(0, 4), sq(3, 4), sq(15, 15)] {
            set.remove(s);
        }
        assert_eq!(set, SquareSet::EMPTY);
    }
}
