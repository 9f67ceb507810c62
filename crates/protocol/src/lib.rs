//! Boardcraft's online protocol: what a game server and its clients say to each other.
//!
//! - A websocket at `/ws` carries JSON text frames, one message per frame. The client speaks
//!   first with [`ClientMessage::Hello`] (`"protocol": 1`, 2 or 3, the game, and a seat token
//!   or none for a spectator); the server answers [`ServerMessage::Welcome`] with the whole
//!   game — or, to a hello of protocol 3, [`SeatServerMessage::Welcome`]: version 3 names
//!   seats (0 to 5) where versions 1 and 2 name White and Black, and is how games of more
//!   than two seats are played.
//! - Every message is an object with a `"type"` field naming it (`"move"`, `"moved"` …);
//!   unknown fields are ignored, so later versions may add fields without breaking clients.
//! - Moves are keyed by **ply** (the number of moves played before the move, 0 for the first):
//!   a resend of an applied move is answered with the stored move, never applied twice.
//! - Every event that changes the position carries the position's hash, so a client can see
//!   that it is out of step and ask for a [`ClientMessage::Resync`].
//! - The HTTP bodies ([`http`]) create a game, join a seat by invite and read a game's public
//!   state.
//!
//! The full description, with an example session, is `docs/protocol.md`.
//!
//! This crate is serde only (no tokio, no Bevy, no rules): the game (native and browser), the
//! server, the bot client and any other client share it.

mod client;
mod common;
mod error;
pub mod http;
mod lobby;
pub mod paths;
mod seats;
mod server;
mod snapshot;

pub use client::{ClientMessage, ParseError, parse_client_message};
pub use common::{Clocks, ColorChoice, OfferKind, Side, TimeControl};
pub use error::ErrorCode;
pub use lobby::{
    Challenge, ChallengeEnd, GamePlayers, GameTerms, LOBBY_PATH, LobbyClientMessage, LobbyCounts,
    LobbyServerMessage, PROVISIONAL_DEVIATION, PROVISIONAL_DEVIATION_SEATS, PlayerInfo, PoolInfo,
    PoolKey, Rating, RatingChange, RatingChanges, RatingShort, Seek, parse_lobby_client_message,
    parse_lobby_server_message, provisional_deviation,
};
pub use seats::{
    Placement, SEATS_PROTOCOL_VERSION, SeatClocks, SeatIndex, SeatLeft, SeatOffer, SeatPlayers,
    SeatResult, SeatServerMessage, SeatSnapshot, parse_seat_server_message, seat_of, side_of,
};
pub use server::{ServerMessage, SnapshotReason};
pub use snapshot::{
    EndCause, GameResult, GameSnapshot, GameStatus, PendingOffer, Presence, SeatState, Seats,
};

/// The protocol version of [`ServerMessage`] and the lobby: the `protocol` field of their
/// hellos. Version 2 added accounts, the lobby ([`LOBBY_PATH`]), ratings and the archive;
/// every version-2 field of a version-1 message is optional, so the game websocket accepts
/// version 1 hellos too. Version 3 ([`SEATS_PROTOCOL_VERSION`]) is the game websocket's seat
/// messages ([`SeatServerMessage`]), for games of two to six seats; a client that says hello
/// with 2 keeps getting [`ServerMessage`]s, for two-seat games.
pub const PROTOCOL_VERSION: u32 = 2;

/// The oldest version a server still accepts on the game websocket (invite games).
pub const MIN_PROTOCOL_VERSION: u32 = 1;

/// The websocket's path on the server.
pub const WS_PATH: &str = "/ws";

/// Largest text frame a server accepts by default, in bytes (a setting on the server). The
/// largest client message is a move in notation, far below it.
pub const DEFAULT_MAX_FRAME_BYTES: usize = 4096;

/// A position hash as the protocol writes it: 16 lower-case hex digits (JSON numbers cannot
/// hold 64 bits exactly in JavaScript).
pub fn hash_text(hash: u64) -> String {
    format!("{hash:016x}")
}

/// Reads a server message (for clients). The server never sends anything else, so an error
/// here means a client and server of different versions or a broken connection.
pub fn parse_server_message(text: &str) -> Result<ServerMessage, serde_json::Error> {
    serde_json::from_str(text)
}

impl ServerMessage {
    /// The message as a JSON text frame.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages always serialise")
    }
}

impl ClientMessage {
    /// The message as a JSON text frame.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("client messages always serialise")
    }
}
