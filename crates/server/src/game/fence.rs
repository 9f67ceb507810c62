//! A game task's view of the store: every call goes through, and a write refused because
//! another node runs the game now ([`StoreError::NotOwner`]) marks the task as moved away, so
//! that it stops at once instead of serving a game it can no longer store.
use std::sync::{
    Arc,
    atomic::{AtomicBool, Ordering},
};

use boardcraft_protocol::{GameResult, Rating};

use crate::storage::{
    Account, AccountEnd, ArchivedGame, GameRecord, GlickoChanges, Ranked, Storage, StoreError,
    StoreFuture, StoredGame, StoredMove, Tally,
};

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

    fn finish_account_game(
        &self,
        id: String,
        result: GameResult,
        end: AccountEnd,
    ) -> StoreFuture<'_, Option<GlickoChanges>> {
        Box::pin(async move { self.note(self.inner.finish_account_game(id, result, end).await) })
    }

    fn ratings(&self, account: String) -> StoreFuture<'_, Vec<Rating>> {
        self.inner.ratings(account)
    }

    fn player_games(
        &self,
        account: String,
        offset: u32,
        limit: u32,
    ) -> StoreFuture<'_, Vec<ArchivedGame>> {
        self.inner.player_games(account, offset, limit)
    }

    fn tallies(&self, account: String) -> StoreFuture<'_, Vec<Tally>> {
        self.inner.tallies(account)
    }

    fn leaderboard(&self, variant: String, limit: u32) -> StoreFuture<'_, Vec<Ranked>> {
        self.inner.leaderboard(variant, limit)
    }

    fn game_ids(&self) -> StoreFuture<'_, Vec<String>> {
        self.inner.game_ids()
    }

    fn set_password(
        &self,
        id: String,
        password_hash: String,
        keep_session: String,
    ) -> StoreFuture<'_, Vec<String>> {
        self.inner.set_password(id, password_hash, keep_session)
    }

    fn limits(&self) -> Option<&dyn crate::storage::limits::LimitStore> {
        self.inner.limits()
    }

    fn health(&self) -> StoreFuture<'_, ()> {
        self.inner.health()
    }

    // Accounts are no game's: passed through unfenced.
    fn create_account(&self, account: Account) -> StoreFuture<'_, ()> {
        self.inner.create_account(account)
    }

    fn account(&self, id: String) -> StoreFuture<'_, Option<Account>> {
        self.inner.account(id)
    }

    fn account_by_name(&self, name: String) -> StoreFuture<'_, Option<Account>> {
        self.inner.account_by_name(name)
    }

    fn account_by_telegram(&self, telegram_id: i64) -> StoreFuture<'_, Option<Account>> {
        self.inner.account_by_telegram(telegram_id)
    }

    fn claim_account(
        &self,
        id: String,
        name: String,
        password_hash: String,
    ) -> StoreFuture<'_, bool> {
        self.inner.claim_account(id, name, password_hash)
    }

    fn link_telegram(&self, id: String, telegram_id: i64) -> StoreFuture<'_, bool> {
        self.inner.link_telegram(id, telegram_id)
    }

    fn set_bot(&self, name: String, bot: bool) -> StoreFuture<'_, bool> {
        self.inner.set_bot(name, bot)
    }

    fn create_session(
        &self,
        token_hash: String,
        account: String,
        created_ms: i64,
    ) -> StoreFuture<'_, ()> {
        self.inner.create_session(token_hash, account, created_ms)
    }

    fn session_account(&self, token_hash: String) -> StoreFuture<'_, Option<Account>> {
        self.inner.session_account(token_hash)
    }

    fn delete_session(&self, token_hash: String) -> StoreFuture<'_, ()> {
        self.inner.delete_session(token_hash)
    }
}
