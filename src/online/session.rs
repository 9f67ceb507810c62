//! The online session: speaks the protocol over the [`Link`], keeps what the server said
//! ([`Online`]), and connects it to the game the way the computer player is connected — the
//! server's moves become [`MoveRequested`] (played by the rules, animated hop by hop), the local
//! player's [`MoveApplied`] moves are sent and stay pending until the server's `moved` confirms
//! them. Nothing here decides a rule: a move the server refuses is taken back by rebuilding the
//! game from the server's record, and a position hash that differs from the server's asks for
//! the whole game again (`resync`).
use std::collections::VecDeque;

use bevy::prelude::*;
use boardcraft_protocol::{
    ClientMessage, Clocks, ColorChoice, EndCause as ServerEnd, ErrorCode, GameResult, GameSnapshot,
    GameStatus as ServerStatus, OfferKind, PROTOCOL_VERSION, PendingOffer, Presence, Seats,
    ServerMessage, Side, TimeControl, hash_text, http::CreateGame, parse_server_message,
};
use boardcraft_rules::{Position, Seat, Variant};

use super::{
    http::{Http, HttpAnswer},
    link::{Link, LinkEvent, LinkState},
    seats::{self, SeatRecord},
};
use crate::{
    game::{
        config::{OnlineOptions, PlayerKind, Players, VariantChoice},
        match_state::{
            EndCause, GameDecided, GameEnd, GameStarted, Match, MoveApplied, MoveRequested,
            ResignRequested, StartGame, TurnPhase,
        },
        review::Review,
        variants::VariantLibrary,
    },
    persistence::storage::Storage,
};

/// Seconds between two application-level pings while online (lichess: ~2.5 s after a pong).
pub const PING_EVERY: f64 = 2.5;
/// A server silent for this long is taken as gone: the connection is dropped and reopened.
pub const SILENCE: f64 = 9.0;

/// What the player asks of the online session (the UI, the command line, the tests).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum OnlineCommand {
    /// Create a game on `server` (or the session's server) and wait for a friend.
    Create {
        variant: String,
        color: ColorChoice,
        time_control: Option<TimeControl>,
    },
    /// Take the seat of an invite (a code or a whole invite link); a seat already held is
    /// taken again with its stored token; a seat taken by someone else makes a spectator.
    Join {
        invite: String,
    },
    /// Watch a game as a spectator.
    Watch {
        game: String,
    },
    /// Offer (draw, takeback, rematch), accept or decline.
    Offer(OfferKind),
    Accept(OfferKind),
    Decline(OfferKind),
    /// Win a game whose opponent has been gone past the grace period.
    Claim,
    /// Ask the server for the whole game again.
    Resync,
    /// Drop the connection now (as a network failure would); the session reconnects.
    DropConnection,
    /// Leave the online game (the seat stays ours: it can be rejoined).
    Leave,
    /// Change the server address (before creating or joining).
    SetServer(String),
    /// Play a game the lobby made (a seek, a pool, a challenge): take its seat with the seat
    /// token of `paired`, exactly as an invite's seat.
    Paired {
        game: String,
        color: Side,
        token: String,
        players: Option<boardcraft_protocol::GamePlayers>,
    },
}

/// Where the session is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// No online game.
    #[default]
    Off,
    /// Waiting for the server to create the game.
    Creating,
    /// Waiting for the server to give the invite's seat.
    Joining,
    /// Connected (or reconnecting) to a game.
    InGame,
}

/// A local move sent to the server and not confirmed yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingMove {
    pub ply: u32,
    pub notation: String,
}

/// Something to tell the player (a refused move, an error), with when it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub kind: NoticeKind,
    pub detail: String,
    pub at: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    /// The server refused the local move; it was taken back. `detail` is the server's reason.
    MoveRefused,
    /// The server refused another request (an offer, a claim).
    Refused,
    /// Creating or joining failed.
    CannotStart,
    /// The seat's invite was used by someone else: watching instead.
    SeatTaken,
    /// The opponent declined an offer.
    Declined(OfferKind),
    /// The local game differed from the server's and was rebuilt from it.
    Resynced,
    /// The server closed the session for good (bad token, unknown game).
    Fatal,
}

/// The online session as the UI and the tests read it. Only this module writes it.
#[derive(Resource, Debug, Default)]
pub struct Online {
    /// The server's HTTP address, without a trailing slash.
    pub server: String,
    pub stage: Stage,
    /// The game's id on the server.
    pub game: Option<String>,
    /// The side this player plays; `None` for a spectator.
    pub seat: Option<Side>,
    token: Option<String>,
    /// The invite code and link for the friend (the creator's, while the seat is open).
    pub invite: Option<String>,
    pub invite_url: Option<String>,
    /// The connection, as last polled.
    pub link: Option<LinkState>,
    /// The server's game: status, record, seats, offers …
    pub status: Option<ServerStatus>,
    pub variant: Option<String>,
    pub time_control: Option<TimeControl>,
    /// The server's record of the moves (as far as this client has heard).
    pub moves: Vec<String>,
    /// The hash of the server's position after `moves`.
    pub hash: String,
    pub seats: Option<Seats>,
    /// The clocks at `clocks_at` (seconds of the app's real clock).
    pub clocks: Option<Clocks>,
    pub clocks_at: f64,
    pub offers: Vec<PendingOffer>,
    pub spectators: u32,
    pub result: Option<GameResult>,
    /// Protocol 2: who plays (names, ratings, rated or casual) in a game made in the lobby.
    pub players: Option<boardcraft_protocol::GamePlayers>,
    /// Protocol 2: how the finished rated game changed both ratings.
    pub ratings: Option<boardcraft_protocol::RatingChanges>,
    pub grace_ms: u64,
    /// When the opponent's absence may be claimed (app seconds), while they are gone.
    pub claim_at: Option<f64>,
    pub pending: Option<PendingMove>,
    pub notice: Option<Notice>,
    /// The game of an invite whose seat was taken: it can still be watched.
    pub watchable: Option<String>,
    /// Counters, for the UI's details and the tests: connections opened, full rebuilds from the
    /// server's record, position hashes that differed.
    pub connections: u32,
    pub rebuilds: u32,
    pub desyncs: u32,
    /// Server moves waiting to be played on the board (one per animation).
    inbound: VecDeque<InboundMove>,
    /// The local game ([`Match::game_id`]) that shows this session's game.
    bound_game: Option<u64>,
    /// A rebuild was requested; the next [`GameStarted`] is this session's game.
    awaiting_start: bool,
    /// The ply of the server move being played now (its `MoveApplied` is not sent back).
    feeding: Option<InboundMove>,
    /// The result was shown on the board.
    result_applied: bool,
    /// The board must be compared with the server's record (after a snapshot, a refusal, a
    /// desync): played on, resent, or rebuilt.
    reconcile: bool,
    /// The variant file's text for a game of a posted variant.
    variant_file: Option<String>,
    /// A confirmed local move whose hash is still to be compared: (ply, server hash).
    confirm: Option<(u32, String)>,
    /// When the server move in `feeding` was requested (app seconds).
    feeding_since: f64,
    ping_n: u64,
    last_ping: f64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct InboundMove {
    ply: u32,
    notation: String,
    /// The server's hash after the move, when known.
    hash: Option<String>,
}

impl Online {
    /// The opponent of this player (for a spectator: none).
    pub fn opponent(&self) -> Option<Side> {
        self.seat.map(Side::other)
    }

    /// A side's remaining time now (ms), counting the running clock down since the last
    /// server message.
    pub fn remaining_ms(&self, side: Side, now: f64) -> Option<u64> {
        let clocks = self.clocks?;
        let mut ms = clocks.remaining(side);
        if clocks.running == Some(side) && self.result.is_none() {
            let spent = ((now - self.clocks_at).max(0.0) * 1000.0) as u64;
            ms = ms.saturating_sub(spent);
        }
        Some(ms)
    }

    pub fn presence(&self, side: Side) -> Option<Presence> {
        self.seats.map(|s| s.get(side).presence)
    }

    /// The opponent's pending offer of this kind, if there is one.
    pub fn offer_from_opponent(&self, kind: OfferKind) -> Option<&PendingOffer> {
        let me = self.seat?;
        self.offers.iter().find(|o| o.offer == kind && o.by != me)
    }

    /// This player's own pending offer of this kind.
    pub fn own_offer(&self, kind: OfferKind) -> Option<&PendingOffer> {
        let me = self.seat?;
        self.offers.iter().find(|o| o.offer == kind && o.by == me)
    }

    /// The game is on (both seats taken, not over).
    pub fn is_playing(&self) -> bool {
        self.status == Some(ServerStatus::Playing) && self.result.is_none()
    }

    /// The local game that shows this session's game, if any.
    pub fn bound_game(&self) -> Option<u64> {
        self.bound_game
    }

    /// Whether the local `game` is this session's game.
    pub fn shows(&self, game: &Match) -> bool {
        self.stage == Stage::InGame && self.bound_game == Some(game.game_id)
    }

    /// The websocket address of the server, with the game in the query (`/ws?game=<id>`) so
    /// that a load balancer in front of several nodes routes it to the game's node
    /// (docs/online.md, "Several nodes"); the hello still names the game.
    pub fn ws_url(&self) -> String {
        let base = self.server.trim_end_matches('/');
        let base = if let Some(rest) = base.strip_prefix("https://") {
            format!("wss://{rest}")
        } else if let Some(rest) = base.strip_prefix("http://") {
            format!("ws://{rest}")
        } else {
            base.to_owned()
        };
        let path = boardcraft_protocol::WS_PATH;
        match &self.game {
            // Game ids are the server's URL-safe letters (crates/server/src/secrets.rs).
            Some(game) => format!("{base}{path}?game={game}"),
            None => format!("{base}{path}"),
        }
    }

    fn notify(&mut self, kind: NoticeKind, detail: impl Into<String>, now: f64) {
        let detail = detail.into();
        info!("online: {kind:?}: {detail}");
        self.notice = Some(Notice {
            kind,
            detail,
            at: now,
        });
    }

    /// Forgets the game (not the seat record).
    fn reset_game(&mut self) {
        let server = std::mem::take(&mut self.server);
        let (connections, rebuilds, desyncs) = (self.connections, self.rebuilds, self.desyncs);
        *self = Online {
            server,
            connections,
            rebuilds,
            desyncs,
            ..default()
        };
    }
}

/// The code of an invite given as a code or as a whole link (`…?join=<code>`, `…/<code>`).
pub fn invite_code(text: &str) -> String {
    let text = text.trim();
    if let Some((_, query)) = text.split_once('?') {
        for pair in query.split('&') {
            if let Some(code) = pair.strip_prefix("join=") {
                return code.to_owned();
            }
        }
    }
    if text.contains("://") {
        return text
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(text)
            .to_owned();
    }
    text.to_owned()
}

/// `5+3` (minutes + increment seconds), `none`/`untimed`/empty for no clock.
pub fn parse_clock(text: &str) -> Result<Option<TimeControl>, String> {
    let text = text.trim();
    if text.is_empty() || text.eq_ignore_ascii_case("none") || text.eq_ignore_ascii_case("untimed")
    {
        return Ok(None);
    }
    let (minutes, increment) = text.split_once('+').unwrap_or((text, "0"));
    let minutes: f64 = minutes
        .trim()
        .parse()
        .map_err(|_| format!("`{text}`: write minutes+seconds, like 5+3"))?;
    let increment: u64 = increment
        .trim()
        .parse()
        .map_err(|_| format!("`{text}`: write minutes+seconds, like 5+3"))?;
    if !(minutes > 0.0 && minutes <= 600.0) || increment > 600 {
        return Err(format!("`{text}`: at most 600 minutes and 600 seconds"));
    }
    Ok(Some(TimeControl {
        initial_ms: (minutes * 60_000.0).round() as u64,
        increment_ms: increment * 1000,
    }))
}

fn color_of(side: Side) -> Seat {
    match side {
        Side::White => Seat::WHITE,
        Side::Black => Seat::BLACK,
    }
}

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
        .unwrap_or_else(super::default_server)
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
) {
    let now = super::wall_now();
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
                leave(&mut online, &mut network);
                online.stage = Stage::Creating;
                info!("online: creating a game of {variant} on {}", online.server);
                network.http.create(
                    &online.server,
                    &CreateGame {
                        variant: Some(variant),
                        variant_file: None,
                        color,
                        time_control,
                    },
                );
            }
            OnlineCommand::Join { invite } => {
                leave(&mut online, &mut network);
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
                leave(&mut online, &mut network);
                let seat = seats::by_game(&storage, &online.server, &game);
                connect(&mut online, &mut network, game, seat, now);
            }
            OnlineCommand::Offer(offer) => {
                let ply = Some(online.moves.len() as u32);
                send(&mut network, &ClientMessage::Offer { offer, ply });
            }
            OnlineCommand::Accept(offer) => {
                let ply = online.offer_from_opponent(offer).map(|o| o.ply);
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
            OnlineCommand::Leave => leave(&mut online, &mut network),
            OnlineCommand::Paired {
                game,
                color,
                token,
                players,
            } => {
                leave(&mut online, &mut network);
                info!("online: the lobby paired us in game {game} as {color}");
                let seat = SeatRecord {
                    server: online.server.clone(),
                    game: game.clone(),
                    side: color,
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

fn leave(online: &mut Online, network: &mut Network) {
    if let Some(mut link) = network.link.take() {
        link.close();
    }
    online.reset_game();
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
    online.seat = seat.as_ref().map(|s| s.side);
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
) {
    let now = super::wall_now();
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
                    protocol: PROTOCOL_VERSION,
                    game: online.game.clone().unwrap_or_default(),
                    token: online.token.clone(),
                    client: Some(format!("boardcraft {}", env!("CARGO_PKG_VERSION"))),
                };
                link.send(hello.to_json());
                online.last_ping = now;
                info!("online: connected to {}", link.url());
            }
            LinkEvent::Text(text) => match parse_server_message(&text) {
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
        handle_message(&mut online, &mut network, &storage, message, now);
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
                        side: created.color,
                        token: created.token.clone(),
                        invite: Some(created.invite.clone()),
                    };
                    seats::remember(storage, seat.clone());
                    online.invite = Some(created.invite.clone());
                    online.invite_url = Some(created.invite_url.clone());
                    super::show_invite(&created.invite, &created.invite_url);
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
                        side: joined.color,
                        token: joined.token,
                        invite: Some(invite.clone()),
                    };
                    seats::remember(storage, seat.clone());
                    super::show_invite(&invite, "");
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
    message: ServerMessage,
    now: f64,
) {
    match message {
        ServerMessage::Welcome {
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
            take_snapshot(online, network, game, now);
        }
        ServerMessage::Snapshot { reason, game } => {
            debug!("online: snapshot ({reason:?})");
            take_snapshot(online, network, game, now);
        }
        ServerMessage::Moved {
            ply,
            notation,
            side,
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
                Some(pending) if pending.ply == ply && Some(side) == online.seat => {
                    if pending.notation != notation {
                        // The server stored another move of ours (from another tab): play
                        // the record.
                        online.inbound.push_back(InboundMove {
                            ply,
                            notation,
                            hash: Some(hash),
                        });
                    } else {
                        check_hash_later(online, ply, hash);
                    }
                }
                other => {
                    if let Some(pending) = other {
                        // The opponent's move at the ply of ours: ours was not stored.
                        online.notify(
                            NoticeKind::MoveRefused,
                            format!("{} was not played", pending.notation),
                            now,
                        );
                    }
                    online.inbound.push_back(InboundMove {
                        ply,
                        notation,
                        hash: Some(hash),
                    });
                }
            }
            if let Some(result) = result {
                online.result = Some(result);
                online.status = Some(ServerStatus::Finished);
            }
        }
        ServerMessage::GameOver {
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
        }
        ServerMessage::Presence { side, presence } => {
            if let Some(seats) = &mut online.seats {
                let seat = seats.get_mut(side);
                seat.presence = presence;
                if presence == Presence::Present {
                    seat.joined = true;
                }
            }
            if Some(side) == online.opponent() {
                online.claim_at = match presence {
                    Presence::Gone { claim_in_ms } => Some(now + claim_in_ms as f64 / 1000.0),
                    _ => None,
                };
            }
        }
        ServerMessage::Offer { offer, by, ply } => {
            online.offers.retain(|o| !(o.offer == offer && o.by == by));
            online.offers.push(PendingOffer { offer, by, ply });
        }
        ServerMessage::OfferDeclined { offer, by } => {
            online.offers.retain(|o| o.offer != offer);
            if Some(by) != online.seat && online.seat.is_some() {
                online.notify(NoticeKind::Declined(offer), String::new(), now);
            }
        }
        ServerMessage::Rematch { game } => {
            info!("online: rematch: game {game}");
            let server = online.server.clone();
            let seat = online.seat.zip(online.token.clone()).map(|(side, token)| {
                let seat = SeatRecord {
                    server,
                    game: game.clone(),
                    side: side.other(),
                    token,
                    invite: None,
                };
                seats::remember(storage, seat.clone());
                seat
            });
            leave(online, network);
            connect(online, network, game, seat, now);
        }
        ServerMessage::Spectators { count } => online.spectators = count,
        ServerMessage::Pong { .. } => {}
        ServerMessage::Error {
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
                    online.reconcile = true;
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
    let my_color = online.seat.map(color_of);
    let shown = game.is_some_and(|g| online.shows(&g));
    for r in resigned.read() {
        if Some(r.side) == my_color && shown && online.is_playing() {
            send(&mut network, &ClientMessage::Resign);
        }
    }
}

fn check_hash_later(online: &mut Online, ply: u32, hash: String) {
    online.confirm = Some((ply, hash));
}

/// Keeps the server's game; the board is compared with it in [`sync_board`].
fn take_snapshot(online: &mut Online, _network: &mut Network, game: GameSnapshot, now: f64) {
    online.game = Some(game.game.clone());
    online.variant = Some(game.variant.clone());
    online.variant_file = game.variant_file.clone();
    online.time_control = game.time_control;
    online.status = Some(game.status);
    online.result = game.result.clone();
    if game.players.is_some() {
        online.players = game.players.clone();
    }
    online.ratings = game.ratings;
    online.moves = game.moves.clone();
    online.hash = game.hash.clone();
    online.seats = Some(game.seats);
    online.clocks = game.clocks;
    online.clocks_at = now;
    online.offers = game.offers.clone();
    online.spectators = game.spectators;
    online.claim_at = online
        .opponent()
        .and_then(|o| match game.seats.get(o).presence {
            Presence::Gone { claim_in_ms } => Some(now + claim_in_ms as f64 / 1000.0),
            _ => None,
        });
    online.inbound.clear();
    online.feeding = None;
    online.confirm = None;
    online.reconcile = true;
    online.result_applied = false;
}

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
    let now = super::wall_now();
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
