"""DVONN training positions where a search with a network goes: the ends of its principal variations.

  python3 -m engine.tools.pv_leaves OUT NET SEARCH_NODES LABEL_NODES COUNT SEED MIN MAX FILE...
      COUNT positions of MIN to MAX stacks drawn from the gipf-selfplay files (lines and side
      lines, unproven; seeded choice); each searched SEARCH_NODES nodes with NET loaded, its
      principal variation played out, and the position it ends in searched LABEL_NODES nodes
      without a network (a proven result written as the edge of the unproven range, ±2999 or
      0).  Written as side-line rows gipf-train reads (score only, no result).

A correction learnt from the games' positions errs alike in related positions, and a search that
looks for the leaf it values most finds where it errs in its favour.  These rows are those leaves,
valued by a deeper search that does not share the error.
"""
from __future__ import annotations

import json
import multiprocessing
import random
import sys

from engine import core, network
from engine.games import GAMES
from engine.tools.decisions import stacks
from engine.tools.tune import PROVEN

_net = None
_search_nodes = _label_nodes = 0


def _start(net: str, search_nodes: int, label_nodes: int) -> None:
    global _net, _search_nodes, _label_nodes
    with open(net, "rb") as f:
        _net = network.parse(f.read())
    _search_nodes, _label_nodes = search_nodes, label_nodes


def _leaf(item: tuple[int, str]):
    """The row of the position item's networked principal variation ends in, or None."""
    number, position = item
    game = GAMES["dvonn"].from_position(position)
    network.install(_net, "pv")
    core.clear_hash()
    found = core.search("dvonn", list(game.cells), game.side, 1, nodes=_search_nodes, seed=number)
    plies = 0
    for raw in found.pv:
        try:
            game.push(core.to_move(game, [core.decode_move("dvonn", raw)]))
        except (IndexError, KeyError, TypeError, ValueError):
            break
        plies += 1
        if game.over:
            return None
    if plies < 2:
        return None
    network.unload("dvonn")
    core.clear_hash()
    label = core.search("dvonn", list(game.cells), game.side, 1, nodes=_label_nodes, seed=number)
    proven = abs(label.score) >= PROVEN
    # a proven result at the edge of the unproven range, as gipf-decisions label writes it
    value = 2999 * ((label.score > 0) - (label.score < 0)) if proven else label.score
    return {"game": "dvonn", "position": game.position(), "side": game.side, "score": value,
            "index": number, "result": None, "sideline": True, "plies": plies,
            "root_score": found.score, "exact": proven}


def main(argv: list[str]) -> int:
    if len(argv) < 9:
        print(__doc__, file=sys.stderr)
        return 2
    out, net = argv[0], argv[1]
    search_nodes, label_nodes, count, seed, low, high = (int(a) for a in argv[2:8])
    found = set()
    for path in argv[8:]:
        with open(path) as f:
            for line in f:
                row = json.loads(line)
                text = row["position"]
                if text.split()[2] == "move" and abs(row["score"]) < PROVEN and low <= stacks(text) <= high:
                    found.add(text)
    chosen = sorted(found)
    random.Random(seed).shuffle(chosen)
    chosen = chosen[:count]
    written = 0
    with open(out, "a") as f, multiprocessing.Pool(2, initializer=_start,
                                                   initargs=(net, search_nodes, label_nodes)) as pool:
        for row in pool.imap(_leaf, enumerate(chosen, seed * 1_000_000), chunksize=8):
            if row is not None:
                f.write(json.dumps(row) + "\n")
                written += 1
    print(f"{written} leaves of {len(chosen)} positions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
