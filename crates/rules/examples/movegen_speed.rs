//! Move-list speed per family: the time of `legal_moves` at the start and in mid-game positions,
//! and random playouts (list the moves, pick one, `play_unchecked`) in full turns per second,
//! one turn being one side's move.
//!
//! ```sh
//! cargo run --release -p boardcraft-rules --example movegen_speed
//! cargo run --release -p boardcraft-rules --example movegen_speed -- halma-16 focus
//! ```
//!
//! Single thread. Each figure is the best of five timed runs (the machine may be shared; the
//! best run is the one least disturbed). Mid-game positions are reached by fixed pseudo-random
//! games, so every run measures the same positions.
use std::{
    hint::black_box,
    time::{Duration, Instant},
};

use boardcraft_rules::{AnyPosition, Position, shipped_variant};

/// The variants measured by default and the ply of their mid-game positions.
const DEFAULT: [(&str, u32); 4] = [
    ("halma-16", 60),
    ("ugolki-hg-3x3", 20),
    ("focus", 20),
    ("gipf-standard", 24),
];

const RUNS: usize = 5;
const RUN_TIME: Duration = Duration::from_millis(200);

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Nanoseconds per call of `f`, the best of [`RUNS`] runs of about [`RUN_TIME`] each.
fn best_ns(mut f: impl FnMut()) -> f64 {
    // Calibrate how many calls fill a run.
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        if t.elapsed() >= RUN_TIME / 10 {
            break;
        }
        n *= 2;
    }
    let n = n * 10;
    (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            t.elapsed().as_nanos() as f64 / n as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Positions `ply` plies into fixed pseudo-random games (games that end earlier are skipped).
/// Each move is picked from the legal moves sorted by their notation, so the positions do not
/// depend on the order `legal_moves` lists them in (and builds that list differently measure the
/// same positions).
fn mid_games<P: Position>(start: &P, ply: u32, count: usize) -> Vec<P> {
    let mut out = Vec::new();
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut moves = Vec::new();
    while out.len() < count {
        let mut pos = start.clone();
        while pos.ply() < ply && !pos.is_game_over() {
            pos.legal_moves(&mut moves);
            let mut named: Vec<(String, P::Move)> = moves
                .iter()
                .map(|m| (pos.format_move(m), m.clone()))
                .collect();
            named.sort_by(|a, b| a.0.cmp(&b.0));
            let mv = named[(rng.next() >> 7) as usize % named.len()].1.clone();
            pos.play_unchecked(&mv);
        }
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

fn measure<P: Position>(name: &str, start: P, mid_ply: u32) {
    let mut moves = Vec::with_capacity(256);
    start.legal_moves(&mut moves);
    let start_moves = moves.len();
    let start_ns = best_ns(|| {
        black_box(&start).legal_moves(&mut moves);
        black_box(&moves);
    });

    let count_ns = best_ns(|| {
        black_box(black_box(&start).count_legal_moves());
    });

    let mids = mid_games(&start, mid_ply, 8);
    let mid_moves: usize = mids
        .iter()
        .map(|p| {
            p.legal_moves(&mut moves);
            moves.len()
        })
        .sum();
    let mid_ns = best_ns(|| {
        for p in &mids {
            black_box(p).legal_moves(&mut moves);
            black_box(&moves);
        }
    }) / mids.len() as f64;

    // Random playouts: one call is one turn; a finished game starts again. (Which games these
    // are depends on the list's order, but not how they are distributed: a uniform pick.)
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    let mut pos = start.clone();
    let turn_ns = best_ns(|| {
        if pos.is_game_over() {
            pos = start.clone();
        }
        pos.legal_moves(&mut moves);
        let mv = &moves[(rng.next() >> 7) as usize % moves.len()];
        pos.play_unchecked(mv);
    });

    println!(
        "{name:<16} start {:>8.3} µs ({start_moves:>3} moves; bulk count {:.3} µs)   mid-game (ply {mid_ply}) {:>8.3} µs ({:>5.1} moves)   playouts {:>6.3} M turns/s ({:.3} µs/turn)",
        start_ns / 1e3,
        count_ns / 1e3,
        mid_ns / 1e3,
        mid_moves as f64 / mids.len() as f64,
        1e3 / turn_ns,
        turn_ns / 1e3,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let chosen: Vec<(String, u32)> = if args.is_empty() {
        DEFAULT.iter().map(|(n, p)| (n.to_string(), *p)).collect()
    } else {
        args.iter()
            .map(|a| {
                let ply = DEFAULT.iter().find(|(n, _)| n == a).map_or(20, |(_, p)| *p);
                (a.clone(), ply)
            })
            .collect()
    };
    for (name, ply) in chosen {
        let variant = match shipped_variant(&name) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        match variant.new_game() {
            AnyPosition::Race(p) => measure(&name, p, ply),
            AnyPosition::Focus(p) => measure(&name, p, ply),
            AnyPosition::Gipf(p) => measure(&name, p, ply),
        }
    }
}
