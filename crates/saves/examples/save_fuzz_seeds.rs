//! Writes the seed corpus of the `save_file` fuzz target (`fuzz/seeds/save_file/`): real saves
//! made with this crate's API from seeded random games of every shipped variant (an empty game,
//! a game in progress, resigned in every other variant, a finished one), plus a few damaged
//! ones.
//! `cargo run -p boardcraft-saves --features checks --example save_fuzz_seeds -- fuzz/seeds/save_file`
use std::{fs, path::Path};

use boardcraft_ai::Level;
use boardcraft_rules::{Position, Variant, shipped_variant, shipped_variants};
use boardcraft_saves::{Player, SavedGame};

/// A seeded random game of at most `plies` plies, as moves in notation, and its outcome.
fn random_game(
    variant: &Variant,
    plies: usize,
    seed: &mut u64,
) -> (Vec<String>, Option<boardcraft_rules::Outcome>) {
    let mut pos = variant.new_game();
    let mut moves = Vec::new();
    let mut line = Vec::new();
    for _ in 0..plies {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let mv = &moves[(*seed % moves.len() as u64) as usize];
        line.push(pos.format_move(mv));
        pos.play(mv).unwrap();
    }
    (line, pos.outcome())
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fuzz/seeds/save_file".into());
    let out = Path::new(&out);
    fs::create_dir_all(out).unwrap();
    let mut seed = 0x5a7e_5eed_u64;
    let players = [
        (Player::Human, Player::Computer(Level::Novice)),
        (Player::Computer(Level::Master), Player::Human),
        (
            Player::Computer(Level::Amateur),
            Player::Computer(Level::Strong),
        ),
    ];
    for (i, name) in shipped_variants().enumerate() {
        let variant = shipped_variant(name).unwrap();
        for (j, (label, plies)) in [("empty", 0), ("midgame", 24), ("finished", 5000)]
            .into_iter()
            .enumerate()
        {
            let (moves, outcome) = random_game(&variant, plies, &mut seed);
            let (white, black) = players[(i + j) % players.len()];
            let mut save = SavedGame::new(&variant, white, black, moves, outcome)
                .with_saved_at(1_764_000_000 + seed % 10_000_000);
            // A game in progress that one side resigned.
            if label == "midgame" && i % 2 == 0 && outcome.is_none() {
                save = save.with_resignation(boardcraft_rules::Seat::BLACK);
            }
            fs::write(out.join(format!("{name}-{label}.ron")), save.to_ron()).unwrap();
        }
    }
    // Damaged saves: cut off, an illegal move, an unknown variant, a newer format.
    let variant = shipped_variant("ugolki-9qum").unwrap();
    let (moves, outcome) = random_game(&variant, 30, &mut seed);
    let text = SavedGame::new(&variant, Player::Human, Player::Human, moves, outcome).to_ron();
    fs::write(out.join("damaged-truncated.ron"), &text[..text.len() / 2]).unwrap();
    fs::write(
        out.join("damaged-illegal-move.ron"),
        text.replacen("\"a3-a4\"", "\"a3-a6\"", 1).replacen(
            "/*   1 */ \"",
            "/*   1 */ \"h8-h1\", \"",
            1,
        ),
    )
    .unwrap();
    fs::write(
        out.join("damaged-unknown-variant.ron"),
        text.replace("ugolki-9qum", "ugolki-99qum"),
    )
    .unwrap();
    fs::write(
        out.join("damaged-format-version.ron"),
        text.replace("format_version: 1", "format_version: 2"),
    )
    .unwrap();
}
