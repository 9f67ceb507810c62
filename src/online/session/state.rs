//! What the online session knows and what the player asks of it.
use bevy::prelude::*;
use boardcraft_protocol::{
    ClientMessage, ColorChoice, GameStatus as ServerStatus, OfferKind, Presence, RatingChange,
    SeatClocks, SeatIndex, SeatLeft, SeatOffer, SeatPlayers, SeatResult, SeatState, TimeControl,
};
use boardcraft_rules::Seat;

use crate::{game::match_state::Match, online::link::LinkState};

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
    /// Claim the seats that have been gone past the grace period: with two seats the game is
    /// won; at a larger table they leave it (as they do by themselves at the grace period's
    /// end) and the server's computer plays them.
    Claim,
    /// Ask the server for the whole game again.
    Resync,
    /// Drop the connection now (as a network failure would); the session reconnects.
    DropConnection,
    /// Leave the online game (the seat stays ours: it can be rejoined).
    Leave,
    /// Change the server address (before creating or joining).
    SetServer(String),
    /// Play a game the lobby made (a seek, a pool, a challenge; `paired` or `seated`): take
    /// its seat with the seat token, exactly as an invite's seat.
    Seated {
        game: String,
        seat: SeatIndex,
        token: String,
        players: Option<SeatPlayers>,
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
    /// Another seat declined an offer.
    Declined(OfferKind),
    /// The local game differed from the server's and was rebuilt from it.
    Resynced,
    /// The server closed the session for good (bad token, unknown game).
    Fatal,
}

/// The online session as the UI and the tests read it. Only the session (`network` and
/// `board`) writes it.
#[derive(Resource, Debug, Default)]
pub struct Online {
    /// The server's HTTP address, without a trailing slash.
    pub server: String,
    pub stage: Stage,
    /// The game's id on the server.
    pub game: Option<String>,
    /// The seat this player plays (0 is White in the two-seat games); `None` for a spectator.
    pub seat: Option<SeatIndex>,
    pub(super) token: Option<String>,
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
    /// Every seat's state, in seat order: how many seats the game has.
    pub seats: Vec<SeatState>,
    /// The clocks at `clocks_at` (seconds of the app's real clock).
    pub clocks: Option<SeatClocks>,
    pub clocks_at: f64,
    pub offers: Vec<SeatOffer>,
    pub spectators: u32,
    pub result: Option<SeatResult>,
    /// The seats that left a game of more than two seats while it went on, in the order they
    /// left (the server's computer plays them on).
    pub left: Vec<SeatLeft>,
    /// Who plays each seat (names, ratings, rated or casual) in a game made in the lobby.
    pub players: Option<SeatPlayers>,
    /// How the finished rated game changed each seat's rating, in seat order.
    pub ratings: Option<Vec<RatingChange>>,
    pub grace_ms: u64,
    /// When each other seat's absence may be claimed (app seconds), while it is gone, in seat
    /// order (`None` for the seats that are not gone, and for this player's own).
    pub claim_at: Vec<Option<f64>>,
    pub pending: Option<PendingMove>,
    pub notice: Option<Notice>,
    /// The game of an invite whose seat was taken: it can still be watched.
    pub watchable: Option<String>,
    /// Counters, for the UI's details and the tests: connections opened, full rebuilds from the
    /// server's record, position hashes that differed.
    pub connections: u32,
    pub rebuilds: u32,
    pub desyncs: u32,
    /// Which local game shows this session's game.
    pub(super) board: BoardLink,
    /// The variant file's text for a game of a posted variant.
    pub(super) variant_file: Option<String>,
    pub(super) ping_n: u64,
    pub(super) last_ping: f64,
}

/// How the board stands to the session's game (the board bridge, `board.rs`, moves it on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum BoardLink {
    /// No local game shows it: none asked for yet, or another local game was started.
    #[default]
    Unbound,
    /// The board was asked to start it from the server's record; the next
    /// [`GameStarted`](crate::game::match_state::GameStarted) is it.
    Starting,
    /// The local game with this [`Match::game_id`] shows it.
    Bound(u64),
}

/// What the network part tells the board bridge, in the order the server said it.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum FromServer {
    /// The session's game was left (or replaced by a rematch): the bridge starts over.
    Left,
    /// The server's whole game came (a welcome, a snapshot): the board is to be compared with
    /// its record; moves waiting or being played are forgotten.
    Record,
    /// The server refused the local move: it is taken back by comparing the board with the
    /// server's record.
    MoveRefused,
    /// A move of the record to play on the board.
    Move(InboundMove),
    /// The local move at `ply` was stored: the board's position after it is to be compared with
    /// the server's `hash`.
    Confirmed { ply: u32, hash: String },
}

/// What the board bridge asks of the network part.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum ToServer {
    /// Send this message (a local move, a resync).
    Send(ClientMessage),
    /// Leave the session's game (another local game was started on the board).
    Leave,
}

/// A move of the server's record, to play on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboundMove {
    pub(super) ply: u32,
    pub(super) notation: String,
    /// The server's hash after the move, when known.
    pub(super) hash: Option<String>,
}

impl Online {
    /// How many seats the game has (0 before the server said).
    pub fn seat_count(&self) -> usize {
        self.seats.len()
    }

    /// Every seat of the game, in seat order.
    pub fn seat_indices(&self) -> impl Iterator<Item = SeatIndex> + use<> {
        (0..self.seats.len()).map(|i| i as SeatIndex)
    }

    /// The seats of the other players (for a spectator: none).
    pub fn others(&self) -> Vec<SeatIndex> {
        match self.seat {
            Some(me) => self.seat_indices().filter(|s| *s != me).collect(),
            None => Vec::new(),
        }
    }

    /// A seat's remaining time now (ms), counting the running clock down since the last
    /// server message.
    pub fn remaining_ms(&self, seat: SeatIndex, now: f64) -> Option<u64> {
        let clocks = self.clocks.as_ref()?;
        let mut ms = *clocks.remaining_ms.get(seat as usize)?;
        if clocks.running == Some(seat) && self.result.is_none() {
            let spent = ((now - self.clocks_at).max(0.0) * 1000.0) as u64;
            ms = ms.saturating_sub(spent);
        }
        Some(ms)
    }

    /// The seat whose clock runs.
    pub fn running(&self) -> Option<SeatIndex> {
        self.clocks.as_ref().and_then(|c| c.running)
    }

    pub fn presence(&self, seat: SeatIndex) -> Option<Presence> {
        self.seats.get(seat as usize).map(|s| s.presence)
    }

    /// How the seat left a game that goes on without it, if it did.
    pub fn left(&self, seat: SeatIndex) -> Option<&SeatLeft> {
        self.left.iter().find(|l| l.seat == seat)
    }

    /// Whether this player plays a seat that has not left the game (a spectator, or a player
    /// whose seat the server's computer took over, only watches).
    pub fn plays(&self) -> bool {
        self.seat.is_some_and(|s| self.left(s).is_none())
    }

    /// The seats still playing: not left (at two seats, both while the game is on).
    pub fn playing_seats(&self) -> Vec<SeatIndex> {
        self.seat_indices()
            .filter(|s| self.left(*s).is_none())
            .collect()
    }

    /// When `seat`'s absence may be claimed (app seconds), while it is gone.
    pub fn claim_at(&self, seat: SeatIndex) -> Option<f64> {
        self.claim_at.get(seat as usize).copied().flatten()
    }

    /// The earliest moment a gone seat may be claimed, while one is gone.
    pub fn first_claim(&self) -> Option<f64> {
        self.claim_at.iter().flatten().copied().reduce(f64::min)
    }

    /// Another seat's pending offer of this kind that this player has not agreed to.
    pub fn offer_to_answer(&self, kind: OfferKind) -> Option<&SeatOffer> {
        let me = self.seat?;
        self.offers
            .iter()
            .find(|o| o.offer == kind && o.by != me && !o.agreed.contains(&me))
    }

    /// An offer of this kind this player made or agreed to, still waiting for the others.
    pub fn own_offer(&self, kind: OfferKind) -> Option<&SeatOffer> {
        let me = self.seat?;
        self.offers
            .iter()
            .find(|o| o.offer == kind && (o.by == me || o.agreed.contains(&me)))
    }

    /// A takeback may be asked at a table of two only (the server refuses it at more).
    pub fn takeback_offered(&self) -> bool {
        self.seat_count() == 2
    }

    /// This player's rating change in the finished rated game.
    pub fn my_rating_change(&self) -> Option<RatingChange> {
        let me = self.seat?;
        self.ratings.as_ref()?.get(me as usize).copied()
    }

    /// Sets when each gone seat may be claimed, from the seats' presence (not this player's
    /// own seat, nor a spectator's).
    pub(super) fn set_claims(&mut self, now: f64) {
        let me = self.seat;
        self.claim_at = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s.presence {
                Presence::Gone { claim_in_ms } if me.is_some() && me != Some(i as SeatIndex) => {
                    Some(now + claim_in_ms as f64 / 1000.0)
                }
                _ => None,
            })
            .collect();
    }

    /// The game is on (both seats taken, not over).
    pub fn is_playing(&self) -> bool {
        self.status == Some(ServerStatus::Playing) && self.result.is_none()
    }

    /// The local game that shows this session's game, if any.
    pub fn bound_game(&self) -> Option<u64> {
        match self.board {
            BoardLink::Bound(game_id) => Some(game_id),
            BoardLink::Unbound | BoardLink::Starting => None,
        }
    }

    /// Whether the local `game` is this session's game.
    pub fn shows(&self, game: &Match) -> bool {
        self.stage == Stage::InGame && self.bound_game() == Some(game.game_id)
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

    pub(super) fn notify(&mut self, kind: NoticeKind, detail: impl Into<String>, now: f64) {
        let detail = detail.into();
        info!("online: {kind:?}: {detail}");
        self.notice = Some(Notice {
            kind,
            detail,
            at: now,
        });
    }

    /// Forgets the game (not the seat record).
    pub(super) fn reset_game(&mut self) {
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

/// The rules' seat of a protocol seat.
pub(super) fn rules_seat(seat: SeatIndex) -> Seat {
    Seat::at(seat as usize)
}
