//! `think`: what the engine would play in a position, with its analysis.
use std::{process::ExitCode, time::Duration};

use boardcraft_ai::{
    AnySearch, Budget, Level, SearchConfig, analysis_of,
    mcts::{Reward, Settings},
};
use boardcraft_rules::Position;

use crate::{
    common::{Start, position_after},
    player::parse_duration,
};

#[derive(clap::Args)]
pub struct Args {
    /// A shipped variant name (see `list`) or a path to a variant RON file.
    variant: String,
    #[command(flatten)]
    start: Start,
    /// Playing strength: novice, amateur, strong or master.
    #[arg(long, default_value = "master")]
    level: Level,
    /// Search exactly this many nodes at full strength instead of the level's budget.
    #[arg(long, conflicts_with = "time")]
    nodes: Option<u64>,
    /// Search for this long at full strength (seconds, or e.g. 500ms).
    #[arg(long, value_parser = parse_duration)]
    time: Option<Duration>,
    /// Seed of the level's noise.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search threads (default: the machine's cores − 1, at least 1). Only one thread is
    /// reproducible per seed.
    #[arg(long, default_value_t = boardcraft_ai::default_threads())]
    threads: usize,
    /// Print JSON for machines.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    let (variant, pos) = position_after(&args.variant, &args.start)?;
    if let Some(o) = pos.outcome() {
        return Err(format!(
            "the game is over: {}",
            o.describe(|s| pos.seat_name(s))
        ));
    }
    let cfg = match (args.nodes, args.time) {
        // Full strength: Master's kind of search within the budget given.
        (Some(n), _) => SearchConfig::new(Budget::nodes(n))
            .with_seed(args.seed)
            .with_monte_carlo(true),
        (None, Some(t)) => SearchConfig::new(Budget::time(t))
            .with_seed(args.seed)
            .with_monte_carlo(true),
        (None, None) => args.level.config(&pos, args.seed),
    };
    let monte_carlo = AnySearch::plays_monte_carlo(&pos, &cfg);
    let result = AnySearch::think_parallel(&pos, cfg, args.threads);
    let elapsed = result.elapsed;
    let nodes = result.nodes;
    let a = analysis_of(&pos, result);
    let best = a
        .best_move
        .as_ref()
        .map(|m| pos.format_move(m))
        .unwrap_or_else(|| "none".into());
    let nps = nodes as f64 / elapsed.as_secs_f64().max(1e-9);
    if args.json {
        let doc = serde_json::json!({
            "variant": variant.name,
            "side_to_move": pos.seat_name(pos.side_to_move()),
            "move": best,
            "score": a.score.0,
            "score_text": a.score.to_string(),
            // Monte-Carlo search scores the mean reward in thousandths (0 … 1000).
            "monte_carlo": monte_carlo,
            "white_score": a.white_score.0,
            "depth": a.depth,
            "threads": args.threads,
            "nodes": nodes,
            "seconds": elapsed.as_secs_f64(),
            "pv": a.pv_notation,
        });
        outln!("{doc}");
    } else {
        outln!("move:  {best}");
        let me = pos.seat_name(pos.side_to_move());
        if pos.seat_count() == 2 {
            let first = pos.seat_name(boardcraft_rules::Seat::WHITE);
            outln!(
                "score: {} for {me} ({} for {first})",
                a.score,
                a.white_score
            );
        } else if monte_carlo {
            // A Monte-Carlo search's value is the mover's mean reward over its playouts.
            let scale = match Settings::for_seats(pos.seat_count()).reward {
                Reward::Place { .. } => "100 % first, 0 % last",
                Reward::Lead { .. } => {
                    "100 % finishing next, 50 % level with the best of the others"
                }
            };
            outln!(
                "value: {:.0} % for {me} (the mean reward of the playouts: {scale}; a finish \
                 counts less the later it comes)",
                f64::from(a.score.0) / 10.0
            );
        } else {
            // The mover's lead over the strongest of the others (a best-reply search lets the
            // strongest reply of any other seat answer each of the mover's moves).
            outln!(
                "score: {} for {me}, against the strongest of the others",
                a.score
            );
        }
        outln!(
            "depth: {}  nodes: {nodes}  time: {:.3} s  ({nps:.0} nodes/s)",
            a.depth,
            elapsed.as_secs_f64()
        );
        outln!("pv:    {}", a.pv_notation.join(" "));
    }
    Ok(ExitCode::SUCCESS)
}
