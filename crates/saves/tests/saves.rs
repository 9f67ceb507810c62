//! The save format end to end: writing, reading, replaying; truncated, corrupted and tampered
//! saves. Games come from seeded random playouts of every shipped variant, so the tests do not
//! depend on hand-made lines that a rules change could break.
use boardcraft_ai::Level;
use boardcraft_rules::{
    Position, Seat, Variant, checks::SeededMoves, shipped_variant, shipped_variants,
};
use boardcraft_saves::{
    Decided, FORMAT_VERSION, Player, SaveError, SaveWarning, SavedGame, hash_hex,
    load_and_replay_shipped,
};
use proptest::prelude::*;

/// A seeded random game of `variant`: at most `plies` moves, fewer if it ends.
fn playout(variant: &Variant, seed: u64, plies: usize) -> Vec<String> {
    let mut pos = variant.new_game();
    let mut picker = SeededMoves::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut moves = Vec::new();
    let mut line = Vec::new();
    for _ in 0..plies {
        pos.legal_moves(&mut moves);
        let Some(mv) = picker.pick(&moves) else {
            break;
        };
        line.push(pos.format_move(mv));
        pos.play(mv).expect("a generated move is legal");
    }
    line
}

/// The save of that game, with its real result.
fn save_of(variant: &Variant, moves: Vec<String>) -> SavedGame {
    let mut pos = variant.new_game();
    for m in &moves {
        let mv = pos.parse_move(m).expect("a played move parses");
        pos.play(&mv).expect("and plays");
    }
    SavedGame::new(
        variant,
        Player::Human,
        Player::Computer(Level::Strong),
        moves,
        pos.outcome(),
    )
    .with_saved_at(1_700_000_000)
}

/// Plays to the end (every shipped variant has a ply cap or ends by itself well before this).
fn finished_game(name: &str, seed: u64) -> (Variant, SavedGame) {
    let variant = shipped_variant(name).unwrap();
    let moves = playout(&variant, seed, 5_000);
    let save = save_of(&variant, moves);
    assert!(save.result.is_some(), "{name}: the playout did not finish");
    (variant, save)
}

fn check_round_trip(variant: &Variant, save: &SavedGame) {
    let text = save.to_ron();
    let parsed = SavedGame::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&parsed, save);
    let replayed = parsed.replay(variant).expect("a saved game replays");
    assert_eq!(replayed.moves.len(), save.moves.len());
    assert!(replayed.warnings.is_empty(), "{:?}", replayed.warnings);
    assert_eq!(replayed.outcome.map(|o| o.to_string()), save.result);
    assert_eq!(replayed.outcome, save.outcome);
    assert_eq!(replayed.resigned, None);
    // Same game, move for move (notation is canonical, so it is what was played).
    let notations: Vec<&str> = replayed.moves.iter().map(|m| m.notation.as_str()).collect();
    assert_eq!(notations, save.moves);
    let mut pos = variant.new_game();
    for m in &replayed.moves {
        pos.play(&m.mv).unwrap();
    }
    assert_eq!(pos.hash(), replayed.position.hash());
    assert_eq!(pos.ply() as usize, save.moves.len());
}

#[test]
fn finished_games_of_every_variant_round_trip() {
    for name in shipped_variants() {
        let (variant, save) = finished_game(name, 7);
        check_round_trip(&variant, &save);
    }
}

#[test]
fn unfinished_and_empty_games_round_trip() {
    for name in shipped_variants() {
        let variant = shipped_variant(name).unwrap();
        for plies in [0, 1, 2, 9] {
            let save = save_of(&variant, playout(&variant, 3, plies));
            assert_eq!(save.result, None);
            check_round_trip(&variant, &save);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_games_round_trip(which in 0usize..64, seed in any::<u64>(), plies in 0usize..300) {
        let names: Vec<&str> = shipped_variants().collect();
        let variant = shipped_variant(names[which % names.len()]).unwrap();
        let save = save_of(&variant, playout(&variant, seed, plies));
        check_round_trip(&variant, &save);
    }

    /// Arbitrary bytes never panic the loader, and whatever loads is a legal game.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        if let Ok((save, replayed)) = load_and_replay_shipped(&bytes) {
            prop_assert_eq!(replayed.moves.len(), save.moves.len());
        }
    }

    /// Any byte of a save replaced by any other: an error or a save that still replays, never a
    /// panic; and a replayed game is exactly the moves the file now says.
    #[test]
    fn corrupted_bytes_are_rejected_or_replay(at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let (_, save) = small_saves().swap_remove(at.index(3));
        let mut bytes = save.to_ron().into_bytes();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        match load_and_replay_shipped(&bytes) {
            Ok((loaded, replayed)) => {
                prop_assert_eq!(replayed.moves.len(), loaded.moves.len());
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

/// One short unfinished game per family.
fn small_saves() -> Vec<(Variant, SavedGame)> {
    ["ugolki-hg-3x3", "focus", "gipf-standard"]
        .into_iter()
        .map(|name| {
            let variant = shipped_variant(name).unwrap();
            let save = save_of(&variant, playout(&variant, 11, 12));
            (variant, save)
        })
        .collect()
}

#[test]
fn truncation_at_every_byte_is_reported_as_truncation() {
    // A finished game too (its result line), the shortest of a few random ones: every cut is
    // a parse, so the cost grows with the square of the length.
    let finished = (1..8)
        .map(|seed| finished_game("gipf-standard", seed))
        .min_by_key(|(_, save)| save.moves.len())
        .unwrap();
    let mut saves = small_saves();
    saves.push(finished);
    for (_, save) in saves {
        let bytes = save.to_ron().into_bytes();
        for cut in 0..bytes.len() {
            match SavedGame::load_bytes(&bytes[..cut]) {
                // Only the final newline may go: the save is then complete.
                Ok(loaded) => {
                    assert_eq!(cut, bytes.len() - 1, "a cut at {cut} loaded");
                    assert_eq!(loaded, save);
                }
                Err(SaveError::Truncated { .. } | SaveError::Empty) => {}
                Err(e) => panic!("a cut at {cut} of {} gave {e:?}", bytes.len()),
            }
        }
    }
}

#[test]
fn the_file_is_readable() {
    let variant = shipped_variant("ugolki-hg-3x3").unwrap();
    let save = save_of(&variant, playout(&variant, 1, 3));
    let text = save.to_ron();
    assert!(text.starts_with("// Boardcraft saved game."), "{text}");
    for expected in [
        "format_version: 1,",
        "variant: \"ugolki-hg-3x3\",",
        &format!("variant_hash: \"{}\",", hash_hex(variant.content_hash)),
        "saved_at: Some(\"2023-11-14T22:13:20Z\"),",
        "white: \"human\",",
        "black: \"strong\",",
        &format!("/*   1 */ \"{}\", \"{}\",", save.moves[0], save.moves[1]),
        &format!("/*   2 */ \"{}\",", save.moves[2]),
        "result: None,",
    ] {
        assert!(text.contains(expected), "`{expected}` not in\n{text}");
    }
}

#[test]
fn hand_written_saves_load() {
    // Comments, other spacing, short chain notation, move numbers as comments.
    let text = r#"
        // my game
        (format_version: 1, variant: "ugolki-hg-3x3", variant_hash: "0",
         white: "Human", black: "master",
         moves: ["f2:f4", "c7-d7", "g2:e4"])
    "#;
    let save = SavedGame::parse(text).unwrap();
    assert_eq!(save.white, Player::Human);
    assert_eq!(save.black, Player::Computer(Level::Master));
    assert_eq!(save.title, "");
    let variant = shipped_variant("ugolki-hg-3x3").unwrap();
    match save.replay(&variant) {
        Ok(replayed) => {
            // The made-up hash is reported, not fatal.
            assert!(matches!(
                replayed.warnings[0],
                SaveWarning::VariantChanged { .. }
            ));
            assert_eq!(replayed.moves.len(), 3);
        }
        Err(e) => panic!("{e}"),
    }
}

fn replay_text(text: &str) -> Result<usize, SaveError> {
    let save = SavedGame::parse(text)?;
    save.replay_shipped().map(|r| r.moves.len())
}

#[test]
fn tampered_moves_are_rejected_with_the_move_number() {
    let (variant, save) = small_saves().swap_remove(0);
    // A move that is no move at all.
    let mut bad = save.clone();
    bad.moves[4] = "zz9-zz10".into();
    let err = bad.replay(&variant).unwrap_err();
    assert!(
        matches!(&err, SaveError::IllegalMove { number: 5, notation, variant_changed: false, .. } if notation == "zz9-zz10"),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("move 5 (zz9-zz10) cannot be played: "),
        "{err}"
    );
    // A well-formed move out of turn: two moves swapped.
    let mut swapped = save.clone();
    swapped.moves.swap(2, 3);
    let err = swapped.replay(&variant).unwrap_err();
    assert!(
        matches!(err, SaveError::IllegalMove { number: 3, .. }),
        "{err:?}"
    );
    // A move dropped: the next one is the other side's.
    let mut dropped = save.clone();
    dropped.moves.remove(0);
    assert!(matches!(
        dropped.replay(&variant),
        Err(SaveError::IllegalMove { number: 1, .. })
    ));
    // Moves after the end of a finished game.
    let (variant, mut finished) = finished_game("ugolki-hg-3x3", 2);
    let n = finished.moves.len();
    finished.moves.push(finished.moves[n - 2].clone());
    assert!(matches!(
        finished.replay(&variant),
        Err(SaveError::IllegalMove { number, .. }) if number == n + 1
    ));
}

#[test]
fn a_tampered_result_is_a_warning_and_the_replay_wins() {
    let (variant, mut save) = small_saves().swap_remove(1);
    save.result = Some("White wins: I say so".into());
    let replayed = save.replay(&variant).unwrap();
    assert_eq!(replayed.outcome, None);
    assert_eq!(
        replayed.warnings,
        vec![SaveWarning::ResultDiffers {
            saved: Some("White wins: I say so".into()),
            replayed: None
        }]
    );
}

#[test]
fn a_resignation_replays_and_one_after_the_end_is_ignored() {
    // A game still on: the resignation ends it, with no warning.
    let (variant, save) = small_saves().swap_remove(1);
    let resigned = save.with_resignation(Seat::BLACK);
    let replayed = SavedGame::parse(&resigned.to_ron())
        .unwrap()
        .replay(&variant)
        .unwrap();
    assert_eq!(replayed.resigned, Some(Seat::BLACK));
    assert_eq!(replayed.outcome, None);
    assert!(replayed.warnings.is_empty(), "{:?}", replayed.warnings);

    // A game the rules had ended: the resignation is ignored, and a warning says so.
    let (variant, finished) = finished_game("ugolki-hg-3x3", 2);
    let outcome = finished.outcome;
    assert!(outcome.is_some());
    let mut edited = finished.clone();
    edited.resigned = Some(Seat::WHITE);
    let replayed = edited.replay(&variant).unwrap();
    assert_eq!(replayed.resigned, None);
    assert_eq!(replayed.outcome, outcome);
    assert_eq!(
        replayed.warnings,
        vec![SaveWarning::ResignationIgnored { side: Seat::WHITE }]
    );
}

/// An online game's end that is not a rule (a flag fall, an abandoned game claimed, a draw
/// agreed) is kept by the save and comes back from it; one claimed for a game that had ended
/// otherwise is ignored with a warning, like a resignation.
#[test]
fn an_end_decided_online_replays_and_one_after_another_end_is_ignored() {
    for decided in [
        Decided::Timeout(Seat::WHITE),
        Decided::Abandoned(Seat::BLACK),
        Decided::DrawAgreed,
        Decided::Aborted,
    ] {
        let (variant, save) = small_saves().swap_remove(1);
        let save = save.with_decision(decided);
        assert_eq!(save.result, Some(decided.to_string()));
        let text = save.to_ron();
        assert!(text.contains("    decided: Some("), "{text}");
        let read = SavedGame::parse(&text).unwrap();
        assert_eq!(read, save);
        let replayed = read.replay(&variant).unwrap();
        assert_eq!(replayed.decided, Some(decided));
        assert_eq!((replayed.outcome, replayed.resigned), (None, None));
        assert!(replayed.warnings.is_empty(), "{:?}", replayed.warnings);
        assert_eq!(
            decided.winner(),
            match decided {
                Decided::Timeout(side) | Decided::Abandoned(side) => Some(side.other()),
                Decided::DrawAgreed | Decided::Aborted => None,
            }
        );
    }
    // After the rules' end, and after a resignation: ignored, with a warning.
    let (variant, finished) = finished_game("ugolki-hg-3x3", 2);
    let mut edited = finished.clone();
    edited.decided = Some(Decided::DrawAgreed);
    let replayed = edited.replay(&variant).unwrap();
    assert_eq!(replayed.decided, None);
    assert_eq!(replayed.outcome, finished.outcome);
    assert_eq!(
        replayed.warnings,
        vec![SaveWarning::DecisionIgnored {
            decided: Decided::DrawAgreed
        }]
    );
    let (variant, save) = small_saves().swap_remove(1);
    let mut both = save.with_resignation(Seat::BLACK);
    both.decided = Some(Decided::Timeout(Seat::WHITE));
    let replayed = both.replay(&variant).unwrap();
    assert_eq!(replayed.resigned, Some(Seat::BLACK));
    assert_eq!(replayed.decided, None);
    assert_eq!(
        replayed.warnings,
        vec![SaveWarning::DecisionIgnored {
            decided: Decided::Timeout(Seat::WHITE)
        }]
    );
}

#[test]
fn hash_mismatch_policy() {
    let (variant, save) = small_saves().swap_remove(0);
    // Same rules, different text (a comment): every move replays, a warning says so.
    let file = boardcraft_rules::variant::shipped_files()
        .iter()
        .find(|(f, _)| *f == "ugolki-hg-3x3.ron")
        .unwrap()
        .1;
    let commented = Variant::from_ron("x", &format!("// a new comment\n{file}")).unwrap();
    assert_ne!(commented.content_hash, variant.content_hash);
    let replayed = save.replay(&commented).unwrap();
    assert_eq!(
        replayed.warnings,
        vec![SaveWarning::VariantChanged {
            saved_hash: hash_hex(variant.content_hash),
            current_hash: hash_hex(commented.content_hash),
        }]
    );
    // Changed rules that the moves no longer fit: the error says the variant changed.
    let mut pos = variant.new_game();
    let first = pos.parse_move(&save.moves[0]).unwrap();
    pos.play(&first).unwrap();
    let changed = file.replace("first_player: White", "first_player: Black");
    assert_ne!(
        changed, file,
        "the test relies on the file naming its first player"
    );
    let changed = Variant::from_ron("x", &changed).unwrap();
    let err = save.replay(&changed).unwrap_err();
    assert!(
        matches!(
            err,
            SaveError::IllegalMove {
                number: 1,
                variant_changed: true,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .ends_with("the variant file changed since this game was saved")
    );
}

#[test]
fn saves_of_other_or_unknown_variants() {
    let (_, save) = small_saves().swap_remove(0);
    let halma = shipped_variant("halma-16").unwrap();
    assert_eq!(
        save.replay(&halma).unwrap_err(),
        SaveError::WrongVariant {
            saved: "ugolki-hg-3x3".into(),
            given: "halma-16".into()
        }
    );
    let mut unknown = save;
    unknown.variant = "no-such-game".into();
    assert_eq!(
        unknown.replay_shipped().unwrap_err(),
        SaveError::UnknownVariant {
            name: "no-such-game".into()
        }
    );
}

#[test]
fn syntax_errors_name_line_and_column() {
    let (_, save) = small_saves().swap_remove(0);
    let text = save
        .to_ron()
        .replace("    white:", "    colour: \"red\",\n    white:");
    match SavedGame::parse(&text) {
        Err(SaveError::Syntax {
            line,
            column,
            message,
        }) => {
            let expected_line = text.lines().position(|l| l.contains("colour")).unwrap() + 1;
            assert_eq!(line, expected_line, "{message}");
            assert!(column > 1);
            assert!(message.contains("colour"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let text = save.to_ron().replace("\"human\"", "\"grandmaster\"");
    assert!(
        matches!(SavedGame::parse(&text), Err(SaveError::Syntax { ref message, .. }) if message.contains("grandmaster")),
    );
    // A value of the wrong type, not at the end.
    let text = save
        .to_ron()
        .replace("format_version: 1", "format_version: \"one\"");
    assert!(matches!(
        SavedGame::parse(&text),
        Err(SaveError::Syntax { line: 5, .. })
    ));
}

#[test]
fn other_format_versions_are_refused_as_such() {
    let (_, save) = small_saves().swap_remove(0);
    // A newer version may have fields this one does not know: the version is what is reported.
    let text = save.to_ron().replace(
        "format_version: 1,",
        "format_version: 2,\n    clocks: [1, 2],",
    );
    assert_eq!(
        SavedGame::parse(&text),
        Err(SaveError::UnsupportedVersion {
            found: 2,
            supported: FORMAT_VERSION
        })
    );
}

#[test]
fn bytes_that_are_not_text() {
    let (_, save) = small_saves().swap_remove(0);
    let mut bytes = save.to_ron().into_bytes();
    bytes[40] = 0xff;
    assert_eq!(
        SavedGame::load_bytes(&bytes),
        Err(SaveError::NotText { offset: 40 })
    );
    // A character cut in half at the very end is a truncation, not damage inside.
    let text = "(format_version: 1, variant: \"я";
    let bytes = &text.as_bytes()[..text.len() - 1];
    assert!(matches!(
        SavedGame::load_bytes(bytes),
        Err(SaveError::Truncated { line: 1, .. })
    ));
    assert_eq!(SavedGame::load_bytes(b""), Err(SaveError::Empty));
    assert_eq!(SavedGame::load_bytes(b" \n\t"), Err(SaveError::Empty));
}

#[test]
fn replay_text_helper_reads_a_minimal_save() {
    let text = r#"(format_version: 1, variant: "focus", variant_hash: "", white: "human",
                  black: "human", moves: [])"#;
    assert_eq!(replay_text(text), Ok(0));
}

/// Saves written before the two GIPF variants with steps on the board were renamed
/// (`gipf-seed` → `gipf-steps`, `gipf-seed-gipf` → `gipf-steps-gipf-pieces`) name the old
/// variant and the old file's hash: they load on the renamed variant, every move replays, and
/// the only word about it is that the variant file changed (it did: the rename).
#[test]
fn saves_naming_a_former_variant_name_still_load() {
    for (file, new_name) in [
        ("gipf-seed-midgame.ron", "gipf-steps"),
        ("gipf-seed-gipf-midgame.ron", "gipf-steps-gipf-pieces"),
    ] {
        let path = format!("{}/tests/before-rename/{file}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        let (game, replayed) = boardcraft_saves::load_and_replay_shipped(&bytes)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_ne!(game.variant, new_name, "the fixture names the old variant");
        let renamed = shipped_variant(new_name).unwrap();
        let direct = game.replay(&renamed).unwrap();
        assert_eq!(direct.line(), replayed.line());
        assert_eq!(replayed.moves.len(), game.moves.len());
        assert_eq!(
            replayed.warnings,
            vec![SaveWarning::VariantChanged {
                saved_hash: game.variant_hash.clone(),
                current_hash: hash_hex(renamed.content_hash),
            }],
            "{file}"
        );
    }
}

#[test]
fn a_four_player_halma_game_saves_its_seat_count_and_replays() {
    use boardcraft_rules::{Position, shipped_variant};
    let variant = shipped_variant("halma-16")
        .unwrap()
        .with_players(4)
        .unwrap();
    let mut pos = variant.new_game();
    let mut moves = Vec::new();
    let mut list = Vec::new();
    for _ in 0..12 {
        pos.legal_moves(&mut list);
        let mv = list[list.len() / 2].clone();
        moves.push(pos.format_move(&mv));
        pos.play(&mv).unwrap();
    }
    let save = boardcraft_saves::SavedGame::new(
        &variant,
        boardcraft_saves::Player::Human,
        boardcraft_saves::Player::Computer(boardcraft_ai::Level::Amateur),
        moves,
        None,
    )
    .with_others(vec![
        boardcraft_saves::Player::Human,
        boardcraft_saves::Player::Computer(boardcraft_ai::Level::Master),
    ]);
    let text = save.to_ron();
    assert!(text.contains("players: Some(4),"), "{text}");
    let back = boardcraft_saves::SavedGame::parse(&text).unwrap();
    assert_eq!(back, save);
    // Replayed on the variant as the library gives it (its two-seat table), the save picks
    // its own table.
    let replayed = back.replay(&shipped_variant("halma-16").unwrap()).unwrap();
    assert_eq!(replayed.position.seat_count(), 4);
    assert_eq!(replayed.position.hash(), pos.hash());
    // A two-seat save says nothing of seats, as before.
    let two = boardcraft_saves::SavedGame::new(
        &shipped_variant("halma-16").unwrap(),
        boardcraft_saves::Player::Human,
        boardcraft_saves::Player::Human,
        Vec::new(),
        None,
    );
    assert!(!two.to_ron().contains("players: "));
}
