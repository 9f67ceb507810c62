//! The online screens (egui), over the state of `crate::online`: they read [`Online`] and
//! [`Lobby`] and write [`OnlineCommand`]s and [`LobbyCommand`]s; the online floor never
//! imports them. Whether they show is a state (`ui::screens`): the Lobby is a page of the main
//! menu ([`MenuPage`](crate::ui::screens::MenuPage)), "Play online" a window
//! ([`OnlineWindow`](crate::ui::screens::OnlineWindow)).
//!
//! | file | what it holds |
//! |---|---|
//! | [`play`] | "Play online" (create, join, waiting), the in-game panel (presence, clocks, offers, claim, rematch, spectators) |
//! | [`lobby`] | the Lobby screen: account, quick pairing, seeks, challenges, profile, archive, leaders |
//! | [`text`] | the words of the online screens, English and Russian |
//! | `lobby_page` | in the browser, the page's test hook for the Lobby screen |
//!
//! [`Online`]: crate::online::Online
//! [`Lobby`]: crate::online::lobby::Lobby
//! [`OnlineCommand`]: crate::online::OnlineCommand
//! [`LobbyCommand`]: crate::online::lobby::LobbyCommand
use bevy::prelude::*;

pub mod lobby;
#[cfg(target_arch = "wasm32")]
mod lobby_page;
pub mod play;
pub mod text;

/// The online screens (and, in the browser, the Lobby screen's test hook).
pub fn plugin(app: &mut App) {
    app.add_plugins((play::plugin, lobby::plugin));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(lobby_page::plugin);
}
