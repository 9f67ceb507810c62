//! Replays the committed fuzz seed corpus (`fuzz/seeds/<target>/`) through the very functions
//! the fuzz targets call, on the stable toolchain: the checks cannot rot where no nightly
//! toolchain (and so no cargo-fuzz) is at hand, and every crash once found and added as a
//! seed stays fixed.
use std::{fs, path::PathBuf};

use boardcraft_rules::checks::fuzz;

fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/seeds")
        .join(target);
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let bytes = fs::read(&path).unwrap();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                bytes,
            )
        })
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "{} holds no seeds: every target keeps a seed corpus",
        dir.display()
    );
    files
}

fn replay(target: &str, body: fn(&[u8])) {
    for (name, bytes) in seeds(target) {
        if let Err(panic) = std::panic::catch_unwind(|| body(&bytes)) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("fuzz/seeds/{target}/{name}: {message}");
        }
    }
}

#[test]
fn variant_file_seeds_pass() {
    replay("variant_file", fuzz::variant_file);
}

#[test]
fn notation_seeds_pass() {
    replay("notation", fuzz::notation);
}

#[test]
fn legal_moves_are_legal_seeds_pass() {
    replay("legal_moves_are_legal", fuzz::legal_moves_are_legal);
}
