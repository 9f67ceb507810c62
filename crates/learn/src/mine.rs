//! Mining puzzles from self-play games: play games between the computer's levels, look at
//! every position for a goal the side to move can reach in few moves with one (or very few)
//! right first moves, and keep only what [`crate::verify`] proves.
use std::collections::HashSet;

use boardcraft_ai::{Level, solver::Solver};
use boardcraft_rules::{AnyMove, AnyPosition, FamilyRules, Position, Variant};

use crate::{
    Goal, PuzzleEntry, Text,
    goal::{Judge, move_scores},
    load::Exercise,
    measure::BestScore,
    verify::verify,
};

/// At most this many equal first moves make a puzzle (all of them are then listed).
const MAX_FIRST_MOVES: usize = 2;
/// The solver's budget per candidate while mining (a candidate that needs more is skipped).
const MINING_NODES: u64 = 3_000_000;

/// Russian plural: 1 ход, 2 хода, 5 ходов.
pub(crate) fn ru_plural(n: u32, one: &str, few: &str, many: &str) -> String {
    let word = match (n % 10, n % 100) {
        (1, r) if r != 11 => one,
        (2..=4, r) if !(12..=14).contains(&r) => few,
        _ => many,
    };
    format!("{n} {word}")
}

pub(crate) fn en_plural(n: u32, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The title of a puzzle with this goal.
pub fn title_for(goal: Goal) -> Text {
    let moves_en = |n| en_plural(n, "move");
    let moves_ru = |n| ru_plural(n, "ход", "хода", "ходов");
    match goal {
        Goal::WinIn(n) => Text {
            en: format!("Win in {}", moves_en(n)),
            ru: format!("Выигрыш в {}", moves_ru(n)),
        },
        Goal::LongestJump => Text {
            en: "The best jump forward".into(),
            ru: "Лучший прыжок вперёд".into(),
        },
        Goal::ReachTarget { pieces, moves } => Text {
            en: format!(
                "{} in the far camp in {}",
                en_plural(pieces, "piece"),
                moves_en(moves)
            ),
            ru: format!(
                "{} в чужом лагере за {}",
                ru_plural(pieces, "шашка", "шашки", "шашек"),
                moves_ru(moves)
            ),
        },
        Goal::LeaveHome { moves } => Text {
            en: format!("Everyone out of the home in {}", moves_en(moves)),
            ru: format!("Все шашки из дома за {}", moves_ru(moves)),
        },
        Goal::CaptureMost => Text {
            en: "The biggest capture".into(),
            ru: "Самый крупный захват".into(),
        },
        Goal::NoMoveIn(n) => Text {
            en: format!("Leave no move in {}", moves_en(n)),
            ru: format!("Оставить без хода за {}", moves_ru(n)),
        },
        Goal::RowIn(n) => Text {
            en: format!("A row of four in {}", moves_en(n)),
            ru: format!("Ряд из четырёх за {}", moves_ru(n)),
        },
        Goal::TakeGipfIn(n) => Text {
            en: format!("Take a GIPF-piece in {}", moves_en(n)),
            ru: format!("Взять GIPF-фишку за {}", moves_ru(n)),
        },
        Goal::Play => Text {
            en: "Make the move".into(),
            ru: "Сделайте ход".into(),
        },
    }
}

/// A hint: the best score for best-move goals, else where the first move starts.
pub fn hint_for(goal: Goal, pos: &AnyPosition, first: &AnyMove, best: Option<BestScore>) -> Text {
    match (goal, best) {
        (Goal::LongestJump, Some(BestScore::Jump { gain, jumps })) => {
            let gain = gain.max(0) as u32;
            return Text {
                en: format!(
                    "The best chain gains {} towards the far corner, in {}.",
                    en_plural(gain, "row"),
                    en_plural(jumps, "jump")
                ),
                ru: format!(
                    "Лучшая цепочка продвигает шашку на {} к дальнему углу, за {}.",
                    ru_plural(gain, "ряд", "ряда", "рядов"),
                    ru_plural(jumps, "прыжок", "прыжка", "прыжков")
                ),
            };
        }
        (Goal::CaptureMost, Some(BestScore::Capture(k))) => {
            return Text {
                en: format!("The best move captures {}.", en_plural(k, "piece")),
                ru: format!(
                    "Лучший ход берёт {}.",
                    ru_plural(k, "фишку", "фишки", "фишек")
                ),
            };
        }
        _ => {}
    }
    let text = pos.format_move(first);
    match first {
        AnyMove::Race(m) => Text {
            en: format!("Start with the piece on {}.", m.from()),
            ru: format!("Начните шашкой с поля {}.", m.from()),
        },
        AnyMove::Focus(boardcraft_rules::focus::FocusMove::Drop { .. }) => Text {
            en: "Start with a piece from your reserve.".into(),
            ru: "Начните с фишки из резерва.".into(),
        },
        AnyMove::Focus(boardcraft_rules::focus::FocusMove::Move { from, .. }) => Text {
            en: format!("Start with the stack on {from}."),
            ru: format!("Начните башней с поля {from}."),
        },
        AnyMove::Gipf(_) => {
            let dot = text
                .rsplit(';')
                .find(|p| !p.starts_with('x'))
                .unwrap_or(&text)
                .trim_start_matches('G')
                .split('-')
                .next()
                .unwrap_or("")
                .to_owned();
            Text {
                en: format!("Bring the piece in from the dot {dot}."),
                ru: format!("Введите фишку с точки {dot}."),
            }
        }
    }
}

/// What kind of puzzles to look for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kinds {
    /// Every kind the family has, rarer kinds first.
    All,
    /// Only goals of two or more moves (the endgames of strong games: a win, a row, leaving
    /// the opponent without a move, pieces into the corner — where few first moves work).
    Deep,
}

/// The goals worth trying in this position of this variant.
fn candidates(
    rules: &FamilyRules,
    pos: &AnyPosition,
    plies_to_end: Option<u32>,
    kinds: Kinds,
) -> Vec<Goal> {
    let mut out = Vec::new();
    let near_end = |n: u32| plies_to_end.is_some_and(|p| p < 2 * n + 2);
    let deep = kinds == Kinds::Deep;
    match (rules, pos) {
        (FamilyRules::Race(r), AnyPosition::Race(p)) => {
            let big = r.width() > 8;
            if !deep {
                out.push(Goal::LongestJump);
            }
            let me = p.side_to_move();
            let have = p.pieces_in_target(me);
            for n in 1..=if big { 2 } else { 3 } {
                if near_end(n) {
                    out.push(Goal::WinIn(n));
                }
            }
            let per_side = r.pieces_per_side() as u32;
            for n in 2..=if big { 2 } else { 3 } {
                // "Into the corner in n" (the 9qum kind): one more piece in, which takes n moves
                // against every defence …
                if have + 1 < per_side && have >= 1 {
                    out.push(Goal::ReachTarget {
                        pieces: have + 1,
                        moves: n,
                    });
                }
                // … and n more pieces in n moves.
                if have + n < per_side && have >= 2 {
                    out.push(Goal::ReachTarget {
                        pieces: have + n,
                        moves: n,
                    });
                }
            }
            if let Some(check) = r.home_clear_ply() {
                // "Every piece out of home before move 40": a few stragglers, in time.
                let home = p.pieces_at_home(me).len() as u32;
                if (1..=3).contains(&home) && p.ply() + 24 >= check {
                    for n in home..=home + 1 {
                        if p.ply() + 2 * n <= check {
                            out.push(Goal::LeaveHome { moves: n });
                        }
                    }
                }
            }
        }
        (FamilyRules::Focus(_), AnyPosition::Focus(_)) => {
            if !deep {
                out.push(Goal::CaptureMost);
            }
            for n in if deep { 2..=3 } else { 1..=2 } {
                if near_end(n) {
                    out.push(Goal::NoMoveIn(n));
                    out.push(Goal::WinIn(n));
                }
            }
        }
        (FamilyRules::Gipf(g), AnyPosition::Gipf(p)) => {
            if !deep {
                out.push(Goal::RowIn(1));
            }
            if deep || p.ply() % 3 == 0 {
                out.push(Goal::RowIn(2));
            }
            if deep && p.ply() % 2 == 0 {
                out.push(Goal::RowIn(3));
            }
            if g.lose_without_gipf {
                out.push(Goal::TakeGipfIn(if deep { 2 } else { 1 }));
            }
            for n in if deep { 2..=4 } else { 1..=2 } {
                if near_end(n) {
                    out.push(Goal::WinIn(n));
                }
            }
        }
        _ => {}
    }
    out
}

/// A proven puzzle for `goal` in `pos`, if there is one: few right first moves, each with a
/// solution line, checked by [`verify`].
fn try_goal(variant: &Variant, pos: &AnyPosition, goal: Goal) -> Option<(PuzzleEntry, u64)> {
    let (firsts, lines, best): (Vec<AnyMove>, Vec<Vec<AnyMove>>, Option<BestScore>) = match goal {
        Goal::LongestJump | Goal::CaptureMost => {
            let scores = move_scores(goal, pos)?;
            let best = scores.iter().map(|s| s.1).max()?;
            // A mined jump puzzle wants a chain worth finding: 3 jumps or more, going forward.
            let worth = match best {
                BestScore::Jump { gain, jumps } => jumps >= 3 && gain >= 4,
                BestScore::Capture(k) => k >= 1,
            };
            if !worth {
                return None;
            }
            let top: Vec<AnyMove> = scores
                .into_iter()
                .filter(|s| s.1 == best)
                .map(|s| s.0)
                .collect();
            if top.len() > MAX_FIRST_MOVES {
                return None;
            }
            let lines = top.iter().map(|m| vec![m.clone()]).collect();
            (top, lines, Some(best))
        }
        _ => {
            let n = goal.moves();
            let judge = Judge(goal);
            let mut solver = Solver::new(&judge, MINING_NODES);
            let found = solver.solutions(pos, n).ok()?;
            if found.is_empty() || found.len() > MAX_FIRST_MOVES {
                return None;
            }
            if n > 1 && solver.forces(pos, n - 1).ok()? {
                return None;
            }
            let mut lines = Vec::new();
            for first in &found {
                lines.push(principal_line(&mut solver, goal, pos, first, n)?);
            }
            (found, lines, None)
        }
    };
    let solutions: Vec<String> = lines.iter().map(|l| line_text(pos, l)).collect();
    let exercise = Exercise {
        variant: variant.clone(),
        position: pos.clone(),
        goal,
        solution_text: solutions.clone(),
        lines,
    };
    let proof = verify(&exercise).ok()?;
    // A puzzle must teach a sound move, not only the extreme of the goal's measure.
    if !crate::audit::audit(&exercise, &crate::audit::AuditConfig::default()).passed() {
        return None;
    }
    let entry = PuzzleEntry {
        id: String::new(),
        variant: variant.name.clone(),
        position: pos.to_text(),
        goal,
        solutions: match goal {
            // Show the longest path itself, not only its ends.
            Goal::LongestJump => firsts
                .iter()
                .map(|m| crate::goal::longest_path(pos, m).unwrap_or_else(|| pos.format_move(m)))
                .collect(),
            _ => solutions,
        },
        difficulty: crate::rate::rate(&exercise, &proof).difficulty,
        title: title_for(goal),
        hint: hint_for(goal, pos, &firsts[0], best),
        source: String::new(),
    };
    Some((entry, proof.nodes))
}

/// A puzzle for `goal` in the position of `entry`, made again with this build's rules of what
/// makes a puzzle (the goal's measure, verification, the audit, the rated difficulty): the
/// answer, the lines, the title, the hint and the difficulty are new, the id and the source are
/// kept. `None` when the position no longer makes a puzzle for that goal.
pub fn remake(variant: &Variant, entry: &PuzzleEntry) -> Option<PuzzleEntry> {
    let pos = variant.position_from_text(&entry.position).ok()?;
    let (mut made, _) = try_goal(variant, &pos, entry.goal)?;
    made.id = entry.id.clone();
    made.source = entry.source.clone();
    Some(made)
}

fn line_text(pos: &AnyPosition, line: &[AnyMove]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for m in line {
        out.push(p.format_move(m));
        p.play_unchecked(m);
    }
    out.join(" ")
}

/// A main line from `first`: the player's moves that still force the goal, the opponent's
/// replies chosen as the first legal one that keeps the game going longest (the one the
/// solver needs most moves against).
fn principal_line(
    solver: &mut Solver<'_, AnyPosition, Judge>,
    goal: Goal,
    start: &AnyPosition,
    first: &AnyMove,
    n: u32,
) -> Option<Vec<AnyMove>> {
    let mut line = vec![first.clone()];
    let mut pos = start.clone();
    let mut mv = first.clone();
    let mut left = n;
    loop {
        let before = pos.clone();
        pos.play_unchecked(&mv);
        if crate::goal::reached(goal, &before, &mv, &pos) {
            return Some(line);
        }
        if left <= 1 || pos.is_game_over() {
            return None;
        }
        // The toughest reply: one after which the goal needs the most moves.
        let mut replies = Vec::new();
        pos.legal_moves(&mut replies);
        let mut best: Option<(u32, AnyMove)> = None;
        for r in replies {
            let mut next = pos.clone();
            next.play_unchecked(&r);
            if next.is_game_over() {
                continue;
            }
            let need = (1..left).find(|&k| solver.forces(&next, k).unwrap_or(false))?;
            if best.as_ref().is_none_or(|b| need > b.0) {
                best = Some((need, r));
            }
        }
        let (_, reply) = best?;
        pos.play_unchecked(&reply);
        line.push(reply);
        left -= 1;
        let mut ours = Vec::new();
        pos.legal_moves(&mut ours);
        mv = ours
            .into_iter()
            .find(|m| solver.move_solves(&pos, m, left).unwrap_or(false))?;
        line.push(mv.clone());
    }
}

/// What [`mine`] reports as it goes.
pub struct MineProgress {
    pub games: u32,
    pub found: usize,
}

/// How [`mine`] plays and looks.
#[derive(Clone, Debug)]
pub struct MineOptions {
    pub count: usize,
    pub seed: u64,
    pub max_games: u32,
    /// The levels that play the self-play games (they alternate per game and per move).
    pub levels: [Level; 2],
    pub kinds: Kinds,
    /// Only goals of this kind ([`Goal::kind`]), if given.
    pub only: Option<String>,
    /// Stop looking at this time (what was found so far is returned).
    pub deadline: Option<std::time::Instant>,
}

/// Mines up to `count` proven puzzles from self-play games of `variant` (seeded, so the same
/// seed finds the same puzzles), skipping positions in `known` (position texts).
pub fn mine(
    variant: &Variant,
    options: MineOptions,
    known: &HashSet<String>,
    mut progress: impl FnMut(&MineProgress),
) -> Vec<PuzzleEntry> {
    let MineOptions {
        count,
        seed,
        max_games,
        levels,
        kinds,
        only,
        deadline,
    } = options;
    let late = || deadline.is_some_and(|d| std::time::Instant::now() >= d);
    let mut out: Vec<PuzzleEntry> = Vec::new();
    let mut seen: HashSet<String> = known.clone();
    let mut kinds_found: std::collections::HashMap<std::mem::Discriminant<Goal>, usize> =
        Default::default();
    for game in 0..max_games {
        if out.len() >= count || late() {
            break;
        }
        let positions = self_play(
            variant,
            seed.wrapping_mul(1000).wrapping_add(u64::from(game)),
            levels,
        );
        let total = positions.len() as u32;
        let decisive = positions
            .last()
            .and_then(|p| p.outcome())
            .is_some_and(|o| o.winner().is_some());
        let mut per_game = 0;
        let mut last_found: Option<usize> = None;
        for (i, pos) in positions.iter().enumerate() {
            if out.len() >= count || per_game >= 3 || late() {
                break;
            }
            // Neighbouring positions of one game make near-identical puzzles.
            if last_found.is_some_and(|l| i < l + 6)
                || pos.is_game_over()
                || seen.contains(&pos.to_text())
            {
                continue;
            }
            let plies_to_end = decisive.then_some(total - 1 - i as u32);
            let mut goals = candidates(&variant.rules, pos, plies_to_end, kinds);
            goals.retain(|g| only.as_deref().is_none_or(|k| g.kind() == k));
            // Rarer kinds first, so a file gets every kind the family has.
            goals.sort_by_key(|g| {
                kinds_found
                    .get(&std::mem::discriminant(g))
                    .copied()
                    .unwrap_or(0)
            });
            for goal in goals {
                // Keep the one-move "best" goals from crowding out the others.
                let k = kinds_found
                    .get(&std::mem::discriminant(&goal))
                    .copied()
                    .unwrap_or(0);
                if k > count / 2 + 1 {
                    continue;
                }
                if let Some((entry, _)) = try_goal(variant, pos, goal) {
                    seen.insert(entry.position.clone());
                    *kinds_found
                        .entry(std::mem::discriminant(&goal))
                        .or_default() += 1;
                    let mut entry = entry;
                    entry.source = format!(
                        "mined: {} self-play ({} vs {}), seed {seed}, game {game}, ply {}",
                        variant.name,
                        levels[0],
                        levels[1],
                        pos.ply()
                    );
                    out.push(entry);
                    per_game += 1;
                    last_found = Some(i);
                    break;
                }
            }
        }
        progress(&MineProgress {
            games: game + 1,
            found: out.len(),
        });
    }
    out
}

/// The positions of one self-play game, start first: the levels alternate per game and get
/// noise, so games differ; the first plies are random to spread the openings.
fn self_play(variant: &Variant, seed: u64, levels: [Level; 2]) -> Vec<AnyPosition> {
    let mut pos = variant.new_game();
    let mut out = vec![pos.clone()];
    let mut rng = boardcraft_ai::rng::SplitMix64::new(seed);
    let cap = match &variant.rules {
        FamilyRules::Race(_) => 400,
        _ => 240,
    };
    let mut moves = Vec::new();
    for ply in 0..cap {
        if pos.is_game_over() {
            break;
        }
        pos.legal_moves(&mut moves);
        let mv = if ply < 4 {
            moves[(rng.next_u64() % moves.len() as u64) as usize].clone()
        } else {
            let level = levels[(seed as usize + ply) % 2];
            let r = boardcraft_ai::AnySearch::new(&pos, level.config(&pos, rng.next_u64())).run();
            match r.best_move {
                Some(m) => m,
                None => break,
            }
        };
        pos.play_unchecked(&mv);
        out.push(pos.clone());
    }
    out
}
