"""Compares boardcraft-cli moves with the independent Python generator (chinese_checkers.py,
written from rules.md section 11 alone) on random positions at 2, 3, 4 and 6 seats.

Usage: python3 scripts/refcheck/compare.py <path to boardcraft-cli> [seeds] [--long]
"""
import subprocess, sys, re
CLI = sys.argv[1]
LONG = '--long' in sys.argv
sys.argv = [a for a in sys.argv if a != '--long']
VARIANT = 'chinese-checkers-long' if LONG else 'chinese-checkers'
FLAGS = ['--long-hops'] if LONG else []
REF = __import__('os').path.join(__import__('os').path.dirname(__file__), 'chinese_checkers.py')
LETTERS = {2: {'S': 'R', 'N': 'G'}, 3: {'S': 'R', 'NW': 'B', 'NE': 'Y'},
           4: {'S': 'R', 'SW': 'P', 'N': 'G', 'NE': 'Y'},
           6: {'S': 'R', 'SW': 'P', 'NW': 'B', 'N': 'G', 'NE': 'Y', 'SE': 'O'}}
def on(q, r):
    return (q >= -4 and r >= -4 and q + r <= 4) or (q <= 4 and r <= 4 and q + r >= -4)
def cell(name):
    return ord(name[0]) - ord('a') - 8, int(name[1:]) - 9
def text(n, seats, to_move):
    owner = {}
    for seat, cells in seats.items():
        for c in cells:
            owner[cell(c)] = LETTERS[n][seat]
    rows = []
    for r in range(8, -9, -1):
        row, empty = '', 0
        for q in range(-8, 9):
            if not on(q, r):
                continue
            if (q, r) in owner:
                if empty: row += str(empty); empty = 0
                row += owner[(q, r)]
            else:
                empty += 1
        if empty: row += str(empty)
        rows.append(row)
    ply = 1 if (n == 2 and to_move == 'N') else 0
    return '/'.join(rows) + ' ' + LETTERS[n][to_move].lower() + ' ' + str(ply)
total = mismatches = 0
for n in [2, 3, 4, 6]:
    for seed in range(int(sys.argv[2]) if len(sys.argv) > 2 else 25):
        for k in [6, 20, 45, 90]:
            walk = subprocess.run(['python3', REF, '--players', str(n), '--random-walk', str(k), '--seed', str(seed)] + FLAGS, capture_output=True, text=True).stdout
            seats, to_move = {}, None
            for line in walk.splitlines():
                if line.startswith('#') or not line.strip():
                    continue
                key, val = line.split(':', 1)
                if key == 'to-move':
                    to_move = val.strip()
                else:
                    seats[key.strip()] = val.split()
            ref = subprocess.run(['python3', REF, '--players', str(n), '--position', walk] + FLAGS, capture_output=True, text=True).stdout.split('\n')
            ref = sorted(l for l in ref if l and not l.startswith('count'))
            pos = text(n, seats, to_move)
            out = subprocess.run([CLI, 'moves', VARIANT, '--players', str(n), '--position', pos], capture_output=True, text=True)
            mine = sorted(re.sub(r'[-:].*[-:]', '-', m).replace(':', '-') for m in out.stdout.split())
            mine = sorted(m.split('-')[0] + '-' + m.split('-')[-1] if '-' in m else m for m in mine)
            total += 1
            if mine != ref:
                mismatches += 1
                if mismatches <= 3:
                    print('MISMATCH', n, seed, k, pos, out.stderr.strip())
                    print('  only ref:', sorted(set(ref) - set(mine))[:10])
                    print('  only cli:', sorted(set(mine) - set(ref))[:10])
print(f'{total} positions, {mismatches} mismatches')
