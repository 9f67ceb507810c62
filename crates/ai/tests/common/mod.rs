//! Toy games implementing `Position`, for testing the search before (and besides) the real
//! families: small enough to solve exactly, so the tests know the right answers.
#![allow(dead_code)]
use std::fmt;

use boardcraft_ai::{Evaluate, rng::mix};
use boardcraft_rules::{
    EndReason, IllegalMove, IllegalReason, NotationError, Outcome, Position, Seat,
};

/// Subtraction Nim: take 1–3 counters from one pile; whoever takes the last one wins. The side
/// to move wins iff the pile is not a multiple of 4, by taking `pile % 4`.
#[derive(Clone, Debug)]
pub struct Nim {
    pub pile: u32,
    pub ply: u32,
}

impl Nim {
    pub fn new(pile: u32) -> Self {
        Nim { pile, ply: 0 }
    }
}

impl Position for Nim {
    type Move = u32;
    type Undo = ();
    type Effect = ();

    fn side_to_move(&self) -> Seat {
        if self.ply.is_multiple_of(2) {
            Seat::WHITE
        } else {
            Seat::BLACK
        }
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn legal_moves(&self, moves: &mut Vec<u32>) {
        moves.clear();
        moves.extend((1..=3).filter(|&k| k <= self.pile));
    }
    fn play(&mut self, mv: &u32) -> Result<(), IllegalMove> {
        if !self.is_legal(mv) {
            return Err(IllegalMove {
                notation: mv.to_string(),
                reason: IllegalReason::Other("too many".into()),
            });
        }
        self.play_unchecked(mv);
        Ok(())
    }
    fn play_unchecked(&mut self, mv: &u32) {
        self.pile -= mv;
        self.ply += 1;
    }
    fn undo(&mut self, mv: &u32, _: ()) {
        self.pile += mv;
        self.ply -= 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.pile == 0).then(|| Outcome::win(self.side_to_move().other(), EndReason::NoLegalMoves))
    }
    fn hash(&self) -> u64 {
        mix(u64::from(self.pile) * 2 + u64::from(self.ply % 2))
    }
    fn format_move(&self, mv: &u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, text: &str) -> Result<u32, NotationError> {
        let k: u32 = text
            .parse()
            .map_err(|_| NotationError::syntax(text, "a number"))?;
        if self.is_legal(&k) {
            Ok(k)
        } else {
            Err(NotationError::illegal(
                text,
                IllegalReason::Other("1-3".into()),
            ))
        }
    }
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pile {}", self.pile)
    }
}

impl Evaluate for Nim {
    fn evaluate(&self) -> i32 {
        0
    }
}

/// m,n,k-game: `k` in a row on an `n`×`n` board; White (X) moves first. 3,3,3 is tic-tac-toe
/// (a draw); 4,4,4 is a draw too but far too big to solve within the tests' budgets.
#[derive(Clone, Debug)]
pub struct Mnk {
    pub n: usize,
    pub k: usize,
    pub cells: Vec<Option<Seat>>,
    pub ply: u32,
    pub winner: Option<Seat>,
}

impl Mnk {
    pub fn new(n: usize, k: usize) -> Self {
        Mnk {
            n,
            k,
            cells: vec![None; n * n],
            ply: 0,
            winner: None,
        }
    }

    /// Builds a position from rows written top to bottom with `X`, `O` and `.`; the side to
    /// move follows from the counts (X first).
    pub fn from_rows(k: usize, rows: &[&str]) -> Self {
        let n = rows.len();
        let mut g = Mnk::new(n, k);
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                g.cells[r * n + c] = match ch {
                    'X' => Some(Seat::WHITE),
                    'O' => Some(Seat::BLACK),
                    _ => None,
                };
            }
        }
        g.ply = g.cells.iter().filter(|c| c.is_some()).count() as u32;
        g.winner = (0..n * n)
            .find(|&i| g.line_through(i))
            .and_then(|i| g.cells[i]);
        g
    }

    fn line_through(&self, at: usize) -> bool {
        let Some(who) = self.cells[at] else {
            return false;
        };
        let (r, c) = ((at / self.n) as i32, (at % self.n) as i32);
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            let mut count = 1;
            for sign in [1, -1] {
                let (mut rr, mut cc) = (r + sign * dr, c + sign * dc);
                while rr >= 0
                    && cc >= 0
                    && (rr as usize) < self.n
                    && (cc as usize) < self.n
                    && self.cells[rr as usize * self.n + cc as usize] == Some(who)
                {
                    count += 1;
                    rr += sign * dr;
                    cc += sign * dc;
                }
            }
            if count >= self.k {
                return true;
            }
        }
        false
    }
}

impl Position for Mnk {
    type Move = usize;
    type Undo = Option<Seat>;
    type Effect = ();

    fn side_to_move(&self) -> Seat {
        if self.ply.is_multiple_of(2) {
            Seat::WHITE
        } else {
            Seat::BLACK
        }
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn legal_moves(&self, moves: &mut Vec<usize>) {
        moves.clear();
        if self.outcome().is_none() {
            moves.extend((0..self.cells.len()).filter(|&i| self.cells[i].is_none()));
        }
    }
    fn play(&mut self, mv: &usize) -> Result<(), IllegalMove> {
        if !self.is_legal(mv) {
            return Err(IllegalMove {
                notation: mv.to_string(),
                reason: IllegalReason::Other("occupied".into()),
            });
        }
        self.play_unchecked(mv);
        Ok(())
    }
    fn play_unchecked(&mut self, mv: &usize) -> Option<Seat> {
        let before = self.winner;
        self.cells[*mv] = Some(self.side_to_move());
        self.ply += 1;
        if self.line_through(*mv) {
            self.winner = self.cells[*mv];
        }
        before
    }
    fn undo(&mut self, mv: &usize, before: Option<Seat>) {
        self.cells[*mv] = None;
        self.ply -= 1;
        self.winner = before;
    }
    fn outcome(&self) -> Option<Outcome> {
        if let Some(w) = self.winner {
            return Some(Outcome::win(w, EndReason::TargetFilled));
        }
        self.cells
            .iter()
            .all(Option::is_some)
            .then(|| Outcome::draw(EndReason::NoLegalMoves))
    }
    fn hash(&self) -> u64 {
        let mut h = mix(self.ply as u64 % 2 + 7);
        for (i, c) in self.cells.iter().enumerate() {
            if let Some(c) = c {
                h ^= mix((i as u64) * 3 + c.index() as u64 + 11);
            }
        }
        h
    }
    fn format_move(&self, mv: &usize) -> String {
        format!(
            "{}{}",
            (b'a' + (mv % self.n) as u8) as char,
            self.n - mv / self.n
        )
    }
    fn parse_move(&self, text: &str) -> Result<usize, NotationError> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
            .into_iter()
            .find(|m| self.format_move(m) == text)
            .ok_or_else(|| {
                NotationError::illegal(text, IllegalReason::Other("not an empty cell".into()))
            })
    }
}

impl fmt::Display for Mnk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.n {
            for c in 0..self.n {
                let ch = match self.cells[r * self.n + c] {
                    Some(Seat::WHITE) => 'X',
                    Some(_) => 'O',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Evaluate for Mnk {
    /// Lines still open for the side to move minus those open for the opponent.
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let n = self.n as i32;
        let k = self.k as i32;
        let mut score = 0;
        for r in 0..n {
            for c in 0..n {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                    if er < 0 || ec < 0 || er >= n || ec >= n {
                        continue;
                    }
                    let (mut mine, mut theirs) = (0, 0);
                    for i in 0..k {
                        match self.cells[((r + dr * i) * n + c + dc * i) as usize] {
                            Some(x) if x == me => mine += 1,
                            Some(_) => theirs += 1,
                            None => {}
                        }
                    }
                    if theirs == 0 {
                        score += 1 << (2 * mine);
                    }
                    if mine == 0 {
                        score -= 1 << (2 * theirs);
                    }
                }
            }
        }
        score
    }
}

/// Whether the side to move can force a win within `plies` plies (odd: the winning move is
/// its own), by plain minimax. Only for small trees.
pub fn wins_within<P: Position>(pos: &mut P, plies: u32) -> bool {
    let me = pos.side_to_move();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.iter().any(|mv| {
        let undo = pos.play_unchecked(mv);
        let won = match pos.outcome() {
            Some(o) => o.winner() == Some(me),
            None if plies >= 3 => {
                let mut replies = Vec::new();
                pos.legal_moves(&mut replies);
                replies.iter().all(|r| {
                    let u = pos.play_unchecked(r);
                    let w = match pos.outcome() {
                        Some(o) => o.winner() == Some(me),
                        None => wins_within(pos, plies - 2),
                    };
                    pos.undo(r, u);
                    w
                })
            }
            None => false,
        };
        pos.undo(mv, undo);
        won
    })
}

/// Checks that `pos` is a forced win in exactly `plies` plies (not fewer) by brute force, then
/// that the search finds it: the score says so and the chosen move keeps the win.
pub fn assert_search_finds_forced_win<P: Position + Evaluate>(pos: &P, plies: u32) {
    let mut p = pos.clone();
    assert!(
        wins_within(&mut p, plies),
        "not a forced win in {plies}:\n{pos}"
    );
    if plies >= 3 {
        assert!(
            !wins_within(&mut p, plies - 2),
            "already a win in {}:\n{pos}",
            plies - 2
        );
    }
    let r = boardcraft_ai::think(
        pos,
        boardcraft_ai::Budget::depth(plies + 2).with_nodes(2_000_000),
    );
    assert_eq!(
        r.score.plies_to_result(),
        Some(plies as i32),
        "score {} in\n{pos}",
        r.score
    );
    let mv = r.best_move.expect("a move");
    let mut after = pos.clone();
    let me = pos.side_to_move();
    after.play(&mv).unwrap();
    let kept = match after.outcome() {
        Some(o) => o.winner() == Some(me),
        None => {
            let mut replies = Vec::new();
            after.legal_moves(&mut replies);
            replies.iter().all(|r| {
                let mut a = after.clone();
                a.play(r).unwrap();
                a.outcome().is_some_and(|o| o.winner() == Some(me))
                    || wins_within(&mut a, plies - 2)
            })
        }
    };
    assert!(
        kept,
        "{} throws the win away in\n{pos}",
        pos.format_move(&mv)
    );
}

/// The position after `plies` random legal moves from `start` (fewer if the game ends).
pub fn random_playout<P: Position>(start: &P, plies: u64, seed: u64) -> P {
    let mut rng = boardcraft_ai::rng::SplitMix64::new(seed);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize].clone();
        pos.play(&mv).unwrap();
    }
    pos
}

/// The search (and the greedy baseline) return a legal move for `pos` — or none exactly when
/// the game is over — and a legal principal variation, whatever the budget, noise and seed.
pub fn check_legal_answer<P: Position + Evaluate>(pos: &P, nodes: u64, noise: i32, seed: u64) {
    use boardcraft_ai::{Budget, Search, SearchConfig, greedy};
    let cfg = SearchConfig::new(Budget::nodes(nodes))
        .with_noise(noise)
        .with_seed(seed)
        .with_contempt(noise / 4);
    let r = Search::new(pos, cfg).run();
    match &r.best_move {
        Some(mv) => assert!(pos.is_legal(mv), "illegal {mv:?} in\n{pos}"),
        None => assert!(pos.is_game_over(), "no move in a live position\n{pos}"),
    }
    let mut line = pos.clone();
    for mv in &r.pv {
        line.play(mv).expect("the principal variation is legal");
    }
    if let Some(mv) = greedy(pos, seed).best_move {
        assert!(pos.is_legal(&mv));
    }
}

/// A search run in slices returns what the same search run at once returns.
pub fn check_sliced_equals_unsliced<P: Position + Evaluate>(
    pos: &P,
    nodes: u64,
    slice: u64,
    noise: i32,
) {
    use boardcraft_ai::{Budget, Progress, Search, SearchConfig};
    let cfg = SearchConfig::new(Budget::nodes(nodes))
        .with_noise(noise)
        .with_seed(7);
    let whole = Search::new(pos, cfg.clone()).run();
    let mut search = Search::new(pos, cfg);
    let sliced = loop {
        if let Progress::Done(r) = search.step(slice) {
            break r;
        }
    };
    assert_eq!(
        (
            &whole.best_move,
            whole.score,
            whole.depth,
            whole.nodes,
            &whole.pv
        ),
        (
            &sliced.best_move,
            sliced.score,
            sliced.depth,
            sliced.nodes,
            &sliced.pv
        )
    );
}
