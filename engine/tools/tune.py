"""Texel tuning of the named evaluation weights from self-play data (gipf-selfplay).

For every position the engine's `eval` terms give one feature per weight: (side to act's
share - the opponent's) / the weight's value, so the evaluation is the dot product of the
features and the weights.  The tuner first fits the scale K of the win probability
1 / (1 + 10^(-K * eval / 400)) at the current weights, then the weights themselves
(least squares on the game results, scipy L-BFGS), and writes a weights file the engine
loads with `weights load <file>`.  Weights that are zero everywhere in the data (terms of
a phase the data lacks, thresholds) are left as they are.  Positions the search already
proved, and decided TZAAR positions, are skipped.  `--lam L` fits a blend instead of the
bare results: L x result + (1 - L) x the win probability of the search score stored with
the position (at the same K), the usual way to fit an evaluation to a deeper search as
well as to outcomes (L = 1, the default: results only).  `--phase` and `--min-occupied` pick
the positions (DVONN's placement and stacking weights are fitted apart); `--holdout 0.2` fits on
four games in five and reports the error on the fifth as well, to tell whether new terms predict
or only fit.

Example:
  gipf-selfplay --game dvonn --games 400 --nodes 20000 --out dvonn.jsonl
  gipf-tune --game dvonn dvonn.jsonl --out dvonn-weights.txt
  echo "weights load dvonn-weights.txt" | python3 -m engine
"""
from __future__ import annotations

import json
import sys

from engine.tools import cli

PROVEN = 999_000     # |search score| from here on is a proven result
DECIDED = 250_000    # |static eval| beyond the evaluation's clamp: a decided position
MAX_DATA_BYTES = 1 << 30  # one self-play file; a 400-game DVONN file is about 8 MB


def win_probability(np, values, k: float):
    from scipy.special import expit
    return expit(np.log(10.0) * k * values / 400.0)


def fit_scale(features, weights, results) -> float:
    """K minimising the squared error of the results at fixed weights."""
    import numpy as np
    from scipy.optimize import minimize_scalar

    values = features @ weights
    fit = minimize_scalar(lambda k: np.mean((results - win_probability(np, values, k)) ** 2),
                          bounds=(1e-4, 20.0), method="bounded")
    return float(fit.x)


def fit_weights(features, weights, results, k: float, tune_mask=None, ridge: float = 0.0):
    """Weights minimising the squared error at scale k; only where tune_mask is true.

    The optimiser works in units of each term's size over the data (100 evaluation
    points of root mean square), so weights of very different sizes, zero included,
    move alike; ridge pulls towards the start there, against overfitting small data."""
    import numpy as np
    from scipy.optimize import minimize

    start = np.asarray(weights, dtype=float)
    mask = np.ones(len(start), bool) if tune_mask is None else np.asarray(tune_mask, bool)
    fixed = features[:, ~mask] @ start[~mask]
    x = features[:, mask]
    # Root mean square, not std: a constant feature (a tempo bonus) has no spread at all.
    scale = 100.0 / np.maximum(np.sqrt((x ** 2).mean(axis=0)), 1e-9)  # weight units per unit of u
    u0 = start[mask] / scale

    def loss(u):
        p = win_probability(np, x @ (u * scale) + fixed, k)
        err = p - results
        # d/dw of mean (p - r)^2: p' = ln10 * k / 400 * p (1 - p)
        grad = 2.0 * (x * (err * p * (1 - p) * np.log(10) * k / 400)[:, None]).mean(axis=0)
        change = u - u0
        return (float(np.mean(err ** 2)) + ridge * float(np.mean(change ** 2)),
                grad * scale + 2 * ridge * change / len(u))

    res = minimize(loss, u0, jac=True, method="L-BFGS-B")
    out = start.copy()
    out[mask] = res.x * scale
    return out


def mean_error(features, weights, results, k: float) -> float:
    import numpy as np
    return float(np.mean((results - win_probability(np, features @ weights, k)) ** 2))


def positions(game_name: str, paths: list[str], phase: str = "", min_occupied: int = 0):
    """Yield (game, result, search score, game number) for the usable positions in the files: the
    game named, no proven search score, only the phase named (all when empty), at least
    min_occupied points occupied; result and score are the side to act's, the game number the same
    for all of a game's positions.  An unreadable file or a bad line is a ToolError naming it."""
    from engine.games import GAMES
    for file_number, path in enumerate(paths):
        text = cli.read_input(path, MAX_DATA_BYTES)
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                if item["game"] != game_name or abs(item["score"]) >= PROVEN:
                    continue
                game = GAMES[game_name].from_position(item["position"])
                if (phase and game.phase != phase) or \
                        sum(1 for cell in game.cells if cell) < min_occupied:
                    continue
                result = float("nan") if item["result"] is None else \
                    item["result"] if game.side == 0 else 1.0 - item["result"]
                index = int(item.get("index", 0))
            except (ValueError, KeyError, TypeError, OverflowError) as e:
                raise cli.ToolError(f"{path}:{number}: bad line ({e})") from None
            yield game, result, float(item["score"]), file_number * 1_000_000_000 + index


def load_data(game_name: str, paths: list[str], phase: str = "", min_occupied: int = 0):
    """(features, current weights, results, search scores, names, games) of the positions in
    the files (games: a number per game, the same for all its positions), only those in the game
    phase named (all when empty) with at least min_occupied points occupied; results and scores
    are the side to act's."""
    import numpy as np

    from engine import core
    current = core.eval_weights(game_name)  # not the search parameters
    names = [w.name for w in current]
    values = np.array([w.value for w in current], dtype=float)
    # A zero weight shows no share: measure its feature with a probe weight instead (100, not 1:
    # a weight in percent of a scaled term, like DVONN's `net`, would round its share to nothing).
    probe = 100
    for w in current:
        if w.value == 0:
            core.set_weight(game_name, w.name, probe)
    unit = np.array([w.value if w.value else probe for w in current], dtype=float)
    rows, results, scores, games = [], [], [], []
    try:
        for game, result, score, number in positions(game_name, paths, phase, min_occupied):
            value, terms = core.eval_terms(game_name, game.cells, game.side, core.phase(game))
            if abs(value) >= DECIDED:
                continue
            sign = 1.0 if game.side == 0 else -1.0
            rows.append([sign * (white - black) for _, white, black in terms])
            results.append(result)
            scores.append(score)
            games.append(number)
    finally:
        for w in current:
            core.set_weight(game_name, w.name, w.value)
    features = np.array(rows, dtype=float).reshape(len(rows), len(names)) / unit
    return features, values, np.array(results, dtype=float), np.array(scores), names, np.array(games)


def held_out_games(games, share: float, seed: int = 1):
    """A mask of the positions of a random share of the games (whole games: positions of one game
    are alike, so a split inside games would flatter the fit)."""
    import numpy as np
    distinct = np.unique(games)
    chosen = np.random.default_rng(seed).choice(distinct, int(round(len(distinct) * share)), replace=False)
    return np.isin(games, chosen)


def blended_targets(results, scores, k: float, lam: float):
    """lam x result + (1 - lam) x the search score's win probability at scale k."""
    import numpy as np
    return lam * results + (1.0 - lam) * win_probability(np, scores, k)


def parse_args(argv=None):
    parser = cli.parser("tune", __doc__)
    parser.add_argument("data", nargs="+", help="JSON-lines files from gipf-selfplay")
    from engine.games import GAMES
    parser.add_argument("--game", choices=sorted(GAMES), required=True,
                        help="the game whose weights are fitted")
    parser.add_argument("--weights", default="", help="weights file to start from")
    parser.add_argument("--only", default="", help="comma-separated weights to tune (default all used)")
    parser.add_argument("--ridge", type=float, default=0.01,
                        help="pull towards the starting weights (default 0.01; 0 = none)")
    parser.add_argument("--k", type=float, default=0.0,
                        help="the win probability's scale K, fixed (default: fitted to the results "
                             "at the current weights); e.g. another phase's K, to put this phase's "
                             "weights on its scale")
    parser.add_argument("--lam", type=float, default=1.0,
                        help="share of the game result in the target, the rest the search "
                             "score's win probability (default 1: results only)")
    parser.add_argument("--phase", default="",
                        help="only positions in this game phase (as `phase` names it, e.g. "
                             "placement or movement; default all)")
    parser.add_argument("--min-occupied", type=int, default=0, metavar="N",
                        help="only positions with at least N points occupied (in a placement "
                             "phase: pieces placed)")
    parser.add_argument("--holdout", type=float, default=0.0, metavar="SHARE",
                        help="fit on the other games only and report the error on this share of "
                             "the games too (e.g. 0.2; default 0: fit on all), to tell whether new "
                             "terms predict or only fit")
    parser.add_argument("--out", help="weights file to write (default stdout)")
    args = parser.parse_args(argv)
    if not 0.0 <= args.holdout < 1.0:
        parser.error("--holdout must be at least 0 and below 1")
    if not 0.0 <= args.lam <= 1.0:
        parser.error("--lam must be between 0 and 1")
    if args.k < 0:
        parser.error("--k must be positive")
    return args


def main(argv=None) -> int:
    return cli.guarded(run, argv, "tune")


def run(argv=None) -> int:
    args = parse_args(argv)
    from engine import core
    if not core.AVAILABLE:
        print(f"tune: the compiled core is unavailable: {core.UNAVAILABLE_REASON}", file=sys.stderr)
        return 1
    if args.out:
        cli.check_writable(args.out)  # before the fit, not after it
    if args.weights:
        cli.apply_weights(cli.weights_text(args.weights), args.game, args.weights)
    features, weights, results, scores, names, games = load_data(args.game, args.data, args.phase,
                                                                 args.min_occupied)
    if len(results) < 10:
        print(f"tune: only {len(results)} usable positions; play more games", file=sys.stderr)
        return 1
    import numpy as np

    used = np.abs(features).sum(axis=0) > 0
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - set(names)
        if unknown:
            print(f"tune: unknown weights {', '.join(sorted(unknown))}", file=sys.stderr)
            return 1
        used &= np.array([n in wanted for n in names])
    test = held_out_games(games, args.holdout) if args.holdout else np.zeros(len(results), bool)
    train = ~test
    if train.sum() < 10 or (args.holdout and not test.any()):
        print("tune: too few games to hold some out", file=sys.stderr)
        return 1
    k = args.k or fit_scale(features[train], weights, results[train])
    targets = blended_targets(results, scores, k, args.lam)
    before = mean_error(features[train], weights, targets[train], k)
    tuned = fit_weights(features[train], weights, targets[train], k, used, args.ridge)
    after = mean_error(features[train], tuned, targets[train], k)
    lines = [f"# scripts/tune: {train.sum()} positions, K {k:.4f}, lam {args.lam:g}, "
             f"mean squared error {before:.5f} -> {after:.5f}"]
    if args.holdout:
        lines[0] += (f"; held out {test.sum()} positions of {len(np.unique(games[test]))} games: "
                     f"{mean_error(features[test], weights, targets[test], k):.5f} -> "
                     f"{mean_error(features[test], tuned, targets[test], k):.5f}")
    lines += [f"{args.game}.{name} {int(round(value))}" + ("" if used[i] else "  # not tuned")
              for i, (name, value) in enumerate(zip(names, tuned))]
    text = "\n".join(lines) + "\n"
    if args.out:
        cli.write_atomically(args.out, text)
    else:
        sys.stdout.write(text)
    print(lines[0][2:], file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
