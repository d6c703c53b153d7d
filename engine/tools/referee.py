"""The referee of a match between two engines: the authoritative game (the engine's own rules
module), the seats that ask the engines for moves and tell them the other side's, the openings,
and one game played from its opening to its result.

A seat that does not answer a command in time loses the game: `genmove` may take its time
budget (the move time, or the side's remaining clock with a game clock) plus --move-timeout;
the engine is then stopped and started again for the next game."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Optional

from engine.client import EngineError, EngineProcess, EngineTimeout, Limit
from engine.games import GAMES, SPECS
from engine.games.dvonn.codecup_notation import LINE_NOTATIONS, LineNotation
from engine.protocol.analysis_lines import read_info
from engine.splitmix64 import SplitMix64
from engine.tools.cli import require_compiled


class SeatTimeout(EngineError):
    """A seat that did not answer in time."""


def send_within(engine: EngineProcess, line: str, timeout: Optional[float]) -> tuple[bool, str]:
    """engine.send(line), waiting at most `timeout` seconds (None: the client's own bound for
    the command); SeatTimeout, with the engine stopped, when no reply came in time.  The one
    place the referee waits on an engine with a limit."""
    try:
        return engine.send(line, timeout=timeout)
    except EngineTimeout:
        limit = "its time limit" if timeout is None else f"{timeout:g} s"
        raise SeatTimeout(f"{engine.name} did not answer {line!r} within {limit}") from None


# --- openings ----------------------------------------------------------------------------

def random_prefixes(cls, count: int, plies: int, seed: int) -> list[list[str]]:
    """count random prefixes of `plies` moves from cls's standard start (SplitMix64 from seed):
    openings for a game without seeded layouts (in DVONN: placements)."""
    rng = SplitMix64(seed)
    openings = []
    for _ in range(count):
        game = cls.start()
        for _ in range(plies):
            moves = game.legal_moves()
            if game.over or not moves:
                raise ValueError(f"a {cls.title} game can end within {plies} random moves")
            game.push(moves[rng.next() % len(moves)])
        openings.append([game.move_text(m) for m, _ in game.history])
    return openings


# --- players ------------------------------------------------------------------------------

INFO_WAIT = 0.01  # s: for a genmove's last `info depth` line after its reply


def pin(pid: Optional[int], cpus: Optional[set[int]]) -> None:
    """Keep a player's process (and the threads it starts later) on these CPUs."""
    if pid is None or not cpus:
        return
    try:
        os.sched_setaffinity(pid, cpus)
    except ProcessLookupError:  # already gone: its game reports why
        pass


def usable_cpus() -> list[int]:
    """The CPUs this process may run on, in order (empty where affinity is not supported)."""
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


class GtpSeat:
    """An engine speaking our protocol, kept for the whole match (started again after it
    failed to answer in time), on `cpus` when given."""

    def __init__(self, command: str, name: str, setup: str, compiled_only: bool = True,
                 margin: Optional[float] = None, cpus: Optional[set[int]] = None) -> None:
        self.command, self.name, self.setup = command, name, setup
        self.compiled_only, self.margin, self.cpus = compiled_only, margin, cpus
        self.engine = self._start_engine()

    def _start_engine(self) -> EngineProcess:
        # stderr read: the search's `info depth` lines tell the depth each move reached
        engine = EngineProcess(self.command, self.name, stderr=subprocess.PIPE)
        pin(engine.pid, self.cpus)
        try:
            if self.compiled_only:
                require_compiled(engine, self.name)
            for line in filter(None, (s.strip() for s in self.setup.split(";"))):
                engine.ask(line)
        except BaseException:
            engine.close()
            raise
        return engine

    def _ask(self, line: str, budget: Optional[float] = None) -> str:
        timeout = None if self.margin is None else (budget or 0.0) + self.margin
        ok, text = send_within(self.engine, line, timeout)
        if not ok:
            raise EngineError(f"{self.name} refused {line!r}: {text}")
        return text

    def start(self, setup: list[str], colour: int, limit: Optional[Limit] = None,
              clock: Optional[tuple[int, int]] = None) -> None:
        """A new game: the setup lines, then the limit and the clock (game ms, increment ms)."""
        if not self.engine.alive:  # stopped after a timeout: a fresh one
            self.engine.close()
            self.engine = self._start_engine()
        for line in setup:
            self.engine.ask(line)
        if limit is not None:
            self.engine.set_limit(limit)
        if clock is not None:
            self.engine.set_clock(*clock)

    def genmove(self, side: int, game, budget: Optional[float] = None) -> str:
        self.engine.stderr_tail.clear()
        return self._ask(f"genmove {'wb'[side]}", budget)

    def last_depth(self) -> Optional[int]:
        """The depth the last genmove's search completed, from its last `info depth` line
        (None: no search reported one, e.g. a book or forced move)."""
        deadline = time.monotonic() + INFO_WAIT
        while True:  # stderr and the reply come on two pipes: its line may be a moment behind
            for line in reversed(self.engine.stderr_tail):
                depth = (read_info(line) or {}).get("depth")
                if isinstance(depth, int):
                    return depth
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.001)

    def play(self, side: int, move: str) -> None:
        self._ask(f"play {'wb'[side]} {move}")

    def finish(self) -> None:
        pass

    def close(self) -> None:
        self.engine.close()


def codecup_games() -> list[str]:
    """The games a CodeCup player can play here: the registered games in LINE_NOTATIONS."""
    return [name for name in SPECS if name in LINE_NOTATIONS]


class CodecupSeat:
    """A CodeCup player (its game's LINE_NOTATIONS entry): a new process per game, one move
    per line."""

    def __init__(self, command: str, name: str, timeout: float, notation: LineNotation,
                 cpus: Optional[set[int]] = None) -> None:
        self.command, self.name, self.timeout = command, name, timeout
        self.notation, self.cpus = notation, cpus
        self.player: Optional[Any] = None  # the notation's player (a LinePlayer)

    def start(self, setup: list[str], colour: int, limit: Optional[Limit] = None,
              clock: Optional[tuple[int, int]] = None) -> None:
        """A new game (its own process; the timeout given at the start bounds each move)."""
        self.player = self.notation.player(self.command, self.name)
        pin(self.player.proc.pid, self.cpus)
        if colour == 0:
            self.player.send("Start")

    def genmove(self, side: int, game, budget: Optional[float] = None) -> str:
        assert self.player is not None, "started for this game"
        line = self.player.receive(self.timeout)
        try:
            return self.notation.to_move(line)
        except ValueError as e:
            raise EngineError(f"{self.name}: {e}") from None

    def last_depth(self) -> Optional[int]:
        return None  # the CodeCup protocol reports no search

    def play(self, side: int, move: str) -> None:
        assert self.player is not None, "started for this game"
        self.player.send(self.notation.from_move(move))

    def finish(self) -> None:
        if self.player is not None:
            self.player.close()
            self.player = None

    def close(self) -> None:
        self.finish()


# --- games ----------------------------------------------------------------------------------

def new_game(args, index: int, openings: list[list[str]]):
    """(referee game, setup commands for a protocol engine, opening text) for game index."""
    cls = GAMES[args.game]
    seed = None
    if cls.has_openings and args.openings == "random":
        seed = args.seed + index // 2  # each layout twice, colours swapped
    game = cls.start(seed)
    setup = [f"newgame {cls.name}" + (f" random {seed}" if seed is not None else "")]
    prefix = openings[(index // 2) % len(openings)] if openings else []
    for move in prefix:
        game.play_text(move)
    if prefix:
        setup.append("replay " + " ".join(prefix))
    return game, setup, " ".join(prefix) or (f"random {seed}" if seed is not None else "")


def move_budget(args, left_ms: float) -> float:
    """Seconds a genmove may take by the rules of the match: the move time, or the side's
    remaining clock with a game clock."""
    return max(left_ms if args.gametime else args.movetime, 0) / 1000


@dataclass
class Played:
    white_score: float       # 1 / 0.5 / 0
    record: str
    thinks: list = field(default_factory=list)  # (ply, side, ms, move, depth) per genmove
    lost_on_time: Optional[int] = None          # the side whose clock ran out


def play_game(args, seats: list, white: int, index: int, openings: list[list[str]]) -> Played:
    """Play one game: its result, record line and think times."""
    game, setup, opening = new_game(args, index, openings)
    for k, seat in enumerate(seats):
        extra = [f"option seed {args.seed * 7919 + index * 2 + k}"]
        seat.start(setup + extra, 0 if k == white else 1,
                   limit=Limit(time_ms=args.movetime) if args.movetime and not args.gametime else None,
                   clock=(args.gametime, args.increment) if args.gametime else None)
    order = {0: seats[white], 1: seats[1 - white]}
    head = f"{setup[0]}{' | opening ' + opening if opening else ''}"
    moves: list[str] = []
    thinks: list[tuple[int, int, float, str, Optional[int]]] = []
    left = [float(args.gametime)] * 2  # the referee's clocks (with --gametime), ms
    try:
        while not game.over:
            side = game.side
            mover, other = order[side], order[1 - side]
            ply = len(game.history) + 1
            try:
                started = time.monotonic()
                text = mover.genmove(side, game, move_budget(args, left[side]))
                ms = (time.monotonic() - started) * 1000
                game.play_text(text)
            except (ValueError, EngineError) as e:
                print(f"game {index + 1}: {mover.name} as {'wb'[side]} failed: {e}", file=sys.stderr)
                return Played(0.0 if side == 0 else 1.0, f"{head} | forfeit by {'wb'[side]}: {e}",
                              thinks)
            thinks.append((ply, side, ms, text, mover.last_depth()))
            moves.append(text)
            if args.gametime:
                left[side] -= ms
                if left[side] < 0:
                    print(f"game {index + 1}: {mover.name} as {'wb'[side]} lost on time "
                          f"({ms:.0f} ms on ply {ply})", file=sys.stderr)
                    return Played(0.0 if side == 0 else 1.0,
                                  f"{head} | {'wb'[side]} lost on time | {' , '.join(moves)}",
                                  thinks, side)
                left[side] += args.increment
            other.play(side, text)
    finally:
        for seat in seats:
            seat.finish()
    result = game.result()
    white_score = 0.5 if result == "0" else (1.0 if result.startswith("W") else 0.0)
    used = (f" | clock used w {args.gametime - left[0]:.0f} ms b {args.gametime - left[1]:.0f} ms"
            if args.gametime else "")
    return Played(white_score, f"{head} | {result}{used} | {' , '.join(moves)}", thinks)




def make_seats(args, cpus: Optional[set[int]] = None) -> list:
    """Seat A and seat B, their processes on `cpus` when given."""
    compiled_only = not getattr(args, "allow_python_player", False)
    margin = getattr(args, "move_timeout", None)
    margin = None if margin is None else margin / 1000
    seats: list = [GtpSeat(args.a, "A", args.a_setup, compiled_only, margin, cpus)]
    try:
        if args.b_codecup:
            notation = LINE_NOTATIONS[args.game]  # gipf-match checks the game has a CodeCup player
            seats.append(CodecupSeat(args.b_codecup, "B", args.codecup_timeout, notation, cpus))
        else:
            seats.append(GtpSeat(args.b, "B", args.b_setup, compiled_only, margin, cpus))
    except BaseException:
        seats[0].close()
        raise
    return seats

