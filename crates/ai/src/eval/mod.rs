//! Static evaluation: what the search calls at its horizon, one implementation per family.
use boardcraft_rules::{AnyMove, AnyPosition, Position, Seat};

/// A heuristic value of a position for the side to move, in [`crate::score::UNIT`]s (100 ≈ one
/// move's worth of progress), strictly inside `±WIN_THRESHOLD`. Only called on positions that
/// are not finished (the search scores finished games itself).
pub trait Evaluate: Position {
    /// The position's value for its side to move (centipawn-like: about 40 per square of
    /// progress in the race games).
    fn evaluate(&self) -> i32;

    /// The position's value for `seat`, whoever is to move: how much better `seat` stands than
    /// the strongest of the others (a multi-player search scores the root seat by it). With two
    /// seats it is `evaluate()` for the side to move and its negation for the other.
    fn evaluate_for(&self, seat: Seat) -> i32 {
        if seat == self.side_to_move() {
            self.evaluate()
        } else {
            -self.evaluate()
        }
    }

    /// A cheap guess of how promising `mv` is, to order moves before the search knows better
    /// (e.g. captures or forward progress first). Larger is tried earlier; 0 is neutral.
    fn order_hint(&self, mv: &Self::Move) -> i32 {
        let _ = mv;
        0
    }

    /// [`Evaluate::order_hint`] for a move of `seat`, whoever is to move (a best-reply search
    /// orders every other seat's replies together).
    fn order_hint_of(&self, seat: Seat, mv: &Self::Move) -> i32 {
        let _ = seat;
        self.order_hint(mv)
    }

    /// Whether the search looks past its horizon along the moves for which
    /// [`Evaluate::is_noisy`] holds (a quiescence search), so that a static value is never taken
    /// in the middle of an exchange. Off for games without captures.
    const QUIESCENCE: bool = false;

    /// Whether `mv` changes the material so much that a static value taken just before it
    /// means little (a capture). Only asked when [`Evaluate::QUIESCENCE`] is on.
    fn is_noisy(&self, mv: &Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// What one node of this game costs, in hundredths of a budget node, so that a level's
    /// node budget takes about the same time on every board (100 = the 8×8 games, Focus and
    /// GIPF).
    fn node_cost(&self) -> u64 {
        100
    }
}

impl Evaluate for AnyPosition {
    fn evaluate(&self) -> i32 {
        match self {
            AnyPosition::Race(p) => p.evaluate(),
            AnyPosition::Focus(p) => p.evaluate(),
            AnyPosition::Gipf(p) => p.evaluate(),
        }
    }

    fn evaluate_for(&self, seat: Seat) -> i32 {
        match self {
            AnyPosition::Race(p) => p.evaluate_for(seat),
            AnyPosition::Focus(p) => p.evaluate_for(seat),
            AnyPosition::Gipf(p) => p.evaluate_for(seat),
        }
    }

    fn node_cost(&self) -> u64 {
        match self {
            AnyPosition::Race(p) => p.node_cost(),
            AnyPosition::Focus(p) => p.node_cost(),
            AnyPosition::Gipf(p) => p.node_cost(),
        }
    }

    const QUIESCENCE: bool = true;

    fn is_noisy(&self, mv: &AnyMove) -> bool {
        match (self, mv) {
            (AnyPosition::Race(p), AnyMove::Race(m)) => p.is_noisy(m),
            (AnyPosition::Focus(p), AnyMove::Focus(m)) => p.is_noisy(m),
            (AnyPosition::Gipf(p), AnyMove::Gipf(m)) => p.is_noisy(m),
            _ => false,
        }
    }

    fn order_hint(&self, mv: &AnyMove) -> i32 {
        match (self, mv) {
            (AnyPosition::Race(p), AnyMove::Race(m)) => p.order_hint(m),
            (AnyPosition::Focus(p), AnyMove::Focus(m)) => p.order_hint(m),
            (AnyPosition::Gipf(p), AnyMove::Gipf(m)) => p.order_hint(m),
            _ => 0,
        }
    }
}

mod focus;
mod gipf;
pub(crate) mod race;
