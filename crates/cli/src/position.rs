//! `position`: a position as text alone on one line (to paste into `--position`, a puzzle
//! file, the engine protocol's `position text`, or the game).
use std::process::ExitCode;

use crate::common::{Start, position_after};

#[derive(clap::Args)]
pub struct Args {
    /// A shipped variant name (see `list`) or a path to a variant RON file.
    variant: String,
    #[command(flatten)]
    start: Start,
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    let (_, pos) = position_after(&args.variant, &args.start)?;
    outln!("{}", pos.to_text());
    Ok(ExitCode::SUCCESS)
}
