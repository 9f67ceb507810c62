//! Move notation typed by people, in a position of any shipped variant (every family).
//! The body (and the input format) is `boardcraft_rules::checks::fuzz::notation`, which the stable
//! test `crates/rules/tests/fuzz_seeds.rs` also runs over the committed seeds.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| boardcraft_rules::checks::fuzz::notation(data));
