"""The CodeCup 2011 line protocol as gipf-match --b-codecup and gipf-referee speak it: one move
per line (engine/games/dvonn/notation.py), and the player process that speaks it.  Kept with
DVONN's CodeCup code rather than in the game registry; LINE_NOTATIONS is the table the tools
look a game up in (a game with no entry has no CodeCup player)."""
from __future__ import annotations

from typing import Any, Callable, NamedTuple

from .notation import codecup_to_move, move_to_codecup


class LineNotation(NamedTuple):
    """A one-move-per-line contest protocol's moves."""
    contest: str                     # "CodeCup 2011"
    to_move: Callable[[str], str]    # a line as our move text (ValueError if it is not a move)
    from_move: Callable[[str], str]  # our move text as a line
    player: Callable[[str, str], Any]  # (command, name): a started player process speaking it


def _codecup_player(command: str, name: str):
    # imported here: the client's process handling is for a match, not for a lookup
    from .line_player import LinePlayer
    return LinePlayer(command, name)


CODECUP_2011 = LineNotation("CodeCup 2011", codecup_to_move, move_to_codecup, _codecup_player)
LINE_NOTATIONS: dict[str, LineNotation] = {"dvonn": CODECUP_2011}
