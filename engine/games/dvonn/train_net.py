"""Train the DVONN evaluation's small network (csrc/dvonn/dvonn_net.c) on self-play data and write its
integer weights as a C header (csrc/generated/dvonn_net_weights.h).

The network is a residual on the hand-written evaluation: its output, in evaluation points, is
added to the current evaluation inside the win probability 1 / (1 + 10^(-K * eval / 400)) of
gipf-tune (K fitted to the results at the current weights), and it is fitted to the same target
as `gipf-tune --lam L` (L x result + (1 - L) x the stored search score's win probability).
Input: per point one of 41 categories seen from one side (a lone red; an own or enemy stack by
height 1..5+, holding a red or not, able to move now or not), empty points none.  One hidden layer
of clipped ReLUs is computed from both sides' views with the same weights (an accumulator per
side); the output weighs the side to act's units and the other side's apart.  The training data
are widened by the board's four symmetries (the held-out games are not), which halves the
overfitting of the 2,000 first-layer weights per unit.  Deterministic given the data and --seed.

Example:
  gipf-train-net --holdout 0.2 sp1.jsonl sp2.jsonl --out csrc/generated/dvonn_net_weights.h
  python3 engine/_core_build.py && echo "weights set net 100" | python3 -m engine
"""
from __future__ import annotations

import sys

from ...tools import cli

CATEGORIES = 41   # a lone red, then own/enemy x height 1..5+ x red x mobile
QA = 64           # first layer: the clip's 1.0 in integer units
QB = 128          # output layer's integer units per 1.0
SCALE = 100       # evaluation points per network output unit at `net` 100


def cell_categories(cells) -> list[int]:
    """Per point, its category from White's view: 0 empty, 1 a lone red, 2 + ((colour x 5 + height
    bucket) x 2 + red) x 2 + mobile for a stack topped by White (colour 0) or Black (1)."""
    from . import rules as dvonn
    occupied = [bool(c) for c in cells]
    out = []
    for i, stack in enumerate(cells):
        if not stack:
            out.append(0)
            continue
        if stack[-1] == "R":
            out.append(1)
            continue
        h = len(stack)
        neighbours = dvonn._NEIGHBOURS[i]
        enclosed = len(neighbours) == 6 and all(occupied[n] for n in neighbours)
        mobile = not enclosed and any(len(r) >= h and occupied[r[h - 1]] for r in dvonn._RAYS[i])
        colour = 0 if stack[-1] == "W" else 1
        out.append(2 + ((colour * 5 + min(h, 5) - 1) * 2 + ("R" in stack)) * 2 + mobile)
    return out


def other_view(np, cats):
    """The categories seen from Black: own and enemy swapped."""
    x = cats - 2
    return np.where(cats >= 2, 2 + (1 - x // 20) * 20 + x % 20, cats)


def load_positions(tune, paths, phase: str = "movement", min_occupied: int = 0):
    """(eval values, results, search scores, games, categories, sides) of the positions
    engine.tools.tune's load_data would use (`tune`: that module)."""
    import numpy as np

    from ... import core
    rows: dict[str, list] = {k: [] for k in ("vals", "results", "scores", "games", "cats", "sides")}
    for game, result, score, number in tune.positions("dvonn", paths, phase, min_occupied):
        value = core.evaluate("dvonn", game.cells, game.side, core.phase(game))
        if abs(value) >= tune.DECIDED:
            continue
        rows["vals"].append(value)
        rows["results"].append(result)
        rows["scores"].append(score)
        rows["games"].append(number)
        rows["cats"].append(cell_categories(game.cells))
        rows["sides"].append(game.side)
    return (np.array(rows["vals"], float), np.array(rows["results"], float), np.array(rows["scores"], float),
            np.array(rows["games"]), np.array(rows["cats"], np.int64).reshape(-1, 49), np.array(rows["sides"], int))


def views(np, cats, sides):
    """Sparse one-hot inputs of the side to act's view and the other's."""
    import scipy.sparse as sp
    n, cells = cats.shape
    def design(c):
        r, p = np.nonzero(c)
        return sp.csr_matrix((np.ones(len(r)), (r, p * CATEGORIES + c[r, p] - 1)), shape=(n, cells * CATEGORIES))
    white, black = design(cats), design(other_view(np, cats))
    w = sp.diags((sides == 0).astype(float))
    b = sp.diags((sides != 0).astype(float))
    return (w @ white + b @ black).tocsr(), (w @ black + b @ white).tocsr()


class Net:
    """Float weights: first layer (inputs x hidden), its bias, the output weights of the side to
    act's units and of the other's, the output bias."""

    def __init__(self, np, hidden: int, inputs: int, seed: int):
        rng = np.random.default_rng(seed)
        self.shapes = [(inputs, hidden), (hidden,), (hidden,), (hidden,), (1,)]
        self.x = np.concatenate([rng.normal(0, 0.1, inputs * hidden), np.full(hidden, 0.5),
                                 np.zeros(2 * hidden + 1)])

    def unpack(self, x):
        out, i = [], 0
        for s in self.shapes:
            n = 1
            for d in s:
                n *= d
            out.append(x[i:i + n].reshape(s))
            i += n
        return out


def forward(np, parts, own, other):
    w1, b1, wa, wb, b2 = parts
    a_own, a_other = own @ w1 + b1, other @ w1 + b1
    h_own, h_other = np.clip(a_own, 0, 1), np.clip(a_other, 0, 1)
    return a_own, a_other, h_own, h_other, h_own @ wa + h_other @ wb + b2[0]


def train(np, net: Net, own, other, values, targets, k: float, l2: float, iters: int):
    """L-BFGS on the mean squared error of the win probability of value + SCALE x output, plus
    l2 x the squared weights (not the biases)."""
    from scipy.optimize import minimize
    from scipy.special import expit
    c = np.log(10) * k / 400
    n = len(values)

    def loss(x):
        w1, b1, wa, wb, b2 = parts = net.unpack(x)
        a_own, a_other, h_own, h_other, out = forward(np, parts, own, other)
        p = expit(c * (values + SCALE * out))
        err = p - targets
        g = 2 * err * p * (1 - p) * c * SCALE / n
        g_own = np.outer(g, wa) * ((a_own > 0) & (a_own < 1))
        g_other = np.outer(g, wb) * ((a_other > 0) & (a_other < 1))
        grad = [own.T @ g_own + other.T @ g_other + 2 * l2 * w1, g_own.sum(0) + g_other.sum(0),
                h_own.T @ g + 2 * l2 * wa, h_other.T @ g + 2 * l2 * wb, np.array([g.sum()])]
        value = float(np.mean(err ** 2)) + l2 * float((w1 ** 2).sum() + (wa ** 2).sum() + (wb ** 2).sum())
        return value, np.concatenate([np.ravel(x) for x in grad])

    net.x = minimize(loss, net.x, jac=True, method="L-BFGS-B", options={"maxiter": iters}).x
    return net


def quantise(np, parts):
    """The integer weights the C network uses: first layer and its bias in 1/QA, the output weights
    in 1/QB, the output bias in 1/(QA x QB)."""
    w1, b1, wa, wb, b2 = parts
    def q(x, s, lim):
        return np.clip(np.round(x * s), -lim, lim).astype(np.int64)

    out = {"w1": q(w1, QA, 32767), "b1": q(b1, QA, 32767), "out": np.stack([q(wa, QB, 32767), q(wb, QB, 32767)]),
           "b2": int(q(b2, QA * QB, 2 ** 30)[0])}
    # the C sums are 16-bit: the bias and the largest row of each point must fit
    bound = np.abs(out["w1"]).reshape(49, CATEGORIES, -1).max(axis=1).sum(axis=0) + np.abs(out["b1"])
    if bound.max() > 32767:
        raise cli.ToolError(f"first-layer sums up to {bound.max()} do not fit 16 bits; train with a larger --l2")
    return out


def int_output(np, weights, cats, sides, net_weight: int = 100):
    """The C network's term for the side to act (csrc/dvonn/dvonn_net.c), exactly: evaluation points."""
    cats = np.asarray(cats, np.int64).reshape(-1, 49)
    sides = np.asarray(sides).reshape(-1)
    w1 = weights["w1"].reshape(49, CATEGORIES, -1)
    def acc(c):
        total = np.tile(weights["b1"], (len(c), 1))
        for p in range(49):
            on = c[:, p] > 0
            total[on] += w1[p, c[on, p] - 1]
        return np.clip(total, 0, QA)
    white, black = acc(cats), acc(other_view(np, cats))
    own = np.where((sides == 0)[:, None], white, black)
    other = np.where((sides == 0)[:, None], black, white)
    raw = own @ weights["out"][0] + other @ weights["out"][1] + weights["b2"]
    prod = raw * net_weight
    return np.sign(prod) * (np.abs(prod) // (QA * QB * SCALE // 100))  # C's division: toward zero


def header_text(weights, comment: str) -> str:
    w1 = weights["w1"].reshape(49, CATEGORIES, -1)
    hidden = w1.shape[2]
    rows = []
    for p in range(49):
        rows.append("    {" + ",\n     ".join("{" + ",".join(str(int(v)) for v in w1[p, c]) + "}"
                                            for c in range(CATEGORIES)) + "}")
    def vec(v) -> str:
        return "{" + ", ".join(str(int(x)) for x in v) + "}"

    return (f"/* Generated by scripts/train_net ({comment}); do not edit. */\n"
            "#ifndef GIPF_DVONN_NET_WEIGHTS_H\n#define GIPF_DVONN_NET_WEIGHTS_H\n\n"
            f"#define DV_NET_HIDDEN {hidden}\n#define DV_NET_CATEGORIES {CATEGORIES}\n"
            f"#define DV_NET_QA {QA}\n#define DV_NET_DIV {QA * QB * SCALE // 100}\n\n"
            "/* first layer per point (canonical index) and category, in 1/QA */\n"
            f"static const int16_t DV_NET_W1[49][DV_NET_CATEGORIES][DV_NET_HIDDEN] = {{\n" + ",\n".join(rows) + "};\n"
            f"static const int16_t DV_NET_B1[DV_NET_HIDDEN] = {vec(weights['b1'])};\n"
            "/* output weights of the side to act's units, then of the other side's */\n"
            "static const int16_t DV_NET_OUT[2][DV_NET_HIDDEN] = "
            f"{{{vec(weights['out'][0])}, {vec(weights['out'][1])}}};\n"
            f"static const int32_t DV_NET_B2 = {weights['b2']};\n\n#endif\n")


def read_header(np, path) -> dict:
    """The integer weights back from a header header_text wrote."""
    import re
    text = cli.read_input(str(path), 16 << 20)
    def find(pattern: str) -> str:
        found = re.search(pattern, text, re.S)
        if found is None:
            raise cli.ToolError(f"{path}: not a network header (nothing matches {pattern!r})")
        return found.group(1)
    def numbers(name):
        body = find(name + r"\[[^=]*=\s*(\{.*?\});")
        return np.array([int(x) for x in re.findall(r"-?\d+", body)], np.int64)
    hidden = int(find(r"#define DV_NET_HIDDEN (\d+)"))
    b2 = int(find(r"DV_NET_B2 = (-?\d+);"))
    return {"w1": numbers("DV_NET_W1").reshape(49 * CATEGORIES, hidden), "b1": numbers("DV_NET_B1"),
            "out": numbers("DV_NET_OUT").reshape(2, hidden), "b2": b2}


def parse_args(argv=None):
    parser = cli.parser("train_net", __doc__)
    parser.add_argument("data", nargs="+", help="JSON-lines files from gipf-selfplay")
    parser.add_argument("--hidden", type=int, default=16, help="hidden units (default 16)")
    parser.add_argument("--l2", type=float, default=3e-4, help="weight decay (default 3e-4)")
    parser.add_argument("--lam", type=float, default=0.5, help="share of the game result in the target (default 0.5)")
    parser.add_argument("--k", type=float, default=0.0, help="the win probability's scale (default: fitted)")
    parser.add_argument("--iters", type=int, default=200, help="L-BFGS iterations (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="initial weights' seed (default 1)")
    parser.add_argument("--holdout", type=float, default=0.0, metavar="SHARE",
                        help="train on the other games and report the error on this share too")
    parser.add_argument("--no-symmetries", action="store_true", help="train on the data as they are")
    parser.add_argument("--out", help="header to write (default: none, only the report)")
    args = parser.parse_args(argv)
    if not 0.0 <= args.holdout < 1.0:
        parser.error("--holdout must be at least 0 and below 1")
    return args


def main(argv=None) -> int:
    return cli.guarded(run, argv, "train_net")


def run(argv=None) -> int:
    args = parse_args(argv)
    import numpy as np
    from scipy.special import expit

    from ... import core
    from .rules import BOARD
    if not core.AVAILABLE:
        print(f"train_net: the compiled core is unavailable: {core.UNAVAILABLE_REASON}", file=sys.stderr)
        return 1
    if any(w.name == "net" and w.value for w in core.eval_weights("dvonn")):
        core.set_weight("dvonn", "net", 0)  # a residual on the hand-written evaluation alone
    from ...tools import tune
    if args.out:
        cli.check_writable(args.out)  # before the training, not after it
    values, results, scores, games, cats, sides = load_positions(tune, args.data)
    test = tune.held_out_games(games, args.holdout) if args.holdout else np.zeros(len(values), bool)
    train_rows = np.nonzero(~test)[0]
    if len(train_rows) < 100:
        print(f"train_net: only {len(train_rows)} training positions", file=sys.stderr)
        return 1
    k = args.k or tune.fit_scale(values[train_rows, None], np.ones(1), results[train_rows])
    targets = tune.blended_targets(results, scores, k, args.lam)
    perms = [list(range(49))] if args.no_symmetries else BOARD.symmetries
    tc = np.concatenate([cats[train_rows][:, list(p)] for p in perms])
    def rep(a):
        return np.tile(a[train_rows], len(perms))

    own, other = views(np, tc, rep(sides))
    net = train(np, Net(np, args.hidden, own.shape[1], args.seed), own, other, rep(values), rep(targets),
                k, args.l2, args.iters)
    weights = quantise(np, net.unpack(net.x))
    c = np.log(10) * k / 400

    def errors(rows):
        o, t = views(np, cats[rows], sides[rows]), targets[rows]
        flt = forward(np, net.unpack(net.x), *o)[4] * SCALE
        def mse(extra) -> float:
            return float(np.mean((expit(c * (values[rows] + extra)) - t) ** 2))

        return mse(0), mse(flt), mse(int_output(np, weights, cats[rows], sides[rows]))
    line = (f"{len(train_rows)} positions x {len(perms)} symmetries, {args.hidden} hidden, l2 {args.l2:g}, "
            f"K {k:.4f}, lam {args.lam:g}; mean squared error without -> float -> integer net: "
            + " -> ".join(f"{e:.5f}" for e in errors(train_rows)))
    if test.any():
        line += (f"; held out {test.sum()} positions of {len(np.unique(games[test]))} games: "
                 + " -> ".join(f"{e:.5f}" for e in errors(np.nonzero(test)[0])))
    print(line, file=sys.stderr)
    if args.out:
        cli.write_atomically(args.out, header_text(weights, f"{args.hidden} hidden, l2 {args.l2:g}, "
                                                            f"seed {args.seed}, {len(train_rows)} positions"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
