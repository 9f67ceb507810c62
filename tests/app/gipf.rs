//! GIPF in the app: pushes and row removals animated, consistent with the rules; GIPF-pieces
//! split into basic pieces in the trays and tournament GIPF-pieces made of two.
use boardcraft::{
    game::match_state::Match,
    view::model::{PhaseKind, Tray},
    view::pieces::ViewRepairs,
};
use boardcraft_rules::{AnyEffect, gipf::piece::PieceKind};

use crate::common::*;

fn removes_a_row(e: &AnyEffect) -> bool {
    matches!(e, AnyEffect::Gipf(g) if g.removals.iter().any(|s| !s.rows.is_empty()))
}

#[test]
fn a_row_removal_reaches_the_view_as_the_rules_say() {
    let (before, mv) = find_line("gipf-basic", removes_a_row);
    let mut app = app_for("gipf-basic", &before, humans());
    start(&mut app);
    record_landings(&mut app);
    play_animated(&mut app, &mv);
    let kinds: Vec<PhaseKind> = app
        .world()
        .resource::<Landings>()
        .0
        .iter()
        .map(|(_, l)| l.kind)
        .collect();
    assert_eq!(&kinds[..2], [PhaseKind::Place, PhaseKind::Slide]);
    assert!(
        kinds[2..].iter().all(|k| *k == PhaseKind::Remove) && kinds.len() > 2,
        "{kinds:?}"
    );
    assert_eq!(*app.world().resource::<ViewRepairs>(), ViewRepairs(0));
    let (view, rules) = (view_snapshot(app.world_mut()), rules_snapshot(app.world()));
    assert_same_pieces(&view, &rules);
}

#[test]
fn a_removed_gipf_piece_counts_as_two_basic_pieces() {
    let (before, mv) = find_line("gipf-standard", |e| {
        matches!(e, AnyEffect::Gipf(g) if g.removals.iter().flat_map(|s| &s.rows)
            .flat_map(|r| &r.removed).any(|p| p.piece.kind == PieceKind::Gipf))
    });
    let mut app = app_for("gipf-standard", &before, humans());
    start(&mut app);
    play_animated(&mut app, &mv);
    assert_eq!(*app.world().resource::<ViewRepairs>(), ViewRepairs(0));
    let (view, rules) = (view_snapshot(app.world_mut()), rules_snapshot(app.world()));
    assert_same_pieces(&view, &rules);
    // The trays hold basic pieces only (material is counted in basic pieces).
    for tray in [
        Tray::Captured(boardcraft_rules::Seat::WHITE),
        Tray::Captured(boardcraft_rules::Seat::BLACK),
    ] {
        assert!(view.tray(tray).iter().all(|p| !p.gipf));
    }
}

#[test]
fn a_tournament_gipf_piece_is_made_of_two_reserve_pieces() {
    let mut app = app_for("gipf-tournament", "", humans());
    start(&mut app);
    // The first move of the tournament game must bring in a GIPF-piece.
    let first = {
        let game = app.world().resource::<Match>();
        let mut moves = Vec::new();
        boardcraft_rules::Position::legal_moves(&game.position, &mut moves);
        boardcraft_rules::Position::format_move(&game.position, &moves[0])
    };
    assert!(first.starts_with('G'), "{first}");
    play_animated(&mut app, &first);
    assert_eq!(*app.world().resource::<ViewRepairs>(), ViewRepairs(0));
    let (view, rules) = (view_snapshot(app.world_mut()), rules_snapshot(app.world()));
    assert_same_pieces(&view, &rules);
}
