"""Nodes to a fixed depth on self-play stacking positions, with a weight set to each value."""
import json, random, sys
from engine import core
from engine.games import GAMES
name, values, depth, files = sys.argv[1], [int(v) for v in sys.argv[2].split(",")], int(sys.argv[3]), sys.argv[4:]
pos = []
for f in files:
    for line in open(f):
        r = json.loads(line)
        if " move " in r["position"]:
            pos.append(r["position"])
random.Random(1).shuffle(pos)
pos = pos[:int(__import__("os").environ.get("N", "60"))]
tot = {v: 0 for v in values}; ms = {}
for p in pos:
    g = GAMES["dvonn"].from_position(p)
    if g.over: continue
    for v in values:
        core.set_weight("dvonn", name, v)
        core.clear_hash()
        r = core.search("dvonn", list(g.cells), g.side, core.phase(g), depth=depth, hash_mb=64)
        tot[v] += r.nodes; ms[v] = ms.get(v, 0) + r.time_ms
print(name, depth, len(pos), {v: f"{n:,}" for v, n in tot.items()}, {v: round(t) for v, t in ms.items()})
