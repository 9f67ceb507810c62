//! Checking a path spelled out landing by landing, with what is wrong ([`Illegal`]) when it is
//! not legal. This is the slow, explicit counterpart of the flood fill: it tracks the camp rules'
//! state along the path itself, so it also serves to cross-check the generator.
use super::{
    error::Illegal,
    moves::{MAX_HOPS, RaceMove},
    position::RacePosition,
    rules::TargetLock,
    square::{Dir, Square},
};
use crate::Position;

impl RacePosition {
    /// Why `from → to` is not a legal move.
    pub(crate) fn why_illegal(&self, from: Square, to: Square) -> Illegal {
        if let Some(o) = self.outcome() {
            return Illegal::GameOver(o);
        }
        if let Err(why) = self.check_origin(from) {
            return why;
        }
        if !self.rules().on_board(to) {
            return Illegal::OffBoard { square: to };
        }
        if from == to {
            return Illegal::SameSquare;
        }
        if Dir::between(from, to, 1).is_some()
            && let Err(why) = self.check_path(&[from, to], true)
        {
            return why;
        }
        if Dir::between(from, to, 2).is_some()
            && let Err(why) = self.check_path(&[from, to], false)
        {
            return Illegal::NoChainSingleJumpFails {
                from,
                to,
                jump: Box::new(why),
            };
        }
        Illegal::NoStepOrChain { from, to }
    }

    /// The moving piece stands on `from` and belongs to the side to move.
    pub(crate) fn check_origin(&self, from: Square) -> Result<(), Illegal> {
        if !self.rules().on_board(from) {
            return Err(Illegal::OffBoardOf {
                square: from,
                width: self.rules().width(),
                height: self.rules().height(),
            });
        }
        match self.piece_at(from) {
            None => Err(Illegal::NoPiece { square: from }),
            Some(c) if c != self.side_to_move() => Err(Illegal::NotYourPiece {
                square: from,
                owner: c,
                to_move: self.side_to_move(),
            }),
            Some(_) => Ok(()),
        }
    }

    /// Checks one spelled-out path square by square, with the camp rules' state tracked
    /// explicitly (independently of the flood fill). `step` selects step or jump notation.
    pub(crate) fn check_path(&self, path: &[Square], step: bool) -> Result<(), Illegal> {
        use Dir;
        let rules = &**self.rules();
        let side = self.side_to_move();
        let from = path[0];
        self.check_origin(from)?;
        if path.len() < 2 {
            return Err(Illegal::NoDestination);
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
                return Err(Illegal::OffBoard { square: b });
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
                    return Err(Illegal::NotNeighbours {
                        from: a,
                        to: b,
                        jump_hint: Dir::between(a, b, 2).is_some(),
                    });
                }
                None => {
                    return Err(Illegal::NotAJump { from: a, to: b });
                }
                Some(d) if !rules.directions().contains(d) => {
                    return Err(Illegal::WrongDirection {
                        from: a,
                        to: b,
                        diagonal: d.is_diagonal(),
                        allowed: rules.directions(),
                    });
                }
                Some(d) => {
                    if !step {
                        let (dx, dy) = d.delta();
                        let at = |j: i8| a.offset(j * dx, j * dy).filter(|s| rules.on_board(*s));
                        // The moving piece has left its square: it is empty for the chain.
                        let holds = |s: Square| s != from && self.piece_at(s).is_some();
                        match at(k) {
                            Some(m) if m == from => {
                                return Err(Illegal::NothingToJump {
                                    over: m,
                                    left_by_mover: true,
                                });
                            }
                            Some(m) if self.piece_at(m).is_none() => {
                                return Err(Illegal::NothingToJump {
                                    over: m,
                                    left_by_mover: false,
                                });
                            }
                            Some(_) => {}
                            None => return Err(Illegal::JumpOffBoard { from: a, to: b }),
                        }
                        let mid = at(k).expect("checked above");
                        for j in (1..k).chain(k + 1..2 * k) {
                            match at(j) {
                                Some(c) if holds(c) => {
                                    return Err(Illegal::HopBlocked {
                                        from: a,
                                        to: b,
                                        over: mid,
                                        blocked: c,
                                    });
                                }
                                Some(_) => {}
                                None => return Err(Illegal::JumpOffBoard { from: a, to: b }),
                            }
                        }
                    }
                }
            }
            if b == from {
                return Err(Illegal::ReturnsToStart { square: b });
            }
            if visited.contains(&b) {
                return Err(Illegal::LandsTwice { square: b });
            }
            if self.piece_at(b).is_some() {
                return Err(Illegal::Occupied { square: b });
            }
            if started_in_target && !target(b) {
                return Err(if lock == TargetLock::PerLanding {
                    Illegal::LeavesTarget { side, square: b }
                } else {
                    Illegal::StaysInTarget { side, square: b }
                });
            }
            if lock == TargetLock::PerLanding && entered_target && !target(b) {
                return Err(Illegal::LeavesEnteredTarget { side, square: b });
            }
            if rules.no_return_home() && left_home && home(b) {
                return Err(Illegal::ReturnsHome { side, square: b });
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
            return Err(Illegal::StopsInRegion {
                square: end,
                region: region.name.clone(),
                side,
            });
        }
        Ok(())
    }

    /// The move `path` spells, if it is a legal path here.
    pub(crate) fn move_along(&self, path: &[Square], step: bool) -> Result<RaceMove, Illegal> {
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
                return Err(Illegal::ChainTooLong);
            }
            return Ok(RaceMove::long_chain(from, to, &hops));
        }
        let dirs: Vec<_> = path
            .windows(2)
            .filter_map(|p| Dir::between(p[0], p[1], 2))
            .collect();
        if dirs.len() > MAX_HOPS {
            return Err(Illegal::ChainTooLong);
        }
        Ok(RaceMove::chain(from, to, &dirs))
    }
}
