//! The same-run normaliser printed beside every speed figure: chess perft(6) from the start
//! position with shakmaty, in leaves per second (about 300 M/s on the project's machines).
//!
//! `cargo run --release -p boardcraft-rules --example chess_perft`
use std::time::Instant;

use shakmaty::{Chess, perft};

fn main() {
    let pos = Chess::default();
    let mut best = f64::INFINITY;
    let mut leaves = 0;
    for _ in 0..3 {
        let start = Instant::now();
        leaves = perft(&pos, 6);
        best = best.min(start.elapsed().as_secs_f64());
    }
    assert_eq!(leaves, 119_060_324, "chess perft(6) of the start position");
    println!(
        "normaliser: chess perft(6) {leaves} leaves in {best:.3} s (best of 3) = {:.1} M leaves/s",
        leaves as f64 / best / 1e6
    );
}
