//! Replays the committed seeds of the `protocol_message` fuzz target (`fuzz/seeds/`) through
//! the function the target calls, on stable, so the check runs without cargo-fuzz too.
#[test]
fn the_protocol_message_seeds_pass() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/protocol_message");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        boardcraft_server::checks::one_message(&bytes);
        n += 1;
    }
    assert!(n >= 10, "{} holds the seeds", dir.display());
}
