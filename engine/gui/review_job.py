"""A game review for one session: engine.review run by review_worker.py in a process of its own.

The session's engine keeps serving the game meanwhile; the review's progress and its result
(engine.review's JSON report) are sent to the page. One review at a time per session. A cancel,
or the session's end, terminates the worker, which kills its engines first: the review and its
searches are gone at once, whatever limit a search was given.
"""
from __future__ import annotations

import asyncio
import json
import logging
import shlex
import sys
from typing import Callable, Optional

from ..client import default_env

log = logging.getLogger("engine.gui")

EXIT_WAIT_S = 5.0        # a bound on waiting for a terminated worker (it kills and exits at once)
LINE_LIMIT = 64 << 20    # the result line: a report of every move with its position strings


class ReviewJob:
    def __init__(self, engine_argv: list[str], send: Callable[[dict], None],
                 env: Optional[dict] = None) -> None:
        self.engine_command = shlex.join(engine_argv)
        self.send = send
        # the worker is this package's own code: importable from wherever the GUI was started
        self.env = default_env(env)
        self.task: Optional[asyncio.Task] = None
        self.proc: Optional[asyncio.subprocess.Process] = None
        self.cancelled = False
        self.game_id = 0

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def start(self, record_text: str, limits: dict, game_id: int) -> None:
        """Review the record (printrecord's text); limits: {"depth": N} or {"movetime": ms};
        game_id: the session's game it is of (the page drops a review of another)."""
        self.cancelled = False
        self.game_id = game_id
        self.task = asyncio.create_task(self.run(record_text, limits))

    async def run(self, record_text: str, limits: dict) -> None:
        (key, value), = limits.items()
        try:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-P", "-m", "engine.gui.review_worker", "--engine", self.engine_command,
                f"--{key}", str(value), stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env=self.env,
                limit=LINE_LIMIT, start_new_session=True)
            if self.cancelled:  # cancelled while it started
                self.proc.terminate()
            assert self.proc.stdin is not None and self.proc.stdout is not None, "both are pipes"
            self.proc.stdin.write(record_text.encode("utf-8"))
            self.proc.stdin.close()
            ended = None
            while line := await self.proc.stdout.readline():
                message = json.loads(line)
                if message["type"] == "review_result":
                    ended = {**message, "game_id": self.game_id}
                elif message["type"] == "review_error":
                    ended = message
                elif not self.cancelled:
                    self.send(message)
            await self.proc.wait()
        except (OSError, ValueError) as e:  # cannot start it, an unreadable line
            log.warning("review worker failed: %s", e)
            ended = {"type": "review_error", "message": f"review failed: {e}"}
        if self.cancelled:
            ended = {"type": "review_error", "message": "review cancelled"}
        if ended is None:  # the worker ran to its end (it was started) without a result
            assert self.proc is not None, "the worker was started"
            ended = {"type": "review_error", "message": "review failed: its process "
                     f"ended with status {self.proc.returncode}"}
        self.send(ended)

    def cancel(self) -> None:
        if self.running and not self.cancelled:
            self.cancelled = True
            if self.proc is not None and self.proc.returncode is None:
                self.proc.terminate()

    async def close(self) -> None:
        """Cancel and wait (bounded) for the worker and its engines to be gone."""
        self.cancel()
        if self.task is not None:
            await asyncio.wait({self.task}, timeout=EXIT_WAIT_S)
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
