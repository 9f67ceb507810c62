//! Human input as clicks: the click paths of every family and how a selection narrows them.
use boardcraft::{
    input::Selection,
    view::model::{Layout, Token, input_paths},
};
use boardcraft_rules::{AnyPosition, Position, shipped_variant};

fn position(variant: &str, line: &str) -> (AnyPosition, Layout) {
    let v = shipped_variant(variant).unwrap();
    let mut pos = v.new_game();
    boardcraft_rules::position::play_line(&mut pos, line).unwrap();
    (pos, Layout::for_variant(&v))
}

fn selection(pos: &AnyPosition, layout: &Layout) -> Selection {
    Selection::new(input_paths(pos, layout))
}

fn cell(layout: &Layout, name: &str) -> Token {
    Token::Cell(layout.id(name).unwrap())
}

#[test]
fn every_legal_move_has_a_click_path_in_every_variant() {
    for name in boardcraft_rules::shipped_variants() {
        let (pos, layout) = position(name, "");
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let paths = input_paths(&pos, &layout);
        assert_eq!(paths.len(), moves.len(), "{name}");
        assert!(paths.iter().all(|p| !p.tokens.is_empty()), "{name}");
    }
}

#[test]
fn a_race_move_is_two_clicks_and_targets_follow_the_piece() {
    let (pos, layout) = position("ugolki-hg-3x3", "");
    let mut sel = selection(&pos, &layout);
    assert!(sel.click(cell(&layout, "f3"), None).is_none());
    let next = sel.next_tokens();
    assert!(next.contains(&cell(&layout, "e3")) && next.contains(&cell(&layout, "f4")));
    assert!(
        !next.contains(&cell(&layout, "g4")),
        "g4 is g3's target, not f3's"
    );
    // Another own piece starts over; an empty square that is no target clears.
    assert!(sel.click(cell(&layout, "g3"), None).is_none());
    assert_eq!(sel.clicks, vec![cell(&layout, "g3")]);
    assert!(sel.click(cell(&layout, "a4"), None).is_none());
    assert!(sel.clicks.is_empty());
    sel.click(cell(&layout, "g2"), None);
    let chosen = sel
        .click(cell(&layout, "e2"), None)
        .expect("g2:e2 is a move");
    assert_eq!(chosen.notation, "g2:e2");
    assert!(sel.clicks.is_empty());
}

#[test]
fn clicking_a_level_of_a_focus_tower_chooses_how_many_to_lift() {
    // d4-d5 puts White on Black at d5; after Black's reply White's two-high tower can lift 1 or 2.
    let (pos, layout) = position("focus", "d4-d5 e5-e4");
    let mut sel = selection(&pos, &layout);
    // The bottom piece (level 0) of a two-high tower: lift both.
    assert!(sel.click(cell(&layout, "d5"), Some(2)).is_none());
    assert_eq!(sel.lift, Some(2));
    assert!(sel.next_tokens().contains(&cell(&layout, "d7")));
    assert!(!sel.next_tokens().contains(&cell(&layout, "d6")));
    sel.adjust_lift(-1);
    assert_eq!(sel.lift, Some(1));
    assert!(sel.next_tokens().contains(&cell(&layout, "d6")));
    let chosen = sel
        .click(cell(&layout, "d6"), None)
        .expect("d5-d6 lifts one");
    assert_eq!(chosen.notation, "d5-d6");
}

#[test]
fn gipf_moves_that_share_their_clicks_go_to_the_chooser() {
    // Tournament GIPF after the first moves: a basic piece or a GIPF-piece may enter at the
    // same dot and spot; the clicks cannot tell them apart, so the player is asked.
    for seed_line in ["Ge1-e2 Ge9-e8", "Ga1-b2 Gi5-h5"] {
        let (pos, layout) = position("gipf-tournament", seed_line);
        let paths = input_paths(&pos, &layout);
        let Some(shared) = paths
            .iter()
            .find(|p| paths.iter().filter(|q| q.tokens == p.tokens).count() > 1)
        else {
            continue;
        };
        let mut sel = selection(&pos, &layout);
        let tokens = shared.tokens.clone();
        let mut done = None;
        for t in &tokens {
            done = sel.click(*t, None);
        }
        assert!(done.is_none());
        assert!(sel.choices.len() > 1, "{:?}", sel.choices);
        assert!(sel.choices.iter().all(|c| c.tokens == tokens));
        return;
    }
    panic!("no position with moves sharing their clicks was found");
}
