//! The server's HTTP paths, written once for the server's router and for every client (the
//! game, the bot, the tools). A path with a part in it has two forms: the `…_ROUTE` pattern
//! the router matches (`{name}` is the part) and a function that writes the path for a value,
//! the part percent-encoded.

/// `GET`: the server's health (docs/protocol.md, "HTTP").
pub const HEALTH: &str = "/healthz";
/// `POST`: a new invite game.
pub const GAMES: &str = "/api/games";
/// `GET`: a game's public state.
pub const GAME_ROUTE: &str = "/api/games/{game}";
/// `GET`: a game as a RON save file.
pub const SAVE_ROUTE: &str = "/api/games/{game}/save.ron";
/// `POST`: takes the seat an invite offers.
pub const INVITE_ROUTE: &str = "/api/invites/{invite}";
/// `POST`: a guest account and its session.
pub const GUEST: &str = "/api/accounts/guest";
/// `POST`: a name and a password for the signed-in account.
pub const CLAIM: &str = "/api/accounts/claim";
/// `POST`: a new password for the signed-in account.
pub const PASSWORD: &str = "/api/accounts/password";
/// `POST`: signs in; `DELETE`: signs out.
pub const SESSION: &str = "/api/session";
/// `POST`: signs in with Telegram's initData.
pub const TELEGRAM: &str = "/api/session/telegram";
/// `GET`: the signed-in account.
pub const ME: &str = "/api/me";
/// `GET`: a player's profile.
pub const PLAYER_ROUTE: &str = "/api/players/{name}";
/// `GET`: a player's archive (`?page=N`).
pub const PLAYER_GAMES_ROUTE: &str = "/api/players/{name}/games";
/// `GET`: a variant's leaderboard (two-seat games).
pub const LEADERBOARD_ROUTE: &str = "/api/leaderboard/{variant}";
/// `GET`: a variant's leaderboard for games of a number of seats (protocol 3).
pub const LEADERBOARD_SEATS_ROUTE: &str = "/api/leaderboard/{variant}/{seats}";

/// A path part (a player's name, a variant, an id) made safe for a URL: every byte but ASCII
/// letters, digits, `-`, `_` and `.` percent-encoded.
pub fn segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.' {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn with(route: &str, value: &str) -> String {
    let open = route.find('{').expect("a route with a part");
    let close = route.find('}').expect("a route with a part");
    format!(
        "{}{}{}",
        &route[..open],
        segment(value),
        &route[close + 1..]
    )
}

/// [`GAME_ROUTE`] for a game.
pub fn game(id: &str) -> String {
    with(GAME_ROUTE, id)
}

/// [`SAVE_ROUTE`] for a game.
pub fn save(id: &str) -> String {
    with(SAVE_ROUTE, id)
}

/// [`INVITE_ROUTE`] for an invite code.
pub fn invite(code: &str) -> String {
    with(INVITE_ROUTE, code)
}

/// [`PLAYER_ROUTE`] for a player's name.
pub fn player(name: &str) -> String {
    with(PLAYER_ROUTE, name)
}

/// [`PLAYER_GAMES_ROUTE`] for a player's name, and the page of the archive.
pub fn player_games(name: &str, page: u32) -> String {
    format!("{}?page={page}", with(PLAYER_GAMES_ROUTE, name))
}

/// [`LEADERBOARD_ROUTE`] for a variant.
pub fn leaderboard(variant: &str) -> String {
    with(LEADERBOARD_ROUTE, variant)
}

/// [`LEADERBOARD_SEATS_ROUTE`] for a variant and a number of seats.
pub fn leaderboard_seats(variant: &str, seats: u8) -> String {
    format!("{}/{seats}", leaderboard(variant))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_fill_their_routes_and_encode_their_parts() {
        assert_eq!(game("q7nd2kfa9xwe"), "/api/games/q7nd2kfa9xwe");
        assert_eq!(save("q7nd2kfa9xwe"), "/api/games/q7nd2kfa9xwe/save.ron");
        assert_eq!(invite("abc"), "/api/invites/abc");
        assert_eq!(player("Ёжик"), "/api/players/%D0%81%D0%B6%D0%B8%D0%BA");
        assert_eq!(player_games("a b", 2), "/api/players/a%20b/games?page=2");
        assert_eq!(leaderboard("ugolki-9qum"), "/api/leaderboard/ugolki-9qum");
        assert_eq!(
            leaderboard_seats("chinese-checkers", 3),
            "/api/leaderboard/chinese-checkers/3"
        );
        assert_eq!(segment("../x?y"), "..%2Fx%3Fy");
    }
}
