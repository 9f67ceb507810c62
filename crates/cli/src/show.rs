use std::process::ExitCode;

use boardcraft_rules::Position;

use crate::common::{Start, position_after};

#[derive(clap::Args)]
pub struct Args {
    /// A shipped variant name (see `list`) or a path to a variant RON file.
    variant: String,
    #[command(flatten)]
    start: Start,
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    let (variant, pos) = position_after(&args.variant, &args.start)?;
    outln!("{} — {}", variant.name, variant.title);
    outln!("{pos}");
    outln!("position: {}", pos.to_text());
    match pos.outcome() {
        Some(o) => outln!("game over: {}", o.describe(|s| pos.seat_name(s))),
        None => outln!(
            "{} to move, {} legal moves",
            pos.seat_name(pos.side_to_move()),
            pos.count_legal_moves()
        ),
    }
    Ok(ExitCode::SUCCESS)
}
