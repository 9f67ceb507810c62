//! Release-mode perft throughput for a race variant:
//! `cargo run --release -p boardcraft-rules --example race_perft -- ugolki-hg-3x3 5 [repeat]`
//!
//! Prints wall-clock leaves/s and, on Linux, leaves per second of CPU time actually spent on
//! this thread (from `/proc/thread-self/schedstat`), which stays meaningful on a busy machine.
use std::time::Instant;

use boardcraft_rules::{FamilyRules, Variant, perft::perft, race::RacePosition};

/// Nanoseconds this thread has run on a CPU, if the kernel tells.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "ugolki-hg-3x3".into());
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let repeat: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(3).max(1);
    let variant = match Variant::resolve(&name) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let FamilyRules::Race(rules) = variant.rules else {
        eprintln!("{name} is not a race variant");
        std::process::exit(2);
    };
    let mut pos = RacePosition::new(rules);
    for d in 1..depth {
        println!("{name} perft({d}) = {:>12}", perft(&mut pos, d));
    }
    let (wall, cpu) = (Instant::now(), cpu_ns());
    let mut n = 0;
    for _ in 0..repeat {
        n = perft(&mut pos, depth);
    }
    let wall = wall.elapsed().as_secs_f64() / f64::from(repeat);
    print!(
        "{name} perft({depth}) = {n:>12}  wall {:>8.2} ms  {:>6.1} M leaves/s",
        wall * 1e3,
        n as f64 / wall / 1e6
    );
    match (cpu, cpu_ns()) {
        (Some(a), Some(b)) if b > a => {
            let cpu = (b - a) as f64 / 1e9 / f64::from(repeat);
            println!(
                "  cpu {:>8.2} ms  {:>6.1} M leaves/s",
                cpu * 1e3,
                n as f64 / cpu / 1e6
            );
        }
        _ => println!(),
    }
}
