//! A game task's writes to the games' table: every call goes through, and a write refused
//! because another node runs the game now ([`StoreError::NotOwner`]) marks the task as moved
//! away, so that it stops at once instead of serving a game it can no longer store. Only what
//! the task writes is here: it reads accounts and gives its lock back through the registry.
use std::sync::{
    Arc,
    atomic::{AtomicBool, Ordering},
};

use boardcraft_protocol::{SeatIndex, SeatLeft, SeatResult};

use crate::storage::{AccountEnd, GameRecord, GameStore, GlickoChange, StoreError, StoredMove};

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

    /// A new game (the rematch): no other node runs it yet, so nothing to fence.
    pub(crate) async fn create_game(&self, game: GameRecord) -> Result<(), StoreError> {
        self.inner.create_game(game).await
    }

    pub(crate) async fn mark_joined(
        &self,
        id: String,
        seat: SeatIndex,
    ) -> Result<bool, StoreError> {
        self.note(self.inner.mark_joined(id, seat).await)
    }

    pub(crate) async fn seat_left(&self, id: String, left: SeatLeft) -> Result<(), StoreError> {
        self.note(self.inner.seat_left(id, left).await)
    }

    pub(crate) async fn append_move(&self, id: String, mv: StoredMove) -> Result<(), StoreError> {
        self.note(self.inner.append_move(id, mv).await)
    }

    pub(crate) async fn truncate_moves(&self, id: String, from_ply: u32) -> Result<(), StoreError> {
        self.note(self.inner.truncate_moves(id, from_ply).await)
    }

    pub(crate) async fn finish_game(
        &self,
        id: String,
        result: SeatResult,
    ) -> Result<(), StoreError> {
        self.note(self.inner.finish_game(id, result).await)
    }

    pub(crate) async fn finish_account_game(
        &self,
        id: String,
        result: SeatResult,
        end: AccountEnd,
    ) -> Result<Option<Vec<GlickoChange>>, StoreError> {
        self.note(self.inner.finish_account_game(id, result, end).await)
    }
}
