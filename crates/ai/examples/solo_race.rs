//! How many moves one seat of a race game needs to fill its target alone: the other seats never
//! move (their pieces stay at home). It measures racing by itself, apart from a table's
//! interplay: a level plays the seat with its search as in a game, or a beam search over the
//! seat's own moves keeps the best `width` positions after each of `depth` moves and plays the
//! first move of the best line.
//!
//! The beam keeps equally valued positions in the order their moves were tried: `rear` tries
//! the pieces farthest from the seat's target corner first, `front` the nearest first,
//! `generated` the rules' order (the board scanned from rank 1, which is rear first for seat 0
//! of Chinese checkers and not for the others). That order alone changes the count by about ten
//! moves (docs/measurements.md).
//!
//! Usage: cargo run --release -p boardcraft-ai --example solo_race -- VARIANT PLAYERS SEAT PLAYER
//!   PLAYER: novice | amateur | strong | master | beam:DEPTHxWIDTH[:rear|:front|:generated]
//! e.g. `solo_race chinese-checkers 3 1 beam:4x200:rear` (three seats: every target starts empty).
use std::{collections::HashSet, process::ExitCode, sync::Arc};

use boardcraft_ai::{Evaluate, Level, Search, best_reply::BestReply};
use boardcraft_rules::{
    FamilyRules, OutOfTurn, Position, Seat, Variant,
    race::{RaceMove, RacePosition, RaceRules, Square},
};

/// The longest game measured: a player that cannot finish stops here.
const MOVE_CAP: u32 = 150;

#[derive(Clone, Copy)]
enum Ties {
    Rear,
    Front,
    Generated,
}

enum Player {
    Level(Level),
    Beam {
        depth: usize,
        width: usize,
        ties: Ties,
    },
}

fn parse_player(text: &str) -> Result<Player, String> {
    let Some(beam) = text.strip_prefix("beam:") else {
        return text.parse().map(Player::Level);
    };
    let mut parts = beam.split(':');
    let size = parts.next().unwrap_or_default();
    let (depth, width) = size
        .split_once('x')
        .and_then(|(d, w)| Some((d.parse().ok()?, w.parse().ok()?)))
        .ok_or_else(|| format!("`{beam}`: write the beam as DEPTHxWIDTH, e.g. 4x200"))?;
    let ties = match parts.next() {
        None | Some("rear") => Ties::Rear,
        Some("front") => Ties::Front,
        Some("generated") => Ties::Generated,
        Some(other) => return Err(format!("ties `{other}`: use rear, front or generated")),
    };
    Ok(Player::Beam { depth, width, ties })
}

/// The target cell farthest from `seat`'s home: where its pieces head.
fn corner(rules: &RaceRules, seat: Seat) -> Square {
    let metric = rules.directions();
    let home = rules.camp(seat);
    *rules
        .target(seat)
        .iter()
        .max_by_key(|&&t| home.iter().map(|&h| metric.distance(t, h)).sum::<i32>())
        .expect("a target is never empty")
}

/// Hands the turn back to `seat` (the others pass).
fn back_to(pos: &mut RacePosition, seat: Seat) {
    for _ in 0..pos.seat_count() {
        if pos.side_to_move() == seat || pos.settled_place(seat).is_some() {
            return;
        }
        pos.skip_turn();
    }
}

/// The first move of the best line of `depth` own moves, keeping `width` positions a move.
fn beam_move(pos: &RacePosition, depth: usize, width: usize, ties: Ties) -> Option<RaceMove> {
    let seat = pos.side_to_move();
    let (metric, corner) = (pos.rules().directions(), corner(pos.rules(), seat));
    let finished =
        |p: &RacePosition, level: usize| p.settled_place(seat).map(|_| i32::MAX - level as i32);
    let mut beam: Vec<(i32, RacePosition, Option<RaceMove>)> = vec![(0, pos.clone(), None)];
    let mut moves = Vec::new();
    for level in 0..depth {
        let mut next = Vec::new();
        let mut seen = HashSet::new();
        for (value, p, first) in &beam {
            if *value > i32::MAX - 1000 {
                next.push((*value, p.clone(), *first));
                continue;
            }
            p.legal_moves(&mut moves);
            match ties {
                Ties::Rear => moves.sort_by_key(|m| -metric.distance(m.from(), corner)),
                Ties::Front => moves.sort_by_key(|m| metric.distance(m.from(), corner)),
                Ties::Generated => {}
            }
            for mv in &moves {
                let mut child = p.clone();
                child.play_unchecked(mv);
                back_to(&mut child, seat);
                if !seen.insert(child.hash()) {
                    continue;
                }
                let value = finished(&child, level).unwrap_or_else(|| child.evaluate_for(seat));
                next.push((value, child, first.or(Some(*mv))));
            }
        }
        if next.is_empty() {
            break;
        }
        // Stable: equal values keep the order their moves were tried in.
        next.sort_by_key(|(value, ..)| std::cmp::Reverse(*value));
        next.truncate(width);
        beam = next;
    }
    beam.first().and_then(|(_, _, first)| *first)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, players, seat, player] = args.as_slice() else {
        eprintln!("usage: solo_race VARIANT PLAYERS SEAT PLAYER (see the source's header)");
        return ExitCode::from(2);
    };
    let run = || -> Result<(u32, bool), String> {
        let players: usize = players.parse().map_err(|e| format!("players: {e}"))?;
        let seat: usize = seat.parse().map_err(|e| format!("seat: {e}"))?;
        let variant = Variant::resolve(variant)
            .map_err(|e| e.to_string())?
            .for_players(players)
            .map_err(|e| e.to_string())?;
        let FamilyRules::Race(rules) = variant.rules else {
            return Err("not a race game".into());
        };
        let player = parse_player(player)?;
        let mut pos = RacePosition::new(Arc::clone(&rules));
        let seat = Seat::new(seat)
            .filter(|s| s.index() < players)
            .ok_or("no such seat")?;
        back_to(&mut pos, seat);
        let mut made = 0;
        while pos.settled_place(seat).is_none() && made < MOVE_CAP {
            let mv = match &player {
                Player::Level(level) => {
                    let config = level.config(&pos, u64::from(made));
                    Search::new(&BestReply::new(&pos), config)
                        .run()
                        .best_move
                        .map(|reply| reply.mv)
                }
                Player::Beam { depth, width, ties } => beam_move(&pos, *depth, *width, *ties),
            };
            let Some(mv) = mv else { break };
            pos.play(&mv).map_err(|e| e.to_string())?;
            made += 1;
            back_to(&mut pos, seat);
        }
        Ok((made, pos.settled_place(seat).is_some()))
    };
    match run() {
        Ok((made, true)) => {
            println!("{made} moves");
            ExitCode::SUCCESS
        }
        Ok((made, false)) => {
            println!("not finished after {made} moves");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("solo_race: {e}");
            ExitCode::from(2)
        }
    }
}
