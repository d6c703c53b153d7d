"""The engine's child processes: their command and environment, their process groups, and
their end.

Every child runs in its own process group (a Ctrl-C in the terminal reaches only us).  The
groups still running are killed when this process exits and, once install_cleanup() ran in the
main thread, on SIGTERM and on a second SIGINT (the first is left to the program: a tool may
finish its work with the engines, and its exit then kills them).  Nothing is installed at
import: starting an engine calls install_cleanup(), and a program that starts its engines only
from other threads calls it once from its main thread first (the tools do, through
engine.tools.cli.guarded), since signal handlers can only be set there.

A child gets exactly our environment; only the default engine (this package's engine,
`python3 -P -m engine`) is given this package's folder on PYTHONPATH, so that it runs from any
directory: -P keeps the working folder off its path, so an `engine/` package there (a source
checkout) never stands in for this one.
"""
from __future__ import annotations

import atexit
import os
import shlex
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Optional

from .errors import EngineError

REPO = Path(__file__).resolve().parents[2]  # the folder holding the engine package
# -P (Python 3.11): the working folder is not put first on the child's path
DEFAULT_ENGINE = f"{shlex.quote(sys.executable)} -P -m engine"
DEFAULT_ENGINE_ARGV = [sys.executable, "-P", "-m", "engine"]
QUIT_WAIT = 3.0                   # s: for the engine to exit after `quit`
TERMINATE_WAIT = 2.0              # s: after SIGTERM to its group
KILL_WAIT = 5.0                   # s: after SIGKILL (only a process stuck in the kernel stays)


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


running: dict[int, str] = {}   # pid (= process group id) -> name, until the child is reaped
_previous_handlers: dict[int, object] = {}
_interrupts = 0
_atexit_registered = False


def signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def kill_children() -> None:
    """SIGKILL every process group this client started that may still run."""
    for pgid in list(running):
        signal_group(pgid, signal.SIGKILL)


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
    running[proc.pid] = name
    return proc


def stop_popen(proc: subprocess.Popen, wait: float = QUIT_WAIT) -> None:
    """After the child was asked to quit: wait, then SIGTERM, then SIGKILL its group."""
    for signum, timeout in ((None, wait), (signal.SIGTERM, TERMINATE_WAIT),
                            (signal.SIGKILL, KILL_WAIT)):
        if signum is not None:
            signal_group(proc.pid, signum)
        try:
            proc.wait(timeout=timeout)
            break
        except subprocess.TimeoutExpired:
            continue
    if proc.returncode is not None:
        signal_group(proc.pid, signal.SIGKILL)  # whatever it left in its group
        running.pop(proc.pid, None)
