"""The runner: passes over the site until stopped (or one pass, --once).  Each pass logs in,
reads the game list, answers the invitations, tells the owner of games that have ended, and
hands every game waiting for our move to the workers, each with its own engine."""
from __future__ import annotations

import logging
import queue
import signal
import sys
import threading
import time
from typing import Optional

from engine import records

from .config import Settings
from .engines import EngineSlot
from .invitations import Invitations
from .moves import ABANDONED, FAILED, IDLE, POSTED, POSTING, SKIPPED, THINKING, WOULD_POST, Player
from .owner import Owner
from .pages import ListedGame
from .site import GameList, LoginError, Site, SiteError
from .state import PostedMoves, StateError

log = logging.getLogger("gipf-littlegolem")


class _Stop(BaseException):
    """Raised in the main thread by the first SIGTERM or SIGINT, to leave any wait at once."""


class Runner:
    def __init__(self, settings: Settings, site: Site, state: PostedMoves, *, dry_run: bool,
                 once: bool, out=None) -> None:
        self.settings = settings
        self.site = site
        self.state = state
        self.dry_run = dry_run
        self.once = once or dry_run
        self.out = out if out is not None else sys.stdout
        self.out_lock = threading.Lock()
        self.stop_signal: Optional[int] = None    # set by the signal handler only
        self.interruptible = False                # the handler may raise _Stop
        self.stopping = threading.Event()
        self.slots = [EngineSlot(n + 1, settings) for n in range(settings.workers)]
        self.phases = [IDLE] * settings.workers   # what each worker is doing
        self.owner = Owner(site, settings.owner, dry_run=dry_run,
                           max_messages=settings.max_messages)
        self.player = Player(settings, site, state, self.owner, dry_run=dry_run,
                             stopping=self.stopping, phases=self.phases, print_move=self._print)
        self.invitations = Invitations(settings, site, state, self.owner, dry_run=dry_run)
        self.last_waiting: Optional[list[int]] = None
        self.state_failure: Optional[StateError] = None  # set by a worker
        self.jobs: "queue.Queue[Optional[ListedGame]]" = queue.Queue()
        self.results: "queue.Queue[str]" = queue.Queue()
        self.threads = [threading.Thread(target=self._work, args=(n,), name=f"worker {n + 1}",
                                         daemon=True) for n in range(settings.workers)]

    def _print(self, gid: int, move: str) -> None:
        with self.out_lock:
            print(f"{gid} {move}", file=self.out, flush=True)

    # signals ---------------------------------------------------------------
    def on_signal(self, signum, frame) -> None:
        if self.stop_signal is None:
            self.stop_signal = signum
            if self.interruptible:  # leave a wait on the site or on a worker at once
                self.interruptible = False
                raise _Stop

    def _check_stop(self) -> bool:
        if self.stop_signal is not None and not self.stopping.is_set():
            thinking = [n for n, phase in enumerate(self.phases) if phase == THINKING]
            log.info("%s: stopping (abandoning %d think(s))",
                     signal.Signals(self.stop_signal).name, len(thinking))
            self.stopping.set()
            self._abandon_thinks()
        return self.stopping.is_set()

    def _abandon_thinks(self) -> None:
        for number, phase in enumerate(self.phases):
            if phase == THINKING:
                self.slots[number].abandon()

    def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self._check_stop() and time.monotonic() < end:
            time.sleep(min(0.1, max(0.0, end - time.monotonic())))

    # the loop ----------------------------------------------------------------
    def run(self) -> int:
        for thread in self.threads:
            thread.start()
        ok = True
        try:
            try:
                self.interruptible = True
                ok = self._loop()
            finally:
                self.interruptible = False
        except _Stop:
            pass
        self._shut_down()
        if self.stop_signal is not None:
            return 130 if self.stop_signal == signal.SIGINT else 0
        return 0 if ok else 1

    def _loop(self) -> bool:
        failures = 0
        ok = True
        while not self._check_stop():
            try:
                ok = self.one_pass()
            except StateError as e:  # a state that cannot be kept: stop rather than risk
                log.error("%s", e)   # a second post or answer
                self.stopping.set()
                return False
            except Exception as e:  # never crash the loop: log, back off, retry
                log.error("the pass failed: %s: %s", type(e).__name__, e)
                ok = False
            if self.once or self._check_stop():
                break
            failures = 0 if ok else failures + 1
            delay = self.settings.poll_interval if ok else min(
                self.settings.max_backoff, self.settings.retry_delay * 2 ** (failures - 1))
            if not ok:
                log.warning("retrying in %g s (failure %d in a row)", delay, failures)
            self._sleep(delay)
        return ok

    def one_pass(self) -> bool:
        """Every waiting game once; False when something failed (then the loop backs off)."""
        try:
            self.site.ensure_login()
            listing = self.site.game_list()
        except LoginError as e:
            log.error("%s", e)
            return False
        except SiteError as e:
            log.error("cannot list the games: %s", e)
            return False
        waiting = listing.waiting
        gids = [game.gid for game in waiting]
        # a quiet poll (nothing waiting, as before) is logged only at debug level
        quiet = not gids and self.last_waiting == []
        log.log(logging.DEBUG if quiet else logging.INFO, "%d game(s) waiting for our move%s",
                len(gids), ": " + " ".join(map(str, gids)) if gids else "")
        self.last_waiting = gids
        try:
            self.invitations.answer_all(listing)
            self._ended_games(listing)
        finally:
            self.owner.end_pass()
        for game in waiting:
            self.jobs.put(game)
        outcomes: list[str] = []
        while len(outcomes) < len(gids) and not self._check_stop():
            try:
                outcomes.append(self.results.get(timeout=0.1))
            except queue.Empty:
                pass
        self.owner.end_pass()
        if self.state_failure is not None:
            raise self.state_failure
        if gids and not self.stopping.is_set():
            counts = {kind: outcomes.count(kind) for kind in
                      (POSTED, WOULD_POST, SKIPPED, FAILED, ABANDONED) if kind in outcomes}
            log.info("pass done: %s", ", ".join(f"{n} {k}" for k, n in counts.items()))
        return FAILED not in outcomes

    def _ended_games(self, listing: GameList) -> None:
        """The games in progress that left the list: told to the owner once they have ended."""
        if not self.settings.owner:
            return
        gone = self.state.track({str(g.gid): {"game": g.game} for g in listing.games})
        for gid in gone:
            if self._check_stop():
                return
            try:
                record = self.site.download(int(gid), self.state.about(int(gid)).get("game")).record
            except SiteError as e:
                log.info("game %s left the game list; its record: %s", gid, e)
                continue
            try:
                played = records.played(record) if record is not None else None
            except records.RecordError:  # a record that does not replay: no end to tell
                played = None
            if played is not None and played.ended:
                self.player.game_ended(int(gid), played)
                continue
            log.info("game %s left the game list before its end", gid)
            self.state.ended(int(gid))

    def _shut_down(self) -> None:
        """End every engine; wait only for the workers that think (their engines are being
        ended) or post (so that the state file says how the post went)."""
        if not self._check_stop():  # the end of a --once pass
            self.stopping.set()
        for _ in self.threads:
            self.jobs.put(None)
        deadline = time.monotonic() + self.settings.http_timeout + 15
        while time.monotonic() < deadline and any(
                thread.is_alive() and self.phases[n] in (THINKING, POSTING)
                for n, thread in enumerate(self.threads)):
            self._abandon_thinks()
            time.sleep(0.05)
        for number, slot in enumerate(self.slots):
            if self.phases[number] == THINKING:
                slot.abandon()
            slot.close(for_good=True)

    # one game ----------------------------------------------------------------
    def _work(self, number: int) -> None:
        slot = self.slots[number]
        try:
            while True:
                game = self.jobs.get()
                if game is None:
                    return
                try:
                    outcome = self.player.play(game, number, slot)
                except StateError as e:  # the pass ends; the runner stops, exit status 1
                    self.state_failure = e
                    self.stopping.set()
                    outcome = FAILED
                except Exception as e:  # never lose a worker: log, count as a failure
                    log.error("game %d: unexpected %s: %s", game.gid, type(e).__name__, e)
                    outcome = FAILED
                finally:
                    self.phases[number] = IDLE
                self.results.put(outcome)
        finally:
            slot.close(for_good=True)
