//! View adapter for the Race family. PLACEHOLDER until the family lands on `main`: the
//! rules crate's `race` module is still a stub there, so there is nothing to draw yet.
use boardcraft_rules::{
    Position,
    race::{RacePosition, RaceRules},
};

use super::{Layout, PieceStyle, Script, Snapshot, Token};

pub fn layout(_rules: &RaceRules) -> Layout {
    Layout::new(
        Vec::new(),
        PieceStyle {
            radius: 0.4,
            height: 0.2,
            tall: false,
        },
        false,
    )
}

pub fn snapshot(_position: &RacePosition, layout: &Layout) -> Snapshot {
    Snapshot::empty(layout)
}

pub fn script(
    _before: &RacePosition,
    _mv: &<RacePosition as Position>::Move,
    _effect: &<RacePosition as Position>::Effect,
    _layout: &Layout,
) -> Script {
    Vec::new()
}

pub fn tokens(
    _position: &RacePosition,
    _mv: &<RacePosition as Position>::Move,
    _layout: &Layout,
) -> Option<Vec<Token>> {
    None
}
