"""Strength levels (`option level 1..20`, `option elo`): weaker play a person can beat.

Level 20 is full strength: nothing changes.  Below it a level is a search budget
(a depth or node limit, far below what full strength spends) and a weighted
choice among the core's multi-PV candidates: candidate i, scored s_i against the
best score b, is chosen with weight exp((s_i - b) / T), T the level's
temperature.  A level may also have a share of random moves: that often it plays
a uniformly random legal move instead.  A proven win outweighs every unproven line
and every random move, so a level that sees a win plays it.  The draws are
SplitMix64 seeded with `option seed` and the position, so a game repeats move for
move under the same seed.

Each game owns its table (engine/games/<game>/levels.py, its GameSpec's `levels`):
what each level searches and chooses, and its Elo relative to full strength (0),
measured in that game's matches (docs/levels.md gives them and the command that
reruns each).  This module is the mechanism; a game without a table plays every
level at full strength.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Optional

from . import core
from .registry import SPECS
from .splitmix64 import SplitMix64

FULL = 20


@dataclass(frozen=True)
class Level:
    depth: int          # iterations (plies) at most; 0: the node budget alone
    nodes: int          # node budget (the core counts in steps of 1024); 0: the depth alone
    multipv: int        # candidates the choice is made among (at most core.MAX_MULTIPV)
    temperature: float  # score units; larger: worse candidates more often
    elo: int            # measured, relative to full strength
    random: float = 0.0  # share of moves drawn from all the legal moves instead (seeded); 0: none


LevelTable = dict[int, Level]  # levels 1..FULL-1 of one game (its GameSpec.levels)


def table(game_name: str) -> LevelTable:
    """The game's level table, empty for a game that has none (there every level plays at
    full strength)."""
    spec = SPECS.get(game_name)
    return spec.levels if spec is not None and spec.levels else {}


def level_of(game_name: str, n: int) -> Optional[Level]:
    """What level n plays in the game; None: full strength (level 20, or a game without a table)."""
    return table(game_name).get(n) if n < FULL else None


def elos(game_name: str) -> dict[int, int]:
    """Each level's measured Elo in the game, full strength 0; without a table every level is
    full strength, so 0."""
    levels = table(game_name)
    return {n: levels[n].elo if n in levels else 0 for n in range(1, FULL + 1)}


def elo_range(game_name: str) -> tuple[int, int]:
    """What `option elo` accepts in the game: its level 1's Elo to full strength's (0)."""
    found = elos(game_name)
    return min(found.values()), found[FULL]


def nearest_level(game_name: str, elo: int) -> int:
    """The game's level whose measured Elo is nearest (the stronger one on a tie)."""
    found = elos(game_name)
    return min(found, key=lambda n: (abs(found[n] - elo), -n))


def check_table(levels: LevelTable) -> LevelTable:
    """A game's table as its GameSpec takes it: every level below full strength, each with a
    search limit, a candidate or more, a positive temperature and a random share in [0, 1],
    Elo rising to below 0."""
    if sorted(levels) != list(range(1, FULL)):
        raise ValueError(f"a level table has the levels 1..{FULL - 1}, not {sorted(levels)}")
    ladder = [levels[n].elo for n in range(1, FULL)] + [0]
    if any(low >= high for low, high in zip(ladder, ladder[1:])):
        raise ValueError(f"a level table's Elo rises with the level to below 0, not {ladder}")
    for n, level in levels.items():
        if not (level.depth or level.nodes) or level.multipv < 1 or level.temperature <= 0 \
                or not 0 <= level.random <= 1:
            raise ValueError(f"level {n} needs a depth or node limit, a candidate, a temperature > 0 "
                             "and a random share from 0 to 1")
    return levels


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
        move = core.first_move(game, actions)
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


RANDOM_SALT = 0x5EED_0F_C4A05  # the random-move draw is apart from the candidates' draw


def random_move(game, found: list[tuple[int, object, core.Line]], level: Level, seed: int):
    """A uniformly random legal move when the level's `random` share calls for one this time
    (drawn from the seed and the position), else None; never when a candidate is a proven win."""
    if not level.random or max(score for score, _, _ in found) >= core.WIN:
        return None
    draw = SplitMix64(draw_seed(seed, game) ^ RANDOM_SALT)
    if draw.uniform() >= level.random:
        return None
    moves = game.legal_moves()
    return moves[draw.next() % len(moves)]
