//! The games in memory: game id → the sender of its task. A game's task is started when the
//! game is first asked for (loaded from storage) and stops when it has been idle a while.
//!
//! With several nodes on one PostgreSQL, a task is started only after this node took the
//! game's lock (storage/ownership.rs); a game another live node holds is asked for (a handover
//! request) and waited for a few seconds, and a handover request from another node stops the
//! task here.
use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use tokio::sync::{mpsc, oneshot};
use tracing::{info, warn};

use super::{Command, Game, LoadError};
use crate::{
    Settings,
    storage::{AccountStore, Acquired, ClusterEvent, ClusterStore, GameStore, Storage},
};

/// Commands queued for one game before senders wait.
const QUEUE: usize = 256;

pub struct Games {
    /// The games' table (each game's task writes through a fenced view of it).
    pub(crate) store: Arc<dyn GameStore>,
    /// The players of games between accounts: their names, flags and ratings.
    pub(crate) accounts: Arc<dyn AccountStore>,
    /// Which node runs a game.
    cluster: Arc<dyn ClusterStore>,
    /// The database as opened: [`crate::serve_games`] hands it on to the lobby and the HTTP
    /// handlers; the games themselves use only the parts above.
    storage: Arc<dyn Storage>,
    pub(crate) settings: Arc<Settings>,
    tasks: Mutex<HashMap<String, (u64, mpsc::Sender<Command>)>>,
    generation: AtomicU64,
    /// One start at a time per game on this node (a cluster lock is counted per taking).
    starting: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl Games {
    pub fn new(storage: Arc<dyn Storage>, settings: Arc<Settings>) -> Arc<Games> {
        let events = storage.cluster_events();
        let games = Arc::new(Games {
            store: storage.clone(),
            accounts: storage.clone(),
            cluster: storage.clone(),
            storage,
            settings,
            tasks: Mutex::new(HashMap::new()),
            generation: AtomicU64::new(0),
            starting: Mutex::new(HashMap::new()),
        });
        if let Some(events) = events {
            tokio::spawn(Self::follow_cluster(Arc::downgrade(&games), events));
        }
        games
    }

    /// Stops the games another node asks for, and every game when the locks are lost.
    async fn follow_cluster(
        games: std::sync::Weak<Games>,
        mut events: tokio::sync::broadcast::Receiver<ClusterEvent>,
    ) {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            let event = match events.recv().await {
                Ok(e) => e,
                // Missed some: stopping every game is the safe answer to any of them.
                Err(RecvError::Lagged(_)) => ClusterEvent::OwnershipLost,
                Err(RecvError::Closed) => return,
            };
            let Some(games) = games.upgrade() else { return };
            let targets: Vec<mpsc::Sender<Command>> = {
                let tasks = games.tasks.lock().expect("not poisoned");
                match &event {
                    ClusterEvent::HandoverRequested(id) => tasks
                        .get(id)
                        .map(|(_, tx)| tx.clone())
                        .into_iter()
                        .collect(),
                    ClusterEvent::OwnershipLost => {
                        tasks.values().map(|(_, tx)| tx.clone()).collect()
                    }
                }
            };
            if let ClusterEvent::HandoverRequested(id) = &event
                && !targets.is_empty()
            {
                info!(game = %id, "another node asks for the game: handing it over");
            }
            for tx in targets {
                tokio::spawn(async move {
                    let _ = tx.send(Command::Handover).await;
                });
            }
        }
    }

    /// The database as opened, for wiring the services beside the games (the lobby, the HTTP
    /// handlers).
    pub(crate) fn storage(&self) -> &Arc<dyn Storage> {
        &self.storage
    }

    /// Gives a game's lock back (its task stopped).
    pub(crate) async fn release(&self, id: String) {
        if let Err(e) = self.cluster.release(id.clone()).await {
            warn!(game = %id, "giving the game's lock back failed: {e}");
        }
    }

    /// Game tasks running now.
    pub fn active(&self) -> usize {
        self.tasks.lock().expect("not poisoned").len()
    }

    fn running(&self, id: &str) -> Option<(u64, mpsc::Sender<Command>)> {
        self.tasks
            .lock()
            .expect("not poisoned")
            .get(id)
            .filter(|(_, tx)| !tx.is_closed())
            .cloned()
    }

    /// The game's task, started (from storage) if needed; `None` if no such game is stored.
    pub async fn task(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<Option<mpsc::Sender<Command>>, LoadError> {
        if let Some((_, tx)) = self.running(id) {
            return Ok(Some(tx));
        }
        let gate = self
            .starting
            .lock()
            .expect("not poisoned")
            .entry(id.to_owned())
            .or_default()
            .clone();
        let started = {
            let _one_at_a_time = gate.lock().await;
            match self.running(id) {
                Some((_, tx)) => Ok(Some(tx)),
                None => self.start(id).await,
            }
        };
        let mut starting = self.starting.lock().expect("not poisoned");
        if Arc::strong_count(&gate) == 2 {
            starting.remove(id);
        }
        started
    }

    /// Takes the game's lock (asking its holder to let go, and waiting a while, if another
    /// node holds it), loads it and starts its task.
    async fn start(self: &Arc<Self>, id: &str) -> Result<Option<mpsc::Sender<Command>>, LoadError> {
        let deadline = tokio::time::Instant::now() + self.settings.handover_wait;
        let mut asked = false;
        let mut ask_again = tokio::time::Instant::now();
        loop {
            match self.cluster.acquire(id.to_owned()).await? {
                Acquired::Yes => break,
                Acquired::NoGame => return Ok(None),
                Acquired::Elsewhere => {
                    // Asked again every second: a request sent while the holder's listening
                    // connection was down is lost (NOTIFY reaches only current listeners).
                    if tokio::time::Instant::now() >= ask_again {
                        self.cluster.request_handover(id.to_owned()).await?;
                        asked = true;
                        ask_again = tokio::time::Instant::now() + std::time::Duration::from_secs(1);
                    }
                    if tokio::time::Instant::now() >= deadline {
                        warn!(game = %id, wait = ?self.settings.handover_wait, "the node that runs the game did not let go in time");
                        return Err(LoadError::Elsewhere(id.to_owned()));
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(25)).await;
                }
            }
        }
        let loaded = async {
            let Some(stored) = self.store.load_game(id.to_owned()).await? else {
                return Ok(None);
            };
            let generation = self.generation.fetch_add(1, Ordering::Relaxed);
            Ok(Some((
                generation,
                Game::load(self.clone(), generation, stored).await?,
            )))
        }
        .await;
        let (generation, mut game) = match loaded {
            Ok(Some(g)) => g,
            other => {
                self.release(id.to_owned()).await;
                return other.map(|_| None);
            }
        };
        if asked {
            info!(game = %id, "took the game over from another node");
        }
        let (tx, rx) = mpsc::channel(QUEUE);
        self.tasks
            .lock()
            .expect("not poisoned")
            .insert(id.to_owned(), (generation, tx.clone()));
        game.task = Some(tx.downgrade());
        let computers = game.computer_seats();
        tokio::spawn(game.run(rx));
        // The computer's seats are played where the game runs, for as long as it runs here.
        for token in computers {
            super::computer::play_seat(
                tx.clone(),
                id.to_owned(),
                token,
                self.settings.lobby.bot_level,
            );
        }
        Ok(Some(tx))
    }

    /// Asks the game a question and waits for the answer. A task that stopped meanwhile (it
    /// was unloading) is started again and asked again.
    pub async fn ask<T>(
        self: &Arc<Self>,
        id: &str,
        make: impl Fn(oneshot::Sender<T>) -> Command,
    ) -> Result<Option<T>, LoadError> {
        for _ in 0..3 {
            let Some(tx) = self.task(id).await? else {
                return Ok(None);
            };
            let (reply, answer) = oneshot::channel();
            if tx.send(make(reply)).await.is_err() {
                tokio::task::yield_now().await;
                continue;
            }
            match answer.await {
                Ok(value) => return Ok(Some(value)),
                Err(_) => tokio::task::yield_now().await,
            }
        }
        Err(LoadError::Broken {
            game: id.to_owned(),
            why: "the game's task keeps stopping".into(),
        })
    }

    /// A task that stops removes itself (only itself: a newer task may have the id already).
    pub(crate) fn forget(&self, id: &str, generation: u64) {
        let mut tasks = self.tasks.lock().expect("not poisoned");
        if tasks.get(id).is_some_and(|(g, _)| *g == generation) {
            tasks.remove(id);
        }
    }
}
