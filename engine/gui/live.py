"""The engine's view for the page: live analysis of the position shown (`analyze live`), its
lines with scores in the review's words, and a hint (`analyze`): the engine's move, not played."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..client import EngineRefused as EngineError
from ..games import DEFAULT_GAME
from ..protocol.analysis_lines import read_analyze, read_info
from ..review.judge import judge_for

if TYPE_CHECKING:
    from .session import Session

LIVE_INTERVAL_MS = 250
HINT_MS = (100, 5000)      # a hint searches the time per move, within these bounds


async def hint(session: "Session") -> None:
    """The engine's move in the position shown, searched for the time per move (within
    HINT_MS), not played."""
    if not session.playing():
        raise EngineError("the game is over: there is no move to hint")
    low, high = HINT_MS
    ms = min(max(session.time["ms"], low), high) if session.time["mode"] == "move" else 1000
    session.thinking = True
    try:
        reply = read_analyze(await session.engine.ask(f"analyze {ms}", timeout=ms / 1000 + 30))
    finally:
        session.thinking = False
    session.analysed = None  # the live analysis starts again
    session.send({"type": "hint", "move": reply.best, "position": session.position,
                  "score_text": score_text(session, reply.score)})


async def maybe_analyse(session: "Session") -> None:
    if (not session.analysis["on"] or not session.present or not session.playing()
            or session.engine.analysing):
        return
    key = (session.position, session.analysis["multipv"])
    if session.analysed == key and not session.engine.live_was_stopped:
        return  # this position's search ended by itself: nothing new to show
    session.analysed = key
    session.send({"type": "analysis_start", "position": session.position})
    try:
        await session.engine.start_live(LIVE_INTERVAL_MS, lambda line: on_live_line(session, line))
    except EngineError as e:
        session.send({"type": "analysis_error", "message": str(e)})


def on_live_line(session: "Session", line: str) -> None:
    info = read_info(line)
    if info is None:
        return
    if "bestmove" in info:
        session.send({"type": "analysis_end", "bestmove": info["bestmove"]})
    else:
        if isinstance(info.get("score"), int):
            info["score_text"] = score_text(session, info["score"])
        session.send({"type": "info", "info": info, "position": session.position})


def score_text(session: "Session", score: Optional[int]) -> str:
    """The score in the words review uses (engine.review.judge): one unit on the page."""
    return judge_for(session.status.get("game", DEFAULT_GAME)).score_text(score)
