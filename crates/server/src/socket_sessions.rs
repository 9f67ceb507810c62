//! Which open websockets belong to which session, so that ending a session ends them.
//!
//! A lobby socket is signed in by a session; a game socket carries one when its upgrade
//! presented a session cookie or bearer header (a browser always sends its cookie). Signing
//! out, changing the password (which ends the account's other sessions) and claiming the
//! account close the sockets of the sessions concerned on this node at once, with close code
//! [`CLOSE_SESSION_CHANGED`]; a lobby socket on another node of a cluster finds out at its
//! next state-changing message, which re-reads its session from the database.
use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use tokio::sync::oneshot;

/// The close code of a socket whose session ended or changed: reconnect (and sign in again
/// if the session ended). An application code (4000–4999), after HTTP's 401.
pub const CLOSE_SESSION_CHANGED: u16 = 4401;

/// Why a session's sockets are closed (the close frame's reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionChange {
    SignedOut,
    PasswordChanged,
    Claimed,
}

impl SessionChange {
    pub fn reason(self) -> &'static str {
        match self {
            SessionChange::SignedOut => "signed out",
            SessionChange::PasswordChanged => "password changed",
            SessionChange::Claimed => "account claimed",
        }
    }
}

type Watchers = HashMap<u64, oneshot::Sender<SessionChange>>;

/// The open sockets by session (the SHA-256 of its token, as the database keeps it).
#[derive(Default)]
pub struct SessionSockets {
    next: AtomicU64,
    open: Mutex<HashMap<String, Watchers>>,
}

impl SessionSockets {
    /// Registers a socket of the session; the watch says when the session changes, and
    /// unregisters when dropped.
    pub fn watch(self: &Arc<Self>, token_hash: String) -> SessionWatch {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.open
            .lock()
            .expect("not poisoned")
            .entry(token_hash.clone())
            .or_default()
            .insert(id, tx);
        SessionWatch {
            changed: rx,
            registry: self.clone(),
            token_hash,
            id,
        }
    }

    /// Tells every socket of the session; how many there were.
    pub fn change(&self, token_hash: &str, change: SessionChange) -> usize {
        let watchers = self
            .open
            .lock()
            .expect("not poisoned")
            .remove(token_hash)
            .unwrap_or_default();
        let n = watchers.len();
        for (_, tx) in watchers {
            let _ = tx.send(change);
        }
        n
    }

    /// Sessions with an open socket (for tests).
    pub fn sessions(&self) -> usize {
        self.open.lock().expect("not poisoned").len()
    }
}

/// One socket's registration.
pub struct SessionWatch {
    /// Resolves when the session changes.
    pub changed: oneshot::Receiver<SessionChange>,
    registry: Arc<SessionSockets>,
    token_hash: String,
    id: u64,
}

impl Drop for SessionWatch {
    fn drop(&mut self) {
        let mut open = self.registry.open.lock().expect("not poisoned");
        if let Some(watchers) = open.get_mut(&self.token_hash) {
            watchers.remove(&self.id);
            if watchers.is_empty() {
                open.remove(&self.token_hash);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_change_reaches_every_socket_of_the_session_and_no_other() {
        let sockets = Arc::new(SessionSockets::default());
        let mut a = sockets.watch("s1".into());
        let mut b = sockets.watch("s1".into());
        let mut other = sockets.watch("s2".into());
        assert_eq!(sockets.change("s1", SessionChange::SignedOut), 2);
        assert_eq!((&mut a.changed).await.unwrap(), SessionChange::SignedOut);
        assert_eq!((&mut b.changed).await.unwrap(), SessionChange::SignedOut);
        assert!(other.changed.try_recv().is_err());
        drop(other);
        assert_eq!(sockets.sessions(), 0, "dropped watches unregister");
    }
}
