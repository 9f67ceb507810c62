//! A game task's view of the store: every call goes through, and a write refused because
//! another node runs the game now ([`StoreError::NotOwner`]) marks the task as moved away, so
//! that it stops at once instead of serving a game it can no longer store.
use std::sync::{
    Arc,
    atomic::{AtomicBool, Ordering},
};

use boardcraft_protocol::GameResult;

use crate::storage::{GameRecord, Storage, StoreError, StoreFuture, StoredGame, StoredMove};

pub(crate) struct Fenced {
    inner: Arc<dyn Storage>,
    moved_away: Arc<AtomicBool>,
}

impl Fenced {
    pub(crate) fn new(inner: Arc<dyn Storage>, moved_away: Arc<AtomicBool>) -> Fenced {
        Fenced { inner, moved_away }
    }

    fn note<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        if let Err(StoreError::NotOwner(_)) = &result {
            self.moved_away.store(true, Ordering::Relaxed);
        }
        result
    }
}

impl Storage for Fenced {
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }

    fn create_game(&self, game: GameRecord) -> StoreFuture<'_, ()> {
        self.inner.create_game(game)
    }

    fn load_game(&self, id: String) -> StoreFuture<'_, Option<StoredGame>> {
        self.inner.load_game(id)
    }

    fn game_of_invite(&self, invite: String) -> StoreFuture<'_, Option<String>> {
        self.inner.game_of_invite(invite)
    }

    fn mark_joined(&self, id: String) -> StoreFuture<'_, bool> {
        Box::pin(async move { self.note(self.inner.mark_joined(id).await) })
    }

    fn append_move(&self, id: String, mv: StoredMove) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.note(self.inner.append_move(id, mv).await) })
    }

    fn truncate_moves(&self, id: String, from_ply: u32) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.note(self.inner.truncate_moves(id, from_ply).await) })
    }

    fn finish_game(&self, id: String, result: GameResult) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.note(self.inner.finish_game(id, result).await) })
    }

    fn game_ids(&self) -> StoreFuture<'_, Vec<String>> {
        self.inner.game_ids()
    }

    fn health(&self) -> StoreFuture<'_, ()> {
        self.inner.health()
    }
}
