use std::{path::PathBuf, process::ExitCode};

use boardcraft_rules::Variant;

#[derive(clap::Args)]
pub struct Args {
    /// Variant RON files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    let mut all_ok = true;
    for file in &args.files {
        match Variant::from_path(file) {
            Ok(v) => println!(
                "{}: ok — {} ({}, {})",
                file.display(),
                v.name,
                v.title,
                v.rules.family_name()
            ),
            Err(e) => {
                all_ok = false;
                println!("{e}");
            }
        }
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
