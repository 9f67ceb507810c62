//! What the UI says about the game, composed from the translation tables: the end of a game in
//! the rules' own terms, scores, the coach's verdict and the 40-move warning. Plain functions
//! (no egui), so the tests can check every case in every language.
use boardcraft_ai::Score;
use boardcraft_rules::{EndReason, FamilyRules, Seat, Variant, race::HomeDeadline};

use boardcraft_saves::{SaveError, SaveWarning, SlotNameProblem};

use crate::{
    game::coach::{Grade, Verdict},
    game::match_state::{EndCause, GameEnd},
    persistence::{Notice as PersistenceNotice, SlotResult},
    settings::Language,
    ui::i18n::{Key, Noun, SeatNames, count, place, side, side_lower, tr, trf},
};

/// The headline ("White wins", "Draw") and the reason of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndText {
    pub headline: String,
    pub reason: String,
}

/// Describes how the game ended. `side_to_move` is the side to move in the final position
/// (it is the side that had no move in a no-legal-move draw).
pub fn end_text(
    language: Language,
    end: GameEnd,
    variant: &Variant,
    side_to_move: Seat,
) -> EndText {
    let seats = SeatNames::of_variant(variant);
    let headline = match end.winner() {
        None if end.cause == EndCause::Aborted => tr(language, Key::ResultAborted).to_owned(),
        Some(w) => trf(
            language,
            Key::ResultWin,
            &[
                ("Side", &side(language, &seats, w)),
                ("side", &side_lower(language, &seats, w)),
            ],
        ),
        // Nobody alone in first place: every seat shares it (a draw), or several do.
        None => tr(language, Key::ResultDraw).to_owned(),
    };
    // The seat the reason is about: the one who resigned, ran out of time or left, else the
    // winner and the seat in last place (with two seats: the other one).
    let winner = end.winner().unwrap_or(side_to_move.next(seats.count()));
    let loser = match end.cause {
        EndCause::Resigned(s) | EndCause::Timeout(s) | EndCause::Abandoned(s) => s,
        _ => last_place(&end, winner),
    };
    let names = |c: Seat| (side(language, &seats, c), side_lower(language, &seats, c));
    let (winner_cap, winner_low) = names(winner);
    let (loser_cap, loser_low) = names(loser);
    let (mover_cap, mover_low) = names(side_to_move);
    let with_winner = |key| {
        trf(
            language,
            key,
            &[("Winner", &winner_cap), ("winner", &winner_low)],
        )
    };
    let with_loser = |key| {
        trf(
            language,
            key,
            &[("Loser", &loser_cap), ("loser", &loser_low)],
        )
    };
    let race = match &variant.rules {
        FamilyRules::Race(r) => Some(r),
        _ => None,
    };
    let reason = match end.cause {
        EndCause::Resigned(_) => with_loser(Key::ReasonResigned),
        EndCause::Timeout(_) => with_loser(Key::ReasonTimeout),
        EndCause::Abandoned(_) => with_loser(Key::ReasonAbandoned),
        EndCause::DrawAgreed => tr(language, Key::ReasonDrawAgreed).to_owned(),
        EndCause::Aborted => tr(language, Key::ReasonAborted).to_owned(),
        EndCause::Rules(reason) => match reason {
            EndReason::TargetFilled => with_winner(Key::ReasonTargetFilled),
            EndReason::TargetBlockedButReached => with_winner(Key::ReasonTargetBlockedButReached),
            EndReason::BothFinished => tr(language, Key::ReasonBothFinished).to_owned(),
            EndReason::HomeNotVacated => {
                let moves = race.and_then(|r| r.home_clear_ply()).unwrap_or(80) / 2;
                match end.winner() {
                    Some(_) => trf(
                        language,
                        Key::ReasonHomeNotVacatedWin,
                        &[("n", &moves), ("Loser", &loser_cap), ("loser", &loser_low)],
                    ),
                    None => trf(language, Key::ReasonHomeNotVacatedDraw, &[("n", &moves)]),
                }
            }
            EndReason::PieceCount { white, black } => {
                let moves = race.and_then(|r| r.count_ply()).unwrap_or(200) / 2;
                trf(
                    language,
                    Key::ReasonPieceCount,
                    &[("n", &moves), ("white", &white), ("black", &black)],
                )
            }
            EndReason::NoLegalMoves => match end.winner() {
                Some(_) => with_loser(Key::ReasonNoLegalMovesWin),
                None => trf(
                    language,
                    Key::ReasonNoLegalMovesDraw,
                    &[("Side", &mover_cap), ("side", &mover_low)],
                ),
            },
            EndReason::NoStackNoReserve => with_loser(Key::ReasonNoStackNoReserve),
            EndReason::ReserveExhausted => with_loser(Key::ReasonReserveExhausted),
            EndReason::NoGipfPiece => with_loser(Key::ReasonNoGipfPiece),
            EndReason::Annihilated => with_loser(Key::ReasonAnnihilated),
            EndReason::Repetition => {
                let times = match &variant.rules {
                    FamilyRules::Race(r) => r.repetition_draw(),
                    FamilyRules::Focus(r) => r.repetition_draw(),
                    FamilyRules::Gipf(_) => None,
                }
                .unwrap_or(3);
                let n = count(language, u64::from(times), Noun::Time);
                trf(language, Key::ReasonRepetition, &[("n", &n)])
            }
            EndReason::PlyCap => {
                let cap = match &variant.rules {
                    FamilyRules::Race(r) => r.ply_cap(),
                    FamilyRules::Focus(r) => r.ply_cap(),
                    FamilyRules::Gipf(r) => r.ply_cap,
                }
                .unwrap_or(0);
                let n = count(language, u64::from(cap), Noun::Ply);
                trf(language, Key::ReasonPlyCap, &[("n", &n)])
            }
        },
    };
    EndText { headline, reason }
}

/// The seat in the last place of `end` (the first such in turn order), else `winner`'s next.
fn last_place(end: &GameEnd, winner: Seat) -> Seat {
    let n = end.places.seats();
    Seat::all(n)
        .max_by_key(|s| (end.places.of(*s), std::cmp::Reverse(s.index())))
        .filter(|s| *s != winner)
        .unwrap_or(winner.next(n))
}

/// Every seat's place, best first: "1st Red · 2nd Blue · 3rd Yellow" (ties share a place).
pub fn places_text(language: Language, end: &GameEnd, seats: &SeatNames) -> Vec<(Seat, String)> {
    let mut order: Vec<Seat> = Seat::all(end.places.seats()).collect();
    order.sort_by_key(|s| (end.places.of(*s), s.index()));
    order
        .into_iter()
        .map(|s| {
            (
                s,
                format!(
                    "{} {}",
                    place(language, end.places.of(s)),
                    side(language, seats, s)
                ),
            )
        })
        .collect()
}

/// A saved game's result in the list of saves: "White wins", "Draw", "Black wins: White
/// resigned" (the full reason of a rule ending needs the replayed game: the game-over dialog
/// shows it once the save is loaded).
pub fn slot_result_text(language: Language, result: &SlotResult, seats: &SeatNames) -> String {
    match result {
        SlotResult::Unfinished => tr(language, Key::Unfinished).to_owned(),
        SlotResult::Over(GameEnd {
            cause: EndCause::Resigned(loser),
            places,
        }) if places.seats() == 2 => {
            let winner = loser.other();
            trf(
                language,
                Key::SlotResigned,
                &[
                    ("Side", &side(language, seats, winner)),
                    ("side", &side_lower(language, seats, winner)),
                    ("loser", &side_lower(language, seats, *loser)),
                ],
            )
        }
        SlotResult::Over(end) => match end.winner() {
            Some(winner) => trf(
                language,
                Key::ResultWin,
                &[
                    ("Side", &side(language, seats, winner)),
                    ("side", &side_lower(language, seats, winner)),
                ],
            ),
            None => tr(language, Key::ResultDraw).to_owned(),
        },
        // Saved before results were typed: the English words are all there is.
        SlotResult::Described(words) => words.clone(),
        SlotResult::Unreadable(error) => trf(
            language,
            Key::SlotUnreadable,
            &[("why", &save_error_text(language, error))],
        ),
    }
}

/// A search score for the player: `+1.25` (a decimal comma in Russian), or a proven result
/// in moves ("wins in 2 moves").
pub fn score_text(language: Language, score: Score) -> String {
    match score.plies_to_result() {
        Some(plies) => {
            let moves = u64::from(plies.unsigned_abs().div_ceil(2));
            let won = score.0 > 0;
            if moves == 0 {
                tr(language, if won { Key::ScoreWon } else { Key::ScoreLost }).to_owned()
            } else {
                let moves = count(language, moves, Noun::Move);
                trf(
                    language,
                    if won {
                        Key::ScoreWinIn
                    } else {
                        Key::ScoreLossIn
                    },
                    &[("moves", &moves)],
                )
            }
        }
        None => {
            let text = score.to_string();
            match language {
                Language::English => text,
                Language::Russian => text.replace('.', ","),
            }
        }
    }
}

pub fn grade_text(language: Language, grade: Grade) -> &'static str {
    tr(
        language,
        match grade {
            Grade::Best => Key::GradeBest,
            Grade::Good => Key::GradeGood,
            Grade::Inaccuracy => Key::GradeInaccuracy,
            Grade::Mistake => Key::GradeMistake,
            Grade::Blunder => Key::GradeBlunder,
        },
    )
}

/// The coach's sentence about a move.
pub fn verdict_text(language: Language, verdict: &Verdict) -> String {
    let score = score_text(language, verdict.played_score);
    match &verdict.best {
        Some(best) if !verdict.played_best() => trf(
            language,
            Key::CoachVerdict,
            &[
                ("move", &verdict.played),
                ("score", &score),
                ("best", best),
                ("best_score", &score_text(language, verdict.best_score)),
            ],
        ),
        _ => trf(
            language,
            Key::CoachPlayedBest,
            &[("move", &verdict.played), ("score", &score)],
        ),
    }
}

/// The 40-move warning for `side`, if the deadline is near and pieces are still at home:
/// `within` is how many of the side's turns count as near.
pub fn deadline_warning(
    language: Language,
    deadline: &HomeDeadline,
    side: Seat,
    within: u32,
) -> Option<String> {
    let at_home = &deadline.at_home[side.index()];
    let turns = deadline.turns_left[side.index()];
    if at_home.is_empty() || turns > within {
        return None;
    }
    let squares: Vec<String> = at_home.iter().map(ToString::to_string).collect();
    Some(trf(
        language,
        Key::DeadlineWarning,
        &[
            ("n", &(deadline.check_ply / 2)),
            ("turns", &count(language, u64::from(turns), Noun::Move)),
            ("squares", &squares.join(", ")),
        ],
    ))
}

/// A save or settings problem (persistence's typed error) in the player's language.
pub fn save_error_text(language: Language, error: &SaveError) -> String {
    let t = |key| tr(language, key).to_owned();
    match error {
        SaveError::Missing => t(Key::SaveErrMissing),
        SaveError::Unreadable { message, .. } => {
            trf(language, Key::SaveErrUnreadable, &[("message", message)])
        }
        SaveError::WriteFailed { message, .. } => {
            trf(language, Key::SaveErrWriteFailed, &[("message", message)])
        }
        SaveError::Empty => t(Key::SaveErrEmpty),
        SaveError::NotText { offset } => trf(language, Key::SaveErrNotText, &[("offset", offset)]),
        SaveError::Truncated { line, column } => trf(
            language,
            Key::SaveErrTruncated,
            &[("line", line), ("column", column)],
        ),
        SaveError::Syntax {
            line,
            column,
            message,
        } => trf(
            language,
            Key::SaveErrSyntax,
            &[("line", line), ("column", column), ("message", message)],
        ),
        SaveError::UnsupportedVersion { found, supported } => trf(
            language,
            Key::SaveErrVersion,
            &[("found", found), ("supported", supported)],
        ),
        SaveError::UnknownVariant { name } => {
            trf(language, Key::SaveErrUnknownVariant, &[("name", name)])
        }
        SaveError::VariantUnavailable { name, why } => trf(
            language,
            Key::SaveErrVariantUnavailable,
            &[("name", name), ("why", why)],
        ),
        SaveError::WrongVariant { saved, given } => trf(
            language,
            Key::SaveErrWrongVariant,
            &[("saved", saved), ("given", given)],
        ),
        SaveError::BadStart { why } => trf(language, Key::SaveErrBadStart, &[("why", why)]),
        SaveError::IllegalMove {
            number,
            notation,
            reason,
            variant_changed,
        } => {
            let mut text = trf(
                language,
                Key::SaveErrIllegalMove,
                &[
                    ("number", number),
                    ("notation", notation),
                    ("reason", reason),
                ],
            );
            if *variant_changed {
                text.push_str("; ");
                text.push_str(tr(language, Key::SaveErrVariantChanged));
            }
            text
        }
        SaveError::InvalidSlotName { name, problem } => {
            let problem = match problem {
                SlotNameProblem::Empty => t(Key::SlotNameEmpty),
                SlotNameProblem::TooLong => trf(
                    language,
                    Key::SlotNameTooLong,
                    &[("max", &boardcraft_saves::slot::MAX_SLOT_CHARS)],
                ),
                SlotNameProblem::BadCharacter(c) => trf(
                    language,
                    Key::SlotNameBadCharacter,
                    &[("found", &format!("“{c}”"))],
                ),
                SlotNameProblem::BadEdge => t(Key::SlotNameBadEdge),
                SlotNameProblem::Reserved => t(Key::SlotNameReserved),
            };
            trf(
                language,
                Key::SaveErrInvalidName,
                &[("name", name), ("problem", &problem)],
            )
        }
        SaveError::NoGame => t(Key::SaveErrNoGame),
    }
}

/// Something persistence wants the player to know after a success, in their language.
pub fn persistence_notice_text(language: Language, notice: &PersistenceNotice) -> String {
    match notice {
        PersistenceNotice::RecoveredFromBackup { problem } => trf(
            language,
            Key::NoticeRecovered,
            &[("problem", &save_error_text(language, problem))],
        ),
        PersistenceNotice::KeptDamagedFile => tr(language, Key::NoticeKeptDamaged).to_owned(),
        PersistenceNotice::Save(SaveWarning::VariantChanged { .. }) => {
            tr(language, Key::WarnVariantChanged).to_owned()
        }
        PersistenceNotice::Save(SaveWarning::ResignationIgnored { side: resigned }) => {
            let seats = SeatNames::two();
            trf(
                language,
                Key::WarnResignationIgnored,
                &[
                    ("Side", &side(language, &seats, *resigned)),
                    ("side", &side_lower(language, &seats, *resigned)),
                ],
            )
        }
        PersistenceNotice::Save(SaveWarning::DecisionIgnored { .. }) => {
            tr(language, Key::WarnDecisionIgnored).to_owned()
        }
        PersistenceNotice::Save(SaveWarning::ResultDiffers { saved, replayed }) => {
            let not_over = tr(language, Key::GameNotOver);
            trf(
                language,
                Key::WarnResultDiffers,
                &[
                    ("saved", &saved.as_deref().unwrap_or(not_over)),
                    ("replayed", &replayed.as_deref().unwrap_or(not_over)),
                ],
            )
        }
    }
}
