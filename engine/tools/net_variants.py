"""Inputs and control networks for the DVONN endgame-network experiments.

  python3 -m engine.tools.net_variants starts OUTDIR MAX_STACKS FILE...
      per game of the gipf-selfplay files, its first stacking position of at most MAX_STACKS
      stacks; shuffled (seed 1) and written 40 a file as OUTDIR/st-<8001...>.txt, the
      `gipf-selfplay --starts` files
  python3 -m engine.tools.net_variants centre NET OUT FILE...
      NET with each output bucket's bias shifted so its correction averages zero over the
      unproven stacking positions of the files that it values
  python3 -m engine.tools.net_variants shuffle NET OUT
      NET with its first layer's weights shuffled (seed 7): the same spread, no meaning
  python3 -m engine.tools.net_variants negate NET OUT
      NET with its output negated
  python3 -m engine.tools.net_variants scale NET FACTOR OUT
      NET with its output times FACTOR
  python3 -m engine.tools.net_variants zero MAX_STACKS OUT
      a correction (mode 2) of zero at MAX_STACKS stacks or fewer
  python3 -m engine.tools.net_variants errors NET {line,side} FILE...
      the mean and mean absolute difference between the search score and the linear evaluation,
      and with NET added, over the unproven stacking positions NET values on the games' lines
      (line) or off them (side)
"""
from __future__ import annotations

import json
import os
import random
import statistics
import sys
from array import array

from engine import core, network
from engine.games import GAMES
from engine.tools.tune import PROVEN

KINDS, POINTS, HIDDEN, BUCKETS = 50, 49, 32, 4


def stacks(position: str) -> int:
    return sum(1 for cell in position.split()[3].replace("/", ",").split(",") if cell != "-")


def starts(outdir: str, max_stacks: int, paths: list[str]) -> None:
    found = []
    for path in sorted(paths):
        seen = set()
        with open(path) as f:
            for line in f:
                item = json.loads(line)
                if item["index"] in seen or item["position"].split()[2] == "place":
                    continue
                if stacks(item["position"]) <= max_stacks:
                    seen.add(item["index"])
                    found.append(item["position"])
    random.Random(1).shuffle(found)
    os.makedirs(outdir, exist_ok=True)
    for i in range(0, len(found), 40):
        with open(os.path.join(outdir, f"st-{8001 + i // 40}.txt"), "w") as f:
            f.write("\n".join(found[i:i + 40]) + "\n")
    print(f"{len(found)} start positions", file=sys.stderr)


def _read(path: str) -> network.Network:
    with open(path, "rb") as f:
        return network.parse(f.read())


def _write(net: network.Network, path: str) -> None:
    with open(path, "wb") as f:
        f.write(net.to_bytes())


def centre(src: str, out: str, paths: list[str]) -> None:
    net = _read(src)
    games = []
    for path in paths:
        with open(path) as f:
            for line in f:
                item = json.loads(line)
                if abs(item["score"]) >= PROVEN:
                    continue
                game = GAMES["dvonn"].from_position(item["position"])
                if game.phase == "movement" and stacks(item["position"]) <= net.max_stacks:
                    games.append(game)
    network.unload("dvonn")
    linear = [core.evaluate("dvonn", list(g.cells), g.side, 1) for g in games]
    network.install(net, "centre")
    corrections: dict[int, list[int]] = {}
    for game, base in zip(games, linear):
        bucket = min(max((48 - sum(1 for c in game.cells if c)) // 10, 0), BUCKETS - 1)
        corrections.setdefault(bucket, []).append(core.evaluate("dvonn", list(game.cells), game.side, 1) - base)
    network.unload("dvonn")
    for bucket, values in sorted(corrections.items()):
        mean = statistics.mean(values)
        print(f"bucket {bucket}: {len(values)} positions, correction mean {mean:.1f}, "
              f"spread {statistics.pstdev(values):.1f}", file=sys.stderr)
        net.b2[bucket] -= int(round(mean * network.QA * network.QB / net.scale))
    _write(net, out)


def errors(src: str, which: str, paths: list[str]) -> None:
    net = _read(src)
    rows = []
    for path in paths:
        with open(path) as f:
            for line in f:
                item = json.loads(line)
                if bool(item.get("sideline")) != (which == "side") or abs(item["score"]) >= PROVEN:
                    continue
                game = GAMES["dvonn"].from_position(item["position"])
                if game.phase == "movement" and stacks(item["position"]) <= net.max_stacks:
                    rows.append((game, item["score"]))
    network.unload("dvonn")
    linear = [s - core.evaluate("dvonn", list(g.cells), g.side, 1) for g, s in rows]
    network.install(net, "errors")
    added = [s - core.evaluate("dvonn", list(g.cells), g.side, 1) for g, s in rows]
    network.unload("dvonn")
    for name, values in (("linear", linear), ("with the network", added)):
        print(f"{name}: {len(values)} positions, mean {statistics.mean(values):+.1f}, "
              f"mean absolute {statistics.mean(abs(v) for v in values):.1f}")


def variant(net: network.Network, w1=None, w2=None, b2=None) -> network.Network:
    return network.Network("dvonn", net.features, net.hidden, net.buckets, net.scale, net.mode,
                           net.max_stacks, w1 if w1 is not None else net.w1, net.b1,
                           w2 if w2 is not None else net.w2, b2 if b2 is not None else net.b2)


def main(argv: list[str]) -> int:
    command, rest = argv[0], argv[1:]
    if command == "starts":
        starts(rest[0], int(rest[1]), rest[2:])
    elif command == "centre":
        centre(rest[0], rest[1], rest[2:])
    elif command == "errors":
        errors(rest[0], rest[1], rest[2:])
    elif command == "shuffle":
        net = _read(rest[0])
        weights = list(net.w1)
        random.Random(7).shuffle(weights)
        _write(variant(net, w1=array("h", weights)), rest[1])
    elif command == "negate":
        net = _read(rest[0])
        _write(variant(net, w2=array("h", [-x for x in net.w2]), b2=array("i", [-x for x in net.b2])), rest[1])
    elif command == "scale":
        net = _read(rest[0])
        _write(network.Network("dvonn", net.features, net.hidden, net.buckets,
                               int(round(net.scale * float(rest[1]))), net.mode, net.max_stacks,
                               net.w1, net.b1, net.w2, net.b2), rest[2])
    elif command == "zero":
        features = POINTS * KINDS
        _write(network.Network("dvonn", features, HIDDEN, BUCKETS, 400, 2, int(rest[0]),
                               array("h", [0] * features * HIDDEN), array("h", [0] * HIDDEN),
                               array("h", [0] * BUCKETS * 2 * HIDDEN), array("i", [0] * BUCKETS)), rest[1])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
