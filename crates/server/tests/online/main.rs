//! The server against real clients: a server bound to 127.0.0.1:0 in the test, websockets
//! from tokio-tungstenite, SQLite files in temp folders and (when BOARDCRAFT_TEST_POSTGRES is
//! set, as `.ci/run` does) a real PostgreSQL. One test binary, so one link.

/// A test case (`async fn(Db)`) run twice: on SQLite and, where `BOARDCRAFT_TEST_POSTGRES`
/// is set, on PostgreSQL. `Db` is the calling module's (`ratings::Db`).
macro_rules! both {
    ($case:ident, $sqlite:ident, $postgres:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $sqlite() {
            $case(Db::sqlite()).await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $postgres() {
            let Some(db) = Db::postgres().await else {
                return;
            };
            $case(db).await;
        }
    };
}

mod abuse;
mod accounts;
mod attacks;
mod clocks;
mod cluster;
mod fuzz_seeds;
mod games;
mod hostile;
mod limits;
mod lobby;
mod lobby_tables;
mod offers;
mod postgres;
mod ratings;
mod resilience;
mod seats;
mod support;
mod tables;
mod web;
