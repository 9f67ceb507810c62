//! The two HTTP requests of online play (create a game, take a seat by invite), on both
//! platforms through `ehttp` (ureq on a thread on the desktop, `fetch` in the browser). The
//! answer arrives on a channel that the session polls each frame, like the websocket's.
use std::sync::mpsc;

use boardcraft_protocol::{
    http::{ApiError, CreateGame, GameCreated, SeatJoined},
    paths,
};

/// What an HTTP request came back with.
#[derive(Debug)]
pub enum HttpAnswer {
    Created(Result<GameCreated, String>),
    Joined {
        invite: String,
        result: Result<SeatJoined, JoinRefusal>,
    },
}

/// Why taking a seat failed: the server's error code (the seat may be taken: then the game can
/// still be watched) or a transport problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoinRefusal {
    pub code: Option<boardcraft_protocol::ErrorCode>,
    pub message: String,
    /// The game, when the server names it (a taken seat: it can be watched).
    pub game: Option<String>,
}

/// Sends the requests and hands their answers back.
pub struct Http {
    sender: mpsc::Sender<HttpAnswer>,
    receiver: mpsc::Receiver<HttpAnswer>,
}

impl Default for Http {
    fn default() -> Self {
        let (sender, receiver) = mpsc::channel();
        Http { sender, receiver }
    }
}

/// The server's refusal in words, from an error body if it has one.
fn refusal(response: &ehttp::Response) -> JoinRefusal {
    match serde_json::from_slice::<ApiError>(&response.bytes) {
        Ok(e) => JoinRefusal {
            code: Some(e.code),
            message: e.message,
            game: e.game,
        },
        Err(_) => JoinRefusal {
            code: None,
            message: format!("HTTP {} {}", response.status, response.status_text),
            game: None,
        },
    }
}

fn parse<T: serde::de::DeserializeOwned>(
    result: ehttp::Result<ehttp::Response>,
) -> Result<T, JoinRefusal> {
    let response = result.map_err(|e| JoinRefusal {
        code: None,
        message: format!("cannot reach the server: {e}"),
        game: None,
    })?;
    if !response.ok {
        return Err(refusal(&response));
    }
    serde_json::from_slice(&response.bytes).map_err(|e| JoinRefusal {
        code: None,
        message: format!("the server's answer is not understood: {e}"),
        game: None,
    })
}

/// A POST of a JSON body. ehttp's `post` declares `text/plain` and its `insert` adds a header
/// rather than replacing one, so the declared type is replaced here: the server refuses a POST
/// that is not declared `application/json` alone (415), an empty body's too.
pub(crate) fn post_json(url: String, body: Vec<u8>) -> ehttp::Request {
    let mut request = ehttp::Request::post(url, body);
    request
        .headers
        .headers
        .retain(|(name, _)| !name.eq_ignore_ascii_case("content-type"));
    request.headers.insert("Content-Type", "application/json");
    request
}

impl Http {
    /// `POST /api/games`.
    pub fn create(&self, server: &str, body: &CreateGame) {
        let sender = self.sender.clone();
        let body = serde_json::to_vec(body).expect("a create request serialises");
        ehttp::fetch(
            post_json(format!("{server}{}", paths::GAMES), body),
            move |result| {
                let answer = parse::<GameCreated>(result).map_err(|r| r.message);
                sender.send(HttpAnswer::Created(answer)).ok();
            },
        );
    }

    /// `POST /api/invites/{invite}`.
    pub fn join(&self, server: &str, invite: &str) {
        let sender = self.sender.clone();
        let invite = invite.to_owned();
        let url = format!("{server}{}", paths::invite(&invite));
        ehttp::fetch(post_json(url, Vec::new()), move |result| {
            let result = parse::<SeatJoined>(result);
            sender.send(HttpAnswer::Joined { invite, result }).ok();
        });
    }

    pub fn try_recv(&self) -> Option<HttpAnswer> {
        self.receiver.try_recv().ok()
    }
}
