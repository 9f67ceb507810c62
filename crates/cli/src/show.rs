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
    println!("{} — {}", variant.name, variant.title);
    println!("{pos}");
    println!("position: {}", pos.to_text());
    match pos.outcome() {
        Some(o) => println!("game over: {}", o.describe(|s| pos.seat_name(s))),
        None => println!(
            "{} to move, {} legal moves",
            pos.seat_name(pos.side_to_move()),
            pos.count_legal_moves()
        ),
    }
    Ok(ExitCode::SUCCESS)
}
