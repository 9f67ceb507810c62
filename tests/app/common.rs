//! Helpers shared by the app tests: building the headless app, stepping it, reading state.
use std::time::Duration;

use bevy::prelude::*;
use boardcraft::{
    automation::headless_app,
    game::config::{GameConfig, PlayerKind, Players, VariantChoice},
    game::match_state::{AppState, Match, MoveRequested, TurnPhase},
    view::animation::PieceLanded,
    view::board::Board,
    view::model::{PieceKind, Snapshot},
    view::pieces::{BoardView, Piece},
};
use boardcraft_rules::Position;

/// Frames are 50 ms: well under `Time<Virtual>`'s 250 ms clamp.
pub const STEP: Duration = Duration::from_millis(50);

pub fn humans() -> Players {
    Players::two(PlayerKind::Human, PlayerKind::Human)
}

pub fn app_for(variant: &str, after: &str, players: Players) -> App {
    headless_app(
        GameConfig {
            variant: VariantChoice::parse(variant),
            after: after.to_owned(),
            position: None,
            // More than two players ask for the variant's larger table, as `--seats` does.
            players: (players.count() > 2).then_some(players.count()),
        },
        players,
        STEP,
    )
}

/// Updates until `done` holds; panics after `max` frames (a hang is a failure, not a wait).
pub fn run_until(app: &mut App, max: u32, what: &str, done: impl Fn(&World) -> bool) -> u32 {
    for frame in 0..max {
        if done(app.world()) {
            return frame;
        }
        app.update();
    }
    panic!("{what}: not reached within {max} frames");
}

/// Updates until `done` holds, for work that happens off the frame (files read and checked by
/// the asset server's tasks): its pace is the machine's, not the frames', so the limit is
/// wall-clock time; panics after `seconds`.
pub fn run_until_loaded(app: &mut App, seconds: u64, what: &str, done: impl Fn(&World) -> bool) {
    let start = std::time::Instant::now();
    while !done(app.world()) {
        if start.elapsed() > Duration::from_secs(seconds) {
            panic!("{what}: not reached within {seconds} s");
        }
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }
}

pub fn app_state(world: &World) -> AppState {
    *world.resource::<State<AppState>>().get()
}

pub fn phase(world: &World) -> Option<TurnPhase> {
    world.get_resource::<State<TurnPhase>>().map(|p| *p.get())
}

/// The turn phase if it stays so into the next frame: `None` while a transition to another
/// phase is set but not yet made. Waits use this: a wait for `Ready` that read only `State` could
/// end in the frame a move was applied (`Animating` set, not yet entered), so a move requested
/// then was refused (a CI run failed that way); and a wait that took the set `Ready` for the
/// phase could end before the systems that run once it is entered (an online board that takes
/// the server's moves when ready) had run.
pub fn stable_phase(world: &World) -> Option<TurnPhase> {
    let current = phase(world)?;
    match world.get_resource::<NextState<TurnPhase>>() {
        Some(NextState::Pending(next) | NextState::PendingIfNeq(next)) if *next != current => None,
        _ => Some(current),
    }
}

/// Waits for the game to start and settle on a position that waits for a move (or is over).
pub fn start(app: &mut App) {
    run_until(app, 600, "game start", |w| {
        w.contains_resource::<Match>()
            && w.contains_resource::<Board>()
            && matches!(
                stable_phase(w),
                Some(TurnPhase::Ready | TurnPhase::GameOver)
            )
    });
    // One more frame so the pieces spawned by commands exist.
    app.update();
}

/// Every landing event, in the order they fired, with the frame they fired in.
#[derive(Resource, Default, Debug)]
pub struct Landings(pub Vec<(u32, PieceLanded)>);

#[derive(Resource, Default, Debug)]
pub struct FrameCounter(pub u32);

pub fn record_landings(app: &mut App) {
    app.init_resource::<Landings>()
        .init_resource::<FrameCounter>()
        .add_systems(First, |mut f: ResMut<FrameCounter>| f.0 += 1)
        .add_observer(
            |landed: On<PieceLanded>, mut log: ResMut<Landings>, frame: Res<FrameCounter>| {
                log.0.push((frame.0, landed.event().clone()));
            },
        );
}

/// Plays `notation` as if a player had chosen it.
pub fn request(app: &mut App, notation: &str) {
    let world = app.world_mut();
    let game = world.resource::<Match>();
    let mv = game
        .position
        .parse_move(notation)
        .unwrap_or_else(|e| panic!("{notation}: {e}"));
    let msg = MoveRequested {
        mv,
        game_id: game.game_id,
        ply: game.position.ply(),
    };
    world.write_message(msg);
}

/// What the view's entities show, as a snapshot (to compare with the rules').
pub fn view_snapshot(world: &mut World) -> Snapshot {
    let view = world.resource::<BoardView>().clone();
    let mut pieces = world.query::<&Piece>();
    let pieces = pieces.query(world);
    let kind = |e: Entity| -> PieceKind { pieces.get(e).expect("a live piece").kind };
    Snapshot {
        stacks: view
            .stacks
            .iter()
            .map(|s| s.iter().map(|e| kind(*e)).collect())
            .collect(),
        trays: view
            .trays
            .iter()
            .map(|(t, s)| (*t, s.iter().map(|e| kind(*e)).collect()))
            .collect(),
    }
}

/// The rules' snapshot, normalised like the view's (trays the view never used are absent).
pub fn rules_snapshot(world: &World) -> Snapshot {
    let game = world.resource::<Match>();
    let board = world.resource::<Board>();
    Snapshot::of(&game.position, &board.layout)
}

/// Compares two snapshots: stacks exactly (bottom → top); trays as piles (order does not
/// matter, and a tray the view never used is empty).
pub fn assert_same_pieces(view: &Snapshot, rules: &Snapshot) {
    assert_eq!(view.stacks, rules.stacks, "pieces on the board differ");
    let non_empty = |s: &Snapshot| {
        let mut t: Vec<_> = s
            .trays
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .cloned()
            .collect();
        t.sort_by_key(|(t, _)| *t);
        for (_, pile) in &mut t {
            pile.sort_by_key(|p| (p.color, p.gipf));
        }
        t
    };
    assert_eq!(non_empty(view), non_empty(rules), "trays differ");
}

/// Searches seeded random games of `variant` for a move whose effect satisfies `wanted`;
/// returns the moves before it and the move, in notation. The search only uses the rules, so
/// the tests do not depend on a hand-made line that a rules change could break.
pub fn find_line(
    variant: &str,
    wanted: impl Fn(&boardcraft_rules::AnyEffect) -> bool,
) -> (String, String) {
    for seed in 1..200u64 {
        let mut line = Vec::new();
        let mut found = None;
        seeded_game(variant, seed, 3000, |notation, effect| {
            if wanted(effect) {
                found = Some(notation.to_owned());
                return false;
            }
            line.push(notation.to_owned());
            true
        });
        if let Some(notation) = found {
            return (line.join(" "), notation);
        }
    }
    panic!("no game of {variant} reached the wanted effect");
}

/// Plays `notation` with the animation and waits until the view has settled.
pub fn play_animated(app: &mut App, notation: &str) {
    request(app, notation);
    app.update();
    app.update();
    run_until(app, 2000, "the animation's end", |w| {
        stable_phase(w).is_some_and(|p| p != TurnPhase::Animating)
    });
}

/// The moves (in notation) of a short finished game of `variant`: the first seeded random game
/// that ends within 150 plies (rules only).
pub fn finished_line(variant: &str) -> Vec<String> {
    for seed in 1..50u64 {
        let mut line = Vec::new();
        let over = seeded_game(variant, seed, 150, |notation, _| {
            line.push(notation.to_owned());
            true
        });
        if over {
            return line;
        }
    }
    panic!("no short finished game of {variant}");
}

/// Plays a seeded random game of `variant` (rules only) for at most `max_plies`, showing each
/// move's notation and effect to `visit`, which returns false to stop. Returns whether the game
/// ended by its rules.
fn seeded_game(
    variant: &str,
    seed: u64,
    max_plies: usize,
    mut visit: impl FnMut(&str, &boardcraft_rules::AnyEffect) -> bool,
) -> bool {
    let v = boardcraft_rules::shipped_variant(variant).expect("a shipped variant");
    let mut pos = v.new_game();
    let mut picker = boardcraft_rules::checks::SeededMoves::new(seed);
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        pos.legal_moves(&mut moves);
        let Some(mv) = picker.pick(&moves).cloned() else {
            break;
        };
        let notation = pos.format_move(&mv);
        let effect = pos.play(&mv).expect("a legal move plays");
        if !visit(&notation, &effect) {
            return false;
        }
    }
    pos.is_game_over()
}
