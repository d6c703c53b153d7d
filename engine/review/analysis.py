"""Analysing a recorded game through the engine's own protocol.

One engine replays the record (``setposition`` of the start, ``play`` of every move,
``position`` before each) — every move is checked by the engine's rules.  Then each position
is searched on its own (``setposition`` + ``analyze``) by N engine processes at once: a
position's analysis does not depend on the others, so the order and the number of processes
do not change the result at a fixed depth (the engine clears its hash table on
``setposition``).
"""
from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..client import EngineError, EngineProcess, Limit
from ..protocol.analysis_lines import read_analyze
from ..search import DEFAULT_MOVETIME_MS
from .judge import terminal_score

SIDE_NAMES = {"w": "White", "b": "Black"}


class ReviewError(Exception):
    """The record cannot be reviewed (illegal move, engine failure); the message says why."""


@dataclass
class Limits:
    """How long each position is searched: a fixed depth or a fixed time."""
    depth: Optional[int] = None
    movetime: Optional[int] = None

    @property
    def movetime_ms(self) -> int:
        """The time per position when no depth is given (the engine's own default without one)."""
        return self.movetime or DEFAULT_MOVETIME_MS

    def limit(self, depth: Optional[int] = None) -> Limit:
        """The client's Limit for these limits, or for a fixed `depth` instead."""
        depth = self.depth if depth is None else depth
        if depth is not None:
            return Limit(depth=depth, time_ms=0)
        return Limit(depth=0, time_ms=self.movetime_ms)

    def text(self) -> str:
        return f"depth {self.depth}" if self.depth is not None else f"{self.movetime_ms} ms"


@dataclass
class GameLine:
    """The game as the engine replayed it: positions[k] is before moves[k]; the last
    position is after the last move."""
    game: str
    positions: list[str]
    moves: list[str]                 # the engine's canonical text of each move
    over: bool = False
    result: str = ""
    reason: str = ""

    def mover(self, index: int) -> str:
        """'w' or 'b': the side to act in positions[index] (the position string's 2nd field)."""
        return self.positions[index].split()[1]


@dataclass
class Analysis:
    """The engine's view of one position; score from the side to act's view."""
    best: str
    score: Optional[int]
    depth: Optional[int] = None
    pv: list[str] = field(default_factory=list)
    forced: bool = False             # the only legal move


def start_engine(command: str, limits: Limits) -> EngineProcess:
    try:
        engine = EngineProcess(command, name="engine")
    except (OSError, ValueError) as e:   # no such program, an unbalanced quote in the command
        raise ReviewError(f"cannot start the engine {command!r}: {e}") from None
    try:
        for line in ["option info off", "option threads 1"]:
            engine.ask(line)
        engine.set_limit(limits.limit())
    except EngineError as e:
        engine.close()
        raise ReviewError(f"engine: {e}") from None
    return engine


def read_status(engine: EngineProcess) -> dict[str, str]:
    """`status` as a dict: over, result, reason, ..."""
    return dict(item.split("=", 1) for item in engine.ask("status").split())


def replay_line(engine: EngineProcess, game: str, start: str, moves: list[str]) -> GameLine:
    """Replay moves from the start position string; ReviewError names an illegal move."""
    ok, text = engine.send(f"setposition {start}")
    if not ok:
        raise ReviewError(f"bad record: its start position: {text}")
    line = GameLine(game=game, positions=[], moves=[])
    for number, move in enumerate(moves, 1):
        line.positions.append(engine.ask("position"))
        side = line.mover(number - 1)
        ok, text = engine.send(f"play {side} {move}")
        if not ok:
            raise ReviewError(f"bad record: move {number} ({move}, {SIDE_NAMES[side]}): {text}")
        line.moves.append(text)
    line.positions.append(engine.ask("position"))
    status = read_status(engine)
    line.over = status.get("over") == "yes"
    line.result = status.get("result", "-").replace("-", "")
    line.reason = status.get("reason", "-").replace("_", " ").strip("-")
    return line


def parse_analysis(text: str) -> Analysis:
    """The reply of `analyze` (§6.5), read by the protocol's analysis_lines."""
    reply = read_analyze(text)
    return Analysis(best=reply.best, score=reply.score, depth=reply.depth, pv=reply.pv)


@dataclass(frozen=True)
class Task:
    """One search: a position, with a depth of its own (else the pool's limits), and the
    move played there when a forced move is worth detecting."""
    key: tuple
    position: str
    depth: Optional[int] = None
    played: Optional[str] = None


class Worker:
    """One engine process; sets its depth per task only when it changes."""

    def __init__(self, command: str, limits: Limits) -> None:
        self.limits = limits
        self.engine = start_engine(command, limits)
        self.depth: Optional[int] = None       # None: the limits' own settings

    def run(self, task: Task) -> Analysis:
        if task.depth != self.depth:
            self.engine.set_limit(self.limits.limit(task.depth))
            self.depth = task.depth
        self.engine.ask(f"setposition {task.position}")
        analysis = parse_analysis(self.engine.ask("analyze"))
        if analysis.score is None or (task.played is not None and analysis.best == task.played):
            # only a move the engine also chose can be forced; one legal move means no choice
            analysis.forced = len(self.engine.ask("legal_moves").splitlines()) == 1
        if analysis.score is None:
            if not analysis.forced:
                raise ReviewError("the engine's analyze gave no score: its compiled search core "
                                  "is not in use (see its 'version' and 'option player')")
            analysis.score = self.forced_score(task.position.split()[1], analysis.best)
        return analysis

    def forced_score(self, side: str, move: str) -> int:
        """The score of a position whose only move is `move` (the engine plays such moves
        without searching, so analyze gives no score): that of the first position after it
        that has a choice, or the final result."""
        while True:
            self.engine.ask(f"move {move}")
            status = read_status(self.engine)
            to_act = self.engine.ask("position").split()[1]
            if status.get("over") == "yes":
                return terminal_score(status.get("result", "0"), side)
            analysis = parse_analysis(self.engine.ask("analyze"))
            if analysis.score is not None:
                return analysis.score if to_act == side else -analysis.score
            move = analysis.best


FollowUp = Callable[[Task, Analysis], Optional[Task]]


class EnginePool:
    """N engine processes taking tasks from one queue, each in its own thread.

    A finished task may ask for a follow-up search (``follow_up``); progress counts a task as
    done together with its follow-up."""

    def __init__(self, command: str, limits: Limits, jobs: int) -> None:
        self.command, self.limits, self.jobs = command, limits, max(1, jobs)
        self.workers: list[Worker] = []
        self.lock = threading.Lock()

    def run(self, tasks: list[Task], follow_up: FollowUp = lambda task, analysis: None,
            progress: Callable[[int, int], None] = lambda done, total: None
            ) -> dict[tuple, Analysis]:
        todo: "queue.Queue[Task]" = queue.Queue()
        for task in tasks:
            todo.put(task)
        results: dict[tuple, Analysis] = {}
        errors: list[BaseException] = []
        state = {"done": 0, "pending": len(tasks)}
        progress(0, len(tasks))

        def work() -> None:
            try:
                worker = Worker(self.command, self.limits)
                with self.lock:
                    self.workers.append(worker)
                while not errors:
                    with self.lock:
                        if state["pending"] == 0:
                            return
                    try:
                        task = todo.get(timeout=0.05)
                    except queue.Empty:
                        continue   # another worker's task may still add a follow-up
                    analysis = worker.run(task)
                    extra = follow_up(task, analysis)
                    with self.lock:
                        results[task.key] = analysis
                        if extra is not None:
                            todo.put(extra)
                        else:
                            state["pending"] -= 1
                            state["done"] += 1
                            progress(state["done"], len(tasks))
            except (EngineError, ReviewError, OSError, ValueError) as e:
                errors.append(e)

        threads = [threading.Thread(target=work, daemon=True)
                   for _ in range(max(1, min(self.jobs, len(tasks))))]
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():   # join in slices so Ctrl-C reaches the main thread
                thread.join(0.2)
        if errors:
            error = errors[0]
            raise error if isinstance(error, ReviewError) else ReviewError(f"engine: {error}")
        return results

    def close(self, kill: bool = False) -> None:
        """Quit the engines; kill them instead when interrupted (a search in C does not stop
        for Ctrl-C before its limit)."""
        with self.lock:
            workers, self.workers = self.workers, []
        for worker in workers:
            if kill:
                worker.engine.kill()
            else:
                worker.engine.close()
