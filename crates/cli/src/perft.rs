use std::{process::ExitCode, time::Instant};

use boardcraft_rules::{
    Position,
    perft::{divide, perft_any},
};

use crate::common::{Start, position_after};

#[derive(clap::Args)]
pub struct Args {
    /// A shipped variant name (see `list`) or a path to a variant RON file.
    variant: String,
    /// Deepest depth to count; every depth from 1 is printed.
    #[arg(long, short)]
    depth: u32,
    #[command(flatten)]
    start: Start,
    /// Also print the leaf count below each legal move at the deepest depth.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    let (_, mut pos) = position_after(&args.variant, &args.start)?;
    outln!(
        "{:>5} {:>16} {:>10} {:>14}",
        "depth",
        "leaves",
        "seconds",
        "leaves/s"
    );
    for depth in 1..=args.depth {
        let start = Instant::now();
        let leaves = perft_any(&mut pos, depth);
        let secs = start.elapsed().as_secs_f64();
        let rate = if secs > 0.0 {
            leaves as f64 / secs
        } else {
            f64::INFINITY
        };
        outln!("{depth:>5} {leaves:>16} {secs:>10.3} {rate:>14.0}");
    }
    if args.divide {
        let mut rows: Vec<(String, u64)> = divide(&mut pos, args.depth)
            .into_iter()
            .map(|(m, n)| (pos.format_move(&m), n))
            .collect();
        rows.sort();
        for (m, n) in rows {
            outln!("{m} {n}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
