//! Perft throughput (leaves per second) from the start position.
//!
//! `cargo bench -p boardcraft-rules --bench perft` — criterion reports the time per perft and,
//! through `Throughput::Elements`, leaves per second.
use std::hint::black_box;

use boardcraft_rules::{FamilyRules, perft::perft, race::RacePosition, shipped_variant};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn race_start(name: &str) -> RacePosition {
    match shipped_variant(name).expect("shipped variant").rules {
        FamilyRules::Race(rules) => RacePosition::new(rules),
        _ => unreachable!("{name} is a race variant"),
    }
}

fn race_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("race-perft");
    group.sample_size(20);
    for (name, depth) in [("ugolki-hg-3x3", 5), ("halma-16", 4)] {
        let mut pos = race_start(name);
        let leaves = perft(&mut pos, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("{name}/depth-{depth}"), |b| {
            b.iter(|| perft(black_box(&mut pos), black_box(depth)))
        });
    }
    group.finish();
}

criterion_group!(benches, race_perft);
criterion_main!(benches);
