//! The camera: where the board is seen from.
use bevy::prelude::*;
use boardcraft::{
    automation::headless_app_with,
    game::config::{GameConfig, Level, PlayerKind, Players, VariantChoice},
    settings::{Settings, View},
    view::camera::{OrbitCamera, plugin as camera_plugin},
};

use crate::common::{STEP, humans, start};

/// The board is seen from the side of the one person at it: Black's camp at the bottom of the
/// screen for a player of Black (against the computer, or online), White's otherwise.
#[test]
fn the_camera_faces_the_side_of_the_person_playing() {
    let black_human = Players::two(PlayerKind::Computer(Level::Novice), PlayerKind::Human);
    let online_black = Players::two(PlayerKind::Remote, PlayerKind::Human);
    for (players, black_at_bottom) in [
        (humans(), false),
        (black_human, true),
        (online_black, true),
        (Players::two(PlayerKind::Human, PlayerKind::Remote), false),
    ] {
        let config = GameConfig {
            variant: VariantChoice::parse("ugolki-9qum"),
            after: String::new(),
            position: None,
            players: None,
        };
        let mut app = headless_app_with(config, players.clone(), STEP, camera_plugin);
        start(&mut app);
        for view in [View::Perspective, View::TopDown] {
            app.world_mut().resource_mut::<Settings>().view = view;
            app.update();
            let mut cameras = app
                .world_mut()
                .query_filtered::<&Transform, With<OrbitCamera>>();
            let t = *cameras.single(app.world()).unwrap();
            // White's camp is towards +z: the camera stands on the facing side (perspective), or
            // has the facing side at the bottom of the screen (top-down: screen-up points away).
            let towards_black = match view {
                View::Perspective => t.translation.z < 0.0,
                View::TopDown => t.up().z > 0.0,
            };
            assert_eq!(towards_black, black_at_bottom, "{players:?} {view:?}");
        }
    }
}

#[test]
fn fingers_apart_zoom_in_and_together_zoom_out() {
    use boardcraft::input::touch_camera::pinch_zoom;
    assert!(pinch_zoom(1.0, 100.0, 200.0) < 1.0);
    assert!(pinch_zoom(1.0, 200.0, 100.0) > 1.0);
    assert_eq!(pinch_zoom(1.0, 100.0, 1000.0), 0.45);
    assert_eq!(pinch_zoom(1.0, 0.0, 100.0), 1.0);
}

#[test]
fn a_double_tap_is_two_quick_taps_close_together_even_a_slow_frame_apart() {
    use boardcraft::input::touch_camera::is_double_tap;
    let first = (Vec2::new(100.0, 100.0), 10.0);
    // At 60 frames a second: 0.2 s apart is a double tap, 0.5 s apart two taps.
    assert!(is_double_tap(
        first,
        Vec2::new(105.0, 98.0),
        10.2,
        1.0 / 60.0
    ));
    assert!(!is_double_tap(
        first,
        Vec2::new(105.0, 98.0),
        10.5,
        1.0 / 60.0
    ));
    // Too far apart on the screen.
    assert!(!is_double_tap(
        first,
        Vec2::new(140.0, 100.0),
        10.2,
        1.0 / 60.0
    ));
    // A frame of 0.8 s: taps seen in consecutive frames were quick, two frames apart not.
    assert!(is_double_tap(first, Vec2::new(100.0, 100.0), 10.8, 0.8));
    assert!(!is_double_tap(first, Vec2::new(100.0, 100.0), 11.6, 0.8));
}

/// The graphics setting: full graphics multisample the board's camera and let the key light
/// cast shadows, light graphics do neither, and `Auto` is light on a renderer that runs on the
/// processor only (a headless app has no renderer: full).
#[test]
fn light_graphics_turn_off_multisampling_and_shadows() {
    use boardcraft::settings::Graphics;
    use boardcraft::view::graphics::{CastsShadows, LightGraphics, SoftwareRenderer};
    let config = GameConfig {
        variant: VariantChoice::parse("ugolki-9qum"),
        after: String::new(),
        position: None,
        players: None,
    };
    let mut app = headless_app_with(
        config,
        humans(),
        STEP,
        (camera_plugin, boardcraft::view::graphics::plugin),
    );
    let key = app
        .world_mut()
        .spawn((
            DirectionalLight {
                shadow_maps_enabled: true,
                ..default()
            },
            CastsShadows,
        ))
        .id();
    let fill = app
        .world_mut()
        .spawn(DirectionalLight {
            shadow_maps_enabled: false,
            ..default()
        })
        .id();
    start(&mut app);
    let drawn = |app: &mut App| {
        let msaa = *app
            .world_mut()
            .query_filtered::<&Msaa, With<OrbitCamera>>()
            .single(app.world())
            .unwrap();
        let shadows = |e| {
            app.world()
                .get::<DirectionalLight>(e)
                .unwrap()
                .shadow_maps_enabled
        };
        (
            msaa,
            shadows(key),
            shadows(fill),
            app.world().resource::<LightGraphics>().0,
        )
    };
    assert_eq!(
        drawn(&mut app),
        (Msaa::Sample4, true, false, false),
        "auto, no renderer"
    );
    for (graphics, software, expected) in [
        (Graphics::Light, false, (Msaa::Off, false, false, true)),
        (Graphics::Full, false, (Msaa::Sample4, true, false, false)),
        (Graphics::Auto, true, (Msaa::Off, false, false, true)),
        (Graphics::Full, true, (Msaa::Sample4, true, false, false)),
        (Graphics::Auto, false, (Msaa::Sample4, true, false, false)),
    ] {
        app.world_mut().resource_mut::<Settings>().graphics = graphics;
        app.world_mut().resource_mut::<SoftwareRenderer>().0 = software;
        app.update();
        assert_eq!(
            drawn(&mut app),
            expected,
            "{graphics:?}, software {software}"
        );
    }
}
