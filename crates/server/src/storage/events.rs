//! Events between the nodes of a cluster, over PostgreSQL's `LISTEN/NOTIFY`: publish a short
//! text on a channel, and every node listening hears it. A node listens on one dedicated
//! connection (a notification goes to the sessions listening at the time).
//!
//! What NOTIFY does not do, and what users of the bus must do about it:
//! - a listener that lost its connection misses whatever was sent until it listens again: the
//!   bus then delivers [`BusMessage::Reconnected`], and a subscriber re-reads the state the
//!   events were about from its tables (the lobby's seeks, say), or asks again;
//! - a payload is at most [`MAX_PAYLOAD`] bytes: send ids, and keep the data in tables;
//! - a notification is delivered when the publishing transaction commits (`pg_notify` in
//!   autocommit: at once), in the order of commits.
use std::{sync::Arc, time::Duration};

use tokio::sync::{RwLock, broadcast, oneshot};
use tokio_postgres::{AsyncMessage, Client, NoTls};
use tracing::{info, warn};

use super::StoreError;

/// PostgreSQL refuses payloads of 8000 bytes or more.
pub const MAX_PAYLOAD: usize = 7999;

/// What subscribers receive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BusMessage {
    Event {
        channel: String,
        payload: String,
    },
    /// The listening connection was lost and is back: events sent meanwhile are lost, re-read.
    Reconnected,
}

pub struct EventBus {
    url: String,
    channels: Vec<String>,
    client: RwLock<Client>,
    tx: broadcast::Sender<BusMessage>,
}

fn backend(e: tokio_postgres::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// A channel name as PostgreSQL takes it unquoted.
fn check_channel(channel: &str) -> Result<(), StoreError> {
    let ok = !channel.is_empty()
        && channel.len() < 64
        && channel
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(StoreError::Backend(format!("bad channel name `{channel}`")))
    }
}

impl EventBus {
    /// Connects and listens on `channels` (lower-case letters, digits and `_`).
    pub async fn connect(url: &str, channels: &[&str]) -> Result<Arc<EventBus>, StoreError> {
        for c in channels {
            check_channel(c)?;
        }
        let (tx, _) = broadcast::channel(4096);
        let channels: Vec<String> = channels.iter().map(|c| c.to_string()).collect();
        let (client, closed) = Self::listen(url, &channels, tx.clone()).await?;
        let bus = Arc::new(EventBus {
            url: url.to_owned(),
            channels,
            client: RwLock::new(client),
            tx,
        });
        bus.keep_listening(closed);
        Ok(bus)
    }

    async fn listen(
        url: &str,
        channels: &[String],
        tx: broadcast::Sender<BusMessage>,
    ) -> Result<(Client, oneshot::Receiver<()>), StoreError> {
        let (client, closed) = dedicated_connection(url, "event", move |n| {
            let _ = tx.send(BusMessage::Event {
                channel: n.channel().to_owned(),
                payload: n.payload().to_owned(),
            });
        })
        .await?;
        for c in channels {
            client
                .batch_execute(&format!("LISTEN {c}"))
                .await
                .map_err(backend)?;
        }
        Ok((client, closed))
    }

    /// Reopens the connection whenever it drops, and tells subscribers to re-read.
    fn keep_listening(self: &Arc<Self>, closed: oneshot::Receiver<()>) {
        let bus = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut closed = closed;
            loop {
                let _ = closed.await;
                loop {
                    let Some(b) = bus.upgrade() else { return };
                    match Self::listen(&b.url, &b.channels, b.tx.clone()).await {
                        Ok((client, next)) => {
                            *b.client.write().await = client;
                            info!("the PostgreSQL event connection is back");
                            let _ = b.tx.send(BusMessage::Reconnected);
                            closed = next;
                            break;
                        }
                        Err(e) => {
                            drop(b);
                            warn!("reopening the event connection: {e}");
                            tokio::time::sleep(Duration::from_millis(500)).await;
                        }
                    }
                }
            }
        });
    }

    pub fn subscribe(&self) -> broadcast::Receiver<BusMessage> {
        self.tx.subscribe()
    }

    /// Sends `payload` to every node listening on `channel` (this one included).
    pub async fn publish(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        check_channel(channel)?;
        if payload.len() > MAX_PAYLOAD {
            return Err(StoreError::Backend(format!(
                "an event of {} bytes: at most {MAX_PAYLOAD}",
                payload.len()
            )));
        }
        self.client
            .read()
            .await
            .execute("SELECT pg_notify($1, $2)", &[&channel, &payload])
            .await
            .map_err(backend)?;
        Ok(())
    }

    /// The listening connection's backend process (tests end it to play a lost connection).
    pub async fn backend_pid(&self) -> Result<i32, StoreError> {
        backend_pid(&self.client).await
    }
}

/// The backend process of a connection of the cluster's own (the bus's, the locks').
pub(super) async fn backend_pid(client: &RwLock<Client>) -> Result<i32, StoreError> {
    Ok(client
        .read()
        .await
        .query_one("SELECT pg_backend_pid()", &[])
        .await
        .map_err(backend)?
        .get(0))
}

/// Opens a PostgreSQL connection of its own, outside any pool: session state such as `LISTEN`
/// and advisory locks lives on it. Notifications go to `on_notification`; the receiver resolves
/// when the connection drops (the session's locks and subscriptions are gone then).
pub(crate) async fn dedicated_connection(
    url: &str,
    purpose: &'static str,
    mut on_notification: impl FnMut(tokio_postgres::Notification) + Send + 'static,
) -> Result<(Client, oneshot::Receiver<()>), StoreError> {
    let (client, mut connection) = tokio_postgres::connect(url, NoTls)
        .await
        .map_err(|e| StoreError::Backend(format!("cannot connect to PostgreSQL: {e}")))?;
    let (closed_tx, closed) = oneshot::channel();
    tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => on_notification(n),
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    warn!("the PostgreSQL {purpose} connection failed: {e}");
                    break;
                }
                None => break,
            }
        }
        let _ = closed_tx.send(());
    });
    Ok((client, closed))
}
