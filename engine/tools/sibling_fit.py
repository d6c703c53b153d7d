"""Refit DVONN's linear stacking weights to tell a position's children apart.

  python3 -m engine.tools.sibling_fit TRAIN_CHILDREN EVAL_CHILDREN WEIGHT RIDGE OUT
      TRAIN_CHILDREN, EVAL_CHILDREN: engine.tools.children files.  Fits the stacking weights
      (every weight not named place_*) from the engine's current ones, full batch (600 Adam
      steps), to each child's error plus WEIGHT x the error after each parent's mean is taken
      from value and label (the sibling error), RIDGE x the mean squared change in hundreds.
      A fifth of the parents is held out.  Prints both errors of the current and the fitted
      weights, held out and on EVAL_CHILDREN, and writes the changed weights to OUT as
      `weights set` takes them.
"""
from __future__ import annotations

import math
import sys

import numpy as np
import torch

import engine.games  # noqa: F401  (registers the games the core serves)
from engine.tools.tune import held_out_games, load_data

SCALE = 400 / (math.log(10) * 0.708)


def _centred(values, group, count: int):
    sums = torch.zeros(count).index_add_(0, group, values)
    sizes = torch.zeros(count).index_add_(0, group, torch.ones_like(values))
    return values - (sums / sizes)[group]


def _data(path: str):
    features, values, _, scores, names, parents = load_data("dvonn", [path], "movement")
    group = torch.from_numpy(np.unique(parents, return_inverse=True)[1])
    labels = torch.sigmoid(torch.tensor(scores / SCALE, dtype=torch.float32))
    return (torch.tensor(features, dtype=torch.float32), labels, group, int(group.max()) + 1, parents, values, names)


def _errors(weights, x, y, group, count, rows):
    p = torch.sigmoid(x @ weights / SCALE)
    return (float(((p - y)[rows] ** 2).mean()),
            float(((_centred(p, group, count) - _centred(y, group, count))[rows] ** 2).mean()))


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    x, y, group, count, parents, values, names = _data(argv[0])
    xe, ye, group_e, count_e, _, _, _ = _data(argv[1])
    weight, ridge = float(argv[2]), float(argv[3])
    test = torch.from_numpy(held_out_games(parents, 0.2, 1))
    train = ~test
    start = torch.tensor(values, dtype=torch.float32)
    stacking = torch.tensor([not n.startswith("place_") for n in names], dtype=torch.float32)
    change = torch.zeros_like(start, requires_grad=True)
    opt = torch.optim.Adam([change], lr=1.0)
    for _ in range(600):
        p = torch.sigmoid(x @ (start + change * stacking) / SCALE)
        loss = ((p - y)[train] ** 2).mean() + weight * (
            (_centred(p, group, count) - _centred(y, group, count))[train] ** 2).mean() + \
            ridge * ((change * stacking / 100) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    fitted = (start + change * stacking).detach()
    everything = torch.ones(len(ye), dtype=torch.bool)
    for label, w in (("current", start), ("fitted", fitted)):
        held = _errors(w, x, y, group, count, test)
        other = _errors(w, xe, ye, group_e, count_e, everything)
        print(f"{label}: held out abs {held[0]:.5f} siblings {held[1]:.5f}; {argv[1]}: abs {other[0]:.5f} "
              f"siblings {other[1]:.5f}")
    changed = [(n, int(round(float(v)))) for n, v0, v in zip(names, start, fitted)
               if int(round(float(v))) != int(v0)]
    with open(argv[4], "w") as f:
        f.write(" ".join(f"dvonn.{n} {v}" for n, v in changed) + "\n")
    print(f"{len(changed)} weights changed, written to {argv[4]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
