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
from typing import Optional

from . import core
from .rules import IllegalMove
from .splitmix64 import MASK64, SplitMix64

FULL = 20


@dataclass(frozen=True)
class Level:
    depth: int          # iterations (plies) at most; 0: the node budget alone
    nodes: int          # node budget (the core counts in steps of 1024); 0: the depth alone
    multipv: int        # candidates the choice is made among (at most core.MAX_MULTIPV)
    temperature: float  # score units; larger: worse candidates more often
    elo: int            # measured, relative to full strength


# Depth 2 at least: in TZAAR a ply is one action, and a candidate needs its whole turn.
LEVELS: dict[int, Level] = {
    1: Level(2, 0, 10, 1000.0, -2800),
    2: Level(2, 0, 10, 250.0, -2600),
    3: Level(2, 0, 10, 110.0, -2400),
    4: Level(2, 0, 10, 50.0, -2200),
    5: Level(2, 0, 10, 22.0, -2000),
    6: Level(3, 0, 8, 40.0, -1800),
    7: Level(3, 0, 6, 15.0, -1600),
    8: Level(4, 0, 6, 20.0, -1450),
    9: Level(4, 0, 5, 14.0, -1300),
    10: Level(0, 6144, 4, 10.0, -1150),
    11: Level(0, 10240, 4, 8.0, -1000),
    12: Level(0, 16384, 3, 7.0, -850),
    13: Level(0, 26624, 3, 6.0, -700),
    14: Level(0, 43008, 3, 5.0, -600),
    15: Level(0, 69632, 3, 4.0, -500),
    16: Level(0, 112640, 2, 3.0, -400),
    17: Level(0, 181248, 2, 2.0, -300),
    18: Level(0, 290816, 2, 2.0, -200),
    19: Level(0, 468992, 2, 1.0, -100),
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
        for count in (1, 2):  # a move is one or two of the line's first actions
            if len(actions) < count:
                break
            try:
                move = game.check_move(game.from_core(actions[:count]))
            except (IllegalMove, IndexError, TypeError, ValueError):
                continue
            found.append((line.score, move, line))
            break
    return found


def draw_seed(seed: int, game) -> int:
    """The choice's seed: `option seed` mixed with the position, stable across processes."""
    mixed = SplitMix64(seed ^ (zlib.crc32(game.position().encode()) << 20) ^ game.ply).next()
    return mixed & MASK64


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


def choose(game, result: core.SearchResult, level: Level,
           seed: int) -> Optional[tuple[int, object, core.Line]]:
    """The level's candidate (score, move, line); None when no candidate passes the rules."""
    found = candidate_moves(game, result)
    if not found:
        return None
    return found[weighted_choice([score for score, _, _ in found], level.temperature,
                                 draw_seed(seed, game))]
