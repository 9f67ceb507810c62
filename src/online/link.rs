//! The websocket to the server, on both platforms (ewebsock: a thread with tungstenite on the
//! desktop, the browser's `WebSocket` on the web), and what keeps it up: reconnection with
//! back-off and the silence timeout. It knows text frames only; [`super::session`] speaks the
//! protocol over it.
//!
//! The sender and receiver live in non-send storage (the browser's socket is a JS object) and
//! are polled once a frame by the session's system.
use ewebsock::{Options, WsEvent, WsMessage, WsReceiver, WsSender};

/// The state of the connection, as the player sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkState {
    /// Opening the connection for the first time.
    Connecting,
    /// Connected: messages flow.
    Online,
    /// The connection was lost; `attempt` reconnections have failed so far and the next one
    /// starts after a back-off.
    Reconnecting { attempt: u32 },
    /// No more attempts: the server turned the seat down for good, or the session was left.
    Gone,
}

impl LinkState {
    /// The name the page and the logs use.
    pub fn name(self) -> &'static str {
        match self {
            LinkState::Connecting => "connecting",
            LinkState::Online => "online",
            LinkState::Reconnecting { .. } => "reconnecting",
            LinkState::Gone => "gone",
        }
    }
}

/// What happened on the connection since the last poll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkEvent {
    /// The socket opened (first time or again): the session says hello.
    Opened,
    /// A text frame from the server.
    Text(String),
    /// The socket closed or failed; a reconnection is scheduled.
    Lost(String),
}

/// Back-off before reconnection attempt `n` (0-based): 0.5 s doubling, at most 8 s, so a
/// server restart is noticed within seconds and a dead server is not hammered.
pub fn back_off(attempt: u32) -> f64 {
    (0.5 * f64::from(1u32 << attempt.min(5))).min(8.0)
}

struct Socket {
    sender: WsSender,
    receiver: WsReceiver,
    opened: bool,
}

/// One connection to a websocket URL, reopened when it drops.
pub struct Link {
    url: String,
    socket: Option<Socket>,
    state: LinkState,
    /// Failed attempts since the last successful open.
    failures: u32,
    /// When (seconds, the app's real clock) the next attempt starts, while reconnecting.
    retry_at: f64,
    /// When anything was last received (a message or the open itself).
    pub last_heard: f64,
}

impl Link {
    /// Starts connecting to `url` now.
    pub fn open(url: impl Into<String>, now: f64) -> Link {
        let mut link = Link {
            url: url.into(),
            socket: None,
            state: LinkState::Connecting,
            failures: 0,
            retry_at: now,
            last_heard: now,
        };
        link.connect(now);
        link
    }

    pub fn state(&self) -> LinkState {
        self.state
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    fn connect(&mut self, now: f64) {
        self.last_heard = now;
        match ewebsock::connect(&self.url, Options::default()) {
            Ok((sender, receiver)) => {
                self.socket = Some(Socket {
                    sender,
                    receiver,
                    opened: false,
                });
            }
            Err(e) => {
                // Only a thread that cannot be spawned or a URL the browser rejects: retried like
                // any other failure.
                bevy::log::warn!("online: cannot open {}: {e}", self.url);
                self.socket = None;
                self.schedule_retry(now);
            }
        }
    }

    fn schedule_retry(&mut self, now: f64) {
        self.retry_at = now + back_off(self.failures);
        self.failures += 1;
        self.state = LinkState::Reconnecting {
            attempt: self.failures,
        };
    }

    /// Sends a text frame; false when the socket is not open (the session resends what
    /// matters after the next hello).
    pub fn send(&mut self, text: String) -> bool {
        match &mut self.socket {
            Some(socket) if socket.opened => {
                socket.sender.send(WsMessage::Text(text));
                true
            }
            _ => false,
        }
    }

    /// Drops the socket (a silent server, a desync the session cannot repair otherwise) and
    /// reconnects after the back-off.
    pub fn drop_connection(&mut self, now: f64) {
        if self.state == LinkState::Gone {
            return;
        }
        if let Some(mut socket) = self.socket.take() {
            socket.sender.close();
        }
        self.schedule_retry(now);
    }

    /// Closes for good.
    pub fn close(&mut self) {
        if let Some(mut socket) = self.socket.take() {
            socket.sender.close();
        }
        self.state = LinkState::Gone;
    }

    /// Everything that arrived since the last call, and the reconnection when its time has
    /// come.
    pub fn poll(&mut self, now: f64) -> Vec<LinkEvent> {
        let mut events = Vec::new();
        if self.state == LinkState::Gone {
            return events;
        }
        if self.socket.is_none() {
            if now >= self.retry_at {
                self.connect(now);
            }
            return events;
        }
        let mut lost = None;
        while let Some(socket) = &mut self.socket {
            let Some(event) = socket.receiver.try_recv() else {
                break;
            };
            match event {
                WsEvent::Opened => {
                    socket.opened = true;
                    self.failures = 0;
                    self.state = LinkState::Online;
                    self.last_heard = now;
                    events.push(LinkEvent::Opened);
                }
                WsEvent::Message(WsMessage::Text(text)) => {
                    self.last_heard = now;
                    events.push(LinkEvent::Text(text));
                }
                WsEvent::Message(_) => self.last_heard = now,
                WsEvent::Error(e) => {
                    lost = Some(e);
                    break;
                }
                WsEvent::Closed => {
                    lost = Some("the server closed the connection".to_owned());
                    break;
                }
            }
        }
        if let Some(why) = lost {
            self.socket = None;
            self.schedule_retry(now);
            events.push(LinkEvent::Lost(why));
        }
        events
    }
}
