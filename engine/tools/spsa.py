"""SPSA tuning of named weights by self-play game pairs (nevergrad's SPSA, fishtest's units).

Each parameter is a row NAME:START:MIN:MAX:C_END (as fishtest: the start, the range, and the
perturbation at the last iteration), on the command line or one per line in --params (`#`
starts a comment).  NAME is a weight or search parameter the engine's `weights` lists
(`dvonn.search_lmp`, or `search_lmp` for --game's).  Every iteration nevergrad's SPSA proposes
θ- = θ - c_k δ and θ+ = θ + c_k δ (δ a random ±1 per parameter); engine A plays θ+, engine B
θ- (`weights set`, values rounded to whole numbers and clamped to [MIN, MAX]), over --pairs
colour-swapped game pairs, each pair from its own opening (DVONN: random placement prefixes;
TZAAR: seeded random layouts).  The games are gipf-match's (its referee and seats), on this
machine (--concurrency engine pairs) or on Ray actors (--ray: this machine, or the cluster
RAY_ADDRESS names).

nevergrad's SPSA asks θ- and θ+ one at a time and will not give θ+ before θ-'s loss is told
(asking again redraws δ); its step uses only the difference of the two losses.  So θ- is told
0 and θ+ is told minus its result against θ- (points of θ+ minus points of θ-, times a gain),
which makes the step fishtest's: at the last iteration each parameter moves by
R_END x C_END x result (`--r-end`, fishtest's default 0.002 suits tens of thousands of pairs;
raise it for short runs).  nevergrad's gain schedule is fishtest's (A = a tenth of the
iterations, exponents 0.602 and 0.101).

Progress (iteration, θ+ against θ-, the running score, the centre θ) goes to stderr.  The centre
after the last iteration, rounded and clamped, is written to --out in the `weights load` format
(only the tuned rows), at the end, every --save-every iterations and on Ctrl-C; nevergrad's
recommendation (the mean of the centres) is in a comment there.

Examples:
  gipf-spsa --game dvonn --iterations 500 --nodes 30000 --out tuned.txt \\
      dvonn.search_lmp:3:0:10:1 dvonn.search_lmr_base:100:0:300:20
  gipf-match --game dvonn --random-openings 200 --movetime 0 --sprt 0 10 0.05 0.05 \\
      --a "python3 -m engine" --a-setup "weights load tuned.txt;option nodes 50000" \\
      --b "python3 -m engine" --b-setup "option nodes 50000"
"""
from __future__ import annotations

import math
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.bounded_read import InputError, read_text
from engine.client import DEFAULT_ENGINE, EngineError
from engine.games import GAMES
from engine.tools import cli, match, referee

REPO = Path(__file__).resolve().parents[2]
MAX_PARAMS_BYTES = 1 << 20


# --- parameters -------------------------------------------------------------------------------

@dataclass
class Param:
    name: str      # <game>.<name>
    start: float
    low: float
    high: float
    c_end: float

    def engine_value(self, value: float) -> int:
        """What the engine plays: rounded to a whole number, clamped to [low, high]."""
        return int(min(max(round(value), math.ceil(self.low)), math.floor(self.high)))


def parse_row(text: str, game: str) -> Param:
    """One NAME:START:MIN:MAX:C_END row; ValueError with the reason."""
    fields = text.strip().split(":")
    if len(fields) != 5:
        raise ValueError(f"bad row '{text.strip()}': expected NAME:START:MIN:MAX:C_END")
    name = fields[0].strip()
    if "." not in name:
        name = f"{game}.{name}"
    if not name.startswith(f"{game}.") or not name.split(".", 1)[1]:
        raise ValueError(f"bad row '{text.strip()}': {name!r} is not a {game} weight")
    try:
        start, low, high, c_end = (float(f) for f in fields[1:])
    except ValueError:
        raise ValueError(f"bad row '{text.strip()}': START, MIN, MAX and C_END are numbers") from None
    if not all(math.isfinite(v) for v in (start, low, high, c_end)):
        raise ValueError(f"bad row '{text.strip()}': START, MIN, MAX and C_END are finite numbers")
    if not low <= start <= high or low == high:
        raise ValueError(f"bad row '{text.strip()}': needs MIN <= START <= MAX and MIN < MAX")
    if c_end <= 0:
        raise ValueError(f"bad row '{text.strip()}': C_END must be positive")
    return Param(name, start, low, high, c_end)


def read_rows(path: Path) -> list[str]:
    """The rows of a --params file: one per line, '#' comments and blank lines skipped."""
    try:
        lines = read_text(str(path), MAX_PARAMS_BYTES).splitlines()
    except InputError as e:
        raise ValueError(str(e)) from None
    return [row for row in (line.split("#", 1)[0].strip() for line in lines) if row]


# --- the optimiser ------------------------------------------------------------------------------

class Spsa:
    """nevergrad's SPSA over the parameters, in fishtest's units.

    nevergrad works on x (one number per parameter, 0 at the start); a parameter is
    start + scale * x, with scale such that the last iteration's perturbation is C_END."""

    def __init__(self, params: list[Param], iterations: int, r_end: float, seed: int) -> None:
        import nevergrad as ng
        import numpy as np

        self.params = params
        parametrization = ng.p.Array(init=np.zeros(len(params)))
        parametrization.random_state = np.random.RandomState(seed)
        self.optimizer = ng.optimizers.SPSA(parametrization=parametrization, budget=2 * iterations)
        # nevergrad's schedules, by tell count k: c_k = c / (k//2 + 1)^0.101 perturbs, and the
        # step after the pair told at k - 1 is a_k (y+ - y-) / (2 c_k) δ.
        # With the gain below, the last step is r_end * C_END * result per parameter.
        c_last, opt = self.optimizer._ck(2 * (iterations - 1)), self.optimizer
        self.scale = np.array([p.c_end for p in params]) / c_last
        self.gain = 2 * r_end * opt._ck(2 * iterations) * c_last / opt._ak(2 * iterations)
        self.centre = np.zeros(len(params))  # may leave [MIN, MAX]: the engine gets it clamped
        self.pending = None  # θ+ asked, its result not told yet

    def values(self, x) -> list[float]:
        return [p.start + s * v for p, s, v in zip(self.params, self.scale, x)]

    def ask_pair(self) -> tuple[list[float], list[float]]:
        """(θ+, θ-) for the next iteration."""
        minus = self.optimizer.ask()
        self.optimizer.tell(minus, 0.0)  # only y+ - y- counts: θ+ is told the difference
        plus = self.optimizer.ask()
        self.centre = (plus.value + minus.value) / 2
        self.pending = plus
        return self.values(plus.value), self.values(minus.value)

    def tell_result(self, result: float) -> None:
        """result: θ+'s points minus θ-'s over the iteration's games."""
        self.optimizer.tell(self.pending, -self.gain * result)

    def centre_values(self) -> list[float]:
        return self.values(self.centre)

    def recommendation(self) -> list[float]:
        return self.values(self.optimizer.provide_recommendation().value)


def run(spsa: Spsa, iterations: int, play, progress=None, save=None, save_every: int = 0) -> None:
    """The tuning loop: play(iteration, θ+ engine values, θ- engine values) gives θ+'s points
    minus θ-'s; progress(iteration, plus, minus, result) and save(iterations done) report."""
    for iteration in range(iterations):
        plus, minus = spsa.ask_pair()
        plus_values = [p.engine_value(v) for p, v in zip(spsa.params, plus)]
        minus_values = [p.engine_value(v) for p, v in zip(spsa.params, minus)]
        # the same engine on both sides (every perturbation rounded away): an even result
        result = play(iteration, plus_values, minus_values) if plus_values != minus_values else 0.0
        spsa.tell_result(result)
        if progress:
            progress(iteration, plus_values, minus_values, result)
        if save and save_every and (iteration + 1) % save_every == 0:
            save(iteration + 1)


def weights_text(spsa: Spsa, done: int, about: str) -> str:
    """The `weights load` file: the centre, rounded and clamped, one row per parameter."""
    mean = ", ".join(f"{p.name} {v:.2f}" for p, v in zip(spsa.params, spsa.recommendation()))
    lines = [f"# scripts/spsa: {done} iterations; {about}",
             f"# nevergrad's recommendation (the mean of the centres): {mean}"]
    for p, v in zip(spsa.params, spsa.centre_values()):
        lines.append(f"{p.name} {p.engine_value(v)}  # tuned {v:.2f}; start {p.start:g}, "
                     f"range {p.low:g}..{p.high:g}, c_end {p.c_end:g}")
    return "\n".join(lines) + "\n"


# --- games ---------------------------------------------------------------------------------------

class PairPlayer:
    """Two engines kept for the run, A for θ+ and B for θ-; plays colour-swapped game pairs
    with gipf-match's referee.  Also a Ray actor (--ray)."""

    def __init__(self, match_argv: list[str], openings: list) -> None:
        self.args = match.parse_args(match_argv)
        self.openings = openings
        self.seats = referee.make_seats(self.args)

    def play_pair(self, pair: int, settings: tuple[str, str]) -> float:
        """θ+'s points (0..2) in games 2 pair and 2 pair + 1, A White in the first."""
        for seat, setting in zip(self.seats, settings):
            seat.engine.ask(f"weights set {setting}")
        points = 0.0
        for white in (0, 1):
            played = referee.play_game(self.args, self.seats, white, 2 * pair + white,
                                          self.openings)
            if "| forfeit by" in played.record:  # an engine failed: no tuning signal
                raise EngineError(f"game {2 * pair + white + 1}: {played.record.split('| forfeit by')[1]}")
            points += played.white_score if white == 0 else 1 - played.white_score
        return points

    def close(self) -> None:
        for seat in self.seats:
            seat.close()


class Games:
    """play(iteration, plus, minus) for run(): --pairs pairs spread over the engine pairs
    (threads on this machine, or Ray actors)."""

    def __init__(self, args, params: list[Param]) -> None:
        self.args, self.params = args, params
        setup = "; ".join(filter(None, [args.setup, f"option nodes {args.nodes}" if args.nodes else ""]))
        argv = ["--game", args.game, "--a", args.engine, "--b", args.engine, "--a-setup", setup,
                "--b-setup", setup, "--movetime", str(args.movetime), "--gametime",
                str(args.gametime), "--increment", str(args.increment), "--seed", str(args.seed)]
        if args.allow_python_player:
            argv.append("--allow-python-player")
        if GAMES[args.game].has_openings:
            argv += ["--openings", "random"]
            openings = []
        else:
            openings = referee.random_prefixes(GAMES[args.game], args.iterations * args.pairs,
                                             args.opening_plies, args.seed)
        workers = min(args.concurrency, args.pairs)
        if args.ray:
            import ray

            actor = ray.remote(num_cpus=1)(PairPlayer)
            # Ray handles (ray types a method's .remote only under @ray.method), else PairPlayers
            self.players: list[Any] = [actor.remote(argv, openings) for _ in range(workers)]
        else:
            self.players = []
            for _ in range(workers):
                self.players.append(PairPlayer(argv, openings))
            self.pool = ThreadPoolExecutor(workers) if workers > 1 else None

    def settings(self, values: list[int]) -> str:
        return " ".join(f"{p.name} {v}" for p, v in zip(self.params, values))

    def __call__(self, iteration: int, plus: list[int], minus: list[int]) -> float:
        settings = (self.settings(plus), self.settings(minus))
        pairs = range(iteration * self.args.pairs, (iteration + 1) * self.args.pairs)
        n = len(self.players)
        if self.args.ray:
            import ray

            points = ray.get([self.players[p % n].play_pair.remote(p, settings) for p in pairs])
        elif self.pool:
            def share(k: int) -> list[float]:
                return [self.players[k].play_pair(p, settings) for p in pairs if p % n == k]
            points = [x for part in self.pool.map(share, range(n)) for x in part]
        else:
            points = [self.players[0].play_pair(p, settings) for p in pairs]
        return sum(2 * x - 2 for x in points)  # θ+'s points minus θ-'s

    def close(self) -> None:
        if self.args.ray:
            import ray

            ray.get([player.close.remote() for player in self.players])
            return
        if self.pool:
            self.pool.shutdown()
        for player in self.players:
            player.close()


# --- the script ------------------------------------------------------------------------------------

def parse_args(argv=None):
    parser = cli.parser("spsa", __doc__)
    parser.add_argument("rows", nargs="*", metavar="NAME:START:MIN:MAX:C_END",
                        help="a parameter to tune (see --params)")
    parser.add_argument("--params", type=Path, metavar="FILE",
                        help="more rows, one per line ('#' comments)")
    parser.add_argument("--game", choices=sorted(GAMES), required=True,
                        help="the game whose weights are tuned")
    parser.add_argument("--out", type=Path, required=True, help="the weights file to write")
    parser.add_argument("--iterations", type=int, default=100, help="SPSA iterations (default 100)")
    parser.add_argument("--pairs", type=int, default=1,
                        help="colour-swapped game pairs per iteration (default 1)")
    parser.add_argument("--r-end", type=float, default=0.002,
                        help="fishtest's learning rate at the last iteration (default 0.002)")
    parser.add_argument("--nodes", type=int, default=None,
                        help="nodes per move (the default: 20000 unless --movetime/--gametime)")
    parser.add_argument("--movetime", type=int, default=0, help="ms per move")
    parser.add_argument("--gametime", type=int, default=0, help="ms per side per game")
    parser.add_argument("--increment", type=int, default=0, help="ms added per move with --gametime")
    parser.add_argument("--engine", type=cli.command, default=DEFAULT_ENGINE,
                        help="command starting the engine (default: this package's engine, run by this Python)")
    parser.add_argument("--setup", default="", help="';'-separated commands for both engines first")
    parser.add_argument("--opening-plies", type=int, default=6,
                        help="random moves in each opening of a game without seeded layouts "
                             "(default 6)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the openings, the engines and δ (default 1)")
    parser.add_argument("--concurrency", type=int, default=1, help="game pairs played at once")
    parser.add_argument("--ray", action="store_true", help="play on Ray actors (pip extra "
                        "`cluster`; this machine, or the cluster RAY_ADDRESS names)")
    parser.add_argument("--save-every", type=int, default=10, metavar="N",
                        help="write --out every N iterations too (default 10; 0 = only at the end)")
    parser.add_argument("--allow-python-player", action="store_true", help=cli.ALLOW_PYTHON_HELP)
    args = parser.parse_args(argv)
    if args.nodes is None:
        args.nodes = 0 if args.movetime or args.gametime else 20000
    for name in ("iterations", "pairs", "concurrency"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if min(args.nodes, args.movetime, args.gametime, args.increment, args.save_every) < 0:
        parser.error("nodes, times and --save-every must not be negative")
    if not args.nodes and not args.movetime and not args.gametime:
        parser.error("give --nodes, --movetime or --gametime")
    if not 0 < args.r_end < 1:
        parser.error("--r-end is between 0 and 1")
    return args


def main(argv=None) -> int:
    return cli.guarded(_main, argv, "spsa")


def _main(argv=None) -> int:
    args = parse_args(argv)
    try:
        rows = list(args.rows) + (read_rows(args.params) if args.params else [])
        if not rows:
            raise ValueError("no parameters: give NAME:START:MIN:MAX:C_END rows or --params FILE")
        params = [parse_row(row, args.game) for row in rows]
        names = [p.name for p in params]
        if len(set(names)) < len(names):
            raise ValueError(f"a parameter is named twice: {' '.join(names)}")
    except ValueError as e:
        print(f"spsa: {e}", file=sys.stderr)
        return 1
    try:
        spsa = Spsa(params, args.iterations, args.r_end, args.seed)
    except ImportError:
        print("spsa: needs nevergrad (pip install 'gipf-engine[spsa]')", file=sys.stderr)
        return 1
    if args.ray:
        cli.ray_init("spsa", runtime_env={"env_vars": {"PYTHONPATH": str(REPO)}})
    limit = (f"nodes {args.nodes}" if args.nodes else f"gametime {args.gametime} ms"
             if args.gametime else f"movetime {args.movetime} ms")
    about = f"{args.game}, {args.pairs} game pair(s) each, {limit}, r_end {args.r_end:g}, seed {args.seed}"
    score = [0, 0, 0]  # iterations θ+ won, drew, lost
    started = time.monotonic()

    done = 0

    def progress(iteration, plus, minus, result):
        nonlocal done
        done = iteration + 1
        score[0 if result > 0 else 1 if result == 0 else 2] += 1
        centre = " ".join(f"{p.name.split('.', 1)[1]} {v:.1f}"
                          for p, v in zip(params, spsa.centre_values()))
        print(f"iteration {iteration + 1}/{args.iterations}: θ+ {plus} vs θ- {minus}: "
              f"{result:+g} (θ+ {score[0]}-{score[1]}-{score[2]}, "
              f"{time.monotonic() - started:.0f} s); centre {centre}", file=sys.stderr, flush=True)

    def save(done: int) -> None:
        cli.write_atomically(args.out, weights_text(spsa, done, about))

    save(0)  # a bad --out path fails now, not after the games
    games = None
    try:
        games = Games(args, params)
        run(spsa, args.iterations, games, progress, save, args.save_every)
        spsa.ask_pair()  # applies the last result to the centre
    except EngineError as e:
        print(f"spsa: {e}", file=sys.stderr)
        return 1
    except OSError as e:  # writing --out
        print(f"spsa: cannot write {args.out}: {e.strerror or e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"spsa: interrupted after {done} iterations", file=sys.stderr)
        save(done)
        return 130
    finally:
        if games is not None:
            games.close()
    save(done)
    print(f"spsa: {done} iterations; wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
