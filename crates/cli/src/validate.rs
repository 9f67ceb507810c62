use std::{path::PathBuf, process::ExitCode};

use boardcraft_rules::Variant;

#[derive(clap::Args)]
pub struct Args {
    /// Variant RON files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Treat warnings (a `name` that differs from the file name) as errors: exit status 1.
    #[arg(long)]
    deny_warnings: bool,
}

/// Checks each file: errors (the file cannot be played) and warnings (it can, but something
/// will surprise its author), both as `file:line: field …`. Exit status 1 if any file has an
/// error, or a warning under `--deny-warnings`.
pub fn run(args: Args) -> Result<ExitCode, String> {
    let mut all_ok = true;
    for file in &args.files {
        match Variant::from_path(file) {
            Ok(v) => {
                for w in &v.warnings {
                    outln!("{w}");
                }
                all_ok &= !args.deny_warnings || v.warnings.is_empty();
                outln!(
                    "{}: ok{} — {} ({}, {})",
                    file.display(),
                    match v.warnings.len() {
                        0 => String::new(),
                        1 => ", 1 warning".to_owned(),
                        n => format!(", {n} warnings"),
                    },
                    v.name,
                    v.title,
                    v.rules.family_name()
                );
            }
            Err(e) => {
                all_ok = false;
                outln!("{e}");
            }
        }
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
