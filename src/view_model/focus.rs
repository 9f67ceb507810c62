//! View adapter for the Focus family. PLACEHOLDER until the family lands on `main`: the
//! rules crate's `focus` module is still a stub there, so there is nothing to draw yet.
use boardcraft_rules::{
    Position,
    focus::{FocusPosition, FocusRules},
};

use super::{Layout, PieceStyle, Script, Snapshot, Token};

pub fn layout(_rules: &FocusRules) -> Layout {
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

pub fn snapshot(_position: &FocusPosition, layout: &Layout) -> Snapshot {
    Snapshot::empty(layout)
}

pub fn script(
    _before: &FocusPosition,
    _mv: &<FocusPosition as Position>::Move,
    _effect: &<FocusPosition as Position>::Effect,
    _layout: &Layout,
) -> Script {
    Vec::new()
}

pub fn tokens(
    _position: &FocusPosition,
    _mv: &<FocusPosition as Position>::Move,
    _layout: &Layout,
) -> Option<Vec<Token>> {
    None
}
