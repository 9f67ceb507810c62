//! The browser page's side of online play: the session's state as `data-online-*` attributes
//! of `<body>` (what the online browser test reads), the page address that becomes the invite
//! link, and a small test hook on `window.boardcraft`:
//!
//! - `legalMoves()`: the moves (in notation) the local player may play now; empty when it is
//!   not their turn;
//! - `state()`: the phase, the side to move and who plays it (why `legalMoves` is empty);
//! - `play(notation)`: plays one of them exactly as clicking it would (a move request through
//!   the rules, then sent to the server); answers `"ok"` or why not.
use std::cell::RefCell;

use bevy::prelude::*;
use boardcraft_protocol::Presence;
use boardcraft_rules::Position;
use wasm_bindgen::{JsValue, closure::Closure};

use super::Online;
use crate::game::{
    config::Players,
    match_state::{Match, MoveRequested, TurnPhase},
};

#[derive(Default)]
struct Hook {
    /// The local player's legal moves now (empty when they may not move).
    legal: Vec<String>,
    /// Moves `play` accepted, for the next frame.
    queued: Vec<String>,
    /// Why `legal` is what it is (phase, side to move and its player), for a test's report.
    state: String,
}

thread_local! {
    static HOOK: RefCell<Hook> = RefCell::new(Hook::default());
}

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, install_hook)
        .add_systems(
            Update,
            (offer_moves, play_queued).in_set(crate::GameSystems::Input),
        )
        .add_systems(Last, publish);
}

/// The page's address becomes `?join=<code>`: the invite link, and what a reload rejoins.
pub fn set_address(code: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Ok(history) = window.history() {
        let url = format!("?join={code}");
        if let Err(e) = history.replace_state_with_url(&JsValue::NULL, "", Some(&url)) {
            warn!("cannot set the page address: {e:?}");
        }
    }
}

fn install_hook() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let hook = js_sys::Object::new();
    let legal = Closure::<dyn Fn() -> js_sys::Array>::new(|| {
        HOOK.with(|h| {
            h.borrow()
                .legal
                .iter()
                .map(|m| JsValue::from_str(m))
                .collect()
        })
    });
    let play = Closure::<dyn Fn(String) -> String>::new(|notation: String| {
        HOOK.with(|h| {
            let mut h = h.borrow_mut();
            if !h.legal.contains(&notation) {
                return format!("{notation} is not a move the player may play now");
            }
            h.legal.clear();
            h.queued.push(notation);
            "ok".to_owned()
        })
    });
    let state = Closure::<dyn Fn() -> String>::new(|| HOOK.with(|h| h.borrow().state.clone()));
    let _ = js_sys::Reflect::set(&hook, &"state".into(), state.as_ref());
    state.forget();
    let _ = js_sys::Reflect::set(&hook, &"legalMoves".into(), legal.as_ref());
    let _ = js_sys::Reflect::set(&hook, &"play".into(), play.as_ref());
    let _ = js_sys::Reflect::set(&window, &"boardcraft".into(), &hook);
    // The page keeps them for its lifetime.
    legal.forget();
    play.forget();
}

/// The legal moves when the local player (a human side) is to move in a settled position.
fn offer_moves(
    game: Option<Res<Match>>,
    players: Res<Players>,
    phase: Option<Res<State<TurnPhase>>>,
) {
    let mut legal = Vec::new();
    let state = match &game {
        Some(g) => format!(
            "phase {:?}, {} to move, played by {:?}, ply {}",
            phase.as_ref().map(|p| *p.get()),
            g.position.side_to_move(),
            players.of(g.position.side_to_move()),
            g.position.ply()
        ),
        None => "no game".to_owned(),
    };
    if let Some(game) = game
        && phase.is_some_and(|p| *p.get() == TurnPhase::Ready)
        && players.of(game.position.side_to_move()).is_human()
    {
        let mut moves = Vec::new();
        game.position.legal_moves(&mut moves);
        legal = moves.iter().map(|m| game.position.format_move(m)).collect();
    }
    HOOK.with(|h| {
        let mut h = h.borrow_mut();
        if h.queued.is_empty() {
            h.legal = legal;
        }
        h.state = state;
    });
}

fn play_queued(game: Option<Res<Match>>, mut requests: MessageWriter<MoveRequested>) {
    let queued = HOOK.with(|h| std::mem::take(&mut h.borrow_mut().queued));
    let Some(game) = game else {
        return;
    };
    for notation in queued {
        match game.position.parse_move(&notation) {
            Ok(mv) => {
                requests.write(MoveRequested {
                    mv,
                    game_id: game.game_id,
                    ply: game.position.ply(),
                });
            }
            Err(e) => warn!("test hook: {notation}: {e}"),
        }
    }
}

/// `data-online-*` attributes: state, seat, code, invite, game, pending, opponent, spectators,
/// result.
fn publish(online: Res<Online>, mut published: Local<Vec<(&'static str, String)>>) {
    // The other seats together: gone if one is, absent if one has not come, else present.
    let others: Vec<Presence> = online
        .others()
        .into_iter()
        .filter_map(|s| online.presence(s))
        .collect();
    let opponent = if others.is_empty() {
        ""
    } else if others.iter().any(|p| matches!(p, Presence::Gone { .. })) {
        "gone"
    } else if others.contains(&Presence::Absent) {
        "absent"
    } else {
        "present"
    };
    let fields: Vec<(&'static str, String)> = vec![
        (
            "online-state",
            match online.stage {
                super::Stage::Off => "off".to_owned(),
                super::Stage::Creating => "creating".to_owned(),
                super::Stage::Joining => "joining".to_owned(),
                super::Stage::InGame => online.link.map_or("connecting", |l| l.name()).to_owned(),
            },
        ),
        (
            "online-seat",
            match (online.stage, online.seat) {
                // "white", "black", "seat-3" …: the seat's own name.
                (super::Stage::InGame, Some(s)) => boardcraft_rules::Seat::at(s as usize)
                    .name()
                    .to_lowercase()
                    .replace(' ', "-"),
                (super::Stage::InGame, None) => "spectator".to_owned(),
                _ => String::new(),
            },
        ),
        ("online-code", online.invite.clone().unwrap_or_default()),
        (
            "online-invite",
            online.invite_url.clone().unwrap_or_default(),
        ),
        ("online-game", online.game.clone().unwrap_or_default()),
        (
            "online-pending",
            online
                .pending
                .as_ref()
                .map(|p| p.notation.clone())
                .unwrap_or_default(),
        ),
        ("online-opponent", opponent.to_owned()),
        ("online-spectators", online.spectators.to_string()),
        (
            "online-result",
            online
                .result
                .as_ref()
                .map(|r| r.text.clone())
                .unwrap_or_default(),
        ),
    ];
    if *published == fields {
        return;
    }
    let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    else {
        return;
    };
    for (name, value) in &fields {
        if published.iter().any(|(n, v)| n == name && v == value) {
            continue;
        }
        if let Err(e) = body.set_attribute(&format!("data-{name}"), value) {
            warn!("cannot set data-{name} on the page: {e:?}");
        }
    }
    *published = fields;
}
