"""Train DVONN's stacking-phase evaluation network on self-play data and export the file the
engine loads (`weights load <file>`; the format in engine/network.py).

The data are gipf-selfplay files.  Each stacking position's target is
lam x result + (1 - lam) x sigmoid(search score / S), both from the side to act's view, where
S = 400 / (ln 10 x K) is the score scale of gipf-tune's win probability at K.  A fifth of the
games (--holdout) is held out; each epoch prints the held-out mean squared error beside the
linear evaluation's on the same positions.  --added trains a correction to the linear evaluation
instead of a network that replaces it.  --checkpoint keeps the state after every epoch and
resumes from it; the network is exported, quantised, after every epoch too.

Needs the train extra (PyTorch, CPU): pip install 'gipfbot[train]'.
"""
from __future__ import annotations

import math
import os
import sys

from engine.tools import cli
from engine.tools.tune import positions

GAME = "dvonn"
KINDS = 50            # features per point (csrc/dvonn/dvonn_nnue.h)
POINTS = 49
FEATURES = POINTS * KINDS
HIDDEN, BUCKETS = 32, 4
W1_LIMIT = 5.0        # |first-layer weight|: 50 of them x 127 stay inside int16
TOPS = {"W": 0, "B": 1, "R": 2}


def _board() -> list[tuple[int, int]]:
    """The points in the canonical order (rows of 9, 10, 11, 10, 9) as axial (column, row), the
    first row's first column 0, neighbours one of STEPS apart."""
    return [(c, r) for r, n in enumerate((9, 10, 11, 10, 9)) for c in range(max(0, r - 2), max(0, r - 2) + n)]


STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))


def _symmetries() -> list[list[int]]:
    """The board's four symmetries (identity, half turn, the two mirrors) as point permutations:
    the rules see only neighbours and lines, which they keep."""
    cells = _board()
    index = {cell: i for i, cell in enumerate(cells)}
    maps = [lambda c, r: (c, r), lambda c, r: (10 - c, 4 - r),
            lambda c, r: (c - r + 2, 4 - r), lambda c, r: (8 - c + r, r)]
    return [[index[m(c, r)] for c, r in cells] for m in maps]


def _neighbours() -> list[list[int | None]]:
    """Each point's neighbours; None for a side off the board (such a point is never surrounded)."""
    cells = _board()
    index = {cell: i for i, cell in enumerate(cells)}
    return [[index.get((c + a, r + b)) for a, b in STEPS] for c, r in cells]


SYMMETRIES = _symmetries()
NEIGHBOURS = _neighbours()


def feature(point: int, stack: str, stuck: bool, view: int) -> int:
    """As dv_net_feature: top (viewer's / opponent's / red), height 1..5+, red inside, surrounded."""
    top, hb = TOPS[stack[-1]], min(len(stack), 5) - 1
    kind = 20 + hb if top == 2 else (0 if top == view else 10) + 2 * hb + ("R" in stack)
    return point * KINDS + 25 * stuck + kind


def surrounded(cells, point: int) -> bool:
    return all(n is not None and cells[n] for n in NEIGHBOURS[point])


def bucket(stacks: int) -> int:
    return min(max((48 - stacks) // 10, 0), BUCKETS - 1)


def encode(cells, side: int, perm: list[int]) -> tuple[list[int], list[int], int]:
    """The side to act's features, the opponent's, and the output bucket, of the position with
    its points moved by perm; padded with FEATURES."""
    mine, theirs = [], []
    for point, stack in enumerate(cells):
        if stack:
            stuck = surrounded(cells, point)
            mine.append(feature(perm[point], stack, stuck, side))
            theirs.append(feature(perm[point], stack, stuck, 1 - side))
    stacks = len(mine)
    pad = [FEATURES] * (POINTS - stacks)
    return mine + pad, theirs + pad, bucket(stacks)


def _load_file(path: str):
    """One file's stacking positions, each in its four symmetric forms (rows 4i .. 4i + 3):
    features (both views), buckets, results, search scores, linear evaluations, game numbers."""
    import numpy as np

    from engine import core
    rows = []
    for game, result, score, number in positions(GAME, [path], "movement"):
        linear = core.evaluate(GAME, game.cells, game.side, 1)
        for perm in SYMMETRIES:
            mine, theirs, b = encode(game.cells, game.side, perm)
            rows.append((mine, theirs, b, result, score, linear, number))
    cols: list = list(zip(*rows)) if rows else [[] for _ in range(7)]
    return [np.array(cols[0], np.int16).reshape(-1, POINTS), np.array(cols[1], np.int16).reshape(-1, POINTS),
            np.array(cols[2], np.int64), np.array(cols[3], np.float32), np.array(cols[4], np.float32),
            np.array(cols[5], np.float32), np.array(cols[6], np.int64)]


def _cached(path: str, cache: str | None):
    """_load_file's arrays, kept in the folder cache (keyed by the file's name, size and time)."""
    import numpy as np
    if not cache:
        return _load_file(path)
    st = os.stat(path)
    key = os.path.join(cache, f"{os.path.basename(path)}-{st.st_size}-{st.st_mtime_ns}-k{KINDS}.npz")
    if os.path.exists(key):
        with np.load(key) as saved:
            return [saved[f"a{i}"] for i in range(7)]
    arrays = _load_file(path)
    np.savez(key + ".part.npz", **{f"a{i}": a for i, a in enumerate(arrays)})
    os.replace(key + ".part.npz", key)
    return arrays


def load(paths: list[str], cache: str | None = None):
    """The stacking positions of all the files (_load_file's arrays joined; game numbers kept
    apart per file); the features as int64."""
    import numpy as np
    parts = []
    for number, path in enumerate(paths):
        try:
            arrays = _cached(path, cache)
        except OSError as e:
            raise cli.ToolError(f"cannot read {path}: {e.strerror or e}") from None
        arrays[6] = arrays[6] + number * 1_000_000_000
        parts.append(arrays)
    joined = [np.concatenate([p[i] for p in parts]) for i in range(7)]
    if not len(joined[2]):
        raise cli.ToolError("no stacking positions in the data")
    joined[0], joined[1] = joined[0].astype(np.int64), joined[1].astype(np.int64)
    return tuple(joined)


def _factors() -> list[int]:
    """For each feature, its shared factors' rows: the kind alone (0 .. 49), and the kind at the
    point's ring (50 + 50 x ring + kind; ring 0 the edge, 1 next to it, 2 inside).  Training adds
    them to the feature's own weights (so what a kind is worth anywhere is learnt from every point's
    data); the export folds them in, the engine never sees them."""
    edge = {i for i, nbrs in enumerate(NEIGHBOURS) if None in nbrs}
    near = {i for i, nbrs in enumerate(NEIGHBOURS) if i not in edge and edge & set(nbrs)}
    ring = [0 if i in edge else 1 if i in near else 2 for i in range(POINTS)]
    return [f % KINDS for f in range(FEATURES)] + \
        [KINDS + KINDS * ring[f // KINDS] + f % KINDS for f in range(FEATURES)]


def make_model():
    import torch
    from torch import nn
    from torch.nn import functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.ft = nn.Parameter(torch.randn(FEATURES, HIDDEN) * 0.02)
            self.factor = nn.Parameter(torch.randn(4 * KINDS, HIDDEN) * 0.05)
            self.register_buffer("factor_rows", torch.tensor(_factors()).view(2, FEATURES))
            self.b1 = nn.Parameter(torch.full((HIDDEN,), 0.3))
            self.out = nn.Linear(2 * HIDDEN, BUCKETS)
            with torch.no_grad():
                self.out.weight.normal_(0.0, 0.05)

        def first_layer(self):
            """features x hidden, the factors folded in, then a zero row for the padding."""
            w = self.ft + self.factor[self.factor_rows[0]] + self.factor[self.factor_rows[1]]
            return torch.cat([w, torch.zeros(1, HIDDEN)])

        def forward(self, mine, theirs, buckets):
            w = self.first_layer()
            a = torch.clamp(functional.embedding_bag(mine, w, mode="sum", padding_idx=FEATURES) + self.b1, 0.0, 1.0)
            b = torch.clamp(functional.embedding_bag(theirs, w, mode="sum", padding_idx=FEATURES) + self.b1, 0.0, 1.0)
            y = self.out(torch.cat([a, b], dim=1))
            return y.gather(1, buckets[:, None]).squeeze(1)  # the win-probability logit

        def clip(self):
            with torch.no_grad():
                self.ft.clamp_(-W1_LIMIT / 3, W1_LIMIT / 3)
                self.factor.clamp_(-W1_LIMIT / 3, W1_LIMIT / 3)
                self.b1.clamp_(-W1_LIMIT, W1_LIMIT)

    return Net()


def export(model, scale: float, mode: int, max_stacks: int = POINTS):
    """The model as a quantised Network (engine/network.py)."""
    from array import array

    import torch

    from engine.network import QA, QB, Network
    with torch.no_grad():
        w1 = torch.round(model.first_layer()[:FEATURES] * QA).to(torch.int16).flatten().tolist()
        b1 = torch.round(model.b1 * QA).to(torch.int16).tolist()
        w2 = torch.round(model.out.weight * QB).clamp(-32767, 32767).to(torch.int16).flatten().tolist()
        b2 = torch.round(model.out.bias * QA * QB).to(torch.int32).tolist()
    return Network(GAME, FEATURES, HIDDEN, BUCKETS, int(round(scale)), mode, max_stacks,
                   array("h", w1), array("h", b1), array("h", w2), array("i", b2))


def parse_args(argv=None):
    p = cli.parser("train", __doc__)
    p.add_argument("data", nargs="+", help="gipf-selfplay files (DVONN)")
    p.add_argument("--out", required=True, help="the network file to write")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--lam", type=float, default=0.5,
                   help="the game result's share of the target (the rest: the search score's); default 0.5")
    p.add_argument("--k", type=float, default=0.708,
                   help="win-probability scale K as gipf-tune's (S = 400 / (ln 10 x K) score points "
                        "per logit unit); default 0.708, the stacking fit")
    p.add_argument("--holdout", type=float, default=0.2, help="share of games held out (default 0.2)")
    p.add_argument("--added", action="store_true",
                   help="train a correction added to the named weights' evaluation (mode 2) "
                        "instead of the whole stacking evaluation")
    p.add_argument("--max-stacks", type=int, default=POINTS, metavar="N",
                   help="with --added: train on and value only positions of at most N stacks "
                        "(the engine keeps the network's first layer from there on; default 49: all)")
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--decay", type=float, default=1e-4, help="AdamW's weight decay (default 1e-4)")
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cache", metavar="DIR",
                   help="keep each data file's encoded positions in DIR (reused while the file is unchanged)")
    p.add_argument("--checkpoint", help="state file: written after every epoch, resumed from if present")
    args = p.parse_args(argv)
    if not 0 <= args.lam <= 1 or not 0 < args.holdout < 1 or args.epochs < 1 or args.k <= 0:
        p.error("--lam in [0, 1], --holdout in (0, 1), --epochs >= 1, --k > 0")
    if not 1 <= args.max_stacks <= POINTS or (args.max_stacks < POINTS and not args.added):
        p.error("--max-stacks from 1 to 49, below 49 only with --added")
    return args


def main(argv=None) -> int:
    return cli.guarded(run, argv, "train")


def run(argv=None) -> int:
    args = parse_args(argv)
    try:
        import torch  # noqa: F401
    except ImportError:
        raise cli.ToolError("PyTorch is not installed: pip install 'gipfbot[train]'") from None
    from engine import core
    if not core.AVAILABLE:
        raise cli.ToolError(f"the compiled core is unavailable: {core.UNAVAILABLE_REASON}")
    cli.check_writable(args.out)
    if args.cache and not os.path.isdir(args.cache):
        raise cli.ToolError(f"--cache {args.cache}: no such folder")
    data = load(args.data, args.cache)
    from engine.tools.train_loop import fit
    fit(args, data, 400.0 / (math.log(10.0) * args.k))
    print(f"train: wrote {os.path.abspath(args.out)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
