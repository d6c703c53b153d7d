"""Choosing a move: limits and clock in, a rules-checked move out.

The compiled core (engine.core) searches when it is available and chosen;
whatever it suggests is checked by the rules layer before anyone sees it.
Otherwise, or if it ever suggests an illegal move, the Python player answers.
"""
from __future__ import annotations

import logging
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from . import core
from .clock import Clock
from .dvonn import DvonnGame, Move, POINTS
from .player import choose_move, random_move
from .rules import IllegalMove
from .tzaar import Action, TzaarGame

log = logging.getLogger("engine.search")
DEFAULT_MOVETIME_MS = 1000


@dataclass
class Options:
    threads: int = 1
    hash: int = 64
    seed: int = 0
    movetime: int = 0
    depth: int = 0
    nodes: int = 0
    player: str = "core"
    info: str = "on"
    multipv: int = 1
    ponder: str = "off"


@dataclass
class Thought:
    move: object
    score: Optional[int] = None
    depth: int = 0
    nodes: int = 0
    time_ms: float = 0.0
    pv: list = field(default_factory=list)  # action/move texts
    source: str = "python"
    lines: list = field(default_factory=list)  # multi-PV candidates: core.Line, best first


def core_phase(game) -> int:
    if isinstance(game, DvonnGame):
        return 0 if game.placed < POINTS else 1
    return 0 if game.opening_turn else 1


def moves_to_go(game) -> int:
    """How many more moves of ours the clock must still pay for (an estimate)."""
    if isinstance(game, DvonnGame):
        if game.placed < POINTS:  # placement gets roughly a third of the game's time
            return (POINTS - game.placed) // 2 + 55
        # Front-load the stacking phase: the first stacking moves decide the game, the end
        # is proven quickly and clock left over at the end is wasted.
        stacks = sum(1 for s in game.cells if s)
        return max(2, stacks // 3 - 6)
    stacks = sum(1 for s in game.cells if s)
    return max(5, stacks // 3 - 2)


def time_limit_ms(game, options: Options, clock: Clock) -> Optional[float]:
    limits = []
    if options.movetime:
        limits.append(float(options.movetime))
    if clock.active:
        limits.append(clock.budget_ms(game.side, moves_to_go(game)))
    if limits:
        return min(limits)
    if options.depth or options.nodes:
        return None
    return float(DEFAULT_MOVETIME_MS)


def rules_move(game, raw: list) -> object:
    """The core's (kind, from, to) tuples as a rules-layer move."""
    if isinstance(game, DvonnGame):
        return Move(*raw[0])
    return tuple(Action(*a) for a in raw)


def pv_text(game, raw_pv: list) -> list[str]:
    """The core's raw principal variation as move (DVONN) or action (TZAAR) texts."""
    pv = [core.decode_move(game.name, raw) for raw in raw_pv]
    if isinstance(game, DvonnGame):
        return [game.move_text(Move(*m)) for m in pv]
    return [game.action_text(Action(*a)) for a in pv]


@dataclass
class Watch:
    """How a search is watched from outside: stopped, reported on, limited."""
    stop: Optional[core.StopFlag] = None
    on_iteration: Optional[Callable] = None  # instead of the stderr info lines
    report_ms: int = 0          # also call on_iteration this often
    untimed: bool = False       # no time limit: only depth, nodes and `stop` end it
    multipv: int = 1


def think(game, options: Options, clock: Clock, limit_ms: Optional[float] = None,
          watch: Optional[Watch] = None) -> Thought:
    """The move to play now, with what the search found; never an illegal move."""
    started = time.monotonic()
    thought = _choose(game, options, clock, limit_ms, watch or Watch())
    thought.time_ms = (time.monotonic() - started) * 1000
    return thought


def _choose(game, options: Options, clock: Clock, limit_ms: Optional[float], watch: Watch) -> Thought:
    forced = _forced_move(game)
    if forced is not None:
        return Thought(forced, source="forced")
    if options.player == "random":
        return Thought(random_move(game, options.seed))
    if options.player == "core" and core.AVAILABLE:
        thought = _think_core(game, options, clock, limit_ms, watch)
        if thought is not None:
            return thought
    return Thought(choose_move(game, options.seed))


def _forced_move(game):
    """DVONN's only move (often a pass): played at once, so it costs no clock.

    TZAAR is not asked: listing its whole turns costs more than it saves.
    """
    if isinstance(game, DvonnGame) and game.placed == POINTS:
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
    return None


def _think_core(game, options: Options, clock: Clock, limit_ms: Optional[float],
                watch: Watch) -> Optional[Thought]:
    if watch.untimed:
        limit_ms = None
    elif limit_ms is None:
        limit_ms = time_limit_ms(game, options, clock)

    def report(iteration) -> None:
        if options.info == "on":
            nps = int(iteration.nodes * 1000 / max(iteration.time_ms, 1))
            print(f"info depth {iteration.depth} score {iteration.score} nodes {iteration.nodes} "
                  f"nps {nps} time {int(iteration.time_ms)} pv {' '.join(pv_text(game, iteration.pv))}",
                  file=sys.stderr, flush=True)

    result = core.search(game.name, game.cells, game.side, core_phase(game),
                         time_ms=limit_ms, depth=options.depth or None,
                         nodes=options.nodes or None, threads=options.threads,
                         hash_mb=options.hash, seed=options.seed,
                         on_iteration=watch.on_iteration or report, stop=watch.stop,
                         multipv=watch.multipv, report_ms=watch.report_ms)
    return core_thought(game, result)


def core_thought(game, result: core.SearchResult) -> Optional[Thought]:
    """The core's result as a Thought once the rules accept its move; None if they do not."""
    try:
        move = rules_move(game, result.moves)
        game.check_move(move)
        if isinstance(game, TzaarGame):
            move = game.checked_turn
    except (IllegalMove, IndexError, TypeError, ValueError) as e:
        log.error("core suggested an illegal move %r (%s); playing the Python player's move",
                  result.moves, e)
        return None
    return Thought(move, result.score, result.depth, result.nodes, result.time_ms,
                   pv_text(game, result.pv), "core", result.lines)
