//! Client → server messages, and the one parser the server (and the fuzz target) use.
use serde::{Deserialize, Serialize};

use crate::{ErrorCode, OfferKind};

/// A message from a client. JSON: `{"type": "<name>", …fields}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum ClientMessage {
    /// The first message on a connection: which game, as whom. Without a token (or with
    /// `null`) the connection is a spectator.
    Hello {
        /// [`crate::SEATS_PROTOCOL_VERSION`] (3) for the seat messages
        /// ([`crate::SeatServerMessage`], any number of seats); [`crate::PROTOCOL_VERSION`] (2),
        /// or 1 for a client of the invite games only, for [`crate::ServerMessage`] (two seats).
        protocol: u32,
        game: String,
        #[serde(default)]
        token: Option<String>,
        /// The client's name and version, for the server's log (`"boardcraft 0.1.0"`).
        #[serde(default)]
        client: Option<String>,
    },
    /// Play `notation` as the move at `ply` (the number of moves played before it). The
    /// answer is a `moved` event (also sent to everyone else) once the move is stored; a
    /// resend of an applied move gets the stored move again.
    Move { ply: u32, notation: String },
    /// Give up the game.
    Resign,
    /// Offer a draw, request a takeback, or offer a rematch. Offering what the opponent has
    /// already offered accepts it. `ply`, if given, must be the current ply.
    Offer {
        offer: OfferKind,
        #[serde(default)]
        ply: Option<u32>,
    },
    /// Accept the opponent's pending offer. `ply`, if given, must be the ply it was made at.
    Accept {
        offer: OfferKind,
        #[serde(default)]
        ply: Option<u32>,
    },
    /// Decline the opponent's pending offer, or withdraw one's own.
    Decline { offer: OfferKind },
    /// Win a game whose opponent has been gone for longer than the grace period.
    ClaimVictory,
    /// Keep-alive; answered with `pong` carrying the same `n`. Browsers cannot send websocket
    /// ping frames, so clients send this every few seconds.
    Ping {
        #[serde(default)]
        n: u64,
    },
    /// Ask for the whole game again (`snapshot` with reason `resync`).
    Resync,
}

/// The message types a client may send (for telling an unknown type from a malformed one).
const CLIENT_TYPES: &[&str] = &[
    "hello",
    "move",
    "resign",
    "offer",
    "accept",
    "decline",
    "claim_victory",
    "ping",
    "resync",
];

/// Why a frame is not a client message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// [`ErrorCode::BadMessage`], [`ErrorCode::UnknownMessage`] or [`ErrorCode::FrameTooLarge`].
    pub code: ErrorCode,
    pub message: String,
}

/// Reads one text frame as a client message. `max_bytes` is the frame size limit. Never
/// panics, whatever the input (fuzzed: `fuzz/fuzz_targets/protocol_message.rs`).
pub fn parse_client_message(text: &str, max_bytes: usize) -> Result<ClientMessage, ParseError> {
    parse_tagged(text, max_bytes, CLIENT_TYPES)
}

/// Reads one text frame as a message of a `type`-tagged enum whose type names are `known`
/// (the game's and the lobby's client messages).
pub(crate) fn parse_tagged<T: serde::de::DeserializeOwned>(
    text: &str,
    max_bytes: usize,
    known: &[&str],
) -> Result<T, ParseError> {
    if text.len() > max_bytes {
        return Err(ParseError {
            code: ErrorCode::FrameTooLarge,
            message: format!(
                "the frame has {} bytes; the limit is {max_bytes}",
                text.len()
            ),
        });
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ParseError {
        code: ErrorCode::BadMessage,
        message: format!("not JSON: {e}"),
    })?;
    let Some(kind) = value.get("type").and_then(|t| t.as_str()) else {
        return Err(ParseError {
            code: ErrorCode::BadMessage,
            message: "a message is a JSON object with a string field `type`".into(),
        });
    };
    if !known.contains(&kind) {
        let shown: String = kind.chars().take(40).collect();
        return Err(ParseError {
            code: ErrorCode::UnknownMessage,
            message: format!(
                "unknown message type `{shown}`; known: {}",
                known.join(", ")
            ),
        });
    }
    let kind = kind.to_owned();
    serde_json::from_value(value).map_err(|e| ParseError {
        code: ErrorCode::BadMessage,
        message: format!("bad `{kind}` message: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: usize = crate::DEFAULT_MAX_FRAME_BYTES;

    #[test]
    fn every_message_round_trips() {
        let all = [
            ClientMessage::Hello {
                protocol: 1,
                game: "abc".into(),
                token: Some("t".into()),
                client: None,
            },
            ClientMessage::Move {
                ply: 3,
                notation: "b3-b4".into(),
            },
            ClientMessage::Resign,
            ClientMessage::Offer {
                offer: OfferKind::Draw,
                ply: Some(4),
            },
            ClientMessage::Accept {
                offer: OfferKind::Takeback,
                ply: None,
            },
            ClientMessage::Decline {
                offer: OfferKind::Rematch,
            },
            ClientMessage::ClaimVictory,
            ClientMessage::Ping { n: 7 },
            ClientMessage::Resync,
        ];
        assert_eq!(all.len(), CLIENT_TYPES.len());
        for m in all {
            let text = m.to_json();
            assert_eq!(parse_client_message(&text, MAX), Ok(m), "{text}");
        }
    }

    #[test]
    fn the_documented_forms_parse() {
        assert_eq!(
            parse_client_message(r#"{"type":"move","ply":0,"notation":"b3-b4"}"#, MAX),
            Ok(ClientMessage::Move {
                ply: 0,
                notation: "b3-b4".into()
            })
        );
        assert_eq!(
            parse_client_message(r#"{"type":"ping"}"#, MAX),
            Ok(ClientMessage::Ping { n: 0 })
        );
        assert_eq!(
            parse_client_message(
                r#"{"type":"hello","protocol":1,"game":"g","extra":"ignored"}"#,
                MAX
            ),
            Ok(ClientMessage::Hello {
                protocol: 1,
                game: "g".into(),
                token: None,
                client: None
            })
        );
    }

    #[test]
    fn bad_frames_have_codes() {
        let code = |t: &str| parse_client_message(t, MAX).unwrap_err().code;
        assert_eq!(code("not json"), ErrorCode::BadMessage);
        assert_eq!(code("[1,2]"), ErrorCode::BadMessage);
        assert_eq!(code(r#"{"type":5}"#), ErrorCode::BadMessage);
        assert_eq!(code(r#"{"type":"move","ply":-1}"#), ErrorCode::BadMessage);
        assert_eq!(code(r#"{"type":"teleport"}"#), ErrorCode::UnknownMessage);
        assert_eq!(code(&" ".repeat(MAX + 1)), ErrorCode::FrameTooLarge);
    }
}
