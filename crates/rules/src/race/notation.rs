//! Reading moves: steps `a3-a4`, chains `b3:d3:d5` (every landing) or `b3:d5` (any legal chain
//! between the two squares, played along the representative path).
use super::{error::Illegal, moves::RaceMove, position::RacePosition, square::Square};
use crate::{NotationError, Position};

pub(crate) fn parse(pos: &RacePosition, text: &str) -> Result<RaceMove, NotationError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(NotationError::syntax(text, "the move is empty"));
    }
    let has_dash = trimmed.contains('-');
    let has_colon = trimmed.contains(':');
    let step = match (has_dash, has_colon) {
        (true, true) => {
            return Err(NotationError::syntax(
                text,
                "a move is either a step (a3-a4) or a chain of jumps (b3:d3:d5), not both",
            ));
        }
        (false, false) => {
            return Err(NotationError::syntax(
                text,
                "write a step as from-to (a3-a4) and jumps as from:landing:… (b3:d3:d5)",
            ));
        }
        (dash, _) => dash,
    };
    let sep = if step { '-' } else { ':' };
    let mut path = Vec::new();
    for part in trimmed.split(sep) {
        let part = part.trim();
        match Square::parse(part) {
            Some(s) => path.push(s),
            None if part.is_empty() => {
                return Err(NotationError::syntax(
                    text,
                    format!("a square is missing around '{sep}'"),
                ));
            }
            None => {
                return Err(NotationError::syntax(
                    text,
                    format!(
                        "`{part}` is not a square; squares are a file letter a–s and a rank 1–19, like e4"
                    ),
                ));
            }
        }
    }
    if step && path.len() != 2 {
        return Err(NotationError::syntax(
            text,
            "a step names two squares (a3-a4); a chain of jumps is written with ':' (b3:d3:d5)",
        ));
    }
    if let Some(o) = pos.outcome() {
        return Err(NotationError::illegal(text, Illegal::GameOver(o)));
    }
    let rules = pos.rules();
    if let Some(off) = path.iter().find(|s| !rules.on_board(**s)) {
        return Err(NotationError::illegal(
            text,
            Illegal::OffBoardOf {
                square: *off,
                width: rules.width(),
                height: rules.height(),
            },
        ));
    }
    pos.check_origin(path[0])
        .map_err(|why| NotationError::illegal(text, why))?;
    let spelled = pos.move_along(&path, step);
    if step || path.len() > 2 {
        return spelled.map_err(|why| NotationError::illegal(text, why));
    }
    // `from:to`: a single jump as written, or else any legal chain.
    let (from, to) = (path[0], path[1]);
    match spelled {
        Ok(mv) => Ok(mv),
        Err(single) => match pos.representative(from, to) {
            Some(mv) if !mv.is_step() => Ok(mv),
            Some(_) => Err(NotationError::illegal(text, Illegal::IsAStep { from, to })),
            None if super::square::Dir::between(from, to, 2).is_some() => {
                Err(NotationError::illegal(
                    text,
                    Illegal::NoChainJumpFails {
                        from,
                        to,
                        jump: Box::new(single),
                    },
                ))
            }
            None => Err(NotationError::illegal(text, Illegal::NoChain { from, to })),
        },
    }
}
