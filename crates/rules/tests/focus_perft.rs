//! Perft for Focus, every number cross-checked against a naive reference generator written
//! here from rules.md §5 alone: stacks as `Vec<Seat>`, the board from its row strings, the
//! set-up from the square lists of rules.md, repetition by comparing whole states. It shares
//! nothing with the engine but the `Seat` type.
use std::collections::BTreeMap;

use boardcraft_rules::{
    FamilyRules, Position, Seat,
    focus::FocusPosition,
    perft::{divide, perft},
    position::play_line,
    shipped_variant,
};

// ---------------------------------------------------------------------------------------------
// The reference.

#[derive(Clone, PartialEq, Eq, Debug)]
struct Naive {
    /// `stacks[rank][file]`, bottom → top; `None` off the board.
    stacks: Vec<Vec<Option<Vec<Seat>>>>,
    reserve: [u32; 2],
    captured: [u32; 2],
    side: Seat,
}

#[derive(Clone, Copy, Debug)]
enum NaiveMove {
    Step {
        from: (usize, usize),
        to: (usize, usize),
        k: usize,
    },
    Drop {
        to: (usize, usize),
    },
}

struct NaiveGame {
    limit: usize,
    repetition: usize,
}

fn idx(c: Seat) -> usize {
    match c {
        Seat::WHITE => 0,
        _ => 1,
    }
}

fn name((rank, file): (usize, usize)) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

fn parse_name(s: &str) -> (usize, usize) {
    let file = (s.as_bytes()[0] - b'a') as usize;
    let rank: usize = s[1..].parse().unwrap();
    (rank - 1, file)
}

impl NaiveMove {
    fn notation(self) -> String {
        match self {
            NaiveMove::Step { from, to, .. } => format!("{}-{}", name(from), name(to)),
            NaiveMove::Drop { to } => format!("+{}", name(to)),
        }
    }
}

impl Naive {
    /// `rows`: top rank first, `.` square, `#` none. `white`/`black`: single pieces.
    fn new(rows: &[&str], white: &str, black: &str, first: Seat) -> Naive {
        let h = rows.len();
        let mut stacks = vec![vec![None; rows[0].len()]; h];
        for (i, row) in rows.iter().enumerate() {
            for (file, c) in row.chars().enumerate() {
                if c == '.' {
                    stacks[h - 1 - i][file] = Some(Vec::new());
                }
            }
        }
        for (list, color) in [(white, Seat::WHITE), (black, Seat::BLACK)] {
            for s in list.split_whitespace() {
                let (r, f) = parse_name(s);
                stacks[r][f].as_mut().unwrap().push(color);
            }
        }
        Naive {
            stacks,
            reserve: [0, 0],
            captured: [0, 0],
            side: first,
        }
    }

    fn on_board(&self, rank: i64, file: i64) -> bool {
        rank >= 0
            && file >= 0
            && (rank as usize) < self.stacks.len()
            && (file as usize) < self.stacks[0].len()
            && self.stacks[rank as usize][file as usize].is_some()
    }

    fn squares(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for r in 0..self.stacks.len() {
            for f in 0..self.stacks[0].len() {
                if self.stacks[r][f].is_some() {
                    out.push((r, f));
                }
            }
        }
        out
    }

    fn stack(&self, (r, f): (usize, usize)) -> &Vec<Seat> {
        self.stacks[r][f].as_ref().unwrap()
    }

    fn over(&self, game: &NaiveGame, history: &[Naive]) -> bool {
        let me = self.side;
        let controls = self
            .squares()
            .into_iter()
            .any(|sq| self.stack(sq).last() == Some(&me));
        if !controls && self.reserve[idx(me)] == 0 {
            return true;
        }
        history.iter().filter(|h| *h == self).count() + 1 >= game.repetition
    }

    fn moves(&self, game: &NaiveGame, history: &[Naive]) -> Vec<NaiveMove> {
        let mut out = Vec::new();
        if self.over(game, history) {
            return out;
        }
        for from in self.squares() {
            let stack = self.stack(from);
            if stack.last() != Some(&self.side) {
                continue;
            }
            for k in 1..=stack.len() {
                for (dr, df) in [(1i64, 0i64), (0, 1), (-1, 0), (0, -1)] {
                    let r = from.0 as i64 + dr * k as i64;
                    let f = from.1 as i64 + df * k as i64;
                    if self.on_board(r, f) {
                        out.push(NaiveMove::Step {
                            from,
                            to: (r as usize, f as usize),
                            k,
                        });
                    }
                }
            }
        }
        if self.reserve[idx(self.side)] > 0 {
            for to in self.squares() {
                out.push(NaiveMove::Drop { to });
            }
        }
        out
    }

    fn play(&self, game: &NaiveGame, mv: NaiveMove) -> Naive {
        let mut next = self.clone();
        let me = self.side;
        let (to, mut pieces) = match mv {
            NaiveMove::Step { from, to, k } => {
                let src = next.stacks[from.0][from.1].as_mut().unwrap();
                let lifted = src.split_off(src.len() - k);
                (to, lifted)
            }
            NaiveMove::Drop { to } => {
                next.reserve[idx(me)] -= 1;
                (to, vec![me])
            }
        };
        let dst = next.stacks[to.0][to.1].as_mut().unwrap();
        dst.append(&mut pieces);
        while dst.len() > game.limit {
            let bottom = dst.remove(0);
            if bottom == me {
                next.reserve[idx(me)] += 1;
            } else {
                next.captured[idx(me)] += 1;
            }
        }
        next.side = match me {
            Seat::WHITE => Seat::BLACK,
            _ => Seat::WHITE,
        };
        next
    }

    fn find(&self, game: &NaiveGame, history: &[Naive], text: &str) -> NaiveMove {
        self.moves(game, history)
            .into_iter()
            .find(|m| m.notation() == text)
            .unwrap_or_else(|| panic!("reference: {text} is not legal"))
    }
}

fn naive_perft(game: &NaiveGame, pos: &Naive, history: &mut Vec<Naive>, depth: u32) -> u64 {
    let moves = pos.moves(game, history);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    history.push(pos.clone());
    for mv in moves {
        total += naive_perft(game, &pos.play(game, mv), history, depth - 1);
    }
    history.pop();
    total
}

// ---------------------------------------------------------------------------------------------
// The standard game, written out independently of focus.ron (rules.md §5).

const BOARD_8: [&str; 8] = [
    "##....##", "#......#", "........", "........", "........", "........", "#......#", "##....##",
];
const WHITE_8: &str = "b7 c7 f7 g7 d6 e6 b5 c5 f5 g5 d4 e4 b3 c3 f3 g3 d2 e2";
const BLACK_8: &str = "d7 e7 b6 c6 f6 g6 d5 e5 b4 c4 f4 g4 d3 e3 b2 c2 f2 g2";

/// The 6×6 example variant (assets/variants/focus-6x6.ron), also written out here.
const BOARD_6: [&str; 6] = ["#....#", "......", "......", "......", "......", "#....#"];
const WHITE_6: &str = "b5 c5 d4 e4 b3 c3 d2 e2";
const BLACK_6: &str = "d5 e5 b4 c4 d3 e3 b2 c2";

fn engine(variant: &str) -> FocusPosition {
    match shipped_variant(variant).unwrap().rules {
        FamilyRules::Focus(r) => FocusPosition::new(r),
        _ => unreachable!(),
    }
}

/// Plays `line` in both implementations, then checks perft 1..=depth and the per-move
/// divide at `depth` agree.
fn cross_check(variant: &str, reference: (Naive, NaiveGame), line: &str, depth: u32) -> Vec<u64> {
    let (mut naive, game) = reference;
    let mut history = Vec::new();
    for text in line.split_whitespace() {
        let mv = naive.find(&game, &history, text);
        history.push(naive.clone());
        naive = naive.play(&game, mv);
    }
    let mut pos = engine(variant);
    play_line(&mut pos, line).unwrap();

    let mut numbers = Vec::new();
    for d in 1..=depth {
        let ours = perft(&mut pos, d);
        let theirs = naive_perft(&game, &naive, &mut history, d);
        assert_eq!(ours, theirs, "{variant} after `{line}`: perft({d})");
        numbers.push(ours);
    }
    // Divide at the deepest level: the same moves, each with the same subtree size.
    let ours: BTreeMap<String, u64> = divide(&mut pos, depth)
        .into_iter()
        .map(|(m, n)| (pos.format_move(&m), n))
        .collect();
    history.push(naive.clone());
    let theirs: BTreeMap<String, u64> = naive
        .moves(&game, &history[..history.len() - 1])
        .into_iter()
        .map(|m| {
            let child = naive.play(&game, m);
            let n = if depth == 1 {
                1
            } else {
                naive_perft(&game, &child, &mut history, depth - 1)
            };
            (m.notation(), n)
        })
        .collect();
    assert_eq!(ours, theirs, "{variant} after `{line}`: divide({depth})");
    numbers
}

fn standard() -> (Naive, NaiveGame) {
    (
        Naive::new(&BOARD_8, WHITE_8, BLACK_8, Seat::WHITE),
        NaiveGame {
            limit: 5,
            repetition: 3,
        },
    )
}

#[test]
fn perft_start() {
    let numbers = cross_check("focus", standard(), "", 3);
    assert_eq!(numbers[0], 68, "rules.md §10");
}

/// A quiet middle game: stacks of up to three, no reserves yet.
const MIDGAME_QUIET: &str = "d2-d3 b6-b5 f5-f6 c4-b4 d6-c6 d7-c7 c5-c6 b4-b3 e2-d2 c2-c3 \
    c6-b6 d5-d6 f6-f5 c7-e7 b6-b7 g4-g5 f3-f4 c3-c4 d2-d1 e3-f3 f4-f3 g6-h6 d3-e3 d3-c3";

/// Black to move with reserves on both sides (drops), a full 5-stack on f7 and captures made.
const MIDGAME_RESERVES: &str = "f3-f2 f4-g4 b5-b4 g4-g3 g5-g6 e5-f5 c3-d3 f5-d5 d6-d7 d5-d2 \
    d7-b7 e3-e4 e6-e5 c2-d2 f2-d2 g3-g4 c7-c8 b6-a6 g6-g7 e4-g4 g3-g4 e7-f7 d3-b3 g6-g7 \
    b4-b5 g7-g4 +f5 g4-b4 d2-d6 b4-f4 f5-f4 f6-f7 f4-f7";

/// Two 5-stacks (b6, f2), two pieces in each reserve, captures on both sides.
const MIDGAME_TALL: &str = "d6-d5 g4-h4 e6-e7 e5-d5 c5-d5 d7-e7 d4-d5 f2-g2 g3-h3 e7-b7 \
    e4-d4 g6-g5 d5-d4 b7-f7 c3-d3 f6-f7 c7-c6 f7-f3 d3-f3 g5-g3 f3-f7 c4-b4 c6-b6 b4-b6 \
    f3-f2 g3-h3 d5-d2 c2-d2 d4-d2 c6-b6 f7-f2 g2-f2 +d2 f2-c2 +f8 g2-g3 d2-f2 c2-f2";

#[test]
fn perft_midgame_quiet() {
    cross_check("focus", standard(), MIDGAME_QUIET, 3);
}

#[test]
fn perft_midgame_with_reserves_and_captures() {
    let mut pos = engine("focus");
    play_line(&mut pos, MIDGAME_RESERVES).unwrap();
    // The position is what its name says.
    assert!(pos.reserve(Seat::BLACK) > 0 && pos.reserve(Seat::WHITE) > 0);
    assert!(pos.captured_by(Seat::WHITE) > 0 && pos.captured_by(Seat::BLACK) > 0);
    assert_eq!(pos.side_to_move(), Seat::BLACK);
    cross_check("focus", standard(), MIDGAME_RESERVES, 3);
}

#[test]
fn perft_midgame_with_full_stacks() {
    let mut pos = engine("focus");
    play_line(&mut pos, MIDGAME_TALL).unwrap();
    let full = pos.stacks().filter(|(_, s)| s.height() == 5).count();
    assert!(full >= 2, "{pos}");
    cross_check("focus", standard(), MIDGAME_TALL, 3);
}

#[test]
fn perft_6x6_height_4() {
    let reference = (
        Naive::new(&BOARD_6, WHITE_6, BLACK_6, Seat::WHITE),
        NaiveGame {
            limit: 4,
            repetition: 3,
        },
    );
    cross_check("focus-6x6", reference, "", 4);
}

/// Repetition inside the tree: after `d2-d3` the position recurs every four plies; from ply 7
/// a depth-3 search reaches its third occurrence (ply 9), where the game ends with no moves.
#[test]
fn perft_sees_threefold_repetition() {
    let line = "d2-d3 e7-f7 d3-d4 f7-e7 d4-d3 e7-f7 d3-d4";
    let mut pos = engine("focus");
    play_line(&mut pos, line).unwrap();
    let mut ended = pos.clone();
    play_line(&mut ended, "f7-e7 d4-d3").unwrap();
    assert!(ended.is_game_over(), "{ended}");
    cross_check("focus", standard(), line, 3);
}
