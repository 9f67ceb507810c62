//! Two to six seats: Chinese checkers on its star and Halma for four (rules.md §11), boards
//! drawn as data, placements, and the `Position` contract at every seat count.
use std::sync::Arc;

use boardcraft_rules::{
    AnyMove, AnyPosition, EndReason, FamilyRules, Places, Position, Seat, Variant,
    checks::{check_move, check_position},
    race::{RacePosition, RaceRules, Square},
    shipped_variant,
};

fn table(name: &str, players: usize) -> Variant {
    shipped_variant(name)
        .unwrap()
        .with_players(players)
        .unwrap_or_else(|| panic!("{name} for {players}"))
}

fn rules(v: &Variant) -> Arc<RaceRules> {
    match &v.rules {
        FamilyRules::Race(r) => r.clone(),
        _ => panic!("not a race variant"),
    }
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

#[test]
fn chinese_checkers_first_player_has_fourteen_moves_at_every_table() {
    let v = shipped_variant("chinese-checkers").unwrap();
    assert_eq!(v.player_counts(), [2, 3, 4, 6]);
    for n in [2, 3, 4, 6] {
        let pos = table("chinese-checkers", n).new_game();
        assert_eq!(pos.seat_count(), n);
        assert_eq!(pos.count_legal_moves(), 14, "{n} players");
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let steps = moves
            .iter()
            .filter(|m| pos.format_move(m).contains('-'))
            .count();
        // Eight steps from the front row, six hops over it from the row behind.
        assert_eq!((steps, moves.len() - steps), (8, 6), "{n} players");
    }
}

#[test]
fn the_star_has_121_cells_and_six_points_of_ten() {
    let r = rules(&table("chinese-checkers", 6));
    assert_eq!(r.cells().len(), 121);
    let points: Vec<(&str, usize)> = r
        .regions()
        .iter()
        .map(|p| (p.name.as_str(), p.squares.len()))
        .collect();
    assert_eq!(
        points,
        [
            ("S", 10),
            ("SW", 10),
            ("NW", 10),
            ("N", 10),
            ("NE", 10),
            ("SE", 10)
        ]
    );
    let south: Vec<String> = r.regions()[0]
        .squares
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut expected = ["j4", "k3", "k4", "l2", "l3", "l4", "m1", "m2", "m3", "m4"];
    let mut got = south.clone();
    got.sort();
    expected.sort();
    assert_eq!(got, expected);
    // The centre is i9, and a corner of the box is not a cell.
    assert!(r.on_board(sq("i9")) && !r.on_board(sq("a1")) && !r.on_board(sq("q17")));
}

#[test]
fn seats_sit_clockwise_from_the_bottom_and_race_to_the_opposite_point() {
    let names = |n| {
        let r = rules(&table("chinese-checkers", n));
        r.seats()
            .map(|s| {
                let seat = r.seat(s);
                format!(
                    "{}:{}>{}",
                    seat.name,
                    r.regions()[seat.home].name,
                    r.regions()[seat.target].name
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(names(2), ["Red:S>N", "Green:N>S"]);
    assert_eq!(names(3), ["Red:S>N", "Blue:NW>SE", "Yellow:NE>SW"]);
    assert_eq!(
        names(4),
        ["Red:S>N", "Purple:SW>NE", "Green:N>S", "Yellow:NE>SW"]
    );
    assert_eq!(names(6).len(), 6);
}

#[test]
fn halma_for_four_has_thirteen_pieces_in_each_corner_and_32_first_moves() {
    assert_eq!(
        shipped_variant("halma-16-partners")
            .unwrap()
            .player_counts(),
        [4]
    );
    assert_eq!(
        shipped_variant("halma-16-partners")
            .unwrap()
            .new_game()
            .count_legal_moves(),
        32
    );
    for name in ["halma-16", "halma-16-parlett"] {
        assert_eq!(shipped_variant(name).unwrap().player_counts(), [2, 4]);
        let v = table(name, 4);
        let r = rules(&v);
        assert_eq!(r.pieces_per_side(), 13);
        let pos = v.new_game();
        assert_eq!(pos.count_legal_moves(), 32, "{name}");
        // The bottom-right camp moves first.
        let AnyPosition::Race(p) = &pos else {
            unreachable!()
        };
        assert!(p.pieces(pos.side_to_move()).contains(&sq("p1")));
        // The two-player game is what it was: 19 pieces a side.
        assert_eq!(rules(&shipped_variant(name).unwrap()).pieces_per_side(), 19);
    }
}

/// Plays random games, checking every invariant of the `Position` contract at every ply
/// (hash = recomputation, material, move list = count, game over ⇔ no move, notation and
/// play/undo round trips) and that position text reads back the same position.
fn soak(v: &Variant, games: u64, max_plies: u32) {
    for game in 0..games {
        let mut pos = v.new_game();
        let mut rng = game.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        while !pos.is_game_over() && pos.ply() < max_plies {
            let moves = check_position(&pos).unwrap_or_else(|e| panic!("{}: {e}", v.name));
            let text = pos.to_text();
            let back = v
                .position_from_text(&text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back.to_text(), text);
            assert_eq!(back.hash(), pos.hash(), "{text}");
            assert_eq!(back.side_to_move(), pos.side_to_move());
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = moves[(rng % moves.len() as u64) as usize].clone();
            check_move(&mut pos, &mv).unwrap_or_else(|e| panic!("{}: {e}", v.name));
            pos.play(&mv).unwrap();
        }
    }
}

#[test]
fn the_position_contract_holds_at_every_seat_count() {
    for name in [
        "chinese-checkers",
        "chinese-checkers-long",
        "halma-16",
        "halma-16-parlett",
        "halma-16-partners",
    ] {
        for n in shipped_variant(name).unwrap().player_counts() {
            soak(&table(name, n), 3, 150);
        }
    }
}

/// A game of three in which Red and Blue finish (in that order) and Yellow is left: Red first,
/// Blue second, Yellow third, and the game over when only Yellow is left unfinished.
#[test]
fn play_goes_on_for_the_places_until_one_seat_is_left() {
    let v = table("chinese-checkers", 3);
    let r = rules(&v);
    let target = |s: Seat| r.target(s).to_vec();
    // Red has filled the N point; Blue is one step short of its target SE; Yellow sits at home.
    let red = target(Seat::at(0));
    let mut blue = target(Seat::at(1));
    let last = blue.pop().unwrap();
    // Blue's last piece stands next to its target cell, in the centre.
    let before = r
        .cells()
        .iter()
        .copied()
        .find(|c| {
            !r.in_target(Seat::at(1), *c)
                && r.region_at(*c).is_none()
                && (i32::from(c.file()) - i32::from(last.file())).abs() <= 1
                && (i32::from(c.rank()) - i32::from(last.rank())).abs() <= 1
                && r.directions()
                    .iter()
                    .any(|d| c.offset(d.delta().0, d.delta().1) == Some(last))
        })
        .expect("a centre cell beside the target");
    blue.push(before);
    let yellow = r.camp(Seat::at(2)).to_vec();
    let pos = RacePosition::from_seats_finished(
        r.clone(),
        &[red, blue, yellow],
        Seat::at(1),
        40,
        Some((&[Seat::at(0)], &[])),
    )
    .unwrap();
    assert_eq!(pos.finish_order(), [Seat::at(0)]);
    let mut pos = AnyPosition::Race(pos);
    assert!(!pos.is_game_over());
    let mv = pos.parse_move(&format!("{before}-{last}")).unwrap();
    pos.play(&mv).unwrap();
    let outcome = pos.outcome().expect("only Yellow is left");
    assert_eq!(outcome.places, Places::new(&[1, 2, 3]).unwrap());
    assert_eq!(
        outcome.describe(|s| pos.seat_name(s)),
        "1st Red, 2nd Blue, 3rd Yellow: all pieces reached the target camp"
    );
}

/// A small mod board: a hexagon of three cells a side, three seats.
const HEX_THREE: &str = r#"(
    format_version: 1,
    name: "hex-three",
    title: "Hexagon for three",
    rules: Race(
        board: Hexagon(3),
        directions: Hex,
        regions: [
            (name: "low", cells: ["d1", "e1"]),
            (name: "high", cells: ["a5", "b5"]),
            (name: "left", cells: ["a3", "a4"]),
            (name: "right", cells: ["e2", "e3"]),
        ],
        seats: {
            3: [
                (name: "Red", home: "low", target: "high"),
                (name: "Green", home: "high", target: "low"),
                (name: "Blue", home: "left", target: "right"),
            ],
        },
        target_lock: PerLanding,
        win: FillWithOwn,
        no_legal_move: Loses,
        ply_cap_per_seat: Some(100),
    ),
)"#;

#[test]
fn a_hexagon_from_a_mod_file_plays_to_its_end_with_every_seat_placed() {
    let v = Variant::from_ron("hex-three.ron", HEX_THREE).unwrap();
    let r = rules(&v);
    assert_eq!(r.cells().len(), 19);
    let start = v.new_game();
    check_position(&start).unwrap();
    assert_eq!(start.seat_count(), 3);
    soak(&v, 20, 400);
}

/// Three seats of one piece on a board of seven cells; Blue's home a1 opens only onto a2.
const CORNERED: &str = r#"(
    format_version: 1,
    name: "cornered",
    title: "Cornered",
    rules: Race(
        board: Rows(["...", "...", ".##"]),
        directions: Orthogonal,
        regions: [
            (name: "top", cells: ["c3"]),
            (name: "middle", cells: ["c2"]),
            (name: "corner", cells: ["a1"]),
            (name: "far", cells: ["b3"]),
        ],
        seats: {
            3: [
                (name: "Red", home: "top", target: "corner"),
                (name: "Green", home: "middle", target: "far"),
                (name: "Blue", home: "corner", target: "top"),
            ],
        },
        win: FillWithOwn,
        no_legal_move: Loses,
        ply_cap: Some(40),
    ),
)"#;

#[test]
fn a_seat_without_a_move_goes_out_to_last_place_and_the_others_play_on() {
    let v = Variant::from_ron("cornered.ron", CORNERED).unwrap();
    // Red on a2 and Green on a3 shut Blue in on a1: no step, and the hop lands on Green.
    let pos = v.position_from_text("G2/R2/B b 5").unwrap();
    let AnyPosition::Race(race) = &pos else {
        unreachable!()
    };
    assert_eq!(race.out_order(), [Seat::at(2)], "Blue is out");
    assert_eq!(
        pos.side_to_move(),
        Seat::at(0),
        "and the turn goes round to Red"
    );
    assert!(!pos.is_game_over());
    assert_eq!(pos.to_text(), "G2/R2/B r 5 -B");
    // Red and Green play on (Red's target a1 is held by Blue, so the ply cap may end it);
    // however it ends, Blue is placed last.
    let mut pos = pos;
    let mut moves = Vec::new();
    for _ in 0..60 {
        if pos.is_game_over() {
            break;
        }
        pos.legal_moves(&mut moves);
        let mv = moves[0].clone();
        pos.play(&mv).unwrap();
    }
    let outcome = pos.outcome().expect("the ply cap or a finish ends it");
    assert_eq!(outcome.places.of(Seat::at(2)), 3, "{outcome}");
    // With Pass instead, Blue keeps its seat and Green moves.
    let pass = CORNERED.replace("no_legal_move: Loses", "no_legal_move: Pass");
    let v = Variant::from_ron("cornered.ron", &pass).unwrap();
    let pos = v.position_from_text("G2/R2/B b 5").unwrap();
    let AnyPosition::Race(race) = &pos else {
        unreachable!()
    };
    assert!(race.out_order().is_empty());
    assert_eq!(pos.side_to_move(), Seat::at(0));
    assert_eq!(pos.to_text(), "G2/R2/B r 5");
}

#[test]
fn placements_read_back_from_position_text() {
    let v = table("chinese-checkers", 4);
    let start = v.new_game();
    let text = start.to_text();
    assert!(text.ends_with(" r 0"), "{text}");
    let again = v.position_from_text(&text).unwrap();
    assert_eq!(again.hash(), start.hash());
    // A finished seat can be named; it cannot then be the side to move.
    let with_finish = text.replace(" r 0", " p 3 R");
    let pos = v.position_from_text(&with_finish).unwrap();
    assert_eq!(pos.to_text(), with_finish);
    assert_ne!(
        pos.hash(),
        v.position_from_text(&text.replace(" r 0", " p 3"))
            .unwrap()
            .hash()
    );
    assert!(
        v.position_from_text(&text.replace(" r 0", " r 3 R"))
            .is_err()
    );
    assert!(
        v.position_from_text(&text.replace(" r 0", " p 3 X"))
            .is_err()
    );
}

#[test]
fn two_seat_results_are_a_win_or_a_draw() {
    let win = boardcraft_rules::Outcome::win(Seat::BLACK, EndReason::TargetFilled);
    assert_eq!(win.places.as_slice(), [2, 1]);
    assert_eq!(
        win.to_string(),
        "Black wins: all pieces reached the target camp"
    );
}

#[test]
fn long_hops_jump_a_piece_far_away_and_land_as_far_beyond() {
    let v = table("chinese-checkers-long", 2);
    // Red on i5 and a Green piece on i9, four cells up: the long hop lands on i13 (four
    // beyond), along an empty line; with short hops only, no hop.
    let text = |red: &str, green: &str| {
        let seat = |list: &str| list.split_whitespace().map(sq).collect::<Vec<_>>();
        (seat(red), seat(green))
    };
    let (red, green) = text(
        "i5 m1 l2 m2 k3 l3 m3 k4 l4 m4",
        "i9 e17 e16 f16 e15 f15 g15 e14 f14 g14",
    );
    for (name, hops) in [("chinese-checkers-long", true), ("chinese-checkers", false)] {
        let r = rules(&table(name, 2));
        let pos =
            RacePosition::from_seats(r, &[red.clone(), green.clone()], Seat::WHITE, 0).unwrap();
        let dests = pos.destinations(sq("i5"));
        assert_eq!(dests.contains(&sq("i13")), hops, "{name}: {dests:?}");
        let pos = AnyPosition::Race(pos);
        let parsed = pos.parse_move("i5:i13");
        assert_eq!(parsed.is_ok(), hops, "{name}: {parsed:?}");
        if let Ok(mv) = parsed {
            let AnyMove::Race(m) = &mv else {
                unreachable!()
            };
            assert_eq!(m.jumped(), [sq("i9")]);
            assert_eq!(m.path(), [sq("i5"), sq("i13")]);
            assert_eq!(pos.format_move(&mv), "i5:i13");
        }
    }
    let _ = v;
}

/// Four seats of one piece each in the corners of a 4×4 board, opposite seats partners.
const PAIRS: &str = r#"(
    format_version: 1,
    name: "pairs",
    title: "Pairs",
    rules: Race(
        width: 4,
        height: 4,
        directions: All,
        regions: [
            (name: "sw", cells: ["a1"]),
            (name: "se", cells: ["d1"]),
            (name: "ne", cells: ["d4"]),
            (name: "nw", cells: ["a4"]),
        ],
        seats: {
            4: [
                (name: "Red", home: "sw", target: "ne"),
                (name: "Blue", home: "se", target: "nw"),
                (name: "Green", home: "ne", target: "sw"),
                (name: "Yellow", home: "nw", target: "se"),
            ],
        },
        partners: true,
        win: FillWithOwn,
        no_legal_move: Pass,
        ply_cap: Some(200),
    ),
)"#;

/// A partnership wins only when both partners have finished: a partner's finish alone ends
/// nothing (its turns are skipped), and the finished team shares first place, the other team
/// third.
#[test]
fn partners_win_together_when_both_have_finished() {
    let v = Variant::from_ron("pairs.ron", PAIRS).unwrap();
    let (mut finished_alone, mut team_wins) = (0, 0);
    for game in 0..200u64 {
        let mut pos = v.new_game();
        let mut rng = game.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            check_position(&pos).unwrap();
            pos.legal_moves(&mut moves);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = moves[(rng % moves.len() as u64) as usize].clone();
            pos.play(&mv).unwrap();
            let AnyPosition::Race(p) = &pos else {
                unreachable!()
            };
            let done: Vec<bool> = (0..4).map(|s| p.has_finished(Seat::at(s))).collect();
            let teams = [done[0] && done[2], done[1] && done[3]];
            assert_eq!(pos.is_game_over() && pos.ply() < 200, teams[0] || teams[1]);
            if !pos.is_game_over() && done.iter().any(|&d| d) {
                finished_alone += 1;
                // A finished partner's turn never comes.
                assert!(!done[pos.side_to_move().index()]);
            }
        }
        let outcome = pos.outcome().unwrap();
        if outcome.reason == EndReason::PlyCap {
            continue;
        }
        let places = outcome.places.as_slice().to_vec();
        assert!(
            places == [1, 3, 1, 3] || places == [3, 1, 3, 1],
            "{places:?}"
        );
        team_wins += 1;
    }
    assert!(finished_alone > 0, "no game had a partner finished first");
    assert!(
        team_wins > 100,
        "only {team_wins} of 200 games were won by a team"
    );
}

#[test]
fn partners_need_an_even_table_of_four_or_more() {
    let bad = PAIRS.replace("seats: {\n            4:", "seats: {\n            3: [\n                (name: \"Red\", home: \"sw\", target: \"ne\"),\n                (name: \"Blue\", home: \"se\", target: \"nw\"),\n                (name: \"Green\", home: \"ne\", target: \"sw\"),\n            ],\n            4:");
    assert_ne!(bad, PAIRS);
    let err = Variant::from_ron("pairs.ron", &bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("partners"), "{err}");
}

/// The cell-index view that evaluations read (`cell_index`, `piece_set`, `home_set`) says the
/// same as the square view, on every board and at every table.
#[test]
fn the_cell_index_sets_agree_with_the_squares() {
    use boardcraft_rules::race::bitboard::Bits;
    for (name, players) in [
        ("chinese-checkers", 2),
        ("chinese-checkers", 3),
        ("chinese-checkers", 6),
        ("halma-16", 4),
        ("ugolki-9qum", 2),
        ("grasshopper", 2),
    ] {
        let v = table(name, players);
        let r = rules(&v);
        let squares = |set: boardcraft_rules::race::bitboard::Wide| -> Vec<Square> {
            let mut s: Vec<Square> = set.iter().map(|i| r.cell_square(i)).collect();
            s.sort_by_key(|q| (q.rank(), q.file()));
            s
        };
        for &s in r.cells() {
            let i = r.cell_index(s).expect("a cell of the board");
            assert!(i < r.cell_index_bound());
            assert_eq!(r.cell_square(i), s, "{name}");
        }
        let off = (0..r.height())
            .flat_map(|rank| (0..r.width()).map(move |file| Square::new(file, rank).unwrap()))
            .find(|&s| !r.on_board(s));
        if let Some(off) = off {
            assert_eq!(r.cell_index(off), None, "{name}: {off}");
        }
        // A position some moves in, so that pieces stand away from their homes.
        let mut pos = RacePosition::new(r.clone());
        let mut moves = Vec::new();
        for k in 0..40 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[(k * 7) % moves.len()];
            pos.play(&mv).unwrap();
        }
        for seat in r.seats() {
            let mut camp = r.camp(seat).to_vec();
            camp.sort_by_key(|q| (q.rank(), q.file()));
            assert_eq!(squares(r.home_set(seat)), camp, "{name}");
            let mut pieces = pos.pieces(seat);
            pieces.sort_by_key(|q| (q.rank(), q.file()));
            assert_eq!(squares(pos.piece_set(seat)), pieces, "{name} {players}");
        }
    }
}
