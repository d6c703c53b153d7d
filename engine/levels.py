"""Strength levels (`option level 1..20`, `option elo`): weaker play a person can beat.

Level 20 is full strength: nothing changes.  Below it a level is a search budget
(a depth or node limit, far below what full strength spends) and a weighted
choice among the core's multi-PV candidates: candidate i, scored s_i against the
best score b, is chosen with weight exp((s_i - b) / T), T the level's
temperature.  A proven win outweighs every unproven line, so a level that sees a
win plays it.  The draw is SplitMix64 seeded with `option seed` and the position,
so a game repeats move for move under the same seed.

The Elo figures are measured (docs/levels.md gives the matches and the command
that reruns each): each level's Elo relative to full strength, which is 0.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

from . import core
from .splitmix64 import SplitMix64

FULL = 20


@dataclass(frozen=True)
class Level:
    depth: int          # iterations (plies) at most; 0: the node budget alone
    nodes: int          # node budget (the core counts in steps of 1024); 0: the depth alone
    multipv: int        # candidates the choice is made among (at most core.MAX_MULTIPV)
    temperature: float  # score units; larger: worse candidates more often
    elo: int            # measured, relative to full strength


# Depth 2 at least: in TZAAR a ply is one action, and a candidate needs its whole turn.
# Elo: DVONN matches of 2026-12-01, each level against the next and level 19 against full
# strength at 1,000,000 nodes per move, chained down from full strength (docs/levels.md).
LEVELS: dict[int, Level] = {
    1: Level(2, 0, 10, 1000.0, -2135),
    2: Level(2, 0, 10, 500.0, -2093),
    3: Level(2, 0, 10, 250.0, -1933),
    4: Level(2, 0, 10, 165.0, -1842),
    5: Level(2, 0, 10, 110.0, -1719),
    6: Level(2, 0, 10, 75.0, -1610),
    7: Level(2, 0, 10, 50.0, -1502),
    8: Level(2, 0, 10, 33.0, -1338),
    9: Level(2, 0, 10, 22.0, -1240),
    10: Level(3, 0, 8, 25.0, -1091),
    11: Level(3, 0, 6, 15.0, -1015),
    12: Level(4, 0, 6, 20.0, -892),
    13: Level(4, 0, 5, 14.0, -805),
    14: Level(0, 6144, 4, 10.0, -737),
    15: Level(0, 10240, 4, 8.0, -642),
    16: Level(0, 16384, 3, 7.0, -542),
    17: Level(0, 69632, 3, 4.0, -355),
    18: Level(0, 112640, 2, 3.0, -244),
    19: Level(0, 290816, 2, 2.0, -127),
}
ELO = {**{n: level.elo for n, level in LEVELS.items()}, FULL: 0}
ELO_RANGE = (ELO[1], ELO[FULL])  # what `option elo` accepts: level 1's Elo to full strength's


def nearest_level(elo: int) -> int:
    """The level whose measured Elo is nearest (the stronger one on a tie)."""
    return min(ELO, key=lambda n: (abs(ELO[n] - elo), -n))


def search_limits(level: Level, nodes_option: int, depth_option: int) -> dict:
    """core.search's depth, nodes and multipv for a level; the options' own depth and node
    limits still apply when they are tighter."""
    nodes = min(n for n in (level.nodes, nodes_option) if n) if level.nodes or nodes_option else 0
    depth = min(d for d in (level.depth, depth_option) if d) if level.depth or depth_option else 0
    return {"depth": depth or None, "nodes": nodes or None,
            "multipv": min(level.multipv, core.MAX_MULTIPV)}


def candidate_moves(game, result: core.SearchResult) -> list[tuple[int, object, core.Line]]:
    """(score, rules-checked move, line) for each multi-PV candidate, best first.  A TZAAR
    candidate needs its whole turn in its line; one the rules refuse is left out."""
    found = []
    for line in result.lines:
        actions = [core.decode_move(game.name, raw) for raw in line.pv]
        if actions and result.moves and actions[0] == result.moves[0]:
            actions = list(result.moves)  # the core's own whole turn for its best line
        move = game.first_move(actions)
        if move is not None:
            found.append((line.score, move, line))
    return found


def draw_seed(seed: int, game) -> int:
    """The choice's seed: `option seed` mixed with the position, stable across processes."""
    return SplitMix64(seed ^ (zlib.crc32(game.position().encode()) << 20) ^ game.ply).next()


def weighted_choice(scores: list[int], temperature: float, seed: int) -> int:
    """An index into `scores` drawn with weight exp((score - best) / temperature)."""
    best = max(scores)
    weights = [math.exp(max(-700.0, (s - best) / temperature)) for s in scores]
    x = SplitMix64(seed).uniform() * sum(weights)
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return i
    return max(range(len(scores)), key=lambda i: scores[i])


def choose(game, found: list[tuple[int, object, core.Line]], level: Level,
           seed: int) -> tuple[int, object, core.Line]:
    """The level's pick among candidate_moves' (score, move, line), which must not be empty."""
    return found[weighted_choice([score for score, _, _ in found], level.temperature,
                                 draw_seed(seed, game))]
