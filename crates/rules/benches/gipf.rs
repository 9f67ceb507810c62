//! GIPF perft throughput: `cargo bench -p boardcraft-rules --bench gipf`.
//! Leaves per second = the perft count divided by the reported time.
use std::hint::black_box;

use boardcraft_rules::{AnyPosition, Position, perft::perft, shipped_variant};
use criterion::{Criterion, criterion_group, criterion_main};

fn start(name: &str) -> boardcraft_rules::gipf::GipfPosition {
    match shipped_variant(name).unwrap().new_game() {
        AnyPosition::Gipf(p) => p,
        _ => unreachable!(),
    }
}

/// A middle-game position: 24 plies of a fixed pseudo-random game (rows and removals occur).
fn middle_game(name: &str) -> boardcraft_rules::gipf::GipfPosition {
    let mut pos = start(name);
    let mut x = 0x9E37_79B9_7F4A_7C15_u64;
    let mut moves = Vec::new();
    while pos.ply() < 24 && pos.outcome().is_none() {
        pos.legal_moves(&mut moves);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mv = moves[(x >> 7) as usize % moves.len()];
        pos.play(&mv).unwrap();
    }
    pos
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("gipf-perft");
    group.sample_size(10);
    for name in [
        "gipf-basic",
        "gipf-standard",
        "gipf-tournament",
        "gipf-steps",
    ] {
        let mut pos = start(name);
        let leaves = perft(&mut pos, 3);
        group.bench_function(format!("{name} start depth 3 ({leaves} leaves)"), |b| {
            b.iter(|| perft(black_box(&mut pos), 3))
        });
    }
    let mut pos = middle_game("gipf-standard");
    let leaves = perft(&mut pos, 3);
    group.bench_function(
        format!("gipf-standard middle game depth 3 ({leaves} leaves)"),
        |b| b.iter(|| perft(black_box(&mut pos), 3)),
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
