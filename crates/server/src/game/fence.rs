//! A game task's view of the games' table: every call goes through, and a write refused
//! because another node runs the game now ([`StoreError::NotOwner`]) marks the task as moved
//! away, so that it stops at once instead of serving a game it can no longer store. Only the
//! games' table is fenced: the task reads accounts and gives its lock back through the
//! registry's unfenced stores.
use std::sync::{
    Arc,
    atomic::{AtomicBool, Ordering},
};

use boardcraft_protocol::GameResult;

use crate::storage::{
    AccountEnd, GameRecord, GameStore, GlickoChange, StoreError, StoreFuture, StoredGame,
    StoredMove,
};

pub(crate) struct Fenced {
    inner: Arc<dyn GameStore>,
    moved_away: Arc<AtomicBool>,
}

impl Fenced {
    pub(crate) fn new(inner: Arc<dyn GameStore>, moved_away: Arc<AtomicBool>) -> Fenced {
        Fenced { inner, moved_away }
    }

    fn note<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        if let Err(StoreError::NotOwner(_)) = &result {
            self.moved_away.store(true, Ordering::Relaxed);
        }
        result
    }
}

impl GameStore for Fenced {
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

    fn finish_account_game(
        &self,
        id: String,
        result: GameResult,
        end: AccountEnd,
    ) -> StoreFuture<'_, Option<Vec<GlickoChange>>> {
        Box::pin(async move { self.note(self.inner.finish_account_game(id, result, end).await) })
    }

    fn game_ids(&self) -> StoreFuture<'_, Vec<String>> {
        self.inner.game_ids()
    }
}
