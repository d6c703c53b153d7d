"""A game review for one session: engine.review run in a thread with its own engine process.

The session's engine keeps serving the game meanwhile; the review's progress and its result
(engine.review's JSON report) are sent to the page. One review at a time per session; a review
is cancelled when asked or when its session closes (between two positions: a search in C does
not stop before its limit, so the limits the page may choose are modest, see messages.py).
"""
from __future__ import annotations

import asyncio
import json
import logging
import shlex
import threading
from typing import Callable, Optional

log = logging.getLogger("engine.gui")

CANCEL_WAIT_S = 30.0   # a bound on waiting for the review's engine at session close


class ReviewJob:
    def __init__(self, engine_argv: list[str], send: Callable[[dict], None]) -> None:
        self.engine_command = shlex.join(engine_argv)
        self.send = send
        self.task: Optional[asyncio.Task] = None
        self.cancelled = threading.Event()
        self.positions: list[str] = []     # of the last finished review: before move k, then the end

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def start(self, record_text: str, limits: dict) -> None:
        """Review the record (printrecord's text); limits: {"depth": N} or {"movetime": ms}."""
        self.cancelled = threading.Event()
        self.task = asyncio.create_task(self.run(record_text, limits, self.cancelled))

    async def run(self, record_text: str, limits: dict, cancelled: threading.Event) -> None:
        from ..review import Limits, ReviewError, read_record, review_record  # lazy: the GUI
        from ..review.report import json_report                           # starts without it
        loop = asyncio.get_running_loop()

        def progress(done: int, total: int) -> None:   # in the review's threads
            if cancelled.is_set():
                raise ReviewError("cancelled")
            loop.call_soon_threadsafe(self.send, {"type": "review_progress", "done": done,
                                                  "total": total})

        try:
            record = read_record(record_text.encode("utf-8"))
            review = await asyncio.to_thread(
                review_record, record, engine=self.engine_command, jobs=1, progress=progress,
                limits=Limits(depth=limits.get("depth"), movetime=limits.get("movetime")))
        except ReviewError as e:
            text = "review cancelled" if cancelled.is_set() else f"review failed: {e}"
            self.send({"type": "review_error", "message": text})
            return
        except Exception as e:  # noqa: BLE001 - a bug in the review ends it, not the session
            log.exception("review failed")
            self.send({"type": "review_error", "message": f"review failed: {type(e).__name__}"})
            return
        if cancelled.is_set():
            self.send({"type": "review_error", "message": "review cancelled"})
            return
        self.positions = list(review.line.positions)
        self.send({"type": "review_result", "report": json.loads(json_report(review))})

    def cancel(self) -> None:
        self.cancelled.set()

    async def close(self) -> None:
        """Cancel and wait (bounded) for the review's engines to be gone."""
        self.cancel()
        if self.task is not None:
            await asyncio.wait({self.task}, timeout=CANCEL_WAIT_S)
