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
from typing import Optional

from . import core
from .clock import Clock
from .dvonn import DvonnGame, Move, POINTS
from .player import choose_move, random_move
from .rules import IllegalMove
from .tzaar import Action, TzaarGame

log = logging.getLogger("engine.search")
DEFAULT_MOVETIME_MS = 1000
LATE_PLACEMENT = 38  # DVONN: from this many pieces placed, placements get stacking-sized thinks


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


@dataclass
class Thought:
    move: object
    score: Optional[int] = None
    depth: int = 0
    nodes: int = 0
    time_ms: float = 0.0
    pv: list = field(default_factory=list)  # action/move texts
    source: str = "python"


def core_phase(game) -> int:
    if isinstance(game, DvonnGame):
        return 0 if game.placed < POINTS else 1
    return 0 if game.opening_turn else 1


def moves_to_go(game) -> int:
    """How many more moves of ours the clock must still pay for (an estimate)."""
    if isinstance(game, DvonnGame):
        if game.placed < POINTS:
            if game.placed >= LATE_PLACEMENT:  # the last placements decide many games
                return (POINTS - game.placed) // 2 + 14
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


def think(game, options: Options, clock: Clock, limit_ms: Optional[float] = None) -> Thought:
    """The move to play now, with what the search found; never an illegal move."""
    started = time.monotonic()
    thought = _choose(game, options, clock, limit_ms)
    thought.time_ms = (time.monotonic() - started) * 1000
    return thought


def _choose(game, options: Options, clock: Clock, limit_ms: Optional[float]) -> Thought:
    forced = _forced_move(game)
    if forced is not None:
        return Thought(forced, source="forced")
    if options.player == "random":
        return Thought(random_move(game, options.seed))
    if options.player == "core" and core.AVAILABLE:
        thought = _think_core(game, options, clock, limit_ms)
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


def _think_core(game, options: Options, clock: Clock, limit_ms: Optional[float]) -> Optional[Thought]:
    if limit_ms is None:
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
                         hash_mb=options.hash, seed=options.seed, on_iteration=report)
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
                   pv_text(game, result.pv), "core")
