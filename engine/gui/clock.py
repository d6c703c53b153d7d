"""The clocks of a game with time per game: each side's time left, the running side's counting
down, and which side's flag fell.

The engine keeps a clock of its own for its thinking (protocol.md 6.2); this one is the page's,
kept by the server for both sides, people included, so that a flag fall ends the game for both.
"""
from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .session import Session


class GameClock:
    def __init__(self) -> None:
        self.left = {"w": 0.0, "b": 0.0}     # ms
        self.running: Optional[str] = None
        self.since = 0.0

    def reset(self, ms: int) -> None:
        self.left = {"w": float(ms), "b": float(ms)}
        self.running = None

    def stop(self) -> None:
        """Charge the running side for the time since it started."""
        if self.running is not None:
            self.left[self.running] -= (time.monotonic() - self.since) * 1000
            self.running = None

    def run(self, side: Optional[str]) -> None:
        self.stop()
        if side in self.left:
            self.running = side
            self.since = time.monotonic()

    def remaining(self, side: str) -> float:
        left = self.left[side]
        if side == self.running:
            left -= (time.monotonic() - self.since) * 1000
        return left

    def fallen(self) -> Optional[str]:
        """The side whose time ran out, if any."""
        return next((side for side in ("w", "b") if self.remaining(side) <= 0), None)

    def to_json(self) -> dict:
        return {"w": max(0, round(self.remaining("w"))), "b": max(0, round(self.remaining("b"))),
                "running": self.running}


def restart_clock(session: "Session") -> None:
    """Both sides' full time again (a new game, a new time setting): a fallen flag is lifted."""
    stop_timer(session)
    session.flagged = None
    session.clock.reset(session.time["ms"])


def stop_timer(session: "Session") -> None:
    if session.clock_timer is not None:
        session.clock_timer.cancel()
        session.clock_timer = None


def tick(session: "Session") -> None:
    """After each change: charge the side that was thinking, end the game if its flag fell,
    and start the clock of the side to act (its timer asks for a `flag` check when it runs
    out). While an earlier position is shown the game's own clock goes on."""
    stop_timer(session)
    clock = session.clock
    if session.time["mode"] != "game":
        return
    if session.view is None:
        clock.stop()
        fallen = clock.fallen()
        if fallen and session.status.get("over") == "no" and session.resigned is None \
                and session.flagged is None:
            session.flagged = fallen
        waiting = session.paused and session.engine_to_move_ignoring_pause()
        if session.playing() and not waiting:
            clock.run(session.status.get("to_act"))
    if clock.running is not None:
        delay = max(0.0, clock.remaining(clock.running)) / 1000 + 0.02
        session.clock_timer = asyncio.get_running_loop().call_later(
            delay, session.requests.put_nowait, {"type": "flag"})
