//! The store never loses data: atomic writes, backups, reads that leave damaged files alone and
//! fall back to the backup, deletes that keep a copy. Each policy test runs on the file store
//! (a temporary folder) and the memory store.
use std::fs;

use boardcraft_saves::{
    SaveError, SavedGame,
    slot::slot_key,
    store::{
        self, FileStore, Loaded, MemoryStore, RawStore, WriteReport, backup_key, damaged_key,
        write_atomic,
    },
};

/// A "format" for the policy tests: valid content is text ending in `;`.
fn parse(bytes: &[u8]) -> Result<String, SaveError> {
    let text = std::str::from_utf8(bytes).map_err(|e| SaveError::NotText {
        offset: e.valid_up_to(),
    })?;
    if text.is_empty() {
        return Err(SaveError::Empty);
    }
    match text.strip_suffix(';') {
        Some(body) => Ok(body.to_owned()),
        None => Err(SaveError::Truncated {
            line: 1,
            column: text.len() + 1,
        }),
    }
}

fn valid(bytes: &[u8]) -> bool {
    parse(bytes).is_ok()
}

fn both_stores(test: impl Fn(&dyn RawStore)) {
    let dir = tempfile::tempdir().unwrap();
    test(&FileStore::new(dir.path()));
    test(&MemoryStore::new());
}

fn get(store: &dyn RawStore, key: &str) -> Option<Vec<u8>> {
    store.get(key).unwrap()
}

#[test]
fn writing_keeps_the_previous_version_as_backup() {
    both_stores(|s| {
        let key = "saves/game.ron";
        assert_eq!(
            store::write(s, key, b"one;", valid),
            Ok(WriteReport::default())
        );
        assert_eq!(get(s, &backup_key(key)), None);
        assert_eq!(
            store::write(s, key, b"two;", valid),
            Ok(WriteReport {
                backed_up: true,
                kept_damaged: false
            })
        );
        assert_eq!(get(s, key).as_deref(), Some(&b"two;"[..]));
        assert_eq!(get(s, &backup_key(key)).as_deref(), Some(&b"one;"[..]));
        assert_eq!(
            store::read(s, key, parse),
            Ok(Loaded {
                value: "two".to_owned(),
                recovered: None
            })
        );
    });
}

#[test]
fn a_missing_entry_is_missing_even_with_a_backup() {
    both_stores(|s| {
        assert_eq!(
            store::read(s, "settings.ron", parse),
            Err(SaveError::Missing)
        );
        s.put(&backup_key("settings.ron"), b"old;").unwrap();
        assert_eq!(
            store::read(s, "settings.ron", parse),
            Err(SaveError::Missing)
        );
    });
}

#[test]
fn a_truncated_entry_is_reported_untouched_and_the_backup_used() {
    both_stores(|s| {
        let key = "saves/game.ron";
        store::write(s, key, b"first version;", valid).unwrap();
        store::write(s, key, b"second version;", valid).unwrap();
        let full = b"second version;";
        for cut in 0..full.len() {
            s.put(key, &full[..cut]).unwrap();
            let loaded = store::read(s, key, parse).unwrap();
            assert_eq!(loaded.value, "first version");
            assert!(loaded.recovered.as_ref().is_some_and(SaveError::is_damage));
            // Reading changed nothing.
            assert_eq!(get(s, key).as_deref(), Some(&full[..cut]));
            assert_eq!(
                get(s, &backup_key(key)).as_deref(),
                Some(&b"first version;"[..])
            );
        }
    });
}

#[test]
fn a_damaged_entry_without_backup_is_reported_and_untouched() {
    both_stores(|s| {
        let key = "settings.ron";
        s.put(key, b"\xff\xfe garbage").unwrap();
        assert_eq!(
            store::read(s, key, parse),
            Err(SaveError::NotText { offset: 0 })
        );
        assert_eq!(get(s, key).as_deref(), Some(&b"\xff\xfe garbage"[..]));
        // A damaged backup does not help either; the entry's problem is the one reported.
        s.put(&backup_key(key), b"cut").unwrap();
        assert_eq!(
            store::read(s, key, parse),
            Err(SaveError::NotText { offset: 0 })
        );
    });
}

#[test]
fn replacing_a_damaged_entry_keeps_it_apart_and_the_good_backup_too() {
    both_stores(|s| {
        let key = "saves/game.ron";
        store::write(s, key, b"good;", valid).unwrap();
        store::write(s, key, b"better;", valid).unwrap();
        s.put(key, b"bett").unwrap(); // damaged behind our back
        assert_eq!(
            store::write(s, key, b"new;", valid),
            Ok(WriteReport {
                backed_up: false,
                kept_damaged: true
            })
        );
        assert_eq!(get(s, key).as_deref(), Some(&b"new;"[..]));
        assert_eq!(get(s, &backup_key(key)).as_deref(), Some(&b"good;"[..]));
        assert_eq!(get(s, &damaged_key(key)).as_deref(), Some(&b"bett"[..]));
    });
}

#[test]
fn deleting_keeps_a_copy_and_the_slot_is_gone() {
    both_stores(|s| {
        let key = slot_key("game").unwrap();
        store::write(s, &key, b"kept;", valid).unwrap();
        assert_eq!(store::list_slots(s), Ok(vec!["game".to_owned()]));
        store::delete(s, &key, valid).unwrap();
        assert_eq!(get(s, &key), None);
        assert_eq!(get(s, &backup_key(&key)).as_deref(), Some(&b"kept;"[..]));
        assert_eq!(store::read(s, &key, parse), Err(SaveError::Missing));
        assert_eq!(store::list_slots(s), Ok(vec![]));
        assert_eq!(store::delete(s, &key, valid), Err(SaveError::Missing));
    });
}

#[test]
fn listing_shows_saves_only() {
    both_stores(|s| {
        for name in ["b game", "a game", "Партия"] {
            store::write(s, &slot_key(name).unwrap(), b"x;", valid).unwrap();
        }
        store::write(s, &slot_key("a game").unwrap(), b"y;", valid).unwrap();
        s.put("saves/b game.ron.damaged", b"?").unwrap();
        s.put("saves/notes.txt", b"?").unwrap();
        s.put("settings.ron", b"?").unwrap();
        assert_eq!(
            store::list_slots(s),
            Ok(vec![
                "a game".to_owned(),
                "b game".to_owned(),
                "Партия".to_owned()
            ])
        );
    });
}

#[test]
fn atomic_writes_leave_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep/er/file.ron");
    write_atomic(&path, b"one").unwrap();
    write_atomic(&path, b"two").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"two");
    let names: Vec<_> = fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec!["file.ron"]);
}

#[test]
fn a_failed_write_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let s = FileStore::new(dir.path());
    store::write(&s, "saves/game.ron", b"safe;", valid).unwrap();
    // The backup's place is taken by a folder: keeping the previous version fails, so the
    // entry must not be replaced.
    fs::create_dir(dir.path().join("saves/game.ron.bak")).unwrap();
    let err = store::write(&s, "saves/game.ron", b"new;", valid).unwrap_err();
    assert!(matches!(err, SaveError::WriteFailed { .. }), "{err:?}");
    assert_eq!(
        fs::read(dir.path().join("saves/game.ron")).unwrap(),
        b"safe;"
    );
    // No temporary file is left behind.
    let leftovers: Vec<_> = fs::read_dir(dir.path().join("saves"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn an_unreadable_entry_falls_back_to_the_backup() {
    let dir = tempfile::tempdir().unwrap();
    let s = FileStore::new(dir.path());
    s.put(&backup_key("settings.ron"), b"old;").unwrap();
    // A folder where the file should be cannot be read as a file.
    fs::create_dir(dir.path().join("settings.ron")).unwrap();
    let loaded = store::read(&s, "settings.ron", parse).unwrap();
    assert_eq!(loaded.value, "old");
    assert!(matches!(
        loaded.recovered,
        Some(SaveError::Unreadable { .. })
    ));
}

#[test]
fn saves_round_trip_through_a_file_store_with_backup_recovery() {
    let dir = tempfile::tempdir().unwrap();
    let s = FileStore::new(dir.path());
    let variant = boardcraft_rules::shipped_variant("focus").unwrap();
    let key = slot_key("my focus game").unwrap();
    let players = (
        boardcraft_saves::Player::Human,
        boardcraft_saves::Player::Human,
    );
    let older = SavedGame::new(&variant, players.0, players.1, vec![], None);
    let newer = SavedGame::new(&variant, players.0, players.1, vec!["b7-b6".into()], None);
    let is_save = |b: &[u8]| SavedGame::load_bytes(b).is_ok();
    store::write(&s, &key, older.to_ron().as_bytes(), is_save).unwrap();
    store::write(&s, &key, newer.to_ron().as_bytes(), is_save).unwrap();
    assert_eq!(
        store::read(&s, &key, SavedGame::load_bytes).unwrap().value,
        newer
    );
    // Truncate the file on disk: the backup (the older save) comes back, reported.
    let path = s.path(&key);
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let loaded = store::read(&s, &key, SavedGame::load_bytes).unwrap();
    assert_eq!(loaded.value, older);
    assert!(matches!(
        loaded.recovered,
        Some(SaveError::Truncated { .. })
    ));
    assert_eq!(fs::read(&path).unwrap(), &bytes[..bytes.len() / 2]);
}
