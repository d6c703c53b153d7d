"""A CodeCup 2011 DVONN player process (gipf-codecup-referee, gipf-match --b-codecup): one
move per line (notation: engine/games/dvonn/notation.py); White gets 'Start' first; Black's
first line is White's first move; 'Quit' ends the game.  Started and ended as the engine
client starts and ends its children (engine/client/children.py)."""
from __future__ import annotations

import queue
import subprocess
import threading
from pathlib import Path
from typing import Optional

from ...client.children import start, stop_popen
from ...client.errors import EngineError

PLAYER_LINE_LIMIT = 4096     # characters of one line; a CodeCup move is a few
PLAYER_LINES_QUEUED = 1024   # lines read ahead of the referee
_OVERLONG = "\0overlong"     # put in the queue by the reader: not a line a player can send


class LinePlayer:
    """A process speaking a one-line-per-move protocol, read with a timeout."""

    def __init__(self, command: str, name: str, stderr=subprocess.DEVNULL,
                 cwd: Optional[Path] = None) -> None:
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
