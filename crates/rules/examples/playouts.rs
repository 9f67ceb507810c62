//! Random playouts: uniformly random full turns (a chain of hops is one turn), a new game
//! whenever one ends, for a number of turns; prints turns per second. Run
//! `chess_perft` beside it for the normaliser.
//!
//! `cargo run --release -p boardcraft-rules --example playouts -- <variant> [players] [turns]`
use std::time::Instant;

use boardcraft_rules::{AnyPosition, Position, shipped_variant};

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "chinese-checkers".into());
    let players: usize = args
        .next()
        .map_or(0, |p| p.parse().expect("a number of players"));
    let turns: u64 = args
        .next()
        .map_or(2_000_000, |t| t.parse().expect("a number of turns"));
    let variant = shipped_variant(&name).expect("a shipped variant");
    let variant = if players == 0 {
        variant
    } else {
        variant
            .with_players(players)
            .expect("a seat count the variant offers")
    };
    // On the family's own position type, as the computer's search runs (the `AnyPosition`
    // enum re-wraps every move list).
    let start = variant.new_game();
    let (plies, secs, games) = match &start {
        AnyPosition::Race(p) => playouts(p, turns),
        AnyPosition::Focus(p) => playouts(p, turns),
        AnyPosition::Gipf(p) => playouts(p, turns),
    };
    let pos = start;
    println!(
        "{} ({} players): {plies} random turns in {secs:.3} s (best of 3) = {:.2} M turns/s ({games} games finished)",
        variant.name,
        pos.seat_count(),
        plies as f64 / secs / 1e6
    );
}

/// `turns` uniformly random turns from `start`, a new game whenever one ends: the best of three
/// runs of the same games (a busy machine only ever slows a run down), as (turns, seconds, games
/// finished).
fn playouts<P: Position>(start: &P, turns: u64) -> (u64, f64, u64) {
    let mut secs = f64::INFINITY;
    let mut games = 0;
    for _ in 0..3 {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut moves = Vec::new();
        let mut pos = start.clone();
        games = 0;
        let clock = Instant::now();
        for _ in 0..turns {
            if pos.is_game_over() {
                pos = start.clone();
                games += 1;
            }
            pos.legal_moves(&mut moves);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = &moves[(rng % moves.len() as u64) as usize];
            pos.play_unchecked(mv);
        }
        secs = secs.min(clock.elapsed().as_secs_f64());
    }
    (turns, secs, games)
}
