//! Release-mode perft throughput for a race variant:
//! `cargo run --release -p boardcraft-rules --example race_perft -- ugolki-hg-3x3 5`
use std::time::Instant;

use boardcraft_rules::{FamilyRules, Variant, perft::perft, race::RacePosition};

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "ugolki-hg-3x3".into());
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let repeat: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(1);
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
    for d in 1..=depth {
        let t = Instant::now();
        let mut n = 0;
        for _ in 0..repeat {
            n = perft(&mut pos, d);
        }
        let s = t.elapsed().as_secs_f64() / f64::from(repeat);
        println!(
            "{name} perft({d}) = {n:>12}  {:>9.3} ms  {:>7.1} M leaves/s",
            s * 1e3,
            n as f64 / s / 1e6
        );
    }
}
