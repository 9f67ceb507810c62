//! Ids, invites and seat tokens from the operating system's random source, the constant-time
//! comparison of tokens, and the operator's Telegram bot token (never printed).
use subtle::ConstantTimeEq;

const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// `len` characters from a 32-letter alphabet without look-alikes (5 bits each).
fn random_text(len: usize) -> String {
    let mut bytes = vec![0u8; len];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes
        .iter()
        .map(|b| ALPHABET[(*b & 31) as usize] as char)
        .collect()
}

/// A game id: 12 characters (60 bits), short enough for a link, too many to guess usefully
/// (a game id alone only lets one watch).
pub fn game_id() -> String {
    random_text(12)
}

/// An invite code: 20 characters (100 bits).
pub fn invite() -> String {
    random_text(20)
}

/// A seat token: 52 characters (260 bits).
pub fn seat_token() -> String {
    random_text(52)
}

/// A random bit (the colour of a game created with `random`).
pub fn coin() -> bool {
    let mut b = [0u8; 1];
    getrandom::fill(&mut b).expect("the operating system's random source works");
    b[0] & 1 == 1
}

/// A seat drawn at random from `seats`.
pub fn seat(seats: usize) -> usize {
    let seats = seats.clamp(1, 256);
    // Bytes past the last whole multiple of `seats` are drawn again: every seat as likely.
    let limit = 256 - 256 % seats;
    loop {
        let mut b = [0u8; 1];
        getrandom::fill(&mut b).expect("the operating system's random source works");
        if usize::from(b[0]) < limit {
            return usize::from(b[0]) % seats;
        }
    }
}

/// Compares a presented token with a seat's in time that does not depend on where they
/// differ (the lengths are public).
pub fn token_matches(presented: &str, seat: &str) -> bool {
    presented.as_bytes().ct_eq(seat.as_bytes()).into()
}

/// Ids and invites are made of the alphabet only: anything else is refused before a lookup.
pub fn looks_like_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| ALPHABET.contains(&b))
}

/// A seat or session token's shape: [`seat_token`]'s 52 letters of the alphabet.
pub fn looks_like_token(s: &str) -> bool {
    s.len() == 52 && looks_like_id(s)
}

/// The operator's Telegram bot token (`--telegram-bot-token-file`); never printed.
#[derive(Clone)]
pub struct TelegramBotToken(String);

impl TelegramBotToken {
    pub fn new(token: String) -> TelegramBotToken {
        TelegramBotToken(token)
    }

    /// The token itself, for the one use that needs it: the key of the initData signature.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for TelegramBotToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TelegramBotToken(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_distinct_and_compared_exactly() {
        let a = seat_token();
        let b = seat_token();
        assert_eq!(a.len(), 52);
        assert_ne!(a, b);
        assert!(token_matches(&a, &a));
        assert!(!token_matches(&a, &b));
        assert!(!token_matches(&a[..51], &a));
        assert!(looks_like_id(&game_id()));
        assert!(!looks_like_id("../etc"));
        assert!(looks_like_token(&a));
        assert!(!looks_like_token(&a[..51]) && !looks_like_token(&game_id()));
    }
}
