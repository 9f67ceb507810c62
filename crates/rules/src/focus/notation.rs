//! Move notation: `c3-f3` moves the top 3 pieces of c3 three squares (the count is the
//! distance), `+e5` drops a reserve piece on e5. `c3-f3:3` (the count written out, as in
//! some published game records) is read too when the count matches the distance.
use super::error::Illegal;
use super::moves::FocusMove;
use super::square::Square;
use crate::NotationError;

pub fn format(mv: &FocusMove) -> String {
    match *mv {
        FocusMove::Move { from, to, .. } => format!("{from}-{to}"),
        FocusMove::Drop { to } => format!("+{to}"),
    }
}

/// Reads the text into a move value; whether it is legal is the position's question. A
/// well-formed text that can never be a Focus move (a diagonal, a count that is not the
/// distance) is reported as illegal, with the reason.
pub fn parse(text: &str) -> Result<FocusMove, NotationError> {
    let t = text.trim();
    let square = |s: &str| {
        s.parse::<Square>()
            .map_err(|e| NotationError::syntax(t, e.to_string()))
    };
    if let Some(rest) = t.strip_prefix('+') {
        return Ok(FocusMove::Drop { to: square(rest)? });
    }
    let Some((from, rest)) = t.split_once('-') else {
        return Err(NotationError::syntax(
            t,
            "write a move as `c3-f3` (from-to) or a drop from the reserve as `+e5`",
        ));
    };
    let (to, count) = match rest.split_once(':') {
        Some((to, count)) => {
            let count: u8 = count.parse().map_err(|_| {
                NotationError::syntax(t, format!("`{count}` after `:` is not a number of pieces"))
            })?;
            (to, Some(count))
        }
        None => (rest, None),
    };
    let (from, to) = (square(from)?, square(to)?);
    if from == to {
        return Err(NotationError::illegal(t, Illegal::SameSquare));
    }
    let Some(FocusMove::Move {
        from,
        to,
        count: distance,
    }) = FocusMove::between(from, to)
    else {
        return Err(NotationError::illegal(t, Illegal::NotInLine { from, to }));
    };
    match count {
        Some(count) if count != distance => Err(NotationError::illegal(
            t,
            Illegal::WrongDistance {
                from,
                to,
                count,
                distance,
            },
        )),
        _ => Ok(FocusMove::Move {
            from,
            to,
            count: distance,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn reads_and_writes() {
        let mv = FocusMove::Move {
            from: sq("c3"),
            to: sq("f3"),
            count: 3,
        };
        assert_eq!(parse("c3-f3"), Ok(mv));
        assert_eq!(parse(" c3-f3:3 "), Ok(mv));
        assert_eq!(format(&mv), "c3-f3");
        assert_eq!(parse("+e5"), Ok(FocusMove::Drop { to: sq("e5") }));
        assert_eq!(format(&FocusMove::Drop { to: sq("e5") }), "+e5");
    }

    #[test]
    fn errors() {
        let syntax = |t: &str| matches!(parse(t), Err(NotationError::Syntax { .. }));
        let illegal = |t: &str| matches!(parse(t), Err(NotationError::Illegal { .. }));
        for t in [
            "", "c3", "c3f3", "+", "+z9", "c3-", "-f3", "c3-f3:x", "c3-f3-f4", "x3-f3",
        ] {
            assert!(syntax(t), "{t:?} should be a syntax error: {:?}", parse(t));
        }
        for t in ["c3-d4", "c3-c3", "c3-f3:2"] {
            assert!(illegal(t), "{t:?} should be illegal: {:?}", parse(t));
        }
    }
}
