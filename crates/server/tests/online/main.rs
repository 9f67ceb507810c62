//! The server against real clients: a server bound to 127.0.0.1:0 in the test, websockets
//! from tokio-tungstenite, SQLite files in temp folders and (when BOARDCRAFT_TEST_POSTGRES is
//! set, as `.ci/run` does) a real PostgreSQL. One test binary, so one link.
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
