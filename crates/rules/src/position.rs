use std::{fmt, hash::Hash};

use crate::{NamedSeat, Outcome, Seat};

/// A game position of any family, in the spirit of shakmaty's `Position`: legal move
/// generation, checked and unchecked play, undo for search, outcome, Zobrist hash and notation.
///
/// Contract shared by every family (the AI, the CLI and the app rely on it):
/// - a finished position (`outcome().is_some()`) has no legal moves;
/// - `legal_moves` is deterministic and free of duplicates (moves compare by their identity,
///   e.g. `(from, to)` for jump chains);
/// - `play_unchecked(m)` followed by `undo(m, token)` restores the position exactly, hash and
///   repetition history included;
/// - `hash()` is a Zobrist hash of everything that decides the future of the game (board, side
///   to move, reserves …), but not the ply counter or history;
/// - `format_move` / `parse_move` round-trip for every legal move.
pub trait Position: Clone + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// A legal move. Cheap to clone; equality and hashing are by the move's identity.
    type Move: Clone + Eq + Hash + fmt::Debug + Send + Sync + 'static;
    /// What `play_unchecked` needs to remember so that `undo` can restore the position.
    type Undo: Send + Sync + 'static;
    /// What a played move did, in the detail a view needs to animate it (every hop of a chain,
    /// lifted pieces and overflow, pushes and removed rows).
    type Effect: Clone + fmt::Debug + Send + Sync + 'static;

    /// The side whose turn it is.
    fn side_to_move(&self) -> Seat;

    /// How many seats the table has (seats `0 .. seat_count()`); two unless the family seats
    /// more.
    fn seat_count(&self) -> usize {
        2
    }

    /// What the game calls a seat ("White", "Red").
    fn seat_name(&self, seat: Seat) -> String {
        seat.name().to_owned()
    }

    /// Plies played since the start position.
    fn ply(&self) -> u32;

    /// Clears `moves` and fills it with every legal move (none when the game is over).
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// The number of legal moves; families override it with a bulk count for perft.
    fn count_legal_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len() as u64
    }

    fn is_legal(&self, mv: &Self::Move) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.contains(mv)
    }

    /// Plays a move after checking that it is legal, returning what happened.
    fn play(&mut self, mv: &Self::Move) -> Result<Self::Effect, IllegalMove>;

    /// Plays a move known to be legal (from `legal_moves` of this very position). Fast path
    /// for search; an illegal move here may leave the position inconsistent.
    fn play_unchecked(&mut self, mv: &Self::Move) -> Self::Undo;

    /// Takes back `mv`, which must be the last move played with `play_unchecked`.
    fn undo(&mut self, mv: &Self::Move, undo: Self::Undo);

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    fn is_game_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Zobrist hash of the position (see the trait docs for what it covers).
    fn hash(&self) -> u64;

    /// The move in the game's notation (`a3-a4`, `b3:d3:d5`, `+e5`, `e1-e2;xe2,e3,e4,e5` …).
    fn format_move(&self, mv: &Self::Move) -> String;

    /// Reads a move typed in the game's notation and returns the legal move it names.
    fn parse_move(&self, text: &str) -> Result<Self::Move, NotationError>;
}

/// A move that is not legal in the position it was played in: the move as written and what
/// is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {notation}: {reason}")]
pub struct IllegalMove {
    pub notation: String,
    pub reason: IllegalReason,
}

/// What is wrong with a move, in the spirit of shakmaty's `PlayError`: a value per family to
/// match on (`race::Illegal`, `focus::Illegal`, `gipf::Illegal`), whose `Display` is the
/// sentence a player reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    #[error(transparent)]
    Race(#[from] crate::race::Illegal),
    #[error(transparent)]
    Focus(#[from] crate::focus::Illegal),
    #[error(transparent)]
    Gipf(#[from] crate::gipf::Illegal),
    /// A move of one family played in a position of another ([`crate::AnyPosition`]).
    #[error("the move belongs to another game")]
    OtherGame,
    /// A move of a seat that cannot make it here: searches that let any seat move next
    /// ([`OutOfTurn`]) name the seat with each move.
    #[error("not a move of {seat} here")]
    NotSeatsMove { seat: NamedSeat },
    /// A reason in words, for games implemented outside this crate (the search's test games).
    #[error("{0}")]
    Other(String),
}

/// A move string that could not be turned into a legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not a move in this game's notation at all.
    #[error("cannot read `{text}` as a move: {why}")]
    Syntax { text: String, why: String },
    /// The text is well formed but names no legal move here.
    #[error("`{text}` is not a legal move here: {reason}")]
    Illegal { text: String, reason: IllegalReason },
}

impl NotationError {
    pub fn syntax(text: &str, why: impl Into<String>) -> Self {
        NotationError::Syntax {
            text: text.to_owned(),
            why: why.into(),
        }
    }

    pub fn illegal(text: &str, reason: impl Into<IllegalReason>) -> Self {
        NotationError::Illegal {
            text: text.to_owned(),
            reason: reason.into(),
        }
    }

    /// Why the text is no move here, in a player's words.
    pub fn why(&self) -> String {
        match self {
            NotationError::Syntax { why, .. } => why.clone(),
            NotationError::Illegal { reason, .. } => reason.to_string(),
        }
    }
}

/// Plays a whitespace-separated list of moves (move numbers like `1.` and `2...` are skipped),
/// as the CLI's `--after` and saved games give them.
pub fn play_line<P: Position>(pos: &mut P, line: &str) -> Result<Vec<P::Effect>, NotationError> {
    let mut effects = Vec::new();
    for token in line.split_whitespace() {
        if token
            .trim_end_matches('.')
            .chars()
            .all(|c| c.is_ascii_digit())
        {
            continue;
        }
        let mv = pos.parse_move(token)?;
        let effect = pos
            .play(&mv)
            .map_err(|e| NotationError::illegal(token, e.reason))?;
        effects.push(effect);
    }
    Ok(effects)
}

/// Turns out of their order, for searches of games of more than two seats that let any seat
/// move next (best-reply search lets the strongest reply of all the other seats answer the
/// searching seat's move). The rules of whose turn comes next stay the family's: a skipped turn
/// goes to the next seat that still plays, as after a move.
///
/// Contract: `skip_turn` on a position that is not finished, then `unskip_turn` with its token,
/// restores the position exactly; a skip changes the side to move (and the hash with it) and
/// nothing else — no ply, no repetition history.
pub trait OutOfTurn: Position {
    /// What `unskip_turn` needs to restore the position.
    type Skip: Copy + Send + Sync + 'static;

    /// Whether `seat` still has turns (has neither finished nor gone out).
    fn still_plays(&self, seat: Seat) -> bool;

    /// The legal moves `seat` would have if it were to move now (none once the game is over
    /// or the seat no longer plays).
    fn legal_moves_of(&self, seat: Seat, moves: &mut Vec<Self::Move>);

    /// Hands the turn to the next seat that still plays, without a move.
    fn skip_turn(&mut self) -> Self::Skip;

    /// Takes back a [`OutOfTurn::skip_turn`].
    fn unskip_turn(&mut self, skip: Self::Skip);

    /// The place `seat` has already made sure of (finished, or gone out), if any.
    fn settled_place(&self, seat: Seat) -> Option<u8>;

    /// Whether `a` and `b` play on one team (a seat is on its own team).
    fn same_team(&self, a: Seat, b: Seat) -> bool {
        a == b
    }
}
