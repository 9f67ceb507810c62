//! The bridge between the server's game and the board.
use bevy::prelude::*;
use boardcraft_protocol::{ClientMessage, EndCause as ServerEnd, hash_text};
use boardcraft_rules::{Position, Seat, Variant};

use super::{
    network::{Network, leave, send},
    state::{InboundMove, NoticeKind, Online, PendingMove, Stage, color_of},
};
use crate::game::{
    config::{PlayerKind, Players, VariantChoice},
    match_state::{
        EndCause, GameDecided, GameEnd, GameStarted, Match, MoveApplied, MoveRequested,
        ResignRequested, StartGame, TurnPhase,
    },
    review::Review,
    variants::VariantLibrary,
};

/// The rules variant of the server's game: a shipped one by name, or the posted file.
fn find_variant(
    library: &VariantLibrary,
    name: &str,
    file: Option<&str>,
) -> Result<(Option<String>, std::sync::Arc<Variant>), String> {
    if let Some(text) = file {
        return Variant::from_ron(name, text)
            .map(|v| (None, std::sync::Arc::new(v)))
            .map_err(|e| format!("the game's variant file is broken: {e}"));
    }
    match library.find(&VariantChoice::Name(name.to_owned())) {
        Some(entry) => match entry.variant() {
            Some(v) => Ok((Some(entry.path.clone()), v.clone())),
            None => Err(format!("the variant {name} cannot be played here")),
        },
        None => Err(format!("this game does not know the variant {name}")),
    }
}

/// What the board needs from the session, and what the session needs from the board.
#[derive(bevy::ecs::system::SystemParam)]
pub struct BoardAccess<'w> {
    game: Option<Res<'w, Match>>,
    library: Res<'w, VariantLibrary>,
    phase: Option<Res<'w, State<TurnPhase>>>,
    review: Option<Res<'w, Review>>,
    start: MessageWriter<'w, StartGame>,
    requests: MessageWriter<'w, MoveRequested>,
    resign: MessageWriter<'w, ResignRequested>,
    decided: MessageWriter<'w, GameDecided>,
}

/// The bridge between the server's game and the board: binds the local game, plays the
/// server's moves one by one, sends the local player's moves, compares hashes, rebuilds the
/// board from the server's record when they disagree, and ends the game as the server did.
pub fn sync_board(
    mut online: ResMut<Online>,
    mut network: NonSendMut<Network>,
    mut board: BoardAccess,
    mut started: MessageReader<GameStarted>,
    mut applied: MessageReader<MoveApplied>,
) {
    let now = crate::online::wall_now();
    for s in started.read() {
        if online.awaiting_start {
            online.awaiting_start = false;
            online.bound_game = Some(s.game_id);
        } else if online.stage == Stage::InGame && online.bound_game.is_some() {
            // Another game was started on this board: the online game is left (its seat is
            // kept and can be taken again from the invite).
            info!("online: a local game was started; leaving the online game");
            leave(&mut online, &mut network);
        }
    }
    let my_color = online.seat.map(color_of);
    let bound = online.bound_game;
    let game = board
        .game
        .as_deref()
        .filter(|g| online.stage == Stage::InGame && Some(g.game_id) == bound);

    // Local moves go to the server; the server's own moves are checked against its hash.
    for m in applied.read() {
        let Some(game) = game.filter(|g| g.game_id == m.game_id) else {
            continue;
        };
        let ply = m.before.ply();
        if let Some(feeding) = online.feeding.clone().filter(|f| f.ply == ply) {
            online.feeding = None;
            if let Some(hash) = &feeding.hash {
                let local = hash_text(game.position_at(ply as usize + 1).hash());
                if &local != hash {
                    warn!(
                        "online: after {} the position differs from the server's; resync",
                        feeding.notation
                    );
                    online.desyncs += 1;
                    send(&mut network, &ClientMessage::Resync);
                }
            }
        } else if Some(m.played.side) == my_color {
            // Sent even before the game is on or after it ended: the server decides, and a
            // refusal takes the move back.
            let notation = m.played.notation.clone();
            debug!("online: sending {notation} (ply {ply})");
            send(
                &mut network,
                &ClientMessage::Move {
                    ply,
                    notation: notation.clone(),
                },
            );
            online.pending = Some(PendingMove { ply, notation });
        }
    }
    if online.stage != Stage::InGame {
        return;
    }
    // A confirmed move: the same position as the server's?
    if let (Some((ply, hash)), Some(game)) = (online.confirm.clone(), game)
        && game.history.len() > ply as usize
    {
        online.confirm = None;
        if hash_text(game.position_at(ply as usize + 1).hash()) != hash {
            warn!("online: the position after ply {ply} differs from the server's; resync");
            online.desyncs += 1;
            send(&mut network, &ClientMessage::Resync);
        }
    }

    if online.reconcile {
        let Some(variant_name) = online.variant.clone() else {
            return;
        };
        let local: Option<Vec<String>> =
            game.map(|g| g.history.iter().map(|m| m.notation.clone()).collect());
        let moves = online.moves.clone();
        let same_variant = game.is_some_and(|g| g.variant.name == variant_name);
        match local.filter(|_| same_variant) {
            Some(local) if local == moves => {
                // The board is the record (a move sent before a reconnection was stored).
                online.pending = None;
                online.reconcile = false;
            }
            Some(local) if moves.starts_with(&local) => {
                // The server is ahead (moves played while away): play them in order.
                let last = moves.len() - 1;
                let hash = online.hash.clone();
                for (ply, notation) in moves.iter().enumerate().skip(local.len()) {
                    online.inbound.push_back(InboundMove {
                        ply: ply as u32,
                        notation: notation.clone(),
                        hash: (ply == last).then(|| hash.clone()),
                    });
                }
                online.reconcile = false;
            }
            Some(local)
                if local.len() == moves.len() + 1
                    && local.starts_with(&moves)
                    && online
                        .pending
                        .as_ref()
                        .is_some_and(|p| Some(&p.notation) == local.last())
                    && online.is_playing() =>
            {
                // Our move was not stored before the connection dropped: send it again
                // (keyed by ply, a resend is harmless).
                let pending = online.pending.clone().expect("checked above");
                send(
                    &mut network,
                    &ClientMessage::Move {
                        ply: pending.ply,
                        notation: pending.notation,
                    },
                );
                online.reconcile = false;
            }
            _ => {
                if !board.library.settled() && online.variant_file.is_none() {
                    return; // the variants are still loading
                }
                online.reconcile = false;
                let file = online.variant_file.clone();
                match find_variant(&board.library, &variant_name, file.as_deref()) {
                    Ok((path, variant)) => {
                        info!(
                            "online: showing game {} ({} moves)",
                            online.game.as_deref().unwrap_or("?"),
                            moves.len()
                        );
                        if game.is_some() {
                            online.rebuilds += 1;
                        }
                        let me = online.seat.map(color_of);
                        let kind = |c: Seat| {
                            if Some(c) == me {
                                PlayerKind::Human
                            } else {
                                PlayerKind::Remote
                            }
                        };
                        let mut start =
                            StartGame::new(variant, moves.join(" ")).with_players(Players {
                                white: kind(Seat::WHITE),
                                black: kind(Seat::BLACK),
                            });
                        if let Some(path) = path {
                            start = start.following(path);
                        }
                        board.start.write(start);
                        online.awaiting_start = true;
                        online.bound_game = None;
                        online.pending = None;
                        online.inbound.clear();
                        online.feeding = None;
                        online.result_applied = false;
                    }
                    Err(why) => online.notify(NoticeKind::CannotStart, why, now),
                }
                return;
            }
        }
    }
    let Some(game) = game else {
        return;
    };
    let ready = board
        .phase
        .as_ref()
        .is_some_and(|p| *p.get() == TurnPhase::Ready)
        && board.review.as_ref().is_none_or(|r| r.is_live());
    // A requested server move that was not played (the game was not ready after all): again.
    if let Some(feeding) = online.feeding.clone()
        && ready
        && game.position.ply() == feeding.ply
        && now - online.feeding_since > 1.0
    {
        online.feeding = None;
        online.inbound.push_front(feeding);
    }
    // The server's moves, one at a time: each is animated before the next.
    if ready && online.feeding.is_none() {
        while let Some(next) = online.inbound.pop_front() {
            let ply = game.position.ply();
            if next.ply < ply {
                if game.history.get(next.ply as usize).map(|m| &m.notation) == Some(&next.notation)
                {
                    continue;
                }
                online.reconcile = true;
                break;
            }
            if next.ply > ply {
                online.reconcile = true;
                break;
            }
            match game.position.parse_move(&next.notation) {
                Ok(mv) => {
                    board.requests.write(MoveRequested {
                        mv,
                        game_id: game.game_id,
                        ply,
                    });
                    online.feeding = Some(next);
                    online.feeding_since = now;
                }
                Err(e) => {
                    warn!(
                        "online: the server's move {} does not parse here: {e}",
                        next.notation
                    );
                    online.desyncs += 1;
                    online.reconcile = true;
                }
            }
            break;
        }
    }
    // The end, once the board has caught up.
    let settled = ready
        || board
            .phase
            .as_ref()
            .is_some_and(|p| *p.get() == TurnPhase::GameOver);
    if let Some(result) = online.result.clone()
        && !online.result_applied
        && online.inbound.is_empty()
        && online.feeding.is_none()
        && online.pending.is_none()
        && settled
        && game.history.len() == online.moves.len()
    {
        online.result_applied = true;
        if game.end().is_none() {
            let winner = result.winner.map(color_of);
            let loser = winner.map(Seat::other);
            let end = |cause| GameEnd { winner, cause };
            match (&result.cause, loser) {
                (ServerEnd::Resignation, Some(loser)) => {
                    board.resign.write(ResignRequested { side: loser });
                }
                (ServerEnd::Timeout, Some(loser)) => {
                    board
                        .decided
                        .write(GameDecided(end(EndCause::Timeout(loser))));
                }
                (ServerEnd::Abandoned, Some(loser)) => {
                    board
                        .decided
                        .write(GameDecided(end(EndCause::Abandoned(loser))));
                }
                (ServerEnd::Aborted, _) => {
                    // Too few moves to count: no winner, no rating change.
                    board.decided.write(GameDecided(GameEnd {
                        winner: None,
                        cause: EndCause::Aborted,
                    }));
                }
                (ServerEnd::DrawAgreed, _) => {
                    board.decided.write(GameDecided(GameEnd {
                        winner: None,
                        cause: EndCause::DrawAgreed,
                    }));
                }
                (cause, _) => {
                    // The server's rules ended the game and ours did not: the positions differ.
                    warn!(
                        "online: the server ended the game ({cause:?}: {}) but the board did not",
                        result.text
                    );
                    online.desyncs += 1;
                }
            }
        }
    }
}
