"""Stepping through a session's game: the engine is taken to the position after any ply of
it (`undo`, `replay`) while the session keeps the whole game, so the page shows, analyses and
may play from any position; playing from an earlier one first cuts the game there."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..client import EngineRefused as EngineError

if TYPE_CHECKING:
    from .session import Session


async def goto(session: "Session", ply: int) -> None:
    """Show the position after `ply` moves (the whole game's length: its end)."""
    moves = [move for _, move in session.history]
    if not 0 <= ply <= len(moves):
        raise EngineError(f"the game has {len(moves)} moves: there is no position after {ply}")
    here = len(moves) if session.view is None else session.view
    if ply < here:
        await session.engine.ask(f"undo {here - ply}")
    elif ply > here:
        await session.engine.ask("replay " + " ".join(moves[here:ply]))
    session.view = None if ply == len(moves) else ply
    session.analysed = None
    await session.refresh()


async def cut(session: "Session") -> None:
    """The position shown becomes the game's end: the moves after it are dropped."""
    if session.view is None:
        raise EngineError("the game's last position is shown: there is nothing to cut")
    dropped = len(session.history) - session.view
    session.history = session.history[:session.view]
    session.view = None
    session.resigned = None
    session.flagged = None
    session.changed()
    await session.refresh(pause_if_engine=True)
    session.send({"type": "notice", "message": f"Cut the game after move {len(session.history)}: "
                  f"{dropped} later move{'s' if dropped != 1 else ''} dropped"})


def refuse_at_view(session: "Session", what: str) -> None:
    if session.view is not None:
        raise EngineError(f"an earlier position is shown: End goes back to the game, or cut the "
                          f"game here before {what}")


async def whole_game(session: "Session", command: str) -> str:
    """A command's reply about the whole game, whatever position is shown."""
    if session.view is None:
        return await session.engine.ask(command)
    rest = [move for _, move in session.history[session.view:]]
    await session.engine.ask("replay " + " ".join(rest))
    try:
        return await session.engine.ask(command)
    finally:
        await session.engine.ask(f"undo {len(rest)}")
