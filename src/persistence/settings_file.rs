//! The player's settings between runs: read once before start-up (a damaged file is reported,
//! left as it is, and its backup or the defaults are used), written when they change (after
//! a short pause, so dragging a slider does not write a file per frame) and on exit.
use bevy::prelude::*;
use boardcraft_saves::{SaveError, parse_ron_bytes, store};

use super::{Notice, PersistenceAction, PersistenceResult, SettingsProblem, StorageStatus};
use crate::{persistence::storage::Storage, settings::Settings};

/// The settings' key in the store (`settings.ron` in the data folder).
pub const SETTINGS_KEY: &str = "settings.ron";

/// Seconds the settings must stay unchanged before they are written.
pub const SETTINGS_WRITE_DELAY_SECS: f64 = 0.5;

/// What the store holds, as far as this run knows, and the change waiting to be written.
#[derive(Resource, Debug, Default)]
pub struct StoredSettings {
    /// The settings the store holds (or the defaults used when it holds none or only damage).
    stored: Option<Settings>,
    /// When the settings last changed (real seconds), while they differ from `stored`.
    changed_at: Option<f64>,
    /// Settings whose write failed (reported once; tried again when they change).
    failed: Option<Settings>,
}

/// The settings file's text: a comment, then the settings in RON.
pub fn settings_text(settings: &Settings) -> String {
    let body = ron::ser::to_string_pretty(settings, ron::ser::PrettyConfig::default())
        .expect("settings always serialise");
    format!(
        "// Boardcraft settings, written by the game when they change. Missing fields take\n\
         // their defaults; the previous version is kept as settings.ron.bak.\n{body}\n"
    )
}

fn parse_settings(bytes: &[u8]) -> Result<Settings, SaveError> {
    parse_ron_bytes(bytes)
}

pub(super) fn load_settings(
    storage: Res<Storage>,
    mut settings: ResMut<Settings>,
    mut delay: ResMut<StoredSettings>,
    mut status: ResMut<StorageStatus>,
    mut results: MessageWriter<PersistenceResult>,
) {
    status.location = storage.location().to_owned();
    match store::read(storage.raw(), SETTINGS_KEY, parse_settings) {
        Ok(loaded) => {
            *settings = loaded.value;
            if let Some(problem) = loaded.recovered {
                warn!(
                    "the settings ({SETTINGS_KEY} in {}) are damaged ({problem}); the previous version is used and the file is left as it is",
                    storage.location()
                );
                status.settings_problem = Some(SettingsProblem {
                    error: problem.clone(),
                    recovered_from_backup: true,
                });
                let notice = Notice::RecoveredFromBackup { problem };
                results.write(PersistenceResult::Notice {
                    action: PersistenceAction::LoadSettings,
                    slot: SETTINGS_KEY.to_owned(),
                    message: notice.to_string(),
                    notice,
                });
            }
        }
        // First run: the defaults, written once the player changes something.
        Err(SaveError::Missing) => {}
        Err(error) => {
            warn!(
                "the settings ({SETTINGS_KEY} in {}) cannot be used ({error}); the defaults are used and the file is left as it is",
                storage.location()
            );
            status.settings_problem = Some(SettingsProblem {
                error: error.clone(),
                recovered_from_backup: false,
            });
            results.write(PersistenceResult::Failed {
                action: PersistenceAction::LoadSettings,
                slot: SETTINGS_KEY.to_owned(),
                message: error.to_string(),
                error,
            });
        }
    }
    delay.stored = Some(settings.clone());
    delay.changed_at = None;
}

pub(super) fn store_settings(
    settings: Res<Settings>,
    mut delay: ResMut<StoredSettings>,
    time: Res<Time<Real>>,
    storage: Res<Storage>,
    mut results: MessageWriter<PersistenceResult>,
) {
    if delay.stored.as_ref() == Some(&*settings) || delay.failed.as_ref() == Some(&*settings) {
        delay.changed_at = None;
        return;
    }
    let now = time.elapsed_secs_f64();
    if settings.is_changed() || delay.changed_at.is_none() {
        delay.changed_at = Some(now);
    }
    if delay
        .changed_at
        .is_some_and(|t| now - t < SETTINGS_WRITE_DELAY_SECS)
    {
        return;
    }
    write_settings(&settings, &mut delay, &storage, &mut results);
}

/// Writes changed settings at once when the game exits (no pause to wait for).
pub(super) fn store_settings_on_exit(
    mut exit: MessageReader<AppExit>,
    settings: Res<Settings>,
    mut delay: ResMut<StoredSettings>,
    storage: Res<Storage>,
    mut results: MessageWriter<PersistenceResult>,
) {
    if exit.read().count() == 0 || delay.stored.as_ref() == Some(&*settings) {
        return;
    }
    write_settings(&settings, &mut delay, &storage, &mut results);
}

fn write_settings(
    settings: &Settings,
    delay: &mut StoredSettings,
    storage: &Storage,
    results: &mut MessageWriter<PersistenceResult>,
) {
    delay.changed_at = None;
    let text = settings_text(settings);
    let is_valid = |bytes: &[u8]| parse_settings(bytes).is_ok();
    match store::write(storage.raw(), SETTINGS_KEY, text.as_bytes(), is_valid) {
        Ok(report) => {
            debug!("settings saved in {}", storage.location());
            delay.stored = Some(settings.clone());
            delay.failed = None;
            if report.kept_damaged {
                let notice = Notice::KeptDamagedFile;
                results.write(PersistenceResult::Notice {
                    action: PersistenceAction::SaveSettings,
                    slot: SETTINGS_KEY.to_owned(),
                    message: notice.to_string(),
                    notice,
                });
            }
        }
        Err(error) => {
            warn!("cannot save the settings: {error}");
            delay.failed = Some(settings.clone());
            results.write(PersistenceResult::Failed {
                action: PersistenceAction::SaveSettings,
                slot: SETTINGS_KEY.to_owned(),
                message: error.to_string(),
                error,
            });
        }
    }
}
