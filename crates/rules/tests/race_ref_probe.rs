use boardcraft_rules::{Color, FamilyRules, Position, race::*, shipped_variant};
use std::collections::BTreeSet;

#[derive(Clone)]
struct B { w: i32, h: i32, cells: Vec<Option<Color>>, side: Color }

fn rules(name: &str) -> std::sync::Arc<RaceRules> {
    match shipped_variant(name).unwrap().rules { FamilyRules::Race(r) => r, _ => panic!() }
}

fn moves(r: &RaceRules, b: &B, origin_occupied: bool, relaxed_noreturn: bool) -> Vec<(usize, usize)> {
    let dirs: Vec<(i32,i32)> = r.directions().iter().map(|d| { let (x,y)=d.delta(); (x as i32, y as i32)}).collect();
    let incamp = |c: Color, i: usize| { let s = Square::new((i as i32 % b.w) as u8, (i as i32 / b.w) as u8).unwrap(); r.in_camp(c, s) };
    let mut out = BTreeSet::new();
    for from in 0..b.cells.len() {
        if b.cells[from] != Some(b.side) { continue; }
        let home = |i| incamp(b.side, i);
        let targ = |i| incamp(b.side.other(), i);
        let start_t = r.target_lock() != TargetLock::Off && targ(from);
        let ok = |to: usize, left: bool, entered: bool| -> bool {
            if start_t && !targ(to) { return false; }
            if r.target_lock() == TargetLock::PerLanding && entered && !targ(to) { return false; }
            if r.no_return_home() && left && home(to) { return false; }
            true
        };
        let (fx, fy) = ((from as i32) % b.w, (from as i32) / b.w);
        for &(dx, dy) in &dirs {
            let (x, y) = (fx+dx, fy+dy);
            if x<0||y<0||x>=b.w||y>=b.h { continue; }
            let t = (y*b.w+x) as usize;
            if b.cells[t].is_none() && ok(t, !home(from), targ(from)) { out.insert((from, t)); }
        }
        let mut cells = b.cells.clone();
        if !origin_occupied { cells[from] = None; }
        let mut visited = vec![from];
        fn dfs(cur: usize, left: bool, entered: bool, from: usize, b: &B, cells: &Vec<Option<Color>>, dirs: &[(i32,i32)], visited: &mut Vec<usize>, out: &mut BTreeSet<(usize,usize)>, ok: &dyn Fn(usize,bool,bool)->bool, home: &dyn Fn(usize)->bool, targ: &dyn Fn(usize)->bool, relaxed: bool) {
            let (cx, cy) = ((cur as i32) % b.w, (cur as i32) / b.w);
            for &(dx, dy) in dirs {
                let (mx, my, x, y) = (cx+dx, cy+dy, cx+2*dx, cy+2*dy);
                if x<0||y<0||x>=b.w||y>=b.h { continue; }
                let m = (my*b.w+mx) as usize; let t = (y*b.w+x) as usize;
                if cells[m].is_none() || cells[t].is_some() || visited.contains(&t) { continue; }
                if t == from { continue; }
                if !ok(t, left, entered) { continue; }
                out.insert((from, t));
                visited.push(t);
                let nl = if relaxed { !home(t) } else { left || !home(t) };
                dfs(t, nl, entered || targ(t), from, b, cells, dirs, visited, out, ok, home, targ, relaxed);
                visited.pop();
            }
        }
        dfs(from, !home(from), targ(from), from, b, &cells, &dirs, &mut visited, &mut out, &ok, &home, &targ, relaxed_noreturn);
    }
    out.into_iter().collect()
}

fn perft(r: &RaceRules, b: &B, d: u32, oo: bool, rel: bool) -> u64 {
    let ms = moves(r, b, oo, rel);
    if d == 1 { return ms.len() as u64; }
    let mut n = 0;
    for (f, t) in ms {
        let mut c = b.clone();
        c.cells[t] = c.cells[f].take();
        c.side = c.side.other();
        n += perft(r, &c, d-1, oo, rel);
    }
    n
}

#[test]
fn probe() {
    for name in ["ugolki-hg-3x3", "ugolki-hg-3x4"] {
        let r = rules(name);
        let p = RacePosition::new(r.clone());
        let (w, h) = (r.width() as i32, r.height() as i32);
        let mut cells = vec![None; (w*h) as usize];
        for c in Color::BOTH { for s in p.pieces(c) { cells[(s.rank() as i32 * w + s.file() as i32) as usize] = Some(c); } }
        let b = B { w, h, cells, side: p.side_to_move() };
        for (oo, rel) in [(false,false),(true,false),(false,true),(true,true)] {
            println!("{name} origin_occupied={oo} relaxed={rel}: {}", perft(&r, &b, 4, oo, rel));
        }
    }
}

fn to_b(r: &RaceRules, p: &RacePosition) -> B {
    let (w, h) = (r.width() as i32, r.height() as i32);
    let mut cells = vec![None; (w*h) as usize];
    for c in Color::BOTH { for s in p.pieces(c) { cells[(s.rank() as i32 * w + s.file() as i32) as usize] = Some(c); } }
    B { w, h, cells, side: p.side_to_move() }
}

fn find(r: &RaceRules, p: &mut RacePosition, d: u32, line: &mut Vec<String>) -> bool {
    let b = to_b(r, p);
    let mut mine: Vec<(usize,usize)> = { let mut v = Vec::new(); p.legal_moves(&mut v); v.iter().map(|m| ((m.from().rank() as i32 * b.w + m.from().file() as i32) as usize, (m.to().rank() as i32 * b.w + m.to().file() as i32) as usize)).collect() };
    mine.sort();
    let reference = moves(r, &b, false, false);
    if mine != reference {
        println!("line {:?}\n{p}\nmine {:?}\nref {:?}", line, mine.len(), reference.len());
        let sq = |i: usize| Square::new((i as i32 % b.w) as u8, (i as i32 / b.w) as u8).unwrap();
        for m in &reference { if !mine.contains(m) { println!("missing {}:{}", sq(m.0), sq(m.1)); } }
        for m in &mine { if !reference.contains(m) { println!("extra {}:{}", sq(m.0), sq(m.1)); } }
        return true;
    }
    if d == 0 { return false; }
    let mut v = Vec::new(); p.legal_moves(&mut v);
    for m in v { line.push(m.to_string()); let u = p.play_unchecked(&m); let f = find(r, p, d-1, line); p.undo(&m, u); line.pop(); if f { return true; } }
    false
}

#[test]
fn probe2() {
    let r = rules("ugolki-hg-3x4");
    let mut p = RacePosition::new(r.clone());
    find(&r, &mut p, 3, &mut Vec::new());
}
