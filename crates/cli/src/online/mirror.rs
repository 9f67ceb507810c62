//! A client's copy of a game, replayed with the rules from what the server sent.
use boardcraft_protocol::{GameSnapshot, SeatIndex, SeatLeft, SeatSnapshot, Side, hash_text};
use boardcraft_rules::{AnyPosition, OutOfTurn, Position, Seat, Variant, shipped_variant};

pub struct Mirror {
    pub position: AnyPosition,
    pub moves: Vec<String>,
}

impl Mirror {
    /// The game of a snapshot; an error if the moves do not replay or the hash differs.
    pub fn of(snapshot: &GameSnapshot) -> Result<Mirror, String> {
        let variant = match &snapshot.variant_file {
            Some(text) => Variant::from_ron("the server's variant file", text),
            None => shipped_variant(&snapshot.variant),
        }
        .map_err(|e| e.to_string())?;
        let mut mirror = Mirror {
            position: variant.new_game(),
            moves: Vec::new(),
        };
        for mv in &snapshot.moves {
            mirror.apply(mv)?;
        }
        if mirror.hash() != snapshot.hash {
            return Err(format!(
                "game {}: the replayed position's hash {} is not the server's {}",
                snapshot.game,
                mirror.hash(),
                snapshot.hash
            ));
        }
        Ok(mirror)
    }

    pub fn apply(&mut self, notation: &str) -> Result<(), String> {
        let mv = self
            .position
            .parse_move(notation)
            .map_err(|e| e.to_string())?;
        self.position.play(&mv).map_err(|e| e.to_string())?;
        self.moves.push(notation.to_owned());
        Ok(())
    }

    pub fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    pub fn hash(&self) -> String {
        hash_text(self.position.hash())
    }

    pub fn side_to_move(&self) -> Side {
        match self.position.side_to_move() {
            Seat::WHITE => Side::White,
            _ => Side::Black,
        }
    }
}

/// A client's copy of a game of protocol 3 (any number of seats), replayed with the rules
/// from what the server sent. Seats that left a table that plays on (`left` in the snapshot)
/// have their turns handed on as the rules hand them ([`OutOfTurn::skip_turn`]), at the ply
/// they left and after every move from then on, as the server does; that keeps the hashes
/// equal to the server's.
pub struct SeatMirror {
    pub position: AnyPosition,
    pub moves: Vec<String>,
    /// The seats that left, in the order they left.
    pub departed: Vec<SeatIndex>,
}

impl SeatMirror {
    /// The game of a snapshot; an error if the moves do not replay or the hash differs.
    pub fn of(snapshot: &SeatSnapshot) -> Result<SeatMirror, String> {
        let variant = match &snapshot.variant_file {
            Some(text) => Variant::from_ron("the server's variant file", text),
            None => shipped_variant(&snapshot.variant),
        }
        .map_err(|e| e.to_string())?
        .for_players(snapshot.seat_count())
        .map_err(|e| e.to_string())?;
        let mut mirror = SeatMirror {
            position: variant.new_game(),
            moves: Vec::new(),
            departed: Vec::new(),
        };
        for (ply, mv) in snapshot.moves.iter().enumerate() {
            mirror.leave_at(&snapshot.left, ply as u32);
            mirror.apply(mv)?;
        }
        mirror.leave_at(&snapshot.left, snapshot.moves.len() as u32);
        if mirror.hash() != snapshot.hash {
            return Err(format!(
                "game {}: the replayed position's hash {} is not the server's {}",
                snapshot.game,
                mirror.hash(),
                snapshot.hash
            ));
        }
        Ok(mirror)
    }

    fn leave_at(&mut self, left: &[SeatLeft], ply: u32) {
        for l in left.iter().filter(|l| l.ply == ply) {
            if !self.departed.contains(&l.seat) {
                self.departed.push(l.seat);
            }
        }
        self.skip_departed();
    }

    /// Hands on the turn while it is a departed seat's (only tables that play on, the race
    /// games, have seats leave without ending the game).
    fn skip_departed(&mut self) {
        if let AnyPosition::Race(race) = &mut self.position {
            for _ in 0..race.seat_count() {
                let to_move = race.side_to_move().index() as SeatIndex;
                if race.is_game_over() || !self.departed.contains(&to_move) {
                    break;
                }
                race.skip_turn();
            }
        }
    }

    pub fn apply(&mut self, notation: &str) -> Result<(), String> {
        let mv = self
            .position
            .parse_move(notation)
            .map_err(|e| e.to_string())?;
        self.position.play(&mv).map_err(|e| e.to_string())?;
        self.moves.push(notation.to_owned());
        self.skip_departed();
        Ok(())
    }

    pub fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    pub fn hash(&self) -> String {
        hash_text(self.position.hash())
    }

    /// The seat whose turn it is.
    pub fn seat_to_move(&self) -> SeatIndex {
        self.position.side_to_move().index() as SeatIndex
    }
}
