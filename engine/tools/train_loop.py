"""gipf-train's epochs (engine/tools/train.py): targets, the held-out split, Adam with a late
drop of the learning rate, a checkpoint per epoch, and the export."""
from __future__ import annotations

import os
import sys

from engine.tools import cli
from engine.tools.train import FEATURES, export, make_model
from engine.tools.tune import held_out_games


def targets(np, results, scores, lam: float, scale: float):
    """lam x result + (1 - lam) x sigmoid(score / scale), the side to act's."""
    predicted = 1.0 / (1.0 + np.exp(-np.clip(scores / scale, -30, 30)))
    return np.where(np.isnan(results), predicted, lam * results + (1.0 - lam) * predicted)


def held_out_error(torch, model, tensors, test) -> float:
    mine, theirs, buckets, target, base = tensors
    with torch.no_grad():
        pred = torch.sigmoid(base[test] + model(mine[test], theirs[test], buckets[test]))
        return float(torch.mean((pred - target[test]) ** 2))


def _resume(torch, path, model, opt) -> int:
    """The first epoch to run: after the checkpoint's, or 0 without one."""
    if not path or not os.path.exists(path):
        return 0
    try:
        state = torch.load(path, weights_only=True)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        return int(state["epoch"]) + 1
    except (OSError, RuntimeError, KeyError, ValueError) as e:
        raise cli.ToolError(f"cannot resume from {path}: {e}") from None


def _epoch(torch, model, opt, tensors, train_idx, batch: int, bar) -> float:
    mine, theirs, buckets, target, base = tensors
    order = train_idx[torch.randperm(len(train_idx))]
    total = 0.0
    for start in range(0, len(order), batch):
        idx = order[start:start + batch]
        pred = torch.sigmoid(base[idx] + model(mine[idx], theirs[idx], buckets[idx]))
        loss = torch.mean((pred - target[idx]) ** 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.clip()
        total += float(loss.detach()) * len(idx)
        bar.update(len(idx))
    return total / max(len(order), 1)


def _write_atomically(path: str, data: bytes) -> None:
    try:
        with open(path + ".part", "wb") as f:
            f.write(data)
        os.replace(path + ".part", path)
    except OSError as e:
        raise cli.ToolError(f"cannot write {path}: {e.strerror or e}") from None


def fit(args, data, scale: float) -> None:
    import numpy as np
    import torch
    from tqdm import tqdm

    torch.manual_seed(args.seed)
    mine, theirs, buckets, results, scores, linear, games = data
    kept = (mine < FEATURES).sum(axis=1) <= args.max_stacks  # the positions the network values
    if not kept.any():
        raise cli.ToolError(f"no stacking position with at most {args.max_stacks} stacks")
    mine, theirs, buckets, results, scores, linear, games = (
        a[kept] for a in (mine, theirs, buckets, results, scores, linear, games))
    test = held_out_games(games, args.holdout, args.seed)
    if test.all() or not test.any():
        raise cli.ToolError("too few games to hold a share out")
    target = targets(np, results, scores, args.lam, scale).astype(np.float32)
    linear_pred = 1.0 / (1.0 + np.exp(-np.clip(linear / scale, -30, 30)))
    linear_error = float(np.mean((linear_pred[test] - target[test]) ** 2))
    print(f"train: {len(target) // 4} stacking positions (x 4 symmetries), {(~test).sum() // 4} for "
          f"training, {test.sum() // 4} "
          f"held out ({len(np.unique(games[test]))} games); held-out error of the linear "
          f"evaluation {linear_error:.5f}", file=sys.stderr)
    tensors = (torch.from_numpy(mine), torch.from_numpy(theirs), torch.from_numpy(buckets),
               torch.from_numpy(target),
               torch.from_numpy((linear / scale if args.added else 0.0 * linear).astype(np.float32)))
    test_t = torch.from_numpy(np.flatnonzero(test))
    train_idx = torch.from_numpy(np.flatnonzero(~test))
    model = make_model()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.decay)
    first = _resume(torch, args.checkpoint, model, opt)
    for epoch in range(first, args.epochs):
        for group in opt.param_groups:  # the last third at a tenth of the rate
            group["lr"] = args.lr * (0.1 if epoch >= 2 * args.epochs // 3 else 1.0)
        with tqdm(total=len(train_idx), desc=f"epoch {epoch + 1}/{args.epochs}", unit="pos",
                  file=sys.stderr, leave=False) as bar:
            train_error = _epoch(torch, model, opt, tensors, train_idx, args.batch, bar)
        error = held_out_error(torch, model, tensors, test_t)
        print(f"epoch {epoch + 1}/{args.epochs}: training error {train_error:.5f}, held-out "
              f"{error:.5f} (linear evaluation {linear_error:.5f})", file=sys.stderr)
        _write_atomically(args.out, export(model, scale, 2 if args.added else 1, args.max_stacks).to_bytes())
        if args.checkpoint:
            torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": epoch},
                       args.checkpoint + ".tmp")
            os.replace(args.checkpoint + ".tmp", args.checkpoint)
