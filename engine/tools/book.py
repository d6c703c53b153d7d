"""Build a game's opening book (engine/book.py) from self-play, reproducibly.

Every game starts from the empty board; the compiled core plays both sides at a fixed node
count per move, one thread, its hash table cleared at the start of each game.  For the first
--plies moves it explores: a multi-PV search gives the --candidates best moves and one of
them is drawn uniformly by a random.Random seeded with seed * 1000003 + game number (the
core's own tie-break seed is seed * 7919 + game number); later moves are the search's.  Each
explored (position, move) is pooled by the board's symmetries (canonical orientation) and
scores the game's result for its mover: 1 win, 1/2 draw, 0 loss.

The book keeps every position reached in at least --min-games games, with the move of the
best lower confidence bound mean - z * 0.5 / sqrt(n) (n the move's games; 0.5 bounds the
standard deviation of a result in [0, 1]); ties go to the move with more games, then the
smaller text.  There is no fallback to the search's choice: a book position plays its
best-bounded move.  Same arguments and seed => the same bytes (with or without --ray).
Output lines: `key move games score` (the move's games and mean result), after `#` lines
that name the command.

Examples:
  gipf-book --out engine/data/dvonn-book.txt        # the shipped book (the defaults)
  gipf-book --games 20000 --ray --out dvonn-book.txt     # on the cluster RAY_ADDRESS names
"""
from __future__ import annotations

import math
import random
import sys
import time
from collections import defaultdict

from engine import book, core
from engine.clock import Clock
from engine.games import GAMES, SPECS
from engine.protocol.options import Options
from engine.ray_tasks import ray_map
from engine.search import Watch, think
from engine.tools import cli

BOOK_GAMES = sorted(name for name, spec in SPECS.items() if spec.book_file)



def explore(game, options: Options, candidates: int, rng: random.Random):
    """One of the `candidates` best moves, drawn uniformly; moves that are the same up to the
    board's symmetries count once (a symmetric position's search asks for more lines)."""
    key = book.canonical(game)
    images = sum(1 for perm in game.symmetries if key and game.book_key(perm) == key[0])
    lines = min(core.MAX_MULTIPV, candidates * max(1, images))
    thought = think(game, options, Clock(), watch=Watch(multipv=lines))
    distinct: dict[tuple[str, str] | None, object] = {}   # canonical move -> the game's move
    for _, pv in thought.lines:
        if pv and len(distinct) < candidates:
            move = game.check_move(game.parse_move(pv[0]))
            distinct.setdefault(book.canonical_move(game, move), move)
    return rng.choice(list(distinct.values())) if distinct else thought.move


def play_game(game_name: str, index: int, seed: int, nodes: int, plies: int,
              candidates: int) -> tuple[float, list[tuple[str, str, int]]]:
    """One self-play game: White's result and its explored (key, move, mover) triples."""
    game = GAMES[game_name].start()
    rng = random.Random(seed * 1_000_003 + index)
    options = Options(nodes=nodes, info="off", seed=seed * 7919 + index)
    core.clear_hash()
    explored = []
    while not game.over:
        if game.ply < plies:
            move = explore(game, options, candidates, rng)
            pooled = book.canonical_move(game, move)
            if pooled is not None:
                explored.append((*pooled, game.side))
        else:
            move = think(game, options, Clock()).move
        game.push(move)
    return game.white_points(), explored


def run_local(args):
    for index in range(args.games):
        yield play_game(args.game, index, args.seed, args.nodes, args.plies, args.candidates)


def run_ray(args):
    cli.ray_init("book", num_cpus=args.ray_cpus or None)
    calls = [(args.game, i, args.seed, args.nodes, args.plies, args.candidates) for i in range(args.games)]
    return ray_map(play_game, calls, args.ray_cpus)


def lower_bound(points: float, games: int, z: float) -> float:
    return points / games - z * 0.5 / math.sqrt(games)


def make_book(stats: dict, min_games: int, z: float) -> list[str]:
    """Entry lines, by pieces on the board then key: the best-bounded move of each position
    reached at least min_games times.  stats[(key, move)] = [games, points]."""
    by_position = defaultdict(list)
    for (key, move), (games, points) in stats.items():
        by_position[key].append((move, games, points))
    lines = []
    for key in sorted(by_position, key=lambda k: (len(k) - k.count("."), k)):
        moves = by_position[key]
        if sum(games for _, games, _ in moves) < min_games:
            continue
        move, games, points = max(moves, key=lambda m: (lower_bound(m[2], m[1], z), m[1],
                                                        [-ord(c) for c in m[0]]))
        lines.append(book.Entry(move, games, points / games).line(key))
    return lines


def command_line(args) -> str:
    """The arguments that decide the book's content (not where it goes or how it runs)."""
    return (f"scripts/book --game {args.game} --games {args.games} --nodes {args.nodes} "
            f"--seed {args.seed} --plies {args.plies} --candidates {args.candidates} "
            f"--min-games {args.min_games} --z {args.z:g}")


def parse_args(argv=None):
    parser = cli.parser("book", __doc__)
    parser.add_argument("--game", choices=BOOK_GAMES, default=BOOK_GAMES[0],
                        help=f"the game (default {BOOK_GAMES[0]})")
    parser.add_argument("--games", type=int, default=500, help="self-play games (default 500)")
    parser.add_argument("--nodes", type=int, default=50000, help="nodes per move (default 50000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the exploration and the core (default 1)")
    parser.add_argument("--plies", type=int, default=6,
                        help="moves explored among the best candidates (default 6)")
    parser.add_argument("--candidates", type=int, default=3,
                        help="best moves an explored move is drawn from (default 3)")
    parser.add_argument("--min-games", type=int, default=20,
                        help="games a position needs to enter the book (default 20)")
    parser.add_argument("--z", type=float, default=1.645,
                        help="width of the lower confidence bound in standard errors (default 1.645)")
    parser.add_argument("--out", help="file to write (default stdout)")
    parser.add_argument("--ray", action="store_true", help="run the games as Ray tasks")
    parser.add_argument("--ray-cpus", type=int, default=0, help="CPUs for a local Ray (default all)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.nodes < 1 or args.min_games < 1:
        parser.error("--games, --nodes and --min-games must be positive")
    if not 1 <= args.candidates <= core.MAX_MULTIPV:
        parser.error(f"--candidates is 1 to {core.MAX_MULTIPV}")
    if not 0 <= args.plies <= 40:
        parser.error("--plies is 0 to 40")
    if not args.z >= 0 or math.isinf(args.z):
        parser.error("--z is a number of standard errors, 0 or more")
    return args


def main(argv=None) -> int:
    return cli.guarded(run, argv, "book")


def run(argv=None) -> int:
    args = parse_args(argv)
    if not core.AVAILABLE:
        print(f"book: the compiled core is unavailable: {core.UNAVAILABLE_REASON}", file=sys.stderr)
        return 1
    if args.out:
        cli.check_writable(args.out)  # before the games, not after them
    started = time.monotonic()
    stats: dict = defaultdict(lambda: [0, 0.0])
    for done, (white, explored) in enumerate(run_ray(args) if args.ray else run_local(args), 1):
        for key, move, side in explored:
            entry = stats[(key, move)]
            entry[0] += 1
            entry[1] += white if side == 0 else 1 - white
        if done % 100 == 0:
            print(f"book: {done}/{args.games} games", file=sys.stderr, flush=True)
    lines = make_book(stats, args.min_games, args.z)
    text = "".join(line + "\n" for line in [
        f"# {GAMES[args.game].title} opening book: key move games score (engine/book.py)",
        f"# {command_line(args)}", *lines])
    if args.out:
        cli.write_atomically(args.out, text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    print(f"book: {args.games} games, {len(lines)} positions, "
          f"{time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
