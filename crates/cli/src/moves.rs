use std::process::ExitCode;

use boardcraft_rules::Position;

use crate::common::{Start, position_after};

#[derive(clap::Args)]
pub struct Args {
    /// A shipped variant name (see `list`) or a path to a variant RON file.
    variant: String,
    #[command(flatten)]
    start: Start,
    /// Print JSON for machines instead of one move per line.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    let (variant, pos) = position_after(&args.variant, &args.start)?;
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut notation: Vec<String> = moves.iter().map(|m| pos.format_move(m)).collect();
    notation.sort();
    if args.json {
        let seats: Vec<boardcraft_rules::Seat> =
            boardcraft_rules::Seat::all(pos.seat_count()).collect();
        let outcome = pos.outcome().map(|o| {
            serde_json::json!({
                "winner": o.winner().map(|c| pos.seat_name(c)),
                "places": seats.iter().map(|&s| serde_json::json!({
                    "seat": pos.seat_name(s),
                    "place": o.places.of(s),
                })).collect::<Vec<_>>(),
                "reason": o.reason.to_string(),
            })
        });
        let pieces: serde_json::Map<String, serde_json::Value> = seats
            .iter()
            .map(|&s| (pos.seat_name(s), serde_json::json!(pos.pieces_text(s))))
            .collect();
        let doc = serde_json::json!({
            "variant": variant.name,
            "players": pos.seat_count(),
            "ply": pos.ply(),
            "side_to_move": pos.seat_name(pos.side_to_move()),
            "pieces": pieces,
            "outcome": outcome,
            "moves": notation,
        });
        outln!("{doc}");
    } else {
        for m in &notation {
            outln!("{m}");
        }
        if let Some(o) = pos.outcome() {
            eprintln!("game over: {}", o.describe(|s| pos.seat_name(s)));
        }
    }
    Ok(ExitCode::SUCCESS)
}
