"""Train DVONN's endgame correction with a sibling term: besides each position's own error, the
error in how a parent's children differ from one another (each child's value less the mean of
its siblings'), which is what a search's decisions depend on.

  python3 -m engine.tools.train_siblings OUT WEIGHT EPOCHS LR DECAY MAX_STACKS CACHE \
      [--hidden N] --base FILE... --children FILE...
      CACHE: a folder for the encoded files, as gipf-train --cache.  --hidden N (before
      --base) trains a first layer N wide instead of 32; the core loads only 32.
      --base: gipf-selfplay files (position error only); --children: engine.tools.children
      files (position error, and WEIGHT x the sibling error).  Target: the search score's win
      probability (lam 0).  A fifth of the games and of the parents is held out.
"""
from __future__ import annotations

import math
import sys

from engine.tools import train
from engine.tools.train import FEATURES, export, load, make_model
from engine.tools.train_loop import _write_atomically
from engine.tools.tune import held_out_games


def _split(argv: list[str]) -> tuple[list[str], list[str]]:
    base, children, into = [], [], None
    for arg in argv:
        if arg == "--base":
            into = base
        elif arg == "--children":
            into = children
        elif into is None:
            raise SystemExit(__doc__)
        else:
            into.append(arg)
    return base, children


def main(argv: list[str]) -> int:
    import numpy as np
    import torch
    if len(argv) < 9:
        print(__doc__, file=sys.stderr)
        return 2
    out, weight, epochs, lr, decay, max_stacks = argv[0], float(argv[1]), int(argv[2]), float(argv[3]), \
        float(argv[4]), int(argv[5])
    cache = argv[6]
    rest = argv[7:]
    if rest[:1] == ["--hidden"]:
        train.HIDDEN = int(rest[1])  # make_model and export read the module's width
        rest = rest[2:]
    base_files, child_files = _split(rest)
    scale = 400.0 / (math.log(10.0) * 0.708)
    torch.manual_seed(1)

    def prepared(paths, offset):
        mine, theirs, buckets, _, scores, linear, games = load(paths, cache)
        kept = (mine < FEATURES).sum(axis=1) <= max_stacks
        games = games + offset
        return [a[kept] for a in (mine, theirs, buckets, scores, linear, games)]

    base = prepared(base_files, 0)
    kids = prepared(child_files, 10**15)
    sig = lambda x: 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))  # noqa: E731
    sets = {}
    for name, (mine, theirs, buckets, scores, linear, games) in (("base", base), ("children", kids)):
        test = held_out_games(games, 0.2, 1)
        # groups: runs of one game number (a parent's children are contiguous)
        starts = np.flatnonzero(np.r_[True, games[1:] != games[:-1]])
        group = np.cumsum(np.r_[True, games[1:] != games[:-1]]) - 1
        sets[name] = dict(
            mine=torch.from_numpy(mine.astype(np.int64)), theirs=torch.from_numpy(theirs.astype(np.int64)),
            buckets=torch.from_numpy(buckets), target=torch.from_numpy(sig(scores / scale).astype(np.float32)),
            base=torch.from_numpy((linear / scale).astype(np.float32)), test=test, group=group, starts=starts,
            ends=np.r_[starts[1:], len(games)])
        print(f"{name}: {len(games) // 4} positions, {len(starts)} groups, {test.sum() // 4} held out",
              file=sys.stderr)
    model = make_model()
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=decay)

    def centred(values, group_t, n_groups):
        sums = torch.zeros(n_groups).index_add_(0, group_t, values)
        counts = torch.zeros(n_groups).index_add_(0, group_t, torch.ones_like(values))
        return values - (sums / counts)[group_t]

    def rows_of(s, groups):
        idx = np.concatenate([np.arange(s["starts"][g], s["ends"][g]) for g in groups])
        local = np.repeat(np.arange(len(groups)), s["ends"][groups] - s["starts"][groups])
        return torch.from_numpy(idx), torch.from_numpy(local)

    def predict(s, idx):
        return torch.sigmoid(s["base"][idx] + model(s["mine"][idx], s["theirs"][idx], s["buckets"][idx]))

    def report(epoch):
        with torch.no_grad():
            b = sets["base"]
            idx = torch.from_numpy(np.flatnonzero(b["test"]))
            p = torch.cat([predict(b, i) for i in idx.split(65536)])
            lin = torch.sigmoid(b["base"][idx])
            e_b, l_b = float(((p - b["target"][idx]) ** 2).mean()), float(((lin - b["target"][idx]) ** 2).mean())
            k = sets["children"]
            groups = np.unique(k["group"][k["test"]])
            idx, local = rows_of(k, groups)
            p = torch.cat([predict(k, i) for i in idx.split(65536)])
            lin = torch.sigmoid(k["base"][idx])
            y = k["target"][idx]
            e_k, l_k = float(((p - y) ** 2).mean()), float(((lin - y) ** 2).mean())
            yc = centred(y, local, len(groups))
            c_n = float(((centred(p, local, len(groups)) - yc) ** 2).mean())
            c_l = float(((centred(lin, local, len(groups)) - yc) ** 2).mean())
        print(f"epoch {epoch}: games {e_b:.5f} (linear {l_b:.5f}, {100 * (e_b / l_b - 1):+.1f} %); "
              f"children {e_k:.5f} (linear {l_k:.5f}, {100 * (e_k / l_k - 1):+.1f} %); "
              f"siblings {c_n:.5f} (linear {c_l:.5f}, {100 * (c_n / c_l - 1):+.1f} %)", file=sys.stderr, flush=True)

    report(0)
    b, k = sets["base"], sets["children"]
    base_train = torch.from_numpy(np.flatnonzero(~b["test"]))
    kid_groups = np.unique(k["group"][~k["test"]])
    steps = max(len(base_train) // 1024, 1)
    per_step = max(len(kid_groups) // steps, 1)
    for epoch in range(epochs):
        for g in opt.param_groups:
            g["lr"] = lr * (0.1 if epoch >= 2 * epochs // 3 else 1.0)
        order = base_train[torch.randperm(len(base_train))]
        kid_order = np.random.default_rng(epoch).permutation(kid_groups)
        for step in range(steps):
            idx = order[step * 1024:(step + 1) * 1024]
            loss = ((predict(b, idx) - b["target"][idx]) ** 2).mean()
            chosen = kid_order[step * per_step:(step + 1) * per_step]
            if len(chosen):
                kidx, local = rows_of(k, chosen)
                p, y = predict(k, kidx), k["target"][kidx]
                loss = loss + ((p - y) ** 2).mean() + weight * (
                    (centred(p, local, len(chosen)) - centred(y, local, len(chosen))) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            model.clip()
        report(epoch + 1)
        _write_atomically(out, export(model, scale, 2, max_stacks).to_bytes())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
