//! One game between its players (one per seat), move by move: the loop that `match` and
//! `soak` share.
use boardcraft_rules::{AnyPosition, IllegalMove, Outcome, Position, Seat};

use crate::player::{Choice, Player};

/// Why a game stopped before its end.
#[derive(Debug)]
pub enum GameError {
    /// A player could not choose a move (an external engine failed or stopped answering, or
    /// a search found no move in a position that is not over).
    Player { side: Seat, message: String },
    /// A player chose a move that `play` rejects.
    Illegal {
        side: Seat,
        notation: String,
        error: IllegalMove,
    },
    /// The observer stopped the game (`soak`: a broken invariant).
    Stopped(String),
}

/// Plays the game on from `pos` (reached from the start by `line`, moves in notation) until
/// it ends, and returns the outcome; `pos` and `line` follow every move. `players` are indexed
/// by [`Seat::index`], one per seat of the table; `seed_of_ply` gives each move's seed (the levels' noise, tie breaks).
/// `observe` sees every chosen move in the position it is chosen in, before it is played, and
/// may stop the game.
pub fn play_game(
    pos: &mut AnyPosition,
    line: &mut Vec<String>,
    players: &mut [&mut Player],
    seed_of_ply: impl Fn(u32) -> u64,
    mut observe: impl FnMut(&mut AnyPosition, Seat, &Choice) -> Result<(), String>,
) -> Result<Outcome, GameError> {
    assert_eq!(players.len(), pos.seat_count(), "one player per seat");
    while !pos.is_game_over() {
        let side = pos.side_to_move();
        let player = &mut *players[side.index()];
        let choice = player
            .choose(pos, line, seed_of_ply(pos.ply()))
            .map_err(|message| GameError::Player { side, message })?;
        observe(pos, side, &choice).map_err(GameError::Stopped)?;
        let notation = pos.format_move(&choice.mv);
        if let Err(error) = pos.play(&choice.mv) {
            return Err(GameError::Illegal {
                side,
                notation,
                error,
            });
        }
        line.push(notation);
    }
    Ok(pos.outcome().expect("the loop ends with the game"))
}
