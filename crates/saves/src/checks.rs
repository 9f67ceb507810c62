//! The body of the `save_file` fuzz target (`fuzz/fuzz_targets/save_file.rs`), behind the
//! `checks` feature, so that `tests/fuzz_seeds.rs` replays the committed seed corpus through
//! the same code on the stable toolchain.
use boardcraft_rules::{Position, checks::check_position, checks::same_position, shipped_variant};

use crate::{SavedGame, load_and_replay_shipped};

/// Any bytes as a save file: loading (read, parse, replay on the shipped variant it names)
/// never panics, and printing its error neither. A save that loads must keep its promises:
/// - the position it replays to passes every rules check, one ply per saved move, with the
///   outcome the position reports, and a resignation only in a game the rules had not ended;
/// - written again with `to_ron`, it reads back as the same save and replays to the same
///   position (and resignation);
/// - saved with its moves in canonical notation, it replays to the same game too.
pub fn save_file(data: &[u8]) {
    let (game, replayed) = match load_and_replay_shipped(data) {
        Ok(loaded) => loaded,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let fail = |what: String| -> ! {
        panic!(
            "{what}\n--- the save ---\n{}",
            String::from_utf8_lossy(data)
        )
    };
    if let Err(v) = check_position(&replayed.position) {
        fail(format!("the replayed position breaks an invariant: {v}"));
    }
    let plies = replayed.position.ply() as usize;
    if replayed.moves.len() != game.moves.len() || plies != game.moves.len() {
        fail(format!(
            "{} saved moves replayed as {} moves to ply {plies}",
            game.moves.len(),
            replayed.moves.len()
        ));
    }
    if replayed.outcome != replayed.position.outcome() {
        fail("the replay reports another outcome than its position".into());
    }
    if replayed.resigned.is_some() && replayed.outcome.is_some() {
        fail("a resignation is kept in a game the rules had ended".into());
    }
    if replayed.decided.is_some() && (replayed.outcome.is_some() || replayed.resigned.is_some()) {
        fail("a decision is kept in a game that had ended otherwise".into());
    }
    // Compare replays on one variant instance (positions of separately parsed variants do
    // not share their rules).
    let variant = shipped_variant(&game.variant).expect("it replayed on this variant");
    let reference = game
        .replay(&variant)
        .unwrap_or_else(|e| fail(format!("a second replay fails: {e}")));
    let text = game.to_ron();
    let again = SavedGame::parse(&text)
        .unwrap_or_else(|e| fail(format!("the save written again does not read: {e}\n{text}")));
    if again != game {
        fail(format!(
            "the save written again reads as another save:\n{again:?}\nnot\n{game:?}"
        ));
    }
    let canonical = SavedGame {
        moves: replayed.moves.iter().map(|m| m.notation.clone()).collect(),
        ..game.clone()
    };
    for (what, save) in [
        ("written again", &again),
        ("in canonical notation", &canonical),
    ] {
        let other = save
            .replay(&variant)
            .unwrap_or_else(|e| fail(format!("the save {what} does not replay: {e}")));
        if !same_position(&other.position, &reference.position)
            || other.resigned != reference.resigned
            || other.decided != reference.decided
        {
            fail(format!("the save {what} replays to another game"));
        }
    }
}
