//! The clocks of a timed game, kept by the server (tokio time, so tests can pause it): one per
//! seat, whatever the number of seats.
//!
//! A seat's clock runs from the moment the previous move was stored until its own move is;
//! the increment is added after each move made on a running clock. As on lichess, the clocks
//! start after each seat's first move (from the ply that equals the number of seats on: 2 in
//! a two-seat game), so nobody loses time while the others open the page. After a restart a
//! game's clocks resume from the times stored with its last move: the time the server was
//! down is not charged.
use std::time::Duration;

use boardcraft_protocol::{SeatClocks, SeatIndex, TimeControl};
use tokio::time::Instant;

#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Each seat's remaining time at `turn_start`, in ms, in seat order.
    pub remaining: Vec<u64>,
    /// When the seat to move's clock started running (`None`: not running).
    turn_start: Option<Instant>,
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

impl Clock {
    /// The clock of a game of `seats` seats with these remaining times after its last move
    /// (or fresh).
    pub fn resume(tc: TimeControl, seats: usize, remaining: Option<&[u64]>) -> Clock {
        Clock {
            tc,
            remaining: match remaining {
                Some(r) if r.len() == seats => r.to_vec(),
                _ => vec![tc.initial_ms; seats],
            },
            turn_start: None,
        }
    }

    /// Starts the clock of the seat to move at `now` if every seat has made its first move
    /// (`plies` played).
    pub fn start_turn(&mut self, plies: usize, now: Instant) {
        self.turn_start = (plies >= self.remaining.len()).then_some(now);
    }

    /// When `seat` (to move) runs out of time, if its clock runs.
    pub fn flag_at(&self, seat: SeatIndex) -> Option<Instant> {
        self.turn_start
            .map(|t| t + Duration::from_millis(self.remaining[usize::from(seat)]))
    }

    /// The clocks as of `now`; `to_move` is the seat whose clock would run.
    pub fn clocks(&self, now: Instant, to_move: Option<SeatIndex>) -> SeatClocks {
        let mut remaining = self.remaining.clone();
        let running = match (to_move, self.turn_start) {
            (Some(seat), Some(start)) => {
                let r = &mut remaining[usize::from(seat)];
                *r = r.saturating_sub(ms(now.saturating_duration_since(start)));
                Some(seat)
            }
            _ => None,
        };
        SeatClocks {
            remaining_ms: remaining,
            running,
        }
    }

    /// The clock after `seat` moved at `ply` at `now`.
    pub fn after_move(&self, seat: SeatIndex, now: Instant, ply: u32) -> Clock {
        let mut next = self.clone();
        if let Some(start) = self.turn_start {
            let r = &mut next.remaining[usize::from(seat)];
            *r = r.saturating_sub(ms(now.saturating_duration_since(start))) + self.tc.increment_ms;
        }
        next.start_turn(ply as usize + 1, now);
        next
    }

    /// Stops the clock at the end of the game (the seat to move's time is charged).
    pub fn stop(&mut self, to_move: SeatIndex, now: Instant) {
        if let Some(start) = self.turn_start.take() {
            let r = &mut self.remaining[usize::from(to_move)];
            *r = r.saturating_sub(ms(now.saturating_duration_since(start)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TC: TimeControl = TimeControl {
        initial_ms: 10_000,
        increment_ms: 1_000,
    };

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn time_is_charged_after_the_free_plies_with_increment() {
        let t0 = Instant::now();
        let mut c = Clock::resume(TC, 2, None);
        c.start_turn(0, t0);
        assert_eq!(c.flag_at(0), None);
        let c = c.after_move(0, t0 + secs(5), 0);
        let c = c.after_move(1, t0 + secs(9), 1);
        assert_eq!(c.remaining, [10_000, 10_000]);
        let t2 = t0 + secs(9);
        assert_eq!(c.flag_at(0), Some(t2 + secs(10)));
        let now = t2 + secs(3);
        assert_eq!(c.clocks(now, Some(0)).remaining_ms, [7_000, 10_000]);
        assert_eq!(c.clocks(now, Some(0)).running, Some(0));
        let c = c.after_move(0, now, 2);
        assert_eq!(c.remaining, [8_000, 10_000]);
    }

    /// Three seats: each seat's first move is free, then each clock runs in its turn only.
    #[test]
    fn three_seats_have_three_clocks() {
        let t0 = Instant::now();
        let mut c = Clock::resume(TC, 3, None);
        c.start_turn(0, t0);
        let c = c.after_move(0, t0 + secs(4), 0);
        let c = c.after_move(1, t0 + secs(8), 1);
        assert_eq!(c.flag_at(2), None, "seat 2's first move is free too");
        let c = c.after_move(2, t0 + secs(12), 2);
        assert_eq!(c.remaining, [10_000; 3]);
        // Now seat 0's clock runs.
        let t3 = t0 + secs(12);
        assert_eq!(c.flag_at(0), Some(t3 + secs(10)));
        let c = c.after_move(0, t3 + secs(2), 3);
        let c = c.after_move(1, t3 + secs(7), 4);
        assert_eq!(c.remaining, [9_000, 6_000, 10_000]);
        let seen = c.clocks(t3 + secs(8), Some(2));
        assert_eq!(seen.remaining_ms, [9_000, 6_000, 9_000]);
        assert_eq!(seen.running, Some(2));
        let mut c = c;
        c.stop(2, t3 + secs(10));
        assert_eq!(c.remaining, [9_000, 6_000, 7_000]);
        assert_eq!(c.flag_at(2), None, "stopped");
        // Resumed from stored times of another number of seats: fresh.
        assert_eq!(Clock::resume(TC, 3, Some(&[1, 2])).remaining, [10_000; 3]);
        assert_eq!(Clock::resume(TC, 3, Some(&[1, 2, 3])).remaining, [1, 2, 3]);
    }
}
