"""Where the clock goes: think time per ply range and engine, from `gipf-match --think-times`.

For each engine (A, B) and each range of plies (game move numbers; DVONN plies 1-49 are the
placements) prints the moves thought, the median and the 90th percentile think, the mean
time per game spent in that range with its share of the engine's whole-game time, and the
median depth the searches completed (over the moves whose engine reported one; `-` if none).

Example:
  gipf-match --game dvonn --gametime 5000 --random-openings 20 --think-times thinks.csv ...
  gipf-clock-profile thinks.csv --bucket 10
"""
from __future__ import annotations

import csv
import io
import sys
from collections import defaultdict
from pathlib import Path
from statistics import median, quantiles
from typing import Optional

from engine.bounded_read import read_text
from engine.tools import cli

MAX_THINKS_BYTES = 256 << 20
FIELDS = ["game", "engine", "colour", "ply", "ms", "move", "depth"]
FIELDS_WITHOUT_DEPTH = FIELDS[:-1]  # files written before the depth column


def read_thinks(path: Path) -> list[tuple[int, str, int, float, Optional[int]]]:
    """(game, engine, ply, ms, depth or None) per line; ValueError naming the line if one is
    malformed."""
    rows = []
    text = read_text(str(path), MAX_THINKS_BYTES)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
    except csv.Error as e:
        raise ValueError(f"{path}:1: bad line ({e})") from None
    if header not in (FIELDS, FIELDS_WITHOUT_DEPTH):
        raise ValueError(f"{path}: not a --think-times file (its first line is not "
                         f"{','.join(FIELDS)})")
    for number, row in enumerate(reader, start=2):
        try:
            if len(row) != len(header):
                raise ValueError
            game, engine, _colour, ply, ms = row[:5]
            depth = row[6] if len(row) > 6 else ""
            rows.append((int(game), engine, int(ply), float(ms), int(depth) if depth else None))
        except (ValueError, csv.Error):
            raise ValueError(f"{path}:{number}: bad line {','.join(row)!r}") from None
    return rows


def p90(values: list[float]) -> float:
    return quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]


def profile(rows, bucket: int) -> str:
    """The table: one line per engine and ply range."""
    games = defaultdict(set)
    times = defaultdict(list)          # (engine, range start) -> think times
    depths = defaultdict(list)         # (engine, range start) -> the depths reported
    for game, engine, ply, ms, depth in rows:
        games[engine].add(game)
        key = engine, (ply - 1) // bucket * bucket + 1
        times[key].append(ms)
        if depth is not None:
            depths[key].append(depth)
    lines = [f"{'engine':6} {'plies':>7} {'moves':>6} {'median ms':>10} {'p90 ms':>8} "
             f"{'ms/game':>8} {'share':>6} {'depth':>5}"]
    for engine in sorted(games):
        total = sum(ms for (e, _), values in times.items() if e == engine for ms in values)
        n_games = len(games[engine])
        for (e, start) in sorted(k for k in times if k[0] == engine):
            values = times[e, start]
            spent = sum(values)
            reached = depths[e, start]
            depth = f"{median(reached):g}" if reached else "-"
            lines.append(f"{e:6} {f'{start}-{start + bucket - 1}':>7} {len(values):6d} "
                         f"{median(values):10.1f} {p90(values):8.1f} {spent / n_games:8.0f} "
                         f"{100 * spent / max(total, 1e-9):5.1f}% {depth:>5}")
        lines.append(f"{engine:6} {'all':>7} {sum(len(v) for (e, _), v in times.items() if e == engine):6d}"
                     f" {'':10} {'':8} {total / n_games:8.0f} (over {n_games} games)")
    return "\n".join(lines)


def main(argv=None) -> int:
    return cli.guarded(run, argv, "clock_profile")


def run(argv=None) -> int:
    parser = cli.parser("clock_profile", __doc__)
    parser.add_argument("thinks", type=Path, help="CSV written by gipf-match --think-times")
    parser.add_argument("--bucket", type=int, default=10, help="plies per range (default 10)")
    args = parser.parse_args(argv)
    if args.bucket < 1:
        parser.error("--bucket must be at least 1")
    try:
        rows = read_thinks(args.thinks)
    except ValueError as e:  # InputError too
        print(f"clock_profile: {e}", file=sys.stderr)
        return 1
    if not rows:
        print(f"clock_profile: {args.thinks}: no moves", file=sys.stderr)
        return 1
    print(profile(rows, args.bucket))
    return 0


if __name__ == "__main__":
    sys.exit(main())
