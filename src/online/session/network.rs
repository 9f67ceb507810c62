//! The protocol over the websocket and HTTP: the player's commands, the connection, pings,
//! and every message the server sends.
use bevy::prelude::*;
use boardcraft_protocol::{
    ClientMessage, ColorChoice, ErrorCode, GameStatus as ServerStatus, OfferKind, Presence,
    SEATS_PROTOCOL_VERSION, SeatOffer, SeatServerMessage, SeatSnapshot, http::CreateGame,
    parse_seat_server_message,
};

use super::state::{
    FromServer, InboundMove, NoticeKind, Online, OnlineCommand, Stage, ToServer, invite_code,
    parse_clock, rules_seat,
};
use crate::{
    game::{
        config::{OnlineOptions, VariantChoice},
        match_state::{Match, ResignRequested},
    },
    online::{
        http::{Http, HttpAnswer},
        link::{Link, LinkEvent, LinkState},
        seats::{self, SeatRecord},
    },
    persistence::storage::Storage,
};

/// Seconds between two application-level pings while online (lichess: ~2.5 s after a pong).
pub const PING_EVERY: f64 = 2.5;
/// A server silent for this long is taken as gone: the connection is dropped and reopened.
pub const SILENCE: f64 = 9.0;

/// The connection and the HTTP requests: not `Send` in the browser, so they live in non-send
/// storage, polled by [`poll_network`] once a frame.
#[derive(Default)]
pub struct Network {
    link: Option<Link>,
    http: Http,
}

/// Runs the options of the command line / page URL: `--join`, `--invite`, `--watch`.
pub fn start_from_options(
    options: Option<Res<OnlineOptions>>,
    mut online: ResMut<Online>,
    mut commands: MessageWriter<OnlineCommand>,
    config: Res<crate::game::config::GameConfig>,
) {
    online.server = options
        .as_ref()
        .and_then(|o| o.server.clone())
        .unwrap_or_else(crate::online::default_server)
        .trim_end_matches('/')
        .to_owned();
    let Some(options) = options else {
        return;
    };
    if let Some(invite) = &options.join {
        commands.write(OnlineCommand::Join {
            invite: invite.clone(),
        });
    } else if let Some(game) = &options.watch {
        commands.write(OnlineCommand::Watch { game: game.clone() });
    } else if options.invite {
        let color = match options.color.as_str() {
            "white" => ColorChoice::White,
            "black" => ColorChoice::Black,
            _ => ColorChoice::Random,
        };
        let time_control = parse_clock(&options.clock).unwrap_or_else(|e| {
            warn!("--clock {e}; the game is untimed");
            None
        });
        let variant = match &config.variant {
            VariantChoice::Name(name) => name.clone(),
            VariantChoice::Path(path) => path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        commands.write(OnlineCommand::Create {
            variant,
            color,
            time_control,
        });
    }
}

/// The player's requests: HTTP for creating and joining, messages for the rest.
pub fn handle_commands(
    mut commands: MessageReader<OnlineCommand>,
    mut online: ResMut<Online>,
    mut network: NonSendMut<Network>,
    storage: Res<Storage>,
    mut to_board: MessageWriter<FromServer>,
) {
    let now = crate::online::wall_now();
    for command in commands.read() {
        match command.clone() {
            OnlineCommand::SetServer(server) => {
                online.server = server.trim().trim_end_matches('/').to_owned();
            }
            OnlineCommand::Create {
                variant,
                color,
                time_control,
            } => {
                leave(&mut online, &mut network, &mut to_board);
                online.stage = Stage::Creating;
                info!("online: creating a game of {variant} on {}", online.server);
                network.http.create(
                    &online.server,
                    &CreateGame {
                        variant: Some(variant),
                        variant_file: None,
                        color,
                        time_control,
                        seats: None,
                    },
                );
            }
            OnlineCommand::Join { invite } => {
                leave(&mut online, &mut network, &mut to_board);
                let code = invite_code(&invite);
                if let Some(seat) = seats::by_invite(&storage, &online.server, &code) {
                    info!("online: taking my seat again in game {}", seat.game);
                    connect(
                        &mut online,
                        &mut network,
                        seat.game.clone(),
                        Some(seat),
                        now,
                    );
                } else {
                    online.stage = Stage::Joining;
                    info!("online: joining by invite {code} on {}", online.server);
                    network.http.join(&online.server, &code);
                }
            }
            OnlineCommand::Watch { game } => {
                leave(&mut online, &mut network, &mut to_board);
                let seat = seats::by_game(&storage, &online.server, &game);
                connect(&mut online, &mut network, game, seat, now);
            }
            OnlineCommand::Offer(offer) => {
                let ply = Some(online.moves.len() as u32);
                send(&mut network, &ClientMessage::Offer { offer, ply });
            }
            OnlineCommand::Accept(offer) => {
                let ply = online.offer_to_answer(offer).map(|o| o.ply);
                send(&mut network, &ClientMessage::Accept { offer, ply });
            }
            OnlineCommand::Decline(offer) => {
                online.offers.retain(|o| o.offer != offer);
                send(&mut network, &ClientMessage::Decline { offer });
            }
            OnlineCommand::Claim => {
                send(&mut network, &ClientMessage::ClaimVictory);
            }
            OnlineCommand::Resync => {
                send(&mut network, &ClientMessage::Resync);
            }
            OnlineCommand::DropConnection => {
                if let Some(link) = &mut network.link {
                    info!("online: dropping the connection");
                    link.drop_connection(now);
                }
            }
            OnlineCommand::Leave => leave(&mut online, &mut network, &mut to_board),
            OnlineCommand::Seated {
                game,
                seat,
                token,
                players,
            } => {
                leave(&mut online, &mut network, &mut to_board);
                info!("online: the lobby seated us in game {game} at seat {seat}");
                let seat = SeatRecord {
                    server: online.server.clone(),
                    game: game.clone(),
                    seat,
                    side: None,
                    token,
                    invite: None,
                };
                seats::remember(&storage, seat.clone());
                online.players = players;
                connect(&mut online, &mut network, game, Some(seat), now);
            }
        }
    }
}

fn leave(online: &mut Online, network: &mut Network, to_board: &mut MessageWriter<FromServer>) {
    if let Some(mut link) = network.link.take() {
        link.close();
    }
    online.reset_game();
    to_board.write(FromServer::Left);
}

fn send(network: &mut Network, message: &ClientMessage) -> bool {
    match &mut network.link {
        Some(link) => link.send(message.to_json()),
        None => false,
    }
}

/// Opens the websocket for `game` as the holder of `seat` (none: a spectator).
fn connect(
    online: &mut Online,
    network: &mut Network,
    game: String,
    seat: Option<SeatRecord>,
    now: f64,
) {
    online.stage = Stage::InGame;
    online.game = Some(game);
    online.seat = seat.as_ref().map(|s| s.seat);
    online.token = seat.as_ref().map(|s| s.token.clone());
    if online.invite.is_none() {
        online.invite = seat.and_then(|s| s.invite);
    }
    let link = Link::open(online.ws_url(), now);
    online.link = Some(link.state());
    network.link = Some(link);
}

/// Polls the HTTP answers and the websocket; handles every server message.
pub fn poll_network(
    mut online: ResMut<Online>,
    mut network: NonSendMut<Network>,
    storage: Res<Storage>,
    mut to_board: MessageWriter<FromServer>,
) {
    let now = crate::online::wall_now();
    while let Some(answer) = network.http.try_recv() {
        handle_http(&mut online, &mut network, &storage, answer, now);
    }
    let Some(link) = network.link.as_mut() else {
        return;
    };
    let events = link.poll(now);
    let mut incoming = Vec::new();
    for event in events {
        match event {
            LinkEvent::Opened => {
                online.connections += 1;
                let hello = ClientMessage::Hello {
                    protocol: SEATS_PROTOCOL_VERSION,
                    game: online.game.clone().unwrap_or_default(),
                    token: online.token.clone(),
                    client: Some(format!("boardcraft {}", env!("CARGO_PKG_VERSION"))),
                };
                link.send(hello.to_json());
                online.last_ping = now;
                info!("online: connected to {}", link.url());
            }
            LinkEvent::Text(text) => match parse_seat_server_message(&text) {
                Ok(message) => incoming.push(message),
                Err(e) => {
                    warn!("online: a message from the server is not understood ({e}): {text}")
                }
            },
            LinkEvent::Lost(why) => {
                info!("online: connection lost ({why}); reconnecting");
            }
        }
    }
    // Keep-alive, and a silent server counts as a lost connection.
    if link.state() == LinkState::Online {
        if now - link.last_heard > SILENCE {
            warn!("online: nothing heard from the server for {SILENCE} s; reconnecting");
            link.drop_connection(now);
        } else if now - online.last_ping >= PING_EVERY {
            online.ping_n += 1;
            online.last_ping = now;
            link.send(ClientMessage::Ping { n: online.ping_n }.to_json());
        }
    }
    for message in incoming {
        handle_message(
            &mut online,
            &mut network,
            &storage,
            &mut to_board,
            message,
            now,
        );
    }
    online.link = network.link.as_ref().map(Link::state);
}

fn handle_http(
    online: &mut Online,
    network: &mut Network,
    storage: &Storage,
    answer: HttpAnswer,
    now: f64,
) {
    match answer {
        HttpAnswer::Created(result) => {
            if online.stage != Stage::Creating {
                return;
            }
            match result {
                Ok(created) => {
                    info!(
                        "online: game {} created; invite {} ({})",
                        created.game, created.invite, created.invite_url
                    );
                    let seat = SeatRecord {
                        server: online.server.clone(),
                        game: created.game.clone(),
                        seat: created.seat,
                        side: None,
                        token: created.token.clone(),
                        invite: Some(created.invite.clone()),
                    };
                    seats::remember(storage, seat.clone());
                    online.invite = Some(created.invite.clone());
                    online.invite_url = Some(created.invite_url.clone());
                    crate::online::show_invite(&created.invite, &created.invite_url);
                    connect(online, network, created.game, Some(seat), now);
                }
                Err(why) => {
                    online.stage = Stage::Off;
                    online.notify(NoticeKind::CannotStart, why, now);
                }
            }
        }
        HttpAnswer::Joined { invite, result } => {
            if online.stage != Stage::Joining {
                return;
            }
            match result {
                Ok(joined) => {
                    info!("online: joined game {} as {}", joined.game, joined.color);
                    let seat = SeatRecord {
                        server: online.server.clone(),
                        game: joined.game.clone(),
                        seat: joined.seat,
                        side: None,
                        token: joined.token,
                        invite: Some(invite.clone()),
                    };
                    seats::remember(storage, seat.clone());
                    crate::online::show_invite(&invite, "");
                    connect(online, network, joined.game, Some(seat), now);
                }
                Err(refusal) if refusal.code == Some(ErrorCode::SeatTaken) => {
                    // Someone else took the seat: the game can still be watched (the server
                    // names it in the refusal); the online window offers it.
                    online.stage = Stage::Off;
                    online.watchable = refusal.game;
                    online.notify(NoticeKind::SeatTaken, refusal.message, now);
                }
                Err(refusal) => {
                    online.stage = Stage::Off;
                    online.notify(NoticeKind::CannotStart, refusal.message, now);
                }
            }
        }
    }
}

fn handle_message(
    online: &mut Online,
    network: &mut Network,
    storage: &Storage,
    to_board: &mut MessageWriter<FromServer>,
    message: SeatServerMessage,
    now: f64,
) {
    match message {
        SeatServerMessage::Welcome {
            you,
            game,
            invite,
            grace_ms,
            ..
        } => {
            online.seat = you;
            online.grace_ms = grace_ms;
            if invite.is_some() {
                online.invite = invite;
            }
            take_snapshot(online, to_board, game, now);
        }
        SeatServerMessage::Snapshot { reason, game } => {
            debug!("online: snapshot ({reason:?})");
            take_snapshot(online, to_board, game, now);
        }
        SeatServerMessage::Moved {
            ply,
            notation,
            seat,
            hash,
            clocks,
            result,
        } => {
            if let Some(clocks) = clocks {
                online.clocks = Some(clocks);
                online.clocks_at = now;
            }
            // A move ends the draw and takeback offers made before it.
            online.offers.retain(|o| o.offer == OfferKind::Rematch);
            let known = online.moves.len() as u32;
            if ply < known {
                if online.moves[ply as usize] != notation {
                    warn!(
                        "online: the server's move {ply} is {notation}, not {}",
                        online.moves[ply as usize]
                    );
                    send(network, &ClientMessage::Resync);
                }
                return;
            }
            if ply > known {
                // Missed moves: the whole game again.
                send(network, &ClientMessage::Resync);
                return;
            }
            online.moves.push(notation.clone());
            online.hash = hash.clone();
            match online.pending.take() {
                Some(pending) if pending.ply == ply && Some(seat) == online.seat => {
                    if pending.notation != notation {
                        // The server stored another move of ours (from another tab): play
                        // the record.
                        to_board.write(FromServer::Move(InboundMove {
                            ply,
                            notation,
                            hash: Some(hash),
                        }));
                    } else {
                        to_board.write(FromServer::Confirmed { ply, hash });
                    }
                }
                other => {
                    if let Some(pending) = other {
                        // Another seat's move at the ply of ours: ours was not stored.
                        online.notify(
                            NoticeKind::MoveRefused,
                            format!("{} was not played", pending.notation),
                            now,
                        );
                    }
                    to_board.write(FromServer::Move(InboundMove {
                        ply,
                        notation,
                        hash: Some(hash),
                    }));
                }
            }
            if let Some(result) = result {
                online.result = Some(result);
                online.status = Some(ServerStatus::Finished);
            }
        }
        SeatServerMessage::GameOver {
            result,
            clocks,
            ratings,
        } => {
            if ratings.is_some() {
                online.ratings = ratings;
            }
            if let Some(clocks) = clocks {
                online.clocks = Some(clocks);
                online.clocks_at = now;
            }
            info!("online: game over: {}", result.text);
            online.result = Some(result);
            online.status = Some(ServerStatus::Finished);
            online.offers.retain(|o| o.offer == OfferKind::Rematch);
            online.claim_at.iter_mut().for_each(|c| *c = None);
        }
        SeatServerMessage::Presence { seat, presence } => {
            if let Some(state) = online.seats.get_mut(seat as usize) {
                state.presence = presence;
                if presence == Presence::Present {
                    state.joined = true;
                }
            }
            let claimable = online.seat.is_some_and(|me| me != seat);
            if let Some(at) = online.claim_at.get_mut(seat as usize) {
                *at = match presence {
                    Presence::Gone { claim_in_ms } if claimable => {
                        Some(now + claim_in_ms as f64 / 1000.0)
                    }
                    _ => None,
                };
            }
        }
        SeatServerMessage::Offer { offer, by, ply } => {
            // A seat agreeing to an offer already made joins it; otherwise it is a new offer.
            match online
                .offers
                .iter_mut()
                .find(|o| o.offer == offer && o.ply == ply && o.by != by)
            {
                Some(o) => {
                    if !o.agreed.contains(&by) {
                        o.agreed.push(by);
                    }
                }
                None => {
                    online.offers.retain(|o| o.offer != offer);
                    online.offers.push(SeatOffer {
                        offer,
                        by,
                        ply,
                        agreed: vec![by],
                    });
                }
            }
        }
        SeatServerMessage::OfferDeclined { offer, by } => {
            online.offers.retain(|o| o.offer != offer);
            if Some(by) != online.seat && online.seat.is_some() {
                online.notify(NoticeKind::Declined(offer), String::new(), now);
            }
        }
        SeatServerMessage::Rematch { game } => {
            info!("online: rematch: game {game}");
            // The server seats the rematch one seat on (colours swapped at two seats).
            let server = online.server.clone();
            let count = online.seat_count().max(2) as u8;
            let seat = online.seat.zip(online.token.clone()).map(|(seat, token)| {
                let seat = SeatRecord {
                    server,
                    game: game.clone(),
                    seat: (seat + 1) % count,
                    side: None,
                    token,
                    invite: None,
                };
                seats::remember(storage, seat.clone());
                seat
            });
            leave(online, network, to_board);
            connect(online, network, game, seat, now);
        }
        SeatServerMessage::Spectators { count } => online.spectators = count,
        SeatServerMessage::Pong { .. } => {}
        SeatServerMessage::Error {
            code,
            message,
            ply,
            fatal,
        } => {
            warn!("online: the server refused: {code:?}: {message}");
            // A close for a passing reason (a hello that came late because the page was still
            // loading, a flood, too many connections) is retried like a lost connection; only
            // a seat or game the server does not know ends the session.
            let passing = matches!(
                code,
                ErrorCode::IdleTimeout | ErrorCode::RateLimited | ErrorCode::TooManyConnections
            );
            if fatal && passing {
                if let Some(link) = &mut network.link {
                    link.drop_connection(now);
                }
                return;
            }
            if fatal {
                online.notify(NoticeKind::Fatal, message, now);
                if let Some(link) = &mut network.link {
                    link.close();
                }
                online.link = Some(LinkState::Gone);
                return;
            }
            match (ply, &online.pending) {
                (Some(p), Some(pending)) if pending.ply == p => {
                    // Taken back: the board is rebuilt from the server's record.
                    online.pending = None;
                    online.notify(NoticeKind::MoveRefused, message, now);
                    to_board.write(FromServer::MoveRefused);
                }
                _ => online.notify(NoticeKind::Refused, message, now),
            }
        }
    }
}

/// A resignation from the panel goes to the server (the board already shows it; the server's
/// `game_over` confirms it).
pub fn forward_resignations(
    online: Res<Online>,
    mut network: NonSendMut<Network>,
    game: Option<Res<Match>>,
    mut resigned: MessageReader<ResignRequested>,
) {
    let mine = online.seat.map(rules_seat);
    let shown = game.is_some_and(|g| online.shows(&g));
    for r in resigned.read() {
        if Some(r.side) == mine && shown && online.is_playing() {
            send(&mut network, &ClientMessage::Resign);
        }
    }
}

/// Keeps the server's game; the board bridge compares the board with it
/// ([`FromServer::Record`]).
fn take_snapshot(
    online: &mut Online,
    to_board: &mut MessageWriter<FromServer>,
    game: SeatSnapshot,
    now: f64,
) {
    online.game = Some(game.game.clone());
    online.variant = Some(game.variant.clone());
    online.variant_file = game.variant_file.clone();
    online.time_control = game.time_control;
    online.status = Some(game.status);
    online.result = game.result.clone();
    if game.players.is_some() {
        online.players = game.players.clone();
    }
    online.ratings = game.ratings.clone();
    online.moves = game.moves.clone();
    online.hash = game.hash.clone();
    online.seats = game.seats.clone();
    online.left = game.left.clone();
    online.clocks = game.clocks.clone();
    online.clocks_at = now;
    online.offers = game.offers.clone();
    online.spectators = game.spectators;
    online.set_claims(now);
    to_board.write(FromServer::Record);
}

/// The board bridge's requests, after it ran: its moves and resyncs are sent in the frame they
/// were played, and leaving the game for a local one takes effect before the screens draw.
pub fn serve_board(
    mut requests: MessageReader<ToServer>,
    mut online: ResMut<Online>,
    mut network: NonSendMut<Network>,
    mut to_board: MessageWriter<FromServer>,
) {
    for request in requests.read() {
        match request {
            ToServer::Send(message) => {
                send(&mut network, message);
            }
            ToServer::Leave => leave(&mut online, &mut network, &mut to_board),
        }
    }
}
