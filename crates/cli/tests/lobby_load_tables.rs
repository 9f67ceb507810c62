//! `boardcraft-cli online lobby-load --tables 3,4,6` against a real server (the
//! `boardcraft-server` library on 127.0.0.1:0 with a SQLite file in a temporary folder and
//! Chinese checkers pools of 3, 4 and 6 seats): 24 clients for a short run form tables of each
//! size, play moves over the game websocket of protocol 3, and the report has the fill
//! latency, the move round trip, the server's CPU and memory (this process's: the server runs
//! in it) and the normaliser, with no client error and no position differing from the rules'.
use std::{process::Command, sync::Arc};

use boardcraft_protocol::{PoolKey, TimeControl};
use boardcraft_server::{Settings, serve, storage};
use tokio::net::TcpListener;

/// The number after `key` in `line` (`n 24` → 24).
fn number_after(line: &str, key: &str) -> Option<f64> {
    line.split(key)
        .nth(1)?
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()?
        .parse()
        .ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mix_of_three_four_and_six_seats_forms_every_table_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("server.sqlite3").display().to_string();
    let store: Arc<dyn storage::Storage> = storage::open(&db).await.expect("the database opens");
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut settings = Settings {
        max_connections_per_ip: 0,
        max_new_games_per_ip_per_minute: 0,
        max_new_guests_per_ip_per_hour: 0,
        ..Settings::default()
    };
    settings.lobby.pools = [3, 4, 6]
        .into_iter()
        .map(|seats| PoolKey {
            seats,
            ..PoolKey::new("chinese-checkers", TimeControl::minutes(1, 1))
        })
        .collect();
    tokio::spawn(serve(listener, store, settings, std::future::pending()));

    let output = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_boardcraft-cli"))
            .args(["online", "lobby-load", "--server"])
            .arg(format!("http://{addr}"))
            // The server runs in this test's process: its CPU and memory are this process's.
            .args(["--server-pid", &std::process::id().to_string()])
            .args(["--tables", "3,4,6", "--clients", "24", "--minutes", "0.3"])
            .args([
                "--ramp-secs",
                "1",
                "--think-ms",
                "100",
                "--drain-secs",
                "20",
            ])
            .args(["--normaliser-depth", "4"])
            .output()
            .expect("the benchmark runs")
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Shown with `--nocapture`.
    println!("{stdout}");
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let line = |start: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no `{start}` line in\n{stdout}\n{stderr}"))
            .to_owned()
    };

    let tables = line("tables: ");
    for size in ["x3 ", "x4 ", "x6 "] {
        let formed = number_after(&tables, size).unwrap_or(0.0);
        assert!(formed >= 1.0, "no table of {size}: {tables}\n{stdout}");
    }
    // `… formed (x3 2, x4 2, x6 1), 5 seen to end; …`
    let ended = number_after(&tables, "), ").unwrap_or(0.0);
    assert!(ended >= 1.0, "no table ended: {tables}");
    let fill = line("table fill latency");
    assert!(number_after(&fill, " n ").unwrap() >= 13.0, "{fill}");
    assert!(fill.contains(" p50 ") && fill.contains(" p99 "), "{fill}");
    for size in ["  x3: ", "  x4: ", "  x6: "] {
        line(size);
    }
    let rtt = line("move round trip");
    assert!(number_after(&rtt, " n ").unwrap() > 0.0, "{rtt}");
    let server = line("server: CPU ");
    assert!(server.contains("peak RSS"), "{server}");
    let normaliser = line("normaliser: ");
    assert!(normaliser.contains("M leaves/s"), "{normaliser}");
    let errors = line("client errors: ");
    assert!(
        errors.starts_with("client errors: 0; 0 positions differing"),
        "{errors}\n{stderr}"
    );
}
