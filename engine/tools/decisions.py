"""Decision tests from exact endgame values: how often a fixed-node search gives a result away.

`build` takes the positions of gipf-selfplay files that have a given number of occupied
points, solves the position after every legal move with the core's exact solver, and keeps
those where the moves do not all lead to the same result: positions with a decision to get
right. It writes one JSON object a line,
  {"game": "dvonn", "position": "<position string>", "seed": <--seed>, "values": {"<move>":
   <exact final value, the mover's view (DVONN: the height margin; TZAAR: +1 or -1)>, ...}}
and continues an interrupted run where it stopped (the same arguments and --out; a line a
killed run left half written is cut first).

`score` searches every position of such a file at a fixed node count from an empty table, once
with the engine's own evaluation and once per --weights file, and counts the moves that give the
result away (a win or a draw the best move keeps) and the margin they lose. Each weights
file is compared with the first evaluator on the same positions: positions only one of the two
gets right, with the 95 % spread of that difference. A game replays its noise from the first
move on; a position with exact values measures one decision, so a few thousand of them
separate evaluations that need thousands of games to tell apart.

Examples:
  gipf-decisions build --game dvonn --points 20-24 --count 2500 --out dvonn-20-24.jsonl sp-*.jsonl
  gipf-decisions score dvonn-20-24.jsonl --nodes 4000 --weights tuned.txt
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Optional

from engine import core
from engine.games import GAMES
from engine.tools import cli
from engine.tools.tune import MAX_DATA_BYTES


def occupied(game) -> int:
    return sum(1 for cell in game.cells if cell)


def _rows(path: str) -> list[dict]:
    """The JSON objects of a file, one a line; ToolError on a file or line it cannot read."""
    text = cli.read_input(path, MAX_DATA_BYTES)
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise cli.ToolError(f"{path}: line {number} is not JSON ({e.msg})") from None
        if not isinstance(row, dict) or not isinstance(row.get("position"), str):
            raise cli.ToolError(f"{path}: line {number} has no position")
        rows.append(row)
    return rows


def _from_position(name: str, text: str, where: str):
    try:
        return GAMES[name].from_position(text)
    except ValueError as e:
        raise cli.ToolError(f"{where}: {e}") from None


def candidates(game_name: str, low: int, high: int, seed: int, paths: list[str]) -> list[str]:
    """The distinct positions of the files, of this game, past any placement phase (the solver
    plays moves, not placements), with moves to choose from and low to high occupied points, in
    a seeded order."""
    found = set()
    for path in paths:
        for number, row in enumerate(_rows(path), 1):
            if row.get("game", game_name) != game_name:
                continue
            game = _from_position(game_name, row["position"], f"{path}: line {number}")
            if not game.over and game.phase != "placement" and low <= occupied(game) <= high \
                    and len(game.legal_moves()) > 1:
                found.add(game.position())
    ordered = sorted(found)
    random.Random(seed).shuffle(ordered)
    return ordered


def exact_values(job: tuple[str, str, float]) -> Optional[dict[str, int]]:
    """Every legal move's exact final value from the mover's view; None if the solver does not
    finish one of them within the budget."""
    game_name, position, solve_ms = job
    game = GAMES[game_name].from_position(position)
    values = {}
    mover = game.side
    for move in game.legal_moves():
        game.push(move)
        solution = core.solve(game_name, game.cells, game.side, core.phase(game), time_ms=solve_ms)
        mover_view = solution.value if game.side == mover else -solution.value
        game.pop()
        if not solution.solved:
            return None
        values[game.move_text(move)] = mover_view
    return values


def result_class(value: int) -> int:
    return (value > 0) - (value < 0)


def has_decision(values: dict[str, int]) -> bool:
    return len({result_class(v) for v in values.values()}) > 1


def drop_unfinished_line(path: str) -> None:
    """Cut a line a killed run left half written from the end of the file."""
    size = os.path.getsize(path)
    with open(path, "rb+") as f:
        end = size
        while end > 0:
            start = max(0, end - 65536)
            f.seek(start)
            chunk = f.read(end - start)
            if end == size and chunk.endswith(b"\n"):
                return
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                f.truncate(start + cut + 1)
                return
            end = start
        f.truncate(0)


def build(game_name: str, low: int, high: int, count: int, seed: int, solve_ms: float,
          workers: int, out: str, paths: list[str]) -> int:
    """Write up to `count` positions with a decision to `out`, after those it holds already."""
    order = candidates(game_name, low, high, seed, paths)
    if os.path.isfile(out):
        drop_unfinished_line(out)
    written = _rows(out) if os.path.exists(out) else []
    done = [row["position"] for row in written]
    if done:
        place = {position: i for i, position in enumerate(order)}
        if done[-1] not in place or any(row.get("seed") != seed for row in written):
            raise cli.ToolError(f"{out} was not written with these files and --seed; "
                                "give another --out to start afresh")
        order = order[place[done[-1]] + 1:]
    kept = len(done)
    if kept >= count:
        return kept
    jobs = [(game_name, position, solve_ms) for position in order]
    with open(out, "a", encoding="utf-8") as f, ProcessPoolExecutor(workers) as pool:
        try:
            for (_, position, _), values in zip(jobs, pool.map(exact_values, jobs, chunksize=2)):
                if values is None or not has_decision(values):
                    continue
                f.write(json.dumps({"game": game_name, "position": position, "seed": seed,
                                    "values": values}) + "\n")
                f.flush()  # an interrupted run keeps every position it finished
                kept += 1
                if kept >= count:
                    break
        except BrokenProcessPool:
            raise cli.ToolError("a solver process ended unexpectedly; run again to continue") from None
        finally:
            pool.shutdown(cancel_futures=True)
    return kept


@dataclass(frozen=True)
class Outcome:
    gave_away: bool  # a worse result than the best move's
    margin_lost: int


_search_nodes = 0


def _start_worker(game_name: str, weights: str, path: str, nodes: int) -> None:
    global _search_nodes
    _search_nodes = nodes
    if weights:
        cli.apply_weights(weights, game_name, path)


def decide(item: tuple[str, str, dict[str, int]]) -> Outcome:
    game_name, position, values = item
    game = GAMES[game_name].from_position(position)
    core.clear_hash()
    found = core.search(game_name, game.cells, game.side, core.phase(game), nodes=_search_nodes, seed=1)
    chosen = values[game.move_text(core.to_move(game, found.moves))]
    best = max(values.values())
    return Outcome(result_class(chosen) < result_class(best), best - chosen)


def read_bench(path: str) -> list[tuple[str, str, dict[str, int]]]:
    items = []
    for number, row in enumerate(_rows(path), 1):
        where = f"{path}: line {number}"
        name, values = str(row.get("game")), row.get("values")
        if name not in GAMES or not isinstance(values, dict) or not values:
            raise cli.ToolError(f"{where}: not a gipf-decisions build line (game and values)")
        game = _from_position(name, row["position"], where)
        if sorted(values) != sorted(game.move_text(m) for m in game.legal_moves()) or \
                not all(type(v) is int for v in values.values()):
            raise cli.ToolError(f"{where}: its values are not one whole number per legal move")
        items.append((name, row["position"], values))
    return items


def score(items, nodes: int, evaluators: list[tuple[str, str]], workers: int, game_name: str):
    """(evaluator name, outcomes) per evaluator: (name, weights text), "" for the engine's own."""
    for name, weights in evaluators:
        with ProcessPoolExecutor(workers, initializer=_start_worker,
                                 initargs=(game_name, weights, name, nodes)) as pool:
            try:
                yield name, list(pool.map(decide, items, chunksize=8))
            except BrokenProcessPool:
                raise cli.ToolError("a search process ended unexpectedly") from None


def summary(name: str, outcomes: list[Outcome], first: Optional[list[Outcome]]) -> str:
    gave, lost = sum(o.gave_away for o in outcomes), sum(o.margin_lost for o in outcomes)
    line = (f"{name}: {len(outcomes)} positions, result given away {gave} "
            f"({100 * gave / len(outcomes):.2f} %), margin lost {lost / len(outcomes):.2f}")
    if first is not None:
        better = sum(1 for a, b in zip(outcomes, first) if b.gave_away and not a.gave_away)
        worse = sum(1 for a, b in zip(outcomes, first) if a.gave_away and not b.gave_away)
        line += (f"; against the first {better - worse:+d} ± {1.96 * math.sqrt(better + worse):.0f} "
                 f"({better} better, {worse} worse)")
    return line


def points_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        low_n, high_n = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not N or LOW-HIGH") from None
    if not 0 < low_n <= high_n:
        raise argparse.ArgumentTypeError(f"{text!r}: 0 < LOW <= HIGH")
    return low_n, high_n


def main(argv=None) -> int:
    return cli.guarded(run, argv, "decisions")


def run(argv=None) -> int:
    ap = cli.parser("decisions", __doc__)
    commands = ap.add_subparsers(dest="command", required=True)
    b = commands.add_parser("build", help="positions with exact values from self-play files")
    b.add_argument("files", nargs="+", metavar="FILE", help="gipf-selfplay output files")
    b.add_argument("--game", choices=sorted(GAMES), default="dvonn", help="the game (default dvonn)")
    b.add_argument("--points", type=points_range, required=True, metavar="LOW-HIGH",
                   help="occupied points (DVONN: stacks) a position has")
    b.add_argument("--count", type=cli.positive, default=1000, help="positions to keep (default 1000)")
    b.add_argument("--seed", type=int, default=1, help="the order positions are tried in (default 1)")
    b.add_argument("--solve-ms", type=cli.positive, default=1000,
                   help="the solver's budget for each move; a position with a move it does not "
                        "solve in time is left out (default 1000)")
    b.add_argument("--workers", type=cli.positive, default=os.cpu_count() or 1, help="processes (default: one a core)")
    b.add_argument("--out", required=True, help="the file to write or continue")
    s = commands.add_parser("score", help="how often fixed-node searches give a result away")
    s.add_argument("bench", help="a file gipf-decisions build wrote")
    s.add_argument("--nodes", type=cli.positive, default=20000, help="nodes a search (default 20000)")
    s.add_argument("--weights", action="append", default=[], metavar="FILE",
                   help="a weights file (`weights load`'s format) to compare; repeatable")
    s.add_argument("--workers", type=cli.positive, default=os.cpu_count() or 1, help="processes (default: one a core)")
    a = ap.parse_args(argv)
    if not core.AVAILABLE:
        print(f"decisions: the compiled core is unavailable: {core.UNAVAILABLE_REASON}", file=sys.stderr)
        return 1
    if a.command == "build":
        cli.check_writable(a.out)
        low, high = a.points
        kept = build(a.game, low, high, a.count, a.seed, a.solve_ms, a.workers, a.out, a.files)
        print(f"decisions: {kept} positions in {a.out}", file=sys.stderr)
        return 0
    items = read_bench(a.bench)
    if not items:
        raise cli.ToolError(f"{a.bench}: no positions")
    games = {name for name, _, _ in items}
    if len(games) > 1:
        raise cli.ToolError(f"{a.bench}: positions of more than one game")
    game_name = games.pop()
    evaluators = [("the engine's evaluation", "")] + [(path, cli.weights_text(path)) for path in a.weights]
    for path, text in evaluators[1:]:
        cli.apply_weights(text, game_name, path)  # a bad name fails now, before any search
    from engine import evaluation
    evaluation.reset()
    first = None
    for name, outcomes in score(items, a.nodes, evaluators, a.workers, game_name):
        print(summary(name, outcomes, first), flush=True)
        first = first or outcomes
    return 0


if __name__ == "__main__":
    sys.exit(main())
