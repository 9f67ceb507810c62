//! The window's shape and the game screen's regions: decided from the window's size, the board
//! never under a panel, as large as the shape allows; the camera draws in the board's region.
use bevy::{
    ecs::system::RunSystemOnce,
    prelude::*,
    window::{PrimaryWindow, WindowResolution},
};
use bevy_egui::egui;
use boardcraft::{
    ui::layout::{BoardArea, Layout, Shape, decide, fit_viewport, follow_window, game_regions},
    view::camera::OrbitCamera,
};

/// The sizes the browser test checks, and two desktop windows: (CSS width, height, shape,
/// touch-sized).
const SIZES: [(u32, u32, Shape, bool); 7] = [
    (360, 640, Shape::Portrait, true),
    (390, 844, Shape::Portrait, true),
    (844, 390, Shape::ShortLandscape, true),
    (768, 1024, Shape::Portrait, true),
    (1024, 600, Shape::Wide, true),
    (1280, 800, Shape::Wide, false),
    (960, 600, Shape::Wide, true),
];

fn world_with_window(width: u32, height: u32, scale: f32) -> World {
    let mut world = World::new();
    world.spawn((
        Window {
            resolution: WindowResolution::new(
                (width as f32 * scale) as u32,
                (height as f32 * scale) as u32,
            )
            .with_scale_factor_override(scale),
            ..default()
        },
        PrimaryWindow,
    ));
    world.init_resource::<Layout>();
    world
}

/// The shape follows the window's size in logical pixels, whatever the device's pixel ratio.
#[test]
fn the_shape_is_decided_from_the_window_in_logical_pixels() {
    for (w, h, shape, touch) in SIZES {
        for scale in [1.0, 2.0, 3.0] {
            let mut world = world_with_window(w, h, scale);
            world.run_system_once(follow_window).unwrap();
            let layout = *world.resource::<Layout>();
            assert_eq!(layout.shape, shape, "{w}×{h} at {scale}×");
            assert_eq!(layout.touch, touch, "{w}×{h} at {scale}×");
            assert_eq!(layout.window, Vec2::new(w as f32, h as f32));
        }
    }
}

/// For every size, with and without an online panel: the board, the panel and the online
/// panel lie inside the screen and do not overlap; the board is as large as the shape allows
/// (the full width in portrait, the full height otherwise).
#[test]
fn the_board_is_never_under_a_panel_and_as_large_as_the_shape_allows() {
    for (w, h, shape, _) in SIZES {
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(w as f32, h as f32));
        for online in [0.0, 120.0, 250.0] {
            let regions = game_regions(shape, screen, online);
            let what = format!("{w}×{h} {shape:?}, online {online}");
            let inside = |r: egui::Rect| screen.expand(0.01).contains_rect(r);
            assert!(inside(regions.board), "{what}: board {:?}", regions.board);
            assert!(inside(regions.panel), "{what}: panel {:?}", regions.panel);
            let overlap = |a: egui::Rect, b: egui::Rect| a.intersect(b).area() > 0.01;
            assert!(
                !overlap(regions.board, regions.panel),
                "{what}: {regions:?}"
            );
            if let Some(strip) = regions.online {
                assert!(inside(strip), "{what}: online {strip:?}");
                assert!(!overlap(regions.board, strip), "{what}: {regions:?}");
                assert!(!overlap(regions.panel, strip), "{what}: {regions:?}");
            } else {
                assert_eq!(online, 0.0, "{what}: no room for the online panel");
            }
            let board = regions.board;
            match shape {
                Shape::Portrait => {
                    assert_eq!(board.width(), w as f32, "{what}");
                    assert!(board.height() >= 0.9 * w as f32, "{what}: {board:?}");
                    // The bar keeps at least half of what is under the board.
                    let below = h as f32 - board.height();
                    assert!(
                        regions.panel.height() >= 0.5 * below - 0.5,
                        "{what}: {regions:?}"
                    );
                }
                Shape::ShortLandscape => {
                    assert_eq!(board.height(), h as f32, "{what}");
                    assert!(board.width() >= board.height(), "{what}: {board:?}");
                    assert!(regions.panel.width() >= 230.0, "{what}: {regions:?}");
                }
                Shape::Wide => {
                    assert_eq!(board.height(), h as f32, "{what}");
                    assert!(board.width() >= 0.4 * w as f32, "{what}: {board:?}");
                }
            }
        }
    }
}

/// The camera draws in the board's region (physical pixels), and over the whole window when
/// there is no game on the screen.
#[test]
fn the_camera_draws_in_the_boards_region() {
    let viewport = |area: Option<Rect>, scale: f32| {
        let mut world = world_with_window(390, 844, scale);
        let camera = world
            .spawn((Camera::default(), OrbitCamera::default()))
            .id();
        world.insert_resource(BoardArea(area));
        world.run_system_once(fit_viewport).unwrap();
        world
            .get::<Camera>(camera)
            .unwrap()
            .viewport
            .as_ref()
            .map(|v| (v.physical_position, v.physical_size))
    };
    // Portrait: the board's square at the top.
    let board = Rect::new(0.0, 0.0, 390.0, 390.0);
    assert_eq!(
        viewport(Some(board), 2.0),
        Some((UVec2::ZERO, UVec2::new(780, 780)))
    );
    // A wide window's board between the online panel and the game's panel.
    assert_eq!(
        viewport(Some(Rect::new(100.0, 0.0, 300.0, 844.0)), 1.0),
        Some((UVec2::new(100, 0), UVec2::new(200, 844)))
    );
    assert_eq!(viewport(None, 2.0), None);
}

#[test]
fn shapes_of_common_windows() {
    for (w, h, shape) in [
        (360.0, 640.0, Shape::Portrait),
        (390.0, 844.0, Shape::Portrait),
        (768.0, 1024.0, Shape::Portrait),
        (844.0, 390.0, Shape::ShortLandscape),
        (640.0, 360.0, Shape::ShortLandscape),
        (1024.0, 600.0, Shape::Wide),
        (1280.0, 800.0, Shape::Wide),
        (960.0, 600.0, Shape::Wide),
    ] {
        assert_eq!(decide(Vec2::new(w, h)), shape, "{w}×{h}");
    }
}
