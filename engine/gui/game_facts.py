"""Facts about a game the page shows besides the engine's replies: what an engine level limits,
the order of the points in a position string (for the position editor), and whether a start
position is the game's fixed layout."""
from __future__ import annotations

import sys
from typing import Optional

from ..games import GAMES
from ..levels import FULL, level_of


def level_limit(game: str, level: Optional[int]) -> str:
    """What bounds the engine's move at this level besides its time (docs/levels.md)."""
    if level is None:
        return "the engine's time limits each move"
    found = level_of(game, level)
    if found is None:
        return f"level {level} is full strength: the engine's time limits each move"
    if found.depth:
        bound = f"a search {found.depth} plies deep"
    else:
        bound = f"a search of {found.nodes:,} nodes"
    return (f"level {level} limits each move to {bound}: the engine often answers well before "
            f"its time (level {FULL} is full strength)")


def point_order(game: str) -> list[str]:
    """The points in the order of a position string's cells (protocol.md 7); empty when the
    game's rules module names no board."""
    cls = GAMES.get(game)
    board = getattr(sys.modules.get(cls.__module__), "BOARD", None) if cls is not None else None
    return list(board.names) if board is not None else []


def is_fixed_start(game: str, position: str) -> bool:
    """The start of a game with layouts is the fixed one (else a random layout)."""
    cls = GAMES.get(game)
    return cls is not None and cls.start().position() == position
