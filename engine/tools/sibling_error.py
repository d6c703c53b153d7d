"""How well DVONN evaluations tell a position's children apart.

  python3 -m engine.tools.sibling_error CHILDREN_FILE [NETWORK | OTHER_CHILDREN_FILE ...]
      CHILDREN_FILE: engine.tools.children rows (the children of a parent share an index).  For
      the linear evaluation and each network (as a correction, installed as the engine loads
      it), or the scores of another labelling of the same children (a .jsonl file: only the
      parents it has all the children of are counted), over the children of at most 28
      stacks: the mean squared error of the win probability (abs), the same after each
      parent's mean is taken from both the evaluation and the label (siblings: what a search's
      choice between them depends on), and how often the child the evaluation values most is
      one of the best by the label.
"""
from __future__ import annotations

import json
import math
import sys

import numpy as np

from engine import core, network
from engine.games import GAMES

SCALE = 400 / (math.log(10) * 0.708)


def _win(scores) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(np.asarray(scores, float) / SCALE, -30, 30)))


def _errors(groups, evaluate) -> tuple[float, float, float]:
    absolute = siblings = 0.0
    count = best = 0
    for children in groups:
        label = _win([score for _, score in children])
        value = _win([evaluate(game) for game, _ in children])
        absolute += float(((value - label) ** 2).sum())
        siblings += float((((value - value.mean()) - (label - label.mean())) ** 2).sum())
        count += len(children)
        best += bool(label[int(np.argmax(value))] >= label.max() - 1e-9)
    return absolute / count, siblings / count, best / len(groups)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    by_parent: dict[int, list] = {}
    with open(argv[0]) as f:
        for line in f:
            row = json.loads(line)
            game = GAMES["dvonn"].from_position(row["position"])
            game.index = row["index"]  # the parent, for matching another labelling's rows
            if sum(1 for cell in game.cells if cell) <= 28:
                by_parent.setdefault(row["index"], []).append((game, row["score"]))
    groups = [children for children in by_parent.values() if len(children) >= 2]
    others = [path for path in argv[1:] if path.endswith(".jsonl")]
    if others:  # only the parents every other labelling has whole
        labelled: list[dict] = []
        for path in others:
            with open(path) as f:
                labelled.append({(r["index"], r["position"]): r["score"] for r in map(json.loads, f)})
        groups = [c for c in groups if all((g.index, g.position()) in table for table in labelled for g, _ in c)]

    def evaluate(game):
        return core.evaluate("dvonn", game.cells, game.side, 1)
    print(f"{len(groups)} parents, {sum(len(c) for c in groups)} children")
    lin = _errors(groups, evaluate)
    print(f"linear evaluation: abs {lin[0]:.5f}, siblings {lin[1]:.5f}, best child valued most {100 * lin[2]:.1f} %")
    for path in argv[1:]:
        if path.endswith(".jsonl"):
            table = labelled[others.index(path)]
            e = _errors(groups, lambda game, table=table: table[(game.index, game.position())])
        else:
            with open(path, "rb") as f:
                network.install(network.parse(f.read()), path)
            e = _errors(groups, evaluate)
            network.unload("dvonn")
        print(f"{path}: abs {e[0]:.5f} ({100 * (e[0] / lin[0] - 1):+.1f} %), siblings {e[1]:.5f} "
              f"({100 * (e[1] / lin[1] - 1):+.1f} %), best child valued most {100 * e[2]:.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
