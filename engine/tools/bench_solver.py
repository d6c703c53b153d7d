"""How far from the end the exact endgame solver (core.solve) finishes, on real games.

For each finished game record of the game (in name order, those that reach the natural end)
in --records (by default the example records that ship with the engine; in a folder that has
the subfolder engine/tools/bench_data.py names for each game, such as DVONN's
dvonn-boardspace or TZAAR's littlegolem, that subfolder), walk
back from the end one move at a time (DVONN: a stack move or pass; TZAAR: a whole
turn), solving each position from an empty solver table within --time-ms, and
report the earliest move before the end solved within the budget (the walk stops
at the first position that is not; positions with one legal move are skipped, the
search does not try to prove those).  Prints one line per game and the median.
With --search, the same walk for the alpha-beta search (core.search, empty table,
same time): how far out it proves the result, for comparison.
Usage: gipf-bench-solver [--game dvonn|tzaar|both] [--games 20] [--time-ms 1000]
                         [--search] [--records DIR]
"""
from __future__ import annotations

import os
import statistics
import sys

from engine import core
from engine.bounded_read import InputError, read_bytes
from engine.examples import EXAMPLES
from engine.games import SPECS
from engine.records import MAX_RECORD_BYTES
from engine.records.formats import RecordError, read_record, replay
from engine.tools import cli
from engine.tools.bench_data import SOLVER_RECORDS


def record_games() -> dict:
    """name -> where its finished records are and what one move is called (bench_data.py), per registered game."""
    return {name: found for name, found in SOLVER_RECORDS.items() if name in SPECS}


def finished_games(records: str, game: str, limit: int):
    """(name, rules objects from the first movement position to the end) per finished game."""
    folder = os.path.join(records, record_games()[game].folder)
    if not os.path.isdir(folder):
        folder = records
    try:
        names = sorted(os.listdir(folder))
    except OSError as e:
        raise cli.ToolError(f"cannot list {folder}: {e.strerror or e}") from None
    found = 0
    for name in names:
        if found >= limit:
            return
        try:
            record = read_record(read_bytes(os.path.join(folder, name), MAX_RECORD_BYTES))
            if record.game != game:
                continue
            end = replay(record)
        except (InputError, RecordError):
            continue
        if not end.over or end.result() is None:
            continue  # resigned or unfinished: no natural end to walk back from
        found += 1
        yield name, record


def solve(game, time_ms: float) -> tuple[bool, float]:
    solution = core.solve(game.name, game.cells, game.side, core.phase(game), time_ms=time_ms)
    return solution.solved, solution.time_ms


def search(game, time_ms: float) -> tuple[bool, float]:
    result = core.search(game.name, game.cells, game.side, core.phase(game), time_ms=time_ms)
    return result.proven, result.time_ms


def earliest_solved(record, time_ms: float, attempt=solve):
    """(moves before the end solved, stacks then, whether game.endgame_small said so, ms)."""
    total = len(record.moves)
    best: tuple[int, int | None, bool | None, float] = (0, None, None, 0.0)
    for back in range(1, total + 1):
        game = replay(record, total - back)
        if core.phase(game) == 0 and game.phase == "placement":
            break
        if len(game.legal_moves()) == 1:
            continue
        core.clear_hash()  # each position from an empty table: no help from the later ones
        solved, ms = attempt(game, time_ms)
        if not solved:
            break
        best = (back, sum(1 for s in game.cells if s), game.endgame_small(), ms)
    return best


def main(argv=None) -> int:
    return cli.guarded(run, argv, "bench_solver")


def run(argv=None) -> int:
    ap = cli.parser("bench_solver", __doc__)
    games = record_games()
    ap.add_argument("--game", choices=(*games, "both"), default="both",
                    help="the records of which game (default both)")
    ap.add_argument("--games", type=int, default=20, help="records per game (default 20)")
    ap.add_argument("--time-ms", type=float, default=1000, help="budget per position (default 1000)")
    ap.add_argument("--search", action="store_true",
                    help="walk with the alpha-beta search instead of the solver")
    ap.add_argument("--records", default=str(EXAMPLES), metavar="DIR",
                    help="a folder of game records (default: the shipped examples, "
                         "gipf-engine --examples)")
    a = ap.parse_args(argv)
    if not core.AVAILABLE:
        print(f"bench_solver: the compiled core is unavailable: {core.UNAVAILABLE_REASON}", file=sys.stderr)
        return 1
    if not os.path.isdir(a.records):
        print(f"bench_solver: no records folder {a.records!r} (--records)", file=sys.stderr)
        return 1
    for game in (tuple(games) if a.game == "both" else (a.game,)):
        unit = games[game].unit
        found = []
        for name, record in finished_games(a.records, game, a.games):
            back, stacks, small, ms = earliest_solved(record, a.time_ms, search if a.search else solve)
            found.append(back)
            print(f"{game} {name}: solved {back} {unit} before the end "
                  f"(stacks {stacks}, endgame_small {small}, {ms:.0f} ms)", flush=True)
        if found:
            what = "proven by the search" if a.search else "solved"
            print(f"{game}: median {statistics.median(found)} {unit} before the end {what} "
                  f"within {a.time_ms:.0f} ms over {len(found)} games (min {min(found)}, max {max(found)})",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
