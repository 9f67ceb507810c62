//! `online play`: the computer plays one online game through a server, as any client would:
//! it creates a game (and prints the invite) or joins one by invite, then plays its level's
//! moves, resending unacknowledged ones and reconnecting after a dropped connection.
use std::time::Duration;

use boardcraft_ai::{AnySearch, Level};
use boardcraft_protocol::{
    ClientMessage, ColorChoice, GameStatus, OfferKind, ServerMessage, Side, TimeControl,
    http::{CreateGame, GameCreated, SeatJoined},
    paths,
};
use boardcraft_rules::Position;
use clap::Args as ClapArgs;
use tokio::time::{Instant, sleep};

use super::{
    mirror::Mirror,
    net::{self, ServerUrl},
};

#[derive(ClapArgs, Debug)]
#[command(group(clap::ArgGroup::new("game").required(true).args(["create", "join"])))]
pub struct Args {
    /// The server, e.g. http://127.0.0.1:8787.
    #[arg(long)]
    server: String,
    /// Create a game of this shipped variant and print the invite for the opponent.
    #[arg(long)]
    create: Option<String>,
    /// Join a game by its invite (the code, or the whole invite link).
    #[arg(long)]
    join: Option<String>,
    /// The computer's level: novice, amateur, strong or master.
    #[arg(long, default_value = "master")]
    level: Level,
    /// With --create: the computer's colour (white, black or random).
    #[arg(long, default_value = "random")]
    color: String,
    /// With --create: a time control as minutes+seconds, e.g. 5+3 (default untimed).
    #[arg(long)]
    time: Option<String>,
}

pub(super) fn time_control(text: &str) -> Result<TimeControl, String> {
    let (m, s) = text.split_once('+').unwrap_or((text, "0"));
    let minutes: f64 = m
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a time control like 5+3"))?;
    let secs: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a time control like 5+3"))?;
    Ok(TimeControl {
        initial_ms: (minutes * 60_000.0) as u64,
        increment_ms: secs * 1000,
    })
}

pub fn run(args: Args) -> Result<std::process::ExitCode, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(play(args))
}

async fn play(args: Args) -> Result<std::process::ExitCode, String> {
    let server = ServerUrl::parse(&args.server)?;
    let (game, token, side) = match (&args.create, &args.join) {
        (Some(variant), _) => {
            let color = match args.color.to_ascii_lowercase().as_str() {
                "white" => ColorChoice::White,
                "black" => ColorChoice::Black,
                "random" => ColorChoice::Random,
                other => return Err(format!("`{other}` is not a colour: white, black or random")),
            };
            let body = CreateGame {
                variant: Some(variant.clone()),
                variant_file: None,
                color,
                time_control: args.time.as_deref().map(time_control).transpose()?,
                seats: None,
            };
            let body = serde_json::to_string(&body).map_err(|e| e.to_string())?;
            let created: GameCreated =
                net::json(&server, "POST", paths::GAMES, Some(&body), 201).await?;
            outln!(
                "game {} created; the computer ({}) plays {}",
                created.game,
                args.level,
                created.color
            );
            outln!("invite the opponent: {}", created.invite_url);
            outln!(
                "  (or: boardcraft-cli online play --server {} --join {})",
                args.server,
                created.invite
            );
            (created.game, created.token, created.color)
        }
        (None, Some(invite)) => {
            let code = invite
                .rsplit_once("join=")
                .map_or(invite.as_str(), |(_, c)| c)
                .trim();
            let joined: SeatJoined =
                net::json(&server, "POST", &paths::invite(code), None, 200).await?;
            outln!(
                "joined game {}; the computer ({}) plays {}",
                joined.game,
                args.level,
                joined.color
            );
            (joined.game, joined.token, joined.color)
        }
        (None, None) => unreachable!("clap requires one"),
    };
    let client = format!("boardcraft-cli {} bot", env!("CARGO_PKG_VERSION"));
    let mut backoff = Duration::from_millis(250);
    loop {
        match session(&server, &game, &token, side, args.level, &client).await {
            Ok(Some(text)) => {
                outln!("game over: {text}");
                outln!(
                    "the game as a save file: http://{}/api/games/{game}/save.ron",
                    server.authority
                );
                return Ok(std::process::ExitCode::SUCCESS);
            }
            Ok(None) => eprintln!("the connection closed; reconnecting"),
            Err(e) => eprintln!("{e}; reconnecting"),
        }
        sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(10));
    }
}

/// One connection's worth of the game: `Ok(Some(result))` at the end, `Ok(None)` or an error
/// when the connection went (the caller reconnects; the welcome brings the whole game back).
async fn session(
    server: &ServerUrl,
    game: &str,
    token: &str,
    side: Side,
    level: Level,
    client: &str,
) -> Result<Option<String>, String> {
    let (mut ws, welcome) = net::connect(server, game, Some(token), client).await?;
    let ServerMessage::Welcome { game: snapshot, .. } = welcome else {
        unreachable!("connect returns a welcome")
    };
    if let Some(result) = &snapshot.result {
        return Ok(Some(result.text.clone()));
    }
    let mut started = snapshot.status == GameStatus::Playing;
    if !started {
        outln!("waiting for the opponent to join …");
    }
    let mut mirror = Mirror::of(&snapshot)?;
    // The move sent and not yet acknowledged, with when it was sent.
    let mut pending: Option<(u32, String, Instant)> = None;
    let mut ping = tokio::time::interval(Duration::from_secs(5));
    loop {
        if started
            && pending.is_none()
            && mirror.side_to_move() == side
            && !mirror.position.is_game_over()
        {
            let position = mirror.position.clone();
            let seed = mirror.ply() as u64 ^ 0x9e37_79b9;
            let chosen = tokio::task::spawn_blocking(move || {
                let cfg = level.config(&position, seed);
                let result = AnySearch::new(&position, cfg).run();
                result.best_move.map(|m| position.format_move(&m))
            })
            .await
            .map_err(|e| e.to_string())?;
            let Some(notation) = chosen else {
                return Err("the engine found no move".into());
            };
            let ply = mirror.ply();
            net::send(
                &mut ws,
                &ClientMessage::Move {
                    ply,
                    notation: notation.clone(),
                },
            )
            .await?;
            pending = Some((ply, notation, Instant::now()));
        }
        let resend_at = pending
            .as_ref()
            .map(|(_, _, t)| *t + Duration::from_millis(2500));
        tokio::select! {
            msg = net::recv(&mut ws) => {
                let Some(msg) = msg? else { return Ok(None) };
                match msg {
                    ServerMessage::Snapshot { game: snapshot, .. } => {
                        started = snapshot.status == GameStatus::Playing;
                        mirror = Mirror::of(&snapshot)?;
                        pending = None;
                        if started { outln!("the game is on"); }
                    }
                    ServerMessage::Moved { ply, notation, side: by, hash, .. } => {
                        if ply == mirror.ply() {
                            mirror.apply(&notation)?;
                            if mirror.hash() != hash {
                                // Out of step: ask for the whole game.
                                net::send(&mut ws, &ClientMessage::Resync).await?;
                            }
                            outln!("{:>4}. {by}: {notation}", ply + 1);
                        }
                        if pending.as_ref().is_some_and(|(p, _, _)| *p <= ply) {
                            pending = None;
                        }
                    }
                    ServerMessage::GameOver { result, .. } => return Ok(Some(result.text)),
                    // The computer plays on: it declines draws and takebacks.
                    ServerMessage::Offer { offer, by, .. } if by != side && offer != OfferKind::Rematch => {
                        outln!("the opponent offers a {offer}: declined");
                        net::send(&mut ws, &ClientMessage::Decline { offer }).await?;
                    }
                    ServerMessage::Presence { side: s, presence } if s != side => {
                        outln!("the opponent is {presence:?}");
                        if let boardcraft_protocol::Presence::Gone { claim_in_ms: 0 } = presence {
                            net::send(&mut ws, &ClientMessage::ClaimVictory).await?;
                        }
                    }
                    ServerMessage::Error { code, message, fatal, .. } => {
                        eprintln!("server: {message} ({code})");
                        if fatal { return Err(format!("refused: {message}")); }
                        pending = None;
                        net::send(&mut ws, &ClientMessage::Resync).await?;
                    }
                    _ => {}
                }
            }
            _ = sleep_until_opt(resend_at) => {
                if let Some((ply, notation, sent)) = &mut pending {
                    net::send(&mut ws, &ClientMessage::Move { ply: *ply, notation: notation.clone() }).await?;
                    *sent = Instant::now();
                }
            }
            _ = ping.tick() => {
                net::send(&mut ws, &ClientMessage::Ping { n: 0 }).await?;
            }
        }
    }
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}
