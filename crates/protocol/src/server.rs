//! Server → client messages.
use serde::{Deserialize, Serialize};

use crate::{
    Clocks, ErrorCode, GameResult, GameSnapshot, OfferKind, Presence, RatingChanges, Side,
};

/// A message from the server. JSON: `{"type": "<name>", …fields}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum ServerMessage {
    /// The answer to a good hello: who the connection is and the whole game.
    Welcome {
        protocol: u32,
        /// The server's name and version (`"boardcraft-server 0.1.0"`).
        server: String,
        /// The side this connection plays; `None` for a spectator.
        you: Option<Side>,
        game: GameSnapshot,
        /// The invite for the open seat, sent to the creator while the seat is open.
        #[serde(default)]
        invite: Option<String>,
        /// After this long without a move or claim the opponent's absence may be claimed.
        grace_ms: u64,
        /// The server closes a connection from which nothing (not even a pong frame) arrived
        /// for this long; clients send `ping` well within it.
        idle_timeout_ms: u64,
    },
    /// The whole game again: after a `resync`, when the second player joined (`started`),
    /// after an accepted takeback (`takeback`).
    Snapshot {
        reason: SnapshotReason,
        game: GameSnapshot,
    },
    /// A move was stored and played: to everyone in the game, the mover included (that is
    /// its acknowledgement). Also the answer to a resend of an applied move (only to the
    /// sender).
    Moved {
        /// The ply the move was played at (the number of moves before it).
        ply: u32,
        notation: String,
        /// Who played it.
        side: Side,
        /// The position's hash after the move (16 hex digits).
        hash: String,
        /// The clocks after the move (`None` untimed).
        #[serde(default)]
        clocks: Option<Clocks>,
        /// Set when this move ended the game (a `game_over` follows too).
        #[serde(default)]
        result: Option<GameResult>,
    },
    /// The game is over (by its rules, resignation, time, agreement or claim).
    GameOver {
        result: GameResult,
        #[serde(default)]
        clocks: Option<Clocks>,
        /// Protocol 2: both players' rating changes, when the game was rated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ratings: Option<RatingChanges>,
    },
    /// A player's connection state changed.
    Presence { side: Side, presence: Presence },
    /// A player made an offer (draw, takeback, rematch) the other may accept or decline.
    Offer {
        offer: OfferKind,
        by: Side,
        ply: u32,
    },
    /// An offer was declined by the other player, or withdrawn by its maker (`by` is who
    /// did it).
    OfferDeclined { offer: OfferKind, by: Side },
    /// Both accepted a rematch: the new game's id. Each player's seat token is the same as in
    /// this game, for the other colour; spectators may follow with a new hello.
    Rematch { game: String },
    /// The number of spectators changed.
    Spectators { count: u32 },
    /// The answer to a `ping`.
    Pong { n: u64 },
    /// A request was refused, or the connection is about to be closed (`fatal`). The game is
    /// unchanged by a refused request.
    Error {
        code: ErrorCode,
        message: String,
        /// The ply of the refused move, when the request was a move.
        #[serde(default)]
        ply: Option<u32>,
        /// The server closes the connection after this message.
        #[serde(default)]
        fatal: bool,
    },
}

/// Why a `snapshot` was sent.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SnapshotReason {
    /// The client asked (`resync`).
    Resync,
    /// The second player joined: the game is on.
    Started,
    /// A takeback was accepted: moves were removed.
    Takeback,
    /// Protocol 3, games of more than two seats: a seat resigned (or its flag fell, or it was
    /// claimed gone) and the others play on; the snapshot's `left` says who and in which place.
    SeatLeft,
    /// Protocol 3, games of more than two seats: a seat was taken and others are still open.
    SeatJoined,
}

impl ServerMessage {
    /// A non-fatal error.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            code,
            message: message.into(),
            ply: None,
            fatal: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        EndCause, GameStatus, PendingOffer, SeatState, Seats, TimeControl, parse_server_message,
    };

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
            variant_file: None,
            time_control: Some(TimeControl::minutes(5, 3)),
            status: GameStatus::Playing,
            result: None,
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
                black: seat,
            },
            offers: vec![PendingOffer {
                offer: OfferKind::Draw,
                by: Side::White,
                ply: 1,
            }],
            spectators: 2,
            rematch: None,
            rematch_of: None,
            players: None,
            ratings: None,
        }
    }

    #[test]
    fn every_message_round_trips() {
        let result = GameResult {
            winner: Some(Side::White),
            cause: EndCause::Rules {
                rule: "target_filled".into(),
            },
            text: "White wins".into(),
        };
        let all = [
            ServerMessage::Welcome {
                protocol: 1,
                server: "s".into(),
                you: Some(Side::White),
                game: snapshot(),
                invite: Some("inv".into()),
                grace_ms: 60_000,
                idle_timeout_ms: 30_000,
            },
            ServerMessage::Snapshot {
                reason: SnapshotReason::Takeback,
                game: snapshot(),
            },
            ServerMessage::Moved {
                ply: 0,
                notation: "b3-b4".into(),
                side: Side::White,
                hash: "00000000000000ff".into(),
                clocks: None,
                result: Some(result.clone()),
            },
            ServerMessage::GameOver {
                result,
                clocks: None,
                ratings: None,
            },
            ServerMessage::Presence {
                side: Side::Black,
                presence: Presence::Present,
            },
            ServerMessage::Offer {
                offer: OfferKind::Rematch,
                by: Side::Black,
                ply: 9,
            },
            ServerMessage::OfferDeclined {
                offer: OfferKind::Draw,
                by: Side::White,
            },
            ServerMessage::Rematch { game: "g2".into() },
            ServerMessage::Spectators { count: 3 },
            ServerMessage::Pong { n: 1 },
            ServerMessage::error(ErrorCode::IllegalMove, "no"),
        ];
        for m in all {
            let text = m.to_json();
            assert_eq!(parse_server_message(&text).unwrap(), m, "{text}");
        }
    }

    #[test]
    fn the_documented_shapes() {
        let moved = ServerMessage::Moved {
            ply: 0,
            notation: "b3-b4".into(),
            side: Side::White,
            hash: "00000000000000ff".into(),
            clocks: Some(Clocks {
                white_ms: 300_000,
                black_ms: 300_000,
                running: Some(Side::Black),
            }),
            result: None,
        };
        assert_eq!(
            moved.to_json(),
            r#"{"type":"moved","ply":0,"notation":"b3-b4","side":"white","hash":"00000000000000ff","clocks":{"white_ms":300000,"black_ms":300000,"running":"black"},"result":null}"#
        );
        let gone = ServerMessage::Presence {
            side: Side::Black,
            presence: Presence::Gone { claim_in_ms: 60000 },
        };
        assert_eq!(
            gone.to_json(),
            r#"{"type":"presence","side":"black","presence":{"status":"gone","claim_in_ms":60000}}"#
        );
        let error = ServerMessage::error(ErrorCode::NotYourTurn, "wait");
        assert_eq!(
            error.to_json(),
            r#"{"type":"error","code":"not_your_turn","message":"wait","ply":null,"fatal":false}"#
        );
    }
}
