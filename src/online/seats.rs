//! The seats this player holds in online games: each seat's secret token, kept in the game's
//! data (a file in the data folder on the desktop, browser storage on the web), so a restart, a
//! reload or a closed tab takes the same seat again instead of asking for a new one.
//!
//! `online/seats.ron` is a list of [`SeatRecord`]s, newest first, at most [`KEEP`].
use boardcraft_protocol::{SeatIndex, Side, seat_of};
use serde::{Deserialize, Serialize};

use crate::persistence::storage::Storage;

/// The store key of the list.
pub const SEATS_KEY: &str = "online/seats.ron";
/// How many seats are remembered (old games fall off the end).
pub const KEEP: usize = 50;

/// One seat in one game on one server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The server's address (`http://127.0.0.1:8787`).
    pub server: String,
    pub game: String,
    /// The seat, 0 to 5 (0 is White and 1 Black in the two-seat games).
    #[serde(default)]
    pub seat: SeatIndex,
    /// A list written before games had more than two seats named the side instead; read into
    /// `seat` and never written.
    #[serde(default, skip_serializing)]
    pub side: Option<Side>,
    /// The seat's secret.
    pub token: String,
    /// The invite the seat came with (the creator: the one given to the friend), so that
    /// opening the same invite link again finds the seat.
    #[serde(default)]
    pub invite: Option<String>,
}

/// The remembered seats (none if nothing is stored or the list cannot be read: a damaged list
/// costs the seats, not the game, and is replaced by the next write).
pub fn load(storage: &Storage) -> Vec<SeatRecord> {
    match storage.raw().get(SEATS_KEY) {
        Ok(Some(bytes)) => match std::str::from_utf8(&bytes)
            .ok()
            .and_then(|text| ron::from_str(text).ok())
        {
            Some(list) => upgraded(list),
            None => {
                bevy::log::warn!("online: {SEATS_KEY} cannot be read; starting a new list");
                Vec::new()
            }
        },
        Ok(None) => Vec::new(),
        Err(e) => {
            bevy::log::warn!("online: cannot read {SEATS_KEY}: {e}");
            Vec::new()
        }
    }
}

/// The records of an older list with their side as a seat.
fn upgraded(mut list: Vec<SeatRecord>) -> Vec<SeatRecord> {
    for record in &mut list {
        if let Some(side) = record.side.take() {
            record.seat = seat_of(side);
        }
    }
    list
}

/// The seat for this server and invite code, if this player holds it.
pub fn by_invite(storage: &Storage, server: &str, invite: &str) -> Option<SeatRecord> {
    load(storage)
        .into_iter()
        .find(|s| s.server == server && s.invite.as_deref() == Some(invite))
}

/// The seat for this server and game, if this player holds it.
pub fn by_game(storage: &Storage, server: &str, game: &str) -> Option<SeatRecord> {
    load(storage)
        .into_iter()
        .find(|s| s.server == server && s.game == game)
}

/// Remembers `seat` (replacing an older record of the same game and seat).
pub fn remember(storage: &Storage, seat: SeatRecord) {
    let mut list = load(storage);
    list.retain(|s| !(s.server == seat.server && s.game == seat.game && s.seat == seat.seat));
    list.insert(0, seat);
    list.truncate(KEEP);
    let text = match ron::ser::to_string_pretty(&list, ron::ser::PrettyConfig::default()) {
        Ok(text) => text,
        Err(e) => {
            bevy::log::error!("online: cannot write the seat list: {e}");
            return;
        }
    };
    if let Err(e) = storage.raw().put(SEATS_KEY, text.as_bytes()) {
        bevy::log::warn!("online: cannot keep the seat token ({e}); a restart cannot rejoin");
    }
}
