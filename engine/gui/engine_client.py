"""One engine process driven over its stdin/stdout protocol (protocol.md), with asyncio.

Only protocol text crosses this boundary, as for any external GUI. Commands are answered in order;
`analyze live` streams its lines to a callback until the next command line ends it (the engine
then answers that command normally).
"""
from __future__ import annotations

import asyncio
import collections
import logging
import os
import sys
from typing import Callable, Optional

log = logging.getLogger("engine.gui")

LINE_LIMIT = 1 << 20  # the longest reply line is a position string or a record


class EngineError(Exception):
    """The engine answered '?': the message is its reply text."""


class EngineDied(Exception):
    """The engine process ended or stopped answering."""


class EngineProcess:
    def __init__(self, argv: list[str], env: Optional[dict] = None) -> None:
        self.argv = argv
        self.env = env
        self.proc: Optional[asyncio.subprocess.Process] = None
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self._lock = asyncio.Lock()
        self._live: Optional[asyncio.Task] = None
        self.live_was_stopped = False   # the last live analysis was ended by a command line
        self._stderr_task: Optional[asyncio.Task] = None

    @property
    def pid(self) -> Optional[int]:
        return self.proc.pid if self.proc else None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def analysing(self) -> bool:
        return self._live is not None and not self._live.done()

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self.env, limit=LINE_LIMIT,
            start_new_session=True)  # a Ctrl-C meant for the GUI server is not the engine's
        self._stderr_task = asyncio.create_task(self._drain_stderr())

    async def _drain_stderr(self) -> None:
        assert self.proc and self.proc.stderr
        while line := await self.proc.stderr.readline():
            text = line.decode("utf-8", "replace").rstrip()
            self.stderr_tail.append(text)
            log.debug("engine %s stderr: %s", self.pid, text)

    def _write(self, line: str) -> None:
        if not self.alive or self.proc.stdin is None or self.proc.stdin.is_closing():
            raise EngineDied("the engine is not running")
        self.proc.stdin.write(line.encode() + b"\n")

    async def _readline(self) -> str:
        try:
            data = await self.proc.stdout.readline()
        except (ValueError, asyncio.LimitOverrunError) as e:
            raise EngineDied(f"unreadable engine output: {e}") from None
        if not data:
            raise EngineDied("the engine closed its output")
        return data.decode("utf-8", "replace").rstrip("\n")

    async def _read_reply(self) -> str:
        """One reply's text (lines joined by newlines); EngineError for a '?' reply."""
        first = await self._readline()
        if first[:1] not in ("=", "?"):
            raise EngineDied(f"not a protocol reply: {first[:80]!r}")
        lines = [first[1:].lstrip(" ")] if first[1:].strip() else []
        while line := await self._readline():
            lines.append(line)
        text = "\n".join(lines)
        if first[0] == "?":
            raise EngineError(text)
        return text

    async def ask(self, line: str, timeout: Optional[float] = 60.0) -> str:
        """Send one command line and return its reply text; it also ends a live analysis."""
        async with self._lock:
            try:
                if self._live is not None:
                    self.live_was_stopped = not self._live.done()
                self._write(line)
                await self.proc.stdin.drain()
                if self._live is not None:  # that line ended the analysis: its reply comes first
                    await asyncio.wait_for(asyncio.shield(self._live), timeout)
                    self._live = None
                return await asyncio.wait_for(self._read_reply(), timeout)
            except (ConnectionError, asyncio.TimeoutError) as e:
                raise EngineDied(f"the engine stopped answering ({type(e).__name__})") from None

    async def interrupt(self) -> None:
        """GoGui's interrupt line: stops a running search early (a comment to older engines)."""
        try:
            self._write("# interrupt")
            await self.proc.stdin.drain()
        except (EngineDied, ConnectionError):
            pass

    async def start_live(self, interval_ms: int, on_line: Callable[[str], None]) -> None:
        """`analyze live`: each reply line goes to on_line until a command (or the search) ends it."""
        async with self._lock:
            if self._live is not None:
                if not self._live.done():
                    return
                self._live = None
            self._write(f"analyze live {interval_ms}")
            try:
                first = await asyncio.wait_for(self._readline(), 60)
            except asyncio.TimeoutError:
                raise EngineDied("the engine stopped answering (analyze live)") from None
            if first.startswith("?"):
                raise EngineError(await self._rest_of_error(first))
            if first.strip() != "=":
                raise EngineDied(f"not a live analysis reply: {first[:80]!r}")
            self._live = asyncio.create_task(self._read_live(on_line))

    async def _rest_of_error(self, first: str) -> str:
        lines = [first[1:].strip()]
        while line := await self._readline():
            lines.append(line)
        return "\n".join(lines).strip()

    async def _read_live(self, on_line: Callable[[str], None]) -> None:
        while line := await self._readline():
            on_line(line)

    async def close(self) -> None:
        """Ask the engine to quit; kill it if it does not within a second."""
        if self._live is not None:
            self._live.cancel()
            await asyncio.gather(self._live, return_exceptions=True)
        if self.alive:
            try:
                self.proc.stdin.write(b"quit\n")
                await asyncio.wait_for(self.proc.wait(), 1.0)
            except (ConnectionError, asyncio.TimeoutError, RuntimeError):
                pass
        if self.alive:
            self.proc.kill()
            await self.proc.wait()
        if self._stderr_task is not None:
            await asyncio.gather(self._stderr_task, return_exceptions=True)


def default_engine_argv() -> tuple[list[str], dict]:
    """This package's own engine, run by the interpreter that runs the GUI."""
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    return [sys.executable, "-m", "engine"], env
