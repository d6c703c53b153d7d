"""Pondering (option ponder, protocol.md 6.9): thinking on the opponent's time.

After genmove the engine searches, in a background thread, the position after the
reply its search predicts.  If the next move played is that reply (a ponder hit),
the search goes on and the following genmove takes it over, its clock counted from
the hit.  Any other command stops it at once (but a few that only read state or
set the clock, which controllers send between moves).
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Optional

from . import core, levels
from .search import Thought, core_request, core_thought, time_limit_ms
from .stop_flag import StopFlag

# Commands that leave the pondered position and the options alone.
log = logging.getLogger("engine.ponder")

HARMLESS = frozenset({"time_left", "time_settings", "time_control", "name", "version",
                      "protocol_version", "known_command", "list_commands", "help", "status",
                      "position", "showboard", "score", "legal_moves"})
TAKES_OVER = frozenset({"genmove", "reg_genmove"})
MAY_HIT = frozenset({"play", "move", "place"})


class Ponder:
    def __init__(self) -> None:
        self.stop = StopFlag()
        self.thread: Optional[threading.Thread] = None
        self.position: Optional[str] = None   # the pondered position
        self.hit_at: Optional[float] = None   # when the predicted reply was played
        self.budget_ms: Optional[float] = None
        self.result: Optional[core.SearchResult] = None
        # after a hit, no new iteration once this share of the budget is used: the game's own
        self.stop_share = 1.0

    @property
    def running(self) -> bool:
        return self.thread is not None

    def start(self, game, options, thought: Thought) -> None:
        """Ponder on the reply `thought` predicts, if the options and the pv allow."""
        self.cancel()
        if options.ponder != "on" or options.player != "core" or not core.has_game(game.name) \
                or levels.level_of(game.name, options.level) is not None:  # pondering is full strength
            return
        ours = len(game.move_text(thought.move).split())
        reply = predicted_reply(game, thought.pv_moves[ours:])
        if reply is None:
            return
        game.push(reply)
        try:
            if game.over:
                return
            self.position = game.position()
            args = (game.name, list(game.cells), game.side, core.phase(game))
        finally:
            game.pop()
        self.stop.clear()
        self.hit_at = self.budget_ms = self.result = None
        self.stop_share = core.next_iteration_share(game.name)  # read now: a search holds the core
        self.thread = threading.Thread(target=self._search, args=(args, options),
                                       name="ponder", daemon=True)
        self.thread.start()
        log.info("pondering on %s", game.move_text(reply))

    def _search(self, args, options) -> None:
        try:
            self.result = core.search(*args, on_iteration=self._iteration,
                                      **core_request(options, stop=self.stop))
        except Exception as e:  # noqa: BLE001 - no result: the next genmove searches itself
            log.warning("pondering failed (%s: %s)", type(e).__name__, e)

    def _iteration(self, it: core.SearchResult) -> None:
        hit, budget = self.hit_at, self.budget_ms
        if hit is not None and budget is not None:
            if (time.monotonic() - hit) * 1000 > self.stop_share * budget:
                self.stop.set()

    def before(self, name: str) -> None:
        """A command is about to run: stop pondering unless it may keep it."""
        if not self.running or name in HARMLESS:
            return
        if name in (TAKES_OVER if self.hit_at is not None else MAY_HIT):
            return
        self.cancel()

    def after(self, name: str, game) -> None:
        """After a move was played: a hit if it reached the pondered position."""
        if self.running and self.hit_at is None and name in MAY_HIT:
            if game.position() == self.position:
                self.hit_at = time.monotonic()
                log.info("ponder hit")
            else:
                log.info("ponder miss")
                self.cancel()

    def take(self, game, options, clock) -> Optional[Thought]:
        """genmove after a hit: the pondering search, stopped within this move's budget."""
        if not self.running or self.hit_at is None or game.position() != self.position:
            self.cancel()
            return None
        assert self.thread is not None, "running means a thread"
        budget = time_limit_ms(game, options, clock)
        self.budget_ms = budget
        if budget is not None:
            left = budget / 1000 - (time.monotonic() - self.hit_at)
            self.thread.join(max(0.0, left))
        self.stop.set()
        self.thread.join()
        result, hit = self.result, self.hit_at
        self.thread = None
        if result is None:
            return None
        log.info("ponder search taken over: depth %d, %d nodes", result.depth, result.nodes)
        thought = core_thought(game, result)
        if thought is not None:
            thought.time_ms = (time.monotonic() - hit) * 1000
        return thought

    def cancel(self) -> None:
        if self.thread is not None:
            self.stop.set()
            self.thread.join()
            self.thread = None
            log.info("pondering stopped")
        self.hit_at = None


def predicted_reply(game, actions: list):
    """The first whole move of `actions` (the PV's decoded core actions after our move) as a
    rules-checked move, or None."""
    return core.first_move(game, actions)
