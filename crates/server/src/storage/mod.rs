//! Where games are kept: a trait per need, and two real databases behind them all.
//!
//! - [`GameStore`]: the games, made, played and ended (the game service, through a fenced
//!   view); the end of a game between accounts takes the service's rating rule, which the
//!   store runs in the transaction that stores the end ([`AccountEnd`]);
//! - [`AccountStore`]: accounts, sessions, ratings (HTTP's accounts, the lobby, the players of
//!   a game); [`ArchiveStore`]: archives, tallies, leaderboards (the players' pages);
//! - [`ClusterStore`]: which node runs a game (the games' registry);
//! - [`lobby::LobbyStore`], [`limits::LimitStore`]: the lobby's tables, the shared limits;
//! - [`Storage`]: all of them, as [`open`] answers, for wiring.
//!
//! - [`sqlite::SqliteStore`] (the default): a file in the data folder; one writer thread that
//!   commits whatever requests are waiting in one transaction (group commit, `synchronous =
//!   FULL`), so a reply means the change is on disk.
//! - [`postgres::PostgresStore`] (`--database postgres://…`): for more than one machine (see
//!   docs/online.md). Each change is one statement in autocommit, so a reply means it is
//!   committed.
//! - The cluster of nodes on one PostgreSQL: [`events`] (the bus between nodes, over
//!   `LISTEN/NOTIFY`) and [`ownership`] (which node runs a game).
//! - [`sql`]: the statements, each that both backends run written once.
//!
//! The record is the moves table with a unique `(game, ply)`: a move is stored once, and a
//! game is what its stored moves replay to.
use std::{future::Future, pin::Pin};

use boardcraft_protocol::{
    EndCause, GamePlayers, GameResult, Rating, RatingChange, SeatIndex, SeatLeft, SeatPlayers,
    SeatResult, TimeControl, http::AccountInfo,
};

pub mod events;
pub mod limits;
pub mod lobby;
pub mod migrations;
pub mod ownership;
pub mod postgres;
pub mod sql;
pub mod sqlite;

pub use crate::ratings::{Glicko, GlickoChange, GlickoChanges};
pub use ownership::{Acquired, ClusterEvent};

/// A storage operation's future (boxed, so that the trait can be used as `dyn Storage`).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The row exists already (a move for a ply that is stored, a duplicate id).
    #[error("already stored: {0}")]
    Conflict(String),
    /// This node no longer runs the game (another node took it over): nothing was stored.
    #[error("game {0} is run by another node now")]
    NotOwner(String),
    /// The database failed or cannot be reached.
    #[error("database error: {0}")]
    Backend(String),
}

/// The database's failures are the server's: `internal` to the protocol.
impl crate::refusals::Refusal for StoreError {
    fn code(&self) -> boardcraft_protocol::ErrorCode {
        boardcraft_protocol::ErrorCode::Internal
    }
}

/// A game as created: everything but its moves and end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: String,
    /// The variant's name.
    pub variant: String,
    /// The posted variant file's text (`None` for a shipped variant, found by name).
    pub variant_file: Option<String>,
    pub time_control: Option<TimeControl>,
    /// The seat tokens, one per seat in seat order (White's and Black's in a two-seat game):
    /// their number is the game's number of seats.
    pub tokens: Vec<String>,
    /// The seat of the player who created the game (holds its token from the start).
    pub creator: SeatIndex,
    /// The invite for the other seats (`None` for a rematch, whose seats are all taken).
    pub invite: Option<String>,
    /// Whether each seat is taken, in seat order (the creator's from the start).
    pub joined: Vec<bool>,
    /// Milliseconds since the Unix epoch.
    pub created_ms: i64,
    pub rematch_of: Option<String>,
    /// A game between accounts (made in the lobby); `None` for invite games.
    pub players: Option<AccountSeats>,
}

impl GameRecord {
    /// The game's number of seats.
    pub fn seats(&self) -> usize {
        self.tokens.len()
    }

    /// Every seat is taken: the game is on.
    pub fn started(&self) -> bool {
        self.joined.iter().all(|j| *j)
    }

    /// Whether the game's seats are kept in `game_seats` (more than two) rather than in the
    /// games row's White and Black columns.
    pub(crate) fn many_seats(&self) -> bool {
        self.seats() > 2
    }
}

/// The accounts that play a game made in the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountSeats {
    /// Account ids, one per seat in seat order.
    pub accounts: Vec<String>,
    /// The players as they were when the game was made (names, ratings in the variant, flags)
    /// and whether it is rated.
    pub players: SeatPlayers,
}

impl AccountSeats {
    pub fn rated(&self) -> bool {
        self.players.rated
    }
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    pub ply: u32,
    pub notation: String,
    /// Every seat's clock after the move, in seat order, for timed games.
    pub clocks: Option<Vec<u64>>,
    /// When it was stored, milliseconds since the Unix epoch.
    pub at_ms: i64,
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub record: GameRecord,
    pub moves: Vec<StoredMove>,
    pub result: Option<SeatResult>,
    /// The rematch's id, once made.
    pub rematch: Option<String>,
    /// How a finished rated game changed every seat's rating, in seat order.
    pub ratings: Option<Vec<RatingChange>>,
    /// The seats that left a game of more than two seats while the others played on, in the
    /// order they left.
    pub left: Vec<SeatLeft>,
}

/// A player's account. A guest has neither a password nor a Telegram link: only the sessions
/// made for it sign it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    /// As chosen (or generated), in its case; unique without regard to case.
    pub name: String,
    /// The Argon2id hash in PHC form (`$argon2id$v=19$…`), once a password is set.
    pub password_hash: Option<String>,
    pub telegram_id: Option<i64>,
    /// Set by the operator only (`boardcraft-server account make-bot NAME`).
    pub bot: bool,
    pub created_ms: i64,
}

impl Account {
    pub fn is_guest(&self) -> bool {
        self.password_hash.is_none() && self.telegram_id.is_none()
    }
}

/// An account as the protocol shows it (`/api/me`, the lobby's players).
pub(crate) fn info_of(a: &Account) -> AccountInfo {
    AccountInfo {
        id: a.id.clone(),
        name: a.name.clone(),
        guest: a.is_guest(),
        bot: a.bot,
        telegram: a.telegram_id.is_some(),
    }
}

/// The end of a game between accounts: what [`GameStore::finish_account_game`] needs besides
/// the result.
pub struct AccountEnd {
    pub variant: String,
    /// The game's number of seats: ratings are kept per variant and number of seats.
    pub seats: u8,
    /// A player's rating before its first rated game of the variant and number of seats.
    pub fresh: Glicko,
    /// The seats' account ids, in the seats' order (the order [`RatingRule`] reads and answers
    /// ratings in).
    pub accounts: Vec<String>,
    /// How the end changes the seats' ratings: the game service's rule (`None`: not rated).
    /// The store runs it inside the transaction that stores the end, on the seats' ratings as
    /// they are then, and only if this end is the game's first.
    pub rate: Option<RatingRule>,
}

/// A rating rule: the seats' ratings now (in the seats' order) → what the game does to them.
pub type RatingRule = Box<dyn FnOnce(&[Glicko]) -> Rerated + Send>;

/// What a rated end does, as its [`RatingRule`] computed it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rerated {
    /// Each seat's rating after the game, in the seats' order.
    pub after: Vec<Glicko>,
    /// What the game's row keeps of the change (the `rating_changes` column, JSON), for the
    /// game and the archive to show.
    pub record: String,
}

/// Each seat's rating before and after (what a store answers for a rated end), from the
/// ratings it read and the ones its rule answered: refused if the rule answered for another
/// number of seats.
pub(crate) fn seat_changes(
    before: Vec<Glicko>,
    rerated: &Rerated,
) -> Result<Vec<GlickoChange>, StoreError> {
    if rerated.after.len() != before.len() {
        return Err(StoreError::Backend(format!(
            "the rating rule answered {} ratings for {} seats",
            rerated.after.len(),
            before.len()
        )));
    }
    Ok(before
        .into_iter()
        .zip(rerated.after.iter().copied())
        .map(|(before, after)| GlickoChange { before, after })
        .collect())
}

/// A finished game in a player's archive.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchivedGame {
    pub id: String,
    pub variant: String,
    pub time_control: Option<TimeControl>,
    pub players: GamePlayers,
    pub result: GameResult,
    pub ratings: Option<GlickoChanges>,
    pub plies: u32,
    pub created_ms: i64,
    pub ended_ms: i64,
}

/// A player's wins, draws and losses in one variant (aborted games are not counted).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tally {
    pub variant: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// A row of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    pub account: Account,
    pub rating: Rating,
}

/// The case-insensitive key of a name: what uniqueness and look-ups use.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// The accounts, their sessions, and their ratings (as rated games left them). Every method
/// returns once the change is committed.
pub trait AccountStore: Send + Sync {
    /// Stores a new account ([`StoreError::Conflict`] if its name, id or Telegram id exists).
    fn create_account(&self, account: Account) -> StoreFuture<'_, ()>;
    fn account(&self, id: String) -> StoreFuture<'_, Option<Account>>;
    fn account_by_name(&self, name: String) -> StoreFuture<'_, Option<Account>>;
    fn account_by_telegram(&self, telegram_id: i64) -> StoreFuture<'_, Option<Account>>;
    /// Sets the name and password of an account that has no password yet; `false` if it has
    /// one (or is gone); [`StoreError::Conflict`] if the name is taken.
    fn claim_account(
        &self,
        id: String,
        name: String,
        password_hash: String,
    ) -> StoreFuture<'_, bool>;
    /// Sets a new password hash and ends every other session of the account: the token hashes
    /// of the sessions ended (so that their sockets can be closed).
    fn set_password(
        &self,
        id: String,
        password_hash: String,
        keep_session: String,
    ) -> StoreFuture<'_, Vec<String>>;
    /// Links a Telegram user to an account that has none; `false` if it has one;
    /// [`StoreError::Conflict`] if that Telegram user is linked to another account.
    fn link_telegram(&self, id: String, telegram_id: i64) -> StoreFuture<'_, bool>;
    /// Marks the account named `name` as a bot or not; `false` if there is no such account.
    fn set_bot(&self, name: String, bot: bool) -> StoreFuture<'_, bool>;
    /// Stores a session: the SHA-256 of its token, never the token.
    fn create_session(
        &self,
        token_hash: String,
        account: String,
        created_ms: i64,
    ) -> StoreFuture<'_, ()>;
    /// The account a session (by its token's hash) signs in.
    fn session_account(&self, token_hash: String) -> StoreFuture<'_, Option<Account>>;
    fn delete_session(&self, token_hash: String) -> StoreFuture<'_, ()>;
    /// An account's ratings, one per variant and number of seats it played rated games in.
    fn ratings(&self, account: String) -> StoreFuture<'_, Vec<Rating>>;
}

/// The games: made, loaded, played, ended. Every method returns once the change is
/// committed; on a cluster, a write of a game another node runs now is refused
/// ([`StoreError::NotOwner`]).
pub trait GameStore: Send + Sync {
    /// Stores a new game ([`StoreError::Conflict`] if the id, invite or rematch exists).
    fn create_game(&self, game: GameRecord) -> StoreFuture<'_, ()>;
    fn load_game(&self, id: String) -> StoreFuture<'_, Option<StoredGame>>;
    /// The game an invite belongs to.
    fn game_of_invite(&self, invite: String) -> StoreFuture<'_, Option<String>>;
    /// Marks `seat` taken (in a two-seat game: the second seat, whichever `seat` says);
    /// `false` if it was taken already.
    fn mark_joined(&self, id: String, seat: SeatIndex) -> StoreFuture<'_, bool>;
    /// Records that a seat of a game of more than two seats left while the others play on.
    fn seat_left(&self, id: String, left: SeatLeft) -> StoreFuture<'_, ()>;
    /// Stores a move; [`StoreError::Conflict`] if its ply is stored already.
    fn append_move(&self, id: String, mv: StoredMove) -> StoreFuture<'_, ()>;
    /// Deletes the moves from `from_ply` on (an accepted takeback).
    fn truncate_moves(&self, id: String, from_ply: u32) -> StoreFuture<'_, ()>;
    fn finish_game(&self, id: String, result: SeatResult) -> StoreFuture<'_, ()>;
    /// Stores the end of a game between accounts, if it has not ended yet, in one transaction
    /// with what `end.rate` does to the seats' ratings: the game's row and the seats' ratings
    /// locked (so that two games of one player ending together are rated one after the
    /// other), the rule run on the ratings read, its ratings and record written. Answers
    /// each seat's rating before and after, in the seats' order (`None`: no rule, or the game
    /// had ended already, and nothing was stored).
    fn finish_account_game(
        &self,
        id: String,
        result: SeatResult,
        end: AccountEnd,
    ) -> StoreFuture<'_, Option<Vec<GlickoChange>>>;
    /// The ids of every stored game, oldest first (for checks and tools).
    fn game_ids(&self) -> StoreFuture<'_, Vec<String>>;
}

/// The finished games, as the players' pages read them.
pub trait ArchiveStore: Send + Sync {
    /// An account's finished games, newest first: `limit` from `offset` on.
    fn player_games(
        &self,
        account: String,
        offset: u32,
        limit: u32,
    ) -> StoreFuture<'_, Vec<ArchivedGame>>;
    /// An account's wins, draws and losses per variant.
    fn tallies(&self, account: String) -> StoreFuture<'_, Vec<Tally>>;
    /// The best non-provisional ratings of a variant in games of `seats` seats, best first.
    fn leaderboard(&self, variant: String, seats: u8, limit: u32) -> StoreFuture<'_, Vec<Ranked>>;
}

/// Which node runs a game, when several share one PostgreSQL (see `ownership`). The defaults
/// are one database file's, with one server: every game is this node's.
pub trait ClusterStore: Send + Sync {
    /// Takes the right to run the game on this node.
    fn acquire(&self, _id: String) -> StoreFuture<'_, Acquired> {
        Box::pin(async { Ok(Acquired::Yes) })
    }
    /// Gives the right back (the game's task stopped).
    fn release(&self, _id: String) -> StoreFuture<'_, ()> {
        Box::pin(async { Ok(()) })
    }
    /// Asks the node that runs the game to let it go.
    fn request_handover(&self, _id: String) -> StoreFuture<'_, ()> {
        Box::pin(async { Ok(()) })
    }
    /// Handover requests and lost locks, for a store shared by several nodes.
    fn cluster_events(&self) -> Option<tokio::sync::broadcast::Receiver<ClusterEvent>> {
        None
    }
}

/// The whole database, for wiring the server (`storage::open` answers one): each service
/// takes only its part ([`GameStore`], [`AccountStore`], [`ArchiveStore`], [`ClusterStore`],
/// [`lobby::LobbyStore`], [`limits::LimitStore`]).
pub trait Storage:
    AccountStore + GameStore + ArchiveStore + ClusterStore + lobby::LobbyStore + 'static
{
    /// `sqlite` or `postgres`.
    fn kind(&self) -> &'static str;
    /// Answers when the database does.
    fn health(&self) -> StoreFuture<'_, ()>;
    /// The limits every node on this database shares (storage/limits.rs). Reached through
    /// here rather than as a part of the bundle: its `release` gives back a limit's place,
    /// the cluster's a game.
    fn limits(&self) -> Option<&dyn limits::LimitStore>;
}

/// Opens the database a `--database` value names: `postgres://…` / `postgresql://…`, or
/// `sqlite://PATH` / a plain path for SQLite.
pub async fn open(url: &str) -> Result<std::sync::Arc<dyn Storage>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(std::sync::Arc::new(
            postgres::PostgresStore::connect(url).await?,
        ))
    } else {
        let path = url.strip_prefix("sqlite://").unwrap_or(url);
        Ok(std::sync::Arc::new(sqlite::SqliteStore::open(
            path.as_ref(),
        )?))
    }
}

/// The `creator` column: `white` and `black` for seats 0 and 1 (as two-seat games always
/// wrote it), `seat2` … for the others.
pub(crate) fn creator_name(seat: SeatIndex) -> String {
    match seat {
        0 => "white".into(),
        1 => "black".into(),
        n => format!("seat{n}"),
    }
}

pub(crate) fn creator_of(name: &str) -> Result<SeatIndex, StoreError> {
    match name {
        "white" => Ok(0),
        "black" => Ok(1),
        other => other
            .strip_prefix("seat")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| StoreError::Backend(format!("bad seat `{other}` in the database"))),
    }
}

/// One row of `game_seats` (games of more than two seats), as read.
pub(crate) struct SeatRow {
    pub token: String,
    pub account: Option<String>,
    pub joined: bool,
    pub left_ply: Option<i64>,
    pub left_place: Option<i64>,
    pub left_cause: Option<String>,
}

/// The seats' tokens, joined flags, accounts and departures from their rows (in seat order).
#[allow(clippy::type_complexity)]
pub(crate) fn from_seat_rows(
    rows: Vec<SeatRow>,
) -> Result<(Vec<String>, Vec<bool>, Vec<Option<String>>, Vec<SeatLeft>), StoreError> {
    let mut tokens = Vec::with_capacity(rows.len());
    let mut joined = Vec::with_capacity(rows.len());
    let mut accounts = Vec::with_capacity(rows.len());
    let mut left = Vec::new();
    for (seat, row) in rows.into_iter().enumerate() {
        if let (Some(ply), Some(place), Some(cause)) =
            (row.left_ply, row.left_place, row.left_cause)
        {
            left.push(SeatLeft {
                seat: seat as SeatIndex,
                place: place as u8,
                ply: ply as u32,
                cause: from_json(Some(cause), "departure")?.expect("some"),
            });
        }
        tokens.push(row.token);
        joined.push(row.joined);
        accounts.push(row.account);
    }
    // In the order they left: by ply, and at one ply the one placed lower left first.
    left.sort_by_key(|l| (l.ply, std::cmp::Reverse(l.place)));
    Ok((tokens, joined, accounts, left))
}

/// A departure's cause as the `left_cause` column keeps it.
pub(crate) fn cause_json(cause: &EndCause) -> String {
    json_of(cause)
}

/// A row of [`sql::ARCHIVE`], as read.
pub(crate) struct ArchiveRow {
    pub id: String,
    pub variant: String,
    pub initial: Option<i64>,
    pub increment: Option<i64>,
    pub players: Option<String>,
    pub result: Option<String>,
    pub changes: Option<String>,
    pub plies: i64,
    pub created_ms: i64,
    pub ended_ms: Option<i64>,
}

impl ArchiveRow {
    pub(crate) fn into_game(self) -> Result<ArchivedGame, StoreError> {
        let broken = |what: &str| StoreError::Backend(format!("game {}: no {what}", self.id));
        Ok(ArchivedGame {
            players: from_json(self.players.clone(), "players")?
                .ok_or_else(|| broken("players"))?,
            result: result_of(self.result.clone())?.ok_or_else(|| broken("result"))?,
            ratings: from_json(self.changes.clone(), "rating changes")?,
            time_control: time_control_of(self.initial, self.increment),
            plies: self.plies as u32,
            ended_ms: self.ended_ms.unwrap_or(self.created_ms),
            created_ms: self.created_ms,
            variant: self.variant,
            id: self.id,
        })
    }
}

/// The `outcome` column: who won, a draw, or aborted (what the tallies of two-seat games
/// read); `places` for a game of more seats.
pub(crate) fn outcome_of(result: &SeatResult) -> &'static str {
    let Some(result) = result.two_seats() else {
        return "places";
    };
    match (&result.cause, result.winner) {
        (EndCause::Aborted, _) => "aborted",
        (_, Some(side)) => side.name(),
        (_, None) => "draw",
    }
}

pub(crate) fn json_of<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data always serialises")
}

pub(crate) fn from_json<T: serde::de::DeserializeOwned>(
    text: Option<String>,
    what: &str,
) -> Result<Option<T>, StoreError> {
    text.map(|t| {
        serde_json::from_str(&t)
            .map_err(|e| StoreError::Backend(format!("bad {what} in the database: {e}")))
    })
    .transpose()
}

/// The games row's account columns: (white, black, rated, players JSON). A two-seat game's
/// players are version 2's `GamePlayers` (what the archive reads); a game of more seats keeps
/// its accounts in `game_seats` (White's and Black's columns empty: the archive and tallies
/// are of two-seat games) and its players seat by seat.
pub(crate) fn seat_columns(
    players: &Option<AccountSeats>,
) -> (Option<String>, Option<String>, bool, Option<String>) {
    match players {
        Some(p) => match p.players.two_seats() {
            Some(two) => (
                Some(p.accounts[0].clone()),
                Some(p.accounts[1].clone()),
                p.rated(),
                Some(json_of(&two)),
            ),
            None => (None, None, p.rated(), Some(json_of(&p.players))),
        },
        None => (None, None, false, None),
    }
}

/// A two-seat game's accounts from its row's columns.
pub(crate) fn seats_of(
    white: Option<String>,
    black: Option<String>,
    players: Option<String>,
) -> Result<Option<AccountSeats>, StoreError> {
    let players: Option<GamePlayers> = from_json(players, "players")?;
    Ok(match (white, black, players) {
        (Some(w), Some(b), Some(players)) => Some(AccountSeats {
            accounts: vec![w, b],
            players: players.into(),
        }),
        _ => None,
    })
}

/// A game of more seats' accounts from its seats' rows and its players column.
pub(crate) fn many_seats_of(
    accounts: Vec<Option<String>>,
    players: Option<String>,
) -> Result<Option<AccountSeats>, StoreError> {
    let players: Option<SeatPlayers> = from_json(players, "players")?;
    let accounts: Option<Vec<String>> = accounts.into_iter().collect();
    Ok(match (accounts, players) {
        (Some(accounts), Some(players)) => Some(AccountSeats { accounts, players }),
        _ => None,
    })
}

/// The `rating_changes` column as the game shows it: Glicko-2's two changes (White's and
/// Black's) for two seats, Weng-Lin's list for more.
pub(crate) fn shown_ratings(
    text: Option<String>,
    seats: usize,
) -> Result<Option<Vec<RatingChange>>, StoreError> {
    if seats == 2 {
        return Ok(
            from_json::<GlickoChanges>(text, "rating changes")?.map(|c| {
                let shown = c.shown();
                vec![shown.white, shown.black]
            }),
        );
    }
    Ok(from_json::<Vec<GlickoChange>>(text, "rating changes")?
        .map(|c| crate::ratings::shown_changes(&c, seats as u8)))
}

/// A move's clocks from its row: the `seat_ms` list (games of more than two seats), or
/// White's and Black's columns.
pub(crate) fn clocks_of(
    white: Option<i64>,
    black: Option<i64>,
    seats: Option<String>,
) -> Result<Option<Vec<u64>>, StoreError> {
    if seats.is_some() {
        return from_json(seats, "clocks");
    }
    Ok(white.zip(black).map(|(w, b)| vec![w as u64, b as u64]))
}

/// A move's clock columns: White's, Black's, and (more than two seats) the whole list.
pub(crate) fn clock_columns(
    clocks: &Option<Vec<u64>>,
) -> (Option<i64>, Option<i64>, Option<String>) {
    match clocks {
        None => (None, None, None),
        Some(c) => (
            c.first().map(|&v| v as i64),
            c.get(1).map(|&v| v as i64),
            (c.len() > 2).then(|| json_of(c)),
        ),
    }
}

/// Now, in milliseconds since the Unix epoch (what the tables keep, and the server's other
/// wall-clock times).
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The `result` column: a two-seat game's as version 2 says it (the archive reads it), a
/// game of more seats' as its places.
pub(crate) fn result_json(result: &SeatResult) -> String {
    match result.two_seats() {
        Some(two) => serde_json::to_string(&two),
        None => serde_json::to_string(result),
    }
    .expect("a result always serialises")
}

/// The `result` column read back as places.
pub(crate) fn seat_result_of(text: Option<String>) -> Result<Option<SeatResult>, StoreError> {
    let Some(text) = text else { return Ok(None) };
    if let Ok(places) = serde_json::from_str::<SeatResult>(&text) {
        return Ok(Some(places));
    }
    Ok(result_of(Some(text))?.map(|r| SeatResult::from_two_seats(&r)))
}

/// A two-seat game's `result` column (the archive's).
pub(crate) fn result_of(text: Option<String>) -> Result<Option<GameResult>, StoreError> {
    text.map(|t| {
        serde_json::from_str(&t)
            .map_err(|e| StoreError::Backend(format!("bad result in the database: {e}")))
    })
    .transpose()
}

pub(crate) fn time_control_of(initial: Option<i64>, increment: Option<i64>) -> Option<TimeControl> {
    initial.map(|i| TimeControl {
        initial_ms: i as u64,
        increment_ms: increment.unwrap_or(0) as u64,
    })
}
