//! The lobby (protocol 2, `/lobby`): seeks, quick-pairing pools, challenges, the counts of
//! players and games, and the `paired` that sends two players to a new game.
//!
//! **The tables are the lobby** (storage/lobby.rs): seeks, pool entries and challenges are
//! rows, taken atomically, so that any number of nodes on one PostgreSQL share one lobby and a
//! restart loses nothing that was acknowledged (a `seek_added` seek is a committed row, a
//! `paired` game a committed game).
//!
//! **Events**: every change is published as the lobby message it is and whom it is for
//! (everyone, or an account on whatever node its connections are). With PostgreSQL they go
//! over `NOTIFY boardcraft_lobby` (every node, this one included, delivers them to its
//! connections); with SQLite (one node) they are delivered here at once. Each node keeps a
//! view (seeks, challenges, pool counts, counts) made from those events, from which welcomes
//! are made; a node whose listening connection was lost re-reads the tables and tells its
//! clients the difference.
//!
//! **The pairing leader**: one node at a time (PostgreSQL: the holder of an advisory lock on
//! its lock connection, asked again by every node each wave) runs the waves of every pool,
//! expires old seeks and challenges, forgets dead nodes, and broadcasts the pool and player
//! counts. A pair is taken from its pool atomically (both or neither), so even two leaders
//! for a moment (a lock connection that dropped) could not pair a player twice. A wave takes
//! all its pairs in one call and makes their games concurrently (each pair still both or
//! neither, each game committed before its `paired`): one pair after another, each waiting
//! for its own commits, the pool paired only a few dozen players a second.
//!
//! **Presence**: each node writes which accounts have a lobby connection on it (at once) and
//! a game connection (each heartbeat), and beats every second. A node not heard from for
//! `node_timeout` is dead: the leader forgets its rows, and its players leave the pools and
//! their seeks' grace starts, as if they had closed their connections.
use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex, Weak},
    time::Duration,
};

use axum::extract::ws::Utf8Bytes;
use boardcraft_protocol::{
    Challenge, ChallengeEnd, ColorChoice, GameTerms, LobbyClientMessage, LobbyCounts,
    LobbyServerMessage, PROTOCOL_VERSION, PlayerInfo, PoolInfo, PoolKey, Rating,
    SEATS_PROTOCOL_VERSION, SeatIndex, Seek, Side, TimeControl, WS_PATH,
};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::{Notify, mpsc};
use tracing::{debug, info, warn};

use crate::storage::now_ms;
use crate::{
    Settings,
    game::{ConnId, Games, computer, paired, rules},
    pairing, secrets,
    storage::{
        Account, AccountStore, StoreError,
        events::{BusMessage, EventBus, MAX_PAYLOAD},
        info_of,
        lobby::{self as store, ChallengeRow, LobbyStore, PoolEntry, SeekRow},
    },
};

mod error;

pub use crate::settings::{DEFAULT_POOLS, LobbySettings};
pub use crate::storage::lobby::CHANNEL;
pub use error::LobbyError;

/// Reads a pool list: `variant minutes+seconds`, and ` xN` for tables of N seats,
/// comma-separated (`ugolki-9qum 3+2, focus 10+5, chinese-checkers 5+3 x6`).
pub fn parse_pools(text: &str) -> Result<Vec<PoolKey>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (variant, clock) = p
                .split_once(' ')
                .ok_or_else(|| format!("`{p}`: write `variant minutes+seconds`"))?;
            let (clock, seats) = match clock.trim().split_once(' ') {
                None => (clock, 2),
                Some((clock, seats)) => {
                    let n = seats
                        .trim()
                        .strip_prefix('x')
                        .and_then(|n| n.parse::<u8>().ok())
                        .ok_or_else(|| format!("`{p}`: the seats are `xN` (x4)"))?;
                    (clock, n)
                }
            };
            let (m, s) = clock
                .trim()
                .split_once('+')
                .ok_or_else(|| format!("`{p}`: the clock is `minutes+seconds`"))?;
            let m: u64 = m.parse().map_err(|_| format!("`{p}`: bad minutes"))?;
            let s: u64 = s.parse().map_err(|_| format!("`{p}`: bad seconds"))?;
            let v = rules::variant_of(variant, None).map_err(|e| format!("`{p}`: {e}"))?;
            rules::seated(v, usize::from(seats)).map_err(|e| format!("`{p}`: {e}"))?;
            if m == 0 {
                return Err(format!("`{p}`: a pool needs a clock of at least a minute"));
            }
            Ok(PoolKey {
                seats,
                ..PoolKey::new(variant, TimeControl::minutes(m, s))
            })
        })
        .collect()
}

/// Whom an event is for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Target {
    All,
    Accounts(Vec<String>),
}

/// What goes over the bus: the lobby's scope (other lobbies on the same database ignore it)
/// and the event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Envelope {
    s: String,
    w: Wire,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "k")]
enum Wire {
    Send {
        to: Target,
        msg: Box<LobbyServerMessage>,
    },
    /// A pool has players to pair: the leader runs a wave now.
    Wave,
}

/// A lobby connection on this node.
struct Conn {
    account: String,
    /// The hello's protocol: 2 is not shown the tables of more than two.
    protocol: u32,
    /// `None` once dropped for not reading (its task then closes it).
    outbox: Option<mpsc::Sender<Utf8Bytes>>,
}

#[derive(Default)]
struct Local {
    conns: HashMap<ConnId, Conn>,
    /// Lobby connections per account.
    lobby: HashMap<String, u32>,
    /// Game connections per account (seat holders of account games).
    games: HashMap<String, u32>,
}

/// What this node knows of the lobby, kept from the events (welcomes are made from it).
#[derive(Default)]
struct View {
    seeks: Vec<Seek>,
    challenges: Vec<Challenge>,
    pools: Vec<PoolInfo>,
    counts: LobbyCounts,
}

pub struct Lobby {
    node: String,
    /// See `LobbyStore::scope`, and its hash (the leader lock's second key).
    scope: String,
    scope_key: i32,
    /// The players: accounts by id and name, their ratings.
    accounts: Arc<dyn AccountStore>,
    /// The lobby's tables.
    db: Arc<dyn LobbyStore>,
    games: Arc<Games>,
    settings: Arc<Settings>,
    bus: Option<Arc<EventBus>>,
    local: Mutex<Local>,
    view: Mutex<View>,
    wave: Notify,
}

/// `welcome.playing`: the account's unfinished games made within this (an abandoned game
/// nobody claimed is not listed for ever).
const PLAYING_WITHIN_MS: i64 = 24 * 3600 * 1000;

impl Lobby {
    /// Starts the node's lobby: reads the tables, follows the events, runs the heartbeat and
    /// (while it leads) the pairing waves.
    pub async fn start(
        games: Arc<Games>,
        db: Arc<dyn LobbyStore>,
        settings: Arc<Settings>,
    ) -> Result<Arc<Lobby>, StoreError> {
        let bus = db.bus();
        let node = secrets::invite();
        let scope = db.scope().await?;
        // FNV-1a: the same key on every node, whatever its build.
        let scope_key = scope.bytes().fold(0x811c_9dc5u32, |h, b| {
            (h ^ b as u32).wrapping_mul(0x0100_0193)
        }) as i32;
        db.node_beat(node.clone(), now_ms(), 0).await?;
        let lobby = Arc::new(Lobby {
            node,
            scope,
            scope_key,
            accounts: games.accounts.clone(),
            db,
            games,
            settings,
            bus,
            local: Mutex::new(Local::default()),
            view: Mutex::new(View::default()),
            wave: Notify::new(),
        });
        if lobby.bus.is_none() {
            // One node on its own database: whatever another node left (this server before a
            // restart) is dead now.
            lobby.forget_dead_nodes(i64::MAX).await?;
        }
        lobby.reread().await?;
        if let Some(bus) = &lobby.bus {
            tokio::spawn(Self::follow(Arc::downgrade(&lobby), bus.subscribe()));
        }
        tokio::spawn(Self::heartbeat(Arc::downgrade(&lobby)));
        info!(node = %lobby.node, "lobby started");
        Ok(lobby)
    }

    fn db(&self) -> &dyn LobbyStore {
        self.db.as_ref()
    }

    fn pool_settings(&self) -> &LobbySettings {
        &self.settings.lobby
    }

    // ----- events

    async fn publish(&self, to: Target, msg: LobbyServerMessage) {
        let Some(bus) = &self.bus else {
            self.deliver(&to, msg);
            return;
        };
        let envelope = Envelope {
            s: self.scope.clone(),
            w: Wire::Send {
                to,
                msg: Box::new(msg),
            },
        };
        let text = serde_json::to_string(&envelope).expect("lobby events serialise");
        if text.len() > MAX_PAYLOAD {
            warn!(
                bytes = text.len(),
                "a lobby event too large for NOTIFY: delivered here only"
            );
        } else {
            match bus.publish(CHANNEL, &text).await {
                Ok(()) => return,
                Err(e) => warn!("publishing a lobby event: {e} (delivered here only)"),
            }
        }
        let Wire::Send { to, msg } = envelope.w else {
            unreachable!()
        };
        self.deliver(&to, *msg);
    }

    async fn publish_to(&self, accounts: &[&str], msg: LobbyServerMessage) {
        let to = Target::Accounts(accounts.iter().map(|a| (*a).to_owned()).collect());
        self.publish(to, msg).await;
    }

    /// Asks the leader (wherever it is) for a wave now.
    async fn ask_for_wave(&self) {
        match &self.bus {
            None => self.wave.notify_one(),
            Some(bus) => {
                let text = serde_json::to_string(&Envelope {
                    s: self.scope.clone(),
                    w: Wire::Wave,
                })
                .expect("serialises");
                if bus.publish(CHANNEL, &text).await.is_err() {
                    self.wave.notify_one();
                }
            }
        }
    }

    /// Applies an event to the view and sends it to this node's connections it is for.
    fn deliver(&self, to: &Target, msg: LobbyServerMessage) {
        // A seek of more than two seats leaving: version-2 clients never heard of it.
        let table_removed;
        {
            let mut view = self.view.lock().expect("not poisoned");
            table_removed = matches!(&msg, LobbyServerMessage::SeekRemoved { id }
                if view.seeks.iter().any(|s| s.id == *id && s.seats > 2));
            match &msg {
                // A seek listed already is replaced (a table's seek whose seats changed).
                LobbyServerMessage::SeekAdded { seek } => {
                    match view.seeks.iter_mut().find(|s| s.id == seek.id) {
                        Some(s) => *s = seek.clone(),
                        None => view.seeks.push(seek.clone()),
                    }
                }
                LobbyServerMessage::SeekRemoved { id } => view.seeks.retain(|s| s.id != *id),
                LobbyServerMessage::Challenge { challenge }
                    if !view.challenges.iter().any(|c| c.id == challenge.id) =>
                {
                    view.challenges.push(challenge.clone());
                }
                LobbyServerMessage::ChallengeRemoved { id, .. } => {
                    view.challenges.retain(|c| c.id != *id)
                }
                LobbyServerMessage::Pools { pools } => view.pools = pools.clone(),
                LobbyServerMessage::Counts { counts } => view.counts = *counts,
                _ => {}
            }
        }
        let text = Utf8Bytes::from(msg.to_json());
        // What a version-2 client is told: the same, less the tables of more than two.
        let mut two_seats: Option<Option<Utf8Bytes>> = None;
        let mut local = self.local.lock().expect("not poisoned");
        for conn in local.conns.values_mut() {
            let wanted = match to {
                Target::All => true,
                Target::Accounts(a) => a.contains(&conn.account),
            };
            if !wanted {
                continue;
            }
            let text = if conn.protocol >= SEATS_PROTOCOL_VERSION {
                text.clone()
            } else {
                match two_seats
                    .get_or_insert_with(|| {
                        two_seats_only(&msg)
                            .filter(|_| !table_removed)
                            .map(|m| Utf8Bytes::from(m.to_json()))
                    })
                    .clone()
                {
                    Some(t) => t,
                    None => continue,
                }
            };
            if let Some(outbox) = &conn.outbox
                && outbox.try_send(text).is_err()
            {
                // Not reading (or gone): its task closes it; the client reconnects and gets
                // the whole lobby.
                conn.outbox = None;
            }
        }
    }

    /// Follows the bus: events for this node's connections, waves for the leader, and a
    /// re-read after the listening connection was lost.
    async fn follow(lobby: Weak<Lobby>, mut rx: tokio::sync::broadcast::Receiver<BusMessage>) {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            let message = match rx.recv().await {
                Ok(m) => m,
                Err(RecvError::Lagged(n)) => {
                    warn!("{n} lobby events missed: re-reading the lobby");
                    BusMessage::Reconnected
                }
                Err(RecvError::Closed) => return,
            };
            let Some(lobby) = lobby.upgrade() else { return };
            match message {
                BusMessage::Event { channel, payload } if channel == CHANNEL => {
                    match serde_json::from_str::<Envelope>(&payload) {
                        Ok(e) if e.s != lobby.scope => {}
                        Ok(Envelope {
                            w: Wire::Send { to, msg },
                            ..
                        }) => lobby.deliver(&to, *msg),
                        Ok(Envelope { w: Wire::Wave, .. }) => lobby.wave.notify_one(),
                        Err(e) => warn!("a lobby event that does not read: {e}"),
                    }
                }
                BusMessage::Event { .. } => {}
                BusMessage::Reconnected => {
                    if let Err(e) = lobby.reread().await {
                        warn!("re-reading the lobby: {e}");
                    }
                }
            }
        }
    }

    /// Reads the lobby from the tables and tells this node's connections what changed since
    /// their view (events lost while the bus was away).
    async fn reread(&self) -> Result<(), StoreError> {
        let db = self.db();
        let mut seeks: Vec<Seek> = db
            .seeks()
            .await?
            .iter()
            .filter_map(|r| serde_json::from_str(&r.body).ok())
            .collect();
        let seats = db.seek_seats().await?;
        for seek in seeks.iter_mut().filter(|s| s.seats > 2) {
            for (_, account) in seats.iter().filter(|(id, _)| *id == seek.id) {
                if let Ok(Some(a)) = self.accounts.account(account.clone()).await {
                    let info = self.player(&a, &seek.variant, seek.seats).await;
                    seek.seated.push(info);
                }
            }
        }
        let challenges: Vec<Challenge> = db
            .challenges()
            .await?
            .iter()
            .filter_map(|r| serde_json::from_str(&r.body).ok())
            .collect();
        let pools = self.pool_counts(&db.pool_entries().await?);
        let (players, games) = db.counts(now_ms() - self.alive_ms()).await?;
        let counts = LobbyCounts { players, games };
        let (old_seeks, old_challenges) = {
            let view = self.view.lock().expect("not poisoned");
            (view.seeks.clone(), view.challenges.clone())
        };
        for s in &old_seeks {
            if !seeks.iter().any(|n| n.id == s.id) {
                self.deliver(
                    &Target::All,
                    LobbyServerMessage::SeekRemoved { id: s.id.clone() },
                );
            }
        }
        for s in &seeks {
            if !old_seeks.iter().any(|o| o == s) {
                self.deliver(
                    &Target::All,
                    LobbyServerMessage::SeekAdded { seek: s.clone() },
                );
            }
        }
        for c in &old_challenges {
            if !challenges.iter().any(|n| n.id == c.id) {
                let to = self.accounts_of_challenge(c).await;
                let why = ChallengeEnd::Expired;
                self.deliver(
                    &to,
                    LobbyServerMessage::ChallengeRemoved {
                        id: c.id.clone(),
                        why,
                    },
                );
            }
        }
        for c in &challenges {
            if !old_challenges.iter().any(|o| o.id == c.id) {
                let to = self.accounts_of_challenge(c).await;
                self.deliver(
                    &to,
                    LobbyServerMessage::Challenge {
                        challenge: c.clone(),
                    },
                );
            }
        }
        self.deliver(&Target::All, LobbyServerMessage::Pools { pools });
        self.deliver(&Target::All, LobbyServerMessage::Counts { counts });
        Ok(())
    }

    /// The accounts a challenge is about (by name: the view keeps the protocol's shape).
    async fn accounts_of_challenge(&self, c: &Challenge) -> Target {
        let mut ids = Vec::new();
        for name in [&c.from.name, &c.to.name] {
            if let Ok(Some(a)) = self.accounts.account_by_name(name.clone()).await {
                ids.push(a.id);
            }
        }
        Target::Accounts(ids)
    }

    fn alive_ms(&self) -> i64 {
        self.pool_settings().node_timeout.as_millis() as i64
    }

    fn pool_counts(&self, entries: &[PoolEntry]) -> Vec<PoolInfo> {
        self.pool_settings()
            .pools
            .iter()
            .map(|key| {
                let id = key.id();
                PoolInfo {
                    pool: key.clone(),
                    variant_title: variant_title(&key.variant),
                    waiting: entries.iter().filter(|e| e.pool == id).count() as u32,
                }
            })
            .collect()
    }

    // ----- connections

    /// A lobby connection of `account` opened on this node; `outbox` gets its events.
    pub async fn connect(
        &self,
        conn: ConnId,
        account: &Account,
        protocol: u32,
        outbox: mpsc::Sender<Utf8Bytes>,
    ) -> Result<(), StoreError> {
        let first = {
            let mut local = self.local.lock().expect("not poisoned");
            local.conns.insert(
                conn,
                Conn {
                    account: account.id.clone(),
                    protocol,
                    outbox: Some(outbox),
                },
            );
            let n = local.lobby.entry(account.id.clone()).or_insert(0);
            *n += 1;
            *n == 1
        };
        if first {
            self.db()
                .set_presence(self.node.clone(), account.id.clone(), store::LOBBY, true)
                .await?;
        }
        // Back within the grace: the seeks stay.
        self.db().orphan_seeks(account.id.clone(), None).await?;
        Ok(())
    }

    /// A lobby connection closed. The account's last one on every node: it leaves its pool
    /// at once, its challenges expire, and its seeks' grace starts.
    pub async fn disconnect(&self, conn: ConnId) {
        let last = {
            let mut local = self.local.lock().expect("not poisoned");
            let Some(c) = local.conns.remove(&conn) else {
                return;
            };
            let n = local.lobby.entry(c.account.clone()).or_insert(1);
            *n -= 1;
            if *n == 0 {
                local.lobby.remove(&c.account);
                Some(c.account)
            } else {
                None
            }
        };
        let Some(account) = last else { return };
        let db = self.db();
        let result = async {
            db.set_presence(self.node.clone(), account.clone(), store::LOBBY, false)
                .await?;
            let elsewhere = db
                .in_lobby_elsewhere(
                    self.node.clone(),
                    account.clone(),
                    now_ms() - self.alive_ms(),
                )
                .await?;
            if !elsewhere {
                self.left(&account).await?;
            }
            Ok::<_, StoreError>(())
        }
        .await;
        if let Err(e) = result {
            warn!(account = %account, "lobby: a player's leaving: {e}");
        }
    }

    /// `account` has no lobby connection anywhere now.
    async fn left(&self, account: &str) -> Result<(), StoreError> {
        let db = self.db();
        if db.leave_pool(account.to_owned()).await?.is_some() {
            self.publish_to(&[account], LobbyServerMessage::PoolLeft)
                .await;
            self.ask_for_wave().await;
        }
        db.orphan_seeks(account.to_owned(), Some(now_ms())).await?;
        // Seats taken at others' seeks are given back at once (a table should not wait for
        // someone who left).
        for seek in db.seeks_seated_at(account.to_owned()).await? {
            if db
                .leave_seek_seat(seek.clone(), account.to_owned())
                .await?
                .is_some()
            {
                self.seek_changed(&seek).await;
            }
        }
        for c in db.take_challenges_from(account.to_owned()).await? {
            self.challenge_removed(&c, ChallengeEnd::Expired).await;
        }
        debug!(account = %account, "left the lobby");
        Ok(())
    }

    /// A seat holder of an account game connected to it on this node (`false`: left), for
    /// the count of players online.
    pub fn game_presence(&self, account: &str, present: bool) {
        let mut local = self.local.lock().expect("not poisoned");
        let n = local.games.entry(account.to_owned()).or_insert(0);
        if present {
            *n += 1;
        } else {
            *n = n.saturating_sub(1);
            if *n == 0 {
                local.games.remove(account);
            }
        }
    }

    /// The answer to a hello: the whole lobby as this account sees it.
    /// The answer to a hello of `protocol` (2 is not shown the tables of more than two,
    /// nor ratings of them).
    pub async fn welcome(
        &self,
        account: &Account,
        protocol: u32,
    ) -> Result<LobbyServerMessage, StoreError> {
        let seats = protocol >= SEATS_PROTOCOL_VERSION;
        let waiting_in = self
            .db()
            .pool_of(account.id.clone())
            .await?
            .and_then(|id| self.pool_by_id(&id))
            .filter(|p| seats || p.seats == 2);
        let mut ratings = self.ratings_of(&account.id).await;
        let mut playing = self.playing(&account.id).await;
        if !seats {
            ratings.retain(|r| r.seats == 2);
            let mut two = Vec::with_capacity(playing.len());
            for game in playing {
                // A game of more than two seats is for clients of protocol 3.
                if matches!(
                    self.db().seat_account(game.clone(), true).await,
                    Ok(Some(_))
                ) {
                    two.push(game);
                }
            }
            playing = two;
        }
        let view = self.view.lock().expect("not poisoned");
        Ok(LobbyServerMessage::Welcome {
            protocol: if seats {
                SEATS_PROTOCOL_VERSION
            } else {
                PROTOCOL_VERSION
            },
            server: crate::SERVER_NAME.into(),
            account: info_of(account),
            ratings,
            pools: view
                .pools
                .iter()
                .filter(|p| seats || p.pool.seats == 2)
                .cloned()
                .collect(),
            waiting_in,
            seeks: view
                .seeks
                .iter()
                .filter(|s| seats || s.seats == 2)
                .cloned()
                .collect(),
            challenges: view
                .challenges
                .iter()
                .filter(|c| c.from.name == account.name || c.to.name == account.name)
                .cloned()
                .collect(),
            playing,
            counts: view.counts,
        })
    }

    fn pool_by_id(&self, id: &str) -> Option<PoolKey> {
        self.pool_settings()
            .pools
            .iter()
            .find(|p| p.id() == id)
            .cloned()
    }

    // ----- ratings and games

    /// The account's rating in `variant` at a table of `seats` (a new player's when it has
    /// none).
    async fn rating(&self, account: &str, variant: &str, seats: u8) -> Rating {
        match paired::rating_at(self.accounts.as_ref(), account, variant, seats).await {
            Ok(r) => r,
            Err(e) => {
                warn!("reading a rating: {e}");
                let g = crate::ratings::fresh(usize::from(seats));
                Rating {
                    variant: variant.to_owned(),
                    rating: g.rating,
                    deviation: g.deviation,
                    volatility: g.volatility,
                    games: 0,
                    seats,
                }
            }
        }
    }

    /// The account's ratings (at every table; the welcome of protocol 2 keeps the two-seat
    /// ones).
    async fn ratings_of(&self, account: &str) -> Vec<Rating> {
        self.accounts
            .ratings(account.to_owned())
            .await
            .unwrap_or_else(|e| {
                warn!("reading ratings: {e}");
                Vec::new()
            })
    }

    /// The account's games being played.
    async fn playing(&self, account: &str) -> Vec<String> {
        let since = now_ms() - PLAYING_WITHIN_MS;
        self.db()
            .playing(account.to_owned(), since)
            .await
            .unwrap_or_else(|e| {
                warn!("reading a player's games: {e}");
                Vec::new()
            })
    }

    async fn player(&self, account: &Account, variant: &str, seats: u8) -> PlayerInfo {
        PlayerInfo {
            name: account.name.clone(),
            rating: Some(self.rating(&account.id, variant, seats).await.short()),
            bot: account.bot,
            guest: account.is_guest(),
        }
    }

    /// Makes the game of a pairing (both seats taken, `game::paired`) and sends each player
    /// its `paired` with its own seat token. The game is committed before anyone hears of it.
    async fn pair(
        &self,
        variant: &str,
        time_control: Option<TimeControl>,
        rated: bool,
        white: &Account,
        black: &Account,
    ) -> Result<String, LobbyError> {
        let seats = paired::create_paired_game(
            &self.games,
            paired::PairedGame {
                variant: variant.to_owned(),
                time_control,
                rated,
                white: white.id.clone(),
                black: black.id.clone(),
            },
        )
        .await?;
        let paired::PairedSeats {
            game: id,
            tokens,
            players,
        } = seats;
        info!(game = %id, variant, white = %white.id, black = %black.id, rated, "paired");
        for (side, account) in [(Side::White, white), (Side::Black, black)] {
            self.publish_to(
                &[&account.id],
                LobbyServerMessage::Paired {
                    game: id.clone(),
                    color: side,
                    token: tokens[side.index()].clone(),
                    players: players.clone(),
                    variant: variant.to_owned(),
                    time_control,
                    ws_path: WS_PATH.into(),
                },
            )
            .await;
        }
        Ok(id)
    }

    /// Both players of a seek or challenge game stop waiting in their pools.
    async fn out_of_pools(&self, accounts: [&str; 2]) -> Result<(), StoreError> {
        for a in accounts {
            if self.db().leave_pool(a.to_owned()).await?.is_some() {
                self.publish_to(&[a], LobbyServerMessage::PoolLeft).await;
            }
        }
        Ok(())
    }

    async fn challenge_removed(&self, c: &ChallengeRow, why: ChallengeEnd) {
        self.publish_to(
            &[&c.from, &c.to],
            LobbyServerMessage::ChallengeRemoved {
                id: c.id.clone(),
                why,
            },
        )
        .await;
    }

    // ----- requests

    /// Handles a request of a signed-in connection: the direct answer, if any (a pong), or
    /// why it was refused. Everything else arrives as events, on every connection it
    /// concerns.
    /// A client of `protocol` 2 has no tables of more than two: it cannot seek, join or
    /// accept one (as if it were not there).
    pub async fn handle(
        &self,
        me: &Account,
        protocol: u32,
        msg: LobbyClientMessage,
    ) -> Result<Option<LobbyServerMessage>, LobbyError> {
        if protocol < SEATS_PROTOCOL_VERSION {
            match &msg {
                LobbyClientMessage::Seek { terms } if terms.seats != 2 => {
                    return Err(LobbyError::BadSeats);
                }
                LobbyClientMessage::JoinPool { pool } if pool.seats != 2 => {
                    return Err(LobbyError::PoolNotFound(pool.id()));
                }
                LobbyClientMessage::AcceptSeek { id } | LobbyClientMessage::LeaveSeek { id }
                    if self.is_table_seek(id).await? =>
                {
                    return Err(LobbyError::SeekGone);
                }
                _ => {}
            }
        }
        let done = match msg {
            LobbyClientMessage::Hello { .. } => Err(LobbyError::AlreadyJoined),
            LobbyClientMessage::Ping { n } => return Ok(Some(LobbyServerMessage::Pong { n })),
            LobbyClientMessage::Seek { terms } => self.seek(me, terms).await,
            LobbyClientMessage::CancelSeek { id } => self.cancel_seek(me, id).await,
            LobbyClientMessage::AcceptSeek { id } => self.accept_seek(me, id).await,
            LobbyClientMessage::LeaveSeek { id } => self.leave_seek(me, id).await,
            LobbyClientMessage::JoinPool { pool } => self.join_pool(me, pool).await,
            LobbyClientMessage::LeavePool => self.leave_pool(me).await,
            LobbyClientMessage::Challenge { to, terms } => self.challenge(me, to, terms).await,
            LobbyClientMessage::AcceptChallenge { id } => self.answer_challenge(me, id, true).await,
            LobbyClientMessage::DeclineChallenge { id } => {
                self.answer_challenge(me, id, false).await
            }
            LobbyClientMessage::CancelChallenge { id } => self.cancel_challenge(me, id).await,
        };
        done.map(|()| None)
    }

    /// Checks a seek's or challenge's terms; the variant's title.
    fn check_terms(terms: &GameTerms) -> Result<String, LobbyError> {
        let variant =
            rules::variant_of(&terms.variant, None).map_err(LobbyError::VariantNotFound)?;
        if let Some(tc) = &terms.time_control
            && !paired::time_control_allowed(tc)
        {
            return Err(LobbyError::TimeControlOutOfBounds);
        }
        if terms.rated && terms.time_control.is_none() {
            return Err(LobbyError::RatedWithoutClock);
        }
        Ok(variant.title.clone())
    }

    async fn seek(&self, me: &Account, terms: GameTerms) -> Result<(), LobbyError> {
        let variant_title = Self::check_terms(&terms)?;
        if terms.seats != 2 {
            let variant =
                rules::variant_of(&terms.variant, None).map_err(LobbyError::VariantNotFound)?;
            rules::seated(variant, usize::from(terms.seats)).map_err(LobbyError::Pairing)?;
        }
        let by = self.player(me, &terms.variant, terms.seats).await;
        let seek = Seek {
            id: secrets::game_id(),
            variant: terms.variant.clone(),
            variant_title,
            time_control: terms.time_control,
            rated: terms.rated,
            color: terms.color,
            seated: if terms.seats > 2 {
                vec![by.clone()]
            } else {
                Vec::new()
            },
            by,
            seats: terms.seats,
        };
        let row = SeekRow {
            id: seek.id.clone(),
            account: me.id.clone(),
            created_ms: now_ms(),
            body: serde_json::to_string(&seek).expect("a seek serialises"),
        };
        let max = self.pool_settings().max_seeks_per_account;
        if !self.db().add_seek(row, seek.seats, max).await? {
            return Err(LobbyError::TooManySeeks(max));
        }
        info!(seek = %seek.id, account = %me.id, variant = %seek.variant, "seek");
        self.publish(Target::All, LobbyServerMessage::SeekAdded { seek })
            .await;
        Ok(())
    }

    async fn cancel_seek(&self, me: &Account, id: String) -> Result<(), LobbyError> {
        let taken = self.db().take_seek(id.clone(), Some(me.id.clone())).await?;
        if taken.is_none() {
            return Err(LobbyError::NotYourSeek);
        }
        self.publish(Target::All, LobbyServerMessage::SeekRemoved { id })
            .await;
        Ok(())
    }

    async fn accept_seek(&self, me: &Account, id: String) -> Result<(), LobbyError> {
        let db = self.db();
        let seek = db.seek(id.clone()).await?.ok_or(LobbyError::SeekGone)?;
        if seek.account == me.id {
            return Err(LobbyError::OwnSeek);
        }
        let body = seek_of(&seek)?;
        if body.seats > 2 {
            return self.take_seat(me, body).await;
        }
        let seeker = self
            .accounts
            .account(seek.account.clone())
            .await?
            .ok_or(LobbyError::SeekGone)?;
        // Taken atomically: of two accepters, one gets it.
        let row = db
            .take_seek(id.clone(), None)
            .await?
            .ok_or(LobbyError::SeekGone)?;
        self.publish(
            Target::All,
            LobbyServerMessage::SeekRemoved { id: id.clone() },
        )
        .await;
        let terms: Seek = serde_json::from_str(&row.body).map_err(|e| LobbyError::BrokenRow {
            what: "seek",
            why: e.to_string(),
        })?;
        let (white, black) = match colors(terms.color) {
            Side::White => (&seeker, me),
            Side::Black => (me, &seeker),
        };
        self.out_of_pools([&seeker.id, &me.id]).await?;
        self.pair(
            &terms.variant,
            terms.time_control,
            terms.rated,
            white,
            black,
        )
        .await?;
        Ok(())
    }

    // ----- tables of more than two

    /// Whether `id` is an open seek of more than two seats.
    async fn is_table_seek(&self, id: &str) -> Result<bool, LobbyError> {
        Ok(match self.db().seek(id.to_owned()).await? {
            Some(row) => seek_of(&row)?.seats > 2,
            None => false,
        })
    }

    /// `me` takes a seat at a seek of more than two seats: the seek as it is now goes to
    /// everyone, and the one who takes the last seat starts the game.
    async fn take_seat(&self, me: &Account, seek: Seek) -> Result<(), LobbyError> {
        let db = self.db();
        let Some((filled, seats)) = db
            .take_seek_seat(seek.id.clone(), me.id.clone(), now_ms())
            .await?
        else {
            // Gone or full (of several accepters at once, those past the last seat), or the
            // account sits there already.
            let seated = db
                .seek_seats()
                .await?
                .iter()
                .any(|(s, a)| *s == seek.id && *a == me.id);
            return Err(if seated {
                LobbyError::AlreadySeated
            } else {
                LobbyError::SeekGone
            });
        };
        info!(seek = %seek.id, account = %me.id, filled, seats, "took a seat at a seek");
        if filled < seats {
            self.seek_changed(&seek.id).await;
            return Ok(());
        }
        self.start_seek(&seek.id, false).await
    }

    /// `me` gives back its seat at a seek of more than two seats.
    async fn leave_seek(&self, me: &Account, id: String) -> Result<(), LobbyError> {
        if self
            .db()
            .leave_seek_seat(id.clone(), me.id.clone())
            .await?
            .is_none()
        {
            return Err(LobbyError::NotSeated);
        }
        info!(seek = %id, account = %me.id, "left a seat at a seek");
        self.seek_changed(&id).await;
        Ok(())
    }

    /// Tells everyone the seek `id` as it is now (its seated players): a `seek_added` of a
    /// seek a client lists already replaces it.
    async fn seek_changed(&self, id: &str) {
        let seek = async {
            let Some(row) = self.db().seek(id.to_owned()).await? else {
                return Ok::<_, LobbyError>(None);
            };
            let mut seek = seek_of(&row)?;
            seek.seated = vec![seek.by.clone()];
            for (_, account) in self
                .db()
                .seek_seats()
                .await?
                .into_iter()
                .filter(|(s, _)| s == id)
            {
                if let Some(a) = self.accounts.account(account).await? {
                    let info = self.player(&a, &seek.variant, seek.seats).await;
                    seek.seated.push(info);
                }
            }
            Ok(Some(seek))
        }
        .await;
        match seek {
            Ok(Some(seek)) => {
                self.publish(Target::All, LobbyServerMessage::SeekAdded { seek })
                    .await;
                // Its game may have started (or it was cancelled) between the read and the
                // event, whose `seek_removed` then went out before this: say it again, so
                // that nobody keeps a seek that is gone.
                if matches!(self.db().seek(id.to_owned()).await, Ok(None)) {
                    self.publish(
                        Target::All,
                        LobbyServerMessage::SeekRemoved { id: id.to_owned() },
                    )
                    .await;
                }
            }
            Ok(None) => {}
            Err(e) => warn!(seek = %id, "telling a seek's seats: {e}"),
        }
    }

    /// Starts the game of the seek `id` of more than two seats with the players seated at
    /// it, and the computer in the empty seats when `with_bots` (else it must be full).
    /// Whoever takes the seek's row starts it: of the last accepter and the leader filling
    /// it with bots, one does.
    async fn start_seek(&self, id: &str, with_bots: bool) -> Result<(), LobbyError> {
        let db = self.db();
        let row = db
            .take_seek(id.to_owned(), None)
            .await?
            .ok_or(LobbyError::SeekGone)?;
        let seated = db.take_seek_seats(id.to_owned()).await?;
        self.publish(
            Target::All,
            LobbyServerMessage::SeekRemoved { id: id.to_owned() },
        )
        .await;
        let seek = seek_of(&row)?;
        let mut players = vec![row.account.clone()];
        players.extend(seated);
        if players.len() < usize::from(seek.seats) && !with_bots {
            warn!(seek = %id, seated = players.len(), seats = seek.seats, "a seek started short of players");
            return Err(LobbyError::SeekGone);
        }
        self.table(
            &seek.variant,
            seek.time_control,
            seek.rated,
            seek.seats,
            players,
            false,
        )
        .await?;
        Ok(())
    }

    /// The computer's accounts for a table's empty seats: `n` of them, made the first time
    /// (bot accounts, as the operator's `make-bot` marks them).
    async fn computers(&self, n: usize) -> Result<Vec<String>, LobbyError> {
        let mut ids = Vec::with_capacity(n);
        for i in 1..=n {
            let name = computer::computer_name(i);
            let account = match self.accounts.account_by_name(name.clone()).await? {
                Some(a) => a,
                None => {
                    let account = Account {
                        id: secrets::invite(),
                        name: name.clone(),
                        password_hash: None,
                        telegram_id: None,
                        bot: true,
                        created_ms: now_ms(),
                    };
                    match self.accounts.create_account(account.clone()).await {
                        Ok(()) => {
                            info!(account = %account.id, name = %name, "the computer's account created");
                            account
                        }
                        // Made meanwhile (another node, another table).
                        Err(StoreError::Conflict(_)) => self
                            .accounts
                            .account_by_name(name.clone())
                            .await?
                            .ok_or_else(|| StoreError::Backend(format!("{name} is gone")))?,
                        Err(e) => return Err(e.into()),
                    }
                }
            };
            ids.push(account.id);
        }
        Ok(ids)
    }

    /// Makes the game of a table of more than two: `players` (accounts, fewer than `seats`
    /// when the computer fills the rest) seated at random, each told its seat and token with
    /// `seated`, and the computer's seats played by the server. Players taken from a pool
    /// (`from_pool`: the wave already removed their rows) are told `pool_left` first, as a
    /// two-seat pool's pair is.
    async fn table(
        &self,
        variant: &str,
        time_control: Option<TimeControl>,
        rated: bool,
        seats: u8,
        players: Vec<String>,
        from_pool: bool,
    ) -> Result<String, LobbyError> {
        let people = players.len();
        let missing = usize::from(seats).saturating_sub(people);
        let computers = self.computers(missing).await?;
        let mut accounts: Vec<(String, bool)> = players.into_iter().map(|a| (a, false)).collect();
        accounts.extend(computers.into_iter().map(|a| (a, true)));
        let accounts = shuffled(accounts);
        for (a, computer) in &accounts {
            if *computer {
                continue;
            }
            let was_waiting = self.db().leave_pool(a.clone()).await?.is_some();
            if was_waiting || from_pool {
                self.publish_to(&[a], LobbyServerMessage::PoolLeft).await;
            }
            // Seated here: its seats at other seeks are given back (one table at a time).
            for seek in self.db().seeks_seated_at(a.clone()).await? {
                if self
                    .db()
                    .leave_seek_seat(seek.clone(), a.clone())
                    .await?
                    .is_some()
                {
                    self.seek_changed(&seek).await;
                }
            }
        }
        let made = paired::create_seated_game(
            &self.games,
            paired::SeatedGame {
                variant: variant.to_owned(),
                time_control,
                rated,
                accounts: accounts.iter().map(|(a, _)| a.clone()).collect(),
            },
        )
        .await?;
        info!(game = %made.game, variant, seats, people, computers = missing, rated, "a table seated");
        if missing > 0 {
            // Loaded now, so that the computer sits down and plays (it plays wherever the
            // game runs: the node its players' connections are routed to takes it over).
            if let Err(e) = self.games.task(&made.game).await {
                warn!(game = %made.game, "starting a game with the computer: {e}");
            }
        }
        for (seat, ((account, computer), token)) in accounts.iter().zip(&made.tokens).enumerate() {
            if *computer {
                continue;
            }
            self.publish_to(
                &[account],
                LobbyServerMessage::Seated {
                    game: made.game.clone(),
                    seat: seat as SeatIndex,
                    token: token.clone(),
                    players: made.players.clone(),
                    variant: variant.to_owned(),
                    time_control,
                    ws_path: WS_PATH.into(),
                },
            )
            .await;
        }
        Ok(made.game)
    }

    async fn join_pool(&self, me: &Account, pool: PoolKey) -> Result<(), LobbyError> {
        if !self.pool_settings().pools.contains(&pool) {
            return Err(LobbyError::PoolNotFound(pool.id()));
        }
        if me.bot && !self.pool_settings().allow_bots_in_pools {
            return Err(LobbyError::NoBotsInPools);
        }
        let rating = self.rating(&me.id, &pool.variant, pool.seats).await;
        self.db()
            .join_pool(PoolEntry {
                account: me.id.clone(),
                pool: pool.id(),
                rating: rating.rating,
                joined_ms: now_ms(),
            })
            .await?;
        debug!(account = %me.id, pool = %pool.id(), "joined a pool");
        self.publish_to(&[&me.id], LobbyServerMessage::PoolJoined { pool })
            .await;
        self.ask_for_wave().await;
        Ok(())
    }

    async fn leave_pool(&self, me: &Account) -> Result<(), LobbyError> {
        self.db().leave_pool(me.id.clone()).await?;
        self.publish_to(&[&me.id], LobbyServerMessage::PoolLeft)
            .await;
        self.ask_for_wave().await;
        Ok(())
    }

    async fn challenge(
        &self,
        me: &Account,
        to: String,
        terms: GameTerms,
    ) -> Result<(), LobbyError> {
        let variant_title = Self::check_terms(&terms)?;
        let target = self
            .accounts
            .account_by_name(to.clone())
            .await?
            .ok_or_else(|| LobbyError::NobodyNamed(to.clone()))?;
        if target.id == me.id {
            return Err(LobbyError::ChallengesSelf);
        }
        let max = self.pool_settings().max_challenges_per_account;
        let open = self
            .view
            .lock()
            .expect("not poisoned")
            .challenges
            .iter()
            .filter(|c| c.from.name == me.name)
            .count();
        if open >= max as usize {
            return Err(LobbyError::TooManyChallenges(max));
        }
        let challenge = Challenge {
            id: secrets::game_id(),
            from: self.player(me, &terms.variant, 2).await,
            to: self.player(&target, &terms.variant, 2).await,
            variant: terms.variant.clone(),
            variant_title,
            time_control: terms.time_control,
            rated: terms.rated,
            color: terms.color,
        };
        self.db()
            .add_challenge(ChallengeRow {
                id: challenge.id.clone(),
                from: me.id.clone(),
                to: target.id.clone(),
                created_ms: now_ms(),
                body: serde_json::to_string(&challenge).expect("a challenge serialises"),
            })
            .await?;
        info!(challenge = %challenge.id, from = %me.id, to = %target.id, "challenge");
        self.publish_to(
            &[&me.id, &target.id],
            LobbyServerMessage::Challenge { challenge },
        )
        .await;
        Ok(())
    }

    /// The challenge `id` made to `me`, taken from the table.
    async fn take_challenge_where(
        &self,
        id: &str,
        mine: impl Fn(&Challenge) -> bool,
    ) -> Result<ChallengeRow, LobbyError> {
        let not_found = || LobbyError::ChallengeNotFound;
        let known = self
            .view
            .lock()
            .expect("not poisoned")
            .challenges
            .iter()
            .find(|c| c.id == id)
            .cloned();
        let known = match known {
            Some(c) => c,
            None => {
                // Not in the view yet (its event is on the way): read the table.
                let row = self
                    .db()
                    .challenges()
                    .await?
                    .into_iter()
                    .find(|c| c.id == id)
                    .ok_or_else(not_found)?;
                serde_json::from_str(&row.body).map_err(|_| not_found())?
            }
        };
        if !mine(&known) {
            return Err(not_found());
        }
        self.db()
            .take_challenge(id.to_owned())
            .await?
            .ok_or_else(not_found)
    }

    async fn answer_challenge(
        &self,
        me: &Account,
        id: String,
        accept: bool,
    ) -> Result<(), LobbyError> {
        let row = self
            .take_challenge_where(&id, |c| c.to.name == me.name)
            .await?;
        if row.to != me.id {
            return Err(LobbyError::ChallengeNotFound);
        }
        let why = if accept {
            ChallengeEnd::Accepted
        } else {
            ChallengeEnd::Declined
        };
        self.challenge_removed(&row, why).await;
        if !accept {
            return Ok(());
        }
        let challenge: Challenge =
            serde_json::from_str(&row.body).map_err(|e| LobbyError::BrokenRow {
                what: "challenge",
                why: e.to_string(),
            })?;
        let challenger = self
            .accounts
            .account(row.from.clone())
            .await?
            .ok_or(LobbyError::ChallengerGone)?;
        let (white, black) = match colors(challenge.color) {
            Side::White => (&challenger, me),
            Side::Black => (me, &challenger),
        };
        self.out_of_pools([&challenger.id, &me.id]).await?;
        self.pair(
            &challenge.variant,
            challenge.time_control,
            challenge.rated,
            white,
            black,
        )
        .await?;
        Ok(())
    }

    async fn cancel_challenge(&self, me: &Account, id: String) -> Result<(), LobbyError> {
        let row = self
            .take_challenge_where(&id, |c| c.from.name == me.name)
            .await?;
        self.challenge_removed(&row, ChallengeEnd::Cancelled).await;
        Ok(())
    }

    // ----- the heartbeat and the leader's rounds

    async fn heartbeat(lobby: Weak<Lobby>) {
        let mut leader = LeaderState::default();
        let mut synced_games: HashSet<String> = HashSet::new();
        let mut last_beat: Option<tokio::time::Instant> = None;
        loop {
            let Some(me) = lobby.upgrade() else { return };
            let every = me.pool_settings().wave_every;
            let woken = tokio::select! {
                _ = tokio::time::sleep(every) => false,
                _ = me.wave.notified() => true,
            };
            if woken {
                // Let a burst of joins gather (and keep waves apart).
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            if last_beat.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                last_beat = Some(tokio::time::Instant::now());
                if let Err(e) = me.beat(&mut synced_games).await {
                    warn!("lobby heartbeat: {e}");
                }
            }
            match me.db().lead(me.scope_key).await {
                Ok(true) => {
                    if !leader.leading {
                        info!(node = %me.node, "this node leads the lobby's pairing now");
                        leader.leading = true;
                    }
                    if let Err(e) = me.lead_round(&mut leader).await {
                        warn!("lobby round: {e}");
                    }
                }
                Ok(false) => leader.leading = false,
                Err(e) => {
                    leader.leading = false;
                    warn!("taking the lobby's lead: {e}");
                }
            }
            drop(me);
        }
    }

    /// This node is alive; its game players' presence brought up to date.
    async fn beat(&self, synced: &mut HashSet<String>) -> Result<(), StoreError> {
        let db = self.db();
        db.node_beat(self.node.clone(), now_ms(), self.games.active() as i64)
            .await?;
        let now: HashSet<String> = self
            .local
            .lock()
            .expect("not poisoned")
            .games
            .keys()
            .cloned()
            .collect();
        let join: Vec<String> = now.difference(synced).cloned().collect();
        let leave: Vec<String> = synced.difference(&now).cloned().collect();
        if !join.is_empty() || !leave.is_empty() {
            // One write for all of them (one round trip each delayed the wave that follows).
            db.set_presences(self.node.clone(), store::GAME, join, leave)
                .await?;
        }
        *synced = now;
        Ok(())
    }

    async fn forget_dead_nodes(&self, before_ms: i64) -> Result<(), StoreError> {
        let db = self.db();
        for node in db.dead_nodes(before_ms).await? {
            if node == self.node {
                continue;
            }
            let gone = db.forget_node(node.clone()).await?;
            info!(node = %node, players = gone.len(), "a lobby node is gone: its players left");
            for account in gone {
                self.left(&account).await?;
            }
        }
        Ok(())
    }

    async fn lead_round(&self, state: &mut LeaderState) -> Result<(), StoreError> {
        let db = self.db();
        let settings = self.pool_settings().clone();
        let now = now_ms();
        self.forget_dead_nodes(now - self.alive_ms()).await?;
        let (left, gone) = db.sweep_absent(now).await?;
        for account in left {
            self.publish_to(&[&account], LobbyServerMessage::PoolLeft)
                .await;
        }
        for c in gone {
            self.challenge_removed(&c, ChallengeEnd::Expired).await;
        }
        for id in db
            .expire_seeks(now - settings.seek_grace.as_millis() as i64)
            .await?
        {
            debug!(seek = %id, "seek expired: its player did not come back");
            self.publish(Target::All, LobbyServerMessage::SeekRemoved { id })
                .await;
        }
        for c in db
            .expire_challenges(now - settings.challenge_ttl.as_millis() as i64)
            .await?
        {
            self.challenge_removed(&c, ChallengeEnd::Expired).await;
        }
        // The waves: every pool's pairs taken at once (one atomic statement per pair, one
        // round trip per pool), then their games made concurrently, so that SQLite commits
        // them in one batch and PostgreSQL pipelines them. One pair after another, each
        // waiting for its own commits, paired only a few dozen players a second.
        let wave_start = std::time::Instant::now();
        let mut entries = db.pool_entries().await?;
        let mut paired: HashSet<String> = HashSet::new();
        let mut games: Vec<(&PoolKey, String, String)> = Vec::new();
        let mut waiting_n = 0;
        let mut tables: Vec<(&PoolKey, Vec<String>)> = Vec::new();
        for key in &settings.pools {
            let id = key.id();
            if key.seats > 2 {
                match self
                    .table_wave(key, &entries, now, &settings, &mut paired)
                    .await
                {
                    Ok(mut t) => tables.append(&mut t),
                    Err(e) => warn!(pool = %id, "taking a wave's tables: {e}"),
                }
                continue;
            }
            let waiting: Vec<pairing::Waiting> = entries
                .iter()
                .filter(|e| e.pool == id)
                .map(|e| pairing::Waiting {
                    account: e.account.clone(),
                    rating: e.rating,
                    waited_ms: now - e.joined_ms,
                })
                .collect();
            waiting_n += waiting.len();
            let pairs: Vec<(String, String)> = pairing::pairs(&waiting, &settings.range)
                .into_iter()
                .map(|(a, b)| (waiting[a].account.clone(), waiting[b].account.clone()))
                .collect();
            if pairs.is_empty() {
                continue;
            }
            // An error here took nobody of this pool; the pairs of the pools before it were
            // taken and get their games below.
            let taken = match db.take_pairs(id.clone(), pairs.clone()).await {
                Ok(t) => t,
                Err(e) => {
                    warn!(pool = %id, "taking a wave's pairs: {e}");
                    continue;
                }
            };
            for ((a, b), taken) in pairs.into_iter().zip(taken) {
                if taken {
                    paired.insert(a.clone());
                    paired.insert(b.clone());
                    games.push((key, a, b));
                }
            }
        }
        let taken_in = wave_start.elapsed();
        let made = games.len() + tables.len();
        futures_util::stream::iter(tables)
            .for_each_concurrent(
                WAVE_GAMES_AT_ONCE,
                |(key, players): (&PoolKey, Vec<String>)| async move {
                    let result = self
                        .table(
                            &key.variant,
                            Some(key.time_control),
                            true,
                            key.seats,
                            players,
                            true,
                        )
                        .await;
                    if let Err(e) = result {
                        warn!(pool = %key.id(), "making a pool's table failed: {e}");
                    }
                },
            )
            .await;
        if let Some(after) = settings.fill_with_bots_after {
            self.fill_seeks_with_bots(now - after.as_millis() as i64)
                .await;
        }
        futures_util::stream::iter(games)
            .for_each_concurrent(
                WAVE_GAMES_AT_ONCE,
                |(key, a, b): (&PoolKey, String, String)| async move {
                    if let Err(e) = self.pool_game(key, &a, &b).await {
                        warn!(pool = %key.id(), "making a pool game failed: {e}");
                    }
                },
            )
            .await;
        if made > 0 {
            info!(
                waiting = waiting_n,
                pairs = made,
                taken_ms = taken_in.as_millis() as u64,
                wave_ms = wave_start.elapsed().as_millis() as u64,
                "pairing wave"
            );
        }
        entries.retain(|e| !paired.contains(&e.account));
        // The counts, when they changed (at most every `broadcast_every`).
        let due = state
            .last_broadcast
            .is_none_or(|t| t.elapsed() >= settings.broadcast_every);
        if due {
            let pools = self.pool_counts(&entries);
            let (players, games) = db.counts(now - self.alive_ms()).await?;
            let counts = LobbyCounts { players, games };
            let mut sent = false;
            if state.pools.as_ref() != Some(&pools) {
                state.pools = Some(pools.clone());
                self.publish(Target::All, LobbyServerMessage::Pools { pools })
                    .await;
                sent = true;
            }
            if state.counts != Some(counts) {
                state.counts = Some(counts);
                self.publish(Target::All, LobbyServerMessage::Counts { counts })
                    .await;
                sent = true;
            }
            if sent {
                state.last_broadcast = Some(tokio::time::Instant::now());
            }
        }
        Ok(())
    }

    /// One wave of a pool of more than two seats: the tables of players near in rating
    /// (`pairing::tables`), and, once the longest-waiting have waited
    /// `fill_with_bots_after`, tables of whoever waits, the computer in the empty seats.
    /// Each table taken from the pool atomically (all its players or none); the players
    /// taken are added to `taken`.
    async fn table_wave<'k>(
        &self,
        key: &'k PoolKey,
        entries: &[PoolEntry],
        now: i64,
        settings: &LobbySettings,
        taken: &mut HashSet<String>,
    ) -> Result<Vec<(&'k PoolKey, Vec<String>)>, StoreError> {
        let id = key.id();
        let seats = usize::from(key.seats);
        let mut waiting: Vec<&PoolEntry> = entries.iter().filter(|e| e.pool == id).collect();
        let near: Vec<pairing::Waiting> = waiting
            .iter()
            .map(|e| pairing::Waiting {
                account: e.account.clone(),
                rating: e.rating,
                waited_ms: now - e.joined_ms,
            })
            .collect();
        let mut tables: Vec<Vec<String>> = pairing::tables(&near, &settings.range, seats)
            .into_iter()
            .map(|t| t.into_iter().map(|i| near[i].account.clone()).collect())
            .collect();
        if let Some(after) = settings.fill_with_bots_after {
            // The rest, longest-waiting first, in tables of up to `seats`: a table whose
            // first player waited long enough starts with the computer beside them.
            waiting.retain(|e| !tables.iter().flatten().any(|a| *a == e.account));
            waiting.sort_by_key(|e| (e.joined_ms, e.account.clone()));
            for chunk in waiting.chunks(seats) {
                if now - chunk[0].joined_ms >= after.as_millis() as i64 {
                    tables.push(chunk.iter().map(|e| e.account.clone()).collect());
                }
            }
        }
        if tables.is_empty() {
            return Ok(Vec::new());
        }
        let ok = self.db().take_tables(id, tables.clone()).await?;
        let mut out = Vec::new();
        for (table, ok) in tables.into_iter().zip(ok) {
            if ok {
                taken.extend(table.iter().cloned());
                out.push((key, table));
            }
        }
        Ok(out)
    }

    /// Starts the seeks of more than two seats made before `before_ms` with the computer in
    /// their empty seats.
    async fn fill_seeks_with_bots(&self, before_ms: i64) {
        let rows = match self.db().seeks().await {
            Ok(r) => r,
            Err(e) => {
                warn!("reading the seeks to fill: {e}");
                return;
            }
        };
        for row in rows.iter().filter(|r| r.created_ms <= before_ms) {
            let Ok(seek) = seek_of(row) else { continue };
            if seek.seats <= 2 {
                continue;
            }
            // A seeker who left the lobby (its seek in its grace) is not seated at a game
            // it would not know of: the seek waits for it, or expires.
            let present = self
                .db()
                .in_lobby_elsewhere(
                    String::new(),
                    row.account.clone(),
                    now_ms() - self.alive_ms(),
                )
                .await;
            if !matches!(present, Ok(true)) {
                continue;
            }
            match self.start_seek(&row.id, true).await {
                Ok(()) | Err(LobbyError::SeekGone) => {}
                Err(e) => warn!(seek = %row.id, "filling a seek with the computer: {e}"),
            }
        }
    }

    /// The game of two players a wave paired: rated, colours drawn.
    async fn pool_game(&self, pool: &PoolKey, a: &str, b: &str) -> Result<(), LobbyError> {
        let missing = |id: &str| StoreError::Backend(format!("account {id} is gone"));
        let a = self
            .accounts
            .account(a.to_owned())
            .await?
            .ok_or_else(|| missing(a))?;
        let b = self
            .accounts
            .account(b.to_owned())
            .await?
            .ok_or_else(|| missing(b))?;
        for x in [&a, &b] {
            self.publish_to(&[&x.id], LobbyServerMessage::PoolLeft)
                .await;
        }
        let (white, black) = if secrets::coin() { (&a, &b) } else { (&b, &a) };
        self.pair(&pool.variant, Some(pool.time_control), true, white, black)
            .await?;
        Ok(())
    }
}

/// Games of one wave made at once (more wait for a slot: a bound on the requests one wave
/// puts in the database's queue).
const WAVE_GAMES_AT_ONCE: usize = 256;

/// What the leader remembers between rounds.
#[derive(Default)]
struct LeaderState {
    leading: bool,
    pools: Option<Vec<PoolInfo>>,
    counts: Option<LobbyCounts>,
    last_broadcast: Option<tokio::time::Instant>,
}

/// The seeker's / challenger's side.
fn colors(choice: ColorChoice) -> Side {
    match choice {
        ColorChoice::White => Side::White,
        ColorChoice::Black => Side::Black,
        ColorChoice::Random if secrets::coin() => Side::White,
        ColorChoice::Random => Side::Black,
    }
}

fn variant_title(name: &str) -> String {
    rules::variant_of(name, None)
        .map(|v| v.title.clone())
        .unwrap_or_else(|_| name.to_owned())
}

/// What a client of protocol 2 is told of `msg`: the same, less the tables of more than two
/// (`None`: nothing).
fn two_seats_only(msg: &LobbyServerMessage) -> Option<LobbyServerMessage> {
    match msg {
        LobbyServerMessage::SeekAdded { seek } if seek.seats != 2 => None,
        LobbyServerMessage::Seated { .. } => None,
        LobbyServerMessage::Pools { pools } => Some(LobbyServerMessage::Pools {
            pools: pools
                .iter()
                .filter(|p| p.pool.seats == 2)
                .cloned()
                .collect(),
        }),
        other => Some(other.clone()),
    }
}

/// The protocol's seek a row keeps.
fn seek_of(row: &SeekRow) -> Result<Seek, LobbyError> {
    serde_json::from_str(&row.body).map_err(|e| LobbyError::BrokenRow {
        what: "seek",
        why: e.to_string(),
    })
}

/// Draws the seats: each player's seat at the table, at random.
fn shuffled<T>(mut v: Vec<T>) -> Vec<T> {
    for i in (1..v.len()).rev() {
        v.swap(i, secrets::seat(i + 1));
    }
    v
}
