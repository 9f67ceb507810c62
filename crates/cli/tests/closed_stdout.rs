//! A reader that closes stdout early (`boardcraft-cli moves halma-16 | head -5`): every command
//! ends quietly and at once, killed by SIGPIPE as `seq` or `yes` would be (docs/cli.md, "Output
//! into a pipe"), while a pipe to an engine process that dies stays an error that is reported.
#![cfg(unix)]

use std::{
    io::{BufRead, BufReader, Read},
    os::unix::process::ExitStatusExt,
    process::{Child, Command, ExitStatus, Stdio},
    time::{Duration, Instant},
};

/// Far longer than any command below needs once its reader is gone; only there so that a
/// command computing on for nobody fails the test instead of hanging it.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// A running command, killed if the test fails before it has ended.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn(args: &[&str]) -> Running {
    Running(
        Command::new(env!("CARGO_BIN_EXE_boardcraft-cli"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    )
}

/// Reads `lines` lines of the child's stdout, then closes it.
fn read_lines_and_close(child: &mut Running, lines: usize) -> String {
    let mut reader = BufReader::new(child.0.stdout.take().unwrap());
    let mut text = String::new();
    for _ in 0..lines {
        reader.read_line(&mut text).unwrap();
    }
    text
}

/// Waits for the child (killed past [`HANG_GUARD`]) and returns its status and stderr.
fn finish(what: &str, child: &mut Running) -> (ExitStatus, String) {
    let started = Instant::now();
    let child = &mut child.0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > HANG_GUARD {
            panic!("{what}: still running {HANG_GUARD:?} after its reader closed stdout");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (status, stderr)
}

fn assert_quiet(what: &str, stderr: &str) {
    for noise in ["panicked", "Broken pipe", "backtrace", "error"] {
        assert!(
            !stderr.contains(noise),
            "{what}: {noise:?} on stderr:\n{stderr}"
        );
    }
}

/// Commands that write all their lines at once: a reader that closes after a few bytes may come
/// before the last write (SIGPIPE) or after it (the command had finished: success), but never
/// sees a panic or an error.
#[test]
fn listing_commands_end_quietly_when_their_reader_closes() {
    let commands: &[&[&str]] = &[
        &["moves", "halma-16"],
        &["moves", "halma-16", "--json"],
        &["list"],
        &["show", "halma-16"],
        &["perft", "halma-16", "--depth", "3", "--divide"],
    ];
    for args in commands {
        let what = args.join(" ");
        let mut child = spawn(args);
        let mut first = [0u8; 4];
        child
            .0
            .stdout
            .as_mut()
            .unwrap()
            .read_exact(&mut first)
            .unwrap();
        drop(child.0.stdout.take());
        let (status, stderr) = finish(&what, &mut child);
        assert!(
            status.success() || status.signal() == Some(libc::SIGPIPE),
            "{what}: {status:?}"
        );
        assert_quiet(&what, &stderr);
    }
}

/// Commands that compute for a long time between two lines stop as soon as their reader is
/// gone, killed by SIGPIPE, instead of computing on until their next line: a `perft` whose next
/// depth takes minutes, a `match` and a `soak` with games for hours, the engine waiting for
/// commands on a stdin that stays open.
#[test]
fn long_commands_stop_as_soon_as_their_reader_closes() {
    // (arguments, lines to read before closing)
    let commands: &[(&[&str], usize)] = &[
        // The header and depths 1 to 5 (a few seconds); depth 6 alone takes minutes.
        (&["perft", "halma-16", "--depth", "7"], 6),
        (
            &[
                "match", "focus", "--a", "strong", "--b", "strong", "--games", "100000",
            ],
            1,
        ),
        (&["soak", "all", "--games", "100000", "--seed", "1"], 1),
        (&["engine"], 0),
    ];
    let mut children = Vec::new();
    for &(args, lines) in commands {
        let mut child = spawn(args);
        let text = read_lines_and_close(&mut child, lines);
        assert_eq!(text.lines().count(), lines, "{}: {text}", args.join(" "));
        // stdin stays open (and idle) until the command has ended.
        let stdin = child.0.stdin.take();
        children.push((args.join(" "), child, stdin));
    }
    for (what, child, stdin) in &mut children {
        let (status, stderr) = finish(what, child);
        drop(stdin.take());
        assert_eq!(status.signal(), Some(libc::SIGPIPE), "{what}: {status:?}");
        assert_quiet(what, &stderr);
    }
}

/// A closed stdout ends the command, but SIGPIPE is not restored for the whole process: an
/// engine that dies under `match` is reported (exit status 1, the reason on stderr), not a
/// silent death by SIGPIPE when the match next writes to it.
#[test]
fn an_engine_that_dies_is_an_error_not_a_silent_sigpipe() {
    let mut child = spawn(&[
        "match",
        "focus",
        "--a",
        "engine:true",
        "--b",
        "random",
        "--games",
        "2",
    ]);
    let (status, stderr) = finish("match with a dead engine", &mut child);
    assert_eq!(status.code(), Some(1), "{status:?}\n{stderr}");
    assert!(
        stderr.contains("error:") && stderr.contains("engine `true`"),
        "{stderr}"
    );
}
