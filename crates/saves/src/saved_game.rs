//! The save file: a readable RON text, written by hand-made layout (one line per move pair, with
//! move numbers) and read back with `ron`, strictly (unknown fields are errors).
use boardcraft_rules::{Outcome, Seat, Variant};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::{Player, SaveError};

/// The save format this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// A saved game: which variant (by name, with the hash of its file), who played, and the moves
/// in the game's notation. Nothing here is trusted: [`SavedGame::replay`] replays every move
/// through the rules before a game is shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame {
    pub format_version: u32,
    /// The variant's name (`ugolki-hg-3x3`, or a mod's name).
    pub variant: String,
    /// The variant's title when the game was saved (for lists; informational).
    #[serde(default)]
    pub title: String,
    /// The variant file's content hash when the game was saved, 16 hex digits
    /// ([`Variant::content_hash`]).
    pub variant_hash: String,
    /// When the game was saved, `YYYY-MM-DDTHH:MM:SSZ` (informational; orders the load list).
    #[serde(default)]
    pub saved_at: Option<String>,
    pub white: Player,
    pub black: Player,
    /// How many seats the game was played with, when more than two (a variant may offer
    /// several: `halma-16` for two or four); absent = two.
    #[serde(default)]
    pub players: Option<usize>,
    /// Who played the seats after White and Black (seat 3 on), in seat order.
    #[serde(default)]
    pub others: Vec<Player>,
    /// The position the game started from, as the rules write a position in text (a game
    /// started with `--position` or from a puzzle); absent = the variant's start position.
    #[serde(default)]
    pub start: Option<String>,
    /// The moves, one per ply, in the game's notation.
    pub moves: Vec<String>,
    /// The result when the game was saved, in words (informational: the replay decides).
    #[serde(default)]
    pub result: Option<String>,
    /// The rules' result when the game was saved, typed, so that a list of saves can word it
    /// in the player's language without replaying (informational: the replay decides).
    /// Absent from saves written before it existed, and from unfinished or resigned games.
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// The side that resigned, if the game ended so. Resignation is not a rule of the game, so
    /// the replay cannot find it: the save is what keeps it. Absent (= nobody resigned) from
    /// saves written before it existed. See [`SavedGame::replay`] for how it is checked.
    #[serde(default)]
    pub resigned: Option<Seat>,
    /// An end decided outside the rules and the board (an online game: a flag fall, a game
    /// abandoned and claimed, a draw agreed). Like a resignation the replay cannot find it, so
    /// the save keeps it. Absent (= none) from saves written before it existed.
    #[serde(default)]
    pub decided: Option<Decided>,
}

/// How a game ended that neither its rules nor a resignation ended (online play).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decided {
    /// This side's clock ran out.
    Timeout(Seat),
    /// This side left the game and the opponent claimed it.
    Abandoned(Seat),
    /// Both players agreed to a draw.
    DrawAgreed,
    /// A game between accounts (online, protocol 2) that ended before each side made two
    /// moves: no winner, not rated. Games that load it show the position as it stood.
    Aborted,
}

impl Decided {
    /// The winner (none for a draw).
    pub fn winner(self) -> Option<Seat> {
        match self {
            Decided::Timeout(side) | Decided::Abandoned(side) => Some(side.other()),
            Decided::DrawAgreed | Decided::Aborted => None,
        }
    }
}

impl std::fmt::Display for Decided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Decided::Timeout(side) => write!(f, "{} wins: {side} ran out of time", side.other()),
            Decided::Abandoned(side) => write!(f, "{} wins: {side} left the game", side.other()),
            Decided::DrawAgreed => f.write_str("draw agreed"),
            Decided::Aborted => f.write_str("game aborted"),
        }
    }
}

/// Only the version, read first so that a newer format is reported as such rather than as an
/// unknown field.
#[derive(Deserialize)]
struct VersionProbe {
    format_version: u32,
}

impl SavedGame {
    /// A save of a game of `variant` with these moves (in notation); `outcome` is the result if
    /// the game is over.
    pub fn new(
        variant: &Variant,
        white: Player,
        black: Player,
        moves: Vec<String>,
        outcome: Option<Outcome>,
    ) -> Self {
        SavedGame {
            format_version: FORMAT_VERSION,
            variant: variant.name.clone(),
            title: variant.title.clone(),
            variant_hash: hash_hex(variant.content_hash),
            saved_at: None,
            white,
            black,
            players: (variant.players() > 2).then_some(variant.players()),
            others: Vec::new(),
            start: None,
            moves,
            result: result_text(outcome, None),
            outcome,
            resigned: None,
            decided: None,
        }
    }

    /// Records who played the seats after the first two.
    pub fn with_others(mut self, others: Vec<Player>) -> Self {
        self.others = others;
        self
    }

    /// Records the position the game started from (its text), when it is not the variant's
    /// start position.
    pub fn with_start(mut self, text: impl Into<String>) -> Self {
        self.start = Some(text.into());
        self
    }

    /// Records that `side` resigned (the game the save was made from ended so).
    pub fn with_resignation(mut self, side: Seat) -> Self {
        self.resigned = Some(side);
        self.result = result_text(self.outcome, self.resigned);
        self
    }

    /// Records an end decided outside the rules (the online game the save was made from ended
    /// so).
    pub fn with_decision(mut self, decided: Decided) -> Self {
        self.decided = Some(decided);
        self.result = end_text(self.outcome, self.resigned, self.decided);
        self
    }

    /// Stamps the save with the time it was saved (seconds since the Unix epoch, UTC).
    pub fn with_saved_at(mut self, unix_secs: u64) -> Self {
        self.saved_at = Some(format_utc(unix_secs));
        self
    }

    /// The save as RON text, with a comment header, one line per move pair.
    pub fn to_ron(&self) -> String {
        let mut out = String::new();
        out.push_str(
            "// Boardcraft saved game. You may read and edit it: loading replays every move\n\
             // through the rules and refuses a save whose moves do not replay.\n\
             // variant_hash identifies the variant file the game was played with.\n",
        );
        out.push_str("(\n");
        out.push_str(&format!("    format_version: {},\n", self.format_version));
        out.push_str(&format!("    variant: {},\n", quote(&self.variant)));
        out.push_str(&format!("    title: {},\n", quote(&self.title)));
        out.push_str(&format!(
            "    variant_hash: {},\n",
            quote(&self.variant_hash)
        ));
        match &self.saved_at {
            Some(at) => out.push_str(&format!("    saved_at: Some({}),\n", quote(at))),
            None => out.push_str("    saved_at: None,\n"),
        }
        out.push_str(&format!("    white: {},\n", quote(self.white.name())));
        out.push_str(&format!("    black: {},\n", quote(self.black.name())));
        // Written only for more than two seats: two-seat saves stay readable by older builds.
        if let Some(n) = self.players {
            out.push_str(&format!("    players: Some({n}),\n"));
            let others: Vec<String> = self.others.iter().map(|p| quote(p.name())).collect();
            out.push_str(&format!("    others: [{}],\n", others.join(", ")));
        }
        // Written only when set: a game from the variant's start stays readable by builds that
        // predate the field.
        if let Some(start) = &self.start {
            out.push_str(&format!("    start: Some({}),\n", quote(start)));
        }
        if self.moves.is_empty() {
            out.push_str("    moves: [],\n");
        } else {
            out.push_str("    moves: [\n");
            for (i, pair) in self.moves.chunks(2).enumerate() {
                out.push_str(&format!("        /* {:>3} */", i + 1));
                for mv in pair {
                    out.push_str(&format!(" {},", quote(mv)));
                }
                out.push('\n');
            }
            out.push_str("    ],\n");
        }
        match &self.result {
            Some(r) => out.push_str(&format!("    result: Some({}),\n", quote(r))),
            None => out.push_str("    result: None,\n"),
        }
        // Written only when set, so the save of a game that is not over (or not over by its
        // rules) stays readable by builds that predate these fields.
        if let Some(outcome) = &self.outcome {
            let typed = ron::to_string(outcome).expect("an outcome always serialises");
            out.push_str(&format!("    outcome: Some({typed}),\n"));
        }
        if let Some(side) = self.resigned {
            out.push_str(&format!("    resigned: Some({side:?}),\n"));
        }
        if let Some(decided) = self.decided {
            let typed = ron::to_string(&decided).expect("a decision always serialises");
            out.push_str(&format!("    decided: Some({typed}),\n"));
        }
        out.push_str(")\n");
        out
    }

    /// Reads a save from its text. Errors say where (line and column) and what: an empty or
    /// truncated file, a syntax error, an unsupported format version.
    pub fn parse(text: &str) -> Result<SavedGame, SaveError> {
        if let Ok(probe) = ron::from_str::<VersionProbe>(text)
            && probe.format_version != FORMAT_VERSION
        {
            return Err(SaveError::UnsupportedVersion {
                found: probe.format_version,
                supported: FORMAT_VERSION,
            });
        }
        let game: SavedGame = parse_ron(text)?;
        if game.format_version != FORMAT_VERSION {
            return Err(SaveError::UnsupportedVersion {
                found: game.format_version,
                supported: FORMAT_VERSION,
            });
        }
        Ok(game)
    }

    /// Reads a save from raw bytes (a file or browser storage), which may not even be text.
    pub fn load_bytes(bytes: &[u8]) -> Result<SavedGame, SaveError> {
        SavedGame::parse(text_of(bytes)?)
    }
}

/// The result in words, as a save writes it: the rules' outcome, or the resignation.
pub fn result_text(outcome: Option<Outcome>, resigned: Option<Seat>) -> Option<String> {
    end_text(outcome, resigned, None)
}

/// The result in words with an end decided outside the rules: a resignation comes first, then
/// the decision, then the rules' outcome (the order in which they can happen).
pub fn end_text(
    outcome: Option<Outcome>,
    resigned: Option<Seat>,
    decided: Option<Decided>,
) -> Option<String> {
    match (resigned, decided) {
        (Some(side), _) => Some(format!("{} wins: {side} resigned", side.other())),
        (None, Some(decided)) => Some(decided.to_string()),
        (None, None) => outcome.map(|o| o.to_string()),
    }
}

/// Reads a stored RON value (a save, the settings) with the errors of [`SaveError`]: empty,
/// truncated (told apart from other damage), or a syntax error with line and column.
pub fn parse_ron<T: DeserializeOwned>(text: &str) -> Result<T, SaveError> {
    if text.trim().is_empty() {
        return Err(SaveError::Empty);
    }
    ron::from_str(text).map_err(|e| describe(text, &e))
}

/// [`parse_ron`] of raw bytes, which may not even be text.
pub fn parse_ron_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, SaveError> {
    parse_ron(text_of(bytes)?)
}

/// The bytes as UTF-8 text; an incomplete character at the very end means the file was cut off.
pub fn text_of(bytes: &[u8]) -> Result<&str, SaveError> {
    std::str::from_utf8(bytes).map_err(|e| match e.error_len() {
        None => {
            let (line, column) = end_position(&String::from_utf8_lossy(&bytes[..e.valid_up_to()]));
            SaveError::Truncated { line, column }
        }
        Some(_) => SaveError::NotText {
            offset: e.valid_up_to(),
        },
    })
}

/// A RON string literal (quoted and escaped).
fn quote(s: &str) -> String {
    ron::to_string(s).expect("a string always serialises")
}

/// 16 lower-case hex digits.
pub fn hash_hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// A RON error as a [`SaveError`]: text that stops before its closing `)`, inside a string or a
/// comment, or where the parser still wanted more, was cut off (truncated); anything else is a
/// syntax error at its position.
fn describe(text: &str, e: &ron::error::SpannedError) -> SaveError {
    use ron::Error as E;
    let complete = text.trim_end().ends_with(')');
    let cut_inside = matches!(
        e.code,
        E::Eof | E::ExpectedStringEnd | E::UnclosedBlockComment | E::UnclosedLineComment
    );
    // The parser got past the last character and still wanted more.
    let at_end = (e.span.end.line, e.span.end.col) >= end_position(text.trim_end());
    if !complete || cut_inside || at_end {
        let (line, column) = end_position(text);
        return SaveError::Truncated { line, column };
    }
    SaveError::Syntax {
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    }
}

/// 1-based line and column just past the end of `text`.
fn end_position(text: &str) -> (usize, usize) {
    let line = text.matches('\n').count() + 1;
    let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// `YYYY-MM-DDTHH:MM:SSZ` for seconds since the Unix epoch (UTC, proleptic Gregorian).
pub fn format_utc(unix_secs: u64) -> String {
    let days = (unix_secs / 86_400) as i64;
    let secs = unix_secs % 86_400;
    // Howard Hinnant's `civil_from_days`.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3_600,
        secs / 60 % 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use boardcraft_ai::Level;
    use boardcraft_rules::{EndReason, shipped_variant};

    fn a_save() -> SavedGame {
        let variant = shipped_variant("ugolki-hg-3x3").unwrap();
        SavedGame::new(
            &variant,
            Player::Human,
            Player::Computer(Level::Novice),
            vec!["b3-b4".into(), "e6-e5".into()],
            None,
        )
    }

    #[test]
    fn a_resignation_round_trips() {
        let save = a_save().with_resignation(Seat::WHITE);
        assert_eq!(save.result.as_deref(), Some("Black wins: White resigned"));
        let text = save.to_ron();
        assert!(text.contains("    resigned: Some(White),\n"), "{text}");
        assert_eq!(SavedGame::parse(&text), Ok(save));
    }

    #[test]
    fn a_typed_outcome_round_trips() {
        let variant = shipped_variant("ugolki-9qum").unwrap();
        let outcome = Outcome::draw(EndReason::PieceCount { white: 3, black: 3 });
        let save = SavedGame::new(
            &variant,
            Player::Human,
            Player::Human,
            vec![],
            Some(outcome),
        );
        let text = save.to_ron();
        assert!(text.contains("outcome: Some("), "{text}");
        assert_eq!(SavedGame::parse(&text).unwrap().outcome, Some(outcome));
    }

    #[test]
    fn a_save_without_the_new_fields_still_loads() {
        // A save as written before `outcome` and `resigned` existed.
        let old = r#"(
            format_version: 1,
            variant: "ugolki-hg-3x3",
            title: "Ugolki",
            variant_hash: "0123456789abcdef",
            saved_at: None,
            white: "human",
            black: "novice",
            moves: ["b3-b4"],
            result: Some("White wins: all pieces reached the target camp"),
        )"#;
        let save = SavedGame::parse(old).unwrap();
        assert_eq!(save.resigned, None);
        assert_eq!(save.outcome, None);
        assert_eq!(save.moves, ["b3-b4"]);
        // And an unfinished game is still written without them, for older builds.
        let text = a_save().to_ron();
        assert!(
            !text.contains("resigned") && !text.contains("outcome"),
            "{text}"
        );
    }

    #[test]
    fn utc_dates() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_utc(1_709_251_199), "2024-02-29T23:59:59Z");
        assert_eq!(format_utc(4_102_444_800), "2100-01-01T00:00:00Z");
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(quote("a\"b\\c"), r#""a\"b\\c""#);
    }

    #[test]
    fn end_positions() {
        assert_eq!(end_position(""), (1, 1));
        assert_eq!(end_position("ab"), (1, 3));
        assert_eq!(end_position("ab\ncd"), (2, 3));
        assert_eq!(end_position("ab\n"), (2, 1));
    }
}
