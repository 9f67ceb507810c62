//! Animates each played move phase by phase (every hop of a chain its own arc, in order), with
//! a [`PieceLanded`] event per landing, then snaps the view to the rules state so it can never
//! drift. Speed is adjustable ([`AnimationSettings`]); [`SkipAnimation`] finishes at once.
use std::collections::VecDeque;

use bevy::prelude::*;

use crate::{
    GameSystems,
    game::match_state::{GameStarted, Match, MoveApplied, PositionReset, TurnPhase},
    settings::Settings,
    view::board::Board,
    view::model::{self, CellId, Phase, PhaseKind, PieceKind, Place, Reshape, Snapshot, Take},
    view::pieces::{BoardView, Piece, PieceAt, ViewRepairs, rest_translation, sync_view},
};

#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct AnimationSettings {
    /// 1.0 = normal; 2.0 = twice as fast.
    pub speed: f32,
    /// Off: moves appear at once (landing events still fire, marked `skipped`).
    pub enabled: bool,
}

impl Default for AnimationSettings {
    fn default() -> Self {
        AnimationSettings {
            speed: 1.0,
            enabled: true,
        }
    }
}

/// Finish the running animation now.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct SkipAnimation;

/// A phase of a move's animation has landed: one per hop of a chain, per Focus move and
/// overflow, per GIPF push and row removal. The audio plugin plays its sound from here.
#[derive(Event, Clone, Debug, PartialEq)]
pub struct PieceLanded {
    pub game_id: u64,
    /// The ply of the move (1 = first move of the game).
    pub ply: u32,
    /// Which landing of the move this is (0-based) and how many the move has.
    pub index: usize,
    pub of: usize,
    pub kind: PhaseKind,
    /// The cell landed on, if the phase ends on the board.
    pub cell: Option<CellId>,
    /// Where the landing entity rests, in world space.
    pub at: Vec3,
    /// True when the animation was skipped or disabled (sound should stay quiet).
    pub skipped: bool,
}

/// A move's animation finished and the view shows the rules state.
#[derive(Event, Clone, Debug, PartialEq, Eq)]
pub struct MoveAnimated {
    pub game_id: u64,
    pub ply: u32,
}

/// The move being animated.
#[derive(Resource, Debug, Default)]
pub struct Animating {
    run: Option<Run>,
}

impl Animating {
    pub fn is_running(&self) -> bool {
        self.run.is_some()
    }
}

#[derive(Debug)]
struct Run {
    game_id: u64,
    ply: u32,
    phases: VecDeque<Phase>,
    landings: usize,
    landed: usize,
    current: Option<Active>,
}

#[derive(Debug)]
struct Active {
    phase: Phase,
    t: f32,
    movers: Vec<Mover>,
    arrivals: Vec<Arrival>,
}

#[derive(Debug)]
struct Mover {
    entity: Entity,
    from: Vec3,
    to: Vec3,
    /// Pieces settling down a stack slide straight; travelling pieces follow the arc.
    arc: bool,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<AnimationSettings>()
        .init_resource::<Animating>()
        .add_message::<SkipAnimation>()
        .add_systems(
            Update,
            follow_settings
                .run_if(resource_changed::<Settings>)
                .before(GameSystems::Animate),
        )
        .add_systems(
            Update,
            (
                cancel_on_new_game
                    .run_if(on_message::<GameStarted>.or_eager(on_message::<PositionReset>)),
                begin_animation,
                advance_animation,
            )
                .chain()
                .run_if(resource_exists::<Match>.and_then(resource_exists::<Board>))
                .in_set(GameSystems::Animate),
        );
}

/// The player's animation speed (0 = off) from the settings.
fn follow_settings(settings: Res<Settings>, mut animation: ResMut<AnimationSettings>) {
    let speed = settings.animation_speed;
    animation.enabled = speed > 0.0;
    if animation.enabled {
        animation.speed = speed;
    }
}

fn cancel_on_new_game(mut animating: ResMut<Animating>) {
    animating.run = None;
}

fn begin_animation(
    mut applied: MessageReader<MoveApplied>,
    game: Res<Match>,
    board: Res<Board>,
    mut animating: ResMut<Animating>,
) {
    for m in applied.read() {
        if m.game_id != game.game_id {
            continue;
        }
        let script = model::script(&m.before, &m.played.mv, &m.played.effect, &board.layout);
        let landings = script.iter().filter(|p| p.landing.is_some()).count();
        animating.run = Some(Run {
            game_id: m.game_id,
            ply: m.before.ply() + 1,
            phases: script.into(),
            landings,
            landed: 0,
            current: None,
        });
    }
}

use boardcraft_rules::Position as _;

/// Seconds a phase takes at speed 1.
fn duration(kind: PhaseKind) -> f32 {
    match kind {
        PhaseKind::Step => 0.24,
        PhaseKind::Hop => 0.32,
        PhaseKind::Slide => 0.26,
        PhaseKind::Remove => 0.45,
        PhaseKind::Place => 0.30,
    }
}

/// Height of the arc above the straight path, in cell units.
fn arc_height(kind: PhaseKind) -> f32 {
    match kind {
        PhaseKind::Step => 0.25,
        PhaseKind::Hop => 0.75,
        PhaseKind::Slide => 0.0,
        PhaseKind::Remove => 1.2,
        PhaseKind::Place => 0.8,
    }
}

fn advance_animation(
    mut commands: Commands,
    mut animating: ResMut<Animating>,
    settings: Res<AnimationSettings>,
    mut skip: MessageReader<SkipAnimation>,
    time: Res<Time>,
    game: Res<Match>,
    board: Res<Board>,
    mut view: ResMut<BoardView>,
    mut transforms: Query<&mut Transform, With<Piece>>,
    pieces: Query<&Piece>,
    mut repairs: ResMut<ViewRepairs>,
    mut next_phase: ResMut<NextState<TurnPhase>>,
) {
    let skipping = skip.read().count() > 0 || !settings.enabled;
    let Some(run) = animating.run.as_mut() else {
        return;
    };
    let layout = &board.layout;
    // Time left this frame, in "phase seconds at speed 1".
    let mut budget = time.delta_secs() * settings.speed.max(0.01);
    loop {
        if run.current.is_none() {
            let Some(phase) = run.phases.pop_front() else {
                break;
            };
            let (movers, arrivals) = start_phase(
                &phase,
                layout,
                &mut view,
                &transforms,
                &pieces,
                &mut commands,
            );
            run.current = Some(Active {
                phase,
                t: 0.0,
                movers,
                arrivals,
            });
        }
        let active = run.current.as_mut().expect("a phase is active");
        let length = duration(active.phase.kind);
        if skipping {
            active.t = 1.0;
        } else {
            let step = budget / length;
            let used = step.min(1.0 - active.t);
            active.t += used;
            budget -= used * length;
        }
        let t = active.t.clamp(0.0, 1.0);
        let eased = t * t * (3.0 - 2.0 * t);
        let lift = arc_height(active.phase.kind) * 4.0 * t * (1.0 - t);
        for m in &active.movers {
            if let Ok(mut tr) = transforms.get_mut(m.entity) {
                let lift = if m.arc { lift } else { 0.0 };
                tr.translation = m.from.lerp(m.to, eased) + Vec3::Y * lift;
            }
        }
        if active.t < 1.0 - 1e-6 {
            break;
        }
        // The phase has landed.
        let active = run.current.take().expect("a phase is active");
        reshape_arrivals(&active.arrivals, layout, &mut view, &pieces, &mut commands);
        if let Some(cell) = active.phase.landing {
            let at = active
                .movers
                .iter()
                .rfind(|m| m.arc)
                .map_or_else(|| layout.slot_world(cell, 0), |m| m.to);
            commands.trigger(PieceLanded {
                game_id: run.game_id,
                ply: run.ply,
                index: run.landed,
                of: run.landings,
                kind: active.phase.kind,
                cell: Some(cell),
                at,
                skipped: skipping,
            });
            run.landed += 1;
        }
        if budget <= 0.0 && !skipping && !run.phases.is_empty() {
            break;
        }
    }
    if run.current.is_none() && run.phases.is_empty() {
        let (game_id, ply) = (run.game_id, run.ply);
        animating.run = None;
        // Snap: the view must show exactly what the rules say.
        let snapshot = Snapshot::of(&game.position, layout);
        sync_view(
            &mut commands,
            layout,
            &mut view,
            &snapshot,
            &pieces,
            &mut repairs,
        );
        next_phase.set(game.resting_phase());
        commands.trigger(MoveAnimated { game_id, ply });
    }
}

/// Moves the phase's pieces in [`BoardView`] to where they will rest, and returns their paths
/// and the arrivals that change shape when they land.
fn start_phase(
    phase: &Phase,
    layout: &model::Layout,
    view: &mut BoardView,
    transforms: &Query<&mut Transform, With<Piece>>,
    pieces: &Query<&Piece>,
    commands: &mut Commands,
) -> (Vec<Mover>, Vec<Arrival>) {
    // Pieces spawned earlier this frame (a skipped animation) are not in the world yet.
    let spawned = view.spawned.clone();
    let kind_of = |e: &Entity| {
        pieces.get(*e).map(|p| p.kind).ok().or_else(|| {
            spawned
                .iter()
                .find_map(|(s, kind)| (s == e).then_some(*kind))
        })
    };
    // Take all, then put all (see `model::apply_motions`).
    let mut carried = Vec::new();
    for m in &phase.motions {
        let source = view.place_mut(m.from);
        match model::take(source, m.take, kind_of) {
            Some(entities) => carried.push((m, entities)),
            // The script names pieces the view does not have; the snap at the end repairs it.
            None => warn!("animation: no pieces to take for {m:?}"),
        }
    }
    let mut movers = Vec::new();
    let mut arrivals = Vec::new();
    for (m, entities) in carried {
        let target = view.place_mut(m.to);
        for e in &entities {
            let level = target.len();
            target.push(*e);
            let to = rest_translation(layout, m.to, level);
            let from = transforms.get(*e).map_or(to, |t| t.translation);
            commands.entity(*e).insert(PieceAt { place: m.to, level });
            movers.push(Mover {
                entity: *e,
                from,
                to,
                arc: true,
            });
        }
        if m.reshape != Reshape::Keep {
            arrivals.push(Arrival {
                place: m.to,
                entities,
                reshape: m.reshape,
            });
        }
    }
    // Pieces above a removed bottom drop; a tray closes its gaps.
    for m in &phase.motions {
        if matches!(m.take, Take::Bottom(_) | Take::Kind(..)) {
            let remaining: Vec<Entity> = view.place(m.from).to_vec();
            for (level, e) in remaining.into_iter().enumerate() {
                let to = rest_translation(layout, m.from, level);
                let from = transforms.get(e).map_or(to, |t| t.translation);
                if from == to {
                    continue;
                }
                commands.entity(e).insert(PieceAt {
                    place: m.from,
                    level,
                });
                movers.push(Mover {
                    entity: e,
                    from,
                    to,
                    arc: false,
                });
            }
        }
    }
    (movers, arrivals)
}

/// Pieces that change shape on landing: a GIPF-piece that becomes two basic pieces in a tray,
/// or two reserve pieces that become one GIPF-piece.
#[derive(Debug)]
struct Arrival {
    place: Place,
    entities: Vec<Entity>,
    reshape: Reshape,
}

/// Replaces the arrived entities by the pieces they become, resting in their place. Entities
/// are found by identity: several arrivals may have landed in the same tray.
fn reshape_arrivals(
    arrivals: &[Arrival],
    layout: &model::Layout,
    view: &mut BoardView,
    pieces: &Query<&Piece>,
    commands: &mut Commands,
) {
    for a in arrivals {
        let kinds: Vec<PieceKind> = a
            .entities
            .iter()
            .filter_map(|e| pieces.get(*e).ok().map(|p| p.kind))
            .collect();
        let new_kinds = model::reshape(kinds, a.reshape);
        let place = view.place_mut(a.place);
        let Some(at) = place.iter().position(|e| a.entities.contains(e)) else {
            continue;
        };
        place.retain(|e| !a.entities.contains(e));
        for e in &a.entities {
            commands.entity(*e).despawn();
        }
        let spawned: Vec<Entity> = new_kinds
            .into_iter()
            .map(|kind| {
                let e = commands.spawn(Piece { kind }).id();
                view.spawned.push((e, kind));
                e
            })
            .collect();
        let place = view.place_mut(a.place);
        let at = at.min(place.len());
        place.splice(at..at, spawned);
        // Everything from the change up rests one level further (or nearer).
        for (level, e) in place.iter().enumerate().skip(at) {
            commands.entity(*e).insert((
                PieceAt {
                    place: a.place,
                    level,
                },
                Transform::from_translation(rest_translation(layout, a.place, level)),
            ));
        }
    }
}
