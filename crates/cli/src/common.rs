//! What several commands share: resolving `<variant>` and playing `--after` moves.
use boardcraft_rules::{AnyPosition, Variant, position::play_line};

/// The variant named on the command line (a shipped name or a path to a RON file) and the
/// position after the given moves.
pub fn position_after(
    variant: &str,
    after: Option<&str>,
) -> Result<(Variant, AnyPosition), String> {
    let variant = Variant::resolve(variant).map_err(|e| e.to_string())?;
    let mut pos = variant.new_game();
    if let Some(line) = after {
        play_line(&mut pos, line).map_err(|e| e.to_string())?;
    }
    Ok((variant, pos))
}
