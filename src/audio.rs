//! Sound with bevy_kira_audio: one sound per landing (the pitch rises along a jump chain).
//!
//! TODO(issue 7): the sound files and the script that generates them come with issue 7; until
//! then [`SoundBank`] is empty and the hooks below are silent.
use bevy::prelude::*;
use bevy_kira_audio::prelude::*;

use crate::{animation::PieceLanded, view_model::PhaseKind};

/// Handles of the game's sounds; `None` until issue 7 ships the files.
#[derive(Resource, Default)]
pub struct SoundBank {
    pub step: Option<Handle<AudioSource>>,
    pub hop: Option<Handle<AudioSource>>,
    pub removal: Option<Handle<AudioSource>>,
}

pub fn plugin(app: &mut App) {
    app.add_plugins(bevy_kira_audio::AudioPlugin)
        .init_resource::<SoundBank>()
        .add_observer(play_landing);
}

fn play_landing(landed: On<PieceLanded>, bank: Res<SoundBank>, audio: Res<Audio>) {
    if landed.skipped {
        return;
    }
    let sound = match landed.kind {
        PhaseKind::Step | PhaseKind::Slide | PhaseKind::Place => &bank.step,
        PhaseKind::Hop => &bank.hop,
        PhaseKind::Remove => &bank.removal,
    };
    if let Some(sound) = sound {
        // Each further hop of a chain sounds a little higher.
        let rate = 1.0 + 0.06 * landed.index as f64;
        audio.play(sound.clone()).with_playback_rate(rate);
    }
}
