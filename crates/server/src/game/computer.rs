//! The computer in a seat of a game: the seats the lobby fills when a table waited too long
//! for people (`--fill-with-bots-after`), and the seat of a person who left a table of more
//! than two (resigned, or was gone past the grace period), which it plays to the end so the
//! others play on. It plays as `boardcraft-cli online
//! bot` does (the same engine, `boardcraft_ai`'s levels and `AnySearch`, thinking on a
//! blocking thread), but inside the server: it connects to the game's task like a websocket
//! with its seat token (so its seat is present, never claimed gone), hears every event the
//! game sends, and sends its moves as a client's `move`; the game task checks and stores them
//! exactly as anyone's.
//!
//! **Where it runs**: with the game's task. Whichever node loads a game (`Games::start`)
//! starts the computer for each of its seats held by one of the server's computer accounts
//! (`Computer-N-bot`) or left by its person, connected to that task only (a departure while
//! the task runs starts it then); when the task stops (the game moved to
//! another node, or was unloaded) the computer stops with it, and the node that loads the
//! game next starts its own. So a restart, a failover or a handover never leaves a computer
//! seat unplayed, and two nodes never play one seat (they would hand the game back and forth).

use std::{
    sync::atomic::{AtomicU64, Ordering},
    time::Duration,
};

use boardcraft_ai::{AnySearch, Level};
use boardcraft_protocol::{ClientMessage, SEATS_PROTOCOL_VERSION};
use boardcraft_rules::Position;
use tokio::sync::{mpsc, oneshot};
use tracing::{debug, warn};

use super::{Command, ConnId, Turn};

/// The name of the server's `n`-th computer account (1, 2, …): one per empty seat of a
/// table, a bot's name (only bots may end in "bot").
pub fn computer_name(n: usize) -> String {
    format!("Computer-{n}-bot")
}

/// Whether `name` is one of the server's computer accounts.
pub fn is_computer(name: &str) -> bool {
    name.strip_prefix("Computer-")
        .and_then(|rest| rest.strip_suffix("-bot"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The computer's connections have ids of their own, far above the websockets' (counted
/// from 0 by the HTTP floor).
static NEXT_CONN: AtomicU64 = AtomicU64::new(1 << 62);

/// The longest the computer thinks over one move.
const MAX_THINK: Duration = Duration::from_millis(1500);

/// Plays `token`'s seat of `game`, whose task is `tx`, at `level`, until the game is over or
/// its task stops (on a task of its own).
pub fn play_seat(tx: mpsc::Sender<Command>, game: String, token: String, level: Level) {
    tokio::spawn(async move {
        match play(&tx, &game, &token, level).await {
            Ok(why) => debug!(game = %game, "the computer leaves its seat: {why}"),
            Err(e) => warn!(game = %game, "the computer stopped playing its seat: {e}"),
        }
    });
}

async fn turn(tx: &mpsc::Sender<Command>) -> Option<Turn> {
    let (reply, answer) = oneshot::channel();
    tx.send(Command::Turn { reply }).await.ok()?;
    answer.await.ok()
}

/// How long to think with `remaining_ms` on the clock.
fn think_time(remaining_ms: Option<u64>) -> Duration {
    match remaining_ms {
        Some(ms) => MAX_THINK.min(Duration::from_millis(ms / 40)),
        None => MAX_THINK,
    }
}

async fn play(
    tx: &mpsc::Sender<Command>,
    game: &str,
    token: &str,
    level: Level,
) -> Result<&'static str, String> {
    let seed = game.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let conn: ConnId = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let (outbox, mut inbox) = mpsc::channel(256);
    let (reply, answer) = oneshot::channel();
    let sent = tx
        .send(Command::Connect {
            conn,
            token: Some(token.to_owned()),
            protocol: SEATS_PROTOCOL_VERSION,
            computer: true,
            outbox,
            reply,
        })
        .await;
    if sent.is_err() {
        return Ok("the game's task stopped");
    }
    let seat = match answer.await {
        Ok(Ok(Some(seat))) => seat,
        Ok(Ok(None)) => return Err("the token holds no seat".into()),
        Ok(Err(e)) => return Err(e.to_string()),
        Err(_) => return Ok("the game's task stopped"),
    };
    debug!(game, seat, "the computer sits down");
    // After every event, look at the position and move when it is this seat's turn.
    loop {
        let Some(now) = turn(tx).await else {
            return Ok("the game's task stopped");
        };
        if now.over {
            let _ = tx.send(Command::Disconnect { conn }).await;
            return Ok("the game is over");
        }
        let mine = now.started
            && !now.position.is_game_over()
            && now.position.side_to_move().index() == usize::from(seat);
        if mine {
            let position = now.position;
            let budget = think_time(now.remaining_ms);
            let move_seed = seed ^ u64::from(now.ply).wrapping_mul(0x9e37_79b9);
            let chosen = tokio::task::spawn_blocking(move || {
                let mut cfg = level.config(&position, move_seed);
                cfg.budget = cfg.budget.with_time(budget);
                AnySearch::new(&position, cfg)
                    .run()
                    .best_move
                    .map(|m| position.format_move(&m))
            })
            .await
            .map_err(|e| e.to_string())?;
            let Some(notation) = chosen else {
                return Err("the engine found no move".into());
            };
            let msg = ClientMessage::Move {
                ply: now.ply,
                notation,
            };
            if tx.send(Command::Message { conn, msg }).await.is_err() {
                return Ok("the game's task stopped");
            }
        }
        // The next event (a move stored, a seat leaving, the end), or a look again after a
        // while in case one was missed; a burst is one look.
        match tokio::time::timeout(Duration::from_secs(2), inbox.recv()).await {
            Ok(None) => return Ok("the game's task stopped"),
            Ok(Some(_)) => while inbox.try_recv().is_ok() {},
            Err(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computer_names() {
        assert_eq!(computer_name(3), "Computer-3-bot");
        assert!(is_computer(&computer_name(12)));
        for other in [
            "Computer--bot",
            "Computer-x-bot",
            "MasterBot",
            "Computer-1-bots",
        ] {
            assert!(!is_computer(other), "{other}");
        }
    }
}
