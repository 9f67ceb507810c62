#!/usr/bin/env python3
"""Independent reference move generator for Chinese checkers (standard library only).

Written as a cross-check for the Rust engine; it shares no code with it.

Board
-----
Axial coordinates (q, r), q, r in -8..8.  A cell is on the star iff
    (q >= -4 and r >= -4 and q + r <= 4) or (q <= 4 and r <= 4 and q + r >= -4)
which gives 121 cells.  A cell is written as a file letter a..q (q = -8..8)
followed by a rank 1..17 (r = -8..8); the centre (0, 0) is i9.
Neighbours: (+1,0) (-1,0) (0,+1) (0,-1) (+1,-1) (-1,+1).

Points (10 cells each):  S: r <= -5   SW: q+r <= -5   NW: q <= -5
                         N: r >= 5    NE: q+r >= 5    SE: q >= 5
Seats:  2 players: S N;  3: S NW NE;  4: S SW N NE;  6: all.
Turn order (clockwise from S, empty points skipped): S SW NW N NE SE.
Each seat starts filling its own point (its "home"); its target is the
opposite point (S<->N, SW<->NE, NW<->SE).

Moves
-----
One piece either steps to an adjacent empty cell, or makes a chain of one or
more hops (over an adjacent piece of any colour to the empty cell directly
beyond), in any directions, stopping after any landing.  The mover's origin
cell counts as empty during the chain.  Moves are identified by (from, to);
a chain that ends on its origin is not a move.

Rule options
  --long-hops           also allow hopping over a single piece at distance k
                        along a line (the k-1 cells before it empty and on the
                        board), landing at distance 2k (the k cells after the
                        hopped piece, including the landing, empty and on the
                        board).  Chains may mix short and long hops.
  --rest-anywhere       turn OFF the default rule "no rest in other points":
                        by default a move may pass through but not END in a
                        point that is neither the mover's home nor its target.
  --no-target-lock      turn OFF the default target lock: by default, once a
                        piece is in its target point (at the start of the turn
                        or after any landing of the chain) every later landing
                        must be inside the target; a step from a target cell
                        must stay in the target.
  (--no-rest-in-other-points and --target-lock are accepted as explicit
  spellings of the defaults.)

Position text format
--------------------
One line per seat listing its pieces, plus the side to move, e.g.

    # comment lines and blank lines are ignored
    S: j4 k3 k4 l2 l3 l4 m1 m2 m3 m4
    N: e14 e15 e16 e17 f14 f15 f16 g14 g15 h14
    to-move: S

Lines may also be separated by ';' (handy on the command line), and cell
lists may use commas and/or spaces.  Seat names are S SW NW N NE SE; only the
seats of the chosen --players count may appear (a seat that is omitted has no
pieces).  --position accepts a file name, '-' for stdin, or the text itself.
Without --position the start position (S to move) is used.

Usage
-----
  chinese_checkers.py --players N [rule flags] [--position P]
        print the legal moves of the seat to move, one per line as from-to,
        sorted as plain strings (same order as `LC_ALL=C sort`), then a line
        "count: N".  --count-only prints just the count line.
  chinese_checkers.py --players N [rule flags] [--position P] --perft D [--divide]
        number of move sequences of length D (each ply = one move of the seat
        to move, seats in turn order; a seat with no legal move passes, which
        counts as a single sequence continuation; no game-end handling).
  chinese_checkers.py --players N [rule flags] [--position P] --random-walk K --seed X
        play K turns (plies) from the start (or from --position), choosing
        uniformly among the legal (from,to) moves of the seat to move; a seat
        without a move passes (the pass uses up one of the K turns).  Prints
        the resulting position in the text format above (the moves played are
        given in a leading comment line).
  chinese_checkers.py --self-test
        run built-in checks.
"""

import argparse
import os
import random
import sys

# ---------------------------------------------------------------- geometry

DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def on_star(q, r):
    if not (-8 <= q <= 8 and -8 <= r <= 8):
        return False
    return (q >= -4 and r >= -4 and q + r <= 4) or (q <= 4 and r <= 4 and q + r >= -4)


CELLS = frozenset((q, r) for q in range(-8, 9) for r in range(-8, 9) if on_star(q, r))


def name(c):
    q, r = c
    return chr(ord('a') + q + 8) + str(r + 9)


def parse_cell(s):
    s = s.strip().lower()
    if len(s) < 2 or not ('a' <= s[0] <= 'q') or not s[1:].isdigit():
        raise ValueError("bad cell name %r" % s)
    q = ord(s[0]) - ord('a') - 8
    r = int(s[1:]) - 9
    if (q, r) not in CELLS:
        raise ValueError("cell %r is not on the board" % s)
    return (q, r)


ORDER = ('S', 'SW', 'NW', 'N', 'NE', 'SE')
POINT_PRED = {
    'S': lambda q, r: r <= -5,
    'SW': lambda q, r: q + r <= -5,
    'NW': lambda q, r: q <= -5,
    'N': lambda q, r: r >= 5,
    'NE': lambda q, r: q + r >= 5,
    'SE': lambda q, r: q >= 5,
}
POINTS = {p: frozenset(c for c in CELLS if f(*c)) for p, f in POINT_PRED.items()}
OPPOSITE = {'S': 'N', 'N': 'S', 'SW': 'NE', 'NE': 'SW', 'NW': 'SE', 'SE': 'NW'}
SEATS = {
    2: ('S', 'N'),
    3: ('S', 'NW', 'NE'),
    4: ('S', 'SW', 'N', 'NE'),
    6: ORDER,
}
POINT_OF = {}
for _p, _cs in POINTS.items():
    for _c in _cs:
        POINT_OF[_c] = _p


def _geometry_checks():
    assert len(CELLS) == 121, len(CELLS)
    for p in ORDER:
        assert len(POINTS[p]) == 10, (p, len(POINTS[p]))
    assert len(POINT_OF) == 60  # the six points are disjoint
    assert sum(1 for c in CELLS if c not in POINT_OF) == 61  # central hexagon
    expect_s = {"j4", "k3", "k4", "l2", "l3", "l4", "m1", "m2", "m3", "m4"}
    assert {name(c) for c in POINTS['S']} == expect_s, sorted(name(c) for c in POINTS['S'])
    assert name((0, 0)) == 'i9' and name((-8, -8)) == 'a1'
    for c in CELLS:
        assert parse_cell(name(c)) == c
    for p in ORDER:  # opposite point is the point reflection
        assert {(-q, -r) for q, r in POINTS[p]} == set(POINTS[OPPOSITE[p]])
    for n, seats in SEATS.items():
        assert len(seats) == n and list(seats) == [s for s in ORDER if s in seats]


_geometry_checks()

# ---------------------------------------------------------------- rules


class Rules(object):
    def __init__(self, long_hops=False, rest_anywhere=False, target_lock=True):
        self.long_hops = long_hops
        self.rest_anywhere = rest_anywhere
        self.target_lock = target_lock


class Position(object):
    def __init__(self, players, occ, to_move):
        self.players = players
        self.seats = SEATS[players]
        self.occ = dict(occ)        # cell -> seat
        self.to_move = to_move

    @classmethod
    def start(cls, players):
        occ = {}
        for s in SEATS[players]:
            for c in POINTS[s]:
                occ[c] = s
        return cls(players, occ, 'S')

    def next_seat(self, seat):
        i = self.seats.index(seat)
        return self.seats[(i + 1) % len(self.seats)]

    def to_text(self):
        lines = []
        for s in self.seats:
            cells = sorted(name(c) for c, o in self.occ.items() if o == s)
            lines.append("%s: %s" % (s, " ".join(cells)))
        lines.append("to-move: %s" % self.to_move)
        return "\n".join(lines) + "\n"


def parse_position(text, players):
    occ = {}
    to_move = None
    seen = set()
    for raw in text.replace(';', '\n').splitlines():
        line = raw.split('#', 1)[0].strip()
        if not line:
            continue
        if ':' not in line:
            raise ValueError("bad position line %r" % raw)
        key, val = line.split(':', 1)
        key = key.strip()
        val = val.replace(',', ' ').split()
        if key.lower() in ('to-move', 'to_move', 'tomove'):
            if len(val) != 1:
                raise ValueError("bad to-move line %r" % raw)
            to_move = val[0].upper()
            continue
        seat = key.upper()
        if seat not in ORDER:
            raise ValueError("unknown seat %r" % key)
        if seat not in SEATS[players]:
            raise ValueError("seat %s does not play with %d players" % (seat, players))
        if seat in seen:
            raise ValueError("seat %s listed twice" % seat)
        seen.add(seat)
        for v in val:
            c = parse_cell(v)
            if c in occ:
                raise ValueError("cell %s occupied twice" % v)
            occ[c] = seat
    if to_move is None:
        raise ValueError("position lacks a to-move line")
    if to_move not in SEATS[players]:
        raise ValueError("to-move seat %s does not play with %d players" % (to_move, players))
    return Position(players, occ, to_move)


def hop_landings(c, occupied, long_hops):
    """Landing cells of a single hop from c. occupied(cell) -> bool."""
    q, r = c
    out = []
    for dq, dr in DIRS:
        if not long_hops:
            over = (q + dq, r + dr)
            land = (q + 2 * dq, r + 2 * dr)
            if over in CELLS and occupied(over) and land in CELLS and not occupied(land):
                out.append(land)
            continue
        k = 1
        while True:
            cell = (q + k * dq, r + k * dr)
            if cell not in CELLS:
                break
            if occupied(cell):
                ok = True
                for j in range(k + 1, 2 * k + 1):
                    b = (q + j * dq, r + j * dr)
                    if b not in CELLS or occupied(b):
                        ok = False
                        break
                if ok:
                    out.append((q + 2 * k * dq, r + 2 * k * dr))
                break
            k += 1
    return out


def legal_moves(pos, rules, seat=None, with_kind=False):
    """Set of (from, to) cell pairs for the seat (default: seat to move).

    With with_kind=True returns a dict (from, to) -> 'step' / 'hop'
    (a destination reachable both ways counts as a step)."""
    if seat is None:
        seat = pos.to_move
    occ = pos.occ
    home = POINTS[seat]
    target = POINTS[OPPOSITE[seat]]

    def may_end(c):
        if rules.rest_anywhere:
            return True
        p = POINT_OF.get(c)
        return p is None or c in home or c in target

    moves = {}
    for origin in [c for c, s in occ.items() if s == seat]:
        def occupied(c, origin=origin):
            return c != origin and c in occ

        # steps
        start_locked = rules.target_lock and origin in target
        oq, orr = origin
        for dq, dr in DIRS:
            n = (oq + dq, orr + dr)
            if n not in CELLS or occupied(n):
                continue
            if start_locked and n not in target:
                continue
            if may_end(n):
                moves[(origin, n)] = 'step'
        # hop chains.  The only state of a chain is the current cell: if the
        # piece is in its target it is locked (all later landings in target),
        # and a piece outside its target has never been in it (it would have
        # been locked), so a plain visited set is exact.
        visited = {origin}
        stack = [origin]
        while stack:
            c = stack.pop()
            locked = rules.target_lock and c in target
            for land in hop_landings(c, occupied, rules.long_hops):
                if land in visited:
                    continue
                if locked and land not in target:
                    continue
                visited.add(land)
                stack.append(land)
        for land in visited:
            if land != origin and may_end(land):
                moves.setdefault((origin, land), 'hop')
    if with_kind:
        return moves
    return set(moves)


def move_str(m):
    return "%s-%s" % (name(m[0]), name(m[1]))


def make_move(pos, m):
    """Apply move m (or None = pass) in place; returns undo info."""
    seat = pos.to_move
    if m is not None:
        f, t = m
        assert pos.occ.get(f) == seat and t not in pos.occ
        del pos.occ[f]
        pos.occ[t] = seat
    pos.to_move = pos.next_seat(seat)
    return (seat, m)


def unmake_move(pos, undo):
    seat, m = undo
    if m is not None:
        f, t = m
        del pos.occ[t]
        pos.occ[f] = seat
    pos.to_move = seat


def perft(pos, rules, depth):
    if depth == 0:
        return 1
    moves = legal_moves(pos, rules)
    if depth == 1:
        return len(moves) if moves else 1
    if not moves:
        u = make_move(pos, None)
        n = perft(pos, rules, depth - 1)
        unmake_move(pos, u)
        return n
    total = 0
    for m in moves:
        u = make_move(pos, m)
        total += perft(pos, rules, depth - 1)
        unmake_move(pos, u)
    return total


def random_walk(pos, rules, plies, seed):
    rng = random.Random(seed)
    played = []
    for _ in range(plies):
        moves = sorted(legal_moves(pos, rules), key=move_str)
        if moves:
            m = rng.choice(moves)
            played.append(move_str(m))
        else:
            m = None
            played.append("pass")
        make_move(pos, m)
    return played


# ---------------------------------------------------------------- self test

def self_test():
    ok = True

    def check(label, got, want):
        nonlocal ok
        flag = "ok" if got == want else "MISMATCH (want %r)" % (want,)
        if got != want:
            ok = False
        print("%-55s %r %s" % (label, got, flag))

    print("geometry: 121 cells, 6 points x 10, S point = j4 k3 k4 l2 l3 l4 m1 m2 m3 m4: ok")
    default = Rules()
    for n in (2, 3, 4, 6):
        pos = Position.start(n)
        mk = legal_moves(pos, default, with_kind=True)
        steps = sum(1 for k in mk.values() if k == 'step')
        hops = len(mk) - steps
        check("start, %d players, default rules: moves (steps, hops)" % n,
              (len(mk), steps, hops), (14, 8, 6))
        # every seat has the same count by symmetry
        for s in pos.seats:
            check("  seat %s" % s, len(legal_moves(pos, default, seat=s)), 14)
    for n in (2, 3, 4, 6):
        pos = Position.start(n)
        print("start, %d players, --long-hops: %d" % (n, len(legal_moves(pos, Rules(long_hops=True)))))
    # tiny hand-made positions
    r = Rules()
    p = parse_position("S: i9; N: i10 i12; to-move: S", 2)
    check("double hop i9->i11->i13 (plus steps)",
          sorted(move_str(m) for m in legal_moves(p, r)),
          sorted(["i9-h10", "i9-j8", "i9-h9", "i9-j9", "i9-i8", "i9-i11", "i9-i13"]))
    steps_i9 = ["i9-h10", "i9-h9", "i9-i10", "i9-i8", "i9-j8", "i9-j9"]
    p = parse_position("S: i9; N: i12; to-move: S", 2)
    check("long hop over i12 would land off the star (i15)",
          sorted(move_str(m) for m in legal_moves(p, Rules(long_hops=True))), sorted(steps_i9))
    p = parse_position("S: i9; N: i11; to-move: S", 2)
    check("long hop i9 over i11 -> i13",
          sorted(move_str(m) for m in legal_moves(p, Rules(long_hops=True))),
          sorted(steps_i9 + ["i9-i13"]))
    check("  ...not without --long-hops",
          sorted(move_str(m) for m in legal_moves(p, r)), sorted(steps_i9))
    p = parse_position("S: i9; N: i11 i12; to-move: S", 2)
    check("long hop blocked by a second piece beyond",
          sorted(move_str(m) for m in legal_moves(p, Rules(long_hops=True))), sorted(steps_i9))
    # mixed chain: short hop i9 over i10 to i11, then long hop over k11 (2,2) to m11 (4,2)
    p = parse_position("S: i9; N: i10 k11; to-move: S", 2)
    # (m11 is in the NE point, so it needs --rest-anywhere; l11 on the way is NE too)
    check("mixed chain short + long hop reaches m11 (rest-anywhere)",
          sorted(move_str(m) for m in legal_moves(p, Rules(long_hops=True, rest_anywhere=True))
                 if m[1] in ((0, 2), (4, 2))),
          ["i9-i11", "i9-m11"])
    check("  ...but may not end there by default",
          sorted(move_str(m) for m in legal_moves(p, Rules(long_hops=True)) if m[1] in ((0, 2), (4, 2))),
          ["i9-i11"])
    # passing through another point mid-chain is fine: i9 -> (long over k11) ... use a
    # chain h10? keep simple: S piece hops out of SW point (h5 -> over i5 -> j5)
    p = parse_position("S: g5; N: h5 e17; to-move: S", 2)
    check("may start in another point and hop out of it",
          sorted(move_str(m) for m in legal_moves(p, r)), ["g5-i5"])
    # target lock: S piece in N point may not leave it
    p = parse_position("S: e14; N: i5; to-move: S", 2)
    mv = legal_moves(p, r)
    check("target lock: every destination in target",
          all(t in POINTS['N'] for _, t in mv), True)
    mv2 = legal_moves(p, Rules(target_lock=False))
    check("no target lock: may step out of target",
          any(t not in POINTS['N'] for _, t in mv2), True)
    # no rest in other points
    p = parse_position("S: h5; N: e17; to-move: S", 2)  # h5 is in SW point
    mv = legal_moves(p, r)
    check("no-rest: S piece may not end in SW/NW/SE/NE",
          all(POINT_OF.get(t) in (None, 'S', 'N') for _, t in mv), True)
    mv2 = legal_moves(p, Rules(rest_anywhere=True))
    check("rest-anywhere: may end in SW",
          any(POINT_OF.get(t) == 'SW' for _, t in mv2), True)
    # perft
    for n in (2, 6):
        pos = Position.start(n)
        for d in (1, 2, 3):
            print("perft %d players default rules depth %d: %d" % (n, d, perft(pos, default, d)))
    return ok


# ---------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(description="Reference Chinese checkers move generator "
                                             "(see module docstring for formats).")
    ap.add_argument('--players', type=int, choices=(2, 3, 4, 6))
    ap.add_argument('--long-hops', action='store_true')
    ap.add_argument('--rest-anywhere', action='store_true')
    ap.add_argument('--no-rest-in-other-points', action='store_true',
                    help='explicit default (cannot be combined with --rest-anywhere)')
    ap.add_argument('--no-target-lock', action='store_true')
    ap.add_argument('--target-lock', action='store_true',
                    help='explicit default (cannot be combined with --no-target-lock)')
    ap.add_argument('--position', help="file, '-' for stdin, or the position text itself")
    ap.add_argument('--count-only', action='store_true')
    ap.add_argument('--perft', type=int, metavar='D')
    ap.add_argument('--divide', action='store_true', help='with --perft: per-first-move counts')
    ap.add_argument('--random-walk', type=int, metavar='K')
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--self-test', action='store_true')
    a = ap.parse_args(argv)

    if a.self_test:
        return 0 if self_test() else 1
    if a.players is None:
        ap.error("--players is required")
    if a.rest_anywhere and a.no_rest_in_other_points:
        ap.error("--rest-anywhere contradicts --no-rest-in-other-points")
    if a.no_target_lock and a.target_lock:
        ap.error("--no-target-lock contradicts --target-lock")
    rules = Rules(long_hops=a.long_hops, rest_anywhere=a.rest_anywhere,
                  target_lock=not a.no_target_lock)

    if a.position is None:
        pos = Position.start(a.players)
    else:
        if a.position == '-':
            text = sys.stdin.read()
        elif os.path.isfile(a.position):
            with open(a.position) as fh:
                text = fh.read()
        else:
            text = a.position
        try:
            pos = parse_position(text, a.players)
        except ValueError as e:
            ap.error(str(e))

    if a.random_walk is not None:
        played = random_walk(pos, rules, a.random_walk, a.seed)
        sys.stdout.write("# players %d, %d plies, seed %d: %s\n"
                         % (a.players, a.random_walk, a.seed, " ".join(played)))
        sys.stdout.write(pos.to_text())
        return 0
    if a.perft is not None:
        if a.divide and a.perft >= 1:
            total = 0
            for m in sorted(legal_moves(pos, rules), key=move_str):
                u = make_move(pos, m)
                n = perft(pos, rules, a.perft - 1)
                unmake_move(pos, u)
                total += n
                print("%s %d" % (move_str(m), n))
            print("total: %d" % total)
        else:
            print(perft(pos, rules, a.perft))
        return 0
    moves = sorted(move_str(m) for m in legal_moves(pos, rules))
    if not a.count_only:
        for m in moves:
            print(m)
    print("count: %d" % len(moves))
    return 0


if __name__ == '__main__':
    sys.exit(main())
