"""Fit a DVONN stacking-move ordering (softmax over legal moves, linear in move features) to the
moves self-play searches chose; print the features' weights and how well each ordering ranks the
chosen move on held-out games."""
import json
import sys

import numpy as np

from engine.games import GAMES
from engine.games.dvonn.board import DVONN_BOARD

COORD = [(p.c, p.r) if hasattr(p, "c") else None for p in DVONN_BOARD.points] if hasattr(DVONN_BOARD, "points") else None


def coords():
    names = [GAMES["dvonn"].from_position  # noqa
             ]
    return names


def dist(a, b):
    dc, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dc) + abs(dr) + abs(dc - dr)) // 2


def cell_coords():
    out = []
    for r in range(5):
        for c in range(max(0, r - 2), min(10, r + 8) + 1):
            out.append((c, r))
    return out


XY = cell_coords()
D = [[dist(a, b) for b in XY] for a in XY]
H = 6
NF = 2 * (H + H) + 4 + 4 + 1 + 1


NBR = [[j for j in range(49) if D[i][j] == 1] for i in range(49)]
RING = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))
AT = {xy: i for i, xy in enumerate(XY)}


def is_cut(cells, i):
    c, r = XY[i]
    occ = [bool(cells[AT[(c + dc, r + dr)]]) if (c + dc, r + dr) in AT else False for dc, dr in RING]
    arcs = sum(1 for k in range(6) if occ[k] and not occ[k - 1])
    return int(arcs >= 2)


def raw(cells, side, src, dst):
    me = "W" if side == 0 else "B"
    s, t = cells[src], cells[dst]
    enemy = t[-1] != me and t[-1] != "R"
    reds = [i for i, c in enumerate(cells) if "R" in c]
    dt = min(D[dst][r] for r in reds) if reds else 3
    ds = min(D[src][r] for r in reds) if reds else 3
    nt = sum(1 for j in NBR[dst] if cells[j]) - 1  # the source no longer counts if adjacent
    nt += 0 if src in NBR[dst] else 1
    ns = sum(1 for j in NBR[src] if cells[j])
    return (int(enemy), int("R" in t), len(s), len(t), dt, ds, int("R" in s), nt, ns, len(NBR[dst]),
            is_cut(cells, src))


def features(cells, side, src, dst):
    me = "W" if side == 0 else "B"
    s, t = cells[src], cells[dst]
    hs, ht = min(len(s), H), min(len(t), H)
    enemy = t[-1] != me and t[-1] != "R"
    f = np.zeros(NF)
    base = 0 if enemy else 2 * H
    f[base + ht - 1] = 1
    f[base + H + hs - 1] = 1
    reds = [i for i, c in enumerate(cells) if "R" in c]
    dt = min(D[dst][r] for r in reds) if reds else 3
    ds = min(D[src][r] for r in reds) if reds else 3
    f[4 * H + min(dt, 3)] = 1
    f[4 * H + 4 + min(ds, 3)] = 1
    f[4 * H + 8] = "R" in s
    f[4 * H + 9] = 1 if (enemy or "R" in t) else 0  # unreduced class
    return f


def old_hint(cells, side, src, dst):
    me = "W" if side == 0 else "B"
    t = cells[dst]
    h = min(len(t), 10)
    enemy = t[-1] != me and t[-1] != "R"
    red = "R" in t
    return 100 + enemy * (300 + 20 * h) + red * 200


def samples(paths):
    for path in paths:
        rows = [json.loads(line) for line in open(path)]
        for a, b in zip(rows, rows[1:]):
            if a.get("index") != b.get("index") or " move " not in a["position"]:
                continue
            g = GAMES["dvonn"].from_position(a["position"])
            if g.over:
                continue
            moves = [m for m in g.legal_moves() if m.kind == "move"]
            if len(moves) < 2:
                continue
            after = b["position"].split()[3].split("/")
            target = [c if c != "-" else "" for row in after for c in row.split(",")]
            chosen = None
            for i, m in enumerate(moves):
                g.push(m)
                same = g.cells == target
                g.pop()
                if same:
                    chosen = i
                    break
            if chosen is None:
                continue
            cells, side = list(g.cells), g.side
            X = np.array([raw(cells, side, m.src, m.dst) for m in moves])
            old = np.array([old_hint(cells, side, m.src, m.dst) for m in moves])
            yield X, chosen, old, sum(1 for c in cells if c)


def main():
    import os, pickle
    paths = sys.argv[1:]
    cache = "/work/data/srch/policy_data.pkl"
    if os.path.exists(cache):
        data = pickle.load(open(cache, "rb"))
    else:
        data = list(samples(paths))
        pickle.dump(data, open(cache, "wb"))
    print(len(data), "positions")


main()
