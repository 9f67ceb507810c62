//! The HTTP side, the top floor: routes, the create / join / read handlers, per-address
//! limits, and the browser game's folder; beneath the router:
//! - [`accept`]: the accept loop (connections counted, header and idle timeouts);
//! - [`socket`]: what both websockets share: the checks before the upgrade, the hello's
//!   frame, and the session's loop (limits, flood, pings, idle timeout, outbox);
//! - [`ws`]: one task per game websocket (the hello, the relay to the game's task);
//! - [`lobby_ws`]: the lobby's websocket, over [`crate::lobby::Lobby`];
//! - [`accounts`]: guests, sign-in, sessions and their limits;
//! - [`players`]: profiles, archives and leaderboards;
//! - [`errors`]: the one refusal type ([`Refused`], from the services' errors), the
//!   extractors that refuse with it (the origin check, the signed-in account, JSON bodies),
//!   every refusal as JSON, and the request deadline.
//!
//! Its files use one another freely; below it are the services ([`crate::game`],
//! [`crate::lobby`]) and what they stand on.
use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use axum::{
    Json, Router,
    extract::{DefaultBodyLimit, Extension, Path, State},
    http::{HeaderMap, StatusCode, header},
    middleware,
    response::{IntoResponse, Response},
    routing::{get, post},
};
use boardcraft_protocol::{
    ColorChoice, ErrorCode, PROTOCOL_VERSION, SeatIndex, WS_PATH,
    http::{CreateGame, GameCreated, Health},
    paths,
};
use tower_http::services::ServeDir;
use tracing::info;

use crate::storage::now_ms;
use crate::{
    Settings,
    client_addr::ClientIp,
    game::{Command, GameError, Games, rules},
    rate_limit::Window,
    secrets,
    storage::GameRecord,
};

pub mod accept;
pub mod accounts;
pub mod errors;
pub mod lobby_ws;
pub mod players;
pub mod socket;
pub mod ws;

pub use errors::{CurrentAccount, JsonBody, Refused, SameOrigin};

/// What every handler shares.
pub struct AppState {
    pub games: Arc<Games>,
    /// The database, for the handlers: accounts and sessions (`accounts`), the players' pages
    /// (`players`), the shared limits, the health check. The games' own writes go through
    /// `games`.
    pub store: Arc<dyn crate::storage::Storage>,
    pub settings: Arc<Settings>,
    pub connections: AtomicU64,
    pub next_conn: AtomicU64,
    per_ip: Mutex<HashMap<IpAddr, u32>>,
    /// New games per address, in the last minute.
    created: Window<IpAddr>,
    /// Sign-in and guest limits, and password hashing.
    pub accounts: accounts::AccountLimits,
    /// The open sockets of each session (closed when it ends).
    pub sessions: Arc<crate::socket_sessions::SessionSockets>,
    /// The lobby (this node's share of it).
    pub lobby: Arc<crate::lobby::Lobby>,
}

impl AppState {
    pub fn new(
        games: Arc<Games>,
        settings: Arc<Settings>,
        lobby: Arc<crate::lobby::Lobby>,
    ) -> Arc<AppState> {
        Arc::new(AppState {
            lobby,
            store: games.storage().clone(),
            games,
            connections: AtomicU64::new(0),
            next_conn: AtomicU64::new(1),
            per_ip: Mutex::new(HashMap::new()),
            created: Window::new(
                settings.max_new_games_per_ip_per_minute,
                Duration::from_secs(60),
            ),
            accounts: accounts::AccountLimits::new(&settings),
            sessions: Arc::default(),
            settings,
        })
    }

    /// Counts a new websocket from `ip` (the client's address, through trusted proxies), or
    /// refuses it past the limit.
    pub fn open_connection(self: &Arc<Self>, ip: IpAddr) -> Option<ConnectionSlot> {
        let limit = self.settings.max_connections_per_ip;
        let mut per_ip = self.per_ip.lock().expect("not poisoned");
        let n = per_ip.entry(ip).or_insert(0);
        if limit != 0 && *n >= limit {
            return None;
        }
        *n += 1;
        self.connections.fetch_add(1, Ordering::Relaxed);
        Some(ConnectionSlot {
            state: self.clone(),
            ip,
        })
    }

    /// Whether `ip` may create another game now (and counts it).
    fn may_create(&self, ip: IpAddr) -> bool {
        self.created.reserve(&ip).is_ok()
    }
}

/// A counted websocket; dropping it frees the slot.
pub struct ConnectionSlot {
    state: Arc<AppState>,
    ip: IpAddr,
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        self.state.connections.fetch_sub(1, Ordering::Relaxed);
        let mut per_ip = self.state.per_ip.lock().expect("not poisoned");
        if let Some(n) = per_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                per_ip.remove(&self.ip);
            }
        }
    }
}

fn refused(what: &str, ip: Option<IpAddr>, code: ErrorCode, message: String) -> Refused {
    info!(?ip, code = %code, "refused {what}: {message}");
    Refused::new(code, message)
}

/// The game service's refusal of `what`, logged as [`refused`] does (its own failures are
/// warnings, from [`Refused::of`]).
fn refused_by_game(what: &str, ip: Option<IpAddr>, e: GameError) -> Refused {
    let refusal = Refused::from(e);
    if refusal.code != ErrorCode::Internal {
        info!(?ip, code = %refusal.code, "refused {what}: {}", refusal.message);
    }
    refusal
}

pub fn router(state: Arc<AppState>) -> Router {
    let mut app = Router::new()
        .route(paths::HEALTH, get(health))
        .route(paths::GAMES, post(create_game))
        .route(paths::GAME_ROUTE, get(public_state))
        .route(paths::SAVE_ROUTE, get(save_file))
        .route(paths::INVITE_ROUTE, post(join_by_invite))
        .route(paths::GUEST, post(accounts::create_guest))
        .route(paths::CLAIM, post(accounts::claim))
        .route(paths::PASSWORD, post(accounts::change_password))
        .route(
            paths::SESSION,
            post(accounts::sign_in).delete(accounts::sign_out),
        )
        .route(paths::TELEGRAM, post(accounts::telegram))
        .route(paths::ME, get(accounts::me))
        .route(paths::PLAYER_ROUTE, get(players::profile))
        .route(paths::PLAYER_GAMES_ROUTE, get(players::games))
        .route(paths::LEADERBOARD_ROUTE, get(players::leaderboard))
        .route(
            paths::LEADERBOARD_SEATS_ROUTE,
            get(players::leaderboard_seats),
        )
        .route(WS_PATH, get(ws::upgrade))
        .route(boardcraft_protocol::LOBBY_PATH, get(lobby_ws::upgrade))
        .layer(DefaultBodyLimit::max(state.settings.max_body_bytes()))
        .layer(middleware::from_fn(json_posts_only));
    app = match &state.settings.web_dir {
        // The browser game, with the .br/.gz files build-web.sh writes beside each file sent
        // instead when the browser accepts them: the download is several times smaller.
        Some(dir) => app.fallback_service(
            Router::new()
                .fallback_service(
                    ServeDir::new(dir)
                        .precompressed_br()
                        .precompressed_gzip()
                        .append_index_html_on_directories(true),
                )
                .layer(axum::middleware::from_fn(web_cache_control)),
        ),
        None => app.fallback(errors::no_web_folder),
    };
    // After the fallback, so that it is covered too: the deadline inside, the JSON errors
    // outside (they rewrite whatever answered, the deadline's 408 included).
    app.layer(middleware::from_fn_with_state(
        state.clone(),
        errors::deadline,
    ))
    .layer(middleware::from_fn(errors::json_errors))
    .with_state(state)
}

/// Every `POST` here must declare its body `application/json` (an empty body too), else 415:
/// the content types a page may send to another site without asking it first (a form's, or
/// `text/plain`) are refused, so that a page of another site cannot sign a browser in, even a
/// browser that sends no `Origin`. `DELETE` needs no such rule: no browser sends one to
/// another site without that site's consent (a CORS preflight, which this server never
/// grants).
async fn json_posts_only(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if request.method() == axum::http::Method::POST {
        // One header, one type: `text/plain; a=b, application/json` is a type a page may
        // send anywhere (its essence is text/plain), so a list is not searched for JSON.
        let mut declared = request.headers().get_all(header::CONTENT_TYPE).iter();
        let json = match (declared.next(), declared.next()) {
            (Some(value), None) => value.to_str().ok().is_some_and(|v| {
                !v.contains(',')
                    && v.split(';')
                        .next()
                        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
            }),
            _ => false,
        };
        if !json {
            return Refused::new(
                ErrorCode::UnsupportedMediaType,
                "a POST's body must be sent as Content-Type: application/json",
            )
            .into_response();
        }
    }
    next.run(request).await
}

/// What browsers may keep of the browser game (scripts/build-web.sh): the build's files under
/// `b/<hash>/` never change (their folder is named by their contents), so for a year; the page,
/// its service worker and build.json are checked on every load, so a new build is seen at once.
async fn web_cache_control(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let immutable = request.uri().path().starts_with("/b/");
    let mut response = next.run(request).await;
    if response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED {
        let value = if immutable {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static(value),
        );
    }
    response
}

async fn health(State(state): State<Arc<AppState>>) -> Response {
    let db = state.store.health().await;
    let body = Health {
        status: if db.is_ok() { "ok" } else { "database down" }.into(),
        protocol: PROTOCOL_VERSION,
        server: crate::SERVER_NAME.into(),
        games_active: state.games.active() as u64,
        connections: state.connections.load(Ordering::Relaxed),
        database: state.store.kind().into(),
    };
    let status = if db.is_ok() {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, Json(body)).into_response()
}

/// The base of links players open: `--public-url`, else `http://` + the request's Host.
fn base_url(settings: &Settings, headers: &HeaderMap) -> String {
    if let Some(url) = &settings.public_url {
        return url.trim_end_matches('/').to_owned();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("127.0.0.1:8787");
    format!("http://{host}")
}

async fn create_game(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(client)): Extension<ClientIp>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<CreateGame>,
) -> Result<(StatusCode, Json<GameCreated>), Refused> {
    let ip = Some(client);
    let bad = |code, message: String| refused("a new game", ip, code, message);
    let variant = match (&request.variant, &request.variant_file) {
        (Some(name), None) => rules::variant_of(name, None)
            .map_err(|e| bad(ErrorCode::VariantNotFound, e.to_string()))?,
        (None, Some(text)) => {
            // The file as decoded from JSON: the body limit is six times this (any JSON
            // encoding of a file this size fits).
            if text.len() > state.settings.max_variant_file_bytes {
                return Err(bad(
                    ErrorCode::BodyTooLarge,
                    format!(
                        "the variant file has {} bytes; the limit is {}",
                        text.len(),
                        state.settings.max_variant_file_bytes
                    ),
                ));
            }
            rules::variant_of("", Some(text))
                .map_err(|e| bad(ErrorCode::VariantInvalid, e.to_string()))?
        }
        _ => {
            return Err(bad(
                ErrorCode::BadRequest,
                "name a shipped `variant` or post a `variant_file`, not both".into(),
            ));
        }
    };
    // The table asked for (absent: the variant's own seating, two for most).
    let seats = request.seats.map_or(variant.players(), usize::from);
    let variant = match rules::seated(variant, seats) {
        Ok(v) => v,
        Err(e) => return Err(refused_by_game("a new game", ip, e)),
    };
    if let Some(tc) = request.time_control
        && (tc.initial_ms == 0 || tc.initial_ms > 24 * 3_600_000 || tc.increment_ms > 3_600_000)
    {
        return Err(bad(
            ErrorCode::BadRequest,
            "a time control needs 0 < initial_ms <= 24 h and increment_ms <= 1 h".into(),
        ));
    }
    if !state.may_create(client) {
        return Err(bad(
            ErrorCode::TooManyGames,
            format!(
                "at most {} new games per minute from one address",
                state.settings.max_new_games_per_ip_per_minute
            ),
        ));
    }
    let creator: SeatIndex = match request.color {
        ColorChoice::White => 0,
        ColorChoice::Black => 1,
        ColorChoice::Random if seats == 2 && secrets::coin() => 0,
        ColorChoice::Random if seats == 2 => 1,
        ColorChoice::Random => secrets::seat(seats) as SeatIndex,
    };
    let id = secrets::game_id();
    // The invite starts with the game's id, so that a load balancer can route the join to the
    // game's node (deploy/haproxy.cfg) without a lookup.
    let invite = format!("{id}{}", secrets::invite());
    let record = GameRecord {
        id,
        variant: variant.name.clone(),
        variant_file: request.variant_file.clone(),
        time_control: request.time_control,
        tokens: (0..seats).map(|_| secrets::seat_token()).collect(),
        creator,
        invite: Some(invite),
        joined: (0..seats).map(|s| s == usize::from(creator)).collect(),
        created_ms: now_ms(),
        rematch_of: None,
        players: None,
    };
    state.games.store.create_game(record.clone()).await?;
    let invite = record.invite.clone().expect("a new game has an invite");
    info!(game = %record.id, variant = %variant.name, seats, creator, time_control = ?record.time_control, ?ip, "game created");
    Ok((
        StatusCode::CREATED,
        Json(GameCreated {
            game: record.id,
            color: boardcraft_protocol::side_of(creator)
                .unwrap_or(boardcraft_protocol::Side::Black),
            seat: creator,
            token: record.tokens[usize::from(creator)].clone(),
            invite_url: format!("{}/?join={invite}", base_url(&state.settings, &headers)),
            invite,
            ws_path: WS_PATH.into(),
        }),
    ))
}

async fn join_by_invite(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(client)): Extension<ClientIp>,
    Path(invite): Path<String>,
) -> Result<Json<boardcraft_protocol::http::SeatJoined>, Refused> {
    let ip = Some(client);
    let refuse = |e| refused_by_game("an invite", ip, e);
    if !secrets::looks_like_id(&invite) {
        return Err(refuse(GameError::InviteNotFound));
    }
    let game = state
        .games
        .store
        .game_of_invite(invite)
        .await?
        .ok_or_else(|| refuse(GameError::InviteNotFound))?;
    let answer = state
        .games
        .ask(&game, |reply| Command::Join { reply })
        .await?
        .ok_or_else(|| refuse(GameError::InviteNotFound))?;
    match answer {
        Ok(seat) => Ok(Json(seat)),
        // Its holder may still watch the game.
        Err(e @ GameError::SeatTaken) => Err(refuse(e).about_game(game)),
        Err(e) => Err(refuse(e)),
    }
}

/// `?protocol=3` on a game's public state: the snapshot seat by seat.
#[derive(serde::Deserialize, Default)]
pub struct StateQuery {
    protocol: Option<u32>,
}

/// A game's public state: version 2's snapshot, or with `?protocol=3` version 3's.
async fn public_state(
    State(state): State<Arc<AppState>>,
    Path(game): Path<String>,
    axum::extract::Query(query): axum::extract::Query<StateQuery>,
) -> Result<Response, Refused> {
    let not_found = || Refused::from(GameError::NotFound(game.clone()));
    if !secrets::looks_like_id(&game) {
        return Err(not_found());
    }
    let snapshot = state
        .games
        .ask(&game, |reply| Command::Snapshot { reply })
        .await?
        .ok_or_else(not_found)?;
    // A game of more than two seats has no version-2 form: its snapshot is version 3's.
    Ok(match (query.protocol, snapshot.two_seats()) {
        (Some(p), _) if p >= boardcraft_protocol::SEATS_PROTOCOL_VERSION => {
            Json(snapshot).into_response()
        }
        (_, Some(two)) => Json(two).into_response(),
        (_, None) => Json(snapshot).into_response(),
    })
}

async fn save_file(
    State(state): State<Arc<AppState>>,
    Path(game): Path<String>,
) -> Result<Response, Refused> {
    let not_found = || Refused::from(GameError::NotFound(game.clone()));
    if !secrets::looks_like_id(&game) {
        return Err(not_found());
    }
    let text = state
        .games
        .ask(&game, |reply| Command::Save { reply })
        .await?
        .ok_or_else(not_found)?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"boardcraft-{game}.ron\""),
            ),
        ],
        text,
    )
        .into_response())
}
