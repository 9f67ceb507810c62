use boardcraft_rules::{FamilyRules, perft::perft, race::RacePosition, shipped_variant};

fn start(name: &str) -> RacePosition {
    match shipped_variant(name).unwrap().rules {
        FamilyRules::Race(r) => RacePosition::new(r),
        _ => panic!(),
    }
}

#[test]
fn quick() {
    for (name, d) in [("ugolki-hg-3x3", 5), ("ugolki-hg-3x4", 4), ("ugolki-9qum", 5), ("halma-16", 4), ("grasshopper", 4)] {
        let mut p = start(name);
        let t = std::time::Instant::now();
        let n = perft(&mut p, d);
        let s = t.elapsed().as_secs_f64();
        println!("{name} perft {d} = {n}  {:.3}s  {:.1} M/s", s, n as f64 / s / 1e6);
    }
}
