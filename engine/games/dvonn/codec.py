"""DVONN's positions and moves as the compiled core takes them (csrc/CONTRACT.md, csrc/dvonn/)."""
from __future__ import annotations

from ...registry import CoreAction, CoreCodec
from .rules import POINTS, DvonnGame, Move


def _phase(game: DvonnGame) -> int:
    return 0 if game.placed < POINTS else 1


def _extra(stack: str) -> int:
    return stack.count("R")  # red pieces in the stack: it stays connected by them


def _to_move(game: DvonnGame, actions: list[CoreAction]) -> Move:
    return Move(*actions[0])


def _action_text(game: DvonnGame, action: CoreAction) -> str:
    return game.move_text(Move(*action))


CODEC = CoreCodec(top_codes="WBR", kinds=("move", "place", "pass"), phase=_phase,
                  to_move=_to_move, action_text=_action_text, extra=_extra)
