//! The online session: speaks the protocol over the [`Link`](crate::online::link::Link), keeps what the server said
//! ([`Online`]), and connects it to the game the way the computer player is connected — the
//! server's moves become
//! [`MoveRequested`](crate::game::match_state::MoveRequested) (played by the rules, animated hop by hop), the local
//! player's [`MoveApplied`](crate::game::match_state::MoveApplied) moves are sent and stay pending until the server's `moved` confirms
//! them. Nothing here decides a rule: a move the server refuses is taken back by rebuilding the
//! game from the server's record, and a position hash that differs from the server's asks for
//! the whole game again (`resync`).
//!
//! | file | what it holds |
//! |---|---|
//! | [`state`] | what the session knows ([`Online`]), what the player asks of it ([`OnlineCommand`]) |
//! | [`network`] | the protocol over the link and HTTP: commands, pings, the server's messages |
//! | [`board`] | the bridge to the board: the server's moves played, the local ones sent, the end |
mod board;
mod network;
mod state;

pub use board::sync_board;
pub use network::{
    Network, PING_EVERY, SILENCE, forward_resignations, handle_commands, poll_network,
    start_from_options,
};
pub use state::{
    Notice, NoticeKind, Online, OnlineCommand, PendingMove, Stage, invite_code, parse_clock,
};
