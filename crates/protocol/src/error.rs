//! Machine-readable error codes, shared by websocket errors and HTTP error bodies.
use std::fmt;

use serde::{Deserialize, Serialize};

/// Why the server refused something. Clients branch on the code; the message beside it is for
/// people (English, may change). A client must treat an unknown code like `internal`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    // --- the frame itself
    /// Not a JSON object with a string `type`, a binary frame, or fields of the wrong shape.
    BadMessage,
    /// The frame is longer than the server's limit (the connection is closed).
    FrameTooLarge,
    /// A `type` this server does not know (a newer client?).
    UnknownMessage,
    // --- the hello
    /// The hello's `protocol` is not one this server speaks (the connection is closed).
    UnsupportedProtocol,
    /// The first message was not a hello (the connection is closed).
    HelloRequired,
    /// A second hello on a connection that already has a game.
    AlreadyJoined,
    /// No game has this id.
    GameNotFound,
    /// The seat token is wrong for this game (the connection is closed).
    BadToken,
    // --- acting in a game
    /// A spectator tried to act (move, resign, offer …).
    ReadOnly,
    /// The game waits for its second player.
    NotStarted,
    /// The game is over.
    GameOver,
    /// It is the other side's turn.
    NotYourTurn,
    /// The move's ply is ahead of the game (the client missed something: resync).
    FuturePly,
    /// A move for a ply already played, that differs from the stored one (the stored move
    /// was sent just before this error).
    PlyAlreadyPlayed,
    /// The move is not legal here, or not readable in the game's notation.
    IllegalMove,
    /// An answer to an offer that is not pending.
    NoOffer,
    /// The offer or answer names a ply that is not the current one.
    StaleOffer,
    /// The offer is not possible now (a draw after the game, a takeback with no move of one's
    /// own, a rematch before the end, an offer to oneself …).
    OfferNotAllowed,
    /// Claiming the game while the opponent is connected, or before the grace period ended.
    ClaimNotAllowed,
    // --- limits
    /// Too many messages per second (the message was dropped; sustained floods are closed).
    RateLimited,
    /// Too many connections from this address.
    TooManyConnections,
    /// Too many new games from this address in the last minute.
    TooManyGames,
    /// Nothing was received for the idle timeout (the connection is closed).
    IdleTimeout,
    /// A websocket from a page of another site (HTTP 403 on the upgrade).
    OriginNotAllowed,
    // --- HTTP
    /// The request body or a parameter is not valid (the message says which).
    BadRequest,
    /// No shipped variant has this name.
    VariantNotFound,
    /// The posted variant file does not validate (the message has file, line, field).
    VariantInvalid,
    /// No game has this invite, or it was used already.
    InviteNotFound,
    /// The game's seats are both taken.
    SeatTaken,
    // --- HTTP
    /// No such path (HTTP 404).
    NotFound,
    /// The path exists, but not with this method (HTTP 405).
    MethodNotAllowed,
    /// The request's body is longer than the server takes (HTTP 413).
    BodyTooLarge,
    /// The request was not sent or answered in time (HTTP 408).
    RequestTimeout,
    // --- accounts (protocol 2)
    /// The request needs a signed-in account: no session, or one that has ended (HTTP 401).
    NotSignedIn,
    /// Sign-in refused: no account has this name, or the password is not its password. One
    /// code for both, so that names cannot be probed (HTTP 401).
    WrongPassword,
    /// The name breaks the rules: 3–20 letters, digits, `-` or `_`; not like "Boardcraft",
    /// a guest's or a bot's name (HTTP 400).
    NameInvalid,
    /// Another account has this name, in any case (HTTP 409).
    NameTaken,
    /// The account has a password already (HTTP 409).
    AlreadyClaimed,
    /// Telegram `initData` whose signature or date does not check (HTTP 401).
    TelegramInvalid,
    /// A password too easy to guess, too short or too long (the message says which).
    PasswordWeak,
    /// A `POST` whose body is not declared `Content-Type: application/json` (HTTP 415): what
    /// an HTML form or a script's "simple" cross-site request sends is refused.
    UnsupportedMediaType,
    // --- the lobby (protocol 2)
    /// No such seek (accepted or cancelled meanwhile).
    SeekNotFound,
    /// No such challenge (answered, cancelled or expired meanwhile).
    ChallengeNotFound,
    /// No account has that name.
    PlayerNotFound,
    /// The server offers no such quick-pairing pool.
    PoolNotFound,
    /// Not allowed for this account: one's own seek, challenging oneself, a bot in a pool of
    /// people, a rated untimed game, more seeks than the limit.
    NotAllowed,
    // --- the server
    /// The server has as many connections as it takes: try again in a few seconds (HTTP 503).
    ServerBusy,
    /// The game is now run by another node (a cluster's handover): reconnect, and the load
    /// balancer routes to the game's node.
    GameMoved,
    /// Storing failed or the server is shutting down; the request was not applied.
    Internal,
}

impl ErrorCode {
    /// The code as it appears in JSON (`"illegal_move"`).
    pub fn as_str(self) -> &'static str {
        use ErrorCode::*;
        match self {
            BadMessage => "bad_message",
            FrameTooLarge => "frame_too_large",
            UnknownMessage => "unknown_message",
            UnsupportedProtocol => "unsupported_protocol",
            HelloRequired => "hello_required",
            AlreadyJoined => "already_joined",
            GameNotFound => "game_not_found",
            BadToken => "bad_token",
            ReadOnly => "read_only",
            NotStarted => "not_started",
            GameOver => "game_over",
            NotYourTurn => "not_your_turn",
            FuturePly => "future_ply",
            PlyAlreadyPlayed => "ply_already_played",
            IllegalMove => "illegal_move",
            NoOffer => "no_offer",
            StaleOffer => "stale_offer",
            OfferNotAllowed => "offer_not_allowed",
            ClaimNotAllowed => "claim_not_allowed",
            RateLimited => "rate_limited",
            TooManyConnections => "too_many_connections",
            TooManyGames => "too_many_games",
            IdleTimeout => "idle_timeout",
            OriginNotAllowed => "origin_not_allowed",
            BadRequest => "bad_request",
            VariantNotFound => "variant_not_found",
            VariantInvalid => "variant_invalid",
            InviteNotFound => "invite_not_found",
            SeatTaken => "seat_taken",
            NotFound => "not_found",
            MethodNotAllowed => "method_not_allowed",
            BodyTooLarge => "body_too_large",
            RequestTimeout => "request_timeout",
            NotSignedIn => "not_signed_in",
            WrongPassword => "wrong_password",
            NameInvalid => "name_invalid",
            NameTaken => "name_taken",
            AlreadyClaimed => "already_claimed",
            TelegramInvalid => "telegram_invalid",
            PasswordWeak => "password_weak",
            UnsupportedMediaType => "unsupported_media_type",
            SeekNotFound => "seek_not_found",
            ChallengeNotFound => "challenge_not_found",
            PlayerNotFound => "player_not_found",
            PoolNotFound => "pool_not_found",
            NotAllowed => "not_allowed",
            ServerBusy => "server_busy",
            GameMoved => "game_moved",
            Internal => "internal",
        }
    }

    /// The HTTP status that goes with the code in an HTTP error body.
    pub fn http_status(self) -> u16 {
        use ErrorCode::*;
        match self {
            GameNotFound | InviteNotFound | VariantNotFound | NotFound | SeekNotFound
            | ChallengeNotFound | PlayerNotFound | PoolNotFound => 404,
            MethodNotAllowed => 405,
            RequestTimeout => 408,
            BodyTooLarge => 413,
            UnsupportedMediaType => 415,
            ServerBusy | GameMoved => 503,
            BadToken | NotSignedIn | WrongPassword | TelegramInvalid => 401,
            NameTaken | AlreadyClaimed => 409,
            OriginNotAllowed | ReadOnly | NotAllowed => 403,
            SeatTaken | AlreadyJoined | GameOver | NotStarted => 409,
            RateLimited | TooManyConnections | TooManyGames => 429,
            FrameTooLarge => 413,
            Internal => 500,
            _ => 400,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
