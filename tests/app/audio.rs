//! Which sound each moment of a game gets (the decision; there is no sound card here): steps,
//! rising hops, Focus captures, GIPF row removals, the end of the game; the effects volume in
//! decibels; audio waiting for the first input; the generated sound files.
use bevy::prelude::*;
use boardcraft::{
    game::match_state::TurnPhase,
    view::animation::AnimationSettings,
    view::audio::{AudioUnlocked, Sound, SoundCue, cues_plugin, hop_rate, landing_cue, volume_db},
};
use boardcraft_rules::{AnyEffect, focus::Fate};

use crate::common::*;

/// Every cue, in order.
#[derive(Resource, Default)]
struct Cues(Vec<SoundCue>);

fn record_cues(mut reader: MessageReader<SoundCue>, mut cues: ResMut<Cues>) {
    cues.0.extend(reader.read().copied());
}

fn app_with_cues(variant: &str, after: &str) -> App {
    let mut app = app_for(variant, after, humans());
    // The headless app is finished already: call the plugin function rather than add it.
    cues_plugin(&mut app);
    app.init_resource::<Cues>().add_systems(Last, record_cues);
    // Moves given with `after` are not animated: no landing, no cue.
    start(&mut app);
    app
}

fn cues(app: &App) -> Vec<SoundCue> {
    app.world().resource::<Cues>().0.clone()
}

fn sounds(app: &App) -> Vec<Sound> {
    cues(app).iter().map(|c| c.sound).collect()
}

#[test]
fn a_jump_chain_rises_a_whole_tone_per_hop() {
    // rules.md HG-7: after 1. e3-e4 d6-d5, White's e1 jumps e3, e5 and (over d5) c5.
    let mut app = app_with_cues("ugolki-hg-3x4", "e3-e4 d6-d5");
    play_animated(&mut app, "e1:e3:e5:c5");
    let rates: Vec<f64> = cues(&app).iter().map(|c| c.rate).collect();
    assert_eq!(sounds(&app), [Sound::Hop; 3]);
    assert_eq!(rates, [1.0, 2f64.powf(2.0 / 12.0), 2f64.powf(4.0 / 12.0)]);
    // A step is a step, once.
    app.world_mut().resource_mut::<Cues>().0.clear();
    play_animated(&mut app, "d5-d4");
    assert_eq!(cues(&app), [SoundCue::new(Sound::Step, 1.0)]);
}

#[test]
fn hops_rise_up_to_an_octave() {
    let rates: Vec<f64> = (0..10).map(hop_rate).collect();
    assert!(rates.windows(2).all(|w| w[0] <= w[1]), "{rates:?}");
    assert_eq!(rates[0], 1.0);
    assert!((rates[6] - 2.0).abs() < 1e-12);
    assert_eq!(rates[9], rates[6]);
}

#[test]
fn a_skipped_animation_sounds_once_per_move() {
    let mut app = app_with_cues("ugolki-hg-3x4", "e3-e4 d6-d5");
    app.world_mut().resource_mut::<AnimationSettings>().enabled = false;
    play_animated(&mut app, "e1:e3:e5:c5");
    // The move's last landing, at its place in the chain.
    assert_eq!(cues(&app), [SoundCue::new(Sound::Hop, hop_rate(2))]);
}

#[test]
fn a_focus_capture_thunks_and_own_pieces_falling_do_not() {
    let captures = |e: &AnyEffect| {
        matches!(e, AnyEffect::Focus(f)
            if f.overflow.iter().any(|o| o.fate == Fate::CapturedByMover))
    };
    let (before, mv) = find_line("focus", captures);
    let mut app = app_with_cues("focus", &before);
    play_animated(&mut app, &mv);
    assert_eq!(sounds(&app), [Sound::Step, Sound::Capture]);

    let own_only = |e: &AnyEffect| {
        matches!(e, AnyEffect::Focus(f)
            if !f.overflow.is_empty() && f.overflow.iter().all(|o| o.fate == Fate::MoverReserve))
    };
    let (before, mv) = find_line("focus", own_only);
    let mut app = app_with_cues("focus", &before);
    play_animated(&mut app, &mv);
    assert_eq!(
        cues(&app),
        [
            SoundCue::new(Sound::Step, 1.0),
            SoundCue::new(Sound::Step, 0.8)
        ]
    );
}

#[test]
fn a_gipf_row_removal_sweeps() {
    let removes_a_row = |e: &AnyEffect| {
        matches!(e, AnyEffect::Gipf(g)
            if g.pre_removal.is_none() && g.removals.iter().any(|s| !s.rows.is_empty()))
    };
    let (before, mv) = find_line("gipf-basic", removes_a_row);
    let mut app = app_with_cues("gipf-basic", &before);
    play_animated(&mut app, &mv);
    let sounds = sounds(&app);
    // The piece put on its dot, the push, then one sweep per row taken.
    assert_eq!(&sounds[..2], [Sound::Step, Sound::Step]);
    assert!(sounds.len() > 2);
    assert!(
        sounds[2..].iter().all(|s| *s == Sound::RowRemoval),
        "{sounds:?}"
    );
}

#[test]
fn the_move_that_ends_the_game_chimes_once() {
    let line = finished_line("gipf-basic");
    let (last, before) = line.split_last().unwrap();
    let mut app = app_with_cues("gipf-basic", &before.join(" "));
    play_animated(&mut app, last);
    assert_eq!(phase(app.world()), Some(TurnPhase::GameOver));
    for _ in 0..5 {
        app.update();
    }
    let sounds = sounds(&app);
    assert_eq!(sounds.last(), Some(&Sound::GameEnd), "{sounds:?}");
    assert_eq!(sounds.iter().filter(|s| **s == Sound::GameEnd).count(), 1);
    // Opening a game that is already over (a loaded save, `--after`) does not ring.
    let mut app = app_with_cues("gipf-basic", &line.join(" "));
    assert_eq!(phase(app.world()), Some(TurnPhase::GameOver));
    for _ in 0..5 {
        app.update();
    }
    assert!(cues(&app).is_empty(), "{:?}", cues(&app));
}

#[test]
fn a_focus_stack_landing_is_a_step_and_skipped_middle_landings_are_silent() {
    let variant = boardcraft_rules::shipped_variant("focus").unwrap();
    let mut pos = variant.new_game();
    let mut moves = Vec::new();
    boardcraft_rules::Position::legal_moves(&pos, &mut moves);
    let effect = boardcraft_rules::Position::play(&mut pos, &moves[0]).unwrap();
    let landed = boardcraft::view::animation::PieceLanded {
        game_id: 1,
        ply: 1,
        index: 0,
        of: 1,
        kind: boardcraft::view::model::PhaseKind::Hop,
        cell: None,
        at: Vec3::ZERO,
        skipped: false,
    };
    // A Focus stack landing is a step, not a chain hop.
    assert_eq!(
        landing_cue(&landed, &effect),
        Some(SoundCue::new(Sound::Step, 1.0))
    );
    let skipped_middle = boardcraft::view::animation::PieceLanded {
        of: 2,
        skipped: true,
        ..landed
    };
    assert_eq!(landing_cue(&skipped_middle, &effect), None);
}

#[test]
fn effects_volume_in_decibels() {
    assert_eq!(volume_db(1.0), 0.0);
    assert!((volume_db(0.5) - -6.0206).abs() < 1e-3);
    assert!((volume_db(0.1) - -20.0).abs() < 1e-4);
    assert_eq!(volume_db(0.0), -60.0);
    assert_eq!(volume_db(-1.0), -60.0);
    assert_eq!(volume_db(f32::NAN), -60.0);
    assert_eq!(volume_db(1e-9), -60.0);
    assert_eq!(volume_db(3.0), 0.0);
    let steps: Vec<f32> = (1..=10).map(|i| volume_db(i as f32 / 10.0)).collect();
    assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
}

#[test]
fn audio_waits_for_the_first_press() {
    let mut app = app_with_cues("ugolki-hg-3x3", "");
    app.init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<ButtonInput<MouseButton>>();
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(
        *app.world().resource::<AudioUnlocked>(),
        AudioUnlocked(false)
    );
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .press(MouseButton::Left);
    app.update();
    assert_eq!(
        *app.world().resource::<AudioUnlocked>(),
        AudioUnlocked(true)
    );
}

/// The committed files are what `scripts/make-sounds.py` writes: mono, 22 050 Hz, 16-bit WAV,
/// short, not silent.
#[test]
fn every_sound_file_is_a_small_mono_wav() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    for sound in Sound::ALL {
        let path = root.join(sound.file());
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
        assert_eq!(&bytes[0..4], b"RIFF", "{sound:?}");
        assert_eq!(&bytes[8..16], b"WAVEfmt ", "{sound:?}");
        assert_eq!(u16_at(20), 1, "{sound:?}: PCM");
        assert_eq!(u16_at(22), 1, "{sound:?}: mono");
        assert_eq!(u32_at(24), 22_050, "{sound:?}: sample rate");
        assert_eq!(u16_at(34), 16, "{sound:?}: bits per sample");
        assert_eq!(&bytes[36..40], b"data", "{sound:?}");
        let samples: Vec<i16> = bytes[44..44 + u32_at(40) as usize]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let seconds = samples.len() as f64 / 22_050.0;
        assert!((0.05..=2.0).contains(&seconds), "{sound:?}: {seconds} s");
        let peak = samples.iter().map(|s| s.unsigned_abs()).max().unwrap();
        assert!(peak > 3_000 && peak < 32_000, "{sound:?}: peak {peak}");
        // Starts and ends at (near) silence: no click.
        assert!(samples[0].unsigned_abs() < 200 && samples.last().unwrap().unsigned_abs() < 200);
    }
}
