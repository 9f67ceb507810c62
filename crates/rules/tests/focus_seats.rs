//! Focus for three and four (rules.md §11.3): the start positions, the opening drop of the
//! three-player game, seats going out and their places, partnerships of four, and the
//! `Position` contract at every seat count.
use boardcraft_rules::{
    AnyPosition, EndReason, Places, Position, Seat, Variant,
    checks::{check_move, check_position},
    position::play_line,
    shipped_variant,
};

fn table(players: usize) -> Variant {
    shipped_variant("focus")
        .unwrap()
        .with_players(players)
        .unwrap_or_else(|| panic!("focus for {players}"))
}

fn focus(pos: &AnyPosition) -> &boardcraft_rules::focus::FocusPosition {
    match pos {
        AnyPosition::Focus(p) => p,
        _ => panic!("not a Focus position"),
    }
}

#[test]
fn focus_offers_two_three_and_four_players() {
    let v = shipped_variant("focus").unwrap();
    assert_eq!(v.player_counts(), [2, 3, 4]);
    for n in [2, 3, 4] {
        let pos = table(n).new_game();
        assert_eq!(pos.seat_count(), n);
        assert_eq!(pos.side_to_move(), Seat::WHITE);
    }
    let four = table(4).new_game();
    let names: Vec<String> = Seat::all(4).map(|s| four.seat_name(s)).collect();
    assert_eq!(names, ["Green", "Red", "Blue", "Yellow"]);
}

/// Three players: 12 pieces each on the central 6×6, the 13th in reserve. Each player's first
/// turn drops it on an empty square: the 16 squares outside the 6×6, then 15, then 14.
#[test]
fn three_players_open_with_sixteen_drops_on_empty_squares() {
    let pos = table(3).new_game();
    let p = focus(&pos);
    for s in Seat::all(3) {
        assert_eq!(p.pieces_on_board(s), 12);
        assert_eq!(p.reserve(s), 1);
    }
    assert_eq!(pos.count_legal_moves(), 16);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len(), 16);
    assert!(moves.iter().all(|m| pos.format_move(m).starts_with('+')));
    // A stack move or a drop on a stack is not a first turn.
    assert!(pos.parse_move("b7-b8").is_err());
    assert!(pos.parse_move("+b7").is_err());
    assert!(pos.parse_move("+a3").is_ok());

    let mut pos = pos;
    play_line(&mut pos, "+a3 +a4").unwrap();
    assert_eq!(pos.count_legal_moves(), 14);
    play_line(&mut pos, "+a5").unwrap();
    // From the fourth ply on, the ordinary game: no reserve left, only stack moves.
    let p = focus(&pos);
    assert!(Seat::all(3).all(|s| p.reserve(s) == 0));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| !pos.format_move(m).starts_with('+')));
    assert_eq!(pos.side_to_move(), Seat::WHITE);
}

/// Four players fill all 52 squares, 13 single pieces each. The first player's moves are one
/// step to each on-board neighbour of its 13 pieces. DERIVED by hand: the board has
/// 2×3 + 2×5 + 4×7 = 44 neighbouring pairs along the ranks and as many along the files, 176
/// (piece, neighbour) pairs in all; a quarter turn takes each seat's pieces to the next
/// seat's, so each seat has a quarter of them: 44.
#[test]
fn four_players_fill_the_board_and_the_first_has_44_moves() {
    let pos = table(4).new_game();
    let p = focus(&pos);
    assert_eq!(p.stacks().count(), 52);
    for s in Seat::all(4) {
        assert_eq!(p.pieces_on_board(s), 13);
        assert_eq!(p.reserve(s), 0);
    }
    assert_eq!(pos.count_legal_moves(), 44);
    // Every neighbour of every piece is an opponent: partners sit on squares of one colour.
    let rules = p.rules();
    assert!(rules.partners());
    for (sq, stack) in p.stacks() {
        let me = stack.top().unwrap();
        for d in boardcraft_rules::focus::Direction::ALL {
            if let Some(n) = sq.offset(d, 1).filter(|&n| rules.board().contains(n)) {
                let them = p.stack(n).top().unwrap();
                assert_ne!(rules.team(me), rules.team(them), "{sq} and {n}");
            }
        }
    }
}

/// Plays random games, checking the `Position` contract at every ply and that position text
/// reads back the same position.
fn soak(v: &Variant, games: u64, max_plies: u32) -> usize {
    let mut finished = 0;
    for game in 0..games {
        let mut pos = v.new_game();
        let mut rng = (game + 11).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        while !pos.is_game_over() && pos.ply() < max_plies {
            let moves = check_position(&pos).unwrap_or_else(|e| panic!("{e}"));
            let text = pos.to_text();
            let back = v
                .position_from_text(&text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back.to_text(), text);
            assert_eq!(back.hash(), pos.hash(), "{text}");
            assert_eq!(back.side_to_move(), pos.side_to_move());
            assert_eq!(back.outcome(), pos.outcome(), "{text}");
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = moves[(rng % moves.len() as u64) as usize].clone();
            check_move(&mut pos, &mv).unwrap_or_else(|e| panic!("{e}"));
            pos.play(&mv).unwrap();
        }
        check_position(&pos).unwrap_or_else(|e| panic!("{e}"));
        finished += usize::from(pos.is_game_over());
    }
    finished
}

#[test]
fn the_position_contract_holds_for_three_and_four() {
    for n in [3, 4] {
        soak(&table(n), 6, 800);
    }
}

/// Green buries Red's only stack: Red is out when its turn comes and is skipped; Blue plays
/// on until Green buries its last stack too. Green first, Blue second (out later), Red third.
#[test]
fn a_seat_with_nothing_left_is_skipped_and_placed_by_when_it_went_out() {
    let v = table(3);
    let mut pos = v
        .position_from_text("4/6/8/3R3B/3G2G1/8/6/4 g 30 reserve=0,0,0 captured=12,12,11")
        .unwrap();
    let (green, red, blue) = (Seat::at(0), Seat::at(1), Seat::at(2));
    play_line(&mut pos, "d4-d5").unwrap();
    assert!(focus(&pos).is_out(red));
    assert_eq!(pos.side_to_move(), blue);
    assert_eq!(pos.outcome(), None);
    let text = pos.to_text();
    assert_eq!(
        text,
        "4/6/8/3(RG)3B/6G1/8/6/4 b 31 reserve=0,0,0 captured=12,12,11 out=R"
    );
    assert_eq!(v.position_from_text(&text).unwrap().to_text(), text);
    play_line(&mut pos, "h5-h4").unwrap();
    assert_eq!(pos.side_to_move(), green);
    play_line(&mut pos, "g4-h4").unwrap();
    let outcome = pos.outcome().expect("only Green can move");
    assert_eq!(outcome.reason, EndReason::NoStackNoReserve);
    assert_eq!(outcome.places, Places::new(&[1, 3, 2]).unwrap());
    assert_eq!(focus(&pos).out_order(), [vec![red], vec![blue]]);
    // Undo restores who was out and whose turn it was.
    let mut back = v
        .position_from_text("4/6/8/3R3B/3G2G1/8/6/4 g 30 reserve=0,0,0 captured=12,12,11")
        .unwrap();
    let before = back.clone();
    let mv = back.parse_move("d4-d5").unwrap();
    let undo = back.play_unchecked(&mv);
    back.undo(&mv, undo);
    assert_eq!(back.to_text(), before.to_text());
    assert_eq!(back.side_to_move(), green);
}

/// Two seats put out by one ply share their place.
#[test]
fn seats_put_out_by_the_same_ply_share_a_place() {
    let v = table(3);
    // Red's and Blue's only stacks are on d5; Green lands on it.
    let mut pos = v
        .position_from_text("4/6/8/3(BR)4/3G4/8/6/4 g 30 reserve=0,0,0 captured=12,12,12")
        .unwrap();
    play_line(&mut pos, "d4-d5").unwrap();
    let outcome = pos.outcome().expect("Green alone can move");
    assert_eq!(outcome.places, Places::new(&[1, 2, 2]).unwrap());
}

/// Four players as two partnerships (Green + Blue, Red + Yellow). Red out does not end the
/// game while Yellow can move; when Yellow goes out too, Green and Blue share first place,
/// Red and Yellow third, whoever of each made the last move.
#[test]
fn a_partnership_plays_on_while_either_partner_can_move_and_wins_together() {
    let v = table(4);
    let mut pos = v
        .position_from_text("4/6/8/3R4/3G2BY/8/6/4 g 40 reserve=0,0,0,0 captured=12,12,12,12")
        .unwrap();
    let (red, blue, yellow) = (Seat::at(1), Seat::at(2), Seat::at(3));
    play_line(&mut pos, "d4-d5").unwrap();
    assert!(focus(&pos).is_out(red));
    assert_eq!(
        pos.outcome(),
        None,
        "Yellow still plays for the Red-Yellow side"
    );
    assert_eq!(pos.side_to_move(), blue);
    play_line(&mut pos, "g4-h4").unwrap();
    assert!(focus(&pos).is_out(yellow));
    let outcome = pos.outcome().expect("only Green and Blue are left");
    assert_eq!(outcome.places, Places::new(&[1, 3, 1, 3]).unwrap());
}

/// A partner's pieces pushed off the bottom are captured like anyone else's (A-F11).
#[test]
fn a_partners_piece_that_falls_off_is_captured() {
    let v = table(4);
    // d4: Blue (Green's partner) at the bottom of a five-high stack topped by Red.
    let mut pos = v
        .position_from_text("4/6/8/3G4/3(BRRRR)4/8/6/4 g 40 reserve=0,0,0,0 captured=13,13,13,7")
        .unwrap_or_else(|e| panic!("{e}"));
    let p = focus(&pos);
    let green = Seat::at(0);
    assert_eq!(p.lost(Seat::at(2)), 12);
    play_line(&mut pos, "d5-d4").unwrap();
    let p = focus(&pos);
    assert_eq!(p.captured_by(green), 14);
    assert_eq!(p.reserve(green), 0);
    assert_eq!(
        p.stack("d4".parse::<boardcraft_rules::focus::Square>().unwrap())
            .top(),
        Some(green)
    );
}
