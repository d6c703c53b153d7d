"""EngineProcess: the blocking face of the asyncio core, for the tools.  It runs the core on
one background event loop thread shared by every engine (as python-chess's SimpleEngine does).
"""
from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import subprocess
import threading
from pathlib import Path
from typing import Optional

from . import children
from .async_engine import AsyncEngineProcess
from .children import DEFAULT_ENGINE
from .errors import EngineDied, EngineError, EngineRefused
from .limits import COMMAND_TIMEOUT, Limit


class _LoopThread:
    """One event loop in a daemon thread, shared by every EngineProcess."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._thread: Optional[threading.Thread] = None

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                ready = threading.Event()
                self._thread = threading.Thread(target=self._run, args=(self._loop, ready),
                                                name="engine-client", daemon=True)
                self._thread.start()
                ready.wait()
            return self._loop

    @staticmethod
    def _run(loop: asyncio.AbstractEventLoop, ready: threading.Event) -> None:
        asyncio.set_event_loop(loop)
        loop.call_soon(ready.set)
        loop.run_forever()

    def run(self, coro):
        """Run a coroutine on the loop and wait for its result; an exception in this thread
        (Ctrl-C) cancels it."""
        loop = self.loop()
        if threading.current_thread() is self._thread:
            coro.close()
            raise RuntimeError("EngineProcess cannot be used from its own event loop thread")
        future = asyncio.run_coroutine_threadsafe(coro, loop)
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            raise EngineDied("the engine request was cancelled") from None
        except BaseException:
            future.cancel()
            raise


_LOOP = _LoopThread()


class EngineProcess:
    """One engine process; commands go in, GTP replies come out (blocking, for the tools)."""

    def __init__(self, command: str = DEFAULT_ENGINE, name: str = "engine",
                 stderr=subprocess.DEVNULL, cwd: Optional[Path] = None, *,
                 env: Optional[dict] = None, timeout: float = COMMAND_TIMEOUT) -> None:
        """env: the child's whole environment (default: ours, plus this checkout for the
        default engine); timeout: seconds for the reply to an ordinary command."""
        children.install_cleanup()
        self.name = name
        self.command = command
        argv = children.command_argv(command, name)
        self.core = AsyncEngineProcess(argv, env if env is not None else children.command_env(argv),
                                       stderr=stderr, cwd=cwd, name=name, timeout=timeout)
        try:
            _LOOP.run(self.core.start())
        except OSError as e:
            raise EngineError(f"cannot start {name} ({command!r}): {e.strerror or e}") from None

    @property
    def pid(self) -> Optional[int]:
        return self.core.pid

    @property
    def stderr_tail(self) -> "collections.deque[str]":
        """The last lines the engine wrote to stderr (when started with stderr=PIPE)."""
        return self.core.stderr_tail

    @property
    def alive(self) -> bool:
        return self.core.alive

    @property
    def returncode(self) -> Optional[int]:
        return self.core.proc.returncode if self.core.proc else None

    def send(self, line: str, timeout: Optional[float] = None) -> tuple[bool, str]:
        """(ok, text) of the reply to one command line; the text without '=', '?' and id.
        EngineTimeout after `timeout` seconds (default: from the command and the limits sent
        so far), EngineDied if the engine is gone."""
        return _LOOP.run(self.core.send(line, timeout))

    def ask(self, line: str, timeout: Optional[float] = None) -> str:
        """The reply text; EngineRefused for a '?' reply."""
        ok, text = self.send(line, timeout)
        if not ok:
            raise EngineRefused(f"{self.name} refused {line!r}: {text}")
        return text

    def set_limit(self, limit: Limit) -> None:
        """Bound the searches to come (the option commands of each bound the limit gives);
        EngineRefused if the engine refuses one."""
        _LOOP.run(self.core.set_limit(limit))

    def set_clock(self, game_ms: Optional[int], increment_ms: int = 0) -> None:
        """A game clock of game_ms per side and increment_ms per move; None: no clock."""
        _LOOP.run(self.core.set_clock(game_ms, increment_ms))

    def interrupt(self) -> None:
        """Stop a running search early (`# interrupt`); its reply then comes at once."""
        _LOOP.run(self.core.interrupt())

    def close(self) -> None:
        """Quit, then terminate, then kill, each step bounded; safe to call again."""
        _LOOP.run(self.core.close())

    def kill(self) -> None:
        """Kill the engine's process group now."""
        _LOOP.run(self.core.kill())

    def __enter__(self) -> "EngineProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
