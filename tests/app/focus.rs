//! Focus in the app: overflow animated piece by piece into the trays, consistent with the rules.
use boardcraft::{view::model::PhaseKind, view::pieces::ViewRepairs};
use boardcraft_rules::{AnyEffect, focus::Action};

use crate::common::*;

#[test]
fn an_overflow_reaches_the_trays_as_the_rules_say() {
    let (before, mv) = find_line(
        "focus",
        |e| matches!(e, AnyEffect::Focus(f) if f.overflow.len() >= 2),
    );
    let mut app = app_for("focus", &before, humans());
    start(&mut app);
    record_landings(&mut app);
    play_animated(&mut app, &mv);

    let landings = &app.world().resource::<Landings>().0;
    let kinds: Vec<PhaseKind> = landings.iter().map(|(_, l)| l.kind).collect();
    assert!(
        kinds == [PhaseKind::Hop, PhaseKind::Remove]
            || kinds == [PhaseKind::Place, PhaseKind::Remove],
        "{kinds:?}"
    );
    assert_eq!(*app.world().resource::<ViewRepairs>(), ViewRepairs(0));
    let (view, rules) = (view_snapshot(app.world_mut()), rules_snapshot(app.world()));
    assert_same_pieces(&view, &rules);
    assert!(
        view.trays.iter().any(|(_, t)| !t.is_empty()),
        "the overflow went somewhere"
    );
}

#[test]
fn a_drop_comes_from_the_reserve() {
    let (before, mv) = find_line(
        "focus",
        |e| matches!(e, AnyEffect::Focus(f) if matches!(f.action, Action::Drop { .. })),
    );
    let mut app = app_for("focus", &before, humans());
    start(&mut app);
    record_landings(&mut app);
    play_animated(&mut app, &mv);
    let first = &app.world().resource::<Landings>().0[0].1;
    assert_eq!(first.kind, PhaseKind::Place);
    assert_eq!(*app.world().resource::<ViewRepairs>(), ViewRepairs(0));
    let (view, rules) = (view_snapshot(app.world_mut()), rules_snapshot(app.world()));
    assert_same_pieces(&view, &rules);
}
