"""How often a DVONN search at fixed nodes picks a worse move than the best, by exact endgame values.

  python3 -m engine.tools.decisions build OUT COUNT SEED MIN MAX FILE...
      COUNT positions of the gipf-selfplay files' lines (seeded choice) with MIN to MAX stacks
      where the moves do not all give the same result; every legal move's exact final margin
      (the core's solver, 1 s a move at most; a position with a move it cannot solve is left out)
  python3 -m engine.tools.decisions score BENCH NODES [NET...]
      with no network and with each NET: a NODES-node search's move in every position of BENCH;
      how often it gives away the result (a win or draw the best move keeps), and the margin it
      loses on average; each NET's count paired against the linear evaluation's

  python3 -m engine.tools.decisions label OUT PER_STACKS LOW HIGH SEED FILE...
      up to PER_STACKS distinct stacking positions of each stack count LOW to HIGH in the files
      (lines and side lines; seeded choice), each with its exact result from the solver (1 s at
      most; unsolved ones are left out), as gipf-selfplay rows gipf-train reads: "result" the
      exact result for White, "score" that result at the edge of the unproven range (a win
      2999, a loss -2999, a draw 0, the side to act's view), "exact": true

A game replays noise from the first move on; a position with exact values measures one
decision at a time, so a few thousand positions separate evaluators that hundreds of games
cannot.
"""
from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import sys

from engine import core, network
from engine.games import GAMES

SOLVE_MS = 1000


def stacks(position: str) -> int:
    return sum(1 for cell in position.split()[3].replace("/", ",").split(",") if cell != "-")


def _margin(game, root_side: int) -> int:
    white, black = game.scores()
    return white - black if root_side == 0 else black - white


def _exact(position: str):
    """Every legal move's exact final margin from the mover's view, or None if one is unsolved."""
    game = GAMES["dvonn"].from_position(position)
    values = []
    for move in game.legal_moves():
        child = GAMES["dvonn"].from_position(position)
        child.push(move)
        if child.over:
            values.append(_margin(child, game.side))
            continue
        solution = core.solve("dvonn", list(child.cells), child.side, core.phase(child), time_ms=SOLVE_MS)
        if not solution.solved:
            return None
        values.append(solution.value if child.side == game.side else -solution.value)
    return values


def _result(margin: int) -> int:
    return (margin > 0) - (margin < 0)


def build(out: str, count: int, seed: int, low: int, high: int, paths: list[str]) -> None:
    positions = set()
    for path in paths:
        with open(path) as f:
            for line in f:
                item = json.loads(line)
                text = item["position"]
                if not item.get("sideline") and text.split()[2] == "move" and low <= stacks(text) <= high:
                    positions.add(text)
    candidates = sorted(positions)
    random.Random(seed).shuffle(candidates)
    kept = 0
    with open(out, "w") as f, multiprocessing.Pool(2) as pool:
        for position, values in zip(candidates, pool.imap(_exact, candidates, chunksize=4)):
            if values is None or len({_result(v) for v in values}) < 2:
                continue
            f.write(json.dumps({"position": position, "values": values}) + "\n")
            f.flush()
            kept += 1
            if kept >= count:
                pool.terminate()
                break
    print(f"{kept} positions", file=sys.stderr)


def _label(position: str):
    game = GAMES["dvonn"].from_position(position)
    solution = core.solve("dvonn", list(game.cells), game.side, 1, time_ms=1000)
    if not solution.solved:
        return None
    mover = _result(solution.value)
    white = mover if game.side == 0 else -mover
    return {"game": "dvonn", "position": position, "side": game.side, "score": 2999 * mover,
            "result": (white + 1) / 2, "index": 0, "exact": True}


def label(out: str, per_stacks: int, low: int, high: int, seed: int, paths: list[str]) -> None:
    found: dict[int, set] = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                text = json.loads(line)["position"]
                if text.split()[2] == "move" and low <= stacks(text) <= high:
                    found.setdefault(stacks(text), set()).add(text)
    rng = random.Random(seed)
    chosen = [p for n in sorted(found) for p in rng.sample(sorted(found[n]), min(per_stacks, len(found[n])))]
    rng.shuffle(chosen)
    written = 0
    with open(out, "w") as f, multiprocessing.Pool(2) as pool:
        for number, row in enumerate(pool.imap(_label, chosen, chunksize=16)):
            if row is not None:
                row["index"] = number
                f.write(json.dumps(row) + "\n")
                written += 1
    print(f"{written} of {len(chosen)} positions solved", file=sys.stderr)


_nodes = 0


def _load(net: str, nodes: int) -> None:
    global _nodes
    _nodes = nodes
    network.unload("dvonn")
    if net:
        with open(net, "rb") as f:
            network.install(network.parse(f.read()), os.path.basename(net))


def _choose(item: dict) -> tuple[int, int]:
    """(result lost: 0 or 1, margin lost) of the search's move."""
    game = GAMES["dvonn"].from_position(item["position"])
    core.clear_hash()
    found = core.search("dvonn", list(game.cells), game.side, 1, nodes=_nodes, seed=1)
    move = core.to_move(game, found.moves)
    value = item["values"][game.legal_moves().index(move)]
    best = max(item["values"])
    return int(_result(value) < _result(best)), best - value


def score(bench: str, nodes: int, nets: list[str]) -> None:
    with open(bench) as f:
        items = [json.loads(line) for line in f]
    outcomes = {}
    for net in [""] + nets:
        with multiprocessing.Pool(2, initializer=_load, initargs=(net, nodes)) as pool:
            outcomes[net] = pool.map(_choose, items, chunksize=8)
        lost = [r for r, _ in outcomes[net]]
        margins = [m for _, m in outcomes[net]]
        line = (f"{os.path.basename(net) or 'linear':36s} {len(items)} positions: result given away "
                f"{100 * sum(lost) / len(lost):5.2f} %, margin lost {sum(margins) / len(margins):5.2f}")
        if net:
            # paired: positions only one of the two gets wrong
            worse = sum(1 for a, b in zip(outcomes[net], outcomes[""]) if a[0] > b[0])
            better = sum(1 for a, b in zip(outcomes[net], outcomes[""]) if a[0] < b[0])
            spread = 1.96 * math.sqrt(worse + better)
            line += f"; against linear {better - worse:+d} (± {spread:.0f}): {better} better, {worse} worse"
        print(line, flush=True)


def main(argv: list[str]) -> int:
    if len(argv) >= 6 and argv[0] == "build":
        build(argv[1], int(argv[2]), int(argv[3]), int(argv[4]), int(argv[5]), argv[6:])
    elif len(argv) >= 7 and argv[0] == "label":
        label(argv[1], int(argv[2]), int(argv[3]), int(argv[4]), int(argv[5]), argv[6:])
    elif len(argv) >= 3 and argv[0] == "score":
        score(argv[1], int(argv[2]), argv[3:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
