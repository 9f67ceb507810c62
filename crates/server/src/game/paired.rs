//! Games between two accounts (protocol 2): made by the lobby (a seek, a pool, a challenge)
//! with both seats taken. Each player gets its seat token and plays over the game websocket
//! exactly as in an invite game; the game knows the accounts, so that its end is rated and
//! archived.
use boardcraft_protocol::{GamePlayers, PlayerInfo, Rating, SeatPlayers, Side, TimeControl};
use tracing::info;

use super::{GameError, Games, rules};
use crate::{
    secrets,
    storage::{AccountSeats, AccountStore, GameRecord},
};

/// What the lobby asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairedGame {
    /// A shipped variant's name.
    pub variant: String,
    /// `None`: untimed (never rated).
    pub time_control: Option<TimeControl>,
    pub rated: bool,
    /// White's account id.
    pub white: String,
    /// Black's account id.
    pub black: String,
}

/// The game made: its id, both seat tokens (indexed by [`Side::index`]: hand each player
/// its own), and the players as the lobby's `paired` shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairedSeats {
    pub game: String,
    pub tokens: [String; 2],
    pub players: GamePlayers,
}

impl PairedSeats {
    pub fn token(&self, side: Side) -> &str {
        &self.tokens[side.index()]
    }
}

/// A time control a game may have (the same bounds as `POST /api/games`).
pub fn time_control_allowed(tc: &TimeControl) -> bool {
    tc.initial_ms > 0 && tc.initial_ms <= 24 * 3_600_000 && tc.increment_ms <= 3_600_000
}

/// A game between accounts at a table of any size (protocol 3): one account per seat, in
/// seat order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatedGame {
    /// A shipped variant's name.
    pub variant: String,
    /// `None`: untimed (never rated).
    pub time_control: Option<TimeControl>,
    pub rated: bool,
    /// The accounts, seat by seat: their number is the game's number of seats.
    pub accounts: Vec<String>,
}

/// The game made: its id, every seat's token (hand each player its own), and the players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatedSeats {
    pub game: String,
    pub tokens: Vec<String>,
    pub players: SeatPlayers,
}

/// Makes and stores a game between accounts, one per seat, every seat taken. Refused (nothing
/// stored): [`GameError::VariantNotFound`], [`GameError::SeatsNotOffered`] (the variant is not
/// played by that many), [`GameError::RatedWithoutClock`],
/// [`GameError::TimeControlOutOfBounds`], [`GameError::PlaysThemself`] (an account twice),
/// [`GameError::NoAccount`], [`GameError::Storage`].
pub async fn create_seated_game(
    games: &Games,
    request: SeatedGame,
) -> Result<SeatedSeats, GameError> {
    let variant = rules::variant_of(&request.variant, None).map_err(GameError::VariantNotFound)?;
    let seats = request.accounts.len();
    let variant = rules::seated(variant, seats)?;
    if request.rated && request.time_control.is_none() {
        return Err(GameError::RatedWithoutClock);
    }
    if let Some(tc) = &request.time_control
        && !time_control_allowed(tc)
    {
        return Err(GameError::TimeControlOutOfBounds);
    }
    let mut distinct = request.accounts.clone();
    distinct.sort();
    distinct.dedup();
    if distinct.len() != seats {
        return Err(GameError::PlaysThemself);
    }
    let players = players_of(
        games.accounts.as_ref(),
        &variant.name,
        &request.accounts,
        request.rated,
    )
    .await?;
    let id = secrets::game_id();
    let tokens: Vec<String> = (0..seats).map(|_| secrets::seat_token()).collect();
    let record = GameRecord {
        id: id.clone(),
        variant: variant.name.clone(),
        variant_file: None,
        time_control: request.time_control,
        tokens: tokens.clone(),
        creator: 0,
        invite: None,
        joined: vec![true; seats],
        created_ms: super::now_ms(),
        rematch_of: None,
        players: Some(AccountSeats {
            accounts: request.accounts,
            players: players.clone(),
        }),
    };
    games.store.create_game(record).await?;
    info!(game = %id, variant = %variant.name, seats, rated = request.rated, time_control = ?request.time_control, "game between accounts created");
    Ok(SeatedSeats {
        game: id,
        tokens,
        players,
    })
}

/// Makes and stores a game between two accounts, both seats taken. Refused (nothing stored):
/// [`GameError::VariantNotFound`] (not a shipped variant), [`GameError::MoreThanTwoSeats`],
/// [`GameError::RatedWithoutClock`],
/// [`GameError::TimeControlOutOfBounds`], [`GameError::PlaysThemself`],
/// [`GameError::NoAccount`], [`GameError::Storage`] (the database).
pub async fn create_paired_game(
    games: &Games,
    request: PairedGame,
) -> Result<PairedSeats, GameError> {
    let variant = rules::variant_of(&request.variant, None).map_err(GameError::VariantNotFound)?;
    rules::two_seats(&variant)?;
    if request.rated && request.time_control.is_none() {
        return Err(GameError::RatedWithoutClock);
    }
    if let Some(tc) = &request.time_control
        && !time_control_allowed(tc)
    {
        return Err(GameError::TimeControlOutOfBounds);
    }
    if request.white == request.black {
        return Err(GameError::PlaysThemself);
    }
    let made = create_seated_game(
        games,
        SeatedGame {
            variant: request.variant,
            time_control: request.time_control,
            rated: request.rated,
            accounts: vec![request.white, request.black],
        },
    )
    .await?;
    let [white, black] = <[String; 2]>::try_from(made.tokens).expect("two seats");
    Ok(PairedSeats {
        game: made.game,
        tokens: [white, black],
        players: made.players.two_seats().expect("two seats"),
    })
}

/// Every seat's player as others see them now: names, flags, ratings in `variant` at a table
/// of this many seats.
pub(crate) async fn players_of(
    store: &dyn AccountStore,
    variant: &str,
    accounts: &[String],
    rated: bool,
) -> Result<SeatPlayers, GameError> {
    let seats = accounts.len() as u8;
    let mut infos = Vec::with_capacity(accounts.len());
    for id in accounts {
        let account = store
            .account(id.clone())
            .await?
            .ok_or_else(|| GameError::NoAccount(id.clone()))?;
        let rating = rating_at(store, id, variant, seats).await?;
        infos.push(PlayerInfo {
            name: account.name.clone(),
            rating: Some(rating.short()),
            bot: account.bot,
            guest: account.is_guest(),
        });
    }
    Ok(SeatPlayers {
        seats: infos,
        rated,
    })
}

/// An account's two-seat rating in a variant (a new player's when it has played no rated
/// game there).
pub async fn rating_in(
    store: &dyn AccountStore,
    account: &str,
    variant: &str,
) -> Result<Rating, crate::storage::StoreError> {
    rating_at(store, account, variant, 2).await
}

/// An account's rating in a variant at a table of `seats` (a new player's when it has played
/// no rated game there).
pub async fn rating_at(
    store: &dyn AccountStore,
    account: &str,
    variant: &str,
    seats: u8,
) -> Result<Rating, crate::storage::StoreError> {
    let ratings = store.ratings(account.to_owned()).await?;
    Ok(ratings
        .into_iter()
        .find(|r| r.variant == variant && r.seats == seats)
        .unwrap_or_else(|| {
            let g = crate::ratings::fresh(usize::from(seats));
            Rating {
                variant: variant.to_owned(),
                rating: g.rating,
                deviation: g.deviation,
                volatility: g.volatility,
                games: 0,
                seats,
            }
        }))
}
