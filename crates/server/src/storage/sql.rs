//! The SQL both backends run, each statement written once, with PostgreSQL's `$N`
//! placeholders, and SQLite's own statements beside them (PostgreSQL's own, fenced by the
//! owner's epoch or using its arrays and locks, stay in `postgres.rs` and `lobby.rs`).
//!
//! SQLite reads `$1` as a parameter *named* `$1`, and numbers named parameters in the order
//! they first appear: `$2 … $1` would bind the first value to `$2`. So every statement here
//! has its placeholders first appear in order, `$1`, then `$2`, …, which `statements!`
//! checks when the crate compiles; then SQLite's numbers are PostgreSQL's and both bind the
//! same values in the same order, with no rewriting. A statement holds no `?` and no `$` other
//! than its placeholders.

/// Declares statements (`NAME = "…";`, with their doc comments), each checked at compile time
/// by [`placeholders_in_order`], and `STATEMENTS`, the list of them (for the tests).
macro_rules! statements {
    ($($(#[$doc:meta])* $name:ident = $text:expr;)*) => {
        $(
            $(#[$doc])*
            pub(crate) const $name: &str = $text;
            const _: () = assert!(
                $crate::storage::sql::placeholders_in_order($name),
                concat!(
                    stringify!($name),
                    ": placeholders must first appear in order ($1, then $2, …), and no `?`"
                )
            );
        )*
        /// Every statement declared here, by name.
        #[cfg(test)]
        pub(crate) const STATEMENTS: &[(&str, &str)] = &[$((stringify!($name), $name)),*];
    };
}
pub(crate) use statements;

/// Whether the placeholders of `sql` are `$N` only and first appear in order: `$1` before
/// `$2` before `$3` … (a number may come again later). Also false for a `?`, and for a `$`
/// with no number after it.
pub(crate) const fn placeholders_in_order(sql: &str) -> bool {
    let b = sql.as_bytes();
    let mut next = 1u32;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'?' {
            return false;
        }
        if b[i] != b'$' {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        let mut n = 0u32;
        while j < b.len() && b[j].is_ascii_digit() {
            n = n * 10 + (b[j] - b'0') as u32;
            j += 1;
        }
        if j == i + 1 || n == 0 || n > next {
            return false;
        }
        if n == next {
            next += 1;
        }
        i = j;
    }
    true
}

/// The columns an account is read with (`sqlite::account_row`, `postgres::account_row`).
macro_rules! account_columns {
    () => {
        "id, name, password_hash, telegram_id, bot, created_ms"
    };
}
/// The columns a seek is read with.
macro_rules! seek_columns {
    () => {
        "id, account, created_ms, body"
    };
}
/// The columns a challenge is read with.
macro_rules! challenge_columns {
    () => {
        "id, from_account, to_account, created_ms, body"
    };
}

statements! {
    /// Answers when the database does.
    HEALTH = "SELECT 1";

    // ----- games

    /// A new game (`$1` id … `$16` players, `$17` its number of seats).
    CREATE_GAME = "INSERT INTO games (id, variant, variant_file, initial_ms, increment_ms,
            white_token, black_token, creator, invite, joined, created_ms, rematch_of,
            white_account, black_account, rated, players, seats)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)";
    /// A seat of a new game of more than two seats (`$1` game, `$2` seat, `$3` token, `$4`
    /// account, `$5` taken).
    INSERT_SEAT = "INSERT INTO game_seats (game, seat, token, account, joined)
         VALUES ($1, $2, $3, $4, $5)";
    /// A game's (`$1`) number of seats.
    SEATS_OF_GAME = "SELECT seats FROM games WHERE id = $1";
    /// A game's seats (`$1` id), in seat order: a game of more than two seats.
    LOAD_SEATS = "SELECT token, account, joined, left_ply, left_place, left_cause
         FROM game_seats WHERE game = $1 ORDER BY seat";
    /// The game an invite (`$1`) belongs to.
    GAME_OF_INVITE = "SELECT id FROM games WHERE invite = $1";
    /// A game's row (`$1` id) and its rematch's id (column 12).
    LOAD_GAME = "SELECT variant, variant_file, initial_ms, increment_ms, white_token,
            black_token, creator, invite, joined, created_ms, rematch_of, result,
            (SELECT r.id FROM games r WHERE r.rematch_of = g.id),
            white_account, black_account, players, rating_changes, seats
         FROM games g WHERE g.id = $1";
    /// A game's moves (`$1` id), in order.
    LOAD_MOVES = "SELECT ply, notation, white_ms, black_ms, at_ms, seat_ms FROM moves
         WHERE game = $1 ORDER BY ply";
    /// Every game's id, oldest first.
    GAME_IDS = "SELECT id FROM games ORDER BY created_ms, id";
    /// The end of a game between accounts (`$1` result, `$2` ended, `$3` outcome, `$4` rating
    /// changes, `$5` id).
    FINISH_ACCOUNT_GAME = "UPDATE games SET result = $1, ended_ms = $2, outcome = $3,
            rating_changes = $4
         WHERE id = $5";

    // ----- ratings and the players' pages

    /// An account's ratings (`$1`), one per variant and number of seats.
    RATINGS_OF = "SELECT variant, rating, deviation, volatility, games, seats FROM ratings
         WHERE account = $1 ORDER BY variant, seats";
    /// An account's finished games (`$1`), newest first: `$2` of them from `$3` on.
    ARCHIVE = "SELECT id, variant, initial_ms, increment_ms, players, result,
            rating_changes, (SELECT count(*) FROM moves m WHERE m.game = g.id), created_ms,
            ended_ms
         FROM games g
         WHERE (white_account = $1 OR black_account = $1) AND result IS NOT NULL
         ORDER BY ended_ms DESC, id DESC LIMIT $2 OFFSET $3";
    /// Wins, draws and losses per variant of the account `$1`.
    TALLIES = "SELECT variant,
            SUM(CASE WHEN (white_account = $1 AND outcome = 'white')
                       OR (black_account = $1 AND outcome = 'black') THEN 1 ELSE 0 END),
            SUM(CASE WHEN outcome = 'draw' THEN 1 ELSE 0 END),
            SUM(CASE WHEN (white_account = $1 AND outcome = 'black')
                       OR (black_account = $1 AND outcome = 'white') THEN 1 ELSE 0 END)
         FROM games
         WHERE (white_account = $1 OR black_account = $1) AND outcome IS NOT NULL
         GROUP BY variant ORDER BY variant";
    /// The best ratings of the variant `$1` in games of `$2` seats whose deviation is at most
    /// `$3`, `$4` of them.
    LEADERBOARD = "SELECT a.id, a.name, a.password_hash, a.telegram_id, a.bot,
            a.created_ms, r.rating, r.deviation, r.volatility, r.games
         FROM ratings r JOIN accounts a ON a.id = r.account
         WHERE r.variant = $1 AND r.seats = $2 AND r.deviation <= $3
         ORDER BY r.rating DESC, a.name_key LIMIT $4";

    // ----- accounts and sessions

    /// A new account (`$1` id, `$2` name, `$3` its name key, `$4` its confusable skeleton,
    /// `$5` password hash, `$6` Telegram id, `$7` bot, `$8` created): a name, key or skeleton
    /// already taken is a unique violation.
    INSERT_ACCOUNT = "INSERT INTO accounts
            (id, name, name_key, name_skeleton, password_hash, telegram_id, bot, created_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
    /// A guest (or Telegram) account gets a name and a password (`$1` name, `$2` key, `$3`
    /// skeleton, `$4` hash, `$5` id), once.
    CLAIM_ACCOUNT = "UPDATE accounts
         SET name = $1, name_key = $2, name_skeleton = $3, password_hash = $4
         WHERE id = $5 AND password_hash IS NULL";
    /// A new password for an account (`$1` hash, `$2` id).
    SET_PASSWORD = "UPDATE accounts SET password_hash = $1 WHERE id = $2";
    /// The end of an account's other sessions (`$1` id, `$2` the token hash of the session
    /// that stays): their token hashes.
    OTHER_SESSIONS =
        "DELETE FROM sessions WHERE account = $1 AND token_hash <> $2 RETURNING token_hash";
    /// Links a Telegram user (`$1`) to an account (`$2`) that has none.
    LINK_TELEGRAM = "UPDATE accounts SET telegram_id = $1 WHERE id = $2 AND telegram_id IS NULL";
    /// Marks the account whose name key is `$2` a bot (`$1`) or not.
    SET_BOT = "UPDATE accounts SET bot = $1 WHERE name_key = $2";
    /// A new session (`$1` token hash, `$2` account, `$3` created).
    CREATE_SESSION = "INSERT INTO sessions (token_hash, account, created_ms) VALUES ($1, $2, $3)";
    /// Ends a session (`$1` token hash).
    DELETE_SESSION = "DELETE FROM sessions WHERE token_hash = $1";
    /// An account by its id (`$1`).
    ACCOUNT_BY_ID = concat!("SELECT ", account_columns!(), " FROM accounts WHERE id = $1");
    /// An account by its name key (`$1`).
    ACCOUNT_BY_NAME_KEY =
        concat!("SELECT ", account_columns!(), " FROM accounts WHERE name_key = $1");
    /// An account by its Telegram user (`$1`).
    ACCOUNT_BY_TELEGRAM =
        concat!("SELECT ", account_columns!(), " FROM accounts WHERE telegram_id = $1");
    /// The account a session (`$1` token hash) signs in.
    ACCOUNT_BY_SESSION = concat!(
        "SELECT ",
        account_columns!(),
        " FROM accounts WHERE id = (SELECT account FROM sessions WHERE token_hash = $1)"
    );

    // ----- the lobby (storage/lobby.rs)

    /// This node (`$1`) is alive now (`$2`) and runs `$3` games.
    NODE_BEAT = "INSERT INTO lobby_nodes (node, seen_ms, games) VALUES ($1, $2, $3)
         ON CONFLICT (node) DO UPDATE SET seen_ms = $2, games = $3";
    /// Nodes not heard from since `$1`, and nodes with presence rows but no heartbeat row.
    DEAD_NODES = "SELECT node FROM lobby_nodes WHERE seen_ms < $1
         UNION SELECT DISTINCT node FROM lobby_presence
         WHERE node NOT IN (SELECT node FROM lobby_nodes)";
    /// Whether the account `$1` has a lobby connection on some node.
    STILL_IN_LOBBY =
        "SELECT 1 FROM lobby_presence WHERE account = $1 AND kind = 'lobby' LIMIT 1";
    /// `$2` is connected on node `$1` (`$3`: the kind); once.
    ADD_PRESENCE = "INSERT INTO lobby_presence (node, account, kind) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING";
    /// `$2` is no longer connected on node `$1` (`$3`: the kind).
    REMOVE_PRESENCE =
        "DELETE FROM lobby_presence WHERE node = $1 AND account = $2 AND kind = $3";
    /// Whether the account `$1` has a lobby connection on a node other than `$2` heard from
    /// after `$3`.
    IN_LOBBY_ELSEWHERE = "SELECT EXISTS (SELECT 1 FROM lobby_presence p
            JOIN lobby_nodes n ON n.node = p.node
         WHERE p.account = $1 AND p.kind = 'lobby' AND p.node <> $2 AND n.seen_ms > $3)";
    /// Players connected and games running on the nodes heard from after `$1`.
    COUNTS = "SELECT CAST((SELECT count(DISTINCT p.account) FROM lobby_presence p
                JOIN lobby_nodes n ON n.node = p.node WHERE n.seen_ms > $1) AS BIGINT),
            CAST((SELECT COALESCE(sum(games), 0) FROM lobby_nodes WHERE seen_ms > $1) AS BIGINT)";
    /// The grace of the seeks of accounts in the lobby on no node starts at `$1`.
    SWEEP_SEEKS = "UPDATE lobby_seeks SET orphaned_ms = $1
         WHERE orphaned_ms IS NULL
           AND account NOT IN (SELECT account FROM lobby_presence WHERE kind = 'lobby')";
    /// Accounts in the lobby on no node leave their pool.
    SWEEP_POOL = "DELETE FROM lobby_pool
         WHERE account NOT IN (SELECT account FROM lobby_presence WHERE kind = 'lobby')
         RETURNING account";
    /// The challenges of accounts in the lobby on no node go.
    SWEEP_CHALLENGES = concat!(
        "DELETE FROM lobby_challenges
         WHERE from_account NOT IN (SELECT account FROM lobby_presence WHERE kind = 'lobby')
         RETURNING ",
        challenge_columns!()
    );
    /// A seek (`$1` id, `$2` account, `$3` created, `$4` body, `$5` seats), unless its owner
    /// has `$6` open already.
    ADD_SEEK = "INSERT INTO lobby_seeks (id, account, created_ms, body, seats)
         SELECT $1, $2, $3, $4, $5
         WHERE (SELECT count(*) FROM lobby_seeks WHERE account = $2) < $6";
    /// Every open seek, oldest first.
    SEEKS = concat!("SELECT ", seek_columns!(), " FROM lobby_seeks ORDER BY created_ms, id");
    /// A seek by its id (`$1`).
    SEEK = concat!("SELECT ", seek_columns!(), " FROM lobby_seeks WHERE id = $1");
    /// Removes the seek `$1` if it is `$2`'s (or whoever's, for a NULL `$2`).
    TAKE_SEEK = concat!(
        "DELETE FROM lobby_seeks WHERE id = $1 AND (CAST($2 AS TEXT) IS NULL OR account = $2)
         RETURNING ",
        seek_columns!()
    );
    /// The grace of `$2`'s seeks starts at `$1` (those whose grace has not started).
    ORPHAN_SEEKS =
        "UPDATE lobby_seeks SET orphaned_ms = $1 WHERE account = $2 AND orphaned_ms IS NULL";
    /// The grace of `$2`'s seeks stops (`$1` NULL).
    ADOPT_SEEKS = "UPDATE lobby_seeks SET orphaned_ms = $1 WHERE account = $2";
    /// Removes the seeks orphaned before `$1`: their ids.
    EXPIRE_SEEKS = "DELETE FROM lobby_seeks WHERE orphaned_ms IS NOT NULL AND orphaned_ms < $1
         RETURNING id";
    /// `$1` waits in pool `$2` with rating `$3` since `$4` (leaving any other pool).
    JOIN_POOL = "INSERT INTO lobby_pool (account, pool, rating, joined_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account) DO UPDATE SET pool = $2, rating = $3, joined_ms = $4";
    /// Takes `$1` out of its pool: the pool.
    LEAVE_POOL = "DELETE FROM lobby_pool WHERE account = $1 RETURNING pool";
    /// The pool `$1` waits in.
    POOL_OF = "SELECT pool FROM lobby_pool WHERE account = $1";
    /// Everyone waiting in a pool.
    POOL_ENTRIES = "SELECT account, pool, rating, joined_ms FROM lobby_pool";
    /// A challenge (`$1` id, `$2` from, `$3` to, `$4` created, `$5` body).
    ADD_CHALLENGE = "INSERT INTO lobby_challenges (id, from_account, to_account, created_ms, body)
         VALUES ($1, $2, $3, $4, $5)";
    /// Every challenge, oldest first.
    CHALLENGES =
        concat!("SELECT ", challenge_columns!(), " FROM lobby_challenges ORDER BY created_ms");
    /// Removes the challenge `$1`.
    TAKE_CHALLENGE =
        concat!("DELETE FROM lobby_challenges WHERE id = $1 RETURNING ", challenge_columns!());
    /// Removes the challenges made before `$1`.
    EXPIRE_CHALLENGES = concat!(
        "DELETE FROM lobby_challenges WHERE created_ms < $1 RETURNING ",
        challenge_columns!()
    );
    /// Removes the challenges `$1` made.
    TAKE_CHALLENGES_FROM = concat!(
        "DELETE FROM lobby_challenges WHERE from_account = $1 RETURNING ",
        challenge_columns!()
    );
    /// The players who took a seat at a seek of more than two (its seeker aside), of every
    /// open seek, in the order they sat down.
    SEEK_SEATS = "SELECT s.seek, s.account FROM lobby_seek_seats s
            JOIN lobby_seeks k ON k.id = s.seek
         ORDER BY s.joined_ms, s.account";
    /// The seeks of more than two, not full, where `$1` took a seat.
    SEEKS_SEATED_AT = "SELECT s.seek FROM lobby_seek_seats s
            JOIN lobby_seeks k ON k.id = s.seek
         WHERE s.account = $1 AND k.filled < k.seats";
    /// Takes the seats of the seek `$1` (taken itself just before): who sat at it.
    TAKE_SEEK_SEATS = "DELETE FROM lobby_seek_seats WHERE seek = $1 RETURNING account, joined_ms";
    /// Forgets the seats of seeks that are gone (cancelled, expired).
    FORGET_SEEK_SEATS =
        "DELETE FROM lobby_seek_seats WHERE seek NOT IN (SELECT id FROM lobby_seeks)";
    /// An account's (`$1`) unfinished lobby games made after `$2`, newest first (at any
    /// table: a seat of a game of more than two is in `game_seats`).
    PLAYING = "SELECT id FROM games
         WHERE (white_account = $1 OR black_account = $1
                OR id IN (SELECT game FROM game_seats WHERE account = $1))
           AND result IS NULL AND created_ms > $2
         ORDER BY created_ms DESC LIMIT 50";
    /// The account on White's seat of the game `$1`.
    WHITE_SEAT = "SELECT white_account FROM games WHERE id = $1";
    /// The account on Black's seat of the game `$1`.
    BLACK_SEAT = "SELECT black_account FROM games WHERE id = $1";

    // ----- SQLite's own: PostgreSQL's forms are fenced by the owner's epoch (`postgres.rs`),
    // or use what SQLite lacks (row locks, arrays, data-modifying WITH).

    /// The second seat of the game `$1` is taken (if it was free).
    SQLITE_MARK_JOINED = "UPDATE games SET joined = TRUE WHERE id = $1 AND NOT joined";
    /// A move (`$1` game, `$2` ply, `$3` notation, `$4` and `$5` the clocks, `$6` when, `$7`
    /// every seat's clock, more than two seats).
    SQLITE_APPEND_MOVE = "INSERT INTO moves (game, ply, notation, white_ms, black_ms, at_ms,
            seat_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7)";
    /// The seat `$2` of the game `$1` (of more than two seats) is taken (if it was free).
    SQLITE_JOIN_SEAT =
        "UPDATE game_seats SET joined = TRUE WHERE game = $1 AND seat = $2 AND NOT joined";
    /// Every seat of the game `$1` is taken: the games row says so too.
    SQLITE_ALL_JOINED = "UPDATE games SET joined = TRUE WHERE id = $1
         AND NOT EXISTS (SELECT 1 FROM game_seats WHERE game = $1 AND NOT joined)";
    /// The seat `$4` of the game `$5` left at ply `$1`, placed `$2`, for the cause `$3`.
    SQLITE_SEAT_LEFT = "UPDATE game_seats SET left_ply = $1, left_place = $2, left_cause = $3
         WHERE game = $4 AND seat = $5";
    /// Deletes the game `$1`'s moves from ply `$2` on.
    SQLITE_TRUNCATE_MOVES = "DELETE FROM moves WHERE game = $1 AND ply >= $2";
    /// The end of an invite game (`$1` result, `$2` ended, `$3` outcome, `$4` id).
    SQLITE_FINISH_GAME = "UPDATE games SET result = $1, ended_ms = $2, outcome = $3 WHERE id = $4";
    /// Whether the game `$1` has not ended yet (no row: no such game).
    SQLITE_GAME_OPEN = "SELECT result IS NULL FROM games WHERE id = $1";
    /// The rating of `$1` in the variant `$2` with `$3` seats.
    SQLITE_RATING = "SELECT rating, deviation, volatility FROM ratings
         WHERE account = $1 AND variant = $2 AND seats = $3";
    /// A rating after a game (`$1` account, `$2` variant, `$3` seats, `$4` rating, `$5`
    /// deviation, `$6` volatility, `$7` when): inserted, or replacing the one there, one more
    /// game counted.
    SQLITE_RATING_UPSERT = "INSERT INTO ratings
            (account, variant, seats, rating, deviation, volatility, games, updated_ms)
         VALUES ($1, $2, $3, $4, $5, $6, 1, $7)
         ON CONFLICT (account, variant, seats) DO UPDATE SET rating = excluded.rating,
            deviation = excluded.deviation, volatility = excluded.volatility,
            games = ratings.games + 1, updated_ms = excluded.updated_ms";
    /// The accounts in the lobby on node `$1`.
    SQLITE_LOBBY_ON_NODE =
        "SELECT account FROM lobby_presence WHERE node = $1 AND kind = 'lobby'";
    /// Forgets node `$1`'s connections.
    SQLITE_FORGET_PRESENCE = "DELETE FROM lobby_presence WHERE node = $1";
    /// Forgets node `$1`'s heartbeat.
    SQLITE_FORGET_NODE = "DELETE FROM lobby_nodes WHERE node = $1";
    /// How many of `$2` and `$3` wait in pool `$1`.
    SQLITE_PAIR_IN_POOL =
        "SELECT count(*) FROM lobby_pool WHERE pool = $1 AND account IN ($2, $3)";
    /// Takes `$1` and `$2` out of the pools.
    SQLITE_TAKE_PAIR = "DELETE FROM lobby_pool WHERE account IN ($1, $2)";
    /// Whether `$2` waits in pool `$1`.
    SQLITE_IN_POOL = "SELECT count(*) FROM lobby_pool WHERE pool = $1 AND account = $2";
    /// `$2` takes a seat at the seek `$1` if one is free, the seek is not its own and it sat
    /// there not yet: the seats taken now, and the seek's number of seats.
    SQLITE_TAKE_SEEK_SEAT = "UPDATE lobby_seeks SET filled = filled + 1
         WHERE id = $1 AND filled < seats AND account <> $2
           AND NOT EXISTS (SELECT 1 FROM lobby_seek_seats WHERE seek = $1 AND account = $2)
         RETURNING filled, seats";
    /// The seat `$2` took at the seek `$1` since `$3`.
    SQLITE_ADD_SEEK_SEAT =
        "INSERT INTO lobby_seek_seats (seek, account, joined_ms) VALUES ($1, $2, $3)";
    /// `$2` gives back its seat at the seek `$1`, unless the seek is full (being started).
    SQLITE_LEAVE_SEEK_SEAT = "DELETE FROM lobby_seek_seats WHERE seek = $1 AND account = $2
         AND EXISTS (SELECT 1 FROM lobby_seeks WHERE id = $1 AND filled < seats)";
    /// One seat fewer is taken at the seek `$1`: the seats taken now.
    SQLITE_SEEK_SEAT_FREED =
        "UPDATE lobby_seeks SET filled = filled - 1 WHERE id = $1 RETURNING filled";
}

#[cfg(test)]
mod tests {
    use super::placeholders_in_order;
    use rusqlite::Connection;

    #[test]
    fn placeholders_must_first_appear_in_order() {
        assert!(placeholders_in_order("SELECT 1"));
        assert!(placeholders_in_order("SELECT $1, $2, $1, $3"));
        assert!(!placeholders_in_order("UPDATE t SET a = $2 WHERE id = $1"));
        assert!(!placeholders_in_order("SELECT $2, $1"));
        assert!(!placeholders_in_order("SELECT ?1"));
        assert!(!placeholders_in_order("SELECT $1, $"));
        assert!(!placeholders_in_order("SELECT $0"));
        assert!(placeholders_in_order(
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
        ));
        assert!(!placeholders_in_order(
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $11)"
        ));
    }

    /// Why the order matters, and that it is enough: SQLite numbers `$N` by first appearance,
    /// so values bound by position reach the right placeholders exactly when they appear in
    /// order.
    #[test]
    fn sqlite_binds_dollar_placeholders_by_first_appearance() {
        let c = Connection::open_in_memory().unwrap();
        let (a, b): (String, String) = c
            .query_row("SELECT $1, $2", ["one", "two"], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!((a.as_str(), b.as_str()), ("one", "two"));
        let (a, b, again): (String, String, String) = c
            .query_row("SELECT $1, $2, $1", ["one", "two"], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert_eq!(
            (a.as_str(), b.as_str(), again.as_str()),
            ("one", "two", "one")
        );
        // Out of order, the first value goes to `$2`: what the compile-time check prevents.
        let (two, one): (String, String) = c
            .query_row("SELECT $2, $1", ["one", "two"], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!((two.as_str(), one.as_str()), ("one", "two"));
    }

    /// Every statement SQLite may run parses on the schema, and its `$N` is SQLite's
    /// parameter number N.
    #[test]
    fn every_statement_prepares_on_sqlite_with_postgres_numbers() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = Connection::open(dir.path().join("t.sqlite3")).unwrap();
        crate::storage::migrations::migrate_sqlite(&mut c).unwrap();
        let all = super::STATEMENTS
            .iter()
            .chain(crate::storage::limits::STATEMENTS)
            .chain(crate::storage::migrations::STATEMENTS);
        for (name, sql) in all {
            let stmt = c.prepare(sql).unwrap_or_else(|e| panic!("{name}: {e}"));
            for n in 1..=stmt.parameter_count() {
                assert_eq!(
                    stmt.parameter_name(n),
                    Some(format!("${n}").as_str()),
                    "{name}: parameter {n}"
                );
            }
        }
    }
}
