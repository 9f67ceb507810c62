//! Who played a side, written the way the command line names players (`"human"`, `"novice"`,
//! `"amateur"`, `"strong"`, `"master"`), so a save reads like the options that start a game.
use std::{fmt, str::FromStr};

use boardcraft_ai::Level;
use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    Human,
    Computer(Level),
}

impl Player {
    /// Every player, in the order a menu lists them.
    pub const ALL: [Player; 5] = [
        Player::Human,
        Player::Computer(Level::Novice),
        Player::Computer(Level::Amateur),
        Player::Computer(Level::Strong),
        Player::Computer(Level::Master),
    ];

    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Computer(level) => level.name(),
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Player {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Player::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("`{s}` is not a player: use human, novice, amateur, strong or master")
            })
    }
}

impl Serialize for Player {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Player {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(de::Error::custom)
    }
}
