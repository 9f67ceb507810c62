//! The board: which squares of a rectangle are playable, and the move targets precomputed.
use super::square::{Direction, MAX_SIDE, Square};
use super::stack::MAX_HEIGHT;

/// A Focus board: a mask on a rectangle of at most 16×16 squares, with every target of a
/// straight move precomputed for the variant's height limit.
#[derive(Clone, Debug)]
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
