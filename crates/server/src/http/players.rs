//! Protocol 2's public pages of players: a profile (ratings, wins/draws/losses, recent games),
//! a player's archive of finished games (newest first, paged) and a leaderboard per variant
//! (the best non-provisional ratings). Read-only, no sign-in: what anyone may see of a player.
use std::{
    collections::HashMap,
    sync::{Arc, Mutex, OnceLock},
};

use axum::{
    Json,
    extract::{Path, Query, State},
};
use boardcraft_protocol::{
    ErrorCode, PlayerInfo,
    http::{
        ArchivedGame, Leaderboard, PlayerGames, Profile, Ranked, Tally, VariantRating, VariantTally,
    },
};
use serde::Deserialize;

use crate::{
    game::rules,
    http::{AppState, Refused},
    storage::{self, Account},
};

/// Games in a profile's `recent`.
const RECENT: u32 = 10;

/// A variant's title (the name if it is not a shipped variant any more), parsed once.
pub fn variant_title(variant: &str) -> String {
    static TITLES: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    let titles = TITLES.get_or_init(Default::default);
    if let Some(t) = titles.lock().expect("not poisoned").get(variant) {
        return t.clone();
    }
    let title = rules::variant_of(variant, None)
        .map(|v| v.title)
        .unwrap_or_else(|_| variant.to_owned());
    titles
        .lock()
        .expect("not poisoned")
        .insert(variant.to_owned(), title.clone());
    title
}

/// A player as others see them (no rating: none is at hand).
pub fn public_info(account: &Account) -> PlayerInfo {
    PlayerInfo {
        name: account.name.clone(),
        rating: None,
        bot: account.bot,
        guest: account.is_guest(),
    }
}

fn archived(g: storage::ArchivedGame) -> ArchivedGame {
    ArchivedGame {
        variant_title: variant_title(&g.variant),
        rated: g.players.rated,
        ratings: g.ratings.map(|c| c.shown()),
        game: g.id,
        variant: g.variant,
        time_control: g.time_control,
        players: g.players,
        result: g.result,
        moves: g.plies,
        started_ms: g.created_ms,
        ended_ms: g.ended_ms,
    }
}

async fn account_named(state: &AppState, name: &str) -> Result<Account, Refused> {
    let not_found = || Refused::new(ErrorCode::PlayerNotFound, format!("no player `{name}`"));
    if name.is_empty() || name.len() > 64 {
        return Err(not_found());
    }
    state
        .store
        .account_by_name(name.to_owned())
        .await?
        .ok_or_else(not_found)
}

/// `GET /api/players/{name}`.
pub async fn profile(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Json<Profile>, Refused> {
    let account = account_named(&state, &name).await?;
    let store = &state.store;
    let ratings = store
        .ratings(account.id.clone())
        .await?
        .into_iter()
        .map(|r| VariantRating {
            variant_title: variant_title(&r.variant),
            provisional: r.provisional(),
            variant: r.variant,
            seats: r.seats,
            rating: r.rating,
            deviation: r.deviation,
            games: r.games,
        })
        .collect();
    let mut total = Tally::default();
    let tallies = store
        .tallies(account.id.clone())
        .await?
        .into_iter()
        .map(|t| {
            total.wins += t.wins;
            total.draws += t.draws;
            total.losses += t.losses;
            VariantTally {
                variant_title: variant_title(&t.variant),
                variant: t.variant,
                tally: Tally {
                    wins: t.wins,
                    draws: t.draws,
                    losses: t.losses,
                },
            }
        })
        .collect();
    let recent = store
        .player_games(account.id.clone(), 0, RECENT)
        .await?
        .into_iter()
        .map(archived)
        .collect();
    Ok(Json(Profile {
        player: public_info(&account),
        ratings,
        tallies,
        total,
        recent,
    }))
}

#[derive(Deserialize)]
pub struct PageQuery {
    page: Option<u32>,
}

/// `GET /api/players/{name}/games?page=N` (pages from 1).
pub async fn games(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    Query(query): Query<PageQuery>,
) -> Result<Json<PlayerGames>, Refused> {
    let page = query.page.unwrap_or(1);
    if page == 0 || page > 100_000 {
        return Err(Refused::new(
            ErrorCode::BadRequest,
            "pages are counted from 1",
        ));
    }
    let account = account_named(&state, &name).await?;
    let mut games = state
        .store
        .player_games(
            account.id.clone(),
            (page - 1) * PlayerGames::PAGE,
            PlayerGames::PAGE + 1,
        )
        .await?;
    let more = games.len() > PlayerGames::PAGE as usize;
    games.truncate(PlayerGames::PAGE as usize);
    Ok(Json(PlayerGames {
        player: account.name,
        page,
        games: games.into_iter().map(archived).collect(),
        more,
    }))
}

/// `GET /api/leaderboard/{variant}`: the two-seat games'.
pub async fn leaderboard(
    State(state): State<Arc<AppState>>,
    Path(variant): Path<String>,
) -> Result<Json<Leaderboard>, Refused> {
    board(&state, &variant, 2).await
}

/// `GET /api/leaderboard/{variant}/{seats}`: the games of `seats` seats' (a number of players
/// the variant is played by).
pub async fn leaderboard_seats(
    State(state): State<Arc<AppState>>,
    Path((variant, seats)): Path<(String, String)>,
) -> Result<Json<Leaderboard>, Refused> {
    let not_played = || {
        Refused::new(
            ErrorCode::VariantNotFound,
            format!("no variant `{variant}` for {seats} players"),
        )
    };
    let seats: u8 = seats.parse().map_err(|_| not_played())?;
    board(&state, &variant, seats).await
}

async fn board(state: &AppState, variant: &str, seats: u8) -> Result<Json<Leaderboard>, Refused> {
    let shipped = rules::variant_of(variant, None)
        .ok()
        .filter(|v| v.for_players(usize::from(seats)).is_ok())
        .ok_or_else(|| {
            Refused::new(
                ErrorCode::VariantNotFound,
                format!("no variant `{variant}` for {seats} players"),
            )
        })?;
    let rows = state
        .store
        .leaderboard(shipped.name.clone(), seats, Leaderboard::SIZE)
        .await?;
    let players = rows
        .into_iter()
        .enumerate()
        .map(|(i, r)| Ranked {
            rank: i as u32 + 1,
            player: PlayerInfo {
                rating: Some(r.rating.short()),
                ..public_info(&r.account)
            },
            rating: r.rating.rating,
            deviation: r.rating.deviation,
            games: r.rating.games,
        })
        .collect();
    Ok(Json(Leaderboard {
        variant: shipped.name,
        variant_title: shipped.title,
        seats,
        players,
    }))
}
