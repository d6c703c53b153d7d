"""TZAAR's positions and moves as the compiled core takes them (csrc/CONTRACT.md, csrc/tzaar/)."""
from __future__ import annotations

from ...registry import CoreAction, CoreCodec
from .rules import PIECES, Action, Turn, TzaarGame


def _phase(game: TzaarGame) -> int:
    return 0 if game.opening_turn else 1  # the core's phase 2 (a turn's second action) never starts a move


def _to_move(game: TzaarGame, actions: list[CoreAction]) -> Turn:
    return tuple(Action(*a) for a in actions)


def _action_text(game: TzaarGame, action: CoreAction) -> str:
    return game.action_text(Action(*action))


CODEC = CoreCodec(top_codes=PIECES, kinds=("capture", "stack", "pass"), phase=_phase,
                  to_move=_to_move, action_text=_action_text)
