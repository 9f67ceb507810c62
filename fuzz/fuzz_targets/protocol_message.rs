//! Any bytes as one websocket frame from a client: the protocol's parser never panics, and a
//! message it accepts, handled by a real game task from each of the game's connections (White,
//! Black, a spectator), never panics and leaves a game its moves replay to.
//! The body is `boardcraft_server::checks::one_message`, which the stable test
//! `crates/server/tests/online/fuzz_seeds.rs` also runs over the committed seeds.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| boardcraft_server::checks::one_message(data));
