"""DVONN training positions the search compares: every child of a game position, each valued.

  python3 -m engine.tools.children OUT LABEL COUNT SEED MIN MAX FILE...
      COUNT positions of MIN to MAX stacks drawn from the gipf-selfplay files (stacking,
      unproven; seeded choice); for each, every legal stack move is played and the position it
      gives searched with the linear evaluation, LABEL nodes (checked every 1,024) or, written
      dN, to depth N (a proven result written as the edge of the unproven range, ±2999 or 0).
      The children of one parent share an `index`, so gipf-train holds them out together and
      a sibling loss can compare them.

A search decides between siblings: an evaluation that is right about the position as a whole
but wrong about which child is better changes no decision but the wrong ones.  These rows let
a trainer see the siblings together.
"""
from __future__ import annotations

import json
import multiprocessing
import random
import sys

from engine import core
from engine.games import GAMES
from engine.tools.decisions import stacks
from engine.tools.tune import PROVEN

_limit: dict = {}


def _start(label: str) -> None:
    """The labelling search's limit: N nodes, or dN plies."""
    _limit.update({"depth": int(label[1:])} if label.startswith("d") else {"nodes": int(label)})


def _children(item: tuple[int, str]) -> list[dict]:
    """The rows of every child of the position in item (none if it has fewer than two)."""
    number, position = item
    game = GAMES["dvonn"].from_position(position)
    moves = game.legal_moves()
    if len(moves) < 2:
        return []
    rows = []
    for move in moves:
        game.push(move)
        if not game.over:
            core.clear_hash()
            label = core.search("dvonn", list(game.cells), game.side, 1, seed=number, **_limit)
            proven = abs(label.score) >= PROVEN
            value = 2999 * ((label.score > 0) - (label.score < 0)) if proven else label.score
            rows.append({"game": "dvonn", "position": game.position(), "side": game.side, "score": value,
                         "index": number, "result": None, "sideline": True, "exact": proven})
        game.pop()
    return rows


def main(argv: list[str]) -> int:
    if len(argv) < 7:
        print(__doc__, file=sys.stderr)
        return 2
    out = argv[0]
    label = argv[1]
    count, seed, low, high = (int(a) for a in argv[2:6])
    found = set()
    for path in argv[6:]:
        with open(path) as f:
            for line in f:
                row = json.loads(line)
                text = row["position"]
                if text.split()[2] == "move" and abs(row["score"]) < PROVEN and low <= stacks(text) <= high:
                    found.add(text)
    chosen = sorted(found)
    random.Random(seed).shuffle(chosen)
    chosen = chosen[:count]
    written = parents = 0
    with open(out, "a") as f, multiprocessing.Pool(2, initializer=_start, initargs=(label,)) as pool:
        for rows in pool.imap(_children, enumerate(chosen, seed * 1_000_000), chunksize=4):
            for row in rows:
                f.write(json.dumps(row) + "\n")
            f.flush()
            written += len(rows)
            parents += bool(rows)
    print(f"{written} children of {parents} positions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
