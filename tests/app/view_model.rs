//! The family-independent view model: layouts, snapshots, scripts.
use bevy::math::{Vec2, Vec3};
use boardcraft::view::model::*;
use boardcraft_rules::Seat;

fn grid() -> Layout {
    square_grid(
        3,
        3,
        |_, _| true,
        |_, _| None,
        PieceStyle {
            radius: 0.4,
            height: 0.2,
            tall: false,
        },
    )
}

#[test]
fn a_phase_moves_its_pieces_together() {
    let layout = grid();
    let a = layout.id("a1").unwrap();
    let b = layout.id("b1").unwrap();
    let c = layout.id("c1").unwrap();
    let mut s = Snapshot::empty(&layout);
    s.stacks[a.index()].push(PieceKind::man(Seat::WHITE));
    s.stacks[b.index()].push(PieceKind::man(Seat::BLACK));
    // A push: a→b and b→c at once must not stack a onto b.
    let push = [
        Motion::carry(Place::Cell(a), Take::Top(1), Place::Cell(b)),
        Motion::carry(Place::Cell(b), Take::Top(1), Place::Cell(c)),
    ];
    apply_motions(&mut s, &push).unwrap();
    assert!(s.stacks[a.index()].is_empty());
    assert_eq!(s.stacks[b.index()], vec![PieceKind::man(Seat::WHITE)]);
    assert_eq!(s.stacks[c.index()], vec![PieceKind::man(Seat::BLACK)]);
}

#[test]
fn taking_from_the_bottom_keeps_order_and_missing_pieces_are_an_error() {
    let kind = |n: &i32| {
        Some(PieceKind::man(if *n % 2 == 0 {
            Seat::WHITE
        } else {
            Seat::BLACK
        }))
    };
    let mut stack = vec![1, 2, 3, 4, 5];
    assert_eq!(take(&mut stack, Take::Bottom(2), kind), Some(vec![1, 2]));
    assert_eq!(take(&mut stack, Take::Top(1), kind), Some(vec![5]));
    assert_eq!(stack, vec![3, 4]);
    assert_eq!(take(&mut stack, Take::Top(3), kind), None);
    assert_eq!(stack, vec![3, 4]);
    // By kind: the topmost pieces of that kind, wherever they are in the pile.
    let mut pile = vec![1, 2, 3, 4, 5, 6];
    let white = PieceKind::man(Seat::WHITE);
    assert_eq!(
        take(&mut pile, Take::Kind(white, 2), kind),
        Some(vec![4, 6])
    );
    assert_eq!(pile, vec![1, 2, 3, 5]);
    assert_eq!(take(&mut pile, Take::Kind(white, 2), kind), None);
    assert_eq!(pile, vec![1, 2, 3, 5]);
}

#[test]
fn reshaping_counts_material_in_basic_pieces() {
    let gipf = PieceKind {
        color: Seat::BLACK,
        gipf: true,
    };
    let man = PieceKind::man(Seat::BLACK);
    assert_eq!(
        reshape(vec![gipf, man], Reshape::Split),
        vec![man, man, man]
    );
    assert_eq!(reshape(vec![man, man], Reshape::Join), vec![gipf]);
    assert_eq!(reshape(vec![gipf], Reshape::Keep), vec![gipf]);
}

#[test]
fn square_names_and_world_mapping() {
    let layout = grid();
    assert_eq!(
        layout.cell(layout.id("c3").unwrap()).at,
        Vec2::new(2.0, 2.0)
    );
    assert_eq!(square_name(0, 15), "a16");
    // The centre square sits at the world origin; rank 3 is further from White (−z).
    assert_eq!(
        layout.slot_world(layout.id("b2").unwrap(), 0),
        Vec3::new(0.0, SURFACE, 0.0)
    );
    assert!(layout.slot_world(layout.id("b3").unwrap(), 0).z < 0.0);
}
