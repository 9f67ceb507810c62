//! Protocol version 3: games of two to six seats. Every message that named a side names a
//! **seat** here, an index in turn order from 0 (White and Black of the two-seat games are
//! seats 0 and 1), and a result is every seat's **place** rather than a winner.
//!
//! A connection that says hello with `"protocol": 3` gets these messages for every game, of
//! two seats or more; connections of versions 1 and 2 get [`ServerMessage`] as before, for
//! two-seat games only. The client's messages are the same in every version
//! ([`crate::ClientMessage`]).
//!
//! The two forms of a two-seat game's message carry the same facts: [`SeatServerMessage::from`]
//! lifts a version-2 message to version 3, and [`SeatServerMessage::two_seats`] lowers it
//! back (`None` when it names a seat past Black, or more than two seats).
use serde::{Deserialize, Serialize};

use crate::{
    Clocks, EndCause, ErrorCode, GamePlayers, GameResult, GameSnapshot, GameStatus, OfferKind,
    PendingOffer, PlayerInfo, Presence, RatingChange, RatingChanges, SeatState, Seats,
    ServerMessage, Side, SnapshotReason, TimeControl,
};

/// The protocol version of the seat messages: a hello with it gets [`SeatServerMessage`]s.
pub const SEATS_PROTOCOL_VERSION: u32 = 3;

/// A seat: its index in turn order, 0 to 5 (0 is White and 1 Black in the two-seat games).
pub type SeatIndex = u8;

/// The seat of a side.
pub const fn seat_of(side: Side) -> SeatIndex {
    side.index() as SeatIndex
}

/// The side of a seat, for seats 0 and 1.
pub const fn side_of(seat: SeatIndex) -> Option<Side> {
    match seat {
        0 => Some(Side::White),
        1 => Some(Side::Black),
        _ => None,
    }
}

/// Where one seat finished.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placement {
    pub seat: SeatIndex,
    /// 1 for first. Seats that share a place share its number, and the next place counts them
    /// (standard competition ranking: 1, 2, 2, 4).
    pub place: u8,
    /// The seat's team, where the variant has partners (partners share a team number and a
    /// place); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<u8>,
}

/// How a game ended: every seat's place, in seat order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatResult {
    /// One per seat, in seat order. A draw: every seat in first place. An aborted game: every
    /// seat in first place too (and not rated).
    pub placements: Vec<Placement>,
    pub cause: EndCause,
    /// The seat whose resignation, flag fall or absence ended the game (`None` for the other
    /// causes).
    #[serde(default)]
    pub by: Option<SeatIndex>,
    /// The result in English words, for people.
    pub text: String,
}

impl SeatResult {
    /// The seat alone in first place, if one is.
    pub fn winner(&self) -> Option<SeatIndex> {
        let mut first = self.placements.iter().filter(|p| p.place == 1);
        match (first.next(), first.next()) {
            (Some(w), None) => Some(w.seat),
            _ => None,
        }
    }

    /// The seat's place, 1 for first.
    pub fn place_of(&self, seat: SeatIndex) -> Option<u8> {
        self.placements
            .iter()
            .find(|p| p.seat == seat)
            .map(|p| p.place)
    }

    /// Places from each seat's place number, seat by seat, without teams.
    pub fn places(places: &[u8]) -> Vec<Placement> {
        places
            .iter()
            .enumerate()
            .map(|(seat, &place)| Placement {
                seat: seat as SeatIndex,
                place,
                team: None,
            })
            .collect()
    }

    /// A version-2 result as places: the winner first and the loser second, both first for a
    /// draw (and an aborted game).
    pub fn from_two_seats(result: &GameResult) -> SeatResult {
        let places = match result.winner {
            Some(Side::White) => [1, 2],
            Some(Side::Black) => [2, 1],
            None => [1, 1],
        };
        let loser = result.winner.map(Side::other).map(seat_of);
        let by = match result.cause {
            EndCause::Resignation | EndCause::Timeout | EndCause::Abandoned => loser,
            _ => None,
        };
        SeatResult {
            placements: SeatResult::places(&places),
            cause: result.cause.clone(),
            by,
            text: result.text.clone(),
        }
    }

    /// The result as version 2 says it, for a result of two seats (`None` otherwise).
    pub fn two_seats(&self) -> Option<GameResult> {
        if self.placements.len() != 2 || self.placements.iter().any(|p| p.seat > 1) {
            return None;
        }
        Some(GameResult {
            winner: self.winner().and_then(side_of),
            cause: self.cause.clone(),
            text: self.text.clone(),
        })
    }
}

/// The clocks at the moment of the event that carries them: each seat's remaining time, in
/// seat order, and the seat whose clock runs (none before the clocks start, after the game, or
/// untimed).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatClocks {
    pub remaining_ms: Vec<u64>,
    #[serde(default)]
    pub running: Option<SeatIndex>,
}

impl From<Clocks> for SeatClocks {
    fn from(c: Clocks) -> SeatClocks {
        SeatClocks {
            remaining_ms: vec![c.white_ms, c.black_ms],
            running: c.running.map(seat_of),
        }
    }
}

impl SeatClocks {
    /// The clocks as version 2 says them, for two seats (`None` otherwise).
    pub fn two_seats(&self) -> Option<Clocks> {
        let [white_ms, black_ms] = self.remaining_ms[..] else {
            return None;
        };
        let running = match self.running {
            Some(seat) => Some(side_of(seat)?),
            None => None,
        };
        Some(Clocks {
            white_ms,
            black_ms,
            running,
        })
    }
}

/// An offer waiting for answers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatOffer {
    pub offer: OfferKind,
    /// The seat that made it.
    pub by: SeatIndex,
    /// The ply the offer was made at; a move cancels draw and takeback offers.
    pub ply: u32,
    /// The seats that agree so far, the maker first. A draw needs every unfinished seat, a
    /// takeback every other seat.
    #[serde(default)]
    pub agreed: Vec<SeatIndex>,
}

impl From<PendingOffer> for SeatOffer {
    fn from(o: PendingOffer) -> SeatOffer {
        SeatOffer {
            offer: o.offer,
            by: seat_of(o.by),
            ply: o.ply,
            agreed: vec![seat_of(o.by)],
        }
    }
}

/// Who plays a game made in the lobby, seat by seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatPlayers {
    /// One per seat, in seat order, with the rating in the game's variant (and seat count)
    /// when the game was made.
    pub seats: Vec<PlayerInfo>,
    /// The game changes ratings when it ends (unless aborted).
    pub rated: bool,
}

impl From<GamePlayers> for SeatPlayers {
    fn from(p: GamePlayers) -> SeatPlayers {
        SeatPlayers {
            seats: vec![p.white, p.black],
            rated: p.rated,
        }
    }
}

impl SeatPlayers {
    /// The players as version 2 says them, for two seats (`None` otherwise).
    pub fn two_seats(&self) -> Option<GamePlayers> {
        let [white, black] = &self.seats[..] else {
            return None;
        };
        Some(GamePlayers {
            white: white.clone(),
            black: black.clone(),
            rated: self.rated,
        })
    }
}

/// Every seat's rating change of a rated game, in seat order.
fn seat_changes(c: RatingChanges) -> Vec<RatingChange> {
    vec![c.white, c.black]
}

fn two_changes(c: &[RatingChange]) -> Option<RatingChanges> {
    let [white, black] = c else { return None };
    Some(RatingChanges {
        white: *white,
        black: *black,
    })
}

/// A seat that left a game of more than two seats while the others play on: it resigned, its
/// flag fell, or it was gone past the grace period. The server's computer plays it from then
/// on, and its place is settled: last of the seats still playing when it left.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatLeft {
    pub seat: SeatIndex,
    /// Its place, 1 for first (the places of the seats still playing are below nobody's).
    pub place: u8,
    /// The ply it left at: moves played before it left.
    pub ply: u32,
    /// `resignation`, `timeout` or `abandoned`.
    pub cause: EndCause,
}

/// The whole state of a game, seat by seat: [`GameSnapshot`]'s facts with seats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatSnapshot {
    pub game: String,
    pub variant: String,
    pub variant_title: String,
    pub variant_hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_file: Option<String>,
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    pub status: GameStatus,
    #[serde(default)]
    pub result: Option<SeatResult>,
    pub moves: Vec<String>,
    pub ply: u32,
    /// The seat whose turn it is.
    pub to_move: SeatIndex,
    pub hash: String,
    #[serde(default)]
    pub clocks: Option<SeatClocks>,
    /// One per seat, in seat order: how many seats the game has.
    pub seats: Vec<SeatState>,
    #[serde(default)]
    pub offers: Vec<SeatOffer>,
    #[serde(default)]
    pub spectators: u32,
    #[serde(default)]
    pub rematch: Option<String>,
    #[serde(default)]
    pub rematch_of: Option<String>,
    /// The accounts playing a game made in the lobby (`None` for invite games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<SeatPlayers>,
    /// How a finished rated game changed each seat's rating, in seat order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<Vec<RatingChange>>,
    /// The seats that left a game of more than two seats while it went on, in the order they
    /// left (absent when none did).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left: Vec<SeatLeft>,
}

impl From<GameSnapshot> for SeatSnapshot {
    fn from(g: GameSnapshot) -> SeatSnapshot {
        SeatSnapshot {
            game: g.game,
            variant: g.variant,
            variant_title: g.variant_title,
            variant_hash: g.variant_hash,
            variant_file: g.variant_file,
            time_control: g.time_control,
            status: g.status,
            result: g.result.as_ref().map(SeatResult::from_two_seats),
            moves: g.moves,
            ply: g.ply,
            to_move: seat_of(g.side_to_move),
            hash: g.hash,
            clocks: g.clocks.map(SeatClocks::from),
            seats: vec![g.seats.white, g.seats.black],
            offers: g.offers.into_iter().map(SeatOffer::from).collect(),
            spectators: g.spectators,
            rematch: g.rematch,
            rematch_of: g.rematch_of,
            players: g.players.map(SeatPlayers::from),
            ratings: g.ratings.map(seat_changes),
            left: Vec::new(),
        }
    }
}

impl SeatSnapshot {
    /// How many seats the game has.
    pub fn seat_count(&self) -> usize {
        self.seats.len()
    }

    /// The snapshot as version 2 says it, for a game of two seats (`None` otherwise).
    pub fn two_seats(&self) -> Option<GameSnapshot> {
        let [white, black] = self.seats[..] else {
            return None;
        };
        if !self.left.is_empty() {
            return None;
        }
        Some(GameSnapshot {
            game: self.game.clone(),
            variant: self.variant.clone(),
            variant_title: self.variant_title.clone(),
            variant_hash: self.variant_hash.clone(),
            variant_file: self.variant_file.clone(),
            time_control: self.time_control,
            status: self.status,
            result: match &self.result {
                Some(r) => Some(r.two_seats()?),
                None => None,
            },
            moves: self.moves.clone(),
            ply: self.ply,
            side_to_move: side_of(self.to_move)?,
            hash: self.hash.clone(),
            clocks: match &self.clocks {
                Some(c) => Some(c.two_seats()?),
                None => None,
            },
            seats: Seats { white, black },
            offers: self
                .offers
                .iter()
                .map(|o| {
                    Some(PendingOffer {
                        offer: o.offer,
                        by: side_of(o.by)?,
                        ply: o.ply,
                    })
                })
                .collect::<Option<_>>()?,
            spectators: self.spectators,
            rematch: self.rematch.clone(),
            rematch_of: self.rematch_of.clone(),
            players: match &self.players {
                Some(p) => Some(p.two_seats()?),
                None => None,
            },
            ratings: match &self.ratings {
                Some(r) => Some(two_changes(r)?),
                None => None,
            },
        })
    }
}

/// A message from the server to a connection of protocol 3. JSON: `{"type": "<name>", …}`,
/// the same types as version 2, with seats for sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum SeatServerMessage {
    /// The answer to a good hello.
    Welcome {
        protocol: u32,
        server: String,
        /// The seat this connection plays; `None` for a spectator.
        you: Option<SeatIndex>,
        game: SeatSnapshot,
        /// The invite for an open seat, sent to the creator while a seat is open.
        #[serde(default)]
        invite: Option<String>,
        grace_ms: u64,
        idle_timeout_ms: u64,
    },
    /// The whole game again.
    Snapshot {
        reason: SnapshotReason,
        game: SeatSnapshot,
    },
    /// A move was stored and played.
    Moved {
        ply: u32,
        notation: String,
        /// Who played it.
        seat: SeatIndex,
        hash: String,
        #[serde(default)]
        clocks: Option<SeatClocks>,
        #[serde(default)]
        result: Option<SeatResult>,
    },
    /// The game is over.
    GameOver {
        result: SeatResult,
        #[serde(default)]
        clocks: Option<SeatClocks>,
        /// Each seat's rating change, in seat order, when the game was rated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ratings: Option<Vec<RatingChange>>,
    },
    /// A seat's connection state changed.
    Presence {
        seat: SeatIndex,
        presence: Presence,
    },
    /// A seat made an offer, or agreed to one (`by`).
    Offer {
        offer: OfferKind,
        by: SeatIndex,
        ply: u32,
    },
    /// An offer was declined, or withdrawn by its maker (`by` is who did it).
    OfferDeclined {
        offer: OfferKind,
        by: SeatIndex,
    },
    /// The rematch's id.
    Rematch {
        game: String,
    },
    Spectators {
        count: u32,
    },
    Pong {
        n: u64,
    },
    /// A request was refused, or the connection is about to be closed (`fatal`).
    Error {
        code: ErrorCode,
        message: String,
        #[serde(default)]
        ply: Option<u32>,
        #[serde(default)]
        fatal: bool,
    },
}

impl From<ServerMessage> for SeatServerMessage {
    /// A version-2 message as version 3 says it. A welcome says protocol 3: it is what a
    /// connection of protocol 3 gets.
    fn from(m: ServerMessage) -> SeatServerMessage {
        use SeatServerMessage as S;
        use ServerMessage as M;
        match m {
            M::Welcome {
                protocol: _,
                server,
                you,
                game,
                invite,
                grace_ms,
                idle_timeout_ms,
            } => S::Welcome {
                protocol: SEATS_PROTOCOL_VERSION,
                server,
                you: you.map(seat_of),
                game: game.into(),
                invite,
                grace_ms,
                idle_timeout_ms,
            },
            M::Snapshot { reason, game } => S::Snapshot {
                reason,
                game: game.into(),
            },
            M::Moved {
                ply,
                notation,
                side,
                hash,
                clocks,
                result,
            } => S::Moved {
                ply,
                notation,
                seat: seat_of(side),
                hash,
                clocks: clocks.map(SeatClocks::from),
                result: result.as_ref().map(SeatResult::from_two_seats),
            },
            M::GameOver {
                result,
                clocks,
                ratings,
            } => S::GameOver {
                result: SeatResult::from_two_seats(&result),
                clocks: clocks.map(SeatClocks::from),
                ratings: ratings.map(seat_changes),
            },
            M::Presence { side, presence } => S::Presence {
                seat: seat_of(side),
                presence,
            },
            M::Offer { offer, by, ply } => S::Offer {
                offer,
                by: seat_of(by),
                ply,
            },
            M::OfferDeclined { offer, by } => S::OfferDeclined {
                offer,
                by: seat_of(by),
            },
            M::Rematch { game } => S::Rematch { game },
            M::Spectators { count } => S::Spectators { count },
            M::Pong { n } => S::Pong { n },
            M::Error {
                code,
                message,
                ply,
                fatal,
            } => S::Error {
                code,
                message,
                ply,
                fatal,
            },
        }
    }
}

impl SeatServerMessage {
    /// The message as a JSON text frame.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages always serialise")
    }

    /// The message as version 2 says it (a welcome says `protocol`), for a game of two seats:
    /// `None` when it names a seat past Black or another number of seats.
    pub fn two_seats(&self, protocol: u32) -> Option<ServerMessage> {
        use SeatServerMessage as S;
        use ServerMessage as M;
        let clocks = |c: &Option<SeatClocks>| match c {
            Some(c) => c.two_seats().map(Some),
            None => Some(None),
        };
        Some(match self {
            S::Welcome {
                protocol: _,
                server,
                you,
                game,
                invite,
                grace_ms,
                idle_timeout_ms,
            } => M::Welcome {
                protocol,
                server: server.clone(),
                you: match you {
                    Some(seat) => Some(side_of(*seat)?),
                    None => None,
                },
                game: game.two_seats()?,
                invite: invite.clone(),
                grace_ms: *grace_ms,
                idle_timeout_ms: *idle_timeout_ms,
            },
            S::Snapshot { reason, game } => M::Snapshot {
                reason: match reason {
                    SnapshotReason::SeatLeft | SnapshotReason::SeatJoined => return None,
                    other => *other,
                },
                game: game.two_seats()?,
            },
            S::Moved {
                ply,
                notation,
                seat,
                hash,
                clocks: c,
                result,
            } => M::Moved {
                ply: *ply,
                notation: notation.clone(),
                side: side_of(*seat)?,
                hash: hash.clone(),
                clocks: clocks(c)?,
                result: match result {
                    Some(r) => Some(r.two_seats()?),
                    None => None,
                },
            },
            S::GameOver {
                result,
                clocks: c,
                ratings,
            } => M::GameOver {
                result: result.two_seats()?,
                clocks: clocks(c)?,
                ratings: match ratings {
                    Some(r) => Some(two_changes(r)?),
                    None => None,
                },
            },
            S::Presence { seat, presence } => M::Presence {
                side: side_of(*seat)?,
                presence: *presence,
            },
            S::Offer { offer, by, ply } => M::Offer {
                offer: *offer,
                by: side_of(*by)?,
                ply: *ply,
            },
            S::OfferDeclined { offer, by } => M::OfferDeclined {
                offer: *offer,
                by: side_of(*by)?,
            },
            S::Rematch { game } => M::Rematch { game: game.clone() },
            S::Spectators { count } => M::Spectators { count: *count },
            S::Pong { n } => M::Pong { n: *n },
            S::Error {
                code,
                message,
                ply,
                fatal,
            } => M::Error {
                code: *code,
                message: message.clone(),
                ply: *ply,
                fatal: *fatal,
            },
        })
    }
}

/// Reads a version-3 server message (for clients of protocol 3).
pub fn parse_seat_server_message(text: &str) -> Result<SeatServerMessage, serde_json::Error> {
    serde_json::from_str(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RatingShort, parse_server_message};

    fn player(name: &str) -> PlayerInfo {
        PlayerInfo {
            name: name.into(),
            rating: Some(RatingShort {
                rating: 1500,
                provisional: true,
            }),
            bot: false,
            guest: true,
        }
    }

    fn change(before: i32, after: i32) -> RatingChange {
        let short = |rating| RatingShort {
            rating,
            provisional: false,
        };
        RatingChange {
            before: short(before),
            after: short(after),
        }
    }

    impl SeatSnapshot {
        fn to_json_text(&self) -> String {
            serde_json::to_string(self).unwrap()
        }
    }

    /// A two-seat snapshot with every field set.
    fn snapshot() -> GameSnapshot {
        let seat = SeatState {
            joined: true,
            presence: Presence::Gone { claim_in_ms: 500 },
        };
        GameSnapshot {
            game: "g1".into(),
            variant: "ugolki-hg-3x3".into(),
            variant_title: "Ugolki".into(),
            variant_hash: "0123456789abcdef".into(),
            variant_file: Some("(name: \"x\")".into()),
            time_control: Some(TimeControl::minutes(5, 3)),
            status: GameStatus::Finished,
            result: Some(resigned()),
            moves: vec!["b3-b4".into()],
            ply: 1,
            side_to_move: Side::Black,
            hash: "00000000000000ff".into(),
            clocks: Some(Clocks {
                white_ms: 1,
                black_ms: 2,
                running: Some(Side::Black),
            }),
            seats: Seats {
                white: seat,
                black: SeatState {
                    joined: false,
                    presence: Presence::Absent,
                },
            },
            offers: vec![PendingOffer {
                offer: OfferKind::Rematch,
                by: Side::White,
                ply: 1,
            }],
            spectators: 2,
            rematch: Some("g2".into()),
            rematch_of: Some("g0".into()),
            players: Some(GamePlayers {
                white: player("a"),
                black: player("b"),
                rated: true,
            }),
            ratings: Some(RatingChanges {
                white: change(1500, 1612),
                black: change(1500, 1388),
            }),
        }
    }

    fn resigned() -> GameResult {
        GameResult {
            winner: Some(Side::White),
            cause: EndCause::Resignation,
            text: "White wins: Black resigned".into(),
        }
    }

    /// Every version-2 message of a two-seat game, with every field used.
    fn two_seat_messages() -> Vec<ServerMessage> {
        let drawn = GameResult {
            winner: None,
            cause: EndCause::DrawAgreed,
            text: "Draw".into(),
        };
        let mut plain = snapshot();
        plain.result = None;
        plain.clocks = None;
        plain.players = None;
        plain.ratings = None;
        plain.variant_file = None;
        vec![
            ServerMessage::Welcome {
                protocol: 2,
                server: "s".into(),
                you: Some(Side::Black),
                game: snapshot(),
                invite: Some("inv".into()),
                grace_ms: 60_000,
                idle_timeout_ms: 30_000,
            },
            ServerMessage::Welcome {
                protocol: 1,
                server: "s".into(),
                you: None,
                game: plain.clone(),
                invite: None,
                grace_ms: 1,
                idle_timeout_ms: 2,
            },
            ServerMessage::Snapshot {
                reason: SnapshotReason::Takeback,
                game: plain,
            },
            ServerMessage::Moved {
                ply: 3,
                notation: "b3-b4".into(),
                side: Side::Black,
                hash: "00000000000000ff".into(),
                clocks: Some(Clocks {
                    white_ms: 10,
                    black_ms: 20,
                    running: None,
                }),
                result: Some(GameResult {
                    winner: Some(Side::Black),
                    cause: EndCause::Rules {
                        rule: "target_filled".into(),
                    },
                    text: "Black wins".into(),
                }),
            },
            ServerMessage::GameOver {
                result: resigned(),
                clocks: None,
                ratings: Some(RatingChanges {
                    white: change(1500, 1612),
                    black: change(1500, 1388),
                }),
            },
            ServerMessage::GameOver {
                result: drawn,
                clocks: None,
                ratings: None,
            },
            ServerMessage::GameOver {
                result: GameResult {
                    winner: Some(Side::Black),
                    cause: EndCause::Abandoned,
                    text: "Black wins: White left".into(),
                },
                clocks: None,
                ratings: None,
            },
            ServerMessage::GameOver {
                result: GameResult {
                    winner: None,
                    cause: EndCause::Aborted,
                    text: "Aborted".into(),
                },
                clocks: None,
                ratings: None,
            },
            ServerMessage::Presence {
                side: Side::White,
                presence: Presence::Present,
            },
            ServerMessage::Offer {
                offer: OfferKind::Draw,
                by: Side::Black,
                ply: 4,
            },
            ServerMessage::OfferDeclined {
                offer: OfferKind::Takeback,
                by: Side::White,
            },
            ServerMessage::Rematch { game: "g2".into() },
            ServerMessage::Spectators { count: 3 },
            ServerMessage::Pong { n: 9 },
            ServerMessage::error(ErrorCode::NotYourTurn, "wait"),
        ]
    }

    #[test]
    fn two_seat_messages_lift_to_seats_and_lower_back_unchanged() {
        for m in two_seat_messages() {
            let protocol = match &m {
                ServerMessage::Welcome { protocol, .. } => *protocol,
                _ => 2,
            };
            let lifted = SeatServerMessage::from(m.clone());
            assert_eq!(lifted.two_seats(protocol), Some(m.clone()), "{lifted:?}");
            // And the version-2 text of the lowered message is the original's, byte for byte.
            assert_eq!(lifted.two_seats(protocol).unwrap().to_json(), m.to_json());
        }
    }

    #[test]
    fn seat_messages_round_trip_through_json() {
        let mut all: Vec<SeatServerMessage> = two_seat_messages()
            .into_iter()
            .map(SeatServerMessage::from)
            .collect();
        all.push(three_seat_game_over());
        all.push(SeatServerMessage::Moved {
            ply: 7,
            notation: "m3-l4".into(),
            seat: 2,
            hash: "00000000000000aa".into(),
            clocks: Some(SeatClocks {
                remaining_ms: vec![1, 2, 3],
                running: Some(0),
            }),
            result: None,
        });
        for m in all {
            let text = m.to_json();
            assert_eq!(parse_seat_server_message(&text).unwrap(), m, "{text}");
        }
    }

    fn three_seat_game_over() -> SeatServerMessage {
        SeatServerMessage::GameOver {
            result: SeatResult {
                placements: SeatResult::places(&[2, 1, 3]),
                cause: EndCause::Rules {
                    rule: "target_filled".into(),
                },
                by: None,
                text: "Seat 2 first, seat 1 second, seat 3 third".into(),
            },
            clocks: None,
            ratings: Some(vec![
                change(1500, 1510),
                change(1500, 1560),
                change(1500, 1430),
            ]),
        }
    }

    #[test]
    fn a_seat_past_black_or_a_third_seat_has_no_version_2_form() {
        assert_eq!(three_seat_game_over().two_seats(2), None);
        let presence = SeatServerMessage::Presence {
            seat: 2,
            presence: Presence::Present,
        };
        assert_eq!(presence.two_seats(2), None);
        let mut three = SeatSnapshot::from(snapshot());
        three.seats.push(three.seats[0]);
        assert_eq!(three.two_seats(), None);
        assert_eq!(three.seat_count(), 3);
    }

    /// A seat that left: listed in the snapshot (absent when none did), told by a snapshot
    /// whose reason version 2 does not have.
    #[test]
    fn seats_that_left() {
        let mut three = SeatSnapshot::from(snapshot());
        three.seats.push(three.seats[0]);
        assert!(
            !three.to_json_text().contains("\"left\""),
            "absent when none left"
        );
        three.left.push(SeatLeft {
            seat: 2,
            place: 3,
            ply: 9,
            cause: EndCause::Resignation,
        });
        let text = three.to_json_text();
        assert!(
            text.contains(
                r#""left":[{"seat":2,"place":3,"ply":9,"cause":{"kind":"resignation"}}]"#
            ),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<SeatSnapshot>(&text).unwrap(), three);
        for reason in [SnapshotReason::SeatLeft, SnapshotReason::SeatJoined] {
            let m = SeatServerMessage::Snapshot {
                reason,
                game: SeatSnapshot::from(snapshot()),
            };
            assert_eq!(m.two_seats(2), None, "{reason:?}");
            assert_eq!(parse_seat_server_message(&m.to_json()).unwrap(), m);
        }
        let mut two = SeatSnapshot::from(snapshot());
        two.left = three.left.clone();
        assert_eq!(
            two.two_seats(),
            None,
            "version 2 cannot tell of a seat that left"
        );
    }

    #[test]
    fn results_are_places() {
        let lifted = SeatResult::from_two_seats(&resigned());
        assert_eq!(lifted.placements, SeatResult::places(&[1, 2]));
        assert_eq!(lifted.by, Some(1));
        assert_eq!(lifted.winner(), Some(0));
        let drawn = SeatResult::from_two_seats(&GameResult {
            winner: None,
            cause: EndCause::DrawAgreed,
            text: String::new(),
        });
        assert_eq!(drawn.winner(), None);
        assert_eq!(drawn.place_of(1), Some(1));
        let SeatServerMessage::GameOver { result, .. } = three_seat_game_over() else {
            unreachable!()
        };
        assert_eq!(result.winner(), Some(1));
        assert_eq!(result.place_of(2), Some(3));
    }

    /// The version-3 forms as docs/protocol.md shows them.
    #[test]
    fn the_documented_shapes() {
        let moved = SeatServerMessage::Moved {
            ply: 4,
            notation: "m3-l4".into(),
            seat: 2,
            hash: "00000000000000aa".into(),
            clocks: Some(SeatClocks {
                remaining_ms: vec![300_000, 298_000, 299_500],
                running: Some(0),
            }),
            result: None,
        };
        assert_eq!(
            moved.to_json(),
            r#"{"type":"moved","ply":4,"notation":"m3-l4","seat":2,"hash":"00000000000000aa","clocks":{"remaining_ms":[300000,298000,299500],"running":0},"result":null}"#
        );
        let over = SeatServerMessage::GameOver {
            result: SeatResult {
                placements: vec![
                    Placement {
                        seat: 0,
                        place: 1,
                        team: Some(0),
                    },
                    Placement {
                        seat: 1,
                        place: 3,
                        team: Some(1),
                    },
                    Placement {
                        seat: 2,
                        place: 1,
                        team: Some(0),
                    },
                    Placement {
                        seat: 3,
                        place: 3,
                        team: Some(1),
                    },
                ],
                cause: EndCause::Rules {
                    rule: "target_filled".into(),
                },
                by: None,
                text: "Seats 1 and 3 win".into(),
            },
            clocks: None,
            ratings: None,
        };
        assert_eq!(
            over.to_json(),
            r#"{"type":"game_over","result":{"placements":[{"seat":0,"place":1,"team":0},{"seat":1,"place":3,"team":1},{"seat":2,"place":1,"team":0},{"seat":3,"place":3,"team":1}],"cause":{"kind":"rules","rule":"target_filled"},"by":null,"text":"Seats 1 and 3 win"},"clocks":null}"#
        );
    }

    /// Version 2's text is what it was before version 3: these frames were written by the
    /// version-2 server, and parse and serialise to the same bytes.
    #[test]
    fn version_2_frames_are_unchanged() {
        let frames = [
            r#"{"type":"moved","ply":0,"notation":"b3-b4","side":"white","hash":"00000000000000ff","clocks":{"white_ms":300000,"black_ms":300000,"running":"black"},"result":null}"#,
            r#"{"type":"game_over","result":{"winner":"white","cause":{"kind":"abandoned"},"text":"White wins: Black left the game"},"clocks":null}"#,
            r#"{"type":"game_over","result":{"winner":null,"cause":{"kind":"draw_agreed"},"text":"Draw"},"clocks":null,"ratings":{"white":{"before":{"rating":1500,"provisional":true},"after":{"rating":1500,"provisional":true}},"black":{"before":{"rating":1500,"provisional":true},"after":{"rating":1500,"provisional":true}}}}"#,
            r#"{"type":"presence","side":"black","presence":{"status":"gone","claim_in_ms":60000}}"#,
            r#"{"type":"offer","offer":"draw","by":"white","ply":12}"#,
            r#"{"type":"offer_declined","offer":"takeback","by":"black"}"#,
            r#"{"type":"snapshot","reason":"started","game":{"game":"q7nd2kfa9xwe","variant":"ugolki-hg-3x3","variant_title":"Ugolki","variant_hash":"0123456789abcdef","time_control":null,"status":"playing","result":null,"moves":[],"ply":0,"side_to_move":"white","hash":"00000000000000ff","clocks":null,"seats":{"white":{"joined":true,"presence":{"status":"present"}},"black":{"joined":true,"presence":{"status":"absent"}}},"offers":[],"spectators":0,"rematch":null,"rematch_of":null}}"#,
        ];
        for frame in frames {
            let m = parse_server_message(frame).unwrap();
            assert_eq!(m.to_json(), frame);
            // Through version 3 and back: the same bytes.
            let lowered = SeatServerMessage::from(m).two_seats(2).unwrap();
            assert_eq!(lowered.to_json(), frame);
        }
    }
}
