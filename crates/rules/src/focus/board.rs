//! The board: which squares of a rectangle are playable, and the move targets precomputed.
use std::fmt;

use super::square::{Direction, MAX_SIDE, Square};
use super::stack::MAX_HEIGHT;

/// A Focus board: a mask on a rectangle of at most 16×16 squares, with every target of a
/// straight move precomputed for the variant's height limit.
#[derive(Clone)]
pub struct Board {
    width: u8,
    height: u8,
    /// Playable squares, rank by rank from a1, file by file: the order of drops.
    squares: Vec<Square>,
    mask: [bool; 256],
    /// `targets[sq][k - 1]`: where a run of `k` pieces lifted from `sq` can land, in
    /// [`Direction::ALL`] order (only targets on the board).
    targets: Vec<[TargetList; MAX_HEIGHT as usize]>,
    /// `move_counts[sq][h]`: how many moves a stack of height `h` on `sq` has (all `k <= h`).
    move_counts: Vec<[u16; MAX_HEIGHT as usize + 1]>,
}

/// Up to four landing squares, one per direction.
#[derive(Copy, Clone, Debug, Default)]
pub struct TargetList {
    len: u8,
    squares: [Option<Square>; 4],
}

impl TargetList {
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.squares[..self.len as usize].iter().flatten().copied()
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The tables are long; a board is shown by its shape.
impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("squares", &self.squares)
            .finish_non_exhaustive()
    }
}

impl Board {
    /// Builds the board from its playable squares. The caller (variant validation) has checked
    /// `width, height <= 16` and that every square lies inside the rectangle.
    pub(crate) fn new(width: u8, height: u8, playable: &[Square], max_stack: u8) -> Board {
        debug_assert!(width <= MAX_SIDE && height <= MAX_SIDE && max_stack <= MAX_HEIGHT);
        let mut mask = [false; 256];
        for &sq in playable {
            mask[sq.index()] = true;
        }
        let mut squares: Vec<Square> = playable.to_vec();
        squares.sort();
        squares.dedup();
        let mut targets = vec![[TargetList::default(); MAX_HEIGHT as usize]; 256];
        let mut move_counts = vec![[0u16; MAX_HEIGHT as usize + 1]; 256];
        for &sq in &squares {
            let mut total = 0;
            for k in 1..=max_stack {
                let list = &mut targets[sq.index()][k as usize - 1];
                for dir in Direction::ALL {
                    // Squares passed over do not matter, holes included: only the landing
                    // square must be on the board.
                    if let Some(to) = sq.offset(dir, k).filter(|t| mask[t.index()]) {
                        list.squares[list.len as usize] = Some(to);
                        list.len += 1;
                    }
                }
                total += list.len as u16;
                move_counts[sq.index()][k as usize] = total;
            }
        }
        Board {
            width,
            height,
            squares,
            mask,
            targets,
            move_counts,
        }
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    /// The playable squares, a1 first, rank by rank.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.mask[sq.index()]
    }

    /// Landing squares of a run of `k` pieces lifted from `sq` (`1 <= k <= height limit`).
    #[inline]
    pub fn targets(&self, sq: Square, k: u8) -> &TargetList {
        &self.targets[sq.index()][k as usize - 1]
    }

    /// The number of moves a stack of height `h` on `sq` has.
    #[inline]
    pub fn move_count(&self, sq: Square, h: u8) -> u16 {
        self.move_counts[sq.index()][h as usize]
    }

    /// The squares of the rectangle, top rank first, for printing: `(square, playable)`.
    pub fn rows(&self) -> impl Iterator<Item = impl Iterator<Item = (Square, bool)> + '_> + '_ {
        (0..self.height).rev().map(move |rank| {
            (0..self.width).map(move |file| {
                let sq = Square::new(file, rank).expect("inside the 16×16 frame");
                (sq, self.contains(sq))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    /// A 3×3 ring: the centre b2 is a hole.
    fn ring() -> Board {
        let squares: Vec<Square> = ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]
            .iter()
            .map(|s| sq(s))
            .collect();
        Board::new(3, 3, &squares, 5)
    }

    #[test]
    fn moves_may_pass_over_holes_but_not_land_in_them() {
        let board = ring();
        assert!(!board.contains(sq("b2")));
        // One step from a2: up and down only (b2 is a hole, the frame ends on the left).
        let one: Vec<_> = board.targets(sq("a2"), 1).iter().collect();
        assert_eq!(one, [sq("a3"), sq("a1")]);
        // Two steps from a2: across the hole to c2.
        let two: Vec<_> = board.targets(sq("a2"), 2).iter().collect();
        assert_eq!(two, [sq("c2")]);
        assert!(board.targets(sq("a2"), 3).is_empty());
    }

    #[test]
    fn move_counts_add_up_the_targets() {
        let board = ring();
        for &s in board.squares() {
            let mut total = 0;
            assert_eq!(board.move_count(s, 0), 0);
            for h in 1..=5 {
                total += board.targets(s, h).len() as u16;
                assert_eq!(board.move_count(s, h), total, "{s} height {h}");
            }
        }
        assert_eq!(board.squares().len(), 8);
        assert_eq!(board.squares()[0], sq("a1"));
    }
}
