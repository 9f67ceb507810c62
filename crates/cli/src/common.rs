//! What several commands share: resolving `<variant>` and the start position (`--position`
//! text, then `--after` moves).
use boardcraft_rules::{AnyPosition, Variant, position::play_line};

/// Where a command's position comes from.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Start {
    /// Start from this position, written as text (see "Positions as text" in docs/cli.md)
    /// instead of the variant's start position.
    #[arg(long)]
    pub position: Option<String>,
    /// Moves to play first (from the start, or from `--position`), in notation, separated by
    /// spaces.
    #[arg(long)]
    pub after: Option<String>,
    /// The number of players, for variants that offer several (see `list`); default the
    /// fewest the variant offers.
    #[arg(long)]
    pub players: Option<usize>,
}

/// The variant named on the command line, played by `players` seats if given.
pub fn variant_for(variant: &str, players: Option<usize>) -> Result<Variant, String> {
    let variant = Variant::resolve(variant).map_err(|e| e.to_string())?;
    match players {
        None => Ok(variant),
        Some(n) => variant.for_players(n).map_err(|e| e.to_string()),
    }
}

/// The variant named on the command line (a shipped name or a path to a RON file) and the
/// position: the `--position` text or the start, then the `--after` moves.
pub fn position_after(variant: &str, start: &Start) -> Result<(Variant, AnyPosition), String> {
    let variant = variant_for(variant, start.players)?;
    let mut pos = match &start.position {
        Some(text) => variant
            .position_from_text(text)
            .map_err(|e| e.to_string())?,
        None => variant.new_game(),
    };
    if let Some(line) = &start.after {
        play_line(&mut pos, line).map_err(|e| e.to_string())?;
    }
    Ok((variant, pos))
}
