//! Evaluation of Focus positions.
//!
//! You lose when, at your turn, you control no stack and hold no reserve; pieces leave the game
//! only by overflow captures. So what matters is material that can still act: pieces alive
//! (on the board or in reserve; captures shrink the opponent's), the reserve (each reserve piece
//! is a guaranteed move and can seize any stack by a drop), and the stacks one controls, worth
//! more when tall (more ways to move, more pieces to bury the opponent's under) and when they
//! hold own pieces beneath the top (those return to the reserve when the stack overflows).
use boardcraft_rules::{
    Position, Seat,
    focus::{FocusMove, FocusPosition},
};

use super::Evaluate;

/// Every piece still in the game.
const ALIVE: i32 = 100;
/// On top of `ALIVE`: a reserve piece can be dropped anywhere, onto any stack.
const RESERVE: i32 = 60;
/// Controlling a stack (a piece that can move)…
const CONTROL: i32 = 40;
/// … plus this much per piece in it …
const HEIGHT: i32 = 12;
/// … plus this per own piece under the top (safe: overflow sends it to the reserve) …
const OWN_BENEATH: i32 = 8;
/// … plus this per available move of the stack.
const MOBILITY: i32 = 3;
/// Controlling no stack leaves only drops: one capture of the last stacks away from losing.
const NO_STACK: i32 = 150;
const TEMPO: i32 = 20;

impl Evaluate for FocusPosition {
    fn evaluate(&self) -> i32 {
        let board = self.rules().board();
        let mut side = [0i32; 2];
        let mut alive = [0i32; 2];
        let mut controlled = [false; 2];
        for &sq in board.squares() {
            let stack = self.stack(sq);
            let Some(top) = stack.top() else { continue };
            let h = stack.height();
            let own = stack.count(top);
            alive[top.index()] += i32::from(own);
            alive[top.other().index()] += i32::from(h - own);
            controlled[top.index()] = true;
            side[top.index()] += CONTROL
                + HEIGHT * i32::from(h)
                + OWN_BENEATH * (i32::from(own) - 1)
                + MOBILITY * i32::from(board.move_count(sq, h));
        }
        for c in Seat::BOTH {
            let reserve = i32::from(self.reserve(c));
            side[c.index()] += (alive[c.index()] + reserve) * ALIVE + reserve * RESERVE;
            if !controlled[c.index()] {
                side[c.index()] -= NO_STACK;
            }
        }
        let me = self.side_to_move();
        side[me.index()] - side[me.other().index()] + TEMPO
    }

    /// Overflow captures first, then taking over an opponent's stack, then big moves.
    fn order_hint(&self, mv: &FocusMove) -> i32 {
        let o = self.overflow(mv);
        o.theirs * 400 + o.mine * 100 + i32::from(o.takeover) * 150 + i32::from(o.lifted) * 10
            - if o.is_drop { 100 } else { 0 }
    }

    /// Captures: quiescence follows overflows that take opponent pieces.
    const QUIESCENCE: bool = true;

    fn is_noisy(&self, mv: &FocusMove) -> bool {
        self.overflow(mv).theirs > 0
    }
}

/// What a move does to the stack it lands on.
struct Overflow {
    /// Own and opponent pieces pushed off the bottom of the landing stack.
    mine: i32,
    theirs: i32,
    /// The landing stack was the opponent's.
    takeover: bool,
    lifted: u8,
    is_drop: bool,
}

trait Overflows {
    fn overflow(&self, mv: &FocusMove) -> Overflow;
}

impl Overflows for FocusPosition {
    fn overflow(&self, mv: &FocusMove) -> Overflow {
        let me = self.side_to_move();
        let (lifted, to, is_drop) = match *mv {
            FocusMove::Move { to, count, .. } => (count, to, false),
            FocusMove::Drop { to } => (1, to, true),
        };
        let target = self.stack(to);
        let h = target.height();
        // The landing stack loses its bottom `overflow` pieces (never more than it has, since a
        // lifted run is at most the height limit).
        let overflow = (h + lifted)
            .saturating_sub(self.rules().height_limit())
            .min(h);
        let bottom = target.bits() & ((1u16 << overflow) - 1);
        let black = bottom.count_ones() as i32;
        let (mine, theirs) = match me {
            Seat::WHITE => (i32::from(overflow) - black, black),
            _ => (black, i32::from(overflow) - black),
        };
        Overflow {
            mine,
            theirs,
            takeover: target.top() == Some(me.other()),
            lifted,
            is_drop,
        }
    }
}
