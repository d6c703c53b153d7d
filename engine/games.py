"""The games the engine plays: one line per game, name -> rules class.

Everything else (server, search, core bindings, records, scripts) looks a
game up here and asks it (engine/rules.py GameBase) instead of testing which
game it is.  Adding a game: its rules module, its C files, one line here.
"""
from __future__ import annotations

from .dvonn import DvonnGame
from .rules import GameBase
from .tzaar import TzaarGame

GAMES: dict[str, type[GameBase]] = {
    DvonnGame.name: DvonnGame,
    TzaarGame.name: TzaarGame,
}
DEFAULT_GAME = DvonnGame.name
