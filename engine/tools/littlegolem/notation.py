"""What LittleGolem calls our games and how its move form spells their moves.

Each game's own littlegolem.py module (engine/games/<game>/) holds its mapping; the registry's
GameSpec.tools.littlegolem_move names it.  A resignation is the move `resign` in every game
LittleGolem plays here: the records write it so (DVONN text `12. resign`, TZAAR SGF
`W[resign]`) and the move form takes it so.
"""
from __future__ import annotations

from engine.games import SPECS, spec

RESIGN = "resign"


def played_games() -> list[str]:
    """The games LittleGolem plays: those whose GameSpec.tools has a LittleGolem move form."""
    return [name for name, game in SPECS.items() if game.tools.littlegolem_move is not None]


def site_move(game: str, move: str) -> str:
    """A move in its record's notation as LittleGolem's move form takes it (the game's
    GameSpec.tools.littlegolem_move: e.g. DVONN 'g2' -> 'gd', TZAAR 'prqq-kplp' as it is);
    'resign' stays 'resign'.  ValueError for anything else."""
    form = spec(game).tools.littlegolem_move if game in SPECS else None
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
