//! An in-memory store: for tests, and for a game that has nowhere to write (no data folder):
//! saves then last as long as the program runs.
use std::{collections::BTreeMap, io, sync::Mutex};

use super::RawStore;

#[derive(Debug, Default)]
pub struct MemoryStore {
    entries: Mutex<BTreeMap<String, Vec<u8>>>,
}

impl MemoryStore {
    pub fn new() -> Self {
        MemoryStore::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Vec<u8>>> {
        // A panic while holding the lock cannot leave a map half-written; keep going.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl RawStore for MemoryStore {
    fn get(&self, key: &str) -> io::Result<Option<Vec<u8>>> {
        Ok(self.lock().get(key).cloned())
    }

    fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        self.lock().insert(key.to_owned(), bytes.to_vec());
        Ok(())
    }

    fn remove(&self, key: &str) -> io::Result<()> {
        self.lock().remove(key);
        Ok(())
    }

    fn list(&self, dir: &str) -> io::Result<Vec<String>> {
        let prefix = format!("{dir}/");
        Ok(self
            .lock()
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix))
            .filter(|rest| !rest.contains('/'))
            .map(str::to_owned)
            .collect())
    }
}
