//! View adapter for the Gipf family. PLACEHOLDER until the family lands on `main`: the
//! rules crate's `gipf` module is still a stub there, so there is nothing to draw yet.
use boardcraft_rules::{
    Position,
    gipf::{GipfPosition, GipfRules},
};

use super::{Layout, PieceStyle, Script, Snapshot, Token};

pub fn layout(_rules: &GipfRules) -> Layout {
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

pub fn snapshot(_position: &GipfPosition, layout: &Layout) -> Snapshot {
    Snapshot::empty(layout)
}

pub fn script(
    _before: &GipfPosition,
    _mv: &<GipfPosition as Position>::Move,
    _effect: &<GipfPosition as Position>::Effect,
    _layout: &Layout,
) -> Script {
    Vec::new()
}

pub fn tokens(
    _position: &GipfPosition,
    _mv: &<GipfPosition as Position>::Move,
    _layout: &Layout,
) -> Option<Vec<Token>> {
    None
}
