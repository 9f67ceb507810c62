//! Where saves and settings are kept: the one place that knows the platform.
//!
//! - Native: a folder of files, `BOARDCRAFT_HOME` if set, else the platform's data folder
//!   (`~/.local/share/boardcraft` on Linux, `~/Library/Application Support/Boardcraft` on
//!   macOS, `%APPDATA%\Boardcraft\data` on Windows). Writes are atomic (temporary file, fsync,
//!   rename): see `boardcraft_saves::store`.
//! - Web: the browser's `localStorage`, keys prefixed with `boardcraft/` (each `setItem` replaces
//!   a value whole, which is what atomic means there).
//! - Anywhere that has neither (no home folder, storage disabled by the browser): memory only,
//!   with a warning; saves then last as long as the program runs.
//!
//! The policy on top (backups, damaged files kept, reads that never modify) is the saves
//! crate's, the same on every platform.
use std::sync::Arc;

use bevy::prelude::*;
use boardcraft_saves::store::{MemoryStore, RawStore};

/// Environment variable naming the folder for saves and settings (tests, portable installs).
pub const HOME_ENV: &str = "BOARDCRAFT_HOME";

/// The store saves and settings go to.
#[derive(Resource, Clone)]
pub struct Storage {
    store: Arc<dyn RawStore>,
    location: String,
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Storage")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

impl Default for Storage {
    fn default() -> Self {
        Storage::platform_default()
    }
}

impl Storage {
    /// Any store, described by `location` for the player (a folder, "browser storage").
    pub fn new(store: impl RawStore + 'static, location: impl Into<String>) -> Self {
        Storage {
            store: Arc::new(store),
            location: location.into(),
        }
    }

    /// Memory only: nothing survives the program (tests; platforms with nowhere to write).
    pub fn memory() -> Self {
        Storage::new(
            MemoryStore::new(),
            "memory (nothing is kept after the game closes)",
        )
    }

    /// A folder of files (native).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn folder(root: impl Into<std::path::PathBuf>) -> Self {
        let store = boardcraft_saves::store::FileStore::new(root);
        let location = store.root().display().to_string();
        Storage::new(store, location)
    }

    /// Where this platform keeps the game's data (see the module docs).
    pub fn platform_default() -> Self {
        platform::default_storage()
    }

    pub fn raw(&self) -> &dyn RawStore {
        &*self.store
    }

    /// Where the data is, in words for the player.
    pub fn location(&self) -> &str {
        &self.location
    }
}

/// Seconds since the Unix epoch, if the platform has a clock (for the save's time stamp).
pub fn now_unix_secs() -> Option<u64> {
    platform::now_unix_secs()
}

#[cfg(not(target_arch = "wasm32"))]
mod platform {
    use super::{HOME_ENV, Storage};

    pub fn default_storage() -> Storage {
        if let Some(home) = std::env::var_os(HOME_ENV).filter(|h| !h.is_empty()) {
            return Storage::folder(home);
        }
        match directories::ProjectDirs::from("", "", "Boardcraft") {
            Some(dirs) => Storage::folder(dirs.data_dir()),
            None => {
                bevy::log::warn!(
                    "no home folder found: saves and settings are kept in memory only (set {HOME_ENV} to choose a folder)"
                );
                Storage::memory()
            }
        }
    }

    pub fn now_unix_secs() -> Option<u64> {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .map(|d| d.as_secs())
    }
}

#[cfg(target_arch = "wasm32")]
mod platform {
    use std::io;

    use boardcraft_saves::store::RawStore;

    use super::Storage;

    /// Prefix of every key the game puts in `localStorage` (the page may hold other sites'
    /// code sharing the origin).
    const PREFIX: &str = "boardcraft/";

    pub fn default_storage() -> Storage {
        if local_storage().is_ok() {
            Storage::new(LocalStorage, "browser storage (localStorage)")
        } else {
            bevy::log::warn!(
                "browser storage is not available: saves and settings are kept in memory only"
            );
            Storage::memory()
        }
    }

    pub fn now_unix_secs() -> Option<u64> {
        // `SystemTime::now` panics on wasm32-unknown-unknown; the browser has the clock.
        let ms = js_sys::Date::now();
        (ms.is_finite() && ms >= 0.0).then(|| (ms / 1000.0) as u64)
    }

    fn js_error(what: &str, e: wasm_bindgen::JsValue) -> io::Error {
        io::Error::other(format!("{what}: {e:?}"))
    }

    fn local_storage() -> io::Result<web_sys::Storage> {
        let window = web_sys::window().ok_or_else(|| io::Error::other("no window"))?;
        window
            .local_storage()
            .map_err(|e| js_error("localStorage refused", e))?
            .ok_or_else(|| io::Error::other("no localStorage"))
    }

    /// `localStorage` as a [`RawStore`]. The handle is looked up on each call: it is not
    /// `Send`, and a store must be.
    struct LocalStorage;

    impl RawStore for LocalStorage {
        fn get(&self, key: &str) -> io::Result<Option<Vec<u8>>> {
            let value = local_storage()?
                .get_item(&format!("{PREFIX}{key}"))
                .map_err(|e| js_error("reading browser storage", e))?;
            Ok(value.map(String::into_bytes))
        }

        fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
            // localStorage holds text; everything the game stores is UTF-8 text.
            let text = std::str::from_utf8(bytes)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            local_storage()?
                .set_item(&format!("{PREFIX}{key}"), text)
                .map_err(|e| js_error("writing browser storage (is it full?)", e))
        }

        fn remove(&self, key: &str) -> io::Result<()> {
            local_storage()?
                .remove_item(&format!("{PREFIX}{key}"))
                .map_err(|e| js_error("removing from browser storage", e))
        }

        fn list(&self, dir: &str) -> io::Result<Vec<String>> {
            let storage = local_storage()?;
            let prefix = format!("{PREFIX}{dir}/");
            let length = storage
                .length()
                .map_err(|e| js_error("listing browser storage", e))?;
            let mut names = Vec::new();
            for i in 0..length {
                let key = storage
                    .key(i)
                    .map_err(|e| js_error("listing browser storage", e))?;
                if let Some(name) = key.as_deref().and_then(|k| k.strip_prefix(&prefix))
                    && !name.contains('/')
                {
                    names.push(name.to_owned());
                }
            }
            Ok(names)
        }
    }
}
