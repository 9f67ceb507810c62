//! Replays the committed seed corpus of the `save_file` fuzz target (`fuzz/seeds/save_file/`)
//! through the target's own body on the stable toolchain, so the checks cannot rot where no
//! nightly toolchain is at hand, and a crash once added as a seed stays fixed.
use std::{fs, path::PathBuf};

#[test]
fn save_file_seeds_pass() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/save_file");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{} holds too few seeds", dir.display());
    let mut loaded = 0;
    for path in &files {
        let bytes = fs::read(path).unwrap();
        if let Err(panic) = std::panic::catch_unwind(|| boardcraft_saves::checks::save_file(&bytes))
        {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{}: {message}", path.display());
        }
        loaded += usize::from(boardcraft_saves::load_and_replay_shipped(&bytes).is_ok());
    }
    // The corpus holds real saves, not only damaged ones.
    assert!(
        loaded * 2 > files.len(),
        "{loaded} of {} seeds load",
        files.len()
    );
}
