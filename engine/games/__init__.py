"""The games the engine plays: one folder per game, engine/games/<game>/ (rules, board, core
codec, record formats and notations, levels, opening book name), whose package builds its
GameSpec (SPEC) and registers nothing itself.  The registry (engine/registry.py) imports them
on its first lookup from its list BUILT_IN; this package re-exports the registry's names, and
importing it imports no game.
"""
from __future__ import annotations

from ..registry import (
    BUILT_IN,
    DEFAULT_GAME,
    GAMES,
    SPECS,
    CoreAction,
    CoreCodec,
    GameSpec,
    get_game,
    load_module,
    register,
    spec,
    titles,
)

__all__ = ["BUILT_IN", "DEFAULT_GAME", "GAMES", "SPECS", "CoreAction", "CoreCodec", "GameSpec", "get_game",
           "load_module", "register", "spec", "titles"]
