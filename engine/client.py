"""The client side of the protocol: start an engine process, ask it commands, and never wait
for it forever nor leave it running behind us.

One asyncio core (`AsyncEngineProcess`, used by the web GUI) speaks the protocol; `EngineProcess`
is its blocking face for the tools, running the core on one background event loop thread (as
python-chess's SimpleEngine does).  Replies are read as GTP frames: '=' or '?', an optional id,
text, ended by an empty line (protocol.md 2.2).

Every reply has a time limit: `COMMAND_TIMEOUT` for ordinary commands, and for a search
(`genmove`, `reg_genmove`, `analyze`) twice the longest time its limits allow (`option movetime`,
the clock, `analyze <ms>`, as sent through this client) plus `SEARCH_MARGIN`; searches that only
a depth or node count bounds, `perft` and `analyze live` get `UNBOUNDED_SEARCH_TIMEOUT` unless
the caller passes its own.  Closing is `quit`, then SIGTERM, then SIGKILL to the engine's
process group, each step bounded.

Every child runs in its own process group (a Ctrl-C in the terminal reaches only us).  The
groups still running are killed when this process exits, on SIGTERM, and on a second SIGINT
(the first is left to the program: a tool may finish its work with the engines, and its exit
then kills them).  A child gets exactly our environment; only the default engine (this
package's engine, `python3 -P -m engine`) is given this package's folder on PYTHONPATH, so that it
runs from any directory: -P keeps the working folder off its path, so an `engine/` package there (a
source checkout) never stands in for this one.
"""
from __future__ import annotations

import asyncio
import atexit
import collections
import concurrent.futures
import logging
import os
import shlex
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable, Optional

from .protocol import gtp

log = logging.getLogger("engine.client")

REPO = Path(__file__).resolve().parents[1]
# -P (Python 3.11): the working folder is not put first on the child's path
DEFAULT_ENGINE = f"{shlex.quote(sys.executable)} -P -m engine"
DEFAULT_ENGINE_ARGV = [sys.executable, "-P", "-m", "engine"]

LINE_LIMIT = 1 << 20              # the longest reply line is a position string or a record
COMMAND_TIMEOUT = 60.0            # s: any command but a search (start-up and big records included)
SEARCH_MARGIN = 30.0              # s: added to twice a search's own time limit
UNBOUNDED_SEARCH_TIMEOUT = 3600.0  # s: a search with no time limit, perft, analyze live
DEFAULT_THINK_MS = 1000           # genmove with no limit at all (protocol.md 6.3)
QUIT_WAIT = 3.0                   # s: for the engine to exit after `quit`
TERMINATE_WAIT = 2.0              # s: after SIGTERM to its group
KILL_WAIT = 5.0                   # s: after SIGKILL (only a process stuck in the kernel stays)
SEARCH_COMMANDS = {"genmove", "reg_genmove", "analyze"}


class EngineError(RuntimeError):
    """The engine refused a command, went away, or could not be started."""


class EngineRefused(EngineError):
    """A '?' reply; the message is its text (with the command, from EngineProcess.ask)."""


class EngineDied(EngineError):
    """The engine ended, closed its output, or wrote something that is not a reply."""


class EngineTimeout(EngineDied):
    """No reply within the time limit; the engine was stopped (its replies are out of step)."""


# --- children: environment, process groups, cleanup at exit and on signals ----------------------

def default_env(base: Optional[dict] = None) -> dict:
    """`base` (default: our environment) with this package importable: for the default engine
    and this package's own workers only."""
    env = dict(os.environ if base is None else base)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def command_env(argv: list[str]) -> Optional[dict]:
    """The environment for a child: None (exactly ours) unless it is the default engine."""
    return default_env() if argv == DEFAULT_ENGINE_ARGV else None


def default_engine_argv() -> tuple[list[str], dict]:
    """This package's own engine, run by the interpreter that runs us, and its environment."""
    return list(DEFAULT_ENGINE_ARGV), default_env()


_children: dict[int, str] = {}   # pid (= process group id) -> name, until the child is reaped
_previous_handlers: dict[int, object] = {}
_interrupts = 0
_atexit_registered = False


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def kill_children() -> None:
    """SIGKILL every process group this client started that may still run."""
    for pgid in list(_children):
        _signal_group(pgid, signal.SIGKILL)


def _on_signal(signum: int, frame) -> None:
    global _interrupts
    if signum == signal.SIGINT:
        _interrupts += 1
    if signum != signal.SIGINT or _interrupts > 1:
        kill_children()
    previous = _previous_handlers.get(signum)
    if callable(previous):
        previous(signum, frame)
    elif previous != signal.SIG_IGN:  # the default action (or a handler set outside Python)
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)


def install_cleanup() -> None:
    """Kill our children at exit, and on SIGTERM or a repeated SIGINT (chained to the handler
    in place).  Signal handlers can only be set in the main thread: elsewhere only atexit."""
    global _atexit_registered
    if not _atexit_registered:
        atexit.register(kill_children)
        _atexit_registered = True
    if _previous_handlers or threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(signum)
        if previous == signal.SIG_IGN:  # e.g. a background job's SIGINT: stay deaf to it
            continue
        _previous_handlers[signum] = previous
        signal.signal(signum, _on_signal)


def command_argv(command: str, name: str) -> list[str]:
    """A command line split as a shell would; EngineError in one line if it cannot be."""
    try:
        argv = shlex.split(command)
    except ValueError as e:  # unbalanced quotes
        raise EngineError(f"cannot start {name} ({command!r}): {e}") from None
    if not argv:
        raise EngineError(f"cannot start {name}: the command is empty")
    return argv


def start(command: str, name: str, stderr, cwd: Optional[Path]) -> subprocess.Popen:
    """A child with pipes, in its own process group, killed at our exit; EngineError with one
    clear line if it cannot start."""
    install_cleanup()
    argv = command_argv(command, name)
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=stderr, text=True, bufsize=1, cwd=cwd,
                                env=command_env(argv), start_new_session=True)
    except OSError as e:
        raise EngineError(f"cannot start {name} ({command!r}): {e.strerror or e}") from None
    _children[proc.pid] = name
    return proc


def stop_popen(proc: subprocess.Popen, wait: float = QUIT_WAIT) -> None:
    """After the child was asked to quit: wait, then SIGTERM, then SIGKILL its group."""
    for signum, timeout in ((None, wait), (signal.SIGTERM, TERMINATE_WAIT),
                            (signal.SIGKILL, KILL_WAIT)):
        if signum is not None:
            _signal_group(proc.pid, signum)
        try:
            proc.wait(timeout=timeout)
            break
        except subprocess.TimeoutExpired:
            continue
    if proc.returncode is not None:
        _signal_group(proc.pid, signal.SIGKILL)  # whatever it left in its group
        _children.pop(proc.pid, None)


def _command_words(line: str) -> list[str]:
    """The command's name and arguments (no id, no comment), as the engine splits them."""
    words = line.split("#", 1)[0].split()
    if words and words[0].isdigit():
        words = words[1:]
    return words


class SearchLimits:
    """The time limits sent through the client, to bound how long a search may take."""

    def __init__(self) -> None:
        self.movetime_ms = 0
        self.depth = 0
        self.nodes = 0
        self.clock_ms: Optional[int] = None  # the most any one move could be given

    def update(self, words: list[str]) -> None:
        """After a command succeeded."""
        try:
            name, args = words[0], words[1:]
            if name == "option" and len(args) == 2 and args[0].lower() in ("movetime", "depth",
                                                                              "nodes"):
                setattr(self, {"movetime": "movetime_ms"}.get(args[0].lower(), args[0].lower()),
                        int(args[1]))
            elif name == "time_control" and args:
                self.clock_ms = None if args[0] == "off" else sum(int(a) for a in args[:2])
            elif name == "time_settings" and len(args) == 3:
                main, byo, stones = (int(a) for a in args)
                self.clock_ms = None if byo > 0 and stones == 0 else 1000 * (main + byo)
            elif name == "time_left" and len(args) == 3:
                self.clock_ms = max(self.clock_ms or 0, 1000 * int(args[1]))
        except (IndexError, ValueError):
            pass

    def think_ms(self) -> Optional[int]:
        """The longest a genmove may think; None when only depth or nodes bound it."""
        times = [t for t in (self.movetime_ms or None, self.clock_ms) if t is not None]
        if times:
            return min(times)
        return None if self.depth or self.nodes else DEFAULT_THINK_MS

    def reply_timeout(self, words: list[str], default: float) -> float:
        """How long to wait for the reply to this command."""
        if not words:
            return default
        name, args = words[0], words[1:]
        if name == "perft" or (name == "analyze" and args[:1] == ["live"]):
            return UNBOUNDED_SEARCH_TIMEOUT
        if name not in SEARCH_COMMANDS:
            return default
        if name == "analyze" and args and args[0].isdigit():
            ms: Optional[int] = int(args[0])
        else:
            ms = self.think_ms()
        if ms is None:
            return UNBOUNDED_SEARCH_TIMEOUT
        return max(default, 2 * ms / 1000 + SEARCH_MARGIN)


# --- the asyncio core ---------------------------------------------------------------------------

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
        install_cleanup()
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=self.stderr, env=self.env, cwd=self.cwd, limit=LINE_LIMIT,
            start_new_session=True)  # a Ctrl-C meant for us is not the engine's
        _children[self.proc.pid] = self.name
        self._tasks.append(asyncio.create_task(self._reap()))
        if self.stderr == asyncio.subprocess.PIPE:
            self._tasks.append(asyncio.create_task(self._drain_stderr()))

    async def _reap(self) -> None:
        assert self.proc
        await self.proc.wait()
        _signal_group(self.proc.pid, signal.SIGKILL)  # whatever it left in its group
        _children.pop(self.proc.pid, None)

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
        words = _command_words(line)
        limit = self.limits.reply_timeout(words, self.timeout) if timeout is None else timeout
        async with self._lock:
            try:
                reply = await asyncio.wait_for(self._exchange(line, bool(words)), limit)
            except asyncio.TimeoutError:
                why = f"{self.name} did not answer {line!r} within {limit:g} s"
                await self._stop(signal.SIGTERM)
                raise self._break(why, EngineTimeout) from None
            except asyncio.CancelledError:  # its reply may still come: later ones out of step
                self._owed = True
                self._broken = self._broken or f"{self.name}: the reply to {line!r} was abandoned"
                raise
        if reply[0]:
            self.limits.update(words)
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
                await asyncio.wait_for(proc.stdin.drain(), QUIT_WAIT)
                proc.stdin.close()  # the end of input ends an engine that ignores quit
                await asyncio.wait_for(proc.wait(), QUIT_WAIT)
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
            _signal_group(self.proc.pid, signum)
            try:
                await asyncio.wait_for(self.proc.wait(),
                                       TERMINATE_WAIT if signum == signal.SIGTERM else KILL_WAIT)
            except asyncio.TimeoutError:
                pass
        if self.alive:
            log.warning("%s (pid %s) survived SIGKILL for %g s", self.name, self.pid, KILL_WAIT)
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        _, pending = await asyncio.wait(self._tasks, timeout=TERMINATE_WAIT) if self._tasks \
            else (set(), set())
        for task in pending:  # a grandchild still holds stderr open
            task.cancel()


# --- the blocking face, for the tools ----------------------------------------------------------

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
        install_cleanup()
        self.name = name
        self.command = command
        argv = command_argv(command, name)
        self.core = AsyncEngineProcess(argv, env if env is not None else command_env(argv),
                                       stderr=stderr, cwd=cwd, name=name, timeout=timeout)
        try:
            _LOOP.run(self.core.start())
        except OSError as e:
            raise EngineError(f"cannot start {name} ({command!r}): {e.strerror or e}") from None

    @property
    def pid(self) -> Optional[int]:
        return self.core.pid

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


install_cleanup()  # at import, in the main thread: tools that start engines only in threads


# --- CodeCup 2011 DVONN players (notation: engine/games/dvonn/notation.py) ----------
# One move per line; White gets 'Start' first; Black's first line is White's first move;
# 'Quit' ends the game.

PLAYER_LINE_LIMIT = 4096     # characters of one line; a CodeCup move is a few
PLAYER_LINES_QUEUED = 1024   # lines read ahead of the referee
_OVERLONG = "\0overlong"     # put in the queue by the reader: not a line a player can send


class LinePlayer:
    """A process speaking a one-line-per-move protocol, read with a timeout."""

    def __init__(self, command: str, name: str, stderr=subprocess.DEVNULL,
                 cwd: Optional[Path] = None) -> None:
        import queue
        import threading

        self.name = name
        self.proc = start(command, name, stderr, cwd)
        assert self.proc.stdin is not None and self.proc.stdout is not None, "start() pipes both"
        self.into, self.out = self.proc.stdin, self.proc.stdout
        # bounded: a player that floods its output waits for the referee to read it
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue(maxsize=PLAYER_LINES_QUEUED)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            line = self.out.readline(PLAYER_LINE_LIMIT + 1)
            if not line:
                break
            if len(line) > PLAYER_LINE_LIMIT:  # no move is this long: the player is broken
                self.lines.put(_OVERLONG)
                break
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        try:
            self.into.write(line + "\n")
            self.into.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(f"{self.name} is not running (sending {line!r})") from None

    def receive(self, timeout: float) -> str:
        """The next non-empty line; EngineError after timeout seconds or at EOF."""
        import queue

        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise EngineError(f"{self.name} sent nothing for {timeout:g} s") from None
            if line is None:
                raise EngineError(f"{self.name} closed its output")
            if line is _OVERLONG:
                raise EngineError(f"{self.name} sent a line longer than {PLAYER_LINE_LIMIT} characters")
            if line.strip():
                return line.strip()

    def close(self, timeout: float = 10) -> None:
        """Quit, then wait up to `timeout` seconds before terminating, then killing, its group."""
        try:
            self.send("Quit")
            self.into.close()
        except (EngineError, OSError):
            pass
        stop_popen(self.proc, timeout)
        self.out.close()
