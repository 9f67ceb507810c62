//! `boardcraft-cli online`: clients of the game server (`boardcraft-server`, docs/protocol.md):
//! a bot that plays an online game, and a load benchmark.
use std::process::ExitCode;

use clap::{Args as ClapArgs, Subcommand};

mod bot;
mod load;
mod lobby_load;
mod mirror;
mod net;
mod play;
mod rating_check;

#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The computer plays one online game: create one (and print the invite) or join one.
    Play(play::Args),
    /// A load benchmark: N concurrent games of bots playing random moves through a server,
    /// then a check of every stored game against what its clients saw.
    Load(load::Args),
    /// The computer as a lobby player: signs in as a bot account, accepts challenges, keeps a
    /// seek open per variant, takes seats at tables of more than two and plays any number of
    /// games at once.
    Bot(bot::Args),
    /// The lobby's load benchmark: N guest clients pairing through pools and seeks and playing
    /// short games; pairing latency, move round trip, server CPU and memory, and a check of
    /// every rated game's Glicko-2 change against the stored results. With `--tables 3,4,6`:
    /// guests seated at tables of those sizes from pools; table fill latency and the rest.
    LobbyLoad(lobby_load::Args),
}

pub fn run(args: Args) -> Result<ExitCode, String> {
    match args.command {
        Command::Play(a) => play::run(a),
        Command::Load(a) => load::run(a),
        Command::Bot(a) => bot::run(a),
        Command::LobbyLoad(a) => lobby_load::run(a),
    }
}
