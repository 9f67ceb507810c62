//! A client's copy of a game, replayed with the rules from what the server sent.
use boardcraft_protocol::{GameSnapshot, SeatIndex, SeatSnapshot, Side, hash_text};
use boardcraft_rules::{AnyPosition, Position, Seat, Variant, shipped_variant};

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
/// from what the server sent. The seats of people who left a table that plays on (`left` in
/// the snapshot) are played by the server's computer: their moves arrive as anyone's.
pub struct SeatMirror {
    pub position: AnyPosition,
    pub moves: Vec<String>,
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

    /// The seat whose turn it is.
    pub fn seat_to_move(&self) -> SeatIndex {
        self.position.side_to_move().index() as SeatIndex
    }
}
