use std::process::ExitCode;

use boardcraft_rules::{shipped_variant, shipped_variants};

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> Result<ExitCode, String> {
    for name in shipped_variants() {
        match shipped_variant(name) {
            Ok(v) => println!("{:<20} {:<6} {}", v.name, v.rules.family_name(), v.title),
            Err(e) => println!("{name:<20} INVALID: {e}"),
        }
    }
    Ok(ExitCode::SUCCESS)
}
