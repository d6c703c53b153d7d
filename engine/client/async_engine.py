"""The asyncio core of the client (used by the web GUI, and by EngineProcess for the tools):
one engine process driven over its stdin/stdout protocol.

Replies are read as GTP frames: '=' or '?', an optional id, text, ended by an empty line
(protocol.md 2.2); each within its time limit (limits.py).  Closing is `quit`, then SIGTERM,
then SIGKILL to the engine's process group, each step bounded (children.py).
"""
from __future__ import annotations

import asyncio
import collections
import logging
import signal
from pathlib import Path
from typing import Callable, Optional

from ..protocol import gtp
from . import children
from .errors import EngineDied, EngineRefused, EngineTimeout
from .limits import COMMAND_TIMEOUT, Limit, SearchLimits

log = logging.getLogger("engine.client")

LINE_LIMIT = 1 << 20              # the longest reply line is a position string or a record


def _single_bounds(limit: Limit) -> list[Limit]:
    """The limit as one Limit per bound it gives, in the order of limit.commands()."""
    return [Limit(**{name: value}) for name, value in
            (("time_ms", limit.time_ms), ("depth", limit.depth), ("nodes", limit.nodes)) if value is not None]


class AsyncEngineProcess:
    """One engine process driven over its stdin/stdout protocol, with asyncio.

    Commands are answered in order; `analyze live` streams its lines to a callback until the
    next command line ends it (the engine then answers that command normally)."""

    def __init__(self, argv: list[str], env: Optional[dict] = None, *,
                 stderr=asyncio.subprocess.PIPE, cwd: Optional[Path] = None,
                 name: str = "the engine", timeout: float = COMMAND_TIMEOUT) -> None:
        self.argv = argv
        self.env = env
        self.stderr = stderr
        self.cwd = cwd
        self.name = name
        self.timeout = timeout
        self.limits = SearchLimits()
        self.proc: Optional[asyncio.subprocess.Process] = None
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self.live_was_stopped = False   # the last live analysis was ended by a command line
        self._lock = asyncio.Lock()
        self._live: Optional[asyncio.Task] = None
        self._tasks: list[asyncio.Task] = []
        self._owed = False              # a command's reply was abandoned (its caller cancelled)
        self._broken: Optional[str] = None  # why the replies can no longer be trusted

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
        """Start the process (OSError if it cannot be)."""
        children.install_cleanup()
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=self.stderr, env=self.env, cwd=self.cwd, limit=LINE_LIMIT,
            start_new_session=True)  # a Ctrl-C meant for us is not the engine's
        children.running[self.proc.pid] = self.name
        self._tasks.append(asyncio.create_task(self._reap()))
        if self.stderr == asyncio.subprocess.PIPE:
            self._tasks.append(asyncio.create_task(self._drain_stderr()))

    async def _reap(self) -> None:
        assert self.proc
        await self.proc.wait()
        children.signal_group(self.proc.pid, signal.SIGKILL)  # whatever it left in its group
        children.running.pop(self.proc.pid, None)

    async def _drain_stderr(self) -> None:
        assert self.proc and self.proc.stderr
        while line := await self.proc.stderr.readline():
            text = line.decode("utf-8", "replace").rstrip()
            self.stderr_tail.append(text)
            log.debug("engine %s stderr: %s", self.pid, text)

    async def _write(self, line: str) -> None:
        if self._broken:
            raise EngineDied(self._broken)
        proc = self.proc
        if proc is None or proc.returncode is not None or proc.stdin is None \
                or proc.stdin.is_closing():
            raise EngineDied(f"{self.name} is not running (sending {line!r})")
        try:
            proc.stdin.write(line.encode() + b"\n")
            await proc.stdin.drain()
        except ConnectionError as e:
            raise EngineDied(f"{self.name} is not running (sending {line!r}): "
                             f"{type(e).__name__}") from None

    async def _readline(self, after: str) -> str:
        assert self.proc is not None and self.proc.stdout is not None  # started
        try:
            data = await self.proc.stdout.readline()
        except (ValueError, asyncio.LimitOverrunError) as e:
            raise self._break(f"{self.name} wrote an unreadable line after {after!r}: "
                              f"{e}") from None
        if not data:
            raise self._break(f"{self.name} closed its output after {after!r}")
        return data.decode("utf-8", "replace").rstrip("\r\n")

    def _break(self, why: str, kind: type[EngineDied] = EngineDied) -> EngineDied:
        self._broken = why
        return kind(why)

    async def _read_reply(self, line: str) -> tuple[bool, str]:
        lines: list[str] = []
        while True:
            text = await self._readline(line)
            if not text:
                if lines:
                    break
                continue   # blank lines before a reply
            if not lines and text[:1] not in ("=", "?"):
                raise self._break(f"{self.name} wrote no protocol reply to {line!r} "
                                  f"but {text[:80]!r}")
            lines.append(text)
        try:
            ok, _, reply = gtp.parse_reply(lines)
        except ValueError as e:
            raise self._break(f"{self.name}: {e}") from None
        return ok, reply

    async def send(self, line: str, timeout: Optional[float] = None) -> tuple[bool, str]:
        """(ok, text) of the reply to one command line; it also ends a live analysis.
        timeout: seconds to wait for the reply (default: from the command and the limits)."""
        if "\n" in line or "\r" in line:
            raise ValueError("one command line at a time")
        command = gtp.parse_line(line.encode())  # as the engine reads it; None: no reply
        limit = self.limits.reply_timeout(command, self.timeout) if timeout is None else timeout
        reply = await self._send(line, command is not None, limit)
        if reply[0] and command is not None:
            self.limits = self.limits.after_line(command)
        return reply

    async def set_limit(self, limit: Limit) -> None:
        """Bound the searches to come: the option commands of each bound the limit gives
        (EngineRefused, naming the command, if the engine refuses one)."""
        for line, bound in zip(limit.commands(), _single_bounds(limit)):
            await self._written(line)
            self.limits = self.limits.with_limit(bound)

    async def set_clock(self, game_ms: Optional[int], increment_ms: int = 0) -> None:
        """A game clock of game_ms per side and increment_ms per move (time_control); None:
        no clock (time_control off)."""
        await self._written("time_control off" if game_ms is None else f"time_control {game_ms} {increment_ms}")
        self.limits = self.limits.with_clock(game_ms, increment_ms)

    async def _written(self, line: str) -> None:
        ok, text = await self._send(line, True, self.timeout)
        if not ok:
            raise EngineRefused(f"{self.name} refused {line!r}: {text}")

    async def _send(self, line: str, answered: bool, limit: float) -> tuple[bool, str]:
        async with self._lock:
            try:
                reply = await asyncio.wait_for(self._exchange(line, answered), limit)
            except asyncio.TimeoutError:
                why = f"{self.name} did not answer {line!r} within {limit:g} s"
                await self._stop(signal.SIGTERM)
                raise self._break(why, EngineTimeout) from None
            except asyncio.CancelledError:  # its reply may still come: later ones out of step
                self._owed = True
                self._broken = self._broken or f"{self.name}: the reply to {line!r} was abandoned"
                raise
        return reply

    async def _exchange(self, line: str, answered: bool) -> tuple[bool, str]:
        if self._live is not None:
            self.live_was_stopped = not self._live.done()
        await self._write(line)
        if self._live is not None:  # that line ended the analysis: its reply comes first
            live, self._live = self._live, None
            await live
        if not answered:  # a blank or comment line gets no reply (protocol.md 2.1)
            return True, ""
        return await self._read_reply(line)

    async def ask(self, line: str, timeout: Optional[float] = None) -> str:
        """The reply text; EngineRefused (its text) for a '?' reply."""
        ok, text = await self.send(line, timeout)
        if not ok:
            raise EngineRefused(text)
        return text

    async def interrupt(self) -> None:
        """GoGui's interrupt line: stops a running search early (a comment to older engines)."""
        try:
            await self._write("# interrupt")
        except EngineDied:
            pass

    async def start_live(self, interval_ms: int, on_line: Callable[[str], None]) -> None:
        """`analyze live`: each reply line goes to on_line until a command (or the search) ends
        it."""
        async with self._lock:
            if self._live is not None:
                if not self._live.done():
                    return
                self._live = None
            line = f"analyze live {interval_ms}"
            try:
                await self._write(line)
                first = await asyncio.wait_for(self._readline(line), self.timeout)
            except asyncio.TimeoutError:
                await self._stop(signal.SIGTERM)
                raise self._break(f"{self.name} did not answer {line!r} "
                                  f"within {self.timeout:g} s", EngineTimeout) from None
            if first.startswith("?"):
                lines = [first]
                while text := await self._readline(line):
                    lines.append(text)
                raise EngineRefused(gtp.parse_reply(lines)[2])
            if first.strip() != "=":
                raise self._break(f"{self.name} wrote no live analysis reply but {first[:80]!r}")
            self._live = asyncio.create_task(self._read_live(line, on_line))

    async def _read_live(self, line: str, on_line: Callable[[str], None]) -> None:
        while text := await self._readline(line):
            on_line(text)

    async def close(self) -> None:
        """`quit` (after `# interrupt` if a search may run), then SIGTERM, then SIGKILL to the
        process group, each step bounded.  Safe to call again."""
        if self._live is not None:
            self._live.cancel()
            await asyncio.gather(self._live, return_exceptions=True)
            self._live = None
        proc = self.proc
        if proc is not None and proc.returncode is None and proc.stdin is not None:
            try:
                if self._owed or self._lock.locked():
                    proc.stdin.write(b"# interrupt\n")
                proc.stdin.write(b"quit\n")
                await asyncio.wait_for(proc.stdin.drain(), children.QUIT_WAIT)
                proc.stdin.close()  # the end of input ends an engine that ignores quit
                await asyncio.wait_for(proc.wait(), children.QUIT_WAIT)
            except (ConnectionError, asyncio.TimeoutError, RuntimeError):
                pass
        await self._stop(signal.SIGTERM)

    async def kill(self) -> None:
        """SIGKILL the process group at once (a search in C does not stop for anything else)."""
        await self._stop(signal.SIGKILL)

    async def _stop(self, first: int) -> None:
        if self.proc is None:
            return
        signals = [signal.SIGTERM, signal.SIGKILL] if first == signal.SIGTERM else [first]
        for signum in signals:
            if not self.alive:
                break
            children.signal_group(self.proc.pid, signum)
            try:
                await asyncio.wait_for(self.proc.wait(),
                                       children.TERMINATE_WAIT if signum == signal.SIGTERM else children.KILL_WAIT)
            except asyncio.TimeoutError:
                pass
        if self.alive:
            log.warning("%s (pid %s) survived SIGKILL for %g s", self.name, self.pid, children.KILL_WAIT)
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        _, pending = await asyncio.wait(self._tasks, timeout=children.TERMINATE_WAIT) if self._tasks \
            else (set(), set())
        for task in pending:  # a grandchild still holds stderr open
            task.cancel()
