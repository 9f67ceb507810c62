# brute-force cross-check of the hop-chain search: explore chains as explicit paths
# (no global visited set), tracking the lock flag explicitly.
import sys, random, itertools
sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
import chinese_checkers as cc

def brute(pos, rules):
    seat = pos.to_move; occ = pos.occ
    home = cc.POINTS[seat]; target = cc.POINTS[cc.OPPOSITE[seat]]
    res = set()
    for o in [c for c, s in occ.items() if s == seat]:
        occd = lambda c: c != o and c in occ
        def ends_ok(c):
            return rules.rest_anywhere or cc.POINT_OF.get(c) in (None, seat, cc.OPPOSITE[seat])
        lock0 = rules.target_lock and o in target
        for d in cc.DIRS:
            n = (o[0]+d[0], o[1]+d[1])
            if n in cc.CELLS and not occd(n) and (not lock0 or n in target) and ends_ok(n):
                res.add((o, n))
        # explicit path DFS (paths may not repeat a landing; that loses no destination)
        def dfs(c, locked, path):
            for d in cc.DIRS:
                for k in range(1, 17):
                    over = (c[0]+k*d[0], c[1]+k*d[1])
                    if over not in cc.CELLS: break
                    if not occd(over): 
                        if not rules.long_hops: break
                        continue
                    if all((c[0]+j*d[0], c[1]+j*d[1]) in cc.CELLS and not occd((c[0]+j*d[0], c[1]+j*d[1])) for j in range(k+1, 2*k+1)):
                        land = (c[0]+2*k*d[0], c[1]+2*k*d[1])
                        if land not in path and (not locked or land in target):
                            if land != o and ends_ok(land): res.add((o, land))
                            dfs(land, locked or (rules.target_lock and land in target), path | {land})
                    break
        dfs(o, lock0, {o})
    return res

rng = random.Random(1)
n = 0
for players in (2, 3, 4, 6):
    for lh, ra, tl in itertools.product((False, True), repeat=3):
        rules = cc.Rules(long_hops=lh, rest_anywhere=ra, target_lock=tl)
        for trial in range(6):
            pos = cc.Position.start(players)
            for ply in range(rng.randrange(0, 120)):
                a = cc.legal_moves(pos, rules); b = brute(pos, rules)
                assert a == b, (players, lh, ra, tl, pos.to_text(), sorted(map(cc.move_str, a ^ b)))
                n += 1
                mv = sorted(a, key=cc.move_str)
                cc.make_move(pos, rng.choice(mv) if mv else None)
print("agreed on", n, "positions")
