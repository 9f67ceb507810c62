//! Wall-clock time for time budgets. `std::time::Instant` panics on `wasm32-unknown-unknown`;
//! there the clock reads zero and the caller enforces time by running the search in slices
//! (`Search::step`) and stopping it (`Search::stop`) when its frame budget is spent.
use std::time::Duration;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock(std::time::Instant);

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
impl Clock {
    pub fn start() -> Self {
        Clock(std::time::Instant::now())
    }
    pub fn elapsed(&self) -> Duration {
        self.0.elapsed()
    }
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
impl Clock {
    pub fn start() -> Self {
        Clock
    }
    pub fn elapsed(&self) -> Duration {
        Duration::ZERO
    }
}
