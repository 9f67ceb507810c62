//! The lobby (protocol 2): where strangers meet. A websocket at [`LOBBY_PATH`] carries seeks,
//! quick-pairing pools, challenges and the counts of players and games; a pairing ends in a
//! [`LobbyServerMessage::Paired`] that names a game and the player's seat token, and the game
//! itself is then played over the game websocket (`/ws?game=…`) exactly as an invite game.
//!
//! - The connection is signed in: the session cookie (browsers, same origin) or the `token` of
//!   the hello (the desktop game and bots: the session token of `POST /api/accounts/guest` or
//!   `POST /api/session`). A lobby connection without an account is refused (`not_signed_in`).
//! - A player who closes every lobby connection leaves the pools; their seeks stay for a short
//!   grace (a reload or a reconnect keeps them) and are then removed.
//! - Ratings are Glicko-2 per variant, shown rounded; a rating is **provisional** ("1500?")
//!   while its deviation is above [`PROVISIONAL_DEVIATION`].
//! - **Lobby protocol 3** adds the tables of more than two, additively: a pool and a seek may
//!   have `seats` (absent: two), a table's seek lists its `seated` players and fills one seat
//!   at a time (`accept_seek`, `leave_seek`), and a full table ends in
//!   [`LobbyServerMessage::Seated`] (a seat and its token) instead of `paired`. A client of
//!   protocol 2 is shown none of it.
use serde::{Deserialize, Serialize};

use crate::{ColorChoice, ErrorCode, SeatIndex, SeatPlayers, Side, TimeControl, http::AccountInfo};

/// The lobby websocket's path on the server.
pub const LOBBY_PATH: &str = "/lobby";

/// A rating whose deviation is above this is provisional (lichess's threshold).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A rating of games of more than two seats (Weng-Lin, σ from 500) is provisional while its
/// deviation is above this: half the start, some ten games.
pub const PROVISIONAL_DEVIATION_SEATS: f64 = 250.0;

/// The deviation above which a rating of games of `seats` seats is provisional.
pub const fn provisional_deviation(seats: u8) -> f64 {
    if seats == 2 {
        PROVISIONAL_DEVIATION
    } else {
        PROVISIONAL_DEVIATION_SEATS
    }
}

/// A rating as shown: rounded, and whether it is provisional.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RatingShort {
    pub rating: i32,
    pub provisional: bool,
}

impl std::fmt::Display for RatingShort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.rating)?;
        if self.provisional {
            f.write_str("?")?;
        }
        Ok(())
    }
}

/// A player as others see them in the lobby, a game or the archive.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerInfo {
    pub name: String,
    /// The rating in the variant at hand (`None` where no variant is at hand).
    #[serde(default)]
    pub rating: Option<RatingShort>,
    /// A computer player.
    #[serde(default)]
    pub bot: bool,
    /// A guest (no password, no Telegram link).
    #[serde(default)]
    pub guest: bool,
}

/// One variant's rating of a player (profiles, the welcome).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub variant: String,
    /// Glicko-2 rating (1500 to start); for more than two seats, Weng-Lin's μ on Glicko's
    /// scale (1500 to start).
    pub rating: f64,
    /// Glicko-2 rating deviation (350 to start); for more than two seats, Weng-Lin's σ on
    /// Glicko's scale (500 to start).
    pub deviation: f64,
    /// Glicko-2's volatility (0 for more than two seats).
    pub volatility: f64,
    /// Rated games played in the variant (with this number of seats).
    pub games: u32,
    /// Protocol 3: the number of seats of the games rated (absent for two, as before).
    #[serde(default = "two_seats", skip_serializing_if = "is_two_seats")]
    pub seats: u8,
}

/// Two seats: what a rating without a `seats` field is for.
pub(crate) const fn two_seats() -> u8 {
    2
}

pub(crate) const fn is_two_seats(seats: &u8) -> bool {
    *seats == 2
}

impl Rating {
    pub fn provisional(&self) -> bool {
        self.deviation > provisional_deviation(self.seats)
    }

    pub fn short(&self) -> RatingShort {
        RatingShort {
            rating: self.rating.round() as i32,
            provisional: self.provisional(),
        }
    }
}

/// One player's rating before and after a rated game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RatingChange {
    pub before: RatingShort,
    pub after: RatingShort,
}

impl RatingChange {
    /// `after - before`, as shown ("+12", "−8").
    pub fn delta(&self) -> i32 {
        self.after.rating - self.before.rating
    }
}

/// Both players' rating changes of a rated game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RatingChanges {
    pub white: RatingChange,
    pub black: RatingChange,
}

impl RatingChanges {
    pub fn get(&self, side: Side) -> &RatingChange {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }
}

/// Who plays a game that was made in the lobby (account games; invite games have none).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GamePlayers {
    pub white: PlayerInfo,
    pub black: PlayerInfo,
    /// The game changes ratings when it ends (unless aborted).
    pub rated: bool,
}

impl GamePlayers {
    pub fn get(&self, side: Side) -> &PlayerInfo {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }
}

/// A quick-pairing pool: a variant and a clock. Players in one pool are paired with each other
/// by rating, the range widening the longer they wait; pool games are rated and the colours
/// drawn.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PoolKey {
    pub variant: String,
    pub time_control: TimeControl,
    /// Protocol 3: the number of seats of the pool's tables (absent for two, as before).
    #[serde(default = "two_seats", skip_serializing_if = "is_two_seats")]
    pub seats: u8,
}

impl PoolKey {
    /// A two-seat pool.
    pub fn new(variant: impl Into<String>, time_control: TimeControl) -> PoolKey {
        PoolKey {
            variant: variant.into(),
            time_control,
            seats: 2,
        }
    }

    /// `ugolki-9qum 300+3` (initial time and increment in seconds), and for a table of more
    /// than two its seats (`chinese-checkers 300+3 x6`): how logs and the lobby's tables name
    /// a pool. People see it in minutes (`5+3`), which the clients write.
    pub fn id(&self) -> String {
        let mut id = format!(
            "{} {}+{}",
            self.variant,
            self.time_control.initial_ms / 1000,
            self.time_control.increment_ms / 1000
        );
        if self.seats != 2 {
            id.push_str(&format!(" x{}", self.seats));
        }
        id
    }
}

/// A pool as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PoolInfo {
    pub pool: PoolKey,
    /// The variant's title, for people.
    pub variant_title: String,
    /// Players waiting in it now (on every node).
    pub waiting: u32,
}

/// An open seek: a game anyone may accept.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seek {
    pub id: String,
    pub variant: String,
    pub variant_title: String,
    /// `None`: untimed.
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    pub rated: bool,
    /// The seeker's colour.
    pub color: ColorChoice,
    pub by: PlayerInfo,
    /// Protocol 3: the seats of the table (absent for two, as before).
    #[serde(default = "two_seats", skip_serializing_if = "is_two_seats")]
    pub seats: u8,
    /// Protocol 3, a table of more than two: the players seated so far, the seeker first, in
    /// the order they sat down (the seats are drawn when the table is full).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seated: Vec<PlayerInfo>,
}

/// A direct challenge from one player to another.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Challenge {
    pub id: String,
    pub from: PlayerInfo,
    pub to: PlayerInfo,
    pub variant: String,
    pub variant_title: String,
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    pub rated: bool,
    /// The challenger's colour.
    pub color: ColorChoice,
}

/// Why a challenge left the list.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeEnd {
    Accepted,
    Declined,
    /// Withdrawn by the challenger.
    Cancelled,
    /// The challenger left, or it waited too long.
    Expired,
}

/// The counts the lobby shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct LobbyCounts {
    /// Signed-in players with a lobby or game connection open (every node).
    pub players: u32,
    /// Games being played now (every node).
    pub games: u32,
}

/// What a seek or a challenge asks for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameTerms {
    /// A shipped variant's name.
    pub variant: String,
    /// `None`: untimed (untimed games are never rated).
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    #[serde(default)]
    pub rated: bool,
    /// The asker's colour (default `random`). At a table of more than two the seats are
    /// drawn and this is not read.
    #[serde(default)]
    pub color: ColorChoice,
    /// Protocol 3, seeks only: the seats of the table, 2 to 6 (absent: two).
    #[serde(default = "two_seats", skip_serializing_if = "is_two_seats")]
    pub seats: u8,
}

/// A message from a lobby client. JSON: `{"type": "<name>", …fields}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum LobbyClientMessage {
    /// The first message: protocol 2, and the session token unless the cookie carries it.
    Hello {
        protocol: u32,
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        client: Option<String>,
    },
    /// Open a seek (answered by `seek_added` to everyone, the seeker included).
    Seek { terms: GameTerms },
    /// Remove one's own seek.
    CancelSeek { id: String },
    /// Accept someone else's seek: both get `paired`. A seek of more than two seats: take
    /// a seat at it (answered by `seek_added` with the seek as it is now); the one who takes
    /// the last seat starts the game, and every seated player gets `seated`.
    AcceptSeek { id: String },
    /// Protocol 3: give back one's seat at a seek of more than two seats that is not full
    /// (its seeker cancels it instead).
    LeaveSeek { id: String },
    /// Wait in a quick-pairing pool (answered by `pool_joined`). One pool at a time: joining
    /// another leaves the first.
    JoinPool { pool: PoolKey },
    /// Stop waiting (answered by `pool_left`).
    LeavePool,
    /// Challenge the player named `to` (answered by `challenge` to both).
    Challenge { to: String, terms: GameTerms },
    /// Accept a challenge made to oneself: both get `paired`.
    AcceptChallenge { id: String },
    /// Decline a challenge made to oneself.
    DeclineChallenge { id: String },
    /// Withdraw one's own challenge.
    CancelChallenge { id: String },
    /// Keep-alive, answered with `pong`.
    Ping {
        #[serde(default)]
        n: u64,
    },
}

/// A message from the server on the lobby websocket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum LobbyServerMessage {
    /// The answer to the hello: who the connection is and the whole lobby.
    Welcome {
        protocol: u32,
        server: String,
        account: AccountInfo,
        /// The account's ratings (variants it has played rated games in).
        ratings: Vec<Rating>,
        /// Every quick-pairing pool this server offers, in the order to show them.
        pools: Vec<PoolInfo>,
        /// The pool this account waits in (another connection of the same account may have
        /// joined it).
        #[serde(default)]
        waiting_in: Option<PoolKey>,
        /// Every open seek.
        seeks: Vec<Seek>,
        /// Challenges from or to this account.
        challenges: Vec<Challenge>,
        /// This account's games that are being played now (to go back to).
        playing: Vec<String>,
        counts: LobbyCounts,
    },
    SeekAdded {
        seek: Seek,
    },
    /// A seek was accepted, cancelled or expired.
    SeekRemoved {
        id: String,
    },
    /// This account waits in `pool`.
    PoolJoined {
        pool: PoolKey,
    },
    /// This account no longer waits in a pool (left, paired, or its connection closed).
    PoolLeft,
    /// The numbers waiting in the pools changed.
    Pools {
        pools: Vec<PoolInfo>,
    },
    /// A challenge from or to this account, new.
    Challenge {
        challenge: Challenge,
    },
    ChallengeRemoved {
        id: String,
        why: ChallengeEnd,
    },
    Counts {
        counts: LobbyCounts,
    },
    /// A game was made for this account (a seek, a pool, a challenge): join it over the game
    /// websocket (`ws_path` + `?game=` + `game`) with `token`, protocol 2.
    Paired {
        game: String,
        /// This account's side.
        color: Side,
        /// The seat token (a secret, as in `GameCreated`).
        token: String,
        players: GamePlayers,
        variant: String,
        #[serde(default)]
        time_control: Option<TimeControl>,
        ws_path: String,
    },
    /// Protocol 3: a game of more than two seats was made for this account (a full seek, a
    /// pool's table): join it over the game websocket (`ws_path` + `?game=` + `game`) with
    /// `token`, protocol 3.
    Seated {
        game: String,
        /// This account's seat.
        seat: SeatIndex,
        /// The seat token (a secret, as in `GameCreated`).
        token: String,
        /// Every seat's player, in seat order (computer players marked `bot`).
        players: SeatPlayers,
        variant: String,
        #[serde(default)]
        time_control: Option<TimeControl>,
        ws_path: String,
    },
    Pong {
        n: u64,
    },
    /// A request was refused (nothing changed), or the connection is about to close (`fatal`).
    Error {
        code: ErrorCode,
        message: String,
        #[serde(default)]
        fatal: bool,
    },
}

/// The message types a lobby client may send.
const LOBBY_CLIENT_TYPES: &[&str] = &[
    "hello",
    "seek",
    "cancel_seek",
    "accept_seek",
    "leave_seek",
    "join_pool",
    "leave_pool",
    "challenge",
    "accept_challenge",
    "decline_challenge",
    "cancel_challenge",
    "ping",
];

/// Reads one lobby text frame (server side). Never panics, whatever the input.
pub fn parse_lobby_client_message(
    text: &str,
    max_bytes: usize,
) -> Result<LobbyClientMessage, crate::ParseError> {
    crate::client::parse_tagged(text, max_bytes, LOBBY_CLIENT_TYPES)
}

/// Reads a lobby server message (clients).
pub fn parse_lobby_server_message(text: &str) -> Result<LobbyServerMessage, serde_json::Error> {
    serde_json::from_str(text)
}

impl LobbyClientMessage {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("lobby messages always serialise")
    }
}

impl LobbyServerMessage {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("lobby messages always serialise")
    }

    /// A non-fatal error.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> LobbyServerMessage {
        LobbyServerMessage::Error {
            code,
            message: message.into(),
            fatal: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: usize = crate::DEFAULT_MAX_FRAME_BYTES;

    fn terms() -> GameTerms {
        GameTerms {
            variant: "ugolki-9qum".into(),
            time_control: Some(TimeControl::minutes(5, 3)),
            rated: true,
            color: ColorChoice::Random,
            seats: 2,
        }
    }

    #[test]
    fn every_client_message_round_trips() {
        let pool = PoolKey::new("ugolki-9qum", TimeControl::minutes(3, 2));
        let all = [
            LobbyClientMessage::Hello {
                protocol: 2,
                token: Some("t".into()),
                client: None,
            },
            LobbyClientMessage::Seek { terms: terms() },
            LobbyClientMessage::CancelSeek { id: "s".into() },
            LobbyClientMessage::AcceptSeek { id: "s".into() },
            LobbyClientMessage::LeaveSeek { id: "s".into() },
            LobbyClientMessage::JoinPool { pool },
            LobbyClientMessage::LeavePool,
            LobbyClientMessage::Challenge {
                to: "Alice".into(),
                terms: terms(),
            },
            LobbyClientMessage::AcceptChallenge { id: "c".into() },
            LobbyClientMessage::DeclineChallenge { id: "c".into() },
            LobbyClientMessage::CancelChallenge { id: "c".into() },
            LobbyClientMessage::Ping { n: 3 },
        ];
        assert_eq!(all.len(), LOBBY_CLIENT_TYPES.len());
        for m in all {
            let text = m.to_json();
            assert_eq!(parse_lobby_client_message(&text, MAX), Ok(m), "{text}");
        }
    }

    #[test]
    fn the_documented_forms_parse() {
        assert_eq!(
            parse_lobby_client_message(
                r#"{"type":"join_pool","pool":{"variant":"halma-8","time_control":{"initial_ms":180000,"increment_ms":2000}}}"#,
                MAX
            ),
            Ok(LobbyClientMessage::JoinPool {
                pool: PoolKey::new("halma-8", TimeControl::minutes(3, 2))
            })
        );
        assert_eq!(
            parse_lobby_client_message(r#"{"type":"seek","terms":{"variant":"focus"}}"#, MAX),
            Ok(LobbyClientMessage::Seek {
                terms: GameTerms {
                    variant: "focus".into(),
                    time_control: None,
                    rated: false,
                    color: ColorChoice::Random,
                    seats: 2,
                }
            })
        );
        let code = |t: &str| parse_lobby_client_message(t, MAX).unwrap_err().code;
        assert_eq!(
            code(r#"{"type":"move","ply":0}"#),
            ErrorCode::UnknownMessage
        );
        assert_eq!(code(r#"{"type":"seek"}"#), ErrorCode::BadMessage);
    }

    #[test]
    fn server_messages_round_trip() {
        let me = PlayerInfo {
            name: "Guest-calm-otter-12".into(),
            rating: Some(RatingShort {
                rating: 1500,
                provisional: true,
            }),
            bot: false,
            guest: true,
        };
        let paired = LobbyServerMessage::Paired {
            game: "g".into(),
            color: Side::Black,
            token: "tok".into(),
            players: GamePlayers {
                white: me.clone(),
                black: me.clone(),
                rated: true,
            },
            variant: "ugolki-9qum".into(),
            time_control: Some(TimeControl::minutes(5, 3)),
            ws_path: "/ws".into(),
        };
        let text = paired.to_json();
        assert_eq!(parse_lobby_server_message(&text).unwrap(), paired);
        assert_eq!(me.rating.unwrap().to_string(), "1500?");
        let seated = LobbyServerMessage::Seated {
            game: "g".into(),
            seat: 2,
            token: "tok".into(),
            players: SeatPlayers {
                seats: vec![me.clone(); 3],
                rated: true,
            },
            variant: "chinese-checkers".into(),
            time_control: Some(TimeControl::minutes(5, 3)),
            ws_path: "/ws".into(),
        };
        let text = seated.to_json();
        assert!(text.starts_with(r#"{"type":"seated","#), "{text}");
        assert_eq!(parse_lobby_server_message(&text).unwrap(), seated);
    }

    /// Tables of more than two are additive: a two-seat pool, seek and terms are written as
    /// version 2 wrote them, and version 2's forms read as two seats.
    #[test]
    fn seats_are_additive() {
        let two = PoolKey::new("ugolki-9qum", TimeControl::minutes(3, 2));
        let text = serde_json::to_string(&two).unwrap();
        assert!(!text.contains("seats"), "{text}");
        assert_eq!(two.id(), "ugolki-9qum 180+2");
        let six = PoolKey {
            seats: 6,
            ..PoolKey::new("chinese-checkers", TimeControl::minutes(5, 3))
        };
        assert_eq!(six.id(), "chinese-checkers 300+3 x6");
        let text = serde_json::to_string(&six).unwrap();
        assert!(text.contains(r#""seats":6"#), "{text}");
        assert_eq!(serde_json::from_str::<PoolKey>(&text).unwrap(), six);
        let terms = serde_json::to_string(&terms()).unwrap();
        assert!(!terms.contains("seats"), "{terms}");
        assert_eq!(
            parse_lobby_client_message(
                r#"{"type":"seek","terms":{"variant":"chinese-checkers","seats":4}}"#,
                MAX
            ),
            Ok(LobbyClientMessage::Seek {
                terms: GameTerms {
                    variant: "chinese-checkers".into(),
                    time_control: None,
                    rated: false,
                    color: ColorChoice::Random,
                    seats: 4,
                }
            })
        );
        let seek: Seek = serde_json::from_str(
            r#"{"id":"s","variant":"focus","variant_title":"Focus","rated":false,"color":"random","by":{"name":"A"}}"#,
        )
        .unwrap();
        assert_eq!((seek.seats, seek.seated.len()), (2, 0));
    }

    #[test]
    fn provisional_above_110() {
        let mut r = Rating {
            variant: "focus".into(),
            rating: 1612.4,
            deviation: 110.5,
            volatility: 0.06,
            games: 9,
            seats: 2,
        };
        assert_eq!(
            r.short(),
            RatingShort {
                rating: 1612,
                provisional: true
            }
        );
        r.deviation = 90.0;
        assert!(!r.provisional());
    }

    /// A two-seat rating is written as version 2 wrote it; one of more seats says how many.
    #[test]
    fn seats_are_written_only_past_two() {
        let two = Rating {
            variant: "focus".into(),
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
            games: 0,
            seats: 2,
        };
        let text = serde_json::to_string(&two).unwrap();
        assert_eq!(
            text,
            r#"{"variant":"focus","rating":1500.0,"deviation":350.0,"volatility":0.06,"games":0}"#
        );
        assert_eq!(serde_json::from_str::<Rating>(&text).unwrap(), two);
        let three = Rating {
            seats: 3,
            deviation: 260.0,
            ..two
        };
        assert!(three.provisional());
        assert!(
            !Rating {
                deviation: 240.0,
                ..three.clone()
            }
            .provisional()
        );
        let text = serde_json::to_string(&three).unwrap();
        assert!(text.ends_with(r#""games":0,"seats":3}"#), "{text}");
        assert_eq!(serde_json::from_str::<Rating>(&text).unwrap(), three);
    }
}
