//! Any bytes as a save file: loading (read, parse, replay on the shipped variant) never panics;
//! a save that loads keeps every rules invariant and survives being written again.
//! The body is `boardcraft_saves::checks::save_file`, which the stable test
//! `crates/saves/tests/fuzz_seeds.rs` also runs over the committed seeds.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| boardcraft_saves::checks::save_file(data));
