//! Focus perft throughput (leaves per second), in release:
//!
//! ```text
//! cargo bench -p boardcraft-rules --bench focus
//! ```
//!
//! Criterion reports the time per perft call and, since the throughput is set to the leaf
//! count, leaves per second ("elem/s").
use std::hint::black_box;

use boardcraft_rules::{
    FamilyRules, Position, focus::FocusPosition, perft::perft, position::play_line, shipped_variant,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The same middle game as the perft tests (`MIDGAME_RESERVES`): reserves on both sides and a
/// full stack, so drops and overflows are on the move lists.
const MIDGAME: &str = "f3-f2 f4-g4 b5-b4 g4-g3 g5-g6 e5-f5 c3-d3 f5-d5 d6-d7 d5-d2 \
    d7-b7 e3-e4 e6-e5 c2-d2 f2-d2 g3-g4 c7-c8 b6-a6 g6-g7 e4-g4 g3-g4 e7-f7 d3-b3 g6-g7 \
    b4-b5 g7-g4 +f5 g4-b4 d2-d6 b4-f4 f5-f4 f6-f7 f4-f7";

fn start() -> FocusPosition {
    match shipped_variant("focus").unwrap().rules {
        FamilyRules::Focus(r) => FocusPosition::new(r),
        _ => unreachable!(),
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("focus-perft");
    group.sample_size(10);
    let mut midgame = start();
    play_line(&mut midgame, MIDGAME).unwrap();
    for (name, pos, depth) in [("start", start(), 4), ("midgame", midgame, 3)] {
        let mut pos = pos;
        let leaves = perft(&mut pos, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("{name}/depth{depth}/{leaves}-leaves"), |b| {
            b.iter(|| perft(black_box(&mut pos), depth))
        });
        // Without the bulk count at the last ply: every leaf is played and taken back.
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("{name}/depth{depth}/make-unmake-every-leaf"), |b| {
            b.iter(|| perft_no_bulk(black_box(&mut pos), depth))
        });
    }
    group.finish();
}

fn perft_no_bulk(pos: &mut FocusPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut n = 0;
    for mv in &moves {
        let undo = pos.play_unchecked(mv);
        n += perft_no_bulk(pos, depth - 1);
        pos.undo(mv, undo);
    }
    n
}

criterion_group!(benches, bench);
criterion_main!(benches);
