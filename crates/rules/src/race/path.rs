//! Checking a path spelled out landing by landing, with the reason a player needs when it is
//! not legal. This is the slow, explicit counterpart of the flood fill: it tracks the camp rules'
//! state along the path itself, so it also serves to cross-check the generator.
use super::{
    moves::{MAX_HOPS, RaceMove},
    position::RacePosition,
    rules::TargetLock,
    square::{Dir, Square},
};
use crate::Position;

impl RacePosition {
    /// Why `from → to` is not a legal move, in a player's words.
    pub(crate) fn why_illegal(&self, from: Square, to: Square) -> String {
        if let Some(o) = self.outcome() {
            return format!("the game is over ({o})");
        }
        if let Err(why) = self.check_origin(from) {
            return why;
        }
        if !self.rules().on_board(to) {
            return format!("{to} is not on the board");
        }
        if from == to {
            return "a move must end on another square".into();
        }
        if Dir::between(from, to, 1).is_some()
            && let Err(why) = self.check_path(&[from, to], true)
        {
            return why;
        }
        if Dir::between(from, to, 2).is_some()
            && let Err(why) = self.check_path(&[from, to], false)
        {
            return format!(
                "no chain of jumps leads from {from} to {to} (a single jump fails: {why})"
            );
        }
        format!("no step or chain of jumps leads from {from} to {to}")
    }

    /// The moving piece stands on `from` and belongs to the side to move.
    pub(crate) fn check_origin(&self, from: Square) -> Result<(), String> {
        if !self.rules().on_board(from) {
            return Err(format!(
                "{from} is not on the {}×{} board",
                self.rules().width(),
                self.rules().height()
            ));
        }
        match self.piece_at(from) {
            None => Err(format!("there is no piece on {from}")),
            Some(c) if c != self.side_to_move() => Err(format!(
                "{from} holds a {c} piece, but it is {}'s turn",
                self.side_to_move()
            )),
            Some(_) => Ok(()),
        }
    }

    /// Checks one spelled-out path square by square, with the camp rules' state tracked
    /// explicitly (independently of the flood fill). `step` selects step or jump notation.
    pub(crate) fn check_path(&self, path: &[Square], step: bool) -> Result<(), String> {
        use Dir;
        let rules = &**self.rules();
        let side = self.side_to_move();
        let from = path[0];
        self.check_origin(from)?;
        if path.len() < 2 {
            return Err("a move needs a destination".into());
        }
        let home = |s: Square| rules.in_camp(side, s);
        let target = |s: Square| rules.in_target(side, s);
        let lock = rules.target_lock();
        let started_in_target = lock != TargetLock::Off && target(from);
        let mut entered_target = target(from);
        let mut left_home = !home(from);
        let mut visited = vec![from];
        for pair in path.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if !rules.on_board(b) {
                return Err(format!("{b} is not on the board"));
            }
            // A jump's distance: two cells, or with long hops any even distance 2k.
            let (dir, k) = if step {
                (Dir::between(a, b, 1), 1)
            } else if rules.long_hops() {
                (1..=9)
                    .find_map(|k| Dir::between(a, b, 2 * k).map(|d| (Some(d), k)))
                    .unwrap_or((None, 1))
            } else {
                (Dir::between(a, b, 2), 1)
            };
            match dir {
                None if step => {
                    return Err(if Dir::between(a, b, 2).is_some() {
                        format!(
                            "{a} and {b} are not neighbours; a step goes to an adjacent square (write jumps with ':', like {a}:{b})"
                        )
                    } else {
                        format!("{a} and {b} are not neighbours; a step goes to an adjacent square")
                    });
                }
                None => {
                    return Err(format!(
                        "{a} to {b} is not a jump: a jump goes over an adjacent piece to the square right behind it, two squares along a line"
                    ));
                }
                Some(d) if !rules.directions().contains(d) => {
                    return Err(format!(
                        "{a} to {b} is {}; pieces here move only {}",
                        if d.is_diagonal() {
                            "diagonal"
                        } else {
                            "orthogonal"
                        },
                        rules.directions().describe()
                    ));
                }
                Some(d) => {
                    if !step {
                        let (dx, dy) = d.delta();
                        let at = |j: i8| a.offset(j * dx, j * dy).filter(|s| rules.on_board(*s));
                        // The moving piece has left its square: it is empty for the chain.
                        let holds = |s: Square| s != from && self.piece_at(s).is_some();
                        match at(k) {
                            Some(m) if m == from => {
                                return Err(format!(
                                    "no piece on {m} to jump over: the moving piece has left it"
                                ));
                            }
                            Some(m) if self.piece_at(m).is_none() => {
                                return Err(format!("no piece on {m} to jump over"));
                            }
                            Some(_) => {}
                            None => return Err(format!("{a} to {b} is not a jump")),
                        }
                        let mid = at(k).expect("checked above");
                        for j in (1..k).chain(k + 1..2 * k) {
                            match at(j) {
                                Some(c) if holds(c) => {
                                    return Err(format!(
                                        "{a} to {b} hops over {mid}, but {c} on the way is not empty"
                                    ));
                                }
                                Some(_) => {}
                                None => return Err(format!("{a} to {b} is not a jump")),
                            }
                        }
                    }
                }
            }
            if b == from {
                return Err(format!(
                    "{b} is where the piece started; a move may not return to its starting square"
                ));
            }
            if visited.contains(&b) {
                return Err(format!("the chain lands on {b} twice"));
            }
            if self.piece_at(b).is_some() {
                return Err(format!("{b} is occupied"));
            }
            if started_in_target && !target(b) {
                return Err(if lock == TargetLock::PerLanding {
                    format!(
                        "the piece is in {side}'s target camp and may not leave it; {b} is outside"
                    )
                } else {
                    format!(
                        "the piece started its turn in {side}'s target camp and must stay inside it; {b} is outside"
                    )
                });
            }
            if lock == TargetLock::PerLanding && entered_target && !target(b) {
                return Err(format!(
                    "the piece has entered {side}'s target camp and may not leave it; {b} is outside"
                ));
            }
            if rules.no_return_home() && left_home && home(b) {
                return Err(format!(
                    "{b} is in {side}'s home camp and the piece has left it"
                ));
            }
            left_home |= !home(b);
            entered_target |= target(b);
            visited.push(b);
        }
        let end = path[path.len() - 1];
        if !rules.rest_in_other_regions()
            && !home(end)
            && !target(end)
            && let Some(region) = rules.region_at(end)
        {
            return Err(format!(
                "{end} is in the region {}, which is neither {side}'s home nor its target: a piece may pass through it but not stop there",
                region.name
            ));
        }
        Ok(())
    }

    /// The move `path` spells, if it is a legal path here.
    pub(crate) fn move_along(&self, path: &[Square], step: bool) -> Result<RaceMove, String> {
        self.check_path(path, step)?;
        let (from, to) = (path[0], path[path.len() - 1]);
        if step {
            return Ok(RaceMove::step(from, to));
        }
        if self.rules().long_hops() {
            let hops: Vec<(Dir, u8)> = path
                .windows(2)
                .filter_map(|p| {
                    (1..=9u8).find_map(|k| Dir::between(p[0], p[1], 2 * k as i8).map(|d| (d, k)))
                })
                .collect();
            if hops.len() > super::moves::MAX_LONG_HOPS {
                return Err("the chain is too long".into());
            }
            return Ok(RaceMove::long_chain(from, to, &hops));
        }
        let dirs: Vec<_> = path
            .windows(2)
            .filter_map(|p| Dir::between(p[0], p[1], 2))
            .collect();
        if dirs.len() > MAX_HOPS {
            return Err("the chain is too long".into());
        }
        Ok(RaceMove::chain(from, to, &dirs))
    }
}
