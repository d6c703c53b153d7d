"""How much of the linear evaluation's error a DVONN endgame correction can learn, by width and
by data size, before any of it is built into the core.

  python3 -m engine.tools.capacity_probe MAX_STACKS FRACTION CACHE CONFIG... --games FILE... [--positions FILE...]
      CONFIG is HIDDEN,LAYER2,LR,DECAY,EPOCHS (LAYER2 0: the one-layer shape the core runs;
      otherwise two more clipped layers, LAYER2 and 32 wide).  --games: gipf-selfplay files,
      held out by game; --positions: labelled single positions (exact results, leaves), held
      out one by one.  FRACTION of the training games is used (the learning curve).  Target:
      the search score's win probability (lam 0), a correction added to the linear evaluation.
      Prints the held-out error after every epoch, on all held-out positions and on the games'
      alone, beside the linear evaluation's.  Plain first-layer weights (no shared factors).
"""
from __future__ import annotations

import sys
import time

import numpy as np
import torch
from torch import nn

from engine.tools.train import BUCKETS, FEATURES, load
from engine.tools.tune import held_out_games

SCALE = 400 / (np.log(10) * 0.708)


class Net(nn.Module):
    def __init__(self, hidden: int, layer2: int):
        super().__init__()
        self.ft = nn.EmbeddingBag(FEATURES + 1, hidden, mode="sum", padding_idx=FEATURES)
        nn.init.normal_(self.ft.weight, 0, 0.02)
        self.b1 = nn.Parameter(torch.full((hidden,), 0.3))
        self.layer2 = layer2
        if layer2:
            self.l2, self.l3, self.out = nn.Linear(2 * hidden, layer2), nn.Linear(layer2, 32), nn.Linear(32, BUCKETS)
        else:
            self.out = nn.Linear(2 * hidden, BUCKETS)

    def forward(self, mine, theirs, buckets):
        x = torch.cat([torch.clamp(self.ft(mine) + self.b1, 0, 1), torch.clamp(self.ft(theirs) + self.b1, 0, 1)], 1)
        if self.layer2:
            x = torch.clamp(self.l3(torch.clamp(self.l2(x), 0, 1)), 0, 1)
        return self.out(x).gather(1, buckets[:, None]).squeeze(1)


def main(argv: list[str]) -> int:
    if "--games" not in argv or len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    split = argv.index("--games")
    max_stacks, fraction, cache = int(argv[0]), float(argv[1]), argv[2]
    configs = argv[3:split]
    rest = argv[split + 1:]
    games_files = rest[:rest.index("--positions")] if "--positions" in rest else rest
    position_files = rest[rest.index("--positions") + 1:] if "--positions" in rest else []
    parts = [load(games_files, cache)] + ([load(position_files, cache)] if position_files else [])
    real = np.concatenate([np.full(len(p[2]), i == 0) for i, p in enumerate(parts)])
    mine, theirs, buckets, _, scores, linear, games = (
        np.concatenate([p[i] for p in parts]) for i in range(7))
    games = games + np.where(real, 0, 10**15)
    kept = (mine < FEATURES).sum(axis=1) <= max_stacks
    mine, theirs, buckets, scores, linear, games, real = (
        a[kept] for a in (mine, theirs, buckets, scores, linear, games, real))
    test = held_out_games(games, 0.2, 1)
    distinct = np.unique(games[~test])
    used = np.isin(games, distinct[np.random.default_rng(2).random(len(distinct)) < fraction])
    sig = lambda x: 1 / (1 + np.exp(-np.clip(x, -30, 30)))  # noqa: E731
    target = sig(scores / SCALE).astype(np.float32)
    base = (linear / SCALE).astype(np.float32)
    lin_all = float(np.mean((sig(base[test]) - target[test]) ** 2))
    lin_games = float(np.mean((sig(base[test & real]) - target[test & real]) ** 2))
    print(f"{len(target) // 4} positions of at most {max_stacks} stacks, {(used & ~test).sum() // 4} used for "
          f"training, {test.sum() // 4} held out ({(test & real).sum() // 4} of games); linear error "
          f"{lin_all:.5f} ({lin_games:.5f} on games)", flush=True)
    t = lambda a: torch.from_numpy(np.ascontiguousarray(a))  # noqa: E731
    M, TH, B, Y, BA = t(mine.astype(np.int64)), t(theirs.astype(np.int64)), t(buckets), t(target), t(base)
    held, held_games = t(np.flatnonzero(test)), t(np.flatnonzero(test & real))
    train_idx = t(np.flatnonzero(used & ~test))
    torch.manual_seed(1)
    for config in configs:
        hidden, layer2, lr, decay, epochs = config.split(",")
        net = Net(int(hidden), int(layer2))
        opt = torch.optim.AdamW(net.parameters(), lr=float(lr), weight_decay=float(decay))
        start = time.time()

        def error(idx, net=net):
            with torch.no_grad():
                return sum(float(((torch.sigmoid(BA[i] + net(M[i], TH[i], B[i])) - Y[i]) ** 2).sum())
                           for i in idx.split(65536)) / len(idx)
        for epoch in range(int(epochs)):
            for group in opt.param_groups:
                group["lr"] = float(lr) * (0.1 if epoch >= 2 * int(epochs) // 3 else 1.0)
            order = train_idx[torch.randperm(len(train_idx))]
            for i in range(0, len(order), 1024):
                idx = order[i:i + 1024]
                loss = ((torch.sigmoid(BA[idx] + net(M[idx], TH[idx], B[idx])) - Y[idx]) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            e_all, e_games = error(held), error(held_games)
            print(f"{config} epoch {epoch + 1}: held-out {e_all:.5f} ({100 * (e_all / lin_all - 1):+.1f} %), "
                  f"games {e_games:.5f} ({100 * (e_games / lin_games - 1):+.1f} %), {time.time() - start:.0f} s",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
