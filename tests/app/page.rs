//! What the browser build takes from and gives to its page, tested headless (the code is
//! shared with the desktop): options from the URL's query string, and the game status the
//! page shows as `data-*` attributes.
use boardcraft::{
    game::computer::AiThinking,
    game::config::{Level, PlayerKind, QueryOptions},
    game::match_state::TurnPhase,
    game::status::GameStatus,
};

use crate::common::{app_for, humans, play_animated, run_until, stable_phase, start};

fn query(pairs: &[(&str, &str)]) -> QueryOptions {
    QueryOptions::parse(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())))
}

#[test]
fn query_options_are_the_command_line_options() {
    let options = query(&[
        ("variant", "gipf-basic"),
        ("after", "e1-e2 e9-e8;xe2,e3"),
        ("white", "Master"),
        ("black", "human"),
        ("top-down", ""),
    ]);
    assert_eq!(options.error, None);
    assert!(options.ignored.is_empty(), "{:?}", options.ignored);
    let cli = options.cli;
    assert_eq!(cli.variant.as_deref(), Some("gipf-basic"));
    assert!(!cli.opens_menu(), "a named variant starts its game");
    assert_eq!(cli.after, "e1-e2 e9-e8;xe2,e3");
    assert_eq!(cli.white, PlayerKind::Computer(Level::Master));
    assert_eq!(cli.black, PlayerKind::Human);
    assert!(cli.top_down);
}

#[test]
fn query_flags_read_yes_and_no_and_underscores() {
    assert!(query(&[("top_down", "true")]).cli.top_down);
    assert!(query(&[("top-down", "1")]).cli.top_down);
    let off = query(&[("top-down", "false")]);
    assert!(!off.cli.top_down);
    assert!(off.ignored.is_empty());
    let odd = query(&[("top-down", "maybe")]);
    assert!(!odd.cli.top_down);
    assert_eq!(odd.ignored.len(), 1, "{:?}", odd.ignored);
}

#[test]
fn the_graphics_come_from_the_query_too() {
    use boardcraft::settings::Graphics;
    assert_eq!(
        query(&[("graphics", "light")]).cli.graphics,
        Some(Graphics::Light)
    );
    assert_eq!(
        query(&[("graphics", "full")]).cli.graphics,
        Some(Graphics::Full)
    );
    assert_eq!(query(&[]).cli.graphics, None);
    let bad = query(&[("graphics", "ultra")]);
    assert!(bad.error.is_some_and(|e| e.contains("ultra")));
}

#[test]
fn unknown_query_keys_are_skipped_and_the_rest_still_applies() {
    let options = query(&[("fbclid", "abc"), ("black", "novice")]);
    assert_eq!(options.error, None);
    assert_eq!(options.cli.black, PlayerKind::Computer(Level::Novice));
    assert_eq!(options.ignored.len(), 1);
    assert!(
        options.ignored[0].contains("fbclid"),
        "{:?}",
        options.ignored
    );
}

#[test]
fn a_repeated_query_key_keeps_its_last_value() {
    let options = query(&[("black", "novice"), ("black", "strong")]);
    assert_eq!(options.error, None);
    assert_eq!(options.cli.black, PlayerKind::Computer(Level::Strong));
}

#[test]
fn a_bad_query_value_is_an_error_and_the_defaults_are_used() {
    let options = query(&[("white", "wizard"), ("variant", "halma-16")]);
    let error = options.error.expect("`white=wizard` is rejected");
    assert!(error.contains("wizard"), "{error}");
    let defaults = query(&[]).cli;
    assert_eq!(options.cli.variant, defaults.variant);
    assert_eq!(options.cli.white, defaults.white);
}

#[test]
fn the_status_follows_the_game() {
    let mut app = app_for("ugolki-hg-3x3", "g2:e2", humans());
    start(&mut app);
    app.update();
    let status = app.world().resource::<GameStatus>().clone();
    assert_eq!(status.app_state, "in-game");
    assert_eq!(status.variant, "ugolki-hg-3x3");
    assert_eq!(status.ply, 1);
    assert_eq!(status.last_move, "g2:e2");
    assert_eq!(status.line, "g2:e2");
    assert_eq!(status.to_move, "Black");
    assert_eq!(status.phase, "ready");
    assert_eq!(status.thinking, "");
    assert_eq!(status.outcome, "");
    assert_eq!(status.broken_variants, 0);
    assert!(status.variants >= 1);

    play_animated(&mut app, "b7:d7");
    app.update();
    let status = app.world().resource::<GameStatus>();
    assert_eq!(status.ply, 2);
    assert_eq!(status.last_move, "b7:d7");
    assert_eq!(status.line, "g2:e2 b7:d7");
    assert_eq!(status.to_move, "White");
    let fields = status.fields();
    assert!(fields.contains(&("ply", "2".to_owned())), "{fields:?}");
}

#[test]
fn the_status_names_the_thinking_side() {
    let players = boardcraft::game::config::Players::two(
        PlayerKind::Human,
        PlayerKind::Computer(Level::Strong),
    );
    let mut app = app_for("ugolki-hg-3x3", "g2:e2", players);
    start(&mut app);
    // Every frame until the computer's move: the status says Black thinks exactly while the
    // search runs. (A search cannot end in the frame it starts: its task is polled at once.)
    let frames_thinking = std::cell::Cell::new(0);
    run_until(&mut app, 200_000, "the computer's move", |w| {
        let thinking = w.resource::<AiThinking>().is_thinking();
        let status = w.resource::<GameStatus>();
        assert_eq!(status.thinking, if thinking { "Black" } else { "" });
        frames_thinking.set(frames_thinking.get() + usize::from(thinking));
        status.ply == 2
    });
    assert!(
        frames_thinking.get() > 0,
        "the search was never seen running"
    );
    run_until(&mut app, 2000, "the animation's end", |w| {
        stable_phase(w) == Some(TurnPhase::Ready)
    });
    app.update();
    let status = app.world().resource::<GameStatus>();
    assert_eq!(status.thinking, "");
    assert_eq!(status.to_move, "White");
    // One search, cut into slices (a Strong search is many times one slice's node count).
    assert_eq!(status.searches, 1);
    assert!(status.longest_slice_ms >= 1);
    let stats = app
        .world()
        .resource::<boardcraft::game::computer::SearchStats>();
    assert!(stats.last_slices > 1, "{stats:?}");
    assert!(stats.longest_slice <= stats.last_elapsed, "{stats:?}");
}

#[test]
fn a_game_that_cannot_start_says_why() {
    let mut app = app_for("no-such-variant", "", humans());
    run_until(&mut app, 600, "the failure", |w| {
        w.resource::<GameStatus>().app_state == "failed"
    });
    let status = app.world().resource::<GameStatus>();
    assert!(status.error.contains("no-such-variant"), "{}", status.error);
    assert_eq!(status.ply, 0);
}
