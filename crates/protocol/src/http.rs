//! HTTP request and response bodies (JSON).
//!
//! | request | body | answer |
//! |---|---|---|
//! | `POST /api/games` | [`CreateGame`] | 201 [`GameCreated`] |
//! | `POST /api/invites/{invite}` | none | 200 [`SeatJoined`] |
//! | `GET /api/games/{game}` | | 200 [`crate::GameSnapshot`] |
//! | `GET /api/games/{game}/save.ron` | | 200 the RON save file (`crates/saves`) |
//! | `GET /healthz` | | 200 [`Health`] |
//! | `POST /api/accounts/guest` | none | 201 [`SignedIn`] (protocol 2) |
//! | `POST /api/accounts/claim` | [`Credentials`] | 200 [`AccountInfo`] |
//! | `POST /api/session` | [`Credentials`] | 200 [`SignedIn`] |
//! | `POST /api/session/telegram` | [`TelegramSignIn`] | 200 [`SignedIn`] |
//! | `DELETE /api/session` | none | 204 |
//! | `GET /api/me` | | 200 [`AccountInfo`] |
//!
//! Any refusal is an [`ApiError`] with the status of [`crate::ErrorCode::http_status`].
use serde::{Deserialize, Serialize};

use crate::{ColorChoice, ErrorCode, Side, TimeControl};

/// `POST /api/games`: a new game. Name a shipped `variant` or post a `variant_file` (the RON
/// text of a variant file), not both.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub variant_file: Option<String>,
    /// The creator's colour (default `random`).
    #[serde(default)]
    pub color: ColorChoice,
    /// Untimed when absent.
    #[serde(default)]
    pub time_control: Option<TimeControl>,
}

/// The answer to [`CreateGame`]: the creator's seat and the invite for the other one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameCreated {
    pub game: String,
    /// The creator's side.
    pub color: Side,
    /// The creator's seat token: a secret; whoever has it plays this side.
    pub token: String,
    /// The invite code for the other seat (usable once).
    pub invite: String,
    /// A link to give the opponent: the browser game at this server, joining by the invite.
    pub invite_url: String,
    /// The websocket's path (`/ws`).
    pub ws_path: String,
}

/// The answer to `POST /api/invites/{invite}`: the other seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatJoined {
    pub game: String,
    pub color: Side,
    pub token: String,
    pub ws_path: String,
}

/// Any HTTP refusal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
    /// The game the refusal is about, when the asker may still watch it: an invite whose
    /// seat is taken (`seat_taken`) names its game here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

/// `GET /healthz`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    /// `"ok"` when the database answers.
    pub status: String,
    pub protocol: u32,
    pub server: String,
    /// Games with a task in memory now.
    pub games_active: u64,
    /// Websocket connections open now.
    pub connections: u64,
    /// `sqlite` or `postgres`.
    pub database: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_game_defaults() {
        let body: CreateGame = serde_json::from_str(r#"{"variant":"halma-16"}"#).unwrap();
        assert_eq!(body.color, ColorChoice::Random);
        assert_eq!(body.time_control, None);
        let timed: CreateGame = serde_json::from_str(
            r#"{"variant":"focus","color":"black","time_control":{"initial_ms":300000,"increment_ms":3000}}"#,
        )
        .unwrap();
        assert_eq!(timed.time_control, Some(TimeControl::minutes(5, 3)));
        assert!(serde_json::from_str::<CreateGame>(r#"{"variant":"x","colour":"white"}"#).is_err());
    }
}

/// An account as its owner and others see it (protocol 2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountInfo {
    pub id: String,
    pub name: String,
    /// No password and no Telegram link yet: only this device's session signs it in.
    pub guest: bool,
    /// A computer player (set by the server's operator).
    pub bot: bool,
    /// Signs in with Telegram.
    pub telegram: bool,
}

/// A new session: the account and its token. Browsers also get it as an `HttpOnly` cookie;
/// the desktop game and bots send it as `Authorization: Bearer <token>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedIn {
    pub account: AccountInfo,
    pub token: String,
}

/// `POST /api/accounts/claim` and `POST /api/session`: a name and a password.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    pub name: String,
    pub password: String,
}

// By hand, so that a password never reaches a log through `{:?}`.
impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("name", &self.name)
            .field("password", &"…")
            .finish()
    }
}

/// `POST /api/session/telegram`: `Telegram.WebApp.initData`, as the Mini App got it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TelegramSignIn {
    pub init_data: String,
}
