//! The longest jump chains: for every jump move `(from, to)` of the side to move, the most
//! jumps any legal path from `from` to `to` makes. A move is one `(from, to)` whatever its path
//! (A-U11), so "the longest jump" of a puzzle is the move with the longest legal path; the
//! search walks every legal path, checking each landing with the same camp rules as a typed
//! path (`check_path`).
use std::collections::HashMap;

use super::{RacePosition, Square};
use crate::{Position, Seat};

/// The longest legal path of one jump move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LongestChain {
    pub from: Square,
    pub to: Square,
    /// Every square the piece lands on, `from` first.
    pub path: Vec<Square>,
}

impl LongestChain {
    pub fn jumps(&self) -> usize {
        self.path.len() - 1
    }

    /// The path in notation: `b3:d3:d5`.
    pub fn notation(&self) -> String {
        self.path
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(":")
    }
}

impl RacePosition {
    /// For every jump move of the side to move, its longest legal path; `None` if more than
    /// `max_paths` paths would have to be walked (crowded Halma boards). Sorted by move.
    pub fn longest_chains(&self, max_paths: usize) -> Option<Vec<LongestChain>> {
        if self.outcome().is_some() {
            return Some(Vec::new());
        }
        let side: Seat = self.side_to_move();
        let mut best: HashMap<(Square, Square), Vec<Square>> = HashMap::new();
        let mut walked = 0usize;
        for from in self.pieces(side) {
            let mut path = vec![from];
            if !self.walk(&mut path, &mut best, &mut walked, max_paths) {
                return None;
            }
        }
        let mut out: Vec<LongestChain> = best
            .into_iter()
            .map(|((from, to), path)| LongestChain { from, to, path })
            .collect();
        out.sort_by_key(|c| (c.from, c.to));
        Some(out)
    }

    fn walk(
        &self,
        path: &mut Vec<Square>,
        best: &mut HashMap<(Square, Square), Vec<Square>>,
        walked: &mut usize,
        max_paths: usize,
    ) -> bool {
        let here = *path.last().expect("a path starts somewhere");
        for dir in self.rules().directions().iter() {
            let (dx, dy) = dir.delta();
            let Some(land) = here.offset(2 * dx, 2 * dy) else {
                continue;
            };
            path.push(land);
            if self.check_path(path, false).is_ok() {
                *walked += 1;
                if *walked > max_paths {
                    return false;
                }
                let key = (path[0], land);
                if best.get(&key).is_none_or(|b| b.len() < path.len()) {
                    best.insert(key, path.clone());
                }
                if !self.walk(path, best, walked, max_paths) {
                    return false;
                }
            }
            path.pop();
        }
        true
    }
}
