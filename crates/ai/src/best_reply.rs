//! Best-reply search (Schadd and Winands, *Best Reply Search for Multiplayer Games*, IEEE TCIAIG
//! 2011) for games of more than two seats, as a two-seat view of the game that the ordinary
//! search ([`crate::Search`]) runs on unchanged.
//!
//! The searching seat (the root) moves; then the single strongest reply among the moves of
//! *all* the other seats answers it, as if the others passed; then the root moves again. The
//! view has two sides, the root and "the others", so alpha-beta, the table and every pruning of
//! the search apply as they are. Against the paranoid search (every other seat moving in turn,
//! all against the root), a search of the same depth sees twice as many of the root's own moves
//! at four seats and three times as many at six, and never assumes that the others play a
//! whole round of moves against it — in a race game mostly they race. Its authors found it the
//! strongest of max^n, paranoid and best-reply search in Chinese checkers, Focus and Rolit.
//!
//! What a position may do out of turn (whose turn a skipped seat hands on to, which seats still
//! play) is the rules' ([`OutOfTurn`]). With two seats the view is the game itself: the only
//! reply is the opponent's move.
use std::fmt;

use boardcraft_rules::{
    EndReason, IllegalMove, NotationError, OutOfTurn, Outcome, Places, Position, Seat,
};

use crate::{eval::Evaluate, rng::mix};

/// A move of the view: the seat that makes it and its move in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reply<M> {
    pub seat: Seat,
    pub mv: M,
}

/// The turns skipped around one move (at most one round of them).
#[derive(Clone, Copy)]
struct Skips<S> {
    skips: [Option<S>; Seat::MAX],
    len: usize,
}

impl<S: Copy> Skips<S> {
    const NONE: Skips<S> = Skips {
        skips: [None; Seat::MAX],
        len: 0,
    };
}

/// What undoing a [`Reply`] needs: the turns skipped before it, the game's own undo, and the
/// turns skipped after it back to the root.
pub struct ReplyUndo<P: OutOfTurn> {
    before: Skips<P::Skip>,
    undo: P::Undo,
    after: Skips<P::Skip>,
}

/// A game of any number of seats as seen by best-reply search from the seat that was to move
/// when it was made: seat 0 of the view is that seat, seat 1 every other seat together.
#[derive(Clone, Debug)]
pub struct BestReply<P> {
    pos: P,
    root: Seat,
    /// The seats whose places were settled when the view was made (bit per seat): those
    /// places are taken, so the root's result is its place among the others.
    settled: u8,
    /// Mixed into the hash: the view's values belong to its root.
    key: u64,
}

impl<P: OutOfTurn> BestReply<P> {
    /// The view from the side to move of `position`.
    pub fn new(position: &P) -> Self {
        let root = position.side_to_move();
        let settled = Seat::all(position.seat_count())
            .filter(|&s| position.settled_place(s).is_some())
            .fold(0u8, |m, s| m | 1 << s.index());
        BestReply {
            pos: position.clone(),
            root,
            settled,
            key: mix(0x4252_5300 ^ root.index() as u64),
        }
    }

    /// The game position.
    pub fn game(&self) -> &P {
        &self.pos
    }

    fn root_to_move(&self) -> bool {
        self.pos.side_to_move() == self.root
    }

    /// Skips turns until `seat` is to move (or the game is over, or a round has gone by).
    fn skip_to(&mut self, seat: Seat) -> Skips<P::Skip> {
        let mut skips = Skips::NONE;
        while skips.len < self.pos.seat_count()
            && self.pos.side_to_move() != seat
            && !self.pos.is_game_over()
        {
            skips.skips[skips.len] = Some(self.pos.skip_turn());
            skips.len += 1;
        }
        skips
    }

    fn unskip(&mut self, skips: &Skips<P::Skip>) {
        for skip in skips.skips[..skips.len].iter().rev() {
            self.pos
                .unskip_turn(skip.expect("a skip recorded for every counted turn"));
        }
    }

    /// The game's places as the root's result: the root as seat 0 (the view's seat), then the
    /// other seats that were still playing when the view was made, each ranked among those
    /// seats only. The places already settled then are no longer at stake: once three of six
    /// have finished, fourth place is the best the root can reach, and it is scored as first.
    /// (Scored among all six it would be a loss, worse than any unfinished position, and a
    /// seat would rather never finish.)
    fn seen_from_root(&self, places: &Places) -> Places {
        let mut open: Vec<u8> = Seat::all(places.seats())
            .filter(|&s| s == self.root || self.settled & 1 << s.index() == 0)
            .map(|s| places.of(s))
            .collect();
        let root_at = Seat::all(places.seats())
            .filter(|&s| s == self.root || self.settled & 1 << s.index() == 0)
            .position(|s| s == self.root)
            .expect("the root is kept");
        open.swap(0, root_at);
        if open.len() < 2 {
            open = places.as_slice().to_vec();
            open.swap(0, self.root.index());
        }
        // Standard competition ranking among the seats kept.
        let ranked: Vec<u8> = open
            .iter()
            .map(|&p| 1 + open.iter().filter(|&&q| q < p).count() as u8)
            .collect();
        Places::new(&ranked).expect("competition ranks are valid places")
    }

    /// The places once the root's own is settled while others still play: the seats that
    /// finished or went out keep theirs, those still playing share the place after the
    /// finishers.
    fn settled_places(&self) -> Places {
        let n = self.pos.seat_count();
        let settled: Vec<Option<u8>> = Seat::all(n).map(|s| self.pos.settled_place(s)).collect();
        let mut finished = 0;
        while settled.contains(&Some(finished + 1)) {
            finished += 1;
        }
        let places: Vec<u8> = settled.iter().map(|p| p.unwrap_or(finished + 1)).collect();
        let places = Places::new(&places).unwrap_or_else(|| Places::shared(n));
        self.seen_from_root(&places)
    }
}

impl<P: OutOfTurn + fmt::Display> fmt::Display for BestReply<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.pos, f)
    }
}

impl<P: OutOfTurn> Position for BestReply<P> {
    type Move = Reply<P::Move>;
    type Undo = ReplyUndo<P>;
    type Effect = P::Effect;

    fn side_to_move(&self) -> Seat {
        if self.root_to_move() {
            Seat::WHITE
        } else {
            Seat::BLACK
        }
    }

    fn seat_name(&self, seat: Seat) -> String {
        if seat == Seat::WHITE {
            self.pos.seat_name(self.root)
        } else {
            "the others".to_owned()
        }
    }

    fn ply(&self) -> u32 {
        self.pos.ply()
    }

    fn legal_moves(&self, moves: &mut Vec<Self::Move>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        let mut own = Vec::new();
        if self.root_to_move() {
            self.pos.legal_moves(&mut own);
            moves.extend(own.into_iter().map(|mv| Reply {
                seat: self.root,
                mv,
            }));
            return;
        }
        for seat in Seat::all(self.pos.seat_count()) {
            // A partner is no opponent: it never replies against the root.
            if self.pos.same_team(seat, self.root) || !self.pos.still_plays(seat) {
                continue;
            }
            self.pos.legal_moves_of(seat, &mut own);
            moves.extend(own.drain(..).map(|mv| Reply { seat, mv }));
        }
    }

    fn play(&mut self, mv: &Self::Move) -> Result<Self::Effect, IllegalMove> {
        if !self.is_legal(mv) {
            return Err(IllegalMove {
                notation: self.format_move(mv),
                reason: boardcraft_rules::IllegalReason::NotSeatsMove {
                    seat: boardcraft_rules::NamedSeat::new(mv.seat, self.pos.seat_name(mv.seat)),
                },
            });
        }
        self.skip_to(mv.seat);
        let effect = self.pos.play(&mv.mv)?;
        if mv.seat != self.root && self.pos.still_plays(self.root) {
            self.skip_to(self.root);
        }
        Ok(effect)
    }

    fn play_unchecked(&mut self, mv: &Self::Move) -> Self::Undo {
        let before = self.skip_to(mv.seat);
        let undo = self.pos.play_unchecked(&mv.mv);
        let after = if mv.seat != self.root && self.pos.still_plays(self.root) {
            self.skip_to(self.root)
        } else {
            Skips::NONE
        };
        ReplyUndo {
            before,
            undo,
            after,
        }
    }

    fn undo(&mut self, mv: &Self::Move, undo: Self::Undo) {
        self.unskip(&undo.after);
        self.pos.undo(&mv.mv, undo.undo);
        self.unskip(&undo.before);
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.pos.outcome() {
            return Some(Outcome::placed(self.seen_from_root(&o.places), o.reason));
        }
        // The root's game is over once it has no more turns: its place is settled, or (a
        // partner) it finished before its team.
        if self.pos.still_plays(self.root) {
            return None;
        }
        let place = self.pos.settled_place(self.root).unwrap_or(0);
        let reason = if place == 1 {
            EndReason::TargetFilled
        } else {
            EndReason::NoLegalMoves
        };
        Some(Outcome::placed(self.settled_places(), reason))
    }

    fn hash(&self) -> u64 {
        self.pos.hash() ^ self.key
    }

    fn format_move(&self, mv: &Self::Move) -> String {
        self.pos.format_move(&mv.mv)
    }

    fn parse_move(&self, text: &str) -> Result<Self::Move, NotationError> {
        let mv = self.pos.parse_move(text)?;
        Ok(Reply {
            seat: self.pos.side_to_move(),
            mv,
        })
    }
}

impl<P: OutOfTurn + Evaluate> Evaluate for BestReply<P> {
    fn evaluate(&self) -> i32 {
        let value = self.pos.evaluate_for(self.root);
        if self.root_to_move() { value } else { -value }
    }

    fn evaluate_for(&self, seat: Seat) -> i32 {
        let value = self.pos.evaluate_for(self.root);
        if seat == Seat::WHITE { value } else { -value }
    }

    fn order_hint(&self, mv: &Self::Move) -> i32 {
        self.pos.order_hint_of(mv.seat, &mv.mv)
    }

    const QUIESCENCE: bool = P::QUIESCENCE;

    fn is_noisy(&self, mv: &Self::Move) -> bool {
        self.pos.is_noisy(&mv.mv)
    }

    fn node_cost(&self) -> u64 {
        self.pos.node_cost()
    }
}
