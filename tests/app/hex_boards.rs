//! Boards on a hex grid and tables of more than two seats: the star and a hexagon from a mod
//! file drawn cell for cell, every seat's pieces, moves and hot reload on the new geometry,
//! the camera turned to the seat to move, placement badges.
use std::{path::PathBuf, sync::Arc};

use bevy::prelude::*;
use boardcraft::{
    automation::headless_app_with,
    game::config::{GameConfig, VariantChoice},
    game::match_state::{Match, StartGame, TurnPhase},
    view::badges::PlacementBadge,
    view::board::{Board, CellMarker},
    view::camera::plugin as camera_plugin,
    view::camera_turn::{CameraTurn, turn_for},
    view::model::{Grid, PieceKind},
    view::pieces::{Piece, ViewRepairs},
};
use boardcraft_rules::{Position, Seat, Variant};

use crate::common::*;

/// The board's cells drawn (needs the board's meshes, which the headless app leaves out: the
/// tests add them on plain asset stores).
fn with_board_meshes(app: &mut App) {
    app.init_asset::<Mesh>()
        .init_asset::<StandardMaterial>()
        .add_plugins(boardcraft::view::board::render_plugin);
}

fn app_drawing(variant: &str) -> App {
    headless_app_with(
        GameConfig {
            variant: VariantChoice::parse(variant),
            after: String::new(),
            position: None,
            players: None,
        },
        humans(),
        STEP,
        (with_board_meshes, camera_plugin),
    )
}

fn cell_entities(app: &mut App) -> usize {
    let mut cells = app.world_mut().query::<&CellMarker>();
    cells.iter(app.world()).count()
}

/// Starts `variant` at a table of `seats` (from `position` if given) and waits for it.
fn start_table(app: &mut App, variant: &Variant, seats: usize, position: Option<&str>) {
    let table = variant
        .with_players(seats)
        .expect("the variant seats that many");
    let from = position.map(|text| table.position_from_text(text).expect("a position"));
    let request = StartGame {
        from,
        ..StartGame::new(Arc::new(table), "")
    };
    app.world_mut().write_message(request);
    run_until(app, 600, "the table's game", |w| {
        w.get_resource::<Match>()
            .is_some_and(|m| m.position.seat_count() == seats)
            && w.get_resource::<Board>()
                .is_some_and(|b| b.layout.seats == seats)
            && stable_phase(w) == Some(TurnPhase::Ready)
    });
    app.update();
    app.update();
}

fn pieces_of(app: &mut App) -> Vec<PieceKind> {
    let mut pieces = app.world_mut().query::<&Piece>();
    pieces.iter(app.world()).map(|p| p.kind).collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("boardcraft-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const HEX_HALMA: &str = include_str!("../../examples/mods/hex-halma.ron");

/// The hexagon a side smaller (the outer ring of cells removed), for two.
const SMALLER: &str = r#"(
    format_version: 1,
    name: "hex-halma",
    title: "Hex Halma",
    rules: Race(
        board: Hexagon(6),
        directions: Hex,
        regions: [
            (name: "bottom", cells: ["f1", "g1", "h1", "e2", "f2", "g2", "d3", "e3", "f3"]),
            (name: "top", cells: ["f11", "e11", "d11", "g10", "f10", "e10", "h9", "g9", "f9"]),
        ],
        seats: {
            2: [
                (name: "Red", letter: 'R', home: "bottom", target: "top"),
                (name: "Green", letter: 'G', home: "top", target: "bottom"),
            ],
        },
        first_player: White,
        rest_in_other_regions: true,
        target_lock: PerLanding,
        win: FullWithAnyOwn,
        no_legal_move: Pass,
        repetition_draw: Some(3),
    ),
)"#;

#[test]
fn the_star_is_drawn_cell_for_cell_with_every_seats_pieces() {
    let mut app = app_drawing("chinese-checkers");
    start(&mut app);
    let star = app.world().resource::<Match>().variant.clone();
    start_table(&mut app, &star, 6, None);

    let layout = app.world().resource::<Board>().layout.clone();
    assert_eq!(layout.grid, Grid::Hex);
    assert_eq!(layout.cells.len(), 121);
    assert_eq!(cell_entities(&mut app), 121);
    // Neighbours on the grid are one unit apart in layout space, and no two cells are closer.
    let cell_at = |name: &str| layout.cell(layout.id(name).unwrap()).at;
    for (a, b) in [
        ("i9", "j9"),
        ("i9", "i10"),
        ("i9", "h10"),
        ("e5", "f5"),
        ("e17", "e16"),
    ] {
        let d = cell_at(a).distance(cell_at(b));
        assert!((d - 1.0).abs() < 1e-4, "{a}-{b}: {d}");
    }
    for (i, a) in layout.cells.iter().enumerate() {
        for b in &layout.cells[i + 1..] {
            assert!(a.at.distance(b.at) > 0.999, "{} and {}", a.name, b.name);
        }
    }
    // Six seats of ten, each in its own colour, standing on its own point.
    let pieces = pieces_of(&mut app);
    assert_eq!(pieces.len(), 60);
    for seat in Seat::all(6) {
        assert_eq!(
            pieces.iter().filter(|k| k.color == seat).count(),
            10,
            "{seat:?}"
        );
    }
    let board = app.world().resource::<Board>();
    for (i, a) in board.looks.iter().enumerate() {
        for b in &board.looks[i + 1..] {
            assert_ne!(a.colour, b.colour);
            assert_ne!(a.mark, b.mark);
        }
    }
    // Every point is some seat's home, tinted for it.
    let camps = layout.cells.iter().filter(|c| c.camp.is_some()).count();
    assert_eq!(camps, 60);
    assert_same_pieces(
        &view_snapshot(app.world_mut()),
        &rules_snapshot(app.world()),
    );
}

#[test]
fn the_three_seat_star_tints_the_empty_points_for_the_seats_racing_there() {
    let mut app = app_drawing("chinese-checkers");
    start(&mut app);
    let star = app.world().resource::<Match>().variant.clone();
    start_table(&mut app, &star, 3, None);
    let layout = app.world().resource::<Board>().layout.clone();
    assert_eq!(layout.cells.iter().filter(|c| c.camp.is_some()).count(), 30);
    assert_eq!(layout.cells.iter().filter(|c| c.goal.is_some()).count(), 30);
    assert_eq!(pieces_of(&mut app).len(), 30);
}

#[test]
fn the_camera_turns_to_the_seat_to_move_between_turns() {
    let mut app = app_drawing("chinese-checkers");
    start(&mut app);
    let star = app.world().resource::<Match>().variant.clone();
    start_table(&mut app, &star, 6, None);
    let layout = app.world().resource::<Board>().layout.clone();
    let turn = |app: &mut App| {
        let mut q = app.world_mut().query::<(&CameraTurn, &Transform)>();
        let (t, at) = q.single(app.world()).unwrap();
        (*t, *at)
    };
    // Everybody here is a person: the board is seen from the seat to move, Red's point at
    // the bottom.
    for _ in 0..20 {
        app.update();
    }
    let (t, _) = turn(&mut app);
    assert!(t.angle.abs() < 1e-3, "{t:?}");

    let mover = app.world().resource::<Match>().position.side_to_move();
    let mut moves = Vec::new();
    app.world()
        .resource::<Match>()
        .position
        .legal_moves(&mut moves);
    let notation = app
        .world()
        .resource::<Match>()
        .position
        .format_move(&moves[0]);
    request(&mut app, &notation);
    app.update();
    app.update();
    // While the move is animated the camera stays.
    while phase(app.world()) == Some(TurnPhase::Animating) {
        let (t, _) = turn(&mut app);
        assert!(t.to.abs() < 1e-3, "turning during the animation: {t:?}");
        app.update();
    }
    for _ in 0..20 {
        app.update();
    }
    let next = app.world().resource::<Match>().position.side_to_move();
    assert_ne!(next, mover);
    let angle = layout.seat_angle(next);
    let (t, at) = turn(&mut app);
    assert!((t.angle - turn_for(angle)).abs() < 1e-3, "{t:?}");
    // The camera stands over the next seat's home.
    let home = Vec2::from_angle(angle);
    let seen_from = Vec2::new(at.translation.x, -at.translation.z).normalize();
    assert!(seen_from.dot(home) > 0.99, "{seen_from} vs {home}");
    // Seen from above, the screen's up points away from that home.
    app.world_mut()
        .resource_mut::<boardcraft::settings::Settings>()
        .view = boardcraft::settings::View::TopDown;
    app.update();
    let (_, at) = turn(&mut app);
    let up = at.up();
    let up = Vec2::new(up.x, -up.z).normalize();
    assert!(up.dot(home) < -0.99, "screen up {up} vs home {home}");
}

#[test]
fn a_hexagon_from_a_mod_file_is_drawn_played_and_redrawn_when_the_file_changes() {
    let dir = scratch("hex-halma");
    let file = dir.join("hex-halma.ron");
    std::fs::write(&file, HEX_HALMA).unwrap();
    let cells_in = |text: &str| {
        let v = Variant::from_ron("hex-halma.ron", text).expect("the mod validates");
        match &v.rules {
            boardcraft_rules::FamilyRules::Race(r) => r.cells().len(),
            _ => unreachable!(),
        }
    };
    // Hexagon(7): 3 · 7 · 6 + 1 cells.
    assert_eq!(cells_in(HEX_HALMA), 127);
    let mut app = app_drawing(file.to_str().unwrap());
    start(&mut app);
    assert_eq!(app.world().resource::<Board>().layout.grid, Grid::Hex);
    assert_eq!(cell_entities(&mut app), 127);
    assert_eq!(pieces_of(&mut app).len(), 18);

    // A hop lands on the cell the rules say, where the layout puts it.
    play_animated(&mut app, "f2:d4");
    let game = app.world().resource::<Match>();
    assert_eq!(game.position.ply(), 1);
    let view = view_snapshot(app.world_mut());
    assert_same_pieces(&view, &rules_snapshot(app.world()));
    assert_eq!(app.world().resource::<ViewRepairs>().0, 0);
    let layout = app.world().resource::<Board>().layout.clone();
    let d4 = layout.id("d4").unwrap();
    assert_eq!(view.stacks[d4.index()], vec![PieceKind::man(Seat::WHITE)]);

    // The modder makes the hexagon a side smaller; the reload redraws it.
    let smaller = SMALLER.to_owned();
    assert_eq!(cells_in(&smaller), 91);
    std::fs::write(&file, &smaller).unwrap();
    app.world()
        .resource::<AssetServer>()
        .reload("cli://hex-halma.ron");
    run_until(&mut app, 600, "the smaller board", |w| {
        w.get_resource::<Board>()
            .is_some_and(|b| b.layout.cells.len() == 91)
            && stable_phase(w) == Some(TurnPhase::Ready)
    });
    app.update();
    app.update();
    assert_eq!(cell_entities(&mut app), 91);
    assert_same_pieces(
        &view_snapshot(app.world_mut()),
        &rules_snapshot(app.world()),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_seat_that_has_finished_shows_its_place_over_its_target() {
    let mut app = app_drawing(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/mods/hex-halma.ron")
            .to_str()
            .unwrap(),
    );
    start(&mut app);
    let halma = app.world().resource::<Match>().variant.clone();
    // Red has filled the top corner; Blue and Yellow play on.
    start_table(
        &mut app,
        &halma,
        3,
        Some("YYY1RRR/YYY2RRR/YYY3RRR/10/10B/10BB/10BBB/10BB/10B/10/9/8/7 b 10 R"),
    );
    let layout = app.world().resource::<Board>().layout.clone();
    let mut badges = app.world_mut().query::<(&PlacementBadge, &Transform)>();
    let shown: Vec<(PlacementBadge, Vec3)> = badges
        .iter(app.world())
        .map(|(b, t)| (b.clone(), t.translation))
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    let (badge, at) = &shown[0];
    assert_eq!(
        *badge,
        PlacementBadge {
            seat: Seat::WHITE,
            place: 1
        }
    );
    let top = layout.goal(Seat::WHITE).expect("Red races somewhere");
    let over = layout.world(top, 0.0);
    assert!((at.x - over.x).abs() < 1e-4 && (at.z - over.z).abs() < 1e-4);
    assert_eq!(
        boardcraft::ui::badges::place_text(2, Default::default()),
        "2nd"
    );
    assert_eq!(
        boardcraft::ui::badges::place_text(2, boardcraft::settings::Language::Russian),
        "2-е"
    );
}

/// Focus for four: every seat's reserve and captures have trays, and a random game's moves,
/// overflows and drops animate into exactly what the rules say.
#[test]
fn focus_for_four_animates_as_the_rules_say() {
    let mut app = app_drawing("focus");
    start(&mut app);
    let focus = app.world().resource::<Match>().variant.clone();
    start_table(&mut app, &focus, 4, None);
    let layout = app.world().resource::<Board>().layout.clone();
    for seat in Seat::all(4) {
        for tray in [
            boardcraft::view::model::Tray::Reserve(seat),
            boardcraft::view::model::Tray::Captured(seat),
        ] {
            assert!(layout.trays.iter().any(|(t, _, _)| *t == tray), "{tray:?}");
        }
    }
    let mut picker = boardcraft_rules::checks::SeededMoves::new(7);
    let mut moves = Vec::new();
    let mut trays_used = false;
    for _ in 0..150 {
        let game = app.world().resource::<Match>();
        if game.position.is_game_over() {
            break;
        }
        game.position.legal_moves(&mut moves);
        let Some(mv) = picker.pick(&moves) else {
            break;
        };
        let notation = game.position.format_move(mv);
        play_animated(&mut app, &notation);
        let view = view_snapshot(app.world_mut());
        trays_used |= view.trays.iter().any(|(_, t)| !t.is_empty());
    }
    assert!(trays_used, "no piece reached a tray in 150 plies");
    assert_eq!(app.world().resource::<ViewRepairs>().0, 0);
    assert_same_pieces(
        &view_snapshot(app.world_mut()),
        &rules_snapshot(app.world()),
    );
}
