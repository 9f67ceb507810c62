//! The limits this node keeps in memory, each over its own requests only (the limits every
//! node shares are the database's, `storage::limits`):
//! - [`Window`]: at most so many events per key (an address, an account's name) within a
//!   sliding window — new games and new guests per address, failed sign-ins per address —,
//!   a place taken before the work it limits and given back when that work does not count;
//!   keys whose events are all old are forgotten, so that a stranger's address is not kept;
//! - [`MessageRate`]: the messages one websocket may send, a token bucket (it lives and dies
//!   with its connection).
//!
//! Not a GCRA limiter such as `governor`'s: its model has no way to give a place back, which
//! the sign-in and guest limits need, and it lets up to twice the limit through within one
//! period (a full burst, then the period's refill), where these windows promise at most the
//! limit.
use std::{
    collections::{HashMap, VecDeque},
    hash::Hash,
    sync::Mutex,
    time::Duration,
};

use tokio::time::Instant;

use crate::Settings;

/// Events per key within a sliding window (new games, new guests and failed sign-ins per
/// address, on this node). Taking a place and counting it is one step under the lock ([`Window::reserve`]),
/// so that parallel requests never pass the limit together.
pub struct Window<K> {
    limit: u32,
    period: Duration,
    events: Mutex<HashMap<K, VecDeque<Instant>>>,
}

impl<K: Hash + Eq + Clone> Window<K> {
    pub fn new(limit: u32, period: Duration) -> Window<K> {
        Window {
            limit,
            period,
            events: Mutex::new(HashMap::new()),
        }
    }

    /// Counts an event for `key` if it is under its limit (0: no limit); else how long
    /// until its oldest event leaves the window. Old events are forgotten, and now and then
    /// every key whose events are all old (a stranger's guesses at names are never looked at
    /// again), so that the map holds only recent keys.
    pub fn reserve(&self, key: &K) -> Result<(), Duration> {
        if self.limit == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut events = self.events.lock().expect("not poisoned");
        if events.len() >= PURGE_AT {
            events.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|t| now.duration_since(*t) <= self.period)
            });
        }
        let times = events.entry(key.clone()).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) > self.period)
        {
            times.pop_front();
        }
        if times.len() as u32 >= self.limit {
            let oldest = *times.front().expect("a full window has events");
            return Err(self.period.saturating_sub(now.duration_since(oldest)));
        }
        times.push_back(now);
        Ok(())
    }

    /// Gives back an event [`Window::reserve`] counted (the request it was for does not
    /// count: a sign-in that succeeded, a guest that was not made).
    pub fn release(&self, key: &K) {
        if self.limit == 0 {
            return;
        }
        let mut events = self.events.lock().expect("not poisoned");
        if let Some(times) = events.get_mut(key) {
            times.pop_back();
            if times.is_empty() {
                events.remove(key);
            }
        }
    }

    /// Keys held (for tests).
    pub fn keys(&self) -> usize {
        self.events.lock().expect("not poisoned").len()
    }
}

/// A window's map is swept of stale keys when it holds this many.
const PURGE_AT: usize = 4096;

/// Messages a connection may send: a token bucket of `message_burst` tokens, refilled at
/// `messages_per_second`.
pub struct MessageRate {
    tokens: f64,
    per_second: f64,
    burst: f64,
    last: Instant,
    /// Messages refused so far.
    pub dropped: u32,
}

impl MessageRate {
    pub fn new(settings: &Settings) -> MessageRate {
        MessageRate {
            tokens: settings.message_burst as f64,
            per_second: settings.messages_per_second as f64,
            burst: settings.message_burst as f64,
            last: Instant::now(),
            dropped: 0,
        }
    }

    /// Takes a token for one message; `false` (and one more dropped) if none is left.
    pub fn allow(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            self.dropped += 1;
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn windows_reserve_release_and_forget_old_events_and_stale_keys() {
        let window = Window::new(2, Duration::from_secs(60));
        assert!(window.reserve(&1u32).is_ok());
        assert!(window.reserve(&1).is_ok());
        let wait = window.reserve(&1).expect_err("full");
        assert!(wait <= Duration::from_secs(60) && wait > Duration::from_secs(59));
        assert!(window.reserve(&2).is_ok());
        window.release(&1);
        assert!(window.reserve(&1).is_ok(), "a released place is free again");
        assert!(window.reserve(&1).is_err());
        tokio::time::advance(Duration::from_secs(61)).await;
        assert!(
            window.reserve(&1).is_ok(),
            "the old events have left the window"
        );
        for k in 0..PURGE_AT as u32 {
            let _ = window.reserve(&k);
        }
        assert!(window.keys() >= PURGE_AT);
        tokio::time::advance(Duration::from_secs(61)).await;
        let _ = window.reserve(&(PURGE_AT as u32));
        assert_eq!(window.keys(), 1, "stale keys swept");
    }
}
