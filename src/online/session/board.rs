//! The bridge between the server's game and the board: binds the local game, plays the
//! server's moves one by one, sends the local player's moves, compares hashes, rebuilds the
//! board from the server's record when they disagree, and ends the game as the server did.
//!
//! It hears the network part through [`FromServer`] messages (the server's moves, its whole
//! game, a refused or a confirmed move, the game left) and answers with [`ToServer`] (a move to
//! send, a resync, leaving); it never touches the connection. Which local game shows the
//! session's game is [`BoardLink`], kept in [`Online`] for the screens.
use std::collections::VecDeque;

use bevy::prelude::*;
use boardcraft_protocol::{ClientMessage, EndCause as ServerEnd, SeatIndex, SeatResult, hash_text};
use boardcraft_rules::{Places, Position, Variant};

use super::state::{
    BoardLink, FromServer, InboundMove, NoticeKind, Online, PendingMove, Stage, ToServer,
    rules_seat,
};
use crate::game::{
    config::{PlayerKind, Players, VariantChoice},
    match_state::{
        EndCause, GameDecided, GameEnd, GameStarted, Match, MoveApplied, MoveRequested, StartGame,
        TurnPhase,
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
    players: Res<'w, Players>,
    library: Res<'w, VariantLibrary>,
    phase: Option<Res<'w, State<TurnPhase>>>,
    review: Option<Res<'w, Review>>,
    start: MessageWriter<'w, StartGame>,
    requests: MessageWriter<'w, MoveRequested>,
    decided: MessageWriter<'w, GameDecided>,
}

/// A server move requested on the board and not played yet.
#[derive(Clone, Debug)]
struct Feeding {
    mv: InboundMove,
    /// When it was requested (app seconds).
    since: f64,
}

/// What the board bridge keeps between frames (its system's `Local`).
#[derive(Default)]
pub struct Bridge {
    /// Server moves waiting to be played on the board (one per animation).
    inbound: VecDeque<InboundMove>,
    /// The server move being played now (its `MoveApplied` is not sent back).
    feeding: Option<Feeding>,
    /// A confirmed local move whose hash is still to be compared: (ply, server hash).
    confirm: Option<(u32, String)>,
    /// The board must be compared with the server's record (after its whole game came, a
    /// refusal, a desync): played on, resent, or rebuilt.
    compare: bool,
    /// The server's result was shown on the board.
    result_shown: bool,
}

impl Bridge {
    /// What the network part said since the last frame, in order.
    fn hear(&mut self, said: &FromServer) {
        match said {
            FromServer::Left => *self = Bridge::default(),
            FromServer::Record => {
                self.inbound.clear();
                self.feeding = None;
                self.confirm = None;
                self.compare = true;
                self.result_shown = false;
            }
            FromServer::MoveRefused => self.compare = true,
            FromServer::Move(mv) => self.inbound.push_back(mv.clone()),
            FromServer::Confirmed { ply, hash } => self.confirm = Some((*ply, hash.clone())),
        }
    }
}

/// The bridge between the server's game and the board (see the module's description).
pub fn sync_board(
    mut online: ResMut<Online>,
    mut bridge: Local<Bridge>,
    mut board: BoardAccess,
    mut from_server: MessageReader<FromServer>,
    mut to_server: MessageWriter<ToServer>,
    mut started: MessageReader<GameStarted>,
    mut applied: MessageReader<MoveApplied>,
) {
    let now = crate::online::wall_now();
    for said in from_server.read() {
        bridge.hear(said);
    }
    for s in started.read() {
        if online.board == BoardLink::Starting {
            online.board = BoardLink::Bound(s.game_id);
        } else if online.stage == Stage::InGame && online.bound_game().is_some() {
            // Another game was started on this board: the online game is left (its seat is
            // kept and can be taken again from the invite). The network part leaves it after
            // this system; nothing more is done for it here.
            info!("online: a local game was started; leaving the online game");
            to_server.write(ToServer::Leave);
            online.board = BoardLink::Unbound;
            *bridge = Bridge::default();
            applied.clear();
            return;
        }
    }
    let mine = online.seat.map(rules_seat);
    let bound = online.bound_game();
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
        if let Some(feeding) = bridge.feeding.take_if(|f| f.mv.ply == ply).map(|f| f.mv) {
            if let Some(hash) = &feeding.hash {
                let local = hash_text(game.position_at(ply as usize + 1).hash());
                if &local != hash {
                    warn!(
                        "online: after {} the position differs from the server's; resync",
                        feeding.notation
                    );
                    online.desyncs += 1;
                    to_server.write(ToServer::Send(ClientMessage::Resync));
                }
            }
        } else if Some(m.played.side) == mine {
            // Sent even before the game is on or after it ended: the server decides, and a
            // refusal takes the move back.
            let notation = m.played.notation.clone();
            debug!("online: sending {notation} (ply {ply})");
            to_server.write(ToServer::Send(ClientMessage::Move {
                ply,
                notation: notation.clone(),
            }));
            online.pending = Some(PendingMove { ply, notation });
        }
    }
    if online.stage != Stage::InGame {
        return;
    }
    // A confirmed move: the same position as the server's?
    if let (Some((ply, hash)), Some(game)) = (bridge.confirm.clone(), game)
        && game.history.len() > ply as usize
    {
        bridge.confirm = None;
        if hash_text(game.position_at(ply as usize + 1).hash()) != hash {
            warn!("online: the position after ply {ply} differs from the server's; resync");
            online.desyncs += 1;
            to_server.write(ToServer::Send(ClientMessage::Resync));
        }
    }

    if bridge.compare {
        let Some(variant_name) = online.variant.clone() else {
            return;
        };
        let local: Option<Vec<String>> =
            game.map(|g| g.history.iter().map(|m| m.notation.clone()).collect());
        let moves = online.moves.clone();
        let seats = online.seat_count();
        // The board's seats as the server has them: the player's own seat played here while
        // it plays, the others (and the player's once it left: the server's computer has it)
        // through the server.
        let kinds: Vec<PlayerKind> = online
            .seat_indices()
            .map(|s| {
                if online.seat == Some(s) && online.left(s).is_none() {
                    PlayerKind::Human
                } else {
                    PlayerKind::Remote
                }
            })
            .collect();
        let same_table = game.is_some_and(|g| {
            g.variant.name == variant_name
                && g.position.seat_count() == seats
                && board
                    .players
                    .iter()
                    .map(|(_, k)| k)
                    .eq(kinds.iter().copied())
        });
        match local.filter(|_| same_table) {
            Some(local) if local == moves => {
                // The board is the record (a move sent before a reconnection was stored).
                online.pending = None;
                bridge.compare = false;
            }
            Some(local) if moves.starts_with(&local) => {
                // The server is ahead (moves played while away): play them in order.
                let last = moves.len() - 1;
                let hash = online.hash.clone();
                for (ply, notation) in moves.iter().enumerate().skip(local.len()) {
                    bridge.inbound.push_back(InboundMove {
                        ply: ply as u32,
                        notation: notation.clone(),
                        hash: (ply == last).then(|| hash.clone()),
                    });
                }
                bridge.compare = false;
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
                to_server.write(ToServer::Send(ClientMessage::Move {
                    ply: pending.ply,
                    notation: pending.notation,
                }));
                bridge.compare = false;
            }
            _ => {
                if !board.library.settled() && online.variant_file.is_none() {
                    return; // the variants are still loading
                }
                bridge.compare = false;
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
                        // The variant's table of the game's seats.
                        let Some(players) = Players::new(kinds) else {
                            online.notify(
                                NoticeKind::CannotStart,
                                format!("a game of {seats} seats cannot be played here"),
                                now,
                            );
                            return;
                        };
                        let mut start =
                            StartGame::new(variant, moves.join(" ")).with_players(players);
                        if let Some(path) = path {
                            start = start.following(path);
                        }
                        board.start.write(start);
                        online.board = BoardLink::Starting;
                        online.pending = None;
                        bridge.inbound.clear();
                        bridge.feeding = None;
                        bridge.result_shown = false;
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
    if let Some(feeding) = bridge.feeding.clone()
        && ready
        && game.position.ply() == feeding.mv.ply
        && now - feeding.since > 1.0
    {
        bridge.feeding = None;
        bridge.inbound.push_front(feeding.mv);
    }
    // The server's moves, one at a time: each is animated before the next.
    if ready && bridge.feeding.is_none() {
        while let Some(next) = bridge.inbound.pop_front() {
            let ply = game.position.ply();
            if next.ply < ply {
                if game.history.get(next.ply as usize).map(|m| &m.notation) == Some(&next.notation)
                {
                    continue;
                }
                bridge.compare = true;
                break;
            }
            if next.ply > ply {
                bridge.compare = true;
                break;
            }
            match game.position.parse_move(&next.notation) {
                Ok(mv) => {
                    board.requests.write(MoveRequested {
                        mv,
                        game_id: game.game_id,
                        ply,
                    });
                    bridge.feeding = Some(Feeding {
                        mv: next,
                        since: now,
                    });
                }
                Err(e) => {
                    warn!(
                        "online: the server's move {} does not parse here: {e}",
                        next.notation
                    );
                    online.desyncs += 1;
                    bridge.compare = true;
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
        && !bridge.result_shown
        && bridge.inbound.is_empty()
        && bridge.feeding.is_none()
        && online.pending.is_none()
        && settled
        && game.history.len() == online.moves.len()
    {
        bridge.result_shown = true;
        if game.end().is_none() {
            match server_end(&result, game.position.seat_count()) {
                Some(end) => {
                    board.decided.write(GameDecided(end));
                }
                None => {
                    // The server's rules ended the game and ours did not: the positions differ.
                    warn!(
                        "online: the server ended the game ({:?}: {}) but the board did not",
                        result.cause, result.text
                    );
                    online.desyncs += 1;
                }
            }
        }
    }
}

/// The end the server decided outside the rules, as the board keeps it: every seat's place from
/// the server's placements, and the seat that resigned, ran out of time or was gone (`None` for
/// an end by the rules, which the board reaches itself, or a result that does not fit the
/// table).
fn server_end(result: &SeatResult, seats: usize) -> Option<GameEnd> {
    let by = result.by.map(rules_seat);
    let cause = match (&result.cause, by) {
        (ServerEnd::Resignation, Some(seat)) => EndCause::Resigned(seat),
        (ServerEnd::Timeout, Some(seat)) => EndCause::Timeout(seat),
        (ServerEnd::Abandoned, Some(seat)) => EndCause::Abandoned(seat),
        (ServerEnd::DrawAgreed, _) => EndCause::DrawAgreed,
        (ServerEnd::Aborted, _) => EndCause::Aborted,
        _ => return None,
    };
    let places: Option<Vec<u8>> = (0..seats)
        .map(|s| result.place_of(s as SeatIndex))
        .collect();
    Some(GameEnd {
        places: Places::new(&places?)?,
        cause,
    })
}
