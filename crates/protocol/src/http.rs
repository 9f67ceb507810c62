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
//! | `GET /api/me` | | 200 [`Me`] ([`AccountInfo`] and its ratings) |
//! | `GET /api/players/{name}` | | 200 [`Profile`] (protocol 2) |
//! | `GET /api/players/{name}/games?page=N` | | 200 [`PlayerGames`] (protocol 2) |
//! | `GET /api/leaderboard/{variant}` | | 200 [`Leaderboard`] (protocol 2) |
//!
//! Any refusal is an [`ApiError`] with the status of [`crate::ErrorCode::http_status`].
use serde::{Deserialize, Serialize};

use crate::{
    ColorChoice, ErrorCode, GamePlayers, GameResult, PlayerInfo, Rating, RatingChanges, Side,
    TimeControl,
};

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
    /// How many play (2 to 6, protocol 3); absent: the variant's own seating, two for most.
    /// A variant not played by that many is refused (`variant_invalid`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<u8>,
}

/// The answer to [`CreateGame`]: the creator's seat and the invite for the other ones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameCreated {
    pub game: String,
    /// The creator's side in a two-seat game (in a game of more seats, `white` for seat 0 and
    /// `black` for any other: read `seat`).
    pub color: Side,
    /// The creator's seat (protocol 3): 0 for White, 1 for Black, up to 5.
    #[serde(default)]
    pub seat: crate::SeatIndex,
    /// The creator's seat token: a secret; whoever has it plays this side.
    pub token: String,
    /// The invite code for the other seats: usable once per open seat, each use taking the
    /// first open seat in seat order.
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
    /// The seat's side in a two-seat game (see [`GameCreated::color`]).
    pub color: Side,
    /// The seat taken (protocol 3).
    #[serde(default)]
    pub seat: crate::SeatIndex,
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
        // `seats` beside them; a two-seat body is written without it, as before.
        assert_eq!(timed.seats, None);
        assert!(!serde_json::to_string(&timed).unwrap().contains("seats"));
        let four: CreateGame =
            serde_json::from_str(r#"{"variant":"chinese-checkers","seats":4}"#).unwrap();
        assert_eq!(four.seats, Some(4));
        assert!(serde_json::from_str::<CreateGame>(r#"{"variant":"x","players":4}"#).is_err());
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

/// `POST /api/accounts/password`: the account's password now, and the new one.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub password: String,
    pub new_password: String,
}

// By hand, so that a password never reaches a log through `{:?}`.
impl std::fmt::Debug for PasswordChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PasswordChange { .. }")
    }
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

/// `GET /api/me`: the signed-in account (the fields of [`AccountInfo`]) and its ratings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Me {
    #[serde(flatten)]
    pub account: AccountInfo,
    /// One per variant the account played rated games in.
    #[serde(default)]
    pub ratings: Vec<Rating>,
}

/// A player's rating in one variant, as a profile shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariantRating {
    pub variant: String,
    pub variant_title: String,
    /// Protocol 3: the number of seats of the games rated (absent for two, as before).
    #[serde(
        default = "crate::lobby::two_seats",
        skip_serializing_if = "crate::lobby::is_two_seats"
    )]
    pub seats: u8,
    /// Glicko-2 rating.
    pub rating: f64,
    pub deviation: f64,
    /// Rated games played in the variant.
    pub games: u32,
    /// Deviation above [`crate::PROVISIONAL_DEVIATION`]: shown as "1500?".
    pub provisional: bool,
}

/// Wins, draws and losses (aborted games are not counted).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// One variant's [`Tally`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantTally {
    pub variant: String,
    pub variant_title: String,
    #[serde(flatten)]
    pub tally: Tally,
}

/// A finished game between accounts, as the archive lists it. Its review is
/// `GET /api/games/{game}/save.ron`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchivedGame {
    pub game: String,
    pub variant: String,
    pub variant_title: String,
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    pub rated: bool,
    /// Both players, with their ratings when the game started.
    pub players: GamePlayers,
    pub result: GameResult,
    /// A rated game's rating changes (`None`: casual, or aborted).
    #[serde(default)]
    pub ratings: Option<RatingChanges>,
    /// Moves played (plies).
    pub moves: u32,
    /// Milliseconds since the Unix epoch.
    pub started_ms: i64,
    pub ended_ms: i64,
}

/// `GET /api/players/{name}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Name and flags (no rating: see `ratings`).
    pub player: PlayerInfo,
    /// One per variant the player played rated games in.
    pub ratings: Vec<VariantRating>,
    /// Per variant the player finished games in (rated or casual).
    pub tallies: Vec<VariantTally>,
    pub total: Tally,
    /// The 10 newest finished games.
    pub recent: Vec<ArchivedGame>,
}

/// `GET /api/players/{name}/games?page=N`: newest first, [`PlayerGames::PAGE`] a page, pages
/// counted from 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerGames {
    pub player: String,
    pub page: u32,
    pub games: Vec<ArchivedGame>,
    /// Another page follows.
    pub more: bool,
}

impl PlayerGames {
    pub const PAGE: u32 = 20;
}

/// A row of a [`Leaderboard`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ranked {
    /// 1 for the best.
    pub rank: u32,
    /// Name, flags and the rating as shown.
    pub player: PlayerInfo,
    pub rating: f64,
    pub deviation: f64,
    pub games: u32,
}

/// `GET /api/leaderboard/{variant}`: the best non-provisional players, best first (at most
/// [`Leaderboard::SIZE`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    pub variant: String,
    pub variant_title: String,
    /// Protocol 3: the number of seats of the games rated (absent for two, as before).
    #[serde(
        default = "crate::lobby::two_seats",
        skip_serializing_if = "crate::lobby::is_two_seats"
    )]
    pub seats: u8,
    pub players: Vec<Ranked>,
}

impl Leaderboard {
    pub const SIZE: u32 = 50;
}
