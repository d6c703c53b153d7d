"""Choosing a move: limits and clock in, a rules-checked move out.

The compiled core (engine.core) searches when it is available and chosen;
whatever it suggests is checked by the rules layer before anyone sees it.
Otherwise, whenever the core fails (a position it cannot take, no memory, a
progress callback that raised, any other exception) or gives a malformed
answer (an illegal move, a principal variation that cannot be read), the
Python player answers, with a logged warning that the Thought also carries.  Search progress
goes to one callback as Progress records; the caller formats them.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional

from . import core, levels
from .clock import Clock
from .player import choose_move, random_move
from .stop_flag import StopFlag

if TYPE_CHECKING:
    from . import book
    from .ponder import Ponder
    from .protocol.options import Options

__all__ = ["Progress", "Thought", "Watch", "core_request", "think", "time_limit_ms"]

log = logging.getLogger("engine.search")
DEFAULT_MOVETIME_MS = 1000
SOLVER_SHARE = 0.3             # of the move's time, for the exact solver
SOLVER_NODES = 1_000_000       # its budget when the search has no time limit (deterministic)


@dataclass
class Thought:
    move: object
    score: Optional[int] = None
    depth: int = 0
    nodes: int = 0
    time_ms: float = 0.0
    pv: list = field(default_factory=list)  # action/move texts
    source: str = "python"
    lines: list = field(default_factory=list)  # multi-PV candidates: (score, pv texts), best first
    warning: Optional[str] = None  # why the core's answer was not used (the Python player's move)
    pv_moves: list = field(default_factory=list)  # the core's decoded actions behind `pv`


@dataclass
class Progress:
    """One completed search iteration, with the principal variation as text."""
    depth: int
    seldepth: int
    score: int
    nodes: int
    time_ms: float
    pv: list[str]
    lines: list = field(default_factory=list)  # multi-PV candidates: (score, pv texts), best first

    @property
    def nps(self) -> int:
        return int(self.nodes * 1000 / max(self.time_ms, 1))


def progress(game, iteration: core.SearchResult) -> Progress:
    return Progress(iteration.depth, iteration.seldepth, iteration.score, iteration.nodes,
                    iteration.time_ms, pv_text(game, iteration.pv), candidates(game, iteration))


def candidates(game, result: core.SearchResult) -> list:
    return [(line.score, pv_text(game, line.pv)) for line in result.lines]


@dataclass
class Watch:
    """How a search is run from outside: stopped, reported on, limited."""
    stop: Optional[StopFlag] = None
    report_ms: int = 0      # also report progress this often (the last iteration, current nodes)
    untimed: bool = False   # no time limit: only depth, nodes and `stop` end it
    multipv: int = 1
    play: bool = False      # a move to play (genmove): option level applies


def time_limit_ms(game, options: Options, clock: Clock) -> Optional[float]:
    """The time this move should take (None: no time limit)."""
    limits = []
    if options.movetime:
        limits.append(float(options.movetime))
    if clock.active:
        limits.append(clock.budget_ms(game.side, game.moves_to_go()))
    if limits:
        return min(limits)
    if options.depth or options.nodes:
        return None
    return float(DEFAULT_MOVETIME_MS)


def pv_text(game, raw_pv: list) -> list[str]:
    """The core's raw principal variation as move (DVONN) or action (TZAAR) texts."""
    return [core.action_text(game, action) for action in pv_actions(game, raw_pv)]


def pv_actions(game, raw_pv: list) -> list:
    """The core's raw principal variation as decoded core actions."""
    return [core.decode_move(game.name, raw) for raw in raw_pv]


def core_request(options: Options, *, time_ms: Optional[float] = None,
                 stop: Optional[StopFlag] = None, multipv: int = 1, report_ms: int = 0,
                 level: Optional[levels.Level] = None, soft_ms: Optional[float] = None) -> dict:
    """core.search's keyword arguments (all but on_iteration) for these options and limits;
    with `level`, that level's limits and one thread (its multipv replaces `multipv`)."""
    if level is None:
        limits = {"depth": options.depth or None, "nodes": options.nodes or None,
                  "multipv": multipv}
        threads = options.threads
    else:
        limits = levels.search_limits(level, options.nodes, options.depth)
        threads = 1  # a level plays the same for any option threads
    return dict(time_ms=time_ms, **limits, threads=threads, hash_mb=options.hash,
                seed=options.seed, stop=stop, report_ms=report_ms, soft_ms=soft_ms)


def think(game, options: Options, clock: Clock, limit_ms: Optional[float] = None,
          on_progress: Optional[Callable[[Progress], None]] = None,
          watch: Optional[Watch] = None, *, book_on: bool = False,
          ponder: Optional["Ponder"] = None,
          on_book: Optional[Callable[[str, book.Entry], None]] = None) -> Thought:
    """The move to play now, with what the search found; never an illegal move.

    One pipeline: the opening book (`book_on`: a move to play, option book), a ponder hit
    taken over (`ponder`), the forced move, the random player, the exact solver, the core
    (full strength or the level's), the Python player.  `on_book` is told a book move (its
    text and book entry)."""
    started = time.monotonic()
    if book_on:
        booked = _book_move(game, options)
        if booked is not None:
            if ponder is not None:
                ponder.cancel()
            thought, entry = booked
            if on_book is not None:
                on_book(thought.pv[0], entry)
            thought.time_ms = (time.monotonic() - started) * 1000
            return thought
    if ponder is not None:
        taken = ponder.take(game, options, clock)
        if taken is not None:
            return taken
    thought = _choose(game, options, clock, limit_ms, on_progress, watch or Watch())
    thought.time_ms = (time.monotonic() - started) * 1000
    return thought


def _book_move(game, options: Options) -> Optional[tuple[Thought, book.Entry]]:
    """The opening book's move (option book; the core player only: the others are fallbacks
    and sanity opponents) with its book entry, or None."""
    if options.book != "on" or options.player != "core":
        return None
    from . import book  # imported when first used: a start-up without option book never reads it
    found = book.lookup(game)
    if found is None:
        return None
    move, entry = found
    text = game.move_text(move)
    return Thought(move, pv=[text], source="book"), entry


def _choose(game, options: Options, clock: Clock, limit_ms: Optional[float],
            on_progress: Optional[Callable[[Progress], None]], watch: Watch) -> Thought:
    forced = game.forced_move()
    if forced is not None:
        return Thought(forced, source="forced")
    if options.player == "random":
        return Thought(random_move(game, options.seed))
    if options.player == "core" and core.AVAILABLE:
        if not core.has_game(game.name):
            return Thought(choose_move(game, options.seed), warning=f"{game.title} has no compiled core")
        weaker = watch.play and levels.level_of(game.name, options.level) is not None
        think = _think_level if weaker else _think_core
        try:
            thought = think(game, options, clock, limit_ms, on_progress, watch)
        except CoreFailed as e:
            log.error("%s; playing the Python player's move", e)
            return Thought(choose_move(game, options.seed), warning=str(e))
        if thought is not None:
            return thought
    return Thought(choose_move(game, options.seed))


class CoreFailed(Exception):
    """The core raised or answered something the rules cannot use; the message says which."""


def _failure(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}" if str(e) else type(e).__name__


def _solve(game, options: Options, limit_ms: Optional[float],
           on_progress: Optional[Callable[[Progress], None]], watch: Watch) -> Optional[Thought]:
    """The exact solver's move when it proves a win or a draw within its budget; else None
    (a proven loss is left to the search, which resists longest and keeps the eval's chances)."""
    budget = dict(time_ms=max(1.0, limit_ms * SOLVER_SHARE)) if limit_ms else \
        dict(nodes=min(options.nodes or SOLVER_NODES, SOLVER_NODES))
    try:
        solution = core.solve(game.name, game.cells, game.side, core.phase(game),
                              stop=watch.stop, **budget)
    except Exception as e:  # noqa: BLE001 - whatever failed, the search still answers
        log.error("the solver failed (%s); searching instead", _failure(e))
        return None
    if not solution.solved or solution.value < 0:
        return None
    try:
        move = game.check_move(core.to_move(game, solution.moves))
        line = pv_actions(game, solution.pv)
        pv = [core.action_text(game, action) for action in line]
        pv_moves = line or list(solution.moves)  # a PV too short to give: the solved move
        texts = pv if line else [core.action_text(game, action) for action in pv_moves]
    except Exception as e:  # noqa: BLE001 - a malformed answer: the search still answers
        log.error("solver suggested an illegal move %r (%s); searching instead", solution.moves,
                  _failure(e))
        return None
    plies = len(solution.pv)
    if on_progress is not None:
        on_progress(Progress(plies, plies, solution.score, solution.nodes, solution.time_ms, pv))
    return Thought(move, solution.score, plies, solution.nodes, solution.time_ms, texts, "solver",
                   pv_moves=pv_moves)


def _think_core(game, options: Options, clock: Clock, limit_ms: Optional[float],
                on_progress: Optional[Callable[[Progress], None]],
                watch: Watch) -> Optional[Thought]:
    whole_budget = False
    if watch.untimed:
        limit_ms = None
    elif limit_ms is None:
        limit_ms = time_limit_ms(game, options, clock)
        # The clock's last moves search to their budget's end, not to the game's share of it:
        # there a search is often a ply or two from proving the game.
        whole_budget = not options.movetime and clock.last_moves(game.side, game.moves_to_go())
    if options.solver == "on" and watch.multipv == 1 and game.endgame_small():
        started = time.monotonic()
        solved = _solve(game, options, limit_ms, on_progress, watch)
        if solved is not None:
            return solved
        spent = (time.monotonic() - started) * 1000
        if limit_ms:
            limit_ms = max(1.0, limit_ms - spent)
    def report(iteration: core.SearchResult) -> None:
        assert on_progress is not None, "report is passed to the core only with a callback"
        on_progress(progress(game, iteration))

    try:
        result = core.search(game.name, game.cells, game.side, core.phase(game),
                             on_iteration=report if on_progress is not None else None,
                             **core_request(options, time_ms=limit_ms, stop=watch.stop,
                                            multipv=watch.multipv, report_ms=watch.report_ms,
                                            soft_ms=limit_ms if whole_budget else None))
    except Exception as e:  # any failure of the core: the Python player answers
        raise CoreFailed(f"the core failed ({_failure(e)})") from e
    thought = core_thought(game, result)
    if thought is None:
        raise CoreFailed("the core failed (a malformed answer)")
    return thought


def core_thought(game, result: core.SearchResult) -> Optional[Thought]:
    """The core's result as a Thought once the rules accept its move and its principal
    variations can be read; None (logged) if not."""
    try:
        move = game.check_move(core.to_move(game, result.moves))
    except Exception as e:  # noqa: BLE001 - IllegalMove, or a move list that is no move
        log.error("core suggested an illegal move %r (%s)", result.moves, _failure(e))
        return None
    try:
        line = pv_actions(game, result.pv)
        return Thought(move, result.score, result.depth, result.nodes, result.time_ms,
                       [core.action_text(game, action) for action in line], "core",
                       candidates(game, result), pv_moves=line)
    except Exception as e:  # noqa: BLE001 - a principal variation that is no line of moves
        log.error("core gave a principal variation that cannot be read (%s)", _failure(e))
        return None


def _think_level(game, options: Options, clock: Clock, limit_ms: Optional[float],
                 on_progress: Optional[Callable[[Progress], None]],
                 watch: Watch) -> Optional[Thought]:
    """genmove below full strength: the level's search, then its weighted choice among the
    candidates (engine/levels.py); one thread, so that a level plays the same for any
    option threads."""
    level = levels.level_of(game.name, options.level)
    assert level is not None, "_choose calls this only for a level below full strength"
    if limit_ms is None:
        limit_ms = time_limit_ms(game, options, clock)
    try:
        result = core.search(game.name, game.cells, game.side, core.phase(game),
                             on_iteration=(lambda it: on_progress(progress(game, it)))
                             if on_progress is not None else None,
                             **core_request(options, time_ms=limit_ms, stop=watch.stop,
                                            level=level))
    except Exception as e:  # any failure of the core: the Python player answers
        raise CoreFailed(f"the core failed ({_failure(e)})") from e
    try:
        found = levels.candidate_moves(game, result)
        if not found:
            thought = core_thought(game, result)
            if thought is None:
                raise CoreFailed("the core failed (a malformed answer)")
            return thought
        lines = [(s, _line(game, c.pv, m)[0]) for s, m, c in found]
        move = levels.random_move(game, found, level, options.seed)
        if move is not None:  # the level's share of random moves: a move without a score
            return Thought(move, None, result.depth, result.nodes, result.time_ms,
                           game.move_text(move).split(), "core", lines)
        score, move, line = levels.choose(game, found, level, options.seed)
        pv, pv_moves = _line(game, line.pv, move)
        return Thought(move, score, result.depth, result.nodes, result.time_ms, pv, "core", lines,
                       pv_moves=pv_moves)
    except CoreFailed:
        raise
    except Exception as e:  # candidates the rules cannot read: the Python player answers
        raise CoreFailed(f"the core failed ({_failure(e)})") from e


def _line(game, raw_pv: list, move) -> tuple[list[str], list]:
    """A candidate's line as texts and decoded actions; only its first move was checked, so a
    line the game cannot name is shown as that move alone (and has no actions)."""
    try:
        actions = pv_actions(game, raw_pv)
        return [core.action_text(game, action) for action in actions], actions
    except (IndexError, KeyError, TypeError, ValueError):
        return game.move_text(move).split(), []
