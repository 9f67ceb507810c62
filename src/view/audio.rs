//! Sound effects with bevy_kira_audio, in two halves:
//!
//! - [`cues_plugin`] (headless-safe) decides *which* sound a moment gets and at what rate, and
//!   writes it as a [`SoundCue`]: a step, each landing of a jump chain (a whole tone higher per
//!   hop, up to an octave), a Focus capture, a GIPF row leaving the board, the end of a game.
//!   [`landing_cue`] is the decision as a pure function. It also notices the player's first
//!   key or button press ([`AudioUnlocked`]).
//! - [`plugin`] plays the cues on the [`Effects`] channel, whose volume follows
//!   [`Settings::effects_volume`], from the WAV files `scripts/make-sounds.py` generates.
//!
//! **Autoplay.** Browsers keep audio suspended until the page gets a gesture, and sounds sent
//! before then are lost or burst out later. Nothing is played before the first keyboard, mouse
//! or touch press; cues until then are dropped, not queued (the page's script resumes the
//! audio context on the same gesture).
//!
//! Without a sound card kira only logs a warning and plays nothing; the cues are still
//! decided, which is what the tests check.
use bevy::{
    input::{InputSystems, touch::Touches},
    prelude::*,
};
use bevy_kira_audio::prelude::*;
use boardcraft_rules::{AnyEffect, focus::Fate};

use crate::{
    game::match_state::{Match, TurnPhase},
    settings::Settings,
    view::animation::PieceLanded,
    view::model::PhaseKind,
};

/// The game's sound effects.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sound {
    /// A soft wooden click: a step, a stack or a piece put down.
    Step,
    /// A bright tick: one landing of a jump chain.
    Hop,
    /// A heavier thunk: a Focus move captures.
    Capture,
    /// A short descending sweep: a GIPF row leaves the board.
    RowRemoval,
    /// A three-note chime: the game is over.
    GameEnd,
}

impl Sound {
    pub const ALL: [Sound; 5] = [
        Sound::Step,
        Sound::Hop,
        Sound::Capture,
        Sound::RowRemoval,
        Sound::GameEnd,
    ];

    /// The file, relative to the asset folder.
    pub fn file(self) -> &'static str {
        match self {
            Sound::Step => "sounds/step.wav",
            Sound::Hop => "sounds/hop.wav",
            Sound::Capture => "sounds/capture.wav",
            Sound::RowRemoval => "sounds/removal.wav",
            Sound::GameEnd => "sounds/game_end.wav",
        }
    }
}

/// Play `sound` now at `rate` (1 = as recorded; 2 = an octave higher, twice as fast).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct SoundCue {
    pub sound: Sound,
    pub rate: f64,
}

impl SoundCue {
    pub const fn new(sound: Sound, rate: f64) -> Self {
        SoundCue { sound, rate }
    }
}

/// Set once the player has pressed a key, a mouse button or the screen: from then on sounds
/// play (see the module docs).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AudioUnlocked(pub bool);

/// The sound-effects channel (its volume is the effects volume).
#[derive(Resource)]
pub struct Effects;

/// Handles of the game's sounds, in [`Sound::ALL`] order.
#[derive(Resource, Default)]
pub struct SoundBank {
    handles: Vec<Handle<AudioSource>>,
}

impl SoundBank {
    pub fn get(&self, sound: Sound) -> Option<&Handle<AudioSource>> {
        let i = Sound::ALL.iter().position(|s| *s == sound)?;
        self.handles.get(i)
    }
}

/// Rate of the `index`-th landing (0-based) of a jump chain: a whole tone higher each hop, up to
/// an octave (long Halma chains would otherwise squeak).
pub fn hop_rate(index: usize) -> f64 {
    2f64.powf((2 * index.min(6)) as f64 / 12.0)
}

/// The sound for a landing of a move whose rules effect is `effect`, or none. With the
/// animation skipped or off, only the move's last landing sounds: every move is still heard,
/// once.
pub fn landing_cue(landed: &PieceLanded, effect: &AnyEffect) -> Option<SoundCue> {
    if landed.skipped && landed.index + 1 != landed.of {
        return None;
    }
    let cue = match (effect, landed.kind) {
        // A jump chain (race games): each hop a little higher.
        (AnyEffect::Race(_), PhaseKind::Hop) => SoundCue::new(Sound::Hop, hop_rate(landed.index)),
        // Pieces falling off an overgrown Focus stack: a capture if any was the opponent's,
        // else the mover's own pieces going back to the reserve (a low click).
        (AnyEffect::Focus(e), PhaseKind::Remove) => {
            if e.overflow.iter().any(|o| o.fate == Fate::CapturedByMover) {
                SoundCue::new(Sound::Capture, 1.0)
            } else {
                SoundCue::new(Sound::Step, 0.8)
            }
        }
        (AnyEffect::Gipf(_), PhaseKind::Remove) => SoundCue::new(Sound::RowRemoval, 1.0),
        (_, PhaseKind::Remove) => SoundCue::new(Sound::Step, 0.8),
        // A piece taken from the reserve (Focus drop, GIPF piece on its dot): lighter.
        (_, PhaseKind::Place) => SoundCue::new(Sound::Step, 1.12),
        // A step, a Focus stack landing, a GIPF push.
        (_, PhaseKind::Step | PhaseKind::Slide | PhaseKind::Hop) => SoundCue::new(Sound::Step, 1.0),
    };
    Some(cue)
}

/// Linear volume (0 … 1) as kira's decibels: 20·log10(v), 0 (or less, or NaN) is silence
/// (kira's −60 dB floor), above 1 is clamped to 0 dB.
pub fn volume_db(linear: f32) -> f32 {
    const SILENCE: f32 = -60.0;
    if linear.is_nan() || linear <= 0.0 {
        return SILENCE;
    }
    (20.0 * linear.min(1.0).log10()).max(SILENCE)
}

/// Deciding sounds: headless-safe (no audio device, no kira).
pub fn cues_plugin(app: &mut App) {
    app.add_message::<SoundCue>()
        .init_resource::<AudioUnlocked>()
        .add_observer(landing_cues)
        // A move ended the game (loading a finished game does not ring).
        .add_systems(
            OnTransition {
                exited: TurnPhase::Animating,
                entered: TurnPhase::GameOver,
            },
            game_end_cue,
        )
        .add_systems(PreUpdate, unlock_on_input.after(InputSystems));
}

/// Playing sounds: the cues, plus kira, the sound files and the effects channel.
pub fn plugin(app: &mut App) {
    app.add_plugins((bevy_kira_audio::AudioPlugin, cues_plugin))
        .add_audio_channel::<Effects>()
        .init_resource::<SoundBank>()
        .add_systems(Startup, load_sounds)
        .add_systems(
            Update,
            (
                follow_volume.run_if(resource_exists_and_changed::<Settings>),
                play_cues,
            )
                .chain(),
        );
}

fn landing_cues(
    landed: On<PieceLanded>,
    game: Option<Res<Match>>,
    mut cues: MessageWriter<SoundCue>,
) {
    let Some(game) = game.filter(|g| g.game_id == landed.game_id) else {
        return;
    };
    let played = (landed.ply as usize)
        .checked_sub(1)
        .and_then(|i| game.history.get(i));
    if let Some(cue) = played.and_then(|p| landing_cue(landed.event(), &p.effect)) {
        cues.write(cue);
    }
}

fn game_end_cue(mut cues: MessageWriter<SoundCue>) {
    cues.write(SoundCue::new(Sound::GameEnd, 1.0));
}

fn unlock_on_input(
    mut unlocked: ResMut<AudioUnlocked>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    touches: Option<Res<Touches>>,
) {
    if unlocked.0 {
        return;
    }
    let pressed = keys.is_some_and(|k| k.get_just_pressed().len() > 0)
        || mouse.is_some_and(|m| m.get_just_pressed().len() > 0)
        || touches.is_some_and(|t| t.any_just_pressed());
    if pressed {
        unlocked.0 = true;
        debug!("first input seen: sound effects on");
    }
}

fn load_sounds(mut bank: ResMut<SoundBank>, server: Res<AssetServer>) {
    bank.handles = Sound::ALL.iter().map(|s| server.load(s.file())).collect();
}

fn follow_volume(settings: Res<Settings>, channel: Res<AudioChannel<Effects>>) {
    channel.set_volume(volume_db(settings.effects_volume));
}

fn play_cues(
    mut cues: MessageReader<SoundCue>,
    unlocked: Res<AudioUnlocked>,
    bank: Res<SoundBank>,
    channel: Res<AudioChannel<Effects>>,
) {
    for cue in cues.read() {
        if !unlocked.0 {
            continue;
        }
        if let Some(sound) = bank.get(cue.sound) {
            channel.play(sound.clone()).with_playback_rate(cue.rate);
        }
    }
}
