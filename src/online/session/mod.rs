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
//! | `state` | what the session knows ([`Online`], with `BoardLink`: which local game shows it), what the player asks of it ([`OnlineCommand`]), and the messages between the two parts below |
//! | `network` | the protocol over the link and HTTP: the player's commands, pings, the server's messages; tells the board bridge what the server said (`FromServer`) and serves its requests (`ToServer`) |
//! | `board` | the bridge to the board: binds the local game, plays the server's moves, sends the local ones, compares hashes, rebuilds, shows the end |
use bevy::prelude::*;

use crate::GameSystems;

mod board;
mod network;
mod state;

pub use board::sync_board;
pub use network::{
    Network, PING_EVERY, SILENCE, forward_resignations, handle_commands, poll_network, serve_board,
    start_from_options,
};
pub use state::{
    FromServer, InboundMove, Notice, NoticeKind, Online, OnlineCommand, PendingMove, Stage,
    ToServer, invite_code, parse_clock,
};

/// The session's logic (headless-safe: what the tests run). Within a frame: the player's
/// commands, then the network (its news for the board as `FromServer`), then the board
/// bridge (its requests as `ToServer`), which the network part serves at once, then
/// the resignations.
pub fn plugin(app: &mut App) {
    app.init_resource::<Online>()
        .add_message::<OnlineCommand>()
        .add_message::<FromServer>()
        .add_message::<ToServer>()
        .insert_non_send(Network::default())
        .add_systems(PostStartup, start_from_options)
        .add_systems(
            Update,
            (
                handle_commands,
                poll_network,
                sync_board,
                serve_board,
                forward_resignations,
            )
                .chain()
                .in_set(GameSystems::Input),
        );
}
