use std::process::ExitCode;

use boardcraft_rules::Position;

use crate::common::position_after;

#[derive(clap::Args)]
pub struct Args {
    /// A shipped variant name (see `list`) or a path to a variant RON file.
    variant: String,
    /// Moves to play from the start first, in notation, separated by spaces.
    #[arg(long)]
    after: Option<String>,
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    let (variant, pos) = position_after(&args.variant, args.after.as_deref())?;
    println!("{} — {}", variant.name, variant.title);
    println!("{pos}");
    match pos.outcome() {
        Some(o) => println!("game over: {o}"),
        None => println!(
            "{} to move, {} legal moves",
            pos.side_to_move(),
            pos.count_legal_moves()
        ),
    }
    Ok(ExitCode::SUCCESS)
}
