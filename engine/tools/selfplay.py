"""Self-play data for tuning: positions with the search score and the game's final result.

Each game starts from a diversified opening (a game's seeded random layout where it has
them, as TZAAR; otherwise K random moves, as DVONN's first placements) and the compiled core
plays both sides at a fixed node count per move, in this process.  One JSON object per searched
position goes to --out (or stdout):
  {"game": "dvonn", "position": "<position string>", "side": 0|1, "score": <search score,
   side to act's view>, "result": <1 / 0.5 / 0 for White>, "index": <game number>}
Forced moves are played but not written.  `--ray` runs the games as Ray tasks (pip extra
`cluster`): on this machine, or on the cluster RAY_ADDRESS names.

Examples:
  gipf-selfplay --game dvonn --games 200 --nodes 20000 --out dvonn.jsonl
  gipf-selfplay --game tzaar --games 100 --nodes 50000 --ray --out tzaar.jsonl
  gipf-tune --game dvonn dvonn.jsonl --out dvonn-weights.txt
"""
from __future__ import annotations

import contextlib
import json
import random
import sys

from engine import core
from engine.clock import Clock
from engine.games import GAMES
from engine.protocol.options import Options
from engine.ray_tasks import ray_map
from engine.search import think
from engine.tools import cli

RANDOM_PLIES = 6  # opening moves played at random, for games without seeded layouts


def start(game_name: str, seed: int, plies: int, position: str = ""):
    """A diversified start: the position given, else the game's seeded random layout if it has
    them; then `plies` random moves."""
    cls = GAMES[game_name]
    game = cls.from_position(position) if position else cls.start(seed if cls.has_openings else None)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.over:
            break
        game.push(rng.choice(game.legal_moves()))
    return game



def sideline_rows(game, played, options: Options, rng: random.Random, count: int, index: int) -> list[dict]:
    """Up to `count` positions after a random move other than the one played, each with its own
    search score and no result (the game never reached them)."""
    others = [m for m in game.legal_moves() if m != played]
    rows = []
    for move in rng.sample(others, min(count, len(others))):
        child = type(game).from_position(game.position())
        child.push(move)
        if child.over:
            continue
        thought = think(child, options, Clock())
        if thought.score is not None:
            rows.append({"game": game.name, "position": child.position(), "side": child.side,
                         "score": thought.score, "index": index, "result": None, "sideline": True})
    return rows


def play_game(game_name: str, index: int, seed: int, nodes: int, plies: int,
              weights: str = "", position: str = "", sidelines: int = 0,
              sideline_stacks: int = 0) -> list[dict]:
    """One self-play game; its searched positions with the final result.  weights: the text
    of a weights file to load first (read once by the caller: a Ray task may run elsewhere).
    With sidelines, each stacking position of at most sideline_stacks stacks also gives that many
    positions after other moves."""
    if weights:
        cli.apply_weights(weights, game_name)
    game = start(game_name, seed * 100_003 + index, plies, position)
    options = Options(nodes=nodes, info="off", seed=seed * 7919 + index)
    rng = random.Random(seed * 31 + index)
    rows, side_rows = [], []
    while not game.over:
        position, side = game.position(), game.side
        thought = think(game, options, Clock())
        if thought.score is not None:
            rows.append({"game": game_name, "position": position, "side": side,
                         "score": thought.score, "index": index})
            if sidelines and game.phase == "movement" and \
                    sum(1 for cell in game.cells if cell) <= sideline_stacks:
                side_rows += sideline_rows(game, thought.move, options, rng, sidelines, index)
        game.push(thought.move)
    result = game.white_points()
    for row in rows:
        row["result"] = result
    return rows + side_rows


def run_local(args, weights: str):
    for index in range(args.games):
        yield play_game(args.game, index, args.seed, args.nodes, args.opening_plies, weights,
                        args.starts[index % len(args.starts)] if args.starts else "",
                        args.sidelines, args.sideline_stacks)


def run_ray(args, weights: str):
    cli.ray_init("selfplay", num_cpus=args.ray_cpus or None)
    calls = [(args.game, i, args.seed, args.nodes, args.opening_plies, weights) for i in range(args.games)]
    return ray_map(play_game, calls, args.ray_cpus)


def parse_args(argv=None):
    parser = cli.parser("selfplay", __doc__)
    parser.add_argument("--game", choices=sorted(GAMES), required=True, help="the game to play")
    parser.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    parser.add_argument("--nodes", type=int, default=20000, help="nodes per move (default 20000)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the openings and of the core's tie-breaks (default 1)")
    parser.add_argument("--opening-plies", type=int, default=None,
                        help=f"random moves before the engine plays (default {RANDOM_PLIES}, "
                        "none for a game with seeded random layouts)")
    parser.add_argument("--weights", default="", help="weights file the engine loads first")
    parser.add_argument("--out", help="file to write (default stdout)")
    parser.add_argument("--network", help="DVONN network file the engine loads first (weights load)")
    parser.add_argument("--starts", help="file of start positions, one a line (game i starts at line i)")
    parser.add_argument("--sidelines", type=int, default=0,
                        help="positions after other random moves searched at each stacking position")
    parser.add_argument("--sideline-stacks", type=int, default=49, help="only at most this many stacks")
    parser.add_argument("--ray", action="store_true", help="run the games as Ray tasks")
    parser.add_argument("--ray-cpus", type=int, default=0, help="CPUs for a local Ray (default all)")
    args = parser.parse_args(argv)
    args.starts = [line.strip() for line in open(args.starts)] if args.starts else []
    if args.games < 1 or args.nodes < 1:
        parser.error("--games and --nodes must be positive")
    if args.opening_plies is None:
        args.opening_plies = 0 if GAMES[args.game].has_openings else RANDOM_PLIES
    if not 0 <= args.opening_plies <= 40:
        parser.error("--opening-plies is 0 to 40")
    return args


def main(argv=None) -> int:
    return cli.guarded(run, argv, "selfplay")


def run(argv=None) -> int:
    args = parse_args(argv)
    if not core.AVAILABLE:
        print(f"selfplay: the compiled core is unavailable: {core.UNAVAILABLE_REASON}", file=sys.stderr)
        return 1
    weights = cli.weights_text(args.weights) if args.weights else ""
    if args.network:
        from engine import network
        network.load(args.network)
    if weights:
        cli.apply_weights(weights, args.game, args.weights)  # a bad name fails now, not in a game
    with (cli.atomic_output(args.out) if args.out else contextlib.nullcontext(sys.stdout)) as out:
        games = positions = 0
        for rows in (run_ray(args, weights) if args.ray else run_local(args, weights)):
            for row in rows:
                out.write(json.dumps(row) + "\n")
            out.flush()
            games += 1
            positions += len(rows)
    print(f"selfplay: {games} games, {positions} positions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
