//! `boardcraft-cli`: Boardcraft's engine on the command line.
use std::process::ExitCode;

use clap::{Parser, Subcommand};

// First, so that its `out!` and `outln!` macros are in scope in every module after it.
#[macro_use]
mod out;

mod common;
mod engine;
mod game;
mod list;
mod match_cmd;
mod moves;
mod online;
mod perft;
mod player;
mod position;
mod puzzles;
mod show;
mod soak;
mod think;
mod validate;

#[derive(Parser)]
#[command(
    name = "boardcraft-cli",
    version,
    about = "Boardcraft's rules engine and AI on the command line"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the shipped variants.
    List(list::Args),
    /// Print the legal moves of a position, one per line in notation, sorted.
    Moves(moves::Args),
    /// Count the leaves of the legal-move tree (perft) per depth, with throughput.
    Perft(perft::Args),
    /// Print a position as text, alone on one line.
    Position(position::Args),
    /// Print a position: the board, side to move and the outcome if the game is over.
    Show(show::Args),
    /// Validate variant files; exit status 0 if all are valid, 1 otherwise.
    Validate(validate::Args),
    /// Print the move the engine chooses and its analysis (score, depth, nodes, best line).
    Think(think::Args),
    /// Play a match between two players and measure the difference in strength.
    Match(match_cmd::Args),
    /// Play many games per variant between mixed levels, checking the rules' invariants at
    /// every move; exit status 1 on any illegal move, broken invariant or panic.
    Soak(soak::Args),
    /// Verify the puzzles and lessons, or mine new puzzles from self-play games.
    Puzzles(puzzles::Args),
    /// Speak the engine protocol on stdin/stdout (see "The engine protocol" in docs/engine.md).
    Engine(engine::Args),
    /// Online play through a game server: a bot client and a load benchmark.
    Online(online::Args),
}

fn main() -> ExitCode {
    // A closed stdout ends every command quietly: see `out`.
    out::watch_the_reader();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::List(args) => list::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Position(args) => position::run(args),
        Command::Show(args) => show::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Think(args) => think::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Soak(args) => soak::run(args),
        Command::Puzzles(args) => puzzles::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Online(args) => online::run(args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
