//! The clocks of a timed game, kept by the server (tokio time, so tests can pause it).
//!
//! A side's clock runs from the moment the opponent's move was stored until its own move is;
//! the increment is added after each move made on a running clock. As on lichess, the clocks
//! start after each side's first move (from ply 2 on), so nobody loses time while the
//! opponent opens the page. After a restart a game's clocks resume from the times stored with
//! its last move: the time the server was down is not charged.
use std::time::Duration;

use boardcraft_protocol::{Clocks, Side, TimeControl};
use tokio::time::Instant;

/// Plies after which the clock runs.
const FREE_PLIES: usize = 2;

#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Each side's remaining time at `turn_start`, in ms, by [`Side::index`].
    pub remaining: [u64; 2],
    /// When the side to move's clock started running (`None`: not running).
    turn_start: Option<Instant>,
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

impl Clock {
    /// The clock of a game with these remaining times after its last move (or fresh).
    pub fn resume(tc: TimeControl, remaining: Option<[u64; 2]>, _plies: usize) -> Clock {
        Clock {
            tc,
            remaining: remaining.unwrap_or([tc.initial_ms; 2]),
            turn_start: None,
        }
    }

    /// Starts the side to move's clock at `now` if the game is past its free plies.
    pub fn start_turn(&mut self, plies: usize, now: Instant) {
        self.turn_start = (plies >= FREE_PLIES).then_some(now);
    }

    /// When `side` (to move) runs out of time, if its clock runs.
    pub fn flag_at(&self, side: Side) -> Option<Instant> {
        self.turn_start
            .map(|t| t + Duration::from_millis(self.remaining[side.index()]))
    }

    /// The clocks as of `now`; `to_move` is the side whose clock would run.
    pub fn clocks(&self, now: Instant, to_move: Option<Side>) -> Clocks {
        let mut remaining = self.remaining;
        let running = match (to_move, self.turn_start) {
            (Some(side), Some(start)) => {
                let r = &mut remaining[side.index()];
                *r = r.saturating_sub(ms(now.saturating_duration_since(start)));
                Some(side)
            }
            _ => None,
        };
        Clocks {
            white_ms: remaining[0],
            black_ms: remaining[1],
            running,
        }
    }

    /// The clock after `side` moved at `ply` at `now`.
    pub fn after_move(&self, side: Side, now: Instant, ply: u32) -> Clock {
        let mut next = self.clone();
        if let Some(start) = self.turn_start {
            let r = &mut next.remaining[side.index()];
            *r = r.saturating_sub(ms(now.saturating_duration_since(start))) + self.tc.increment_ms;
        }
        next.start_turn(ply as usize + 1, now);
        next
    }

    /// Stops the clock at the end of the game (the side to move's time is charged).
    pub fn stop(&mut self, to_move: Side, now: Instant, _plies: usize) {
        if let Some(start) = self.turn_start.take() {
            let r = &mut self.remaining[to_move.index()];
            *r = r.saturating_sub(ms(now.saturating_duration_since(start)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_is_charged_after_the_free_plies_with_increment() {
        let tc = TimeControl {
            initial_ms: 10_000,
            increment_ms: 1_000,
        };
        let t0 = Instant::now();
        let mut c = Clock::resume(tc, None, 0);
        c.start_turn(0, t0);
        assert_eq!(c.flag_at(Side::White), None);
        let c = c.after_move(Side::White, t0 + Duration::from_secs(5), 0);
        let c = c.after_move(Side::Black, t0 + Duration::from_secs(9), 1);
        assert_eq!(c.remaining, [10_000, 10_000]);
        let t2 = t0 + Duration::from_secs(9);
        assert_eq!(c.flag_at(Side::White), Some(t2 + Duration::from_secs(10)));
        let now = t2 + Duration::from_secs(3);
        assert_eq!(c.clocks(now, Some(Side::White)).white_ms, 7_000);
        let c = c.after_move(Side::White, now, 2);
        assert_eq!(c.remaining, [8_000, 10_000]);
    }
}
