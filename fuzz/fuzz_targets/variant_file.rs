//! Any text as a variant file: parse + validate never panic; a valid file starts a sound game.
//! The body (and the input format) is `boardcraft_rules::checks::fuzz::variant_file`, which the stable
//! test `crates/rules/tests/fuzz_seeds.rs` also runs over the committed seeds.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| boardcraft_rules::checks::fuzz::variant_file(data));
