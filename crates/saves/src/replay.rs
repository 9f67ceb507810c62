//! Loading a save means replaying it: every move is read and played through the rules engine,
//! so a save that the game shows is always a legal game of its variant.
//!
//! **Variant hash policy.** The hash covers the variant file's *text*, so it changes with any
//! edit, comments and layout included (and with a Windows checkout's line endings). A different
//! hash is therefore a *warning* ([`SaveWarning::VariantChanged`]) when every move still
//! replays, and the reason given with the error when one does not
//! ([`SaveError::IllegalMove`] with `variant_changed`). Refusing every save after a comment was
//! fixed in a shipped file would lose the players' games for nothing; the replay is the check
//! that matters.
//!
//! **Resignation policy.** A resignation is kept by the save (the rules cannot find it). It
//! ends a game that is still on after the last move; a save that says a side resigned a game
//! the rules had already ended is not what the game writes (it refuses a resignation then), so
//! it was edited. Its moves are still a legal game, so it loads as that game, without the
//! resignation, and says so ([`SaveWarning::ResignationIgnored`]); refusing the whole save for
//! a claim the replay can settle would lose a good game, as with a differing `result`.
use boardcraft_rules::{AnyMove, AnyPosition, Outcome, Position, Seat, Variant, shipped_variant};

use crate::{
    Decided, SaveError, SaveWarning, SavedGame,
    saved_game::{end_text, hash_hex},
};

/// A save that replayed: the positions and the moves as the rules read them.
#[derive(Clone, Debug)]
pub struct Replayed {
    pub start: AnyPosition,
    /// The position after the last move.
    pub position: AnyPosition,
    pub moves: Vec<ReplayedMove>,
    /// The rules' outcome after the last move (a resignation is not in it).
    pub outcome: Option<Outcome>,
    /// The side that resigned, when the save says so and the rules had not ended the game.
    pub resigned: Option<Seat>,
    /// The end decided outside the rules, when the save says so and nothing else had ended
    /// the game.
    pub decided: Option<Decided>,
    /// Things the player should know about this save (it loaded all the same).
    pub warnings: Vec<SaveWarning>,
}

#[derive(Clone, Debug)]
pub struct ReplayedMove {
    pub mv: AnyMove,
    /// The move in the game's canonical notation (a save may use a shorter accepted form, e.g.
    /// `b3:d5` for the chain `b3:d3:d5`).
    pub notation: String,
}

impl Replayed {
    /// The moves in canonical notation, separated by spaces (what `StartGame` and `--after`
    /// take).
    pub fn line(&self) -> String {
        self.moves
            .iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl SavedGame {
    /// Replays the save on `variant`, which must be the variant it names (by its name or a
    /// former name: a save from before a rename still loads). Every move is checked; the first
    /// that does not play stops the replay with its number, notation and the rules' reason.
    pub fn replay(&self, variant: &Variant) -> Result<Replayed, SaveError> {
        if !variant.is_called(&self.variant) {
            return Err(SaveError::WrongVariant {
                saved: self.variant.clone(),
                given: variant.name.clone(),
            });
        }
        // The table the game was played at: its seat count, if the save names one.
        let seated;
        let variant = match self.players {
            Some(n) if n != variant.players() => {
                seated = variant
                    .for_players(n)
                    .map_err(|e| SaveError::BadStart { why: e.to_string() })?;
                &seated
            }
            _ => variant,
        };
        let current_hash = hash_hex(variant.content_hash);
        let variant_changed = !self.variant_hash.eq_ignore_ascii_case(&current_hash);
        let start = match &self.start {
            Some(text) => variant
                .position_from_text(text)
                .map_err(|e| SaveError::BadStart { why: e.to_string() })?,
            None => variant.new_game(),
        };
        let mut position = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, written) in self.moves.iter().enumerate() {
            let illegal = |reason: String| SaveError::IllegalMove {
                number: i + 1,
                notation: written.clone(),
                reason,
                variant_changed,
            };
            let text = written.trim();
            let mv = position.parse_move(text).map_err(|e| illegal(e.why()))?;
            let notation = position.format_move(&mv);
            position
                .play(&mv)
                .map_err(|e| illegal(e.reason.to_string()))?;
            moves.push(ReplayedMove { mv, notation });
        }
        let outcome = position.outcome();
        let mut warnings = Vec::new();
        if variant_changed {
            warnings.push(SaveWarning::VariantChanged {
                saved_hash: self.variant_hash.clone(),
                current_hash,
            });
        }
        let resigned = match (self.resigned, outcome) {
            (Some(side), Some(_)) => {
                warnings.push(SaveWarning::ResignationIgnored { side });
                None
            }
            (resigned, _) => resigned,
        };
        // A decision, like a resignation, ends only a game that nothing else had ended.
        let decided = match (self.decided, outcome, resigned) {
            (Some(decided), Some(_), _) | (Some(decided), _, Some(_)) => {
                warnings.push(SaveWarning::DecisionIgnored { decided });
                None
            }
            (decided, _, _) => decided,
        };
        let replayed_result = end_text(outcome, resigned, decided);
        if self.result != replayed_result {
            warnings.push(SaveWarning::ResultDiffers {
                saved: self.result.clone(),
                replayed: replayed_result,
            });
        }
        Ok(Replayed {
            start,
            position,
            moves,
            outcome,
            resigned,
            decided,
            warnings,
        })
    }

    /// Replays the save on the shipped variant it names (what a tool or a fuzz target without
    /// the game's variant library uses).
    pub fn replay_shipped(&self) -> Result<Replayed, SaveError> {
        let variant = shipped_variant(&self.variant).map_err(|_| SaveError::UnknownVariant {
            name: self.variant.clone(),
        })?;
        self.replay(&variant)
    }
}

/// Reads arbitrary bytes as a save and replays it on the shipped variant it names: the whole
/// loading path without the game, for tools and fuzzing. Never panics.
pub fn load_and_replay_shipped(bytes: &[u8]) -> Result<(SavedGame, Replayed), SaveError> {
    let game = SavedGame::load_bytes(bytes)?;
    let replayed = game.replay_shipped()?;
    Ok((game, replayed))
}
