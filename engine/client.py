"""The client side of the protocol: start an engine process and ask it commands.

Used by the tools in scripts/ (match, bridge, codecup, regress).  Replies are
read as GTP frames: '=' or '?', an optional id, text, ended by an empty line.
"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Optional

from . import gtp

REPO = Path(__file__).resolve().parents[1]
DEFAULT_ENGINE = f"{shlex.quote(sys.executable)} -m engine"


def child_env() -> dict:
    """The environment for a child: ours, with the repository importable (python3 -m engine
    works from any directory; relative paths in commands stay relative to ours)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


class EngineError(RuntimeError):
    """The engine refused a command ('?' reply) or went away."""


def start(command: str, name: str, stderr, cwd: Optional[Path]) -> subprocess.Popen:
    """A child in its own process group (Ctrl-C in a terminal reaches only us; the child
    ends when its input closes); EngineError with one clear line if it cannot start."""
    try:
        return subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=stderr, text=True, bufsize=1,
                                cwd=cwd, env=child_env(), start_new_session=True)
    except ValueError as e:  # shlex: unbalanced quotes
        raise EngineError(f"cannot start {name} ({command!r}): {e}") from None
    except OSError as e:
        raise EngineError(f"cannot start {name} ({command!r}): {e.strerror or e}") from None


class EngineProcess:
    """One engine process; commands go in, GTP replies come out."""

    def __init__(self, command: str = DEFAULT_ENGINE, name: str = "engine",
                 stderr=subprocess.DEVNULL, cwd: Optional[Path] = None) -> None:
        self.name = name
        self.proc = start(command, name, stderr, cwd)

    def send(self, line: str) -> tuple[bool, str]:
        """(ok, text) of the reply to one command line; the text without '=', '?' and id."""
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(f"{self.name} is not running (sending {line!r})") from None
        lines: list[str] = []
        while True:
            reply = self.proc.stdout.readline()
            if not reply:
                raise EngineError(f"{self.name} closed its output after {line!r}")
            reply = reply.rstrip("\r\n")
            if reply == "" and lines:
                break
            if reply or lines:
                lines.append(reply)
        try:
            ok, _, text = gtp.parse_reply(lines)
        except ValueError as e:
            raise EngineError(f"{self.name}: {e}") from None
        return ok, text

    def ask(self, line: str) -> str:
        """The reply text; EngineError for a '?' reply."""
        ok, text = self.send(line)
        if not ok:
            raise EngineError(f"{self.name} refused {line!r}: {text}")
        return text

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except (EngineError, OSError):
                pass
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()


# --- CodeCup 2011 DVONN players (notation: engine/records/dvonn_notation.py) ----------
# One move per line; White gets 'Start' first; Black's first line is White's first move;
# 'Quit' ends the game.

class LinePlayer:
    """A process speaking a one-line-per-move protocol, read with a timeout."""

    def __init__(self, command: str, name: str, stderr=subprocess.DEVNULL,
                 cwd: Optional[Path] = None) -> None:
        import queue
        import threading

        self.name = name
        self.proc = start(command, name, stderr, cwd)
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
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
            if line.strip():
                return line.strip()

    def close(self, timeout: float = 10) -> None:
        """Quit, then wait up to `timeout` seconds before killing it."""
        try:
            self.send("Quit")
            self.proc.stdin.close()
        except (EngineError, OSError):
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
