//! Games between two accounts (protocol 2): made by the lobby (a seek, a pool, a challenge)
//! with both seats taken. Each player gets its seat token and plays over the game websocket
//! exactly as in an invite game; the game knows the accounts, so that its end is rated and
//! archived.
use boardcraft_protocol::{GamePlayers, PlayerInfo, Rating, Side, TimeControl};
use tracing::info;

use super::{GameError, Games, rules};
use crate::{
    secrets,
    storage::{AccountSeats, AccountStore, GameRecord, Glicko},
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
    let accounts = [request.white, request.black];
    let players = players_of(
        games.accounts.as_ref(),
        &variant.name,
        &accounts,
        request.rated,
    )
    .await?;
    let id = secrets::game_id();
    let tokens = [secrets::seat_token(), secrets::seat_token()];
    let record = GameRecord {
        id: id.clone(),
        variant: variant.name.clone(),
        variant_file: None,
        time_control: request.time_control,
        tokens: tokens.clone(),
        creator: Side::White,
        invite: None,
        joined: true,
        created_ms: super::now_ms(),
        rematch_of: None,
        players: Some(AccountSeats {
            accounts,
            players: players.clone(),
        }),
    };
    games.store.create_game(record).await?;
    info!(game = %id, variant = %variant.name, rated = request.rated, time_control = ?request.time_control, "paired game created");
    Ok(PairedSeats {
        game: id,
        tokens,
        players,
    })
}

/// Both players as others see them now: names, flags, ratings in `variant`.
pub(crate) async fn players_of(
    store: &dyn AccountStore,
    variant: &str,
    accounts: &[String; 2],
    rated: bool,
) -> Result<GamePlayers, GameError> {
    let mut infos = Vec::with_capacity(2);
    for id in accounts {
        let account = store
            .account(id.clone())
            .await?
            .ok_or_else(|| GameError::NoAccount(id.clone()))?;
        let rating = rating_in(store, id, variant).await?;
        infos.push(PlayerInfo {
            name: account.name.clone(),
            rating: Some(rating.short()),
            bot: account.bot,
            guest: account.is_guest(),
        });
    }
    let black = infos.pop().expect("two");
    let white = infos.pop().expect("two");
    Ok(GamePlayers {
        white,
        black,
        rated,
    })
}

/// An account's rating in a variant (a new player's when it has played no rated game there).
pub async fn rating_in(
    store: &dyn AccountStore,
    account: &str,
    variant: &str,
) -> Result<Rating, crate::storage::StoreError> {
    let ratings = store.ratings(account.to_owned()).await?;
    Ok(ratings
        .into_iter()
        .find(|r| r.variant == variant && r.seats == 2)
        .unwrap_or_else(|| {
            let g = Glicko::default();
            Rating {
                variant: variant.to_owned(),
                rating: g.rating,
                deviation: g.deviation,
                volatility: g.volatility,
                games: 0,
                seats: 2,
            }
        }))
}
