"""Held-out error of DVONN network inputs measured before building them into the core.

python3 -m engine.tools.train_probe {none,hex,occ} {alone,added} EPOCHS LR DECAY MAX_STACKS FILES...

Adds to each stack's point feature (engine/tools/train.py) a second one: its kind at its distance
to the nearest stack holding a red piece (0 .. 3, 4 and more), either straight on the board
(hex: changes only when a red stack moves) or along occupied points (occ: the path a cut-off
breaks).  Trains as gipf-train does (lam 0.5, a fifth of the games held out) and prints the
held-out error beside the linear evaluation's; exports nothing."""

import math
import os
import sys
import time

import numpy as np
import torch
from torch import nn
from torch.nn import functional

from engine.tools import train
from engine.tools.train_loop import targets
from engine.tools.tune import held_out_games

KINDS, FEATURES, HIDDEN, BUCKETS = train.KINDS, train.FEATURES, train.HIDDEN, train.BUCKETS
BANDS = 5
CELLS = np.array(train._board())
DC = CELLS[:, None, 0] - CELLS[None, :, 0]
DR = CELLS[:, None, 1] - CELLS[None, :, 1]
HEX = np.maximum(np.maximum(np.abs(DC), np.abs(DR)), np.abs(DC - DR))  # 49 x 49
ADJ = (HEX == 1)


def red_kind(kinds):
    k = kinds % 25
    return (k >= 20) | ((k < 20) & (k % 2 == 1))


def distance_features(mine, mode):
    """For each stack of each row: FEATURES + band x KINDS + kind; padding stays FEATURES."""
    pad = mine >= FEATURES
    points = np.where(pad, 0, mine // KINDS)
    kinds = np.where(pad, 0, mine % KINDS)
    red = red_kind(kinds) & ~pad
    n = len(mine)
    redmask = np.zeros((n, 49), bool)
    rows = np.repeat(np.arange(n), 49).reshape(n, 49)
    redmask[rows[red], points[red]] = True
    if mode == "hex":
        big = np.where(redmask[:, None, :], HEX[None, :, :], 99)  # n x point x red
        dist = big.min(axis=2)  # n x 49 (per point)
    else:  # through occupied points
        occ = np.zeros((n, 49), bool)
        occ[rows[~pad], points[~pad]] = True
        dist = np.full((n, 49), 99)
        frontier = redmask.copy()
        dist[frontier] = 0
        seen = frontier.copy()
        for d in range(1, BANDS):
            nxt = (frontier.astype(np.float32) @ ADJ.astype(np.float32) > 0) & occ & ~seen
            dist[nxt] = d
            seen |= nxt
            frontier = nxt
    per_stack = np.take_along_axis(dist, points, axis=1)
    band = np.minimum(per_stack, BANDS - 1)
    return np.where(pad, FEATURES + BANDS * KINDS, FEATURES + band * KINDS + kinds)


def make_model(extra):
    total = FEATURES + extra

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.ft = nn.Parameter(torch.randn(total, HIDDEN) * 0.02)
            self.factor = nn.Parameter(torch.randn(4 * KINDS, HIDDEN) * 0.05)
            rows = train._factors()
            self.register_buffer("factor_rows", torch.tensor(rows).view(2, FEATURES))
            self.b1 = nn.Parameter(torch.full((HIDDEN,), 0.3))
            self.out = nn.Linear(2 * HIDDEN, BUCKETS)
            with torch.no_grad():
                self.out.weight.normal_(0.0, 0.05)

        def first_layer(self):
            w = self.ft[:FEATURES] + self.factor[self.factor_rows[0]] + self.factor[self.factor_rows[1]]
            return torch.cat([w, self.ft[FEATURES:], torch.zeros(1, HIDDEN)])

        def forward(self, mine, theirs, buckets):
            w = self.first_layer()
            a = torch.clamp(functional.embedding_bag(mine, w, mode="sum", padding_idx=total) + self.b1, 0, 1)
            b = torch.clamp(functional.embedding_bag(theirs, w, mode="sum", padding_idx=total) + self.b1, 0, 1)
            return self.out(torch.cat([a, b], 1)).gather(1, buckets[:, None]).squeeze(1)

        def clip(self):
            with torch.no_grad():
                self.ft.clamp_(-5 / 3, 5 / 3)
                self.factor.clamp_(-5 / 3, 5 / 3)

    return Net()


def main():
    mode, added, epochs, lr, decay, max_stacks = sys.argv[1], sys.argv[2] == "added", int(sys.argv[3]), \
        float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
    files = sys.argv[7:]
    torch.manual_seed(1)
    mine, theirs, buckets, results, scores, linear, games = train.load(files, os.environ.get("GIPF_TRAIN_CACHE"))
    kept = (mine < FEATURES).sum(axis=1) <= max_stacks
    mine, theirs, buckets, results, scores, linear, games = (
        a[kept] for a in (mine, theirs, buckets, results, scores, linear, games))
    pad_to = FEATURES
    if mode != "none":
        t = time.time()
        dm, dt = distance_features(mine, mode), distance_features(theirs, mode)
        pad_to = FEATURES + BANDS * KINDS
        mine = np.concatenate([np.where(mine >= FEATURES, pad_to, mine), dm], 1)
        theirs = np.concatenate([np.where(theirs >= FEATURES, pad_to, theirs), dt], 1)
        print(f"distance features in {time.time() - t:.1f} s", file=sys.stderr)
    extra = pad_to - FEATURES
    scale = 400.0 / (math.log(10.0) * 0.708)
    test = held_out_games(games, 0.2, 1)
    target = targets(np, results, scores, 0.5, scale).astype(np.float32)
    lin = 1 / (1 + np.exp(-np.clip(linear / scale, -30, 30)))
    lin_err = float(np.mean((lin[test] - target[test]) ** 2))
    base = torch.from_numpy((linear / scale if added else 0 * linear).astype(np.float32))
    M, T, B, Y = (torch.from_numpy(x) for x in (mine.astype(np.int64), theirs.astype(np.int64), buckets, target))
    model = make_model(extra)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=decay)
    tr = torch.from_numpy(np.flatnonzero(~test))
    te = torch.from_numpy(np.flatnonzero(test))
    print(f"{mode} {'added' if added else 'alone'} <= {max_stacks}: {len(tr) // 4} train "
          f"{len(te) // 4} test, linear {lin_err:.5f}", flush=True)
    for epoch in range(epochs):
        for g in opt.param_groups:
            g["lr"] = lr * (0.1 if epoch >= 2 * epochs // 3 else 1)
        order = tr[torch.randperm(len(tr))]
        for s in range(0, len(order), 1024):
            idx = order[s:s + 1024]
            loss = torch.mean((torch.sigmoid(base[idx] + model(M[idx], T[idx], B[idx])) - Y[idx]) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            model.clip()
        with torch.no_grad():
            err = float(torch.mean((torch.sigmoid(base[te] + model(M[te], T[te], B[te])) - Y[te]) ** 2))
        print(f"  epoch {epoch + 1}: held-out {err:.5f} ({100 * (err / lin_err - 1):+.1f} %)", flush=True)


if __name__ == "__main__":
    main()
