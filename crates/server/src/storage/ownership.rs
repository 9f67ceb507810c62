//! Which node runs a game, when several nodes share one PostgreSQL (docs/online.md).
//!
//! - **The lock**: a node runs a game only while it holds the game's advisory lock
//!   (`pg_try_advisory_lock(hashtextextended(id, 0))`) on its own dedicated connection — not a
//!   pooled one: a session lock belongs to the session that took it. A node that dies loses
//!   its connection, and PostgreSQL frees its locks.
//! - **The fence**: whoever takes the lock bumps the game's `owner_epoch`, and every write of
//!   the game's task names the epoch it holds (`… WHERE owner_epoch = $e`, the game's row
//!   locked `FOR SHARE` for an insert). A node that lost its lock without noticing (its lock
//!   connection dropped, the node still running) can no longer store anything: its writes
//!   find another epoch and are refused, so no acknowledged move can be lost or doubled.
//! - **Handover**: a node asked for a game another live node holds asks it to let go (an
//!   event on `boardcraft_handover`, see `events`); the holder stops the game's task, which
//!   tells its clients to reconnect, and unlocks it.
//! - **Announcements**: a node that took a game says so (`boardcraft_games`: `taken <epoch>
//!   <id>`); a node that still runs the game with an older epoch (it lost its lock without
//!   noticing yet) stops it at once rather than at its next write.
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use tokio::sync::{broadcast, oneshot};
use tokio_postgres::Client;
use tracing::{info, warn};

use super::{
    StoreError,
    events::{BusMessage, EventBus},
    lobby::CHANNEL as LOBBY_CHANNEL,
};

/// Gives the game's lock (`$1`: its id) back.
const UNLOCK_GAME: &str = "SELECT pg_advisory_unlock(hashtextextended($1, 0))";

/// The channel handover requests go over (the payload: a game id).
pub const HANDOVER_CHANNEL: &str = "boardcraft_handover";
/// The channel nodes announce the games they took on (`taken <epoch> <id>`).
pub const GAMES_CHANNEL: &str = "boardcraft_games";

/// What the cluster tells a node's games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClusterEvent {
    /// Another node has been asked for this game: stop it here, if it runs here.
    HandoverRequested(String),
    /// The lock connection dropped: every lock is gone, every game must stop here.
    OwnershipLost,
}

/// The result of trying to take a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acquired {
    /// This node holds the game now.
    Yes,
    /// Another live node holds it.
    Elsewhere,
    /// No such game.
    NoGame,
}

pub(crate) fn backend(e: tokio_postgres::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// A node's locks: its dedicated connection, and for every game it holds, how often it took
/// the lock (PostgreSQL counts session locks) and the epoch it got.
pub struct Ownership {
    url: String,
    client: tokio::sync::RwLock<Client>,
    held: Mutex<HashMap<String, (u32, i64)>>,
    events: broadcast::Sender<ClusterEvent>,
    bus: Arc<EventBus>,
}

impl Ownership {
    pub async fn connect(url: &str) -> Result<Arc<Ownership>, StoreError> {
        let (events, _) = broadcast::channel(1024);
        let (client, closed) = Self::open(url).await?;
        let bus = EventBus::connect(url, &[HANDOVER_CHANNEL, GAMES_CHANNEL, LOBBY_CHANNEL]).await?;
        let ownership = Arc::new(Ownership {
            url: url.to_owned(),
            client: tokio::sync::RwLock::new(client),
            held: Mutex::new(HashMap::new()),
            events,
            bus,
        });
        ownership.watch(closed);
        ownership.follow_bus();
        Ok(ownership)
    }

    /// Opens the dedicated lock connection; `closed` resolves when it drops.
    async fn open(url: &str) -> Result<(Client, oneshot::Receiver<()>), StoreError> {
        // Notifications never arrive here: this connection only takes and releases locks.
        super::events::dedicated_connection(url, "lock", |_| {}).await
    }

    /// Turns the bus's events into what the node's games must do.
    fn follow_bus(self: &Arc<Self>) {
        let me = Arc::downgrade(self);
        let mut bus = self.bus.subscribe();
        tokio::spawn(async move {
            loop {
                let message = match bus.recv().await {
                    Ok(m) => m,
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        warn!("{n} cluster events missed");
                        continue;
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                let Some(ownership) = me.upgrade() else {
                    return;
                };
                let BusMessage::Event { channel, payload } = message else {
                    // Reconnected: a handover request sent meanwhile is lost, but its sender
                    // asks again every second while it waits.
                    continue;
                };
                let stop = match channel.as_str() {
                    HANDOVER_CHANNEL => Some(payload),
                    GAMES_CHANNEL => {
                        let mut words = payload.split(' ');
                        match (words.next(), words.next(), words.next()) {
                            (Some("taken"), Some(epoch), Some(game)) => {
                                let epoch: i64 = epoch.parse().unwrap_or(0);
                                // Only a game held here with an older epoch: a stale task.
                                ownership
                                    .epoch(game)
                                    .is_some_and(|mine| mine < epoch)
                                    .then(|| game.to_owned())
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                };
                if let Some(game) = stop {
                    let _ = ownership.events.send(ClusterEvent::HandoverRequested(game));
                }
            }
        });
    }

    /// The task that notices a dropped lock connection and opens another.
    fn watch(self: &Arc<Self>, closed: oneshot::Receiver<()>) {
        let me = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut closed = closed;
            loop {
                let _ = closed.await;
                let Some(ownership) = me.upgrade() else {
                    return;
                };
                let lost = std::mem::take(&mut *ownership.held.lock().expect("not poisoned"));
                warn!(
                    games = lost.len(),
                    "lost the PostgreSQL lock connection: every game here stops"
                );
                let _ = ownership.events.send(ClusterEvent::OwnershipLost);
                loop {
                    match Self::open(&ownership.url).await {
                        Ok((client, next)) => {
                            *ownership.client.write().await = client;
                            info!("the PostgreSQL lock connection is back");
                            closed = next;
                            break;
                        }
                        Err(e) => {
                            warn!("reopening the lock connection: {e}");
                            tokio::time::sleep(Duration::from_millis(500)).await;
                        }
                    }
                }
            }
        });
    }

    pub fn events(&self) -> broadcast::Receiver<ClusterEvent> {
        self.events.subscribe()
    }

    /// The epoch this node holds the game with; `None` if it does not hold it.
    pub fn epoch(&self, game: &str) -> Option<i64> {
        self.held
            .lock()
            .expect("not poisoned")
            .get(game)
            .map(|(_, e)| *e)
    }

    /// Takes the game's lock if it is free (or held here), and a new epoch with it. The epoch
    /// is bumped on `writer` (one of the store's pooled connections), not on the lock
    /// connection: the bump is a commit that waits for its WAL flush, and many games taken at
    /// once (a node died) would queue one after another on the single lock connection.
    pub async fn acquire(&self, game: &str, writer: &Client) -> Result<Acquired, StoreError> {
        let locked: bool = self
            .client
            .read()
            .await
            .query_one(
                "SELECT pg_try_advisory_lock(hashtextextended($1, 0))",
                &[&game],
            )
            .await
            .map_err(backend)?
            .get(0);
        if !locked {
            return Ok(Acquired::Elsewhere);
        }
        let row = writer
            .query_opt(
                "UPDATE games SET owner_epoch = owner_epoch + 1 WHERE id = $1 RETURNING owner_epoch",
                &[&game],
            )
            .await;
        let epoch: i64 = match row {
            Ok(Some(row)) => row.get(0),
            other => {
                let _ = self
                    .client
                    .read()
                    .await
                    .execute(UNLOCK_GAME, &[&game])
                    .await;
                return match other {
                    Ok(_) => Ok(Acquired::NoGame),
                    Err(e) => Err(backend(e)),
                };
            }
        };
        {
            let mut held = self.held.lock().expect("not poisoned");
            let entry = held.entry(game.to_owned()).or_insert((0, epoch));
            entry.0 += 1;
            entry.1 = epoch;
        }
        // Announced without waiting: it only hurries a stale node along (its writes are
        // fenced anyway).
        let bus = self.bus.clone();
        let announcement = format!("taken {epoch} {game}");
        tokio::spawn(async move {
            if let Err(e) = bus.publish(GAMES_CHANNEL, &announcement).await {
                warn!("announcing a game failed: {e}");
            }
        });
        Ok(Acquired::Yes)
    }

    /// Gives one taking of the lock back (the game's task stopped).
    pub async fn release(&self, game: &str) -> Result<(), StoreError> {
        {
            let mut held = self.held.lock().expect("not poisoned");
            match held.get_mut(game) {
                // Not held (the connection dropped meanwhile: nothing to unlock).
                None => return Ok(()),
                Some((n, _)) if *n > 1 => *n -= 1,
                Some(_) => {
                    held.remove(game);
                }
            }
        }
        self.client
            .read()
            .await
            .execute(UNLOCK_GAME, &[&game])
            .await
            .map_err(backend)?;
        Ok(())
    }

    /// Takes (or keeps) a named node-wide lock on the lock connection, in the two-key form
    /// (apart from the games' one-key locks): `true` while this node holds it. Asking again
    /// while held does not stack the lock. Lost with the lock connection, like the games'.
    pub async fn hold(&self, key: (i32, i32)) -> Result<bool, StoreError> {
        Ok(self
            .client
            .read()
            .await
            .query_one(
                "SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'
                         AND pid = pg_backend_pid() AND classid = $1::int4::oid
                         AND objid = $2::int4::oid AND objsubid = 2 AND granted)
                     THEN TRUE ELSE pg_try_advisory_lock($1, $2) END",
                &[&key.0, &key.1],
            )
            .await
            .map_err(backend)?
            .get(0))
    }

    /// Asks whichever node holds the game to let it go.
    pub async fn request_handover(&self, game: &str) -> Result<(), StoreError> {
        self.bus.publish(HANDOVER_CHANNEL, game).await
    }

    /// The cluster's event bus (the lobby is to publish on it too).
    pub fn bus(&self) -> &Arc<EventBus> {
        &self.bus
    }

    /// The backend process of the lock connection (tests end it to play a lost connection).
    pub async fn backend_pid(&self) -> Result<i32, StoreError> {
        super::events::backend_pid(&self.client).await
    }
}
