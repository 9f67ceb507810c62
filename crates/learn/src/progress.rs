//! Progress that helps: why a wrong try is wrong (in data, so the game can say it in the
//! player's language), the player's level from what they solved, and the next puzzle to offer.
use boardcraft_ai::solver::Solver;
use boardcraft_rules::{AnyMove, Position};

use crate::{
    Difficulty, Goal,
    goal::{Judge, move_scores},
    load::{Exercise, Puzzle},
    measure::BestScore,
    mine::{en_plural, ru_plural},
};

/// Why a try is wrong, for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhyWrong {
    /// A best-jump goal: the played move gains less ground (rows towards the target corner; a
    /// negative gain goes back) than the best one.
    LessGround {
        gain: i32,
        jumps: u32,
        best_gain: i32,
        best_jumps: u32,
    },
    /// A biggest-capture goal: the played move captures fewer pieces than the best one.
    FewerCaptures { took: u32, best: u32 },
    /// An "in N" goal: after the played move the opponent's `defence` stops the goal within the
    /// moves left.
    Escapes { defence: String },
    /// A one-move goal: the played move does not reach it.
    Misses,
    /// The played move loses the game at once.
    Loses,
    /// A lesson step that shows a move: this is not the move it asks for.
    NotTheMove { expected: Vec<String> },
}

impl WhyWrong {
    /// The explanation in `lang` (`"en"` or `"ru"`; English otherwise), e.g. "This chain gains
    /// 2 rows towards the far corner; a better one gains 5."
    pub fn text(&self, lang: &str) -> String {
        let ru = lang == "ru";
        let rows_en = |n: i32| en_plural(n.unsigned_abs(), "row");
        let rows_ru = |n: i32| ru_plural(n.unsigned_abs(), "ряд", "ряда", "рядов");
        match self {
            WhyWrong::LessGround {
                gain,
                jumps,
                best_gain,
                best_jumps,
            } => {
                let played = match (ru, *gain) {
                    (false, g) if g > 0 => format!("This move gains {}", rows_en(g)),
                    (false, 0) => "This move gains no ground".to_owned(),
                    (false, g) => format!("This move goes {} back", rows_en(g)),
                    (true, g) if g > 0 => format!("Этот ход продвигает шашку на {}", rows_ru(g)),
                    (true, 0) => "Этот ход не продвигает шашку вперёд".to_owned(),
                    (true, g) => format!("Этот ход отводит шашку на {} назад", rows_ru(g)),
                };
                if gain == best_gain {
                    if ru {
                        format!(
                            "{played}, как и лучший, но в лучшей цепочке больше прыжков: {} против {}.",
                            best_jumps, jumps
                        )
                    } else {
                        format!(
                            "{played}, as much as the best, but the best chain makes more jumps: {best_jumps} against {jumps}."
                        )
                    }
                } else if ru {
                    format!(
                        "{played}; лучший ход продвигает на {} к дальнему углу.",
                        rows_ru(*best_gain)
                    )
                } else {
                    format!(
                        "{played} towards the far corner; a better one gains {}.",
                        rows_en(*best_gain)
                    )
                }
            }
            WhyWrong::FewerCaptures { took, best } => {
                if ru {
                    format!(
                        "Этот ход берёт {}; лучший — {}.",
                        ru_plural(*took, "фишку", "фишки", "фишек"),
                        ru_plural(*best, "фишку", "фишки", "фишек")
                    )
                } else {
                    format!(
                        "This move captures {}; a better one captures {}.",
                        en_plural(*took, "piece"),
                        en_plural(*best, "piece")
                    )
                }
            }
            WhyWrong::Escapes { defence } => {
                if ru {
                    format!("После этого хода соперник защищается: {defence}.")
                } else {
                    format!("After this move your opponent escapes with {defence}.")
                }
            }
            WhyWrong::Misses => {
                if ru {
                    "Этот ход не достигает цели.".to_owned()
                } else {
                    "This move does not reach the goal.".to_owned()
                }
            }
            WhyWrong::Loses => {
                if ru {
                    "Этот ход проигрывает партию.".to_owned()
                } else {
                    "This move loses the game.".to_owned()
                }
            }
            WhyWrong::NotTheMove { expected } => {
                let list = expected.join(", ");
                if ru {
                    format!("Здесь нужен ход {list}.")
                } else {
                    format!("The move asked for here is {list}.")
                }
            }
        }
    }
}

impl Exercise {
    /// Why the player's first move `mv` (from the exercise's position) does not solve it;
    /// `None` when it does (or is not legal here). Cheap for the shipped exercises: one solver
    /// call per defence at most.
    pub fn why_wrong(&self, mv: &AnyMove) -> Option<WhyWrong> {
        let pos = &self.position;
        if self.is_right_first_move(mv) || !pos.is_legal(mv) {
            return None;
        }
        let mut after = pos.clone();
        after.play_unchecked(mv);
        if after
            .outcome()
            .is_some_and(|o| o.winner() == Some(pos.side_to_move().other()))
        {
            return Some(WhyWrong::Loses);
        }
        match self.goal {
            Goal::LongestJump | Goal::CaptureMost => {
                let scores = move_scores(self.goal, pos)?;
                let of = |m: &AnyMove| scores.iter().find(|(x, _)| x == m).map(|(_, s)| *s);
                let best = self.lines.iter().filter_map(|l| of(&l[0])).max()?;
                match (of(mv)?, best) {
                    (
                        BestScore::Jump { gain, jumps },
                        BestScore::Jump {
                            gain: best_gain,
                            jumps: best_jumps,
                        },
                    ) => Some(WhyWrong::LessGround {
                        gain,
                        jumps,
                        best_gain,
                        best_jumps,
                    }),
                    (BestScore::Capture(took), BestScore::Capture(best)) => {
                        Some(WhyWrong::FewerCaptures { took, best })
                    }
                    _ => None,
                }
            }
            Goal::Play => Some(WhyWrong::NotTheMove {
                expected: self.lines.iter().map(|l| pos.format_move(&l[0])).collect(),
            }),
            goal if goal.moves() <= 1 => Some(WhyWrong::Misses),
            goal => {
                // The reply after which the goal is out of reach in the moves left.
                let left = goal.moves() - 1;
                let judge = Judge(goal);
                let mut solver = Solver::new(&judge, crate::verify::NODE_LIMIT);
                let mut replies = Vec::new();
                after.legal_moves(&mut replies);
                let defence = replies.into_iter().find(|r| {
                    let mut next = after.clone();
                    next.play_unchecked(r);
                    solver.forces(&next, left) == Ok(false)
                });
                Some(match defence {
                    Some(r) => WhyWrong::Escapes {
                        defence: after.format_move(&r),
                    },
                    None => WhyWrong::Misses,
                })
            }
        }
    }
}

/// The player's level in a list of puzzles: the easiest difficulty of which they have solved
/// fewer than [`LEVEL_UP_SHARE`] (in percent) — they move up once they have solved most of a
/// level. Expert when every level is mostly solved.
pub fn player_level(puzzles: &[Puzzle], solved: impl Fn(&str) -> bool) -> Difficulty {
    level_of(puzzles, |p| (p.id.as_str(), p.difficulty), solved)
}

/// [`player_level`] over any list (the game's own puzzle entries): `entry` gives an item's id
/// and difficulty.
pub fn level_of<T>(
    items: &[T],
    entry: impl Fn(&T) -> (&str, Difficulty),
    solved: impl Fn(&str) -> bool,
) -> Difficulty {
    for d in Difficulty::ALL {
        let at: Vec<&str> = items
            .iter()
            .map(&entry)
            .filter(|e| e.1 == d)
            .map(|e| e.0)
            .collect();
        let done = at.iter().filter(|id| solved(id)).count();
        if !at.is_empty() && done * 100 < at.len() * LEVEL_UP_SHARE {
            return d;
        }
    }
    Difficulty::Expert
}

/// The share of a level's puzzles (percent) a player solves before the next level is theirs.
pub const LEVEL_UP_SHARE: usize = 60;

/// The next unsolved puzzle of the player's level ([`player_level`]) after the one with id
/// `after` (from the start of the list when `None`), wrapping round; when none of that level
/// is left, the nearest level's (the easier one first). `None` when every puzzle is solved.
pub fn next_puzzle<'a>(
    puzzles: &'a [Puzzle],
    solved: impl Fn(&str) -> bool,
    after: Option<&str>,
) -> Option<&'a Puzzle> {
    next_of_level(puzzles, |p| (p.id.as_str(), p.difficulty), solved, after)
}

/// [`next_puzzle`] over any list (the game's own puzzle entries): `entry` gives an item's id
/// and difficulty.
pub fn next_of_level<'a, T>(
    items: &'a [T],
    entry: impl Fn(&T) -> (&str, Difficulty),
    solved: impl Fn(&str) -> bool,
    after: Option<&str>,
) -> Option<&'a T> {
    let level = level_of(items, &entry, &solved);
    let start = after
        .and_then(|id| items.iter().position(|p| entry(p).0 == id))
        .map_or(0, |i| i + 1);
    let in_order = items[start..].iter().chain(&items[..start]);
    let distance = |d: Difficulty| {
        let (a, b) = (d as i32, level as i32);
        // Easier levels before harder ones at the same distance.
        2 * (a - b).abs() + i32::from(a > b)
    };
    in_order
        .filter(|p| !solved(entry(p).0))
        .min_by_key(|p| distance(entry(p).1))
}
