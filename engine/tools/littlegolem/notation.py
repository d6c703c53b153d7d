"""What LittleGolem calls our games and how its move form spells their moves.

Each game's own littlegolem.py module (engine/games/<game>/) holds its mapping; SITE_MOVES
below names it, per game.  A resignation is the move `resign` in every game
LittleGolem plays here: the records write it so (DVONN text `12. resign`, TZAAR SGF
`W[resign]`) and the move form takes it so.
"""
from __future__ import annotations

from typing import Callable

from engine.games import SPECS
from engine.games.dvonn import littlegolem as dvonn_littlegolem
from engine.games.tzaar import littlegolem as tzaar_littlegolem

RESIGN = "resign"
SITE_MOVES: dict[str, Callable[[str], str]] = {  # game -> a move as LittleGolem's move form takes it
    "dvonn": dvonn_littlegolem.site_move, "tzaar": tzaar_littlegolem.site_move}


def played_games() -> list[str]:
    """The games LittleGolem plays: the registered games with a move form in SITE_MOVES."""
    return [name for name in SPECS if name in SITE_MOVES]


def site_move(game: str, move: str) -> str:
    """A move in its record's notation as LittleGolem's move form takes it (the game's
    SITE_MOVES entry: e.g. DVONN 'g2' -> 'gd', TZAAR 'prqq-kplp' as it is);
    'resign' stays 'resign'.  ValueError for anything else."""
    form = SITE_MOVES.get(game) if game in SPECS else None
    if form is None:
        raise ValueError(f"no LittleGolem move form for the game {game!r}")
    if move.strip().lower() == RESIGN:
        return RESIGN
    return form(move)


def site_game(name: str) -> str | None:
    """The game LittleGolem names `name` ('Dvonn', 'TZAAR', 'Dvonn (rated)': the whole name or
    its first word), if we play it; else None."""
    words = name.lower().split()
    for key in (" ".join(words), words[0] if words else ""):
        if key in played_games():
            return key
    return None
