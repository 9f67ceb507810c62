//! Positions as text: every position of random games of every shipped variant
//! prints to a text that reads back to the same position (parse ∘ print = identity on texts,
//! the same legal moves, outcome and hash), and broken texts get their errors.
use boardcraft_rules::{
    AnyPosition, EndReason, Position, Variant, checks::SeededMoves, shipped_variant,
    shipped_variants,
};

fn sorted_moves(p: &AnyPosition) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|m| p.format_move(m)).collect();
    out.sort();
    out
}

fn check_round_trip(variant: &Variant, pos: &AnyPosition) -> bool {
    let text = pos.to_text();
    assert!(!text.contains('\n'), "{text}");
    let back = variant
        .position_from_text(&text)
        .unwrap_or_else(|e| panic!("{}: `{text}` does not read back: {e}", variant.name));
    assert_eq!(back.to_text(), text, "{}", variant.name);
    // The text holds no history (like FEN), so a repetition draw is the one thing it loses.
    if pos.outcome().map(|o| o.reason) == Some(EndReason::Repetition) {
        return false;
    }
    assert_eq!(back.outcome(), pos.outcome(), "{}: `{text}`", variant.name);
    assert_eq!(back.ply(), pos.ply());
    assert_eq!(back.side_to_move(), pos.side_to_move());
    assert_eq!(
        sorted_moves(&back),
        sorted_moves(pos),
        "{}: `{text}`",
        variant.name
    );
    // GIPF's "has entered a basic piece" flag matters (and is written) only under the
    // tournament rule; elsewhere the text sets it as a game from the start would have it.
    let exact_hash = match pos {
        AnyPosition::Gipf(g) => {
            g.rules().gipf_until_first_basic
                || boardcraft_rules::Seat::BOTH
                    .iter()
                    .all(|&c| g.has_entered_basic(c) == g.has_moved(c))
        }
        _ => true,
    };
    if exact_hash {
        assert_eq!(back.hash(), pos.hash(), "{}: `{text}`", variant.name);
    }
    text.contains(" pending")
}

#[test]
fn every_position_of_random_games_round_trips() {
    let mut pending_seen = 0;
    for name in shipped_variants() {
        let variant = shipped_variant(name).unwrap();
        let games = if name.starts_with("halma") { 4 } else { 12 };
        for game in 0..games {
            let mut picker = SeededMoves::new(0x7e47 ^ (game as u64) << 20);
            let mut pos = variant.new_game();
            let mut moves = Vec::new();
            for _ in 0..300 {
                if check_round_trip(&variant, &pos) {
                    pending_seen += 1;
                }
                pos.legal_moves(&mut moves);
                let Some(mv) = picker.pick(&moves).cloned() else {
                    break;
                };
                pos.play(&mv).unwrap();
            }
        }
    }
    assert!(
        pending_seen > 0,
        "the random GIPF games reached no pending removal decision"
    );
}

#[test]
fn start_texts_are_the_documented_ones() {
    let start = |name: &str| shipped_variant(name).unwrap().new_game().to_text();
    assert_eq!(
        start("ugolki-9qum"),
        "5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW5 w 0"
    );
    assert_eq!(
        start("ugolki-hg-3x4"),
        "BBBB4/BBBB4/BBBB4/8/8/4WWWW/4WWWW/4WWWW w 0"
    );
    assert_eq!(
        start("focus"),
        "4/WWBBWW/1BBWWBB1/1WWBBWW1/1BBWWBB1/1WWBBWW1/BBWWBB/4 w 0 reserve=0,0 captured=0,0"
    );
    assert_eq!(
        start("gipf-standard"),
        "B2W/5/6/W5B/6/5/B2W w 0 reserve=12,12"
    );
    assert_eq!(start("gipf-tournament"), "4/5/6/7/6/5/4 w 0 reserve=18,18");
}

fn error(variant: &str, text: &str) -> String {
    shipped_variant(variant)
        .unwrap()
        .position_from_text(text)
        .unwrap_err()
        .to_string()
}

#[test]
fn broken_texts_say_what_and_where() {
    let q = "ugolki-9qum";
    assert_eq!(
        error(q, ""),
        "position text, column 1: the text ends where the board should follow"
    );
    assert_eq!(
        error(q, "5BBB/5BBB/5BBB/8/8/WWW5/WWW5 w 0"),
        "position text, column 1: the board has 7 rows separated by `/`, this variant's has 8"
    );
    assert_eq!(
        error(q, "5BBB/5BBB/5BBX/8/8/WWW5/WWW5/WWW5 w 0"),
        "position text, column 14: `X` is not a piece: write `W` (White), `B` (Black) or a number of empty squares"
    );
    assert_eq!(
        error(q, "5BBB/5BBB/5BBB/9/8/WWW5/WWW5/WWW5 w 0"),
        "position text, column 16: rank 5 has 8 squares; `9` empty squares here do not fit"
    );
    assert_eq!(
        error(q, "5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW4 w 0"),
        "position text, column 30: rank 1 has 8 squares, the text gives 7"
    );
    assert_eq!(
        error(q, "5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW5 x 0"),
        "position text, column 35: `x` is not a side to move: write `w` (White) or `b` (Black)"
    );
    assert_eq!(
        error(q, "5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW5 w -1"),
        "position text, column 37: `-1` is not a ply count: write the number of plies played, like `0` or `37`"
    );
    assert_eq!(
        error(q, "5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW5 w 1"),
        "position text: after 1 plies it is Black's turn (White moves first)"
    );
    assert_eq!(
        error(q, "5BBB/5BBB/5BB1/8/8/WWW5/WWW5/WWW5 w 0"),
        "position text, column 1: Black has 8 pieces on the board; every side has 9 in this variant"
    );
    assert_eq!(
        error(q, "5BBB/5BBB/5BBB/8/8/WWW5/WWW5/WWW5 w 0 pending"),
        "position text, column 39: `pending`: a race position is only `<ranks> <side> <ply>`"
    );
    let f = "focus";
    assert_eq!(
        error(
            f,
            "4/WWBBWW/1BBWWBB1/1WWBBWW1/1BBWWBB1/1WWBBWW1/BBWWBB/4 w 0 reserve=0,0"
        ),
        "position text: the `captured` field is missing (a Focus position ends with `reserve=W,B captured=W,B`)"
    );
    assert_eq!(
        error(
            f,
            "4/WWBBW(WX)/1BBWWBB1/1WWBBWW1/1BBWWBB1/1WWBBWW1/BBWWBB/4 w 0 reserve=0,0 captured=0,0"
        ),
        "position text, column 8: `WX` on g7: a stack is written bottom to top with `W` and `B`, like \"WBW\"; `X` is not a piece"
    );
    assert_eq!(
        error(
            f,
            "4/WWBBW(WW/1BBWWBB1/1WWBBWW1/1BBWWBB1/1WWBBWW1/BBWWBB/4 w 0 reserve=0,0 captured=0,0"
        ),
        "position text, column 8: `(` opens a stack that no `)` closes"
    );
    assert_eq!(
        error(
            f,
            "4/WWBBWW/1BBWWBB1/1WWBBWW1/1BBWWBB1/1WWBBWW1/BBWWBB/4 w 0 reserve=1,0 captured=0,0"
        ),
        "position text: White has 18 on the board + 1 in reserve + 0 captured by Black = 19 pieces, not 18"
    );
    assert_eq!(
        error(
            f,
            "4/WWBBWW/1BBWWBB1/1WWBBWW1/1BBWWBB1/1WWBBWW1/BBWWBB/4 w 0 reserve=0 captured=0,0"
        ),
        "position text, column 59: `reserve=0`: write two numbers, White's then Black's, like `reserve=3,0`"
    );
    let g = "gipf-standard";
    assert_eq!(
        error(g, "B2W/5/6/W5B/6/5/B2W w 0"),
        "position text: the `reserve=W,B` field is missing (basic pieces in each side's reserve)"
    );
    assert_eq!(
        error(g, "B2W/5/6/W5B/6/5/B2W w 0 reserve=12,12 pending"),
        "position text: a pending removal needs rows of White with a choice among them; there is no such row"
    );
    assert_eq!(
        error(g, "B2W/5/6/W5B/6/5/B2W w 0 reserve=12,12 settled=a1-b2"),
        "position text, column 39: `a1-b2` in `settled=a1-b2` is not a line: name a line by the spots at its ends, like `b2-b5` or `e2-e8`"
    );
    assert_eq!(
        error(g, "B2W/5/6/W5B/6/5/B2W w 0 reserve=12,12 gipf-reserve=1,1"),
        "position text, column 39: `gipf-reserve=1,1` is not a field of a position of this variant; after the ply come: reserve=W,B, pending, settled=…"
    );
    assert_eq!(
        error(g, "B2W/5/6/wwww2B/6/5/B2W w 0 reserve=8,12"),
        "position text: White has a row of four on the board; it would have been taken"
    );
    assert_eq!(
        error(g, "B2W/5/6/W5B/6/5/B2x w 0 reserve=12,12"),
        "position text, column 19: `x` on h5 is not a piece: write `w`/`b` (basic), `W`/`B` (GIPF-piece) or a number of empty spots"
    );
}

#[test]
fn a_pending_decision_reads_back_and_is_decided_first() {
    // Two White rows crossing at e5 (rules.md G-6), White to decide: b2-h5 diagonal c3 d4 e5 f5
    // and column e2 e3 e4 e5.
    let v = shipped_variant("gipf-basic").unwrap();
    let text = "b3/1w3/2w3/wwww3/3w2/5/4 w 10 reserve=3,9 pending";
    let pos = v.position_from_text(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pos.to_text(), text);
    let moves = sorted_moves(&pos);
    assert!(moves.iter().all(|m| m.starts_with('x')), "{moves:?}");
}
