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

/// Most seats a Focus table has.
const SEATS: usize = 4;

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

/// Each seat's standing (material that can still act, see the module docs); seats that are
/// out score nothing.
fn standings(pos: &FocusPosition) -> [i32; SEATS] {
    let board = pos.rules().board();
    let n = pos.seat_count();
    let mut side = [0i32; SEATS];
    let mut alive = [0i32; SEATS];
    let mut controlled = [false; SEATS];
    for &sq in board.squares() {
        let stack = pos.stack(sq);
        let Some(top) = stack.top() else { continue };
        let h = stack.height();
        let own = stack.count(top);
        for c in Seat::all(n) {
            alive[c.index()] += i32::from(stack.count(c));
        }
        controlled[top.index()] = true;
        side[top.index()] += CONTROL
            + HEIGHT * i32::from(h)
            + OWN_BENEATH * (i32::from(own) - 1)
            + MOBILITY * i32::from(board.move_count(sq, h));
    }
    for c in Seat::all(n) {
        if pos.is_out(c) {
            side[c.index()] = 0;
            continue;
        }
        let reserve = i32::from(pos.reserve(c));
        side[c.index()] += (alive[c.index()] + reserve) * ALIVE + reserve * RESERVE;
        if !controlled[c.index()] {
            side[c.index()] -= NO_STACK;
        }
    }
    side
}

/// `seat`'s standing (with its partner's, when partners play) minus that of the strongest
/// other side of the table.
fn value_for(pos: &FocusPosition, seat: Seat) -> i32 {
    let rules = pos.rules();
    let side = standings(pos);
    let mut team = [0i32; SEATS];
    for c in Seat::all(pos.seat_count()) {
        team[rules.team(c)] += side[c.index()];
    }
    let mine = rules.team(seat);
    let best_other = Seat::all(pos.seat_count())
        .map(|c| rules.team(c))
        .filter(|&t| t != mine)
        .map(|t| team[t])
        .max()
        .unwrap_or(0);
    team[mine] - best_other
}

impl Evaluate for FocusPosition {
    fn evaluate(&self) -> i32 {
        value_for(self, self.side_to_move()) + TEMPO
    }

    /// With more than two seats, how much better `seat`'s side stands than the strongest of
    /// the others; the tempo bonus goes to the side to move.
    fn evaluate_for(&self, seat: Seat) -> i32 {
        if self.seat_count() == 2 {
            return if seat == self.side_to_move() {
                self.evaluate()
            } else {
                -self.evaluate()
            };
        }
        let me = self.side_to_move();
        let tempo = if self.rules().team(seat) == self.rules().team(me) {
            TEMPO
        } else {
            0
        };
        value_for(self, seat) + tempo
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
        let (bottom, _) = target.split_top(h - overflow);
        let mine = i32::from(bottom.count(me));
        let theirs = i32::from(overflow) - mine;
        Overflow {
            mine,
            theirs,
            takeover: target.top().is_some_and(|t| t != me),
            lifted,
            is_drop,
        }
    }
}
