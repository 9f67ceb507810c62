//! A random game of a shipped variant: every generated move is legal, round-trips and undoes.
//! The body (and the input format) is `boardcraft_rules::checks::fuzz::legal_moves_are_legal`, which the stable
//! test `crates/rules/tests/fuzz_seeds.rs` also runs over the committed seeds.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| boardcraft_rules::checks::fuzz::legal_moves_are_legal(data));
