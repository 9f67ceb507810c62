//! The games in memory: game id → the sender of its task. A game's task is started when the
//! game is first asked for (loaded from storage) and stops when it has been idle a while.
use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use tokio::sync::{mpsc, oneshot};

use super::{Command, Game, LoadError};
use crate::{Settings, storage::Storage};

/// Commands queued for one game before senders wait.
const QUEUE: usize = 256;

pub struct Games {
    pub(crate) store: Arc<dyn Storage>,
    pub(crate) settings: Arc<Settings>,
    tasks: Mutex<HashMap<String, (u64, mpsc::Sender<Command>)>>,
    generation: AtomicU64,
}

impl Games {
    pub fn new(store: Arc<dyn Storage>, settings: Arc<Settings>) -> Arc<Games> {
        Arc::new(Games {
            store,
            settings,
            tasks: Mutex::new(HashMap::new()),
            generation: AtomicU64::new(0),
        })
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
        let Some(stored) = self.store.load_game(id.to_owned()).await? else {
            return Ok(None);
        };
        let generation = self.generation.fetch_add(1, Ordering::Relaxed);
        let game = Game::load(self.clone(), generation, stored).await?;
        let mut tasks = self.tasks.lock().expect("not poisoned");
        // Another request may have loaded it meanwhile: use that one.
        if let Some((_, tx)) = tasks.get(id).filter(|(_, tx)| !tx.is_closed()) {
            return Ok(Some(tx.clone()));
        }
        let (tx, rx) = mpsc::channel(QUEUE);
        tasks.insert(id.to_owned(), (generation, tx.clone()));
        drop(tasks);
        tokio::spawn(game.run(rx));
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
