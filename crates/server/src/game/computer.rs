//! The computer in a seat of a game between accounts: the seats the lobby fills when a table
//! waited too long for people (`--fill-with-bots-after`). It plays as `boardcraft-cli online
//! bot` does (the same engine, `boardcraft_ai`'s levels and `AnySearch`, thinking on a
//! blocking thread), but inside the server: it connects to the game's task like a websocket
//! with its seat token (so its seat is present, never claimed gone), hears every event the
//! game sends, and sends its moves as a client's `move`. The game task checks and stores
//! them exactly as anyone's.
use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use boardcraft_ai::{AnySearch, Level};
use boardcraft_protocol::{ClientMessage, SEATS_PROTOCOL_VERSION};
use boardcraft_rules::Position;
use tokio::sync::{mpsc, oneshot};
use tracing::{debug, info, warn};

use super::{Command, ConnId, Games, Turn};

/// The computer's connections have ids of their own, far above the websockets' (counted
/// from 0 by the HTTP floor).
static NEXT_CONN: AtomicU64 = AtomicU64::new(1 << 62);

/// The longest the computer thinks over one move.
const MAX_THINK: Duration = Duration::from_millis(1500);

/// Plays `token`'s seat of `game` at `level` until the game is over (on its own task).
pub fn play_seat(games: Arc<Games>, game: String, token: String, level: Level) {
    tokio::spawn(async move {
        if let Err(e) = play(&games, &game, &token, level).await {
            warn!(game = %game, "the computer stopped playing its seat: {e}");
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

async fn play(games: &Arc<Games>, game: &str, token: &str, level: Level) -> Result<(), String> {
    let seed = game.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let mut failures = 0;
    loop {
        // (Re)connect: the game's task may have stopped (unloaded, or moved to another node
        // and back).
        let tx = match games.task(game).await {
            Ok(Some(tx)) => tx,
            Ok(None) => return Err("no such game".into()),
            Err(e) => {
                failures += 1;
                if failures > 30 {
                    return Err(format!("the game does not load: {e}"));
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
        };
        let conn: ConnId = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
        let (outbox, mut inbox) = mpsc::channel(256);
        let (reply, answer) = oneshot::channel();
        let connected = tx
            .send(Command::Connect {
                conn,
                token: Some(token.to_owned()),
                protocol: SEATS_PROTOCOL_VERSION,
                outbox,
                reply,
            })
            .await
            .is_ok();
        let seat = match answer.await {
            Ok(Ok(Some(seat))) if connected => seat,
            Ok(Ok(_)) => return Err("the token holds no seat".into()),
            Ok(Err(e)) => return Err(e.to_string()),
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        debug!(game, seat, "the computer sits down");
        // Play while connected: after every event, look at the position and move when it is
        // this seat's turn.
        loop {
            let Some(now) = turn(&tx).await else { break };
            if now.over {
                info!(game, seat, "the computer's game is over");
                let _ = tx.send(Command::Disconnect { conn }).await;
                return Ok(());
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
                    break;
                }
            }
            // The next event (a move stored, a seat leaving, the end), or a look again after
            // a while in case one was missed.
            match tokio::time::timeout(Duration::from_secs(2), inbox.recv()).await {
                Ok(None) => break,
                Ok(Some(_)) | Err(_) => {
                    // Skip the rest of a burst: one look at the position covers them all.
                    while inbox.try_recv().is_ok() {}
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
