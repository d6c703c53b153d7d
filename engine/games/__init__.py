"""The games the engine plays: the built-in games' specs, registered by load_built_in().

A game is its folder engine/games/<game>/ (rules, board, core codec, record formats, GUI
drawing data, opening book name, tool data), whose package builds its GameSpec (SPEC) and
registers nothing itself; BUILT_IN lists them and load_built_in() registers them in the
registry (engine/registry.py), once, below.  Everything else (server, search, core bindings,
records, review, GUI, tools) asks the registry instead of testing which game it is; this
package re-exports the registry so that importing it gives the games loaded.
"""
from __future__ import annotations

from ..registry import (
    GAMES,
    SPECS,
    CoreAction,
    CoreCodec,
    GameSpec,
    GuiData,
    PieceLook,
    load_module,
    register,
    spec,
    titles,
)
from . import dvonn, tzaar

__all__ = ["BUILT_IN", "DEFAULT_GAME", "GAMES", "SPECS", "CoreAction", "CoreCodec", "GameSpec", "GuiData",
           "PieceLook", "load_built_in", "load_module", "register", "spec", "titles"]

BUILT_IN: tuple[GameSpec, ...] = (dvonn.SPEC, tzaar.SPEC)  # the first is the default game
DEFAULT_GAME = BUILT_IN[0].name


def load_built_in() -> None:
    """Register the built-in games (again: nothing changes)."""
    for game in BUILT_IN:
        register(game)


load_built_in()
