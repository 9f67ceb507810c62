//! The bridge between the rules crate and the protocol's words.
use boardcraft_protocol::{EndCause, GameResult, Side};
use boardcraft_rules::{EndReason, Outcome, Seat, Variant, VariantError, shipped_variant};

pub fn side(color: Seat) -> Side {
    match color {
        Seat::WHITE => Side::White,
        _ => Side::Black,
    }
}

pub fn color(side: Side) -> Seat {
    match side {
        Side::White => Seat::WHITE,
        Side::Black => Seat::BLACK,
    }
}

/// The rules' reason as the protocol's `rule` code.
pub fn rule_code(reason: EndReason) -> &'static str {
    match reason {
        EndReason::TargetFilled => "target_filled",
        EndReason::TargetBlockedButReached => "target_blocked_but_reached",
        EndReason::BothFinished => "both_finished",
        EndReason::HomeNotVacated => "home_not_vacated",
        EndReason::PieceCount { .. } => "piece_count",
        EndReason::NoLegalMoves => "no_legal_moves",
        EndReason::NoStackNoReserve => "no_stack_no_reserve",
        EndReason::ReserveExhausted => "reserve_exhausted",
        EndReason::NoGipfPiece => "no_gipf_piece",
        EndReason::Annihilated => "annihilated",
        EndReason::Repetition => "repetition",
        EndReason::PlyCap => "ply_cap",
    }
}

pub fn rules_result(outcome: Outcome) -> GameResult {
    GameResult {
        winner: outcome.winner().map(side),
        cause: EndCause::Rules {
            rule: rule_code(outcome.reason).to_owned(),
        },
        text: outcome.to_string(),
    }
}

fn title(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

pub fn resignation(loser: Side) -> GameResult {
    GameResult {
        winner: Some(loser.other()),
        cause: EndCause::Resignation,
        text: format!("{} wins: {} resigned", title(loser.other()), title(loser)),
    }
}

pub fn timeout(loser: Side) -> GameResult {
    GameResult {
        winner: Some(loser.other()),
        cause: EndCause::Timeout,
        text: format!("{} wins on time", title(loser.other())),
    }
}

pub fn draw_agreed() -> GameResult {
    GameResult {
        winner: None,
        cause: EndCause::DrawAgreed,
        text: "draw by agreement".into(),
    }
}

pub fn abandoned(winner: Side) -> GameResult {
    GameResult {
        winner: Some(winner),
        cause: EndCause::Abandoned,
        text: format!(
            "{} wins: {} left the game",
            title(winner),
            title(winner.other())
        ),
    }
}

/// A game between accounts that ended before each side made two moves.
pub fn aborted() -> GameResult {
    GameResult {
        winner: None,
        cause: EndCause::Aborted,
        text: "game aborted".into(),
    }
}

/// The variant a game is played with: its posted file, or the shipped one by name.
pub fn variant_of(name: &str, file: Option<&str>) -> Result<Variant, VariantError> {
    match file {
        Some(text) => Variant::from_ron("posted variant file", text),
        None => shipped_variant(name),
    }
}
