//! What the protocol calls a failure. Each service has its own error enum that says what went
//! wrong (`game::GameError`, `lobby::LobbyError`, the store's `StoreError`, …); this trait
//! gives the protocol's [`ErrorCode`] for each case, and its `Display` is the message clients
//! read. The HTTP side (`http::Refused`), the sockets and the game's task turn any of them
//! into the protocol's error with it, so that a case's code is written once, beside the case.
use boardcraft_protocol::{ErrorCode, ServerMessage};

pub trait Refusal: std::fmt::Display {
    /// The protocol's code for this failure (it also gives the HTTP status).
    fn code(&self) -> ErrorCode;

    /// The server's own failure (the database, a broken stored game), not the request's:
    /// logged as a warning where it is answered.
    fn is_internal(&self) -> bool {
        self.code() == ErrorCode::Internal
    }

    /// The failure as a game socket's error message (`ply`: the refused move's; `fatal`: the
    /// server closes the socket next).
    fn error_message(&self, ply: Option<u32>, fatal: bool) -> ServerMessage {
        ServerMessage::Error {
            code: self.code(),
            message: self.to_string(),
            ply,
            fatal,
        }
    }
}
