"""The runner's engines: one per worker, started at its first game and kept for the runner's
life, and the think that turns a record into a move (and, for resigning, its score)."""
from __future__ import annotations

import logging
import os
import signal
import threading
from typing import Optional

from engine import records
from engine.client import EngineError, EngineProcess
from engine.protocol.analysis_lines import read_analyze
from engine.tools.bridge import Thinking, next_move, prepare_engine  # record -> move, shared

from .config import Settings

log = logging.getLogger("gipf-littlegolem")


class EngineSlot:
    """One worker's engine: started at its first game, kept for the runner's life."""

    def __init__(self, number: int, settings: Settings) -> None:
        self.name = f"engine {number}"
        self.settings = settings
        self.engine: Optional[EngineProcess] = None
        self._lock = threading.Lock()  # starting and closing, between a worker and shutdown
        self._closed = False

    def get(self) -> EngineProcess:
        with self._lock:
            if self._closed:
                raise EngineError(f"{self.name}: the runner is stopping")
            if self.engine is None:
                self.engine = self._start()
            return self.engine

    def _start(self) -> EngineProcess:
        engine = EngineProcess(self.settings.engine, self.name)
        try:
            for line in self.settings.engine_setup:
                engine.ask(line)
            version = engine.ask("version")
        except EngineError:
            _quit(engine)
            raise
        log.info("%s started (pid %s): %s", self.name, engine.pid, version)
        if "core=compiled" not in version.split():
            if not self.settings.allow_python_player:
                _quit(engine)
                raise EngineError(f"{self.name} does not run the compiled core "
                                  f"(version: {version.strip()[:120]!r}); build it or "
                                  "pass --allow-python-player")
            log.warning("%s runs without the compiled core: it plays far weaker", self.name)
        return engine

    def abandon(self) -> None:
        """End the engine at once (its think is abandoned; SIGTERM ends the engine, §1 of
        protocol.md); the worker then sees its reply fail and closes it."""
        engine = self.engine
        pid = None if engine is None else engine.pid
        if pid is not None:
            try:
                os.killpg(pid, signal.SIGTERM)
            except OSError:  # already gone
                pass

    def close(self, *, for_good: bool = False) -> None:
        """Quit the engine (a new one starts at the next game, unless for_good)."""
        with self._lock:
            self._closed = self._closed or for_good
            engine, self.engine = self.engine, None
            if engine is not None:
                _quit(engine)


def _quit(engine: EngineProcess) -> None:
    try:
        engine.close()
    except (EngineError, OSError):
        pass


def think(played: records.Played, engine: EngineProcess, movetime: int,
          with_score: bool) -> tuple[str, Optional[int]]:
    """The engine's move at the replayed record's last position, in the record's notation, and
    (with_score) the search's score from our side, None when the engine gave none.  Without a
    score this is gipf-bridge's genmove; with one it is `analyze`, the same search without the
    opening book, whose move the rules check here as genmove's are."""
    time = Thinking(movetime_ms=movetime)
    if not with_score:
        return next_move(played, engine, time), None
    prepare_engine(played, engine, time)
    text = engine.ask("analyze")
    move = text.split("\n", 1)[0].strip()
    if not move:
        raise EngineError("the engine's analysis named no move")
    try:
        score = read_analyze(text).score
    except ValueError:  # a field that is not a number: the move stands, without a score
        score = None
    played.game.play_text(move)  # never a move our own rules reject
    return records.move_to_source_notation(played.record, move), score
