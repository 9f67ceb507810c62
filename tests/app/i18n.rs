//! Every string of the UI exists in every language: a missing key does not compile (each
//! language is an exhaustive match), and these tests fail on an empty or untranslated text, on
//! placeholders that differ between languages, and on any end of game, score or coach
//! sentence that comes out with a hole in it.
use boardcraft::{
    game::coach::Verdict,
    game::match_state::{EndCause, GameEnd},
    game::variants::Notice,
    settings::Language,
    ui::i18n::{self, Key, Noun, count, placeholders, tr, variant_text},
    ui::words::{deadline_warning, end_text, score_text, verdict_text},
};
use boardcraft_ai::{Score, score::WIN};
use boardcraft_rules::{
    EndReason, FamilyRules, Seat,
    race::{RacePosition, Square},
    shipped_variant, shipped_variants,
};

/// Texts that are the same in every language (a line of values, no words).
const LANGUAGE_NEUTRAL: &[Key] = &[Key::PlayerOfSide, Key::SlotLine, Key::SlotNotice];

fn has_cyrillic(text: &str) -> bool {
    text.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c))
}

/// `{Side}` and `{side}` are the same value in two cases: compare placeholders without case.
fn names(text: &str) -> Vec<String> {
    let mut names: Vec<String> = placeholders(text)
        .into_iter()
        .map(str::to_lowercase)
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn every_key_is_translated_into_every_language() {
    let mut problems = Vec::new();
    for &key in Key::ALL {
        for language in Language::ALL {
            if tr(language, key).trim().is_empty() {
                problems.push(format!("{key:?}: empty in {language:?}"));
            }
        }
        let (en, ru) = (tr(Language::English, key), tr(Language::Russian, key));
        if names(en) != names(ru) {
            problems.push(format!(
                "{key:?}: placeholders differ: en {:?}, ru {:?}",
                names(en),
                names(ru)
            ));
        }
        if !LANGUAGE_NEUTRAL.contains(&key) && !has_cyrillic(ru) {
            problems.push(format!("{key:?}: the Russian text is not Russian: {ru:?}"));
        }
        if has_cyrillic(en) {
            problems.push(format!("{key:?}: the English text has Cyrillic: {en:?}"));
        }
        for (language, text) in [("en", en), ("ru", ru)] {
            if text.matches('{').count() != text.matches('}').count() {
                problems.push(format!("{key:?} ({language}): unbalanced braces"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_key_is_listed_once() {
    let mut seen = std::collections::HashSet::new();
    assert!(Key::ALL.iter().all(|k| seen.insert(*k)));
    assert!(Key::ALL.len() > 100, "the list covers the whole UI");
}

#[test]
fn counted_nouns_take_each_language_s_plural_forms() {
    let ru = |n| count(Language::Russian, n, Noun::Move);
    assert_eq!(ru(1), "1 ход");
    assert_eq!(ru(2), "2 хода");
    assert_eq!(ru(4), "4 хода");
    assert_eq!(ru(5), "5 ходов");
    assert_eq!(ru(11), "11 ходов");
    assert_eq!(ru(12), "12 ходов");
    assert_eq!(ru(21), "21 ход");
    assert_eq!(ru(22), "22 хода");
    assert_eq!(ru(111), "111 ходов");
    assert_eq!(count(Language::Russian, 400, Noun::Ply), "400 полуходов");
    assert_eq!(count(Language::Russian, 3, Noun::Time), "3 раза");
    assert_eq!(count(Language::English, 1, Noun::Move), "1 move");
    assert_eq!(count(Language::English, 3, Noun::Ply), "3 half-moves");
    for noun in Noun::ALL {
        for language in Language::ALL {
            for n in [0, 1, 2, 5, 21] {
                assert!(!count(language, n, noun).ends_with(' '));
            }
        }
    }
}

#[test]
fn every_shipped_variant_has_a_title_in_every_language() {
    for name in shipped_variants() {
        for language in Language::ALL {
            let text = variant_text(language, name)
                .unwrap_or_else(|| panic!("{name} has no {language:?} title"));
            assert!(!text.title.is_empty() && !text.summary.is_empty());
        }
        assert!(has_cyrillic(
            variant_text(Language::Russian, name).unwrap().summary
        ));
    }
    assert_eq!(variant_text(Language::Russian, "some-mod"), None);
}

fn all_ends() -> Vec<GameEnd> {
    let reasons = [
        EndReason::TargetFilled,
        EndReason::TargetBlockedButReached,
        EndReason::BothFinished,
        EndReason::HomeNotVacated,
        EndReason::PieceCount { white: 7, black: 5 },
        EndReason::NoLegalMoves,
        EndReason::NoStackNoReserve,
        EndReason::ReserveExhausted,
        EndReason::NoGipfPiece,
        EndReason::Annihilated,
        EndReason::Repetition,
        EndReason::PlyCap,
    ];
    let mut ends = Vec::new();
    for reason in reasons {
        for winner in [Some(Seat::WHITE), Some(Seat::BLACK), None] {
            ends.push(GameEnd::two(winner, EndCause::Rules(reason)));
        }
    }
    for side in Seat::BOTH {
        ends.push(GameEnd::two(Some(side.other()), EndCause::Resigned(side)));
    }
    ends
}

#[test]
fn every_end_of_game_is_told_in_every_language() {
    let variants = ["ugolki-9qum", "focus", "gipf-standard", "halma-16"];
    for name in variants {
        let variant = shipped_variant(name).unwrap();
        for end in all_ends() {
            for language in Language::ALL {
                let text = end_text(language, end, &variant, Seat::WHITE);
                for part in [&text.headline, &text.reason] {
                    assert!(
                        !part.is_empty() && !part.contains('{') && !part.contains('}'),
                        "{name} {end:?} {language:?}: {part:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_forty_move_rule_is_told_in_its_own_terms() {
    let variant = shipped_variant("ugolki-9qum").unwrap();
    let end = GameEnd::two(
        Some(Seat::BLACK),
        EndCause::Rules(EndReason::HomeNotVacated),
    );
    let en = end_text(Language::English, end, &variant, Seat::WHITE);
    assert_eq!(en.headline, "Black wins");
    assert_eq!(en.reason, "40-move rule: White still had a piece at home.");
    let ru = end_text(Language::Russian, end, &variant, Seat::WHITE);
    assert_eq!(ru.headline, "Победили чёрные");
    assert_eq!(
        ru.reason,
        "Правило 40 ходов: белые не вывели все шашки из своего лагеря."
    );
    let capped = end_text(
        Language::Russian,
        GameEnd::two(None, EndCause::Rules(EndReason::PlyCap)),
        &shipped_variant("halma-16").unwrap(),
        Seat::WHITE,
    );
    assert!(capped.reason.contains("400 полуходов"), "{}", capped.reason);
}

#[test]
fn scores_read_as_numbers_or_as_moves_to_the_end() {
    assert_eq!(score_text(Language::English, Score(125)), "+1.25");
    assert_eq!(score_text(Language::Russian, Score(-40)), "-0,40");
    assert_eq!(
        score_text(Language::English, Score(WIN - 3)),
        "wins in 2 moves"
    );
    assert_eq!(
        score_text(Language::Russian, Score(-(WIN - 1))),
        "проигрыш за 1 ход"
    );
    assert_eq!(score_text(Language::English, Score(WIN)), "wins at once");
}

#[test]
fn coach_sentences_have_no_holes() {
    let verdict = Verdict {
        game_id: 1,
        ply: 3,
        side: Seat::WHITE,
        played: "a3-a4".into(),
        played_score: Score(-20),
        best: Some("c3-c4".into()),
        best_score: Score(35),
        best_line: vec!["c3-c4".into(), "f6-f5".into()],
    };
    let same = Verdict {
        best: Some("a3-a4".into()),
        ..verdict.clone()
    };
    for language in Language::ALL {
        for v in [&verdict, &same] {
            let text = verdict_text(language, v);
            assert!(text.contains("a3-a4") && !text.contains('{'), "{text}");
        }
        assert!(verdict_text(language, &verdict).contains("c3-c4"));
    }
}

#[test]
fn the_deadline_warning_names_the_turns_and_the_pieces_at_home() {
    let variant = shipped_variant("ugolki-9qum").unwrap();
    let FamilyRules::Race(rules) = &variant.rules else {
        panic!("9qum is a race game");
    };
    let squares = |names: &str| -> Vec<Square> {
        names
            .split_whitespace()
            .map(|n| Square::parse(n).unwrap())
            .collect()
    };
    // Ply 72, White to move: White's a1 is still at home, 4 turns each before the check.
    let race = RacePosition::from_board(
        rules.clone(),
        &squares("a1 d4 e4 f4 g4 h4 d5 e5 f5"),
        &squares("a4 b4 c4 a5 b5 c5 d2 e2 h1"),
        Seat::WHITE,
        72,
    )
    .unwrap();
    let deadline = race.home_deadline().unwrap();
    assert_eq!(deadline.turns_left, [4, 4]);
    let en = deadline_warning(Language::English, &deadline, Seat::WHITE, 10).unwrap();
    assert!(en.starts_with("40-move rule: 4 moves left"), "{en}");
    assert!(en.contains("a1") && !en.contains("c3"), "{en}");
    let ru = deadline_warning(Language::Russian, &deadline, Seat::WHITE, 10).unwrap();
    assert!(ru.contains("осталось 4 хода"), "{ru}");
    assert_eq!(
        deadline_warning(Language::English, &deadline, Seat::WHITE, 3),
        None,
        "not near enough yet"
    );
}

#[test]
fn library_notices_are_told_in_every_language() {
    let notices = [
        Notice::ManifestUnreadable { why: "x".into() },
        Notice::DuplicateName {
            first: "a".into(),
            second: "b".into(),
            name: "n".into(),
        },
        Notice::Replayed { path: "p".into() },
        Notice::Restarted { path: "p".into() },
    ];
    for notice in &notices {
        for language in Language::ALL {
            let text = i18n::notice(language, notice);
            assert!(!text.contains('{'), "{text}");
        }
        assert!(has_cyrillic(&i18n::notice(Language::Russian, notice)));
    }
}
