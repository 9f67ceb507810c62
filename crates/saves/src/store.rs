//! Storing saves and settings so that nothing is lost.
//!
//! A [`RawStore`] is a flat map from keys (`settings.ron`, `saves/<slot>.ron`) to bytes whose
//! `put` replaces an entry atomically: [`FileStore`] (temp file, fsync, rename) natively,
//! browser storage on the web (in the game), [`MemoryStore`] for tests. The policy on top is
//! the same for all of them:
//!
//! - **write** ([`write`]): the entry being replaced is kept first: as `<key>.bak` if it is
//!   valid, as `<key>.damaged` if it is not (so a good backup is never overwritten by a
//!   damaged file). Only then is the new content put in place, atomically.
//! - **read** ([`read`]): never changes or deletes anything. A missing entry is
//!   [`SaveError::Missing`]; a damaged or unreadable one is reported, and its backup is used
//!   if that is valid ([`Loaded::recovered`] says so, for the player to be told).
//! - **delete** ([`delete`]): the entry moves to its backup (or damaged copy), so a mistaken
//!   delete can still be undone by hand.
use std::io;

use crate::SaveError;

mod file;
mod memory;

pub use file::{FileStore, write_atomic};
pub use memory::MemoryStore;

/// Suffix of the previous valid version of an entry.
pub const BACKUP_SUFFIX: &str = ".bak";
/// Suffix of a damaged entry that was replaced or deleted (kept, never read back).
pub const DAMAGED_SUFFIX: &str = ".damaged";

/// A flat key → bytes store. Keys are `/`-separated paths made by this crate and the game.
pub trait RawStore: Send + Sync {
    /// The entry's bytes; `None` if there is no such entry.
    fn get(&self, key: &str) -> io::Result<Option<Vec<u8>>>;
    /// Creates or replaces the entry atomically: a reader sees the old bytes or the new ones,
    /// never a mix or a cut, even if the program dies halfway.
    fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()>;
    /// Removes the entry; removing a missing entry is not an error.
    fn remove(&self, key: &str) -> io::Result<()>;
    /// The names of the entries directly inside folder `dir` (`saves` → `game.ron`, …).
    fn list(&self, dir: &str) -> io::Result<Vec<String>>;
}

/// A value read from a store.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded<T> {
    pub value: T,
    /// `Some` when the entry itself was damaged or unreadable (left as it was) and the value
    /// comes from its backup: the problem with the entry, to tell the player.
    pub recovered: Option<SaveError>,
}

/// What a write did besides writing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct WriteReport {
    /// The previous valid entry was kept as `<key>.bak`.
    pub backed_up: bool,
    /// The previous entry was damaged and was kept as `<key>.damaged`.
    pub kept_damaged: bool,
}

pub fn backup_key(key: &str) -> String {
    format!("{key}{BACKUP_SUFFIX}")
}

pub fn damaged_key(key: &str) -> String {
    format!("{key}{DAMAGED_SUFFIX}")
}

/// Reads `key` with `parse`. Nothing is changed in the store, whatever is found.
///
/// - missing entry → `Err(Missing)` (a deleted save does not come back from its backup);
/// - valid entry → its value;
/// - damaged ([`SaveError::is_damage`]) or unreadable entry → the backup's value if the backup
///   is valid, with the entry's problem in [`Loaded::recovered`]; otherwise the entry's
///   problem.
pub fn read<T>(
    store: &dyn RawStore,
    key: &str,
    parse: impl Fn(&[u8]) -> Result<T, SaveError>,
) -> Result<Loaded<T>, SaveError> {
    let problem = match store.get(key) {
        Ok(None) => return Err(SaveError::Missing),
        Ok(Some(bytes)) => match parse(&bytes) {
            Ok(value) => {
                return Ok(Loaded {
                    value,
                    recovered: None,
                });
            }
            Err(e) => e,
        },
        Err(e) => SaveError::unreadable(&e),
    };
    let worth_a_backup = problem.is_damage() || matches!(problem, SaveError::Unreadable { .. });
    if worth_a_backup
        && let Ok(Some(bytes)) = store.get(&backup_key(key))
        && let Ok(value) = parse(&bytes)
    {
        return Ok(Loaded {
            value,
            recovered: Some(problem),
        });
    }
    Err(problem)
}

/// Writes `bytes` under `key`, keeping what was there (see the module docs). `is_valid` tells
/// whether the previous content is worth a backup. On error nothing under `key` changed.
pub fn write(
    store: &dyn RawStore,
    key: &str,
    bytes: &[u8],
    is_valid: impl Fn(&[u8]) -> bool,
) -> Result<WriteReport, SaveError> {
    let report = keep_previous(store, key, &is_valid)?;
    store
        .put(key, bytes)
        .map_err(|e| SaveError::write_failed(&e))?;
    Ok(report)
}

/// Deletes `key`, keeping it as its backup (or damaged copy). `Err(Missing)` if there is none.
pub fn delete(
    store: &dyn RawStore,
    key: &str,
    is_valid: impl Fn(&[u8]) -> bool,
) -> Result<WriteReport, SaveError> {
    match store.get(key) {
        Ok(None) => return Err(SaveError::Missing),
        Ok(Some(_)) => {}
        Err(e) => return Err(SaveError::unreadable(&e)),
    }
    let report = keep_previous(store, key, &is_valid)?;
    store.remove(key).map_err(|e| SaveError::write_failed(&e))?;
    Ok(report)
}

/// Copies the current entry (if any) to its backup or damaged copy. If the entry cannot be
/// read it cannot be kept, so nothing may replace it: that is an error.
fn keep_previous(
    store: &dyn RawStore,
    key: &str,
    is_valid: &dyn Fn(&[u8]) -> bool,
) -> Result<WriteReport, SaveError> {
    let previous = store.get(key).map_err(|e| SaveError::write_failed(&e))?;
    let Some(previous) = previous else {
        return Ok(WriteReport::default());
    };
    let (keep, report) = if is_valid(&previous) {
        (
            backup_key(key),
            WriteReport {
                backed_up: true,
                kept_damaged: false,
            },
        )
    } else {
        (
            damaged_key(key),
            WriteReport {
                backed_up: false,
                kept_damaged: true,
            },
        )
    };
    store
        .put(&keep, &previous)
        .map_err(|e| SaveError::write_failed(&e))?;
    Ok(report)
}

/// The slots saved in `store` (main entries only, sorted by name).
pub fn list_slots(store: &dyn RawStore) -> Result<Vec<String>, SaveError> {
    let names = store
        .list(crate::slot::SAVES_DIR)
        .map_err(|e| SaveError::unreadable(&e))?;
    let mut slots: Vec<String> = names
        .iter()
        .filter_map(|f| crate::slot::slot_of_file(f))
        .map(str::to_owned)
        .collect();
    slots.sort();
    Ok(slots)
}
