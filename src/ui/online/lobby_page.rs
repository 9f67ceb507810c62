//! The browser page's test hook for the lobby, `window.boardcraftLobby` (what
//! web/test/lobby-test.mjs drives, as the online test drives `window.boardcraft`):
//!
//! - `state()`: JSON of what the Lobby screen shows — the account, the pools and the one waited
//!   in, seeks, challenges, the counts, pairings, the archive page, and the online game's
//!   seat, seat count, seat to move, seats that left, players, result (every seat's place)
//!   and rating changes, and this player's own change;
//! - `act(what, a, b)`: what a tap on the Lobby screen does — `enter`, `join_pool` (a = the pool's
//!   id, `ugolki-hg-3x3 1+0`, a table's `chinese-checkers ×3 5+0`), `leave_pool`, `accept_seek`
//!   and `leave_seek` (a = id), `challenge` (a = name, b = `variant minutes+seconds`, rated),
//!   `accept_challenge` (a = id), `archive` (a = page),
//!   `open_game` (a = id), `profile`, `tab` (a = `play`, `profile`, `games`, `leaders`: the
//!   Lobby screen's tab), `resign` (the local player resigns the online game, as
//!   the game panel's Resign → Yes does); answers `"ok"` (the command runs next frame).
use std::cell::RefCell;

use bevy::prelude::*;
use boardcraft_protocol::{ColorChoice, GameTerms};
use serde_json::json;
use wasm_bindgen::{JsValue, closure::Closure};

use super::lobby::LobbyScreen;
use crate::{
    online::{
        Online,
        lobby::{Lobby, LobbyCommand},
        session::parse_clock,
    },
    ui::screens::MenuPage,
};

#[derive(Default)]
struct Hook {
    state: String,
    queued: Vec<(String, String, String)>,
}

thread_local! {
    static HOOK: RefCell<Hook> = RefCell::new(Hook::default());
}

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, install_hook)
        .add_systems(
            Update,
            run_queued.before(crate::online::lobby::handle_lobby_commands),
        )
        .add_systems(Last, publish);
}

fn install_hook() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let hook = js_sys::Object::new();
    let state = Closure::<dyn Fn() -> String>::new(|| HOOK.with(|h| h.borrow().state.clone()));
    let act = Closure::<dyn Fn(String, Option<String>, Option<String>) -> String>::new(
        |what: String, a: Option<String>, b: Option<String>| {
            HOOK.with(|h| {
                h.borrow_mut()
                    .queued
                    .push((what, a.unwrap_or_default(), b.unwrap_or_default()))
            });
            "ok".to_owned()
        },
    );
    let _ = js_sys::Reflect::set(&hook, &"state".into(), state.as_ref());
    let _ = js_sys::Reflect::set(&hook, &"act".into(), act.as_ref());
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str("boardcraftLobby"), &hook);
    state.forget();
    act.forget();
}

fn run_queued(
    lobby: Res<Lobby>,
    online: Res<Online>,
    mut resign: MessageWriter<crate::game::match_state::ResignRequested>,
    mut screen: ResMut<LobbyScreen>,
    mut page: ResMut<NextState<MenuPage>>,
    mut commands: MessageWriter<LobbyCommand>,
) {
    for (what, a, b) in HOOK.with(|h| std::mem::take(&mut h.borrow_mut().queued)) {
        let command = match what.as_str() {
            "enter" => {
                page.set(MenuPage::Lobby);
                Some(LobbyCommand::Enter)
            }
            "join_pool" => lobby
                .pools
                .iter()
                .find(|p| super::lobby::pool_name(&p.pool) == a)
                .map(|p| LobbyCommand::JoinPool(p.pool.clone())),
            "leave_pool" => Some(LobbyCommand::LeavePool),
            "accept_seek" => Some(LobbyCommand::AcceptSeek(a.clone())),
            "leave_seek" => Some(LobbyCommand::LeaveSeek(a.clone())),
            "accept_challenge" => Some(LobbyCommand::AcceptChallenge(a.clone())),
            "challenge" => {
                let (variant, clock) = b.split_once(' ').unwrap_or((b.as_str(), ""));
                let time_control = parse_clock(clock).ok().flatten();
                Some(LobbyCommand::Challenge {
                    to: a.clone(),
                    terms: GameTerms {
                        variant: variant.to_owned(),
                        time_control,
                        rated: time_control.is_some(),
                        color: ColorChoice::Random,
                        seats: 2,
                    },
                })
            }
            "archive" => lobby.account.as_ref().map(|acc| LobbyCommand::Archive {
                name: acc.name.clone(),
                page: a.parse().unwrap_or(1),
            }),
            "profile" => lobby
                .account
                .as_ref()
                .map(|acc| LobbyCommand::Profile(acc.name.clone())),
            "open_game" => Some(LobbyCommand::OpenGame(a.clone())),
            "tab" => {
                use super::lobby::Tab;
                let tab = match a.as_str() {
                    "profile" => Tab::Profile,
                    "games" => Tab::Games,
                    "leaders" => Tab::Leaders,
                    _ => Tab::Play,
                };
                screen.show(tab);
                page.set(MenuPage::Lobby);
                None
            }
            "resign" => {
                if let Some(seat) = online.seat {
                    let side = boardcraft_rules::Seat::at(seat as usize);
                    resign.write(crate::game::match_state::ResignRequested { side });
                }
                None
            }
            _ => None,
        };
        match command {
            Some(c) => {
                commands.write(c);
            }
            None if what == "resign" || what == "tab" => {}
            None => warn!("boardcraftLobby.act({what}, {a}, {b}): nothing to do"),
        }
    }
}

fn publish(
    lobby: Res<Lobby>,
    online: Res<Online>,
    screen: Res<LobbyScreen>,
    page: Res<State<MenuPage>>,
    game: Option<Res<crate::game::match_state::Match>>,
) {
    let moved = game.as_ref().is_some_and(|g| g.is_changed());
    if !lobby.is_changed()
        && !online.is_changed()
        && !screen.is_changed()
        && !page.is_changed()
        && !moved
    {
        return;
    }
    // The seat to move on the board showing the online game (none once it is over).
    let to_move = game
        .as_deref()
        .filter(|g| online.shows(g) && g.end().is_none())
        .map(|g| {
            use boardcraft_rules::Position;
            g.position.side_to_move().index()
        });
    let delta = online.my_rating_change().map(|c| c.delta());
    let state = json!({
        "screen": *page.get() == MenuPage::Lobby,
        "tab": format!("{:?}", screen.tab),
        "profile": lobby.profile.as_ref().map(|p| json!({"name": p.player.name, "total": p.total, "recent": p.recent.len()})),
        "signIn": format!("{:?}", lobby.sign_in),
        "account": lobby.account,
        "welcomed": lobby.welcomed,
        "pools": lobby.pools.iter().map(|p| json!({"id": super::lobby::pool_name(&p.pool), "waiting": p.waiting})).collect::<Vec<_>>(),
        "waitingIn": lobby.waiting_in.as_ref().map(super::lobby::pool_name),
        "seeks": lobby.seeks,
        "challenges": lobby.challenges,
        "counts": lobby.counts,
        "paired": lobby.paired,
        "lastPaired": lobby.last_paired,
        "leaders": lobby.leaderboard.as_ref().map(|l| json!({"variant": l.variant, "players": l.players.len()})),
        "archive": lobby.archive.as_ref().map(|a| a.games.iter().map(|g| g.game.clone()).collect::<Vec<_>>()),
        "notice": lobby.notice.as_ref().map(|n| n.message.clone()),
        "game": {
            "id": online.game,
            "seat": online.seat,
            "seats": online.seat_count(),
            "toMove": to_move,
            "left": online.left.iter().map(|l| l.seat).collect::<Vec<_>>(),
            "players": online.players,
            "result": online.result,
            "ratings": online.ratings,
            "delta": delta,
        },
    });
    HOOK.with(|h| h.borrow_mut().state = state.to_string());
}
