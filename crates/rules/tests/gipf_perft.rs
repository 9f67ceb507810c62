//! GIPF perft from the start of every variant, cross-checked against a deliberately naive
//! reference move generator written here from rules.md alone (cube coordinates from the §6.1
//! formula, hash maps, brute-force row search — nothing shared with the engine but the rules
//! file and the public accessors used to read a position).
mod gipf_support;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use boardcraft_rules::{
    Position, Seat,
    gipf::{
        Action, GipfEntry, GipfMove, GipfPosition, GipfRemoval, GipfReturn, GipfRules, LoseWhen,
        Point, Spot, geometry::geometry,
    },
    perft::perft,
};
use gipf_support::*;

type Cube = (i8, i8, i8);

const DIRS: [Cube; 6] = [
    (0, 1, -1),
    (0, -1, 1),
    (1, 0, -1),
    (-1, 0, 1),
    (1, -1, 0),
    (-1, 1, 0),
];

fn add(a: Cube, b: Cube) -> Cube {
    (a.0 + b.0, a.1 + b.1, a.2 + b.2)
}

/// The board from the formula of rules.md §6.1.
struct Geo {
    name: HashMap<Cube, String>,
    cube: HashMap<String, Cube>,
    spots: BTreeSet<Cube>,
    dots: Vec<Cube>,
    lines: Vec<Vec<Cube>>,
}

impl Geo {
    fn new() -> Geo {
        let mut g = Geo {
            name: HashMap::new(),
            cube: HashMap::new(),
            spots: BTreeSet::new(),
            dots: Vec::new(),
            lines: Vec::new(),
        };
        for col in 0..9i8 {
            let x = col - 4;
            for n in 1..=(9 - x.abs()) {
                let y = n - 1 + (-4i8).max(-4 - x);
                let c = (x, y, -x - y);
                let name = format!("{}{}", (b'a' + col as u8) as char, n);
                g.name.insert(c, name.clone());
                g.cube.insert(name, c);
                if c.0.abs().max(c.1.abs()).max(c.2.abs()) <= 3 {
                    g.spots.insert(c);
                } else {
                    g.dots.push(c);
                }
            }
        }
        for d in [DIRS[0], DIRS[2], DIRS[4]] {
            for &s in &g.spots {
                if !g.spots.contains(&add(s, (-d.0, -d.1, -d.2))) {
                    let mut line = vec![];
                    let mut c = s;
                    while g.spots.contains(&c) {
                        line.push(c);
                        c = add(c, d);
                    }
                    g.lines.push(line);
                }
            }
        }
        assert_eq!((g.spots.len(), g.dots.len(), g.lines.len()), (37, 24, 21));
        g
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum RefAction {
    Entry { dot: Cube, dir: Cube, gipf: bool },
    Step { from: Cube, dir: Cube },
}

#[derive(Clone, Debug)]
struct RefMove {
    pre: Option<BTreeSet<Cube>>,
    action: Option<RefAction>,
    post: BTreeSet<Cube>,
}

/// A move as comparable text: (pre-removal, action, removal).
type Key = (Option<Vec<String>>, String, Vec<String>);

#[derive(Clone)]
struct Ref<'g> {
    g: &'g Geo,
    rules: Arc<GipfRules>,
    board: HashMap<Cube, (Seat, bool)>,
    reserve: [u32; 2],
    gipf_reserve: [u32; 2],
    moved: [bool; 2],
    basic: [bool; 2],
    to_move: Seat,
    pending: bool,
    settled: BTreeSet<usize>,
}

impl<'g> Ref<'g> {
    fn from_engine(g: &'g Geo, pos: &GipfPosition) -> Ref<'g> {
        let mut board = HashMap::new();
        for s in Spot::all() {
            if let Some(p) = pos.piece_at(s) {
                board.insert(
                    g.cube[&s.to_string()],
                    (p.color, p.kind == boardcraft_rules::gipf::PieceKind::Gipf),
                );
            }
        }
        let settled = pos
            .settled_rows()
            .iter()
            .map(|set| {
                let names: BTreeSet<String> = set.iter().map(|s| s.to_string()).collect();
                g.lines
                    .iter()
                    .position(|l| {
                        l.iter().map(|c| g.name[c].clone()).collect::<BTreeSet<_>>() == names
                    })
                    .unwrap()
            })
            .collect();
        Ref {
            g,
            rules: pos.rules().clone(),
            board,
            reserve: Seat::BOTH.map(|c| pos.reserve(c)),
            gipf_reserve: Seat::BOTH.map(|c| pos.gipf_reserve(c)),
            moved: Seat::BOTH.map(|c| pos.has_moved(c)),
            basic: Seat::BOTH.map(|c| pos.has_entered_basic(c)),
            to_move: pos.side_to_move(),
            pending: pos.pending_removal().is_some(),
            settled,
        }
    }

    fn key(&self, m: &RefMove) -> Key {
        let names = |s: &BTreeSet<Cube>| {
            let mut v: Vec<String> = s.iter().map(|c| self.g.name[c].clone()).collect();
            v.sort();
            v
        };
        let action = match &m.action {
            None => String::new(),
            Some(RefAction::Entry { dot, dir, gipf }) => format!(
                "{}{}-{}",
                if *gipf { "G" } else { "" },
                self.g.name[dot],
                self.g.name[&add(*dot, *dir)]
            ),
            Some(RefAction::Step { from, dir }) => {
                format!("{}-{}", self.g.name[from], self.g.name[&add(*from, *dir)])
            }
        };
        (m.pre.as_ref().map(names), action, names(&m.post))
    }

    fn optional(&self, taker: Seat, owner: Seat) -> bool {
        let rule = if taker == owner {
            self.rules.own_gipf_removal
        } else {
            self.rules.enemy_gipf_removal
        };
        rule == GipfRemoval::Optional
    }

    /// Rows of `owner` on unsettled lines: (line, whole run).
    fn rows(
        &self,
        board: &HashMap<Cube, (Seat, bool)>,
        settled: &BTreeSet<usize>,
        owner: Seat,
    ) -> Vec<(usize, Vec<Cube>)> {
        let mut rows = vec![];
        for (li, line) in self.g.lines.iter().enumerate() {
            if settled.contains(&li) {
                continue;
            }
            for chunk in line.split(|c| !board.contains_key(c)) {
                let longest = chunk
                    .split(|c| board[c].0 != owner)
                    .map(<[Cube]>::len)
                    .max()
                    .unwrap_or(0);
                if longest >= 4 {
                    rows.push((li, chunk.to_vec()));
                }
            }
        }
        rows
    }

    /// Every distinct set of spots `owner`'s removal step can take.
    fn removals(&self, owner: Seat) -> BTreeSet<BTreeSet<Cube>> {
        let mut out = BTreeSet::new();
        self.removal_rec(&self.board, &self.settled, owner, BTreeSet::new(), &mut out);
        out
    }

    fn removal_rec(
        &self,
        board: &HashMap<Cube, (Seat, bool)>,
        settled: &BTreeSet<usize>,
        owner: Seat,
        removed: BTreeSet<Cube>,
        out: &mut BTreeSet<BTreeSet<Cube>>,
    ) {
        let rows = self.rows(board, settled, owner);
        if rows.is_empty() {
            out.insert(removed);
            return;
        }
        for (li, run) in rows {
            let optional: Vec<Cube> = run
                .iter()
                .copied()
                .filter(|c| board[c].1 && self.optional(owner, board[c].0))
                .collect();
            for keep_bits in 0..(1u32 << optional.len()) {
                let keep: Vec<Cube> = (0..optional.len())
                    .filter(|i| keep_bits & (1 << i) != 0)
                    .map(|i| optional[i])
                    .collect();
                let take: Vec<Cube> = run.iter().copied().filter(|c| !keep.contains(c)).collect();
                let mut settled2 = settled.clone();
                let mut board2 = board.clone();
                let mut removed2 = removed.clone();
                if take.is_empty() {
                    settled2.insert(li);
                } else {
                    for c in &take {
                        board2.remove(c);
                        removed2.insert(*c);
                    }
                    settled2.retain(|&l| !self.g.lines[l].iter().any(|c| take.contains(c)));
                }
                self.removal_rec(&board2, &settled2, owner, removed2, out);
            }
        }
    }

    fn remove(&mut self, owner: Seat, spots: &BTreeSet<Cube>) {
        for c in spots {
            let (color, gipf) = self.board.remove(c).unwrap();
            if color == owner {
                match (gipf, self.rules.own_gipf_returns_as) {
                    (false, _) => self.reserve[owner.index()] += 1,
                    (true, GipfReturn::TwoBasicPieces) => self.reserve[owner.index()] += 2,
                    (true, GipfReturn::GipfPiece) => self.gipf_reserve[owner.index()] += 1,
                }
            }
        }
        self.settled
            .retain(|&l| !self.g.lines[l].iter().any(|c| spots.contains(c)));
        let all: BTreeSet<usize> = BTreeSet::new();
        for (li, _) in self.rows(&self.board.clone(), &all, owner) {
            self.settled.insert(li);
        }
    }

    fn first_turn_gipf(&self, me: Seat) -> bool {
        self.rules.gipf_first_turn && !self.moved[me.index()]
    }

    /// Plays an action on a copy; returns it and the spots that changed.
    fn act(&self, a: &RefAction) -> Option<(Ref<'g>, Vec<Cube>)> {
        let me = self.to_move;
        let (start, dir) = match a {
            RefAction::Entry { dot, dir, .. } => (add(*dot, *dir), *dir),
            RefAction::Step { from, dir } => (add(*from, *dir), *dir),
        };
        if !self.g.spots.contains(&start) {
            return None;
        }
        let mut ray = vec![];
        let mut c = start;
        while self.g.spots.contains(&c) {
            ray.push(c);
            c = add(c, dir);
        }
        let k = ray.iter().position(|c| !self.board.contains_key(c))?;
        let mut next = self.clone();
        for i in (0..k).rev() {
            let p = next.board.remove(&ray[i]).unwrap();
            next.board.insert(ray[i + 1], p);
        }
        let mut changed: Vec<Cube> = ray[..=k].to_vec();
        match a {
            RefAction::Entry { gipf, .. } => {
                next.board.insert(ray[0], (me, *gipf));
                let i = me.index();
                match (*gipf, self.rules.gipf_entry) {
                    (false, _) => {
                        next.reserve[i] -= 1;
                        next.basic[i] = true;
                    }
                    (true, GipfEntry::FromGipfReserve) => next.gipf_reserve[i] -= 1,
                    (true, _) => next.reserve[i] -= 2,
                }
            }
            RefAction::Step { from, .. } => {
                let p = next.board.remove(from).unwrap();
                next.board.insert(ray[0], p);
                changed.push(*from);
            }
        }
        next.moved[me.index()] = true;
        next.settled
            .retain(|&l| !self.g.lines[l].iter().any(|c| changed.contains(c)));
        Some((next, changed))
    }

    fn actions(&self) -> Vec<RefAction> {
        let me = self.to_move;
        let i = me.index();
        let mut kinds = vec![];
        if self.reserve[i] >= 1 && !self.first_turn_gipf(me) {
            kinds.push(false);
        }
        let gipf_ok = !(self.rules.gipf_until_first_basic && self.basic[i])
            && match self.rules.gipf_entry {
                GipfEntry::Never => false,
                GipfEntry::FromTwoBasic => self.reserve[i] >= 2,
                GipfEntry::FromGipfReserve => self.gipf_reserve[i] >= 1,
            };
        if gipf_ok {
            kinds.push(true);
        }
        let mut out = vec![];
        for &dot in &self.g.dots {
            for dir in DIRS {
                for &gipf in &kinds {
                    let a = RefAction::Entry { dot, dir, gipf };
                    if self.act(&a).is_some() {
                        out.push(a);
                    }
                }
            }
        }
        if self.rules.board_steps && !self.first_turn_gipf(me) {
            for (&from, &(color, _)) in &self.board {
                for dir in DIRS {
                    let a = RefAction::Step { from, dir };
                    if color == me && self.act(&a).is_some() {
                        out.push(a);
                    }
                }
            }
        }
        out
    }

    /// After a pending decision: does the game end before the action?
    fn ends_before_action(&self) -> bool {
        let me = self.to_move;
        let lacks = |c: Seat| {
            self.rules.lose_without_gipf
                && self.moved[c.index()]
                && !self.board.values().any(|&(col, g)| col == c && g)
        };
        let pieces = |c: Seat| {
            self.board.values().filter(|(col, _)| *col == c).count() as u32
                + self.reserve[c.index()]
                + self.gipf_reserve[c.index()]
        };
        lacks(me)
            || lacks(me.other())
            || (self.rules.lose_when == LoseWhen::NoPiecesLeft
                && (pieces(me) == 0 || pieces(me.other()) == 0))
            || (self.rules.lose_when == LoseWhen::ReserveEmpty
                && self.reserve[me.index()] + self.gipf_reserve[me.index()] == 0)
            || self.actions().is_empty()
    }

    fn moves(&self) -> Vec<RefMove> {
        let me = self.to_move;
        let mut out = vec![];
        let from = |s: &Ref, pre: Option<BTreeSet<Cube>>, out: &mut Vec<RefMove>| {
            for a in s.actions() {
                let (next, _) = s.act(&a).unwrap();
                for post in next.removals(me) {
                    out.push(RefMove {
                        pre: pre.clone(),
                        action: Some(a.clone()),
                        post,
                    });
                }
            }
        };
        if self.pending {
            for pre in self.removals(me) {
                let mut s = self.clone();
                s.remove(me, &pre);
                s.pending = false;
                if s.ends_before_action() {
                    out.push(RefMove {
                        pre: Some(pre),
                        action: None,
                        post: BTreeSet::new(),
                    });
                } else {
                    from(&s, Some(pre), &mut out);
                }
            }
        } else {
            from(self, None, &mut out);
        }
        out
    }

    /// Plays a move that ends no game (enough for shallow perft from the start).
    fn play(&self, m: &RefMove) -> Ref<'g> {
        assert!(m.pre.is_none() && !self.pending);
        let me = self.to_move;
        let (mut next, _) = self.act(m.action.as_ref().unwrap()).unwrap();
        next.remove(me, &m.post);
        let theirs = next.removals(me.other());
        if theirs.len() == 1 {
            let only = theirs.into_iter().next().unwrap();
            next.remove(me.other(), &only);
        } else {
            next.pending = true;
        }
        next.to_move = me.other();
        next
    }

    fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => return 1,
            1 => return self.moves().len() as u64,
            _ => {}
        }
        self.moves()
            .iter()
            .map(|m| self.play(m).perft(depth - 1))
            .sum()
    }
}

fn engine_key(pos: &GipfPosition, m: &GipfMove) -> Key {
    let names = |s: boardcraft_rules::gipf::SpotSet| {
        let mut v: Vec<String> = s.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    };
    let action = match m.action() {
        None => String::new(),
        Some(Action::Entry { kind, .. }) => {
            let (dot, spot) = m.action().unwrap().entry_points().unwrap();
            let g = if kind == boardcraft_rules::gipf::PieceKind::Gipf {
                "G"
            } else {
                ""
            };
            format!("{g}{dot}-{spot}")
        }
        Some(Action::Step { from, dir }) => {
            let Some(Point::Spot(to)) = geometry().neighbour(from, dir) else {
                panic!()
            };
            format!("{from}-{to}")
        }
    };
    let _ = pos;
    (m.pre_removal().map(names), action, names(m.removal()))
}

fn compare_moves(g: &Geo, pos: &GipfPosition, context: &str) {
    let reference = Ref::from_engine(g, pos);
    let expected: BTreeSet<Key> = reference.moves().iter().map(|m| reference.key(m)).collect();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let got: BTreeSet<Key> = moves.iter().map(|m| engine_key(pos, m)).collect();
    assert_eq!(got.len(), moves.len(), "{context}: duplicate moves");
    assert_eq!(got, expected, "{context}\n{pos}");
}

fn perft_against_reference(names: &[&str], max_depth: u32) {
    let g = Geo::new();
    for name in names {
        let mut pos = start(name);
        let reference = Ref::from_engine(&g, &pos);
        for depth in 1..=max_depth {
            assert_eq!(
                perft(&mut pos, depth),
                reference.perft(depth),
                "{name} depth {depth}"
            );
        }
    }
}

/// Depth 3 from the start of the variants with up to 51 moves a ply (a few seconds for the
/// naive reference).
#[test]
fn perft_matches_the_reference_to_depth_3() {
    perft_against_reference(
        &[
            "gipf-basic",
            "gipf-standard",
            "gipf-tournament",
            "gipf-steps",
        ],
        3,
    );
}

/// `gipf-steps-gipf-pieces` has 93 moves a ply: depth 2 by default, depth 3 (829 302 leaves, about
/// 10 s for the reference) on request: `cargo test -p boardcraft-rules --test gipf_perft -- --ignored`.
#[test]
fn perft_steps_gipf_pieces_matches_the_reference_to_depth_2() {
    perft_against_reference(&["gipf-steps-gipf-pieces"], 2);
}

#[test]
#[ignore = "slow reference; run with --ignored"]
fn perft_steps_gipf_pieces_matches_the_reference_to_depth_3() {
    perft_against_reference(&["gipf-steps-gipf-pieces"], 3);
}

/// The full legal move lists (with every removal choice and pending decision) agree with the
/// reference along random games that reach rows, GIPF-piece choices and game ends.
#[test]
fn move_lists_match_the_reference_along_random_games() {
    let g = Geo::new();
    let mut positions_with_choices = 0;
    let mut pending = 0;
    for (v, name) in VARIANTS.iter().enumerate() {
        for seed in 0..4u64 {
            let mut pos = start(name);
            let mut x = 0x2545_F491_4F6C_DD1D ^ (seed * 31 + v as u64);
            let mut moves = Vec::new();
            while pos.outcome().is_none() && pos.ply() < 150 {
                compare_moves(&g, &pos, &format!("{name} seed {seed} ply {}", pos.ply()));
                pos.legal_moves(&mut moves);
                positions_with_choices +=
                    usize::from(moves.iter().any(|m| !m.removal().is_empty()));
                pending += usize::from(pos.pending_removal().is_some());
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let mv = moves[(x >> 7) as usize % moves.len()];
                pos.play(&mv).unwrap();
            }
        }
    }
    // The games must actually reach the interesting cases.
    assert!(positions_with_choices > 20, "{positions_with_choices}");
    assert!(pending > 0, "no pending decision reached");
}

/// Throughput in release: `cargo test --release -p boardcraft-rules --test gipf_perft -- --ignored --nocapture gipf_perft_speed`.
#[test]
#[ignore = "speed report, run in release"]
fn gipf_perft_speed() {
    for name in VARIANTS {
        let mut pos = start(name);
        let t = std::time::Instant::now();
        let leaves = perft(&mut pos, 4);
        let secs = t.elapsed().as_secs_f64();
        eprintln!(
            "{name}: perft 4 = {leaves} leaves in {secs:.2} s = {:.1} M leaves/s",
            leaves as f64 / secs / 1e6
        );
    }
}
