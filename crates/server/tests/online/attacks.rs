//! Accounts under attack, as an attacker who read only docs/protocol.md and docs/online.md
//! would try them: parallel guesses against the sign-in limits (on one node and spread over
//! two), a burst of sign-ins against the server's memory, guests made in parallel, sockets
//! left open after signing out, names that cannot be seen or that pass for others, and a
//! login forged from another site. Every case runs against a real server (a thread of its
//! own with a multi-threaded runtime, or the real program) with real HTTP and websocket
//! clients, on SQLite and on PostgreSQL.
use std::{collections::BTreeMap, net::SocketAddr, time::Duration};

use boardcraft_protocol::{
    ClientMessage, LOBBY_PATH, LobbyClientMessage, PROTOCOL_VERSION, WS_PATH,
    http::{GameCreated, SignedIn},
};
use boardcraft_server::Settings;
use futures_util::{SinkExt, StreamExt, future::join_all};
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest, protocol::CloseFrame};

use crate::{
    accounts::{Answer, Db, now_secs, request, telegram_init_data, unique_name},
    support::{Binary, Killable, WsStream, error_code_text, postgres_url, settings, wait},
};

/// A SQLite file in a fresh folder that lasts as long as the test process (for the servers
/// of a single check).
fn sqlite_in_temp() -> String {
    let dir = tempfile::tempdir().unwrap().keep();
    dir.join("server.sqlite3").display().to_string()
}

/// A case run on SQLite and on PostgreSQL (which skips without BOARDCRAFT_TEST_POSTGRES).
macro_rules! on_both_databases {
    ($sqlite:ident, $postgres:ident, $case:ident) => {
        #[tokio::test]
        async fn $sqlite() {
            $case(&Db::sqlite()).await;
        }

        #[tokio::test]
        async fn $postgres() {
            let Some(url) = postgres_url() else { return };
            $case(&Db::Postgres(url)).await;
        }
    };
}

/// The documented defaults, X-Forwarded-For believed from loopback (so that one test client
/// can be many addresses), and room enough in the hashing queue that no request here is
/// refused as busy unless the test means it.
fn attacked() -> Settings {
    Settings {
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        max_sign_in_failures_per_ip: 30,
        max_sign_in_failures_per_account: 10,
        max_new_guests_per_ip_per_hour: 0,
        password_hash_queue: 256,
        ..settings()
    }
}

const PASSWORD: &str = "kettle vivid moss";

fn credentials(name: &str, password: &str) -> String {
    serde_json::json!({"name": name, "password": password}).to_string()
}

/// A guest, from an address of its own (when the server believes X-Forwarded-For), so that
/// the guests a test makes do not reach the guest limit.
async fn guest(addr: SocketAddr) -> SignedIn {
    let id = boardcraft_server::secrets::game_id();
    let from = format!(
        "10.{}.{}.{}",
        100 + id.as_bytes()[0] % 100,
        id.as_bytes()[1],
        id.as_bytes()[2]
    );
    let answer = request(
        addr,
        "POST",
        "/api/accounts/guest",
        None,
        &[("X-Forwarded-For", &from)],
    )
    .await;
    assert_eq!(
        answer.status,
        201,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    serde_json::from_slice(&answer.body).unwrap()
}

/// A claimed account: its name and a session.
async fn account(addr: SocketAddr) -> (String, SignedIn) {
    let g = guest(addr).await;
    let name = unique_name("Target");
    // A server with one hashing thread and no queue answers 503 until that thread waits for
    // work (a loaded machine may start it late): the setup asks again, as a client told
    // Retry-After would; what the tests check comes after it.
    let mut tries = 0;
    let answer = loop {
        let answer = request(
            addr,
            "POST",
            "/api/accounts/claim",
            Some(&credentials(&name, PASSWORD)),
            &[("Authorization", &format!("Bearer {}", g.token))],
        )
        .await;
        tries += 1;
        if answer.status != 503 || tries == 100 {
            break answer;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(
        answer.status,
        200,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    (name, g)
}

/// How many answers had each status.
fn tally(answers: &[Answer]) -> BTreeMap<u16, usize> {
    let mut t = BTreeMap::new();
    for a in answers {
        *t.entry(a.status).or_default() += 1;
    }
    t
}

// ----- 1. the sign-in limits hold against parallel guesses

async fn parallel_guesses_at_one_account(db: &Db) {
    let server = Killable::start(&db.url(), attacked());
    let (name, _) = account(server.addr).await;
    // 50 wrong passwords at once, each from an address of its own.
    let guesses = (0..50).map(|i| {
        let body = credentials(&name, &format!("wrong guess number {i}"));
        let from = format!("10.1.{}.{}", i / 200, i % 200 + 1);
        async move {
            request(
                server.addr,
                "POST",
                "/api/session",
                Some(&body),
                &[("X-Forwarded-For", &from)],
            )
            .await
        }
    });
    let answers = join_all(guesses).await;
    let t = tally(&answers);
    assert_eq!(
        t.get(&401).copied().unwrap_or(0),
        10,
        "exactly the account's limit of guesses is checked: {t:?}"
    );
    assert_eq!(t.get(&429).copied().unwrap_or(0), 40, "{t:?}");
    assert!(
        answers
            .iter()
            .filter(|a| a.status == 429)
            .all(|a| a.code() == "rate_limited" && a.header("retry-after").is_some())
    );
    // The right password is refused too, until the window ends.
    let right = request(
        server.addr,
        "POST",
        "/api/session",
        Some(&credentials(&name, PASSWORD)),
        &[("X-Forwarded-For", "10.9.9.9")],
    )
    .await;
    assert_eq!((right.status, right.code().as_str()), (429, "rate_limited"));
}

on_both_databases!(
    sqlite_parallel_guesses_at_one_account_are_checked_at_most_ten_times,
    postgres_parallel_guesses_at_one_account_are_checked_at_most_ten_times,
    parallel_guesses_at_one_account
);

async fn parallel_guesses_from_one_address(db: &Db) {
    let server = Killable::start(&db.url(), attacked());
    let (name, _) = account(server.addr).await;
    // 100 wrong sign-ins at once from one address, each at another name (so that no
    // account's own limit is reached).
    let guesses = (0..100).map(|i| {
        let body = credentials(&unique_name(&format!("Ghost{i}x")), "wrong guess");
        async move {
            request(
                server.addr,
                "POST",
                "/api/session",
                Some(&body),
                &[("X-Forwarded-For", "10.2.0.1")],
            )
            .await
        }
    });
    let t = tally(&join_all(guesses).await);
    assert_eq!(t.get(&401).copied().unwrap_or(0), 30, "{t:?}");
    assert_eq!(t.get(&429).copied().unwrap_or(0), 70, "{t:?}");
    // The address is refused; another is not.
    let body = credentials(&name, PASSWORD);
    let from_it = request(
        server.addr,
        "POST",
        "/api/session",
        Some(&body),
        &[("X-Forwarded-For", "10.2.0.1")],
    )
    .await;
    assert_eq!(from_it.status, 429);
    let elsewhere = request(
        server.addr,
        "POST",
        "/api/session",
        Some(&body),
        &[("X-Forwarded-For", "10.2.0.2")],
    )
    .await;
    assert_eq!(
        elsewhere.status,
        200,
        "{}",
        String::from_utf8_lossy(&elsewhere.body)
    );
}

on_both_databases!(
    sqlite_parallel_guesses_from_one_address_are_checked_at_most_thirty_times,
    postgres_parallel_guesses_from_one_address_are_checked_at_most_thirty_times,
    parallel_guesses_from_one_address
);

/// Two nodes on one PostgreSQL: guesses spread over both count in one window.
#[tokio::test]
async fn postgres_the_account_limit_holds_across_two_nodes() {
    let Some(url) = postgres_url() else { return };
    let a = Killable::start(&url, attacked());
    let b = Killable::start(&url, attacked());
    let (name, _) = account(a.addr).await;
    let guesses = (0..50).map(|i| {
        let body = credentials(&name, &format!("wrong guess number {i}"));
        let node = if i % 2 == 0 { a.addr } else { b.addr };
        let from = format!("10.3.0.{}", i + 1);
        async move {
            request(
                node,
                "POST",
                "/api/session",
                Some(&body),
                &[("X-Forwarded-For", &from)],
            )
            .await
        }
    });
    let t = tally(&join_all(guesses).await);
    assert_eq!(
        t.get(&401).copied().unwrap_or(0),
        10,
        "one window for both nodes: {t:?}"
    );
    assert_eq!(t.get(&429).copied().unwrap_or(0), 40, "{t:?}");
    for node in [a.addr, b.addr] {
        let right = request(
            node,
            "POST",
            "/api/session",
            Some(&credentials(&name, PASSWORD)),
            &[],
        )
        .await;
        assert_eq!(right.status, 429);
    }
}

/// A right password gives its place back: a player who signs in on many devices is not
/// locked out by their own successes.
#[tokio::test]
async fn sqlite_successful_sign_ins_do_not_count() {
    let db = Db::sqlite();
    let server = Killable::start(&db.url(), attacked());
    let (name, _) = account(server.addr).await;
    for _ in 0..25 {
        let ok = request(
            server.addr,
            "POST",
            "/api/session",
            Some(&credentials(&name, PASSWORD)),
            &[],
        )
        .await;
        assert_eq!(ok.status, 200);
    }
}

// ----- 2. password hashing is bounded

/// A resident size, in KiB, from /proc (`VmRSS`, or the peak `VmHWM`).
fn proc_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_sign_ins_is_bounded_in_memory_and_the_rest_are_told_to_wait() {
    // The real program, alone in its process, so that its memory is its own. The sign-in
    // limits are off: the hashing bound is what is tested.
    let server = Binary::start(
        4096,
        &[
            "--password-hash-threads",
            "2",
            "--password-hash-queue",
            "8",
            "--max-sign-in-failures-per-ip",
            "0",
            "--max-sign-in-failures-per-account",
            "0",
            "--max-connections-per-ip",
            "0",
        ],
    );
    let pid = server.child.id();
    let (name, _) = account(server.addr).await;
    let body = credentials(&name, PASSWORD);
    let resting_before = proc_kib(pid, "VmRSS:");
    let mut ok = 0;
    let mut busy = 0;
    for _ in 0..3 {
        let burst = (0..200).map(|_| {
            let body = body.clone();
            let addr = server.addr;
            tokio::spawn(
                async move { request(addr, "POST", "/api/session", Some(&body), &[]).await },
            )
        });
        for answer in join_all(burst).await {
            let answer = answer.unwrap();
            match answer.status {
                200 => ok += 1,
                503 => {
                    assert_eq!(answer.code(), "server_busy");
                    assert_eq!(answer.header("retry-after"), Some("1"));
                    busy += 1;
                }
                s => panic!("{s}: {}", String::from_utf8_lossy(&answer.body)),
            }
        }
    }
    let peak = proc_kib(pid, "VmHWM:");
    tokio::time::sleep(Duration::from_secs(1)).await;
    let resting_after = proc_kib(pid, "VmRSS:");
    eprintln!(
        "3 bursts of 200 sign-ins: {ok} signed in, {busy} told to wait (503); resident \
         {} MiB before, peak {} MiB, {} MiB after",
        resting_before / 1024,
        peak / 1024,
        resting_after / 1024
    );
    assert_eq!(ok + busy, 600);
    assert!(ok >= 3, "each burst signs some in");
    assert!(
        busy >= 300,
        "a queue of 8: most of a burst of 200 waits for nothing"
    );
    // Two hashing threads of 19 MiB each, and the connections: far from 200 × 19 MiB.
    assert!(
        peak < resting_before + 120 * 1024,
        "peak {peak} KiB from {resting_before} KiB"
    );
    assert!(
        resting_after < resting_before + 80 * 1024,
        "the memory goes back: {resting_after} KiB from {resting_before} KiB"
    );
}

// ----- 4. the guest limit holds against parallel requests

async fn parallel_guests(db: &Db) {
    let server = Killable::start(
        &db.url(),
        Settings {
            max_new_guests_per_ip_per_hour: 60,
            ..attacked()
        },
    );
    let requests = (0..150).map(|_| async {
        request(
            server.addr,
            "POST",
            "/api/accounts/guest",
            None,
            &[("X-Forwarded-For", "10.4.0.1")],
        )
        .await
    });
    let t = tally(&join_all(requests).await);
    assert_eq!(t.get(&201).copied().unwrap_or(0), 60, "{t:?}");
    assert_eq!(t.get(&429).copied().unwrap_or(0), 90, "{t:?}");
}

on_both_databases!(
    sqlite_parallel_guests_from_one_address_make_exactly_sixty,
    postgres_parallel_guests_from_one_address_make_exactly_sixty,
    parallel_guests
);

// ----- 3. ending a session closes its sockets

async fn lobby_socket(addr: SocketAddr, token: &str) -> WsStream {
    let (mut ws, _) = wait(tokio_tungstenite::connect_async(format!(
        "ws://{addr}{LOBBY_PATH}"
    )))
    .await
    .expect("the lobby websocket opens");
    let hello = LobbyClientMessage::Hello {
        protocol: PROTOCOL_VERSION,
        token: Some(token.to_owned()),
        client: Some("attack tests".into()),
    };
    ws.send(Message::Text(hello.to_json().into()))
        .await
        .unwrap();
    let welcome = next_text(&mut ws).await.expect("a welcome");
    assert!(welcome.contains("\"welcome\""), "{welcome}");
    ws
}

/// The next text frame, or `None` once the socket closed (its close frame kept).
async fn next_text(ws: &mut WsStream) -> Option<String> {
    wait(async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => return Some(t.to_string()),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                _ => return None,
            }
        }
    })
    .await
}

/// Reads until the socket closes: the texts on the way and the close frame.
async fn until_closed(ws: &mut WsStream) -> (Vec<String>, Option<CloseFrame>) {
    wait(async {
        let mut texts = Vec::new();
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => texts.push(t.to_string()),
                Some(Ok(Message::Close(frame))) => return (texts, frame),
                Some(Ok(_)) => continue,
                None | Some(Err(_)) => return (texts, None),
            }
        }
    })
    .await
}

fn seek_message() -> LobbyClientMessage {
    LobbyClientMessage::Seek {
        terms: boardcraft_protocol::GameTerms {
            variant: "ugolki-9qum".into(),
            time_control: None,
            rated: false,
            color: boardcraft_protocol::ColorChoice::White,
            seats: 2,
        },
    }
}

async fn sign_out_closes_sockets(db: &Db) {
    let server = Killable::start(&db.url(), attacked());
    let addr = server.addr;
    let me = guest(addr).await;
    let bearer = format!("Bearer {}", me.token);
    let mut lobby = lobby_socket(addr, &me.token).await;
    // A game socket opened with the session (as a browser's, which sends its cookie).
    let created = request(
        addr,
        "POST",
        "/api/games",
        Some(r#"{"variant":"ugolki-9qum"}"#),
        &[],
    )
    .await;
    let created: GameCreated = serde_json::from_slice(&created.body).unwrap();
    let mut upgrade = format!("ws://{addr}{WS_PATH}")
        .into_client_request()
        .unwrap();
    upgrade.headers_mut().insert(
        "cookie",
        format!("boardcraft_session={}", me.token).parse().unwrap(),
    );
    let (mut game, _) = wait(tokio_tungstenite::connect_async(upgrade))
        .await
        .unwrap();
    let hello = ClientMessage::Hello {
        protocol: 1,
        game: created.game.clone(),
        token: Some(created.token.clone()),
        client: None,
    };
    game.send(Message::Text(hello.to_json().into()))
        .await
        .unwrap();
    assert!(next_text(&mut game).await.unwrap().contains("welcome"));

    let out = request(
        addr,
        "DELETE",
        "/api/session",
        None,
        &[("Authorization", &bearer)],
    )
    .await;
    assert_eq!(out.status, 204);
    let (texts, frame) = until_closed(&mut lobby).await;
    assert!(
        texts.iter().any(|t| t.contains("not_signed_in")),
        "the lobby socket says why: {texts:?}"
    );
    let frame = frame.expect("a close frame");
    assert_eq!(
        (u16::from(frame.code), frame.reason.as_str()),
        (4401, "signed out")
    );
    let (_, frame) = until_closed(&mut game).await;
    assert_eq!(u16::from(frame.expect("a close frame").code), 4401);
    // The ended session opens no lobby socket, and signing out again is refused.
    let (mut again, _) = wait(tokio_tungstenite::connect_async(format!(
        "ws://{addr}{LOBBY_PATH}"
    )))
    .await
    .unwrap();
    let hello = LobbyClientMessage::Hello {
        protocol: PROTOCOL_VERSION,
        token: Some(me.token.clone()),
        client: None,
    };
    again
        .send(Message::Text(hello.to_json().into()))
        .await
        .unwrap();
    let (texts, _) = until_closed(&mut again).await;
    assert!(
        texts.iter().any(|t| t.contains("not_signed_in")),
        "{texts:?}"
    );
    let twice = request(
        addr,
        "DELETE",
        "/api/session",
        None,
        &[("Authorization", &bearer)],
    )
    .await;
    assert_eq!(
        (twice.status, twice.code().as_str()),
        (401, "not_signed_in")
    );
}

on_both_databases!(
    sqlite_sign_out_closes_the_sessions_lobby_and_game_sockets,
    postgres_sign_out_closes_the_sessions_lobby_and_game_sockets,
    sign_out_closes_sockets
);

/// Signed out on one node, the socket on another refuses the next seek and closes.
#[tokio::test]
async fn postgres_a_seek_after_signing_out_on_another_node_is_refused() {
    let Some(url) = postgres_url() else { return };
    let a = Killable::start(&url, attacked());
    let b = Killable::start(&url, attacked());
    let me = guest(a.addr).await;
    let mut lobby = lobby_socket(a.addr, &me.token).await;
    let out = request(
        b.addr,
        "DELETE",
        "/api/session",
        None,
        &[("Authorization", &format!("Bearer {}", me.token))],
    )
    .await;
    assert_eq!(out.status, 204);
    lobby
        .send(Message::Text(seek_message().to_json().into()))
        .await
        .unwrap();
    let (texts, frame) = until_closed(&mut lobby).await;
    assert!(
        !texts.iter().any(|t| t.contains("seek_added")),
        "the seek is refused: {texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.contains("not_signed_in")),
        "{texts:?}"
    );
    assert_eq!(u16::from(frame.expect("a close frame").code), 4401);
}

async fn claim_and_password_change_close_sockets(db: &Db) {
    let server = Killable::start(&db.url(), attacked());
    let addr = server.addr;
    // A claim closes the session's lobby socket; reconnected, it has the new name.
    let me = guest(addr).await;
    let mut lobby = lobby_socket(addr, &me.token).await;
    let name = unique_name("Renamed");
    let claimed = request(
        addr,
        "POST",
        "/api/accounts/claim",
        Some(&credentials(&name, PASSWORD)),
        &[("Authorization", &format!("Bearer {}", me.token))],
    )
    .await;
    assert_eq!(claimed.status, 200);
    let (_, frame) = until_closed(&mut lobby).await;
    let frame = frame.expect("a close frame");
    assert_eq!(
        (u16::from(frame.code), frame.reason.as_str()),
        (4401, "account claimed")
    );
    drop(lobby_socket(addr, &me.token).await);

    // A password change ends the other sessions and closes their sockets; this one stays.
    let other: SignedIn = {
        let a = request(
            addr,
            "POST",
            "/api/session",
            Some(&credentials(&name, PASSWORD)),
            &[],
        )
        .await;
        serde_json::from_slice(&a.body).unwrap()
    };
    let mut other_lobby = lobby_socket(addr, &other.token).await;
    let bearer = format!("Bearer {}", me.token);
    let change = |password: &str, new: &str| {
        serde_json::json!({"password": password, "new_password": new}).to_string()
    };
    let wrong = request(
        addr,
        "POST",
        "/api/accounts/password",
        Some(&change("not it at all", "a new one entirely")),
        &[("Authorization", &bearer)],
    )
    .await;
    assert_eq!(
        (wrong.status, wrong.code().as_str()),
        (401, "wrong_password")
    );
    let weak = request(
        addr,
        "POST",
        "/api/accounts/password",
        Some(&change(PASSWORD, "password")),
        &[("Authorization", &bearer)],
    )
    .await;
    assert_eq!((weak.status, weak.code().as_str()), (400, "password_weak"));
    let changed = request(
        addr,
        "POST",
        "/api/accounts/password",
        Some(&change(PASSWORD, "saffron tundra kite")),
        &[("Authorization", &bearer)],
    )
    .await;
    assert_eq!(
        changed.status,
        204,
        "{}",
        String::from_utf8_lossy(&changed.body)
    );
    let (_, frame) = until_closed(&mut other_lobby).await;
    let frame = frame.expect("a close frame");
    assert_eq!(
        (u16::from(frame.code), frame.reason.as_str()),
        (4401, "password changed")
    );
    let me_now = |token: String| async move {
        request(
            addr,
            "GET",
            "/api/me",
            None,
            &[("Authorization", &format!("Bearer {token}"))],
        )
        .await
        .status
    };
    assert_eq!(
        me_now(other.token.clone()).await,
        401,
        "the other session ended"
    );
    assert_eq!(me_now(me.token.clone()).await, 200, "this one stays");
    let old = request(
        addr,
        "POST",
        "/api/session",
        Some(&credentials(&name, PASSWORD)),
        &[],
    )
    .await;
    assert_eq!(old.status, 401);
    let new = request(
        addr,
        "POST",
        "/api/session",
        Some(&credentials(&name, "saffron tundra kite")),
        &[],
    )
    .await;
    assert_eq!(new.status, 200);
}

on_both_databases!(
    sqlite_claim_and_password_change_close_sockets,
    postgres_claim_and_password_change_close_sockets,
    claim_and_password_change_close_sockets
);

// ----- 5. names people can see, and that pass for nobody else

async fn invisible_and_look_alike_names(db: &Db) {
    let server = Killable::start(&db.url(), attacked());
    let addr = server.addr;
    let claim = |token: String, name: String| async move {
        request(
            addr,
            "POST",
            "/api/accounts/claim",
            Some(&credentials(&name, PASSWORD)),
            &[("Authorization", &format!("Bearer {token}"))],
        )
        .await
    };
    let g = guest(addr).await;
    for invisible in [
        "An\u{3164}na",
        "\u{3164}\u{3164}\u{3164}",
        "An\u{FFA0}na",
        "An\u{200D}na",
    ] {
        let a = claim(g.token.clone(), invisible.to_owned()).await;
        assert_eq!(
            (a.status, a.code().as_str()),
            (400, "name_invalid"),
            "{invisible:?}"
        );
    }
    for server_like in [
        "Вoardcraft",
        "Bοardcraft",
        "Ｂｏａｒｄｃｒａｆｔ",
        "𝐁𝐨𝐚𝐫𝐝𝐜𝐫𝐚𝐟𝐭",
        "ʙᴏᴀʀᴅᴄʀᴀꜰᴛ",
        "B0ardcraft",
        "Masterb0t",
    ] {
        let a = claim(g.token.clone(), server_like.to_owned()).await;
        assert_eq!(
            (a.status, a.code().as_str()),
            (400, "name_invalid"),
            "{server_like}"
        );
    }
    // Another player's name in look-alike letters, digits or case: taken.
    let tail = &boardcraft_server::secrets::game_id()[..6];
    let original = format!("Paul{tail}");
    assert_eq!(claim(g.token.clone(), original.clone()).await.status, 200);
    for alike in [
        format!("Pau1{tail}"),
        format!("PauI{tail}"),
        format!("PAUL{}", tail.to_uppercase()),
        format!("Pa_ul{tail}"),
        format!("Ｐａｕｌ{tail}"),
    ] {
        let h = guest(addr).await;
        let a = claim(h.token, alike.clone()).await;
        assert_eq!(
            (a.status, a.code().as_str()),
            (409, "name_taken"),
            "{alike}"
        );
    }
    // A fullwidth name is kept as its plain letters.
    let h = guest(addr).await;
    let wide: String = format!("Ｚｏｅ{tail}");
    let a = claim(h.token, wide).await;
    assert_eq!(a.status, 200);
    let info: boardcraft_protocol::http::AccountInfo = serde_json::from_slice(&a.body).unwrap();
    assert_eq!(info.name, format!("Zoe{tail}"));
}

on_both_databases!(
    sqlite_invisible_and_look_alike_names_are_refused,
    postgres_invisible_and_look_alike_names_are_refused,
    invisible_and_look_alike_names
);

// ----- 6. a login forged from another site

async fn only_json_posts(db: &Db) {
    let server = Killable::start(&db.url(), attacked());
    let addr = server.addr;
    let (name, me) = account(addr).await;
    let bearer = format!("Bearer {}", me.token);
    for (path, content_type, auth) in [
        ("/api/session", "text/plain", false),
        ("/api/session", "text/plain;charset=UTF-8", false),
        ("/api/session", "application/x-www-form-urlencoded", false),
        ("/api/session", "multipart/form-data; boundary=x", false),
        (
            "/api/session",
            "text/plain; charset=utf-8, application/json",
            false,
        ),
        ("/api/session", "text/plain; a=application/json", false),
        ("/api/accounts/guest", "text/plain", false),
        ("/api/accounts/claim", "text/plain", true),
        ("/api/accounts/password", "text/plain", true),
        ("/api/games", "text/plain", false),
    ] {
        let body = credentials(&name, PASSWORD);
        let mut headers = vec![("Content-Type", content_type)];
        if auth {
            headers.push(("Authorization", bearer.as_str()));
        }
        let a = raw_post(addr, path, &body, &headers).await;
        assert_eq!(
            (a.0, error_code_text(&a.1).as_str()),
            (415, "unsupported_media_type"),
            "{path} as {content_type}"
        );
    }
    // No content type at all is refused too, and two of them (what ehttp's `post` sends when
    // a type is added to its own); JSON with a charset is fine.
    let a = raw_post(addr, "/api/session", &credentials(&name, PASSWORD), &[]).await;
    assert_eq!(a.0, 415);
    let a = raw_post(
        addr,
        "/api/session",
        &credentials(&name, PASSWORD),
        &[
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Type", "application/json"),
        ],
    )
    .await;
    assert_eq!(a.0, 415);
    let a = raw_post(
        addr,
        "/api/session",
        &credentials(&name, PASSWORD),
        &[("Content-Type", "application/json; charset=utf-8")],
    )
    .await;
    assert_eq!(a.0, 200);
}

/// A POST with exactly the headers given (the support client always says JSON).
async fn raw_post(
    addr: SocketAddr,
    path: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> (u16, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = wait(tokio::net::TcpStream::connect(addr)).await.unwrap();
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    wait(stream.read_to_end(&mut raw)).await.unwrap();
    let text = String::from_utf8_lossy(&raw);
    let status = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let mut payload = raw[split + 4..].to_vec();
    if text
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        // One chunk is enough for an error body.
        let body = String::from_utf8_lossy(&payload).into_owned();
        payload = body.lines().nth(1).unwrap_or("").as_bytes().to_vec();
    }
    (status, payload)
}

on_both_databases!(
    sqlite_a_post_that_is_not_json_is_refused,
    postgres_a_post_that_is_not_json_is_refused,
    only_json_posts
);

// ----- 7. the documented statuses, row by row

/// Every status and code that docs/protocol.md's accounts table lists, produced by the
/// server: the table is read from the doc, so that a row added or changed there without the
/// server (or the other way round) fails here.
#[tokio::test]
async fn every_status_of_the_accounts_table_is_what_the_server_answers() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/protocol.md"
    ))
    .unwrap();
    let table: Vec<(String, Vec<(u16, String)>)> = doc
        .lines()
        .skip_while(|l| !l.starts_with("| `POST /api/accounts/guest`"))
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let request = cells[1].trim_matches('`').to_owned();
            let mut outcomes = Vec::new();
            for cell in [cells[3], cells[4]] {
                let words: Vec<&str> = cell.split_whitespace().collect();
                for w in words.windows(2) {
                    if let Ok(status) = w[0].trim_matches(',').parse::<u16>() {
                        let code = w[1].trim_matches(|c| c == '`' || c == ',').to_owned();
                        outcomes.push((status, code));
                    }
                }
            }
            (request, outcomes)
        })
        .collect();
    assert!(table.len() >= 7, "the table is found: {table:?}");

    let db = Db::sqlite();
    let telegram_token = "123456:TEST-token-for-the-row-tests";
    let server = Killable::start(
        &db.url(),
        Settings {
            telegram_bot_token: Some(boardcraft_server::accounts::TelegramBotToken::new(
                telegram_token.into(),
            )),
            max_new_guests_per_ip_per_hour: 3,
            max_sign_in_failures_per_account: 2,
            public_url: Some("http://play.example".into()),
            ..attacked()
        },
    );
    let addr = server.addr;
    let (name, me) = account(addr).await;
    let bearer = format!("Bearer {}", me.token);
    let mut seen = Vec::new();
    for (req, outcomes) in &table {
        for (status, code) in outcomes {
            let answer = row_case(addr, req, *status, code, &name, &bearer, telegram_token).await;
            let got_code = if answer.status < 300 {
                String::new()
            } else {
                answer.code()
            };
            let want_code = if *status < 300 {
                String::new()
            } else {
                code.clone()
            };
            assert_eq!(
                (answer.status, got_code),
                (*status, want_code),
                "{req}: {status} {code}: {}",
                String::from_utf8_lossy(&answer.body)
            );
            seen.push(format!("{req} {status} {code}"));
        }
    }
    eprintln!("{} rows checked: {seen:#?}", seen.len());
}

/// Brings about one documented outcome of one request.
async fn row_case(
    addr: SocketAddr,
    req: &str,
    status: u16,
    code: &str,
    name: &str,
    bearer: &str,
    telegram_token: &str,
) -> Answer {
    let (method, path) = req.split_once(' ').unwrap();
    let cross_site = [("Origin", "http://evil.example")];
    let fresh_guest = || async { format!("Bearer {}", guest(addr).await.token) };
    match (req, status, code) {
        (_, 403, "origin_not_allowed") => {
            let body = credentials(name, PASSWORD);
            let auth = [("Authorization", bearer), cross_site[0]];
            request(addr, method, path, Some(&body), &auth).await
        }
        (_, 401, "not_signed_in") => {
            let body = serde_json::json!({"name": unique_name("Nobody"), "password": PASSWORD, "new_password": "saffron tundra kite"}).to_string();
            let forged = format!("Bearer {}", boardcraft_server::secrets::seat_token());
            let body = if path == "/api/accounts/claim" {
                credentials(&unique_name("Nobody"), PASSWORD)
            } else {
                body
            };
            request(
                addr,
                method,
                path,
                Some(&body),
                &[("Authorization", &forged)],
            )
            .await
        }
        ("POST /api/accounts/guest", 201, _) => {
            request(addr, method, path, None, &[("X-Forwarded-For", "10.7.0.1")]).await
        }
        ("POST /api/accounts/guest", 429, "rate_limited") => {
            let mut last = None;
            for _ in 0..4 {
                last = Some(
                    request(addr, method, path, None, &[("X-Forwarded-For", "10.7.0.2")]).await,
                );
            }
            last.unwrap()
        }
        ("POST /api/accounts/claim", 200, _) => {
            let b = fresh_guest().await;
            request(
                addr,
                method,
                path,
                Some(&credentials(&unique_name("Row"), PASSWORD)),
                &[("Authorization", &b)],
            )
            .await
        }
        ("POST /api/accounts/claim", 400, "name_invalid") => {
            let b = fresh_guest().await;
            request(
                addr,
                method,
                path,
                Some(&credentials("An\u{3164}na", PASSWORD)),
                &[("Authorization", &b)],
            )
            .await
        }
        ("POST /api/accounts/claim", 400, "password_weak") => {
            let b = fresh_guest().await;
            request(
                addr,
                method,
                path,
                Some(&credentials(&unique_name("Row"), "12345678")),
                &[("Authorization", &b)],
            )
            .await
        }
        ("POST /api/accounts/claim", 400, "bad_request") => {
            let b = fresh_guest().await;
            request(
                addr,
                method,
                path,
                Some(r#"{"name": "Row"}"#),
                &[("Authorization", &b)],
            )
            .await
        }
        ("POST /api/accounts/claim", 409, "name_taken") => {
            let b = fresh_guest().await;
            request(
                addr,
                method,
                path,
                Some(&credentials(&name.to_uppercase(), PASSWORD)),
                &[("Authorization", &b)],
            )
            .await
        }
        ("POST /api/accounts/claim", 409, "already_claimed") => {
            request(
                addr,
                method,
                path,
                Some(&credentials(&unique_name("Row"), PASSWORD)),
                &[("Authorization", bearer)],
            )
            .await
        }
        (_, 415, "unsupported_media_type") => {
            let (status, body) = raw_post(
                addr,
                path,
                &credentials(name, PASSWORD),
                &[("Content-Type", "text/plain"), ("Authorization", bearer)],
            )
            .await;
            Answer {
                status,
                headers: Vec::new(),
                body,
            }
        }
        ("POST /api/session", 200, _) => {
            request(
                addr,
                method,
                path,
                Some(&credentials(name, PASSWORD)),
                &[("X-Forwarded-For", "10.7.1.1")],
            )
            .await
        }
        ("POST /api/session", 401, "wrong_password") => {
            request(
                addr,
                method,
                path,
                Some(&credentials(&unique_name("Nobody"), PASSWORD)),
                &[("X-Forwarded-For", "10.7.1.2")],
            )
            .await
        }
        ("POST /api/session", 429, "rate_limited") => {
            let (victim, _) = account(addr).await;
            let mut last = None;
            for _ in 0..3 {
                last = Some(
                    request(
                        addr,
                        method,
                        path,
                        Some(&credentials(&victim, "wrong guess")),
                        &[("X-Forwarded-For", "10.7.1.3")],
                    )
                    .await,
                );
            }
            last.unwrap()
        }
        (_, 503, "server_busy") => busy_answer(path).await,
        ("POST /api/session/telegram", 404, "not_found") => {
            let plain = Killable::start(&sqlite_in_temp(), attacked());
            let body = serde_json::json!({"init_data": "auth_date=1&hash=00"}).to_string();
            request(plain.addr, method, path, Some(&body), &[]).await
        }
        ("POST /api/session/telegram", s, _) => {
            let user = 400_000
                + i64::from(boardcraft_server::secrets::game_id().as_bytes()[0]) * 1000
                + i64::from(boardcraft_server::secrets::game_id().as_bytes()[1]);
            let ahead = if s == 401 { 120 } else { 0 };
            let fields = [
                ("auth_date", (now_secs() + ahead).to_string()),
                ("user", format!(r#"{{"id":{user},"first_name":"Row"}}"#)),
            ];
            let body =
                serde_json::json!({"init_data": telegram_init_data(&fields, telegram_token)})
                    .to_string();
            let first = request(addr, method, path, Some(&body), &[]).await;
            if s == 200 {
                // The first sign-in made the account (201); the next one signs it in.
                assert_eq!(first.status, 201);
                request(addr, method, path, Some(&body), &[]).await
            } else {
                first
            }
        }
        ("POST /api/accounts/password", 429, "rate_limited") => {
            let (_, s) = account(addr).await;
            let body = serde_json::json!({"password": "not the password", "new_password": "saffron tundra kite"}).to_string();
            let auth = format!("Bearer {}", s.token);
            let mut last = None;
            for _ in 0..3 {
                last = Some(
                    request(
                        addr,
                        method,
                        path,
                        Some(&body),
                        &[("Authorization", &auth), ("X-Forwarded-For", "10.7.2.1")],
                    )
                    .await,
                );
            }
            last.unwrap()
        }
        ("POST /api/accounts/password", 204, _) => {
            let (n, s) = account(addr).await;
            let _ = n;
            let body =
                serde_json::json!({"password": PASSWORD, "new_password": "saffron tundra kite"})
                    .to_string();
            request(
                addr,
                method,
                path,
                Some(&body),
                &[("Authorization", &format!("Bearer {}", s.token))],
            )
            .await
        }
        ("POST /api/accounts/password", 401, "wrong_password") => {
            let (_, s) = account(addr).await;
            let body = serde_json::json!({"password": "not the password", "new_password": "saffron tundra kite"}).to_string();
            request(
                addr,
                method,
                path,
                Some(&body),
                &[("Authorization", &format!("Bearer {}", s.token))],
            )
            .await
        }
        ("POST /api/accounts/password", 400, "password_weak") => {
            let body =
                serde_json::json!({"password": PASSWORD, "new_password": "qwerty123"}).to_string();
            request(
                addr,
                method,
                path,
                Some(&body),
                &[("Authorization", bearer)],
            )
            .await
        }
        ("POST /api/accounts/password", 400, "bad_request") => {
            let b = fresh_guest().await;
            let body =
                serde_json::json!({"password": PASSWORD, "new_password": "saffron tundra kite"})
                    .to_string();
            request(addr, method, path, Some(&body), &[("Authorization", &b)]).await
        }
        ("DELETE /api/session", 204, _) => {
            let b = fresh_guest().await;
            request(addr, method, path, None, &[("Authorization", &b)]).await
        }
        ("GET /api/me", 200, _) => {
            request(addr, method, path, None, &[("Authorization", bearer)]).await
        }
        _ => panic!(
            "the doc lists `{req}` {status} `{code}`, which this test does not know how to bring about"
        ),
    }
}

/// A 503 `server_busy` from the request at `path`: a server with one hashing thread and no
/// queue, sent a burst of requests that each hash a password.
async fn busy_answer(path: &str) -> Answer {
    let server = Killable::start(
        &sqlite_in_temp(),
        Settings {
            password_hash_workers: 1,
            password_hash_queue: 0,
            max_sign_in_failures_per_account: 0,
            max_sign_in_failures_per_ip: 0,
            ..attacked()
        },
    );
    let addr = server.addr;
    let (name, me) = account(addr).await;
    let mut sessions = Vec::new();
    for _ in 0..40 {
        sessions.push(guest(addr).await.token);
    }
    let burst = sessions.into_iter().map(|token| {
        let body = match path {
            "/api/accounts/password" => {
                serde_json::json!({"password": PASSWORD, "new_password": "saffron tundra kite"})
                    .to_string()
            }
            "/api/accounts/claim" => credentials(&unique_name("Busy"), PASSWORD),
            _ => credentials(&name, PASSWORD),
        };
        let token = if path == "/api/accounts/password" {
            me.token.clone()
        } else {
            token
        };
        let path = path.to_owned();
        async move {
            request(
                addr,
                "POST",
                &path,
                Some(&body),
                &[("Authorization", &format!("Bearer {token}"))],
            )
            .await
        }
    });
    let answers = join_all(burst).await;
    answers
        .into_iter()
        .find(|a| a.status == 503)
        .expect("a burst of 40 at one hashing thread with no queue: some are told to wait")
}

/// `Authorization` is read exactly: one space, the token; no fallback to the cookie.
#[tokio::test]
async fn sqlite_authorization_is_read_strictly() {
    let db = Db::sqlite();
    let server = Killable::start(&db.url(), attacked());
    let me = guest(server.addr).await;
    let ok = request(
        server.addr,
        "GET",
        "/api/me",
        None,
        &[("Authorization", &format!("Bearer {}", me.token))],
    )
    .await;
    assert_eq!(ok.status, 200);
    let cookie = format!("boardcraft_session={}", me.token);
    for bad in [
        format!("Bearer  {}", me.token),
        format!("Bearer {}x", me.token),
        format!("Token {}", me.token),
    ] {
        let a = request(
            server.addr,
            "GET",
            "/api/me",
            None,
            &[("Authorization", &bad), ("Cookie", &cookie)],
        )
        .await;
        assert_eq!(
            (a.status, a.code().as_str()),
            (401, "not_signed_in"),
            "{bad}"
        );
    }
}
