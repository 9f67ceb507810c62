//! Writes the seed corpus of the `legal_moves_are_legal` and `notation` fuzz targets
//! (`fuzz/seeds/<target>/`, input formats in `boardcraft_rules::checks::fuzz`):
//! `cargo run -p boardcraft-rules --features checks --example rules_fuzz_seeds -- fuzz/seeds`
//!
//! Per shipped variant: the start, random games of a few lengths, and for GIPF the positions
//! where a move carries a removal choice (`;x…`) or a removal decision is pending (`x…;`),
//! so that every family's notation, GIPF removals included, is in the corpus from the start.
//! The games are drawn from a fixed seed: the same build writes the same files.
use std::{fs, path::Path};

use boardcraft_rules::{AnyPosition, Position, checks::fuzz, gipf::GipfPosition, shipped_variants};

/// xorshift64: enough to draw reproducible games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random game of at most `plies` plies as choice bytes (each < 256 and < the number of
/// moves, so that it picks the same move however the bytes are read).
fn random_game(start: &AnyPosition, plies: usize, rng: &mut Rng) -> (Vec<u8>, AnyPosition) {
    let mut pos = start.clone();
    let mut choices = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let i = (rng.next() % moves.len().min(256) as u64) as usize;
        choices.push(i as u8);
        pos.play(&moves[i]).unwrap();
    }
    (choices, pos)
}

/// Whether a GIPF position has a removal decision pending (`x…;e1-e2`), or a move whose
/// removal is the mover's choice (`e1-e2;x…`; forced removals are not written).
fn gipf_choice(pos: &AnyPosition) -> Option<&'static str> {
    let AnyPosition::Gipf(p) = pos else {
        return None;
    };
    if p.pending_removal().is_some() {
        return Some("pending");
    }
    let mut moves = Vec::new();
    GipfPosition::legal_moves(p, &mut moves);
    moves
        .iter()
        .any(|m| p.format_move(m).contains(";x"))
        .then_some("removal")
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    fs::write(dir.join(name), bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fuzz/seeds".into());
    let out = Path::new(&out);
    let legal = out.join("legal_moves_are_legal");
    let notation = out.join("notation");
    for dir in [&legal, &notation] {
        fs::create_dir_all(dir).unwrap();
    }
    let starts = fuzz::shipped_starts();
    let mut rng = Rng(0x5eed_f022);
    for (v, (name, start)) in shipped_variants().zip(starts).enumerate() {
        let v = v as u8;
        write(&legal, &format!("{name}-start"), &[v]);
        for plies in [8, 40, 160] {
            let (choices, _) = random_game(start, plies, &mut rng);
            let mut input = vec![v];
            input.extend(&choices);
            write(&legal, &format!("{name}-{plies}"), &input);
        }
        // Notation: a legal move's text after a few plies, and a few texts that are not moves.
        for plies in [0, 6, 30] {
            let (choices, pos) = random_game(start, plies, &mut rng);
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let Some(mv) = moves.get((rng.next() % moves.len().max(1) as u64) as usize) else {
                continue;
            };
            let mut input = vec![v, choices.len() as u8];
            input.extend(&choices);
            input.extend(pos.format_move(mv).as_bytes());
            write(&notation, &format!("{name}-{plies}"), &input);
        }
        for (i, text) in ["", "1. a1-a2 2... b2", "x;", "  +", "z99:a0"]
            .iter()
            .enumerate()
        {
            let mut input = vec![v, 0];
            input.extend(text.as_bytes());
            write(&notation, &format!("{name}-junk{i}"), &input);
        }
        // GIPF: the first games of this variant that reach each kind of removal choice.
        if matches!(start, AnyPosition::Gipf(_)) {
            for kind in ["removal", "pending"] {
                let found = (0..4000).find_map(|_| {
                    let (choices, pos) = random_game(start, fuzz::MAX_NOTATION_PLIES, &mut rng);
                    // Replay to the first ply that has the choice.
                    let mut p = start.clone();
                    let mut moves = Vec::new();
                    for k in 0..=choices.len() {
                        if gipf_choice(&p) == Some(kind) {
                            return Some((choices[..k].to_vec(), p));
                        }
                        let Some(&c) = choices.get(k) else { break };
                        p.legal_moves(&mut moves);
                        p.play(&moves[usize::from(c)]).unwrap();
                    }
                    let _ = pos;
                    None
                });
                let Some((choices, pos)) = found else {
                    eprintln!("{name}: no {kind} choice found");
                    continue;
                };
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                let texts: Vec<String> = moves.iter().map(|m| pos.format_move(m)).collect();
                let text = texts
                    .iter()
                    .find(|t| t.contains('x'))
                    .expect("the choice is written");
                let mut input = vec![v, choices.len() as u8];
                input.extend(&choices);
                input.extend(text.as_bytes());
                write(&notation, &format!("{name}-{kind}"), &input);
                let mut input = vec![v];
                input.extend(&choices);
                write(&legal, &format!("{name}-{kind}"), &input);
                println!(
                    "{name}: {kind} choice after {} plies: {text}",
                    choices.len()
                );
            }
        }
    }
}
