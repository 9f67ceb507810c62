fn main() {
    eprintln!(
        "The Boardcraft game window arrives with the Bevy plugins; meanwhile use `cargo run -p boardcraft-cli -- --help`."
    );
}
