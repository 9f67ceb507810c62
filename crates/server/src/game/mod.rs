//! One task per game owns the game's state: it checks every request with the rules, stores
//! every change before it tells anyone, and broadcasts the result to the game's connections.
//! Nothing else changes a game, so there is no lock around a game and no race between two
//! moves of one game.
use std::{
    collections::HashMap,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use axum::extract::ws::Utf8Bytes;
use boardcraft_protocol::{
    Clocks, ErrorCode, GameResult, GameSnapshot, GameStatus, OfferKind, PROTOCOL_VERSION,
    PendingOffer, Presence, RatingChanges, SEATS_PROTOCOL_VERSION, SeatResult, SeatServerMessage,
    SeatState, Seats, ServerMessage, Side, SnapshotReason, hash_text, http::SeatJoined, seat_of,
};
use boardcraft_rules::{AnyPosition, Position, Variant};
use boardcraft_saves::{Decided, Player, SavedGame};
use tokio::{
    sync::{mpsc, oneshot},
    time::{Instant, sleep_until},
};
use tracing::{info, warn};

use crate::storage::now_ms;
use crate::{
    Settings,
    refusals::Refusal,
    secrets,
    storage::{AccountSeats, GameRecord, StoreError, StoredGame, StoredMove},
};

mod clock;
mod end;
mod error;
mod fence;
pub mod paired;
mod registry;
pub mod rules;

use clock::Clock;
pub use error::{GameError, LoadError};
pub use registry::Games;

/// A connection's id, unique in the server.
pub type ConnId = u64;

/// What a game task sends a connection.
pub type Outbox = mpsc::Sender<Utf8Bytes>;

/// What the rest of the server asks a game task.
pub enum Command {
    /// A websocket said hello to this game. The reply is the side it plays (`None`: a
    /// spectator); the welcome was sent on `outbox` before the reply.
    Connect {
        conn: ConnId,
        token: Option<String>,
        /// The hello's protocol version: 3 gets the seat messages, 1 and 2 the two-seat ones.
        protocol: u32,
        outbox: Outbox,
        reply: oneshot::Sender<Result<Option<Side>, GameError>>,
    },
    Disconnect {
        conn: ConnId,
    },
    /// A message from a connection that joined this game (not hello or ping).
    Message {
        conn: ConnId,
        msg: boardcraft_protocol::ClientMessage,
    },
    /// Someone used the invite.
    Join {
        reply: oneshot::Sender<Result<SeatJoined, GameError>>,
    },
    Snapshot {
        reply: oneshot::Sender<GameSnapshot>,
    },
    /// The game as a RON save file.
    Save {
        reply: oneshot::Sender<String>,
    },
    /// Another node takes the game over (or this node lost its locks): stop now.
    Handover,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum SeatPresence {
    Absent,
    Present,
    /// Left while the game was on; `announced`: the "may claim now" presence was sent.
    Gone {
        since: Instant,
        announced: bool,
    },
}

struct Connection {
    side: Option<Side>,
    /// The hello's protocol version.
    protocol: u32,
    outbox: Outbox,
}

/// A message's text for each protocol, made once for all the connections that speak it.
struct Encoded<'a> {
    msg: &'a ServerMessage,
    two_seats: Option<Utf8Bytes>,
    seats: Option<Utf8Bytes>,
}

impl<'a> Encoded<'a> {
    fn new(msg: &'a ServerMessage) -> Encoded<'a> {
        Encoded {
            msg,
            two_seats: None,
            seats: None,
        }
    }

    /// The text for a connection of `protocol`: the seat message for 3, the two-seat one
    /// otherwise.
    fn text(&mut self, protocol: u32) -> Utf8Bytes {
        let msg = self.msg;
        if protocol >= SEATS_PROTOCOL_VERSION {
            self.seats
                .get_or_insert_with(|| {
                    Utf8Bytes::from(SeatServerMessage::from(msg.clone()).to_json())
                })
                .clone()
        } else {
            self.two_seats
                .get_or_insert_with(|| Utf8Bytes::from(msg.to_json()))
                .clone()
        }
    }
}

/// The state of one game, owned by its task.
pub struct Game {
    generation: u64,
    games: Arc<Games>,
    /// The task's writes, fenced: a write refused because another node runs the game now
    /// stops the task.
    store: fence::Fenced,
    settings: Arc<Settings>,
    record: GameRecord,
    variant: Variant,
    start: AnyPosition,
    position: AnyPosition,
    moves: Vec<StoredMove>,
    /// The position's hash after each move.
    hashes: Vec<u64>,
    /// Who played each move.
    sides: Vec<Side>,
    result: Option<GameResult>,
    /// How the game changed both ratings (a finished rated game).
    ratings: Option<RatingChanges>,
    rematch: Option<String>,
    clock: Option<Clock>,
    conns: HashMap<ConnId, Connection>,
    presence: [SeatPresence; 2],
    offers: Vec<PendingOffer>,
    /// Since when the game has had no connection.
    idle_since: Option<Instant>,
    /// Another node runs the game now (a write was fenced off, or a handover was asked):
    /// the task tells its connections to reconnect and stops.
    moved_away: Arc<AtomicBool>,
}

impl Game {
    /// Rebuilds a stored game by replaying its moves through the rules.
    pub(crate) async fn load(
        games: Arc<Games>,
        generation: u64,
        stored: StoredGame,
    ) -> Result<Game, LoadError> {
        let StoredGame {
            record,
            moves,
            result,
            rematch,
            ratings,
        } = stored;
        let broken = |why: String| LoadError::Broken {
            game: record.id.clone(),
            why,
        };
        let variant = rules::variant_of(&record.variant, record.variant_file.as_deref())
            .map_err(|e| broken(e.to_string()))?;
        let start = variant.new_game();
        let mut position = start.clone();
        let mut hashes = Vec::with_capacity(moves.len());
        let mut sides = Vec::with_capacity(moves.len());
        for (i, m) in moves.iter().enumerate() {
            if m.ply as usize != i {
                return Err(broken(format!("move {i} is stored as ply {}", m.ply)));
            }
            let side = rules::side(position.side_to_move());
            let mv = position
                .parse_move(&m.notation)
                .map_err(|e| broken(format!("ply {i}: {e}")))?;
            position
                .play(&mv)
                .map_err(|e| broken(format!("ply {i}: {e}")))?;
            hashes.push(position.hash());
            sides.push(side);
        }
        let clock = record.time_control.map(|tc| {
            Clock::resume(
                tc,
                variant.players(),
                moves.last().and_then(|m| m.clocks).as_ref().map(|c| &c[..]),
            )
        });
        let moved_away = Arc::new(AtomicBool::new(false));
        let store = fence::Fenced::new(games.store.clone(), moved_away.clone());
        let settings = games.settings.clone();
        let mut game = Game {
            generation,
            games,
            store,
            settings,
            record,
            variant,
            start,
            position,
            moves,
            hashes,
            sides,
            result,
            ratings,
            rematch,
            clock,
            conns: HashMap::new(),
            presence: [SeatPresence::Absent; 2],
            offers: Vec::new(),
            idle_since: Some(Instant::now()),
            moved_away,
        };
        // Stored moves that ended the game by its rules, but the end itself was not stored yet
        // (the server stopped in between): store it now.
        if game.result.is_none()
            && let Some(outcome) = game.position.outcome()
        {
            let (result, ratings) = game.store_end(rules::rules_result(outcome)).await?;
            game.result = Some(result);
            game.ratings = ratings;
        }
        if let Some(clock) = &mut game.clock
            && game.result.is_none()
        {
            clock.start_turn(game.moves.len(), Instant::now());
        }
        Ok(game)
    }

    fn status(&self) -> GameStatus {
        if self.result.is_some() {
            GameStatus::Finished
        } else if self.record.joined {
            GameStatus::Playing
        } else {
            GameStatus::Waiting
        }
    }

    fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    fn side_to_move(&self) -> Side {
        rules::side(self.position.side_to_move())
    }

    fn clocks(&self, now: Instant) -> Option<Clocks> {
        let running = self.result.is_none() && self.record.joined;
        self.clock.as_ref().and_then(|c| {
            c.clocks(now, running.then(|| seat_of(self.side_to_move())))
                .two_seats()
        })
    }

    fn presence_of(&self, side: Side, now: Instant) -> Presence {
        match self.presence[side.index()] {
            SeatPresence::Absent => Presence::Absent,
            SeatPresence::Present => Presence::Present,
            SeatPresence::Gone { since, .. } => Presence::Gone {
                claim_in_ms: (since + self.settings.grace)
                    .saturating_duration_since(now)
                    .as_millis() as u64,
            },
        }
    }

    fn spectators(&self) -> u32 {
        self.conns.values().filter(|c| c.side.is_none()).count() as u32
    }

    pub fn snapshot(&self) -> GameSnapshot {
        let now = Instant::now();
        let seat = |side: Side| SeatState {
            joined: side == self.record.creator || self.record.joined,
            presence: self.presence_of(side, now),
        };
        GameSnapshot {
            game: self.record.id.clone(),
            variant: self.variant.name.clone(),
            variant_title: self.variant.title.clone(),
            variant_hash: hash_text(self.variant.content_hash),
            variant_file: self.record.variant_file.clone(),
            time_control: self.record.time_control,
            status: self.status(),
            result: self.result.clone(),
            moves: self.moves.iter().map(|m| m.notation.clone()).collect(),
            ply: self.ply(),
            side_to_move: self.side_to_move(),
            hash: hash_text(self.position.hash()),
            clocks: self.clocks(now),
            seats: Seats {
                white: seat(Side::White),
                black: seat(Side::Black),
            },
            offers: self.offers.clone(),
            spectators: self.spectators(),
            rematch: self.rematch.clone(),
            rematch_of: self.record.rematch_of.clone(),
            players: self.record.players.as_ref().map(|p| p.players.clone()),
            ratings: self.ratings,
        }
    }

    /// The game as the RON save file the game loads (`crates/saves`).
    pub fn save_file(&self) -> String {
        let outcome = self.position.outcome();
        let mut save = SavedGame::new(
            &self.variant,
            Player::Human,
            Player::Human,
            self.moves.iter().map(|m| m.notation.clone()).collect(),
            outcome,
        );
        if let Some(result) = &self.result {
            use boardcraft_protocol::EndCause;
            let loser = || rules::color(result.winner.map(Side::other).unwrap_or(Side::White));
            match result.cause {
                EndCause::Resignation => save = save.with_resignation(loser()),
                EndCause::Rules { .. } => {}
                // Not rules of the game: the save keeps them, and the game loads them.
                EndCause::Timeout => save = save.with_decision(Decided::Timeout(loser())),
                EndCause::Abandoned => save = save.with_decision(Decided::Abandoned(loser())),
                EndCause::DrawAgreed => save = save.with_decision(Decided::DrawAgreed),
                // No winner; the game loads as the position it stopped at.
                EndCause::Aborted => save = save.with_decision(Decided::Aborted),
            }
        }
        let secs = (now_ms() / 1000).max(0) as u64;
        save.with_saved_at(secs).to_ron()
    }

    // --- sending

    fn send_to(&mut self, conn: ConnId, msg: &ServerMessage) {
        let dead = match self.conns.get(&conn) {
            Some(c) => c
                .outbox
                .try_send(Encoded::new(msg).text(c.protocol))
                .is_err(),
            None => false,
        };
        if dead {
            self.drop_connection(conn);
        }
    }

    fn broadcast(&mut self, msg: &ServerMessage) {
        let mut text = Encoded::new(msg);
        let dead: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| c.outbox.try_send(text.text(c.protocol)).is_err())
            .map(|(id, _)| *id)
            .collect();
        for conn in dead {
            self.drop_connection(conn);
        }
    }

    /// Tells the connection its request was refused (`ply`: the refused move's).
    fn refuse(&mut self, conn: ConnId, refusal: GameError, ply: Option<u32>) {
        info!(game = %self.record.id, conn, code = %refusal.code(), ply, "refused: {refusal}");
        self.send_to(conn, &refusal.error_message(ply, false));
    }

    /// A connection whose queue is full (it does not read) or closed: forget it; its task
    /// notices the closed queue and closes the socket, and the client resyncs on reconnect.
    fn drop_connection(&mut self, conn: ConnId) {
        if let Some(c) = self.conns.remove(&conn) {
            if c.outbox.capacity() == 0 {
                warn!(game = %self.record.id, conn, "a connection does not read its messages: closed");
            }
            self.left(c.side);
        }
    }

    /// Presence bookkeeping after a connection left.
    fn left(&mut self, side: Option<Side>) {
        let now = Instant::now();
        match side {
            None => {
                let count = self.spectators();
                self.broadcast(&ServerMessage::Spectators { count });
            }
            Some(side) => {
                if self.conns.values().any(|c| c.side == Some(side)) {
                    return;
                }
                self.presence[side.index()] = if self.status() == GameStatus::Playing {
                    SeatPresence::Gone {
                        since: now,
                        announced: false,
                    }
                } else {
                    SeatPresence::Absent
                };
                let presence = self.presence_of(side, now);
                self.broadcast(&ServerMessage::Presence { side, presence });
            }
        }
        if self.conns.is_empty() {
            self.idle_since = Some(now);
        }
    }

    // --- the task

    pub(crate) async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        loop {
            let deadline = self.next_deadline();
            let command = tokio::select! {
                c = rx.recv() => c,
                _ = sleep_until(deadline.unwrap_or_else(Instant::now)), if deadline.is_some() => {
                    if self.on_timer().await || self.moved_away.load(Ordering::Relaxed) {
                        break;
                    }
                    continue;
                }
            };
            let Some(command) = command else { break };
            self.handle(command).await;
            if self.moved_away.load(Ordering::Relaxed) {
                break;
            }
        }
        if self.moved_away.load(Ordering::Relaxed) {
            self.hand_over();
        }
        // Unloading: leave the registry first, so that new requests load the game afresh;
        // requests already queued are dropped and their senders retry. Then the game's lock
        // (a cluster's) is given back, once nothing here can write any more.
        self.games.forget(&self.record.id, self.generation);
        rx.close();
        while rx.try_recv().is_ok() {}
        self.games.release(self.record.id.clone()).await;
    }

    /// Tells every connection that the game moved to another node, and lets them go (each
    /// websocket closes; its client reconnects through the load balancer).
    fn hand_over(&mut self) {
        info!(game = %self.record.id, connections = self.conns.len(), "handing the game over to another node");
        let moved = ServerMessage::Error {
            code: ErrorCode::GameMoved,
            message: "the game moved to another server: reconnect".into(),
            ply: None,
            fatal: true,
        };
        let mut moved = Encoded::new(&moved);
        for (_, c) in self.conns.drain() {
            let _ = c.outbox.try_send(moved.text(c.protocol));
        }
    }

    /// The next moment something happens by itself: a flag falls, a grace period ends, the
    /// idle game is unloaded.
    fn next_deadline(&self) -> Option<Instant> {
        let mut next: Option<Instant> = None;
        let mut consider = |t: Instant| next = Some(next.map_or(t, |n| n.min(t)));
        if self.status() == GameStatus::Playing {
            if let Some(clock) = &self.clock
                && let Some(t) = clock.flag_at(seat_of(self.side_to_move()))
            {
                consider(t);
            }
            for p in self.presence {
                if let SeatPresence::Gone {
                    since,
                    announced: false,
                } = p
                {
                    consider(since + self.settings.grace);
                }
            }
        }
        if let Some(idle) = self.idle_since
            && self.conns.is_empty()
            && !self.clock_running()
        {
            consider(idle + self.settings.unload_after);
        }
        next
    }

    fn clock_running(&self) -> bool {
        self.status() == GameStatus::Playing
            && self
                .clock
                .as_ref()
                .is_some_and(|c| c.flag_at(seat_of(self.side_to_move())).is_some())
    }

    /// Returns `true` when the task should stop (unload).
    async fn on_timer(&mut self) -> bool {
        let now = Instant::now();
        if self.status() == GameStatus::Playing {
            let side = self.side_to_move();
            if let Some(clock) = &self.clock
                && clock.flag_at(seat_of(side)).is_some_and(|t| t <= now)
            {
                let result = rules::timeout(side);
                if let Err(e) = self.end(result).await {
                    warn!(game = %self.record.id, "storing a flag fall failed: {e}");
                    // Try again shortly rather than spinning.
                    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                }
                return false;
            }
            for side in Side::BOTH {
                if let SeatPresence::Gone {
                    since,
                    announced: false,
                } = self.presence[side.index()]
                    && since + self.settings.grace <= now
                {
                    self.presence[side.index()] = SeatPresence::Gone {
                        since,
                        announced: true,
                    };
                    let presence = self.presence_of(side, now);
                    self.broadcast(&ServerMessage::Presence { side, presence });
                }
            }
        }
        if let Some(idle) = self.idle_since
            && self.conns.is_empty()
            && !self.clock_running()
            && idle + self.settings.unload_after <= now
        {
            return true;
        }
        false
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Connect {
                conn,
                token,
                protocol,
                outbox,
                reply,
            } => {
                let result = self.connect(conn, token, protocol, outbox);
                let _ = reply.send(result);
            }
            Command::Disconnect { conn } => {
                if let Some(c) = self.conns.remove(&conn) {
                    self.left(c.side);
                }
            }
            Command::Message { conn, msg } => self.message(conn, msg).await,
            Command::Join { reply } => {
                let result = self.join().await;
                let _ = reply.send(result);
            }
            Command::Snapshot { reply } => {
                let _ = reply.send(self.snapshot());
            }
            Command::Save { reply } => {
                let _ = reply.send(self.save_file());
            }
            Command::Handover => self.moved_away.store(true, Ordering::Relaxed),
        }
    }

    fn connect(
        &mut self,
        conn: ConnId,
        token: Option<String>,
        protocol: u32,
        outbox: Outbox,
    ) -> Result<Option<Side>, GameError> {
        let side = match token {
            None => None,
            Some(token) => {
                // Both compared, in constant time each, so the time does not tell which seat
                // (if any) nearly matched.
                let white = secrets::token_matches(&token, &self.record.tokens[0]);
                let black = secrets::token_matches(&token, &self.record.tokens[1]);
                let joined = |s: Side| s == self.record.creator || self.record.joined;
                match (white, black) {
                    (true, _) if joined(Side::White) => Some(Side::White),
                    (_, true) if joined(Side::Black) => Some(Side::Black),
                    _ => return Err(GameError::BadToken),
                }
            }
        };
        self.conns.insert(
            conn,
            Connection {
                side,
                protocol,
                outbox,
            },
        );
        self.idle_since = None;
        let invite = match side {
            Some(s) if s == self.record.creator && !self.record.joined => {
                self.record.invite.clone()
            }
            _ => None,
        };
        let welcome = ServerMessage::Welcome {
            protocol: PROTOCOL_VERSION,
            server: crate::SERVER_NAME.to_owned(),
            you: side,
            game: self.snapshot(),
            invite,
            grace_ms: self.settings.grace.as_millis() as u64,
            idle_timeout_ms: self.settings.idle_timeout.as_millis() as u64,
        };
        self.send_to(conn, &welcome);
        match side {
            Some(side) => {
                if self.presence[side.index()] != SeatPresence::Present {
                    self.presence[side.index()] = SeatPresence::Present;
                    self.broadcast(&ServerMessage::Presence {
                        side,
                        presence: Presence::Present,
                    });
                }
            }
            None => {
                let count = self.spectators();
                self.broadcast(&ServerMessage::Spectators { count });
            }
        }
        Ok(side)
    }

    async fn join(&mut self) -> Result<SeatJoined, GameError> {
        if self.record.joined || !self.store.mark_joined(self.record.id.clone()).await? {
            return Err(GameError::SeatTaken);
        }
        self.record.joined = true;
        let side = self.record.creator.other();
        info!(game = %self.record.id, variant = %self.variant.name, "game started: the invite was used");
        if let Some(clock) = &mut self.clock {
            clock.start_turn(self.moves.len(), Instant::now());
        }
        let game = self.snapshot();
        self.broadcast(&ServerMessage::Snapshot {
            reason: SnapshotReason::Started,
            game,
        });
        Ok(SeatJoined {
            game: self.record.id.clone(),
            color: side,
            token: self.record.tokens[side.index()].clone(),
            ws_path: boardcraft_protocol::WS_PATH.to_owned(),
        })
    }

    async fn message(&mut self, conn: ConnId, msg: boardcraft_protocol::ClientMessage) {
        use boardcraft_protocol::ClientMessage as C;
        let Some(connection) = self.conns.get(&conn) else {
            return;
        };
        if let C::Resync = msg {
            let game = self.snapshot();
            self.send_to(
                conn,
                &ServerMessage::Snapshot {
                    reason: SnapshotReason::Resync,
                    game,
                },
            );
            return;
        }
        let Some(side) = connection.side else {
            let ply = match &msg {
                C::Move { ply, .. } => Some(*ply),
                _ => None,
            };
            self.refuse(conn, GameError::ReadOnly, ply);
            return;
        };
        let (outcome, ply) = match msg {
            C::Move { ply, notation } => (self.play(conn, side, ply, notation).await, Some(ply)),
            C::Resign => (self.resign(side).await, None),
            C::Offer { offer, ply } => (self.offer(side, offer, ply).await, None),
            C::Accept { offer, ply } => (self.accept(side, offer, ply).await, None),
            C::Decline { offer } => (self.decline(side, offer), None),
            C::ClaimVictory => (self.claim(side).await, None),
            C::Hello { .. } | C::Ping { .. } | C::Resync => (Ok(()), None),
        };
        if let Err(refusal) = outcome {
            self.refuse(conn, refusal, ply);
        }
    }

    fn moved_message(&self, ply: u32, result: Option<GameResult>) -> ServerMessage {
        let m = &self.moves[ply as usize];
        ServerMessage::Moved {
            ply,
            notation: m.notation.clone(),
            side: self.sides[ply as usize],
            hash: hash_text(self.hashes[ply as usize]),
            clocks: m.clocks.map(|[w, b]| Clocks {
                white_ms: w,
                black_ms: b,
                running: None,
            }),
            result,
        }
    }

    /// A move of `side` at `ply` (the caller refuses it with that ply on `Err`).
    async fn play(
        &mut self,
        conn: ConnId,
        side: Side,
        ply: u32,
        notation: String,
    ) -> Result<(), GameError> {
        let current = self.ply();
        if ply < current {
            // A resend: answer with what is stored, apply nothing.
            let stored = self.moved_message(ply, None);
            self.send_to(conn, &stored);
            let played = &self.moves[ply as usize].notation;
            if *played != notation {
                return Err(GameError::PlyAlreadyPlayed {
                    ply,
                    stored: played.clone(),
                });
            }
            return Ok(());
        }
        match self.status() {
            GameStatus::Waiting => return Err(GameError::NotStarted),
            GameStatus::Finished => return Err(GameError::Over),
            GameStatus::Playing if ply > current => {
                return Err(GameError::FuturePly { ply, current });
            }
            GameStatus::Playing if side != self.side_to_move() => {
                return Err(GameError::NotYourTurn(self.side_to_move()));
            }
            GameStatus::Playing => {}
        }
        let now = Instant::now();
        // The flag may have fallen in the instant before the move arrived.
        if let Some(clock) = &self.clock
            && clock.flag_at(seat_of(side)).is_some_and(|t| t <= now)
        {
            if let Err(e) = self.end(rules::timeout(side)).await {
                warn!(game = %self.record.id, "storing a flag fall failed: {e}");
            }
            return Err(GameError::TimeRanOut);
        }
        let mv = self.position.parse_move(&notation)?;
        let mut next = self.position.clone();
        next.play(&mv)?;
        let canonical = self.position.format_move(&mv);
        let clock_after = self
            .clock
            .as_ref()
            .map(|c| c.after_move(seat_of(side), now, ply));
        let stored = StoredMove {
            ply,
            notation: canonical,
            clocks: clock_after
                .as_ref()
                .and_then(|c| <[u64; 2]>::try_from(&c.remaining[..]).ok()),
            at_ms: now_ms(),
        };
        // Stored before anyone hears of it: the acknowledgement means "kept".
        if let Err(e) = self
            .store
            .append_move(self.record.id.clone(), stored.clone())
            .await
        {
            warn!(game = %self.record.id, ply, "storing a move failed: {e}");
            return Err(GameError::MoveNotStored(e));
        }
        self.position = next;
        self.moves.push(stored);
        self.hashes.push(self.position.hash());
        self.sides.push(side);
        if let Some(c) = clock_after {
            self.clock = Some(c);
        }
        self.offers.retain(|o| o.offer == OfferKind::Rematch);
        let outcome = self.position.outcome();
        let result = outcome.map(rules::rules_result);
        let mut moved = self.moved_message(ply, result.clone());
        if let ServerMessage::Moved { clocks, .. } = &mut moved {
            *clocks = self.clocks(now);
        }
        self.broadcast(&moved);
        if let Some(result) = result
            && let Err(e) = self.end(result).await
        {
            // The moves are stored, so the end is found again when the game is next loaded.
            warn!(game = %self.record.id, "storing the end failed: {e}");
        }
        Ok(())
    }

    /// A game between accounts that ends before each side made two moves is aborted: no
    /// winner, not rated.
    fn aborts(&self) -> bool {
        self.record.players.is_some()
            && Side::BOTH
                .iter()
                .any(|side| self.sides.iter().filter(|s| *s == side).count() < 2)
    }

    /// Stores the end (a game between accounts: aborted if too early, rated if rated, in one
    /// transaction); the result as stored and the rating changes.
    async fn store_end(
        &self,
        result: GameResult,
    ) -> Result<(GameResult, Option<RatingChanges>), StoreError> {
        let Some(seats) = &self.record.players else {
            self.store
                .finish_game(self.record.id.clone(), result.clone())
                .await?;
            return Ok((result, None));
        };
        let result = if self.aborts() {
            rules::aborted()
        } else {
            result
        };
        // Rated or not is decided in `end`; the store rates only the game's first end.
        let end = end::account_end(
            &self.record.variant,
            &seats.accounts,
            seats.rated(),
            &SeatResult::from_two_seats(&result),
        );
        let changes = self
            .store
            .finish_account_game(self.record.id.clone(), result.clone(), end)
            .await?;
        Ok((result, end::shown(changes)))
    }

    /// Stores the end of the game, then tells everyone.
    async fn end(&mut self, result: GameResult) -> Result<(), StoreError> {
        let (result, ratings) = self.store_end(result).await?;
        self.ratings = ratings;
        let now = Instant::now();
        let to_move = self.side_to_move();
        if let Some(clock) = &mut self.clock {
            clock.stop(seat_of(to_move), now);
        }
        info!(game = %self.record.id, variant = %self.variant.name, plies = self.moves.len(), "game over: {}", result.text);
        self.result = Some(result.clone());
        self.offers.clear();
        for p in &mut self.presence {
            if matches!(p, SeatPresence::Gone { .. }) {
                *p = SeatPresence::Absent;
            }
        }
        let clocks = self.clocks(now);
        self.broadcast(&ServerMessage::GameOver {
            result,
            clocks,
            ratings,
        });
        Ok(())
    }

    fn must_be_playing(&self) -> Result<(), GameError> {
        match self.status() {
            GameStatus::Playing => Ok(()),
            GameStatus::Waiting => Err(GameError::NotStarted),
            GameStatus::Finished => Err(GameError::Over),
        }
    }

    async fn resign(&mut self, side: Side) -> Result<(), GameError> {
        self.must_be_playing()?;
        Ok(self.end(rules::resignation(side)).await?)
    }

    async fn claim(&mut self, side: Side) -> Result<(), GameError> {
        self.must_be_playing()?;
        let now = Instant::now();
        match self.presence[side.other().index()] {
            SeatPresence::Gone { since, .. } if since + self.settings.grace <= now => {
                Ok(self.end(rules::abandoned(side)).await?)
            }
            SeatPresence::Gone { since, .. } => Err(GameError::ClaimTooEarly {
                in_ms: (since + self.settings.grace)
                    .saturating_duration_since(now)
                    .as_millis(),
            }),
            _ => Err(GameError::OpponentPresent),
        }
    }

    fn pending(&self, offer: OfferKind, by: Side) -> Option<usize> {
        self.offers
            .iter()
            .position(|o| o.offer == offer && o.by == by)
    }

    async fn offer(
        &mut self,
        side: Side,
        offer: OfferKind,
        ply: Option<u32>,
    ) -> Result<(), GameError> {
        if let Some(p) = ply
            && p != self.ply()
        {
            return Err(GameError::StaleOffer {
                ply: p,
                current: self.ply(),
            });
        }
        match offer {
            OfferKind::Draw | OfferKind::Takeback => self.must_be_playing()?,
            OfferKind::Rematch => {
                if self.status() != GameStatus::Finished {
                    return Err(GameError::RematchBeforeTheEnd);
                }
                if self.rematch.is_some() {
                    return Err(GameError::RematchExists);
                }
            }
        }
        if offer == OfferKind::Takeback && self.takeback_target(side).is_none() {
            return Err(GameError::NoMoveToTakeBack);
        }
        // Offering what the opponent offered accepts it.
        if self.pending(offer, side.other()).is_some() {
            return self.accept(side, offer, None).await;
        }
        if self.pending(offer, side).is_none() {
            self.offers.push(PendingOffer {
                offer,
                by: side,
                ply: self.ply(),
            });
        }
        let ply = self.ply();
        self.broadcast(&ServerMessage::Offer {
            offer,
            by: side,
            ply,
        });
        Ok(())
    }

    /// The ply a takeback by `side` goes back to: its own last move (and the reply after it).
    fn takeback_target(&self, side: Side) -> Option<usize> {
        self.sides.iter().rposition(|s| *s == side)
    }

    async fn accept(
        &mut self,
        side: Side,
        offer: OfferKind,
        ply: Option<u32>,
    ) -> Result<(), GameError> {
        let Some(index) = self.pending(offer, side.other()) else {
            return Err(GameError::NotOffered(offer));
        };
        let made_at = self.offers[index].ply;
        if let Some(p) = ply
            && p != made_at
        {
            return Err(GameError::StaleAnswer {
                offer,
                made_at,
                ply: p,
            });
        }
        let requester = side.other();
        match offer {
            OfferKind::Draw => {
                self.must_be_playing()?;
                Ok(self.end(rules::draw_agreed()).await?)
            }
            OfferKind::Takeback => {
                self.must_be_playing()?;
                let target = self
                    .takeback_target(requester)
                    .ok_or(GameError::NothingToTakeBack)?;
                self.take_back(target).await
            }
            OfferKind::Rematch => self.make_rematch().await,
        }
    }

    fn decline(&mut self, side: Side, offer: OfferKind) -> Result<(), GameError> {
        let index = self
            .pending(offer, side.other())
            .or_else(|| self.pending(offer, side))
            .ok_or(GameError::NoPendingOffer(offer))?;
        self.offers.remove(index);
        self.broadcast(&ServerMessage::OfferDeclined { offer, by: side });
        Ok(())
    }

    async fn take_back(&mut self, target: usize) -> Result<(), GameError> {
        self.store
            .truncate_moves(self.record.id.clone(), target as u32)
            .await?;
        self.moves.truncate(target);
        self.hashes.truncate(target);
        self.sides.truncate(target);
        let mut position = self.start.clone();
        for m in &self.moves {
            let mv = position
                .parse_move(&m.notation)
                .expect("stored moves replay");
            position.play(&mv).expect("stored moves replay");
        }
        self.position = position;
        if let Some(tc) = self.record.time_control {
            let stored = self.moves.last().and_then(|m| m.clocks);
            let seats = self.variant.players();
            let mut clock = Clock::resume(tc, seats, stored.as_ref().map(|c| &c[..]));
            clock.start_turn(target, Instant::now());
            self.clock = Some(clock);
        }
        self.offers.clear();
        info!(game = %self.record.id, ply = target, "takeback");
        let game = self.snapshot();
        self.broadcast(&ServerMessage::Snapshot {
            reason: SnapshotReason::Takeback,
            game,
        });
        Ok(())
    }

    async fn make_rematch(&mut self) -> Result<(), GameError> {
        if self.status() != GameStatus::Finished || self.rematch.is_some() {
            return Err(GameError::NoRematchNow);
        }
        let id = secrets::game_id();
        // A game between accounts: its rematch is too (colours swapped, ratings as they are
        // now).
        let players = match &self.record.players {
            None => None,
            Some(seats) => {
                let accounts = [seats.accounts[1].clone(), seats.accounts[0].clone()];
                let players = paired::players_of(
                    self.games.accounts.as_ref(),
                    &self.record.variant,
                    &accounts,
                    seats.rated(),
                )
                .await?;
                Some(AccountSeats { accounts, players })
            }
        };
        let record = GameRecord {
            id: id.clone(),
            variant: self.record.variant.clone(),
            variant_file: self.record.variant_file.clone(),
            time_control: self.record.time_control,
            // Colours swapped: each player keeps their token, for the other side.
            tokens: [self.record.tokens[1].clone(), self.record.tokens[0].clone()],
            creator: self.record.creator.other(),
            invite: None,
            joined: true,
            created_ms: now_ms(),
            rematch_of: Some(self.record.id.clone()),
            players,
        };
        self.store.create_game(record).await?;
        info!(game = %id, rematch_of = %self.record.id, "rematch created");
        self.rematch = Some(id.clone());
        self.offers.clear();
        self.broadcast(&ServerMessage::Rematch { game: id });
        Ok(())
    }
}
