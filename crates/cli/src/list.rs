use std::process::ExitCode;

use boardcraft_rules::{shipped_variant, shipped_variants};

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> Result<ExitCode, String> {
    let width = shipped_variants().map(str::len).max().unwrap_or(0);
    for name in shipped_variants() {
        match shipped_variant(name) {
            Ok(v) => {
                let formerly = if v.aliases.is_empty() {
                    String::new()
                } else {
                    format!(" (formerly {})", v.aliases.join(", "))
                };
                let players: Vec<String> =
                    v.player_counts().iter().map(|n| n.to_string()).collect();
                outln!(
                    "{:<width$} {:<6} {:<9} {}{formerly}",
                    v.name,
                    v.rules.family_name(),
                    format!("{}p", players.join(",")),
                    v.title
                )
            }
            Err(e) => outln!("{name:<width$} INVALID: {e}"),
        }
    }
    Ok(ExitCode::SUCCESS)
}
