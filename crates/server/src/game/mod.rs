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
    EndCause, ErrorCode, GameStatus, OfferKind, PROTOCOL_VERSION, Presence, RatingChange,
    SEATS_PROTOCOL_VERSION, SeatClocks, SeatIndex, SeatLeft, SeatOffer, SeatResult,
    SeatServerMessage, SeatSnapshot, SeatState, SnapshotReason, hash_text, http::SeatJoined,
    side_of,
};
use boardcraft_rules::{AnyPosition, OutOfTurn, Position, Seat, Variant};
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
pub mod computer;
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
    /// A websocket said hello to this game. The reply is the seat it plays (`None`: a
    /// spectator); the welcome was sent on `outbox` before the reply.
    Connect {
        conn: ConnId,
        token: Option<String>,
        /// The hello's protocol version: 3 gets the seat messages, 1 and 2 the two-seat ones
        /// (and only for a game of two seats).
        protocol: u32,
        /// The server's computer (`computer.rs`), which may play a seat whose person left.
        computer: bool,
        outbox: Outbox,
        reply: oneshot::Sender<Result<Option<SeatIndex>, GameError>>,
    },
    Disconnect {
        conn: ConnId,
    },
    /// A message from a connection that joined this game (not hello or ping).
    Message {
        conn: ConnId,
        msg: boardcraft_protocol::ClientMessage,
    },
    /// Someone used the invite: the first open seat is theirs.
    Join {
        reply: oneshot::Sender<Result<SeatJoined, GameError>>,
    },
    Snapshot {
        reply: oneshot::Sender<SeatSnapshot>,
    },
    /// The game as a RON save file.
    Save {
        reply: oneshot::Sender<String>,
    },
    /// Another node takes the game over (or this node lost its locks): stop now.
    Handover,
    /// Where the game stands, for the computer playing a seat (`computer.rs`).
    Turn {
        reply: oneshot::Sender<Turn>,
    },
}

/// Where a game stands: the rules' position after its moves (departed seats' turns skipped),
/// the ply of the next move, and whether it is over or waits for seats.
pub struct Turn {
    pub ply: u32,
    pub position: AnyPosition,
    pub over: bool,
    pub started: bool,
    /// The remaining time of the seat to move (a timed game).
    pub remaining_ms: Option<u64>,
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
    seat: Option<SeatIndex>,
    /// The hello's protocol version.
    protocol: u32,
    /// The server's computer: the one connection that moves for a seat whose person left.
    computer: bool,
    outbox: Outbox,
}

/// A message's text for each protocol, made once for all the connections that speak it.
struct Encoded<'a> {
    msg: &'a SeatServerMessage,
    two_seats: Option<Option<Utf8Bytes>>,
    seats: Option<Utf8Bytes>,
}

impl<'a> Encoded<'a> {
    fn new(msg: &'a SeatServerMessage) -> Encoded<'a> {
        Encoded {
            msg,
            two_seats: None,
            seats: None,
        }
    }

    /// The text for a connection of `protocol`: the seat message for 3, version 2's words
    /// otherwise (`None`: the message has none, which a game of two seats never sends).
    fn text(&mut self, protocol: u32) -> Option<Utf8Bytes> {
        let msg = self.msg;
        if protocol >= SEATS_PROTOCOL_VERSION {
            Some(
                self.seats
                    .get_or_insert_with(|| Utf8Bytes::from(msg.to_json()))
                    .clone(),
            )
        } else {
            self.two_seats
                .get_or_insert_with(|| {
                    msg.two_seats(PROTOCOL_VERSION)
                        .map(|m| Utf8Bytes::from(m.to_json()))
                })
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
    /// The variant, seated for the game's number of seats.
    variant: Variant,
    start: AnyPosition,
    /// The rules' position after the moves.
    position: AnyPosition,
    moves: Vec<StoredMove>,
    /// The position's hash after each move.
    hashes: Vec<u64>,
    /// Who played each move.
    movers: Vec<SeatIndex>,
    result: Option<SeatResult>,
    /// How the game changed every seat's rating (a finished rated game).
    ratings: Option<Vec<RatingChange>>,
    rematch: Option<String>,
    clock: Option<Clock>,
    conns: HashMap<ConnId, Connection>,
    presence: Vec<SeatPresence>,
    offers: Vec<SeatOffer>,
    /// The seats that left a game of more than two seats while the others play on, in the
    /// order they left.
    left: Vec<SeatLeft>,
    /// Since when the game has had no connection.
    idle_since: Option<Instant>,
    /// Another node runs the game now (a write was fenced off, or a handover was asked):
    /// the task tells its connections to reconnect and stops.
    moved_away: Arc<AtomicBool>,
    /// The task's own queue, for the computer it seats when a person leaves (weak: the
    /// task's queue closes when the registry lets go of it).
    task: Option<mpsc::WeakSender<Command>>,
}

/// Replays one stored move of `position`, or its turn skipped first: games stored before the
/// computer took over the seats of people who left skipped those seats' turns, and their
/// stored moves go on with the next seat's. Returns the seat that moved.
fn replay(
    position: &mut AnyPosition,
    notation: &str,
    departed: &[SeatIndex],
) -> Result<SeatIndex, String> {
    let mover = position.side_to_move().index() as SeatIndex;
    let played = position
        .parse_move(notation)
        .map_err(|e| e.to_string())
        .and_then(|mv| position.play(&mv).map_err(|e| e.to_string()));
    let Err(why) = played else {
        return Ok(mover);
    };
    let AnyPosition::Race(race) = position else {
        return Err(why);
    };
    let mut skipped = race.clone();
    for _ in 0..race.seat_count() {
        let to_move = skipped.side_to_move().index() as SeatIndex;
        if skipped.is_game_over() || !departed.contains(&to_move) {
            break;
        }
        skipped.skip_turn();
        let mut after = AnyPosition::Race(skipped.clone());
        let mover = after.side_to_move().index() as SeatIndex;
        if let Ok(mv) = after.parse_move(notation)
            && after.play(&mv).is_ok()
        {
            *position = after;
            return Ok(mover);
        }
    }
    Err(why)
}

impl Game {
    /// Rebuilds a stored game by replaying its moves (and the departures between them)
    /// through the rules.
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
            left,
        } = stored;
        let broken = |why: String| LoadError::Broken {
            game: record.id.clone(),
            why,
        };
        let variant = rules::variant_of(&record.variant, record.variant_file.as_deref())
            .map_err(|e| broken(e.to_string()))?;
        let variant = rules::seated(variant, record.seats()).map_err(|e| broken(e.to_string()))?;
        let start = variant.new_game();
        let mut position = start.clone();
        let mut hashes = Vec::with_capacity(moves.len());
        let mut movers = Vec::with_capacity(moves.len());
        let departed_by = |ply: usize| -> Vec<SeatIndex> {
            left.iter()
                .filter(|l| l.ply as usize <= ply)
                .map(|l| l.seat)
                .collect()
        };
        for (i, m) in moves.iter().enumerate() {
            if m.ply as usize != i {
                return Err(broken(format!("move {i} is stored as ply {}", m.ply)));
            }
            let seat = replay(&mut position, &m.notation, &departed_by(i))
                .map_err(|e| broken(format!("ply {i}: {e}")))?;
            hashes.push(position.hash());
            movers.push(seat);
        }
        let clock = record.time_control.map(|tc| {
            Clock::resume(
                tc,
                variant.players(),
                moves.last().and_then(|m| m.clocks.as_deref()),
            )
        });
        let moved_away = Arc::new(AtomicBool::new(false));
        let store = fence::Fenced::new(games.store.clone(), moved_away.clone());
        let settings = games.settings.clone();
        let seats = record.seats();
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
            movers,
            result,
            ratings,
            rematch,
            clock,
            conns: HashMap::new(),
            presence: vec![SeatPresence::Absent; seats],
            offers: Vec::new(),
            left,
            idle_since: Some(Instant::now()),
            moved_away,
            task: None,
        };
        // Stored moves (or departures) that ended the game, but the end itself was not
        // stored yet (the server stopped in between): store it now.
        if game.result.is_none()
            && let Some(result) = game.played_end()
        {
            let (result, ratings) = game.store_end(result).await?;
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

    fn seats(&self) -> usize {
        self.record.seats()
    }

    fn status(&self) -> GameStatus {
        if self.result.is_some() {
            GameStatus::Finished
        } else if self.record.started() {
            GameStatus::Playing
        } else {
            GameStatus::Waiting
        }
    }

    fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    fn to_move(&self) -> SeatIndex {
        self.position.side_to_move().index() as SeatIndex
    }

    /// The seats that left while the others played on, in the order they left.
    fn departed(&self) -> Vec<SeatIndex> {
        self.left.iter().map(|l| l.seat).collect()
    }

    /// The seat tokens the server's computer plays in this game: the seats the lobby filled
    /// with its computer accounts, and the seats of people who left a table that plays on.
    /// Whichever node runs the game plays them.
    pub(crate) fn computer_seats(&self) -> Vec<String> {
        if self.result.is_some() {
            return Vec::new();
        }
        let departed = self.departed();
        (0..self.seats())
            .filter(|&seat| {
                departed.contains(&(seat as SeatIndex))
                    || self.record.players.as_ref().is_some_and(|players| {
                        players
                            .players
                            .seats
                            .get(seat)
                            .is_some_and(|p| p.bot && computer::is_computer(&p.name))
                    })
            })
            .filter_map(|seat| self.record.tokens.get(seat).cloned())
            .collect()
    }

    /// Whether the seats that still play (`playing`) leave nothing to play for: one seat or
    /// none, or partners only. The seats that left are placed below them whatever the
    /// computer does in their seats.
    fn settled(&self, playing: &[SeatIndex]) -> bool {
        if playing.len() <= 1 {
            return true;
        }
        match rules::teams(&self.variant) {
            Some(teams) => playing
                .iter()
                .all(|&s| teams[usize::from(s)] == teams[usize::from(playing[0])]),
            None => false,
        }
    }

    /// The seats still playing: neither finished by the rules nor left.
    fn playing(&self) -> Vec<SeatIndex> {
        let finished = self.position.finish_order();
        (0..self.seats() as SeatIndex)
            .filter(|&s| {
                !finished.contains(&Seat::at(usize::from(s))) && !self.departed().contains(&s)
            })
            .collect()
    }

    /// The end the moves and departures reached, if they did: the rules' outcome, or (a table
    /// that plays on after departures) one seat left playing.
    fn played_end(&self) -> Option<SeatResult> {
        let outcome = self.position.outcome();
        if self.left.is_empty() {
            return outcome.map(|o| rules::seat_result(&self.variant, &self.position, o));
        }
        if outcome.is_some() || self.settled(&self.playing()) {
            return Some(rules::played_out(
                &self.variant,
                &self.position,
                outcome,
                &self.departed(),
            ));
        }
        None
    }

    /// When the seat to move runs out of time, if its clock runs and a person plays it: the
    /// computer in the seat of a person who left cannot lose the game on time (that seat's
    /// place is settled).
    fn flag_at(&self) -> Option<Instant> {
        let seat = self.to_move();
        if self.departed().contains(&seat) {
            return None;
        }
        self.clock.as_ref().and_then(|c| c.flag_at(seat))
    }

    fn clocks(&self, now: Instant) -> Option<SeatClocks> {
        let running = self.result.is_none() && self.record.started();
        self.clock
            .as_ref()
            .map(|c| c.clocks(now, running.then(|| self.to_move())))
    }

    fn presence_of(&self, seat: SeatIndex, now: Instant) -> Presence {
        match self.presence[usize::from(seat)] {
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
        self.conns.values().filter(|c| c.seat.is_none()).count() as u32
    }

    pub fn snapshot(&self) -> SeatSnapshot {
        let now = Instant::now();
        SeatSnapshot {
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
            to_move: self.to_move(),
            hash: hash_text(self.position.hash()),
            clocks: self.clocks(now),
            seats: (0..self.seats())
                .map(|s| SeatState {
                    joined: self.record.joined[s],
                    presence: self.presence_of(s as SeatIndex, now),
                })
                .collect(),
            offers: self.offers.clone(),
            spectators: self.spectators(),
            rematch: self.rematch.clone(),
            rematch_of: self.record.rematch_of.clone(),
            players: self.record.players.as_ref().map(|p| p.players.clone()),
            ratings: self.ratings.clone(),
            left: self.left.clone(),
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
        if self.seats() > 2 {
            save = save.with_others(vec![Player::Human; self.seats() - 2]);
        }
        // How a two-seat game ended outside its rules; a larger table's save is its moves.
        if let Some(result) = self.result.as_ref().and_then(|r| r.two_seats()) {
            use boardcraft_protocol::Side;
            let loser = || {
                rules::color(
                    result
                        .winner
                        .map(Side::other)
                        .unwrap_or(boardcraft_protocol::Side::White),
                )
            };
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

    fn send_to(&mut self, conn: ConnId, msg: &SeatServerMessage) {
        let dead = match self.conns.get(&conn) {
            Some(c) => match Encoded::new(msg).text(c.protocol) {
                Some(text) => c.outbox.try_send(text).is_err(),
                None => false,
            },
            None => false,
        };
        if dead {
            self.drop_connection(conn);
        }
    }

    fn broadcast(&mut self, msg: &SeatServerMessage) {
        let mut text = Encoded::new(msg);
        let dead: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| {
                text.text(c.protocol)
                    .is_some_and(|t| c.outbox.try_send(t).is_err())
            })
            .map(|(id, _)| *id)
            .collect();
        for conn in dead {
            self.drop_connection(conn);
        }
    }

    /// Tells the connection its request was refused (`ply`: the refused move's).
    fn refuse(&mut self, conn: ConnId, refusal: GameError, ply: Option<u32>) {
        info!(game = %self.record.id, conn, code = %refusal.code(), ply, "refused: {refusal}");
        let msg = SeatServerMessage::from(refusal.error_message(ply, false));
        self.send_to(conn, &msg);
    }

    /// A connection whose queue is full (it does not read) or closed: forget it; its task
    /// notices the closed queue and closes the socket, and the client resyncs on reconnect.
    fn drop_connection(&mut self, conn: ConnId) {
        if let Some(c) = self.conns.remove(&conn) {
            if c.outbox.capacity() == 0 {
                warn!(game = %self.record.id, conn, "a connection does not read its messages: closed");
            }
            self.left_game(c.seat);
        }
    }

    /// Presence bookkeeping after a connection left.
    fn left_game(&mut self, seat: Option<SeatIndex>) {
        let now = Instant::now();
        match seat {
            None => {
                let count = self.spectators();
                self.broadcast(&SeatServerMessage::Spectators { count });
            }
            Some(seat) => {
                if self.conns.values().any(|c| c.seat == Some(seat)) {
                    return;
                }
                let plays = !self.departed().contains(&seat);
                self.presence[usize::from(seat)] = if self.status() == GameStatus::Playing && plays
                {
                    SeatPresence::Gone {
                        since: now,
                        announced: false,
                    }
                } else {
                    SeatPresence::Absent
                };
                let presence = self.presence_of(seat, now);
                self.broadcast(&SeatServerMessage::Presence { seat, presence });
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
        let moved = SeatServerMessage::Error {
            code: ErrorCode::GameMoved,
            message: "the game moved to another server: reconnect".into(),
            ply: None,
            fatal: true,
        };
        let mut moved = Encoded::new(&moved);
        for (_, c) in self.conns.drain() {
            if let Some(text) = moved.text(c.protocol) {
                let _ = c.outbox.try_send(text);
            }
        }
    }

    /// The next moment something happens by itself: a flag falls, a grace period ends, the
    /// idle game is unloaded.
    fn next_deadline(&self) -> Option<Instant> {
        let mut next: Option<Instant> = None;
        let mut consider = |t: Instant| next = Some(next.map_or(t, |n| n.min(t)));
        if self.status() == GameStatus::Playing {
            if let Some(t) = self.flag_at() {
                consider(t);
            }
            for p in &self.presence {
                if let SeatPresence::Gone {
                    since,
                    announced: false,
                } = *p
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
        self.status() == GameStatus::Playing && self.flag_at().is_some()
    }

    /// Returns `true` when the task should stop (unload).
    async fn on_timer(&mut self) -> bool {
        let now = Instant::now();
        if self.status() == GameStatus::Playing {
            let seat = self.to_move();
            if self.flag_at().is_some_and(|t| t <= now) {
                if let Err(e) = self.depart(seat, EndCause::Timeout).await {
                    warn!(game = %self.record.id, "storing a flag fall failed: {e}");
                    // Try again shortly rather than spinning.
                    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                }
                return false;
            }
            for seat in 0..self.seats() as SeatIndex {
                if self.status() != GameStatus::Playing {
                    break;
                }
                if let SeatPresence::Gone {
                    since,
                    announced: false,
                } = self.presence[usize::from(seat)]
                    && since + self.settings.grace <= now
                {
                    // At a table of more than two the seat leaves by itself: the computer
                    // takes it over and the others play on (two seats: the opponent may
                    // claim the game, or wait).
                    if self.seats() > 2 {
                        if let Err(e) = self.depart(seat, EndCause::Abandoned).await {
                            warn!(game = %self.record.id, seat, "storing a departure failed: {e}");
                            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                        }
                        continue;
                    }
                    self.presence[usize::from(seat)] = SeatPresence::Gone {
                        since,
                        announced: true,
                    };
                    let presence = self.presence_of(seat, now);
                    self.broadcast(&SeatServerMessage::Presence { seat, presence });
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
                computer,
                outbox,
                reply,
            } => {
                let result = self.connect(conn, token, protocol, computer, outbox);
                let _ = reply.send(result);
            }
            Command::Disconnect { conn } => {
                if let Some(c) = self.conns.remove(&conn) {
                    self.left_game(c.seat);
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
            Command::Turn { reply } => {
                let snapshot = self.snapshot();
                let remaining_ms = snapshot
                    .clocks
                    .as_ref()
                    .and_then(|c| c.remaining_ms.get(usize::from(self.to_move())).copied());
                let _ = reply.send(Turn {
                    ply: self.ply(),
                    position: self.position.clone(),
                    over: self.result.is_some(),
                    started: snapshot.status == boardcraft_protocol::GameStatus::Playing,
                    remaining_ms,
                });
            }
        }
    }

    fn connect(
        &mut self,
        conn: ConnId,
        token: Option<String>,
        protocol: u32,
        computer: bool,
        outbox: Outbox,
    ) -> Result<Option<SeatIndex>, GameError> {
        if protocol < SEATS_PROTOCOL_VERSION && self.seats() > 2 {
            return Err(GameError::ProtocolTooOld {
                seats: self.seats(),
            });
        }
        let seat = match token {
            None => None,
            Some(token) => {
                // Every seat's compared, in constant time each, so the time does not tell
                // which seat (if any) nearly matched.
                let matches: Vec<bool> = self
                    .record
                    .tokens
                    .iter()
                    .map(|t| secrets::token_matches(&token, t))
                    .collect();
                match matches
                    .iter()
                    .zip(&self.record.joined)
                    .position(|(m, joined)| *m && *joined)
                {
                    Some(seat) => Some(seat as SeatIndex),
                    None => return Err(GameError::BadToken),
                }
            }
        };
        self.conns.insert(
            conn,
            Connection {
                seat,
                protocol,
                computer,
                outbox,
            },
        );
        self.idle_since = None;
        let invite = match seat {
            Some(s) if s == self.record.creator && !self.record.started() => {
                self.record.invite.clone()
            }
            _ => None,
        };
        let welcome = SeatServerMessage::Welcome {
            protocol: SEATS_PROTOCOL_VERSION,
            server: crate::SERVER_NAME.to_owned(),
            you: seat,
            game: self.snapshot(),
            invite,
            grace_ms: self.settings.grace.as_millis() as u64,
            idle_timeout_ms: self.settings.idle_timeout.as_millis() as u64,
        };
        self.send_to(conn, &welcome);
        match seat {
            Some(seat) => {
                if self.presence[usize::from(seat)] != SeatPresence::Present {
                    self.presence[usize::from(seat)] = SeatPresence::Present;
                    self.broadcast(&SeatServerMessage::Presence {
                        seat,
                        presence: Presence::Present,
                    });
                }
            }
            None => {
                let count = self.spectators();
                self.broadcast(&SeatServerMessage::Spectators { count });
            }
        }
        Ok(seat)
    }

    async fn join(&mut self) -> Result<SeatJoined, GameError> {
        let Some(seat) = self.record.joined.iter().position(|j| !j) else {
            return Err(GameError::SeatTaken);
        };
        if !self
            .store
            .mark_joined(self.record.id.clone(), seat as SeatIndex)
            .await?
        {
            return Err(GameError::SeatTaken);
        }
        self.record.joined[seat] = true;
        let started = self.record.started();
        let reason = if started {
            info!(game = %self.record.id, variant = %self.variant.name, seats = self.seats(), "game started: every seat is taken");
            if let Some(clock) = &mut self.clock {
                clock.start_turn(self.moves.len(), Instant::now());
            }
            SnapshotReason::Started
        } else {
            info!(game = %self.record.id, seat, "a seat was taken");
            SnapshotReason::SeatJoined
        };
        let game = self.snapshot();
        self.broadcast(&SeatServerMessage::Snapshot { reason, game });
        let seat = seat as SeatIndex;
        Ok(SeatJoined {
            game: self.record.id.clone(),
            color: side_of(seat).unwrap_or(boardcraft_protocol::Side::Black),
            seat,
            token: self.record.tokens[usize::from(seat)].clone(),
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
                &SeatServerMessage::Snapshot {
                    reason: SnapshotReason::Resync,
                    game,
                },
            );
            return;
        }
        let Some(seat) = connection.seat else {
            let ply = match &msg {
                C::Move { ply, .. } => Some(*ply),
                _ => None,
            };
            self.refuse(conn, GameError::ReadOnly, ply);
            return;
        };
        // A person who left a larger table watches it: the computer plays the seat now, and
        // only a rematch is theirs to ask or answer.
        let rematch = matches!(
            msg,
            C::Offer {
                offer: OfferKind::Rematch,
                ..
            } | C::Accept {
                offer: OfferKind::Rematch,
                ..
            } | C::Decline {
                offer: OfferKind::Rematch
            }
        );
        if !connection.computer && !rematch && self.departed().contains(&seat) {
            let ply = match &msg {
                C::Move { ply, .. } => Some(*ply),
                _ => None,
            };
            self.refuse(conn, GameError::SeatTakenOver, ply);
            return;
        }
        let (outcome, ply) = match msg {
            C::Move { ply, notation } => (self.play(conn, seat, ply, notation).await, Some(ply)),
            C::Resign => (self.resign(seat).await, None),
            C::Offer { offer, ply } => (self.offer(seat, offer, ply).await, None),
            C::Accept { offer, ply } => (self.accept(seat, offer, ply).await, None),
            C::Decline { offer } => (self.decline(seat, offer), None),
            C::ClaimVictory => (self.claim(seat).await, None),
            C::Hello { .. } | C::Ping { .. } | C::Resync => (Ok(()), None),
        };
        if let Err(refusal) = outcome {
            self.refuse(conn, refusal, ply);
        }
    }

    fn moved_message(&self, ply: u32, result: Option<SeatResult>) -> SeatServerMessage {
        let m = &self.moves[ply as usize];
        SeatServerMessage::Moved {
            ply,
            notation: m.notation.clone(),
            seat: self.movers[ply as usize],
            hash: hash_text(self.hashes[ply as usize]),
            clocks: m.clocks.as_ref().map(|c| SeatClocks {
                remaining_ms: c.clone(),
                running: None,
            }),
            result,
        }
    }

    /// A move of `seat` at `ply` (the caller refuses it with that ply on `Err`).
    async fn play(
        &mut self,
        conn: ConnId,
        seat: SeatIndex,
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
            GameStatus::Playing if seat != self.to_move() => {
                return Err(GameError::NotYourTurn(rules::seat_name(
                    self.to_move(),
                    self.seats(),
                )));
            }
            GameStatus::Playing => {}
        }
        let now = Instant::now();
        // The flag may have fallen in the instant before the move arrived.
        if self.flag_at().is_some_and(|t| t <= now) {
            if let Err(e) = self.depart(seat, EndCause::Timeout).await {
                warn!(game = %self.record.id, "storing a flag fall failed: {e}");
            }
            return Err(GameError::TimeRanOut);
        }
        let mv = self.position.parse_move(&notation)?;
        let mut next = self.position.clone();
        next.play(&mv)?;
        let canonical = self.position.format_move(&mv);
        let clock_after = self.clock.as_ref().map(|c| c.after_move(seat, now, ply));
        let stored = StoredMove {
            ply,
            notation: canonical,
            clocks: clock_after.as_ref().map(|c| c.remaining.clone()),
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
        self.movers.push(seat);
        if let Some(c) = clock_after {
            self.clock = Some(c);
        }
        self.offers.retain(|o| o.offer == OfferKind::Rematch);
        let result = self.played_end();
        let mut moved = self.moved_message(ply, result.clone());
        if let SeatServerMessage::Moved { clocks, .. } = &mut moved {
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

    /// Whether some seat has made fewer than two of the first `plies` moves.
    fn early(&self, plies: usize) -> bool {
        let movers = &self.movers[..plies.min(self.movers.len())];
        (0..self.seats() as SeatIndex).any(|seat| movers.iter().filter(|s| **s == seat).count() < 2)
    }

    /// A game between accounts that ends (or that a seat leaves) before each seat made two
    /// moves is aborted: no winner, not rated.
    fn aborts(&self) -> bool {
        let until = self
            .left
            .first()
            .map_or(self.moves.len(), |l| l.ply as usize);
        self.record.players.is_some() && self.early(until)
    }

    /// Stores the end (a game between accounts: aborted if too early, rated if rated, in one
    /// transaction); the result as stored and the rating changes.
    async fn store_end(
        &self,
        result: SeatResult,
    ) -> Result<(SeatResult, Option<Vec<RatingChange>>), StoreError> {
        let Some(seats) = &self.record.players else {
            self.store
                .finish_game(self.record.id.clone(), result.clone())
                .await?;
            return Ok((result, None));
        };
        let result = if self.aborts() {
            rules::aborted_seats(self.seats())
        } else {
            result
        };
        // Rated or not is decided in `end`; the store rates only the game's first end.
        let end = end::account_end(
            &self.record.variant,
            &seats.accounts,
            seats.rated(),
            &result,
        );
        let changes = self
            .store
            .finish_account_game(self.record.id.clone(), result.clone(), end)
            .await?;
        Ok((result, end::shown(changes, self.seats())))
    }

    /// Stores the end of the game, then tells everyone.
    async fn end(&mut self, result: SeatResult) -> Result<(), StoreError> {
        let (result, ratings) = self.store_end(result).await?;
        self.ratings = ratings.clone();
        let now = Instant::now();
        let to_move = self.to_move();
        if let Some(clock) = &mut self.clock {
            clock.stop(to_move, now);
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
        self.broadcast(&SeatServerMessage::GameOver {
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

    /// `seat` leaves the game (it resigned, its flag fell, or it was gone past the grace
    /// period). In a two-seat game the other wins. At a larger table its place is settled
    /// (last of the seats still playing) and stored, the server's computer takes its seat
    /// over and the others play on — unless the seats left playing have nothing to play for
    /// ([`Game::settled`]): then the game ends.
    async fn depart(&mut self, seat: SeatIndex, cause: EndCause) -> Result<(), StoreError> {
        let departed = self.departed();
        // A seat of a game between accounts leaving before every seat made two moves: the
        // game is aborted at once rather than played on to an end that would not count.
        if self.record.players.is_some() && self.left.is_empty() && self.early(self.moves.len()) {
            return self.end(rules::aborted_seats(self.seats())).await;
        }
        let mut playing = self.playing();
        playing.retain(|&s| s != seat);
        if self.seats() == 2 || self.settled(&playing) {
            let result = rules::ended_by(&self.variant, &self.position, seat, cause, &departed);
            return self.end(result).await;
        }
        let left = SeatLeft {
            seat,
            place: (self.seats() - departed.len()) as u8,
            ply: self.ply(),
            cause,
        };
        self.store
            .seat_left(self.record.id.clone(), left.clone())
            .await?;
        info!(game = %self.record.id, seat, place = left.place, "a seat left; the computer plays it, the others play on");
        self.left.push(left);
        if let Some(task) = self.task.as_ref().and_then(mpsc::WeakSender::upgrade) {
            computer::play_seat(
                task,
                self.record.id.clone(),
                self.record.tokens[usize::from(seat)].clone(),
                self.settings.lobby.bot_level,
            );
        }
        self.presence[usize::from(seat)] = SeatPresence::Absent;
        // A pending draw may now have every seat still playing.
        if let Some(done) = self.completed_offer(OfferKind::Draw) {
            self.offers.remove(done);
            let result = rules::drawn(&self.variant, &self.position, &self.departed());
            return self.end(result).await;
        }
        let game = self.snapshot();
        self.broadcast(&SeatServerMessage::Snapshot {
            reason: SnapshotReason::SeatLeft,
            game,
        });
        Ok(())
    }

    async fn resign(&mut self, seat: SeatIndex) -> Result<(), GameError> {
        self.must_be_playing()?;
        if !self.playing().contains(&seat) {
            return Err(GameError::NotPlaying);
        }
        Ok(self.depart(seat, EndCause::Resignation).await?)
    }

    /// Claims the seats gone past the grace period: in a two-seat game the claimer wins; at a
    /// larger table each such seat leaves (placed last of those playing) and play goes on.
    async fn claim(&mut self, seat: SeatIndex) -> Result<(), GameError> {
        self.must_be_playing()?;
        let now = Instant::now();
        let mut gone_long = Vec::new();
        let mut soonest: Option<u128> = None;
        for other in self.playing() {
            if other == seat {
                continue;
            }
            if let SeatPresence::Gone { since, .. } = self.presence[usize::from(other)] {
                if since + self.settings.grace <= now {
                    gone_long.push(other);
                } else {
                    let in_ms = (since + self.settings.grace)
                        .saturating_duration_since(now)
                        .as_millis();
                    soonest = Some(soonest.map_or(in_ms, |s| s.min(in_ms)));
                }
            }
        }
        if gone_long.is_empty() {
            return Err(match soonest {
                Some(in_ms) => GameError::ClaimTooEarly { in_ms },
                None => GameError::OpponentPresent,
            });
        }
        for other in gone_long {
            if self.status() != GameStatus::Playing {
                break;
            }
            self.depart(other, EndCause::Abandoned).await?;
        }
        Ok(())
    }

    /// The seats whose agreement an offer needs: a draw every seat still playing, a takeback
    /// both seats (two-seat games only), a rematch every seat.
    fn needed(&self, offer: OfferKind) -> Vec<SeatIndex> {
        match offer {
            OfferKind::Draw => self.playing(),
            OfferKind::Takeback | OfferKind::Rematch => (0..self.seats() as SeatIndex).collect(),
        }
    }

    /// The pending offer of this kind, if every seat it needs agrees now.
    fn completed_offer(&self, offer: OfferKind) -> Option<usize> {
        let index = self.offers.iter().position(|o| o.offer == offer)?;
        let agreed = &self.offers[index].agreed;
        self.needed(offer)
            .iter()
            .all(|s| agreed.contains(s))
            .then_some(index)
    }

    async fn offer(
        &mut self,
        seat: SeatIndex,
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
        if offer == OfferKind::Takeback && self.seats() > 2 {
            return Err(GameError::NoTakebackAtThisTable);
        }
        if offer == OfferKind::Draw && !self.playing().contains(&seat) {
            return Err(GameError::NotPlaying);
        }
        if offer == OfferKind::Takeback && self.takeback_target(seat).is_none() {
            return Err(GameError::NoMoveToTakeBack);
        }
        // Offering what another seat offered agrees to it.
        if let Some(o) = self.offers.iter().find(|o| o.offer == offer)
            && !o.agreed.contains(&seat)
        {
            return self.accept(seat, offer, None).await;
        }
        if !self.offers.iter().any(|o| o.offer == offer) {
            self.offers.push(SeatOffer {
                offer,
                by: seat,
                ply: self.ply(),
                agreed: vec![seat],
            });
        }
        let ply = self.ply();
        self.broadcast(&SeatServerMessage::Offer {
            offer,
            by: seat,
            ply,
        });
        Ok(())
    }

    /// The ply a takeback by `seat` goes back to: its own last move (and the reply after it).
    fn takeback_target(&self, seat: SeatIndex) -> Option<usize> {
        self.movers.iter().rposition(|s| *s == seat)
    }

    async fn accept(
        &mut self,
        seat: SeatIndex,
        offer: OfferKind,
        ply: Option<u32>,
    ) -> Result<(), GameError> {
        let Some(index) = self
            .offers
            .iter()
            .position(|o| o.offer == offer && !o.agreed.contains(&seat))
        else {
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
        if offer == OfferKind::Draw {
            self.must_be_playing()?;
            if !self.playing().contains(&seat) {
                return Err(GameError::NotPlaying);
            }
        }
        let requester = self.offers[index].by;
        self.offers[index].agreed.push(seat);
        if self.completed_offer(offer).is_none() {
            // More seats to agree: tell everyone this one does.
            let ply = self.ply();
            self.broadcast(&SeatServerMessage::Offer {
                offer,
                by: seat,
                ply,
            });
            return Ok(());
        }
        match offer {
            OfferKind::Draw => {
                self.must_be_playing()?;
                let result = rules::drawn(&self.variant, &self.position, &self.departed());
                Ok(self.end(result).await?)
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

    fn decline(&mut self, seat: SeatIndex, offer: OfferKind) -> Result<(), GameError> {
        let index = self
            .offers
            .iter()
            .position(|o| o.offer == offer)
            .ok_or(GameError::NoPendingOffer(offer))?;
        // A seat that finished or left has no say in a draw.
        if offer == OfferKind::Draw && !self.playing().contains(&seat) {
            return Err(GameError::NotPlaying);
        }
        self.offers.remove(index);
        self.broadcast(&SeatServerMessage::OfferDeclined { offer, by: seat });
        Ok(())
    }

    async fn take_back(&mut self, target: usize) -> Result<(), GameError> {
        self.store
            .truncate_moves(self.record.id.clone(), target as u32)
            .await?;
        self.moves.truncate(target);
        self.hashes.truncate(target);
        self.movers.truncate(target);
        let mut position = self.start.clone();
        for m in &self.moves {
            let mv = position
                .parse_move(&m.notation)
                .expect("stored moves replay");
            position.play(&mv).expect("stored moves replay");
        }
        self.position = position;
        if let Some(tc) = self.record.time_control {
            let stored = self.moves.last().and_then(|m| m.clocks.as_deref());
            let seats = self.variant.players();
            let mut clock = Clock::resume(tc, seats, stored);
            clock.start_turn(target, Instant::now());
            self.clock = Some(clock);
        }
        self.offers.clear();
        info!(game = %self.record.id, ply = target, "takeback");
        let game = self.snapshot();
        self.broadcast(&SeatServerMessage::Snapshot {
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
        let n = self.seats();
        // Every seat's holder moves one seat on (two seats: the colours swap), keeping its
        // token.
        let rotated =
            |v: &[String]| -> Vec<String> { (0..n).map(|s| v[(s + n - 1) % n].clone()).collect() };
        // A game between accounts: its rematch is too (ratings as they are now).
        let players = match &self.record.players {
            None => None,
            Some(seats) => {
                let accounts = rotated(&seats.accounts);
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
            tokens: rotated(&self.record.tokens),
            creator: ((usize::from(self.record.creator) + 1) % n) as SeatIndex,
            invite: None,
            joined: vec![true; n],
            created_ms: now_ms(),
            rematch_of: Some(self.record.id.clone()),
            players,
        };
        self.store.create_game(record).await?;
        info!(game = %id, rematch_of = %self.record.id, "rematch created");
        self.rematch = Some(id.clone());
        self.offers.clear();
        self.broadcast(&SeatServerMessage::Rematch { game: id });
        Ok(())
    }
}
