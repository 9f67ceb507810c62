use boardcraft_rules::{Position, shipped_variant, AnyPosition};
fn main() {
    let v = shipped_variant("chinese-checkers").unwrap();
    for n in [2usize, 3, 4, 6] {
        let v = v.with_players(n).unwrap();
        let AnyPosition::Race(p) = v.new_game() else { panic!() };
        let mut m = Vec::new();
        p.legal_moves(&mut m);
        let names: Vec<String> = m.iter().map(|m| m.to_string()).collect();
        println!("{n}: count {} list {} {:?}", p.count_legal_moves(), m.len(), names);
    }
}
