"""gipf-littlegolem: play DVONN and TZAAR on LittleGolem by itself.

Logs in, lists the games waiting for our move, downloads each record, thinks with one
long-lived engine per worker and posts the move; then waits and polls again, backing off
when the site fails.  See docs/littlegolem.md.

  gipf-littlegolem --config ~/.config/gipf-littlegolem.toml
  LITTLEGOLEM_PASSWORD=... gipf-littlegolem --user gipfbot --once --dry-run
"""
from __future__ import annotations

import argparse
import logging
import os
import queue
import signal
import sys
import threading
import time
import tomllib
import urllib.parse
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Optional

from engine import records
from engine.bounded_read import InputError, read_text
from engine.client import DEFAULT_ENGINE, EngineError, EngineProcess
from engine.tools.bridge import BridgeError, next_move  # the record -> move logic, shared
from engine.tools.littlegolem_site import PostRejected, PostUnknown, Site, SiteError, played_games, site_move
from engine.tools.littlegolem_state import PostedMoves, StateError

log = logging.getLogger("gipf-littlegolem")

PASSWORD_VARIABLE = "LITTLEGOLEM_PASSWORD"
PASSWORD_LIMIT = 4096
CONFIG_LIMIT = 1 << 20
GAMES = tuple(played_games())  # the games LittleGolem plays (each game's GameSpec.tools)


class UsageError(Exception):
    """A bad command line or configuration: exit status 2."""


@dataclass
class Settings:
    """Everything the runner needs; the TOML keys are these names."""

    user: str = ""
    base_url: str = "https://www.littlegolem.net"
    password_file: Optional[str] = None
    games: list = field(default_factory=lambda: list(GAMES))
    movetime: int = 30_000               # ms per move
    poll_interval: float = 60.0          # s between passes
    workers: int = 1                     # games thought about at once, one engine each
    state_file: Optional[str] = None
    engine: str = DEFAULT_ENGINE
    engine_setup: list = field(default_factory=list)  # engine commands sent once at start
    http_timeout: float = 30.0           # s per request
    retry_delay: float = 10.0            # s before the first retry after a failed pass
    max_backoff: float = 900.0           # s, the longest wait after failures
    log_level: str = "info"
    allow_python_player: bool = False    # play even without the compiled core (far weaker)


_TYPES = {"user": str, "base_url": str, "password_file": str, "games": list, "movetime": int,
          "poll_interval": float, "workers": int, "state_file": str, "engine": str,
          "engine_setup": list, "http_timeout": float, "retry_delay": float,
          "max_backoff": float, "log_level": str, "allow_python_player": bool}


_TYPE_NAMES = {str: "a string", int: "an integer", float: "a number", list: "a list",
               bool: "true or false"}


def read_config(path: str) -> dict:
    try:
        data = tomllib.loads(read_text(path, CONFIG_LIMIT))
    except InputError as e:
        raise UsageError(str(e)) from None
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path}: not TOML: {e}") from None
    if "password" in data:
        raise UsageError(f"{path}: a config file holds no password: use the environment "
                         f"variable {PASSWORD_VARIABLE} or password_file")
    for key, value in data.items():
        kind = _TYPES.get(key)
        if kind is None:
            raise UsageError(f"{path}: unknown key {key!r} (known: {', '.join(_TYPES)})")
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = data[key] = float(value)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise UsageError(f"{path}: {key} must be {_TYPE_NAMES[kind]}, not {value!r}")
    return data


def check_settings(settings: Settings) -> None:
    if not settings.user:
        raise UsageError("no account: give --user or user in the config")
    url = urllib.parse.urlsplit(settings.base_url)
    if url.scheme not in ("http", "https") or not url.hostname:
        raise UsageError(f"the base URL must be http(s)://host[:port], not {settings.base_url!r}")
    games = [str(g).lower() for g in settings.games]
    if not games or any(g not in GAMES for g in games):
        raise UsageError(f"games must list some of {', '.join(GAMES)}, not {settings.games!r}")
    settings.games = games
    if not all(isinstance(line, str) and line.isprintable() for line in settings.engine_setup):
        raise UsageError("engine_setup must be a list of engine commands, one line each")
    for name in ("movetime", "workers"):
        if getattr(settings, name) <= 0:
            raise UsageError(f"{name} must be positive")
    for name in ("poll_interval", "http_timeout", "retry_delay", "max_backoff"):
        if not getattr(settings, name) > 0:
            raise UsageError(f"{name} must be positive")
    if settings.log_level.upper() not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise UsageError(f"log_level must be debug, info, warning or error, "
                         f"not {settings.log_level!r}")


def read_password(settings: Settings) -> str:
    """From the password file (readable by its owner only) or the environment."""
    if settings.password_file:
        path = os.path.expanduser(settings.password_file)
        try:
            mode = os.stat(path).st_mode
        except OSError as e:
            raise InputError(f"cannot read {path}: {e.strerror or e}") from None
        if mode & 0o077:
            raise InputError(f"the password file {path} can be read or changed by others "
                             f"(mode {mode & 0o777:03o}): chmod 600 it")
        password = read_text(path, PASSWORD_LIMIT).rstrip("\r\n")
        if not password:
            raise InputError(f"the password file {path} is empty")
        return password
    password = os.environ.get(PASSWORD_VARIABLE, "")
    if not password:
        raise UsageError(f"no password: set {PASSWORD_VARIABLE} or give --password-file")
    return password


def default_state_file(user: str) -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in user)
    return Path(base) / "gipf-littlegolem" / f"{safe}.json"


# --- engines ------------------------------------------------------------------
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
                self.engine = engine = EngineProcess(self.settings.engine, self.name)
                try:
                    for line in self.settings.engine_setup:
                        engine.ask(line)
                    version = engine.ask("version")
                except EngineError:
                    self._close()
                    raise
                log.info("%s started (pid %s): %s", self.name, engine.pid, version)
                if "core=compiled" not in version.split():
                    if not self.settings.allow_python_player:
                        self._close()
                        raise EngineError(f"{self.name} does not run the compiled core "
                                          f"(version: {version.strip()[:120]!r}); build it or "
                                          "pass --allow-python-player")
                    log.warning("%s runs without the compiled core: it plays far weaker",
                                self.name)
            return self.engine

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
            self._close()

    def _close(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                engine.close()
            except (EngineError, OSError):
                pass


# --- the runner ---------------------------------------------------------------
POSTED, WOULD_POST, SKIPPED, FAILED, ABANDONED = "posted", "would post", "skipped", "failed", \
    "abandoned"
IDLE, FETCHING, THINKING, POSTING = "idle", "fetching", "thinking", "posting"


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
        self.last_waiting: Optional[list[int]] = None
        self.jobs: "queue.Queue[Optional[int]]" = queue.Queue()
        self.results: "queue.Queue[str]" = queue.Queue()
        self.threads = [threading.Thread(target=self._work, args=(n,), name=f"worker {n + 1}",
                                         daemon=True) for n in range(settings.workers)]

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
            gids = self.site.waiting_games()
        except SiteError as e:
            log.error("cannot list the games: %s", e)
            return False
        # a quiet poll (nothing waiting, as before) is logged only at debug level
        quiet = not gids and self.last_waiting == []
        log.log(logging.DEBUG if quiet else logging.INFO, "%d game(s) waiting for our move%s",
                len(gids), ": " + " ".join(map(str, gids)) if gids else "")
        self.last_waiting = gids
        for gid in gids:
            self.jobs.put(gid)
        outcomes: list[str] = []
        while len(outcomes) < len(gids) and not self._check_stop():
            try:
                outcomes.append(self.results.get(timeout=0.1))
            except queue.Empty:
                pass
        if gids and not self.stopping.is_set():
            counts = {kind: outcomes.count(kind) for kind in
                      (POSTED, WOULD_POST, SKIPPED, FAILED, ABANDONED) if kind in outcomes}
            log.info("pass done: %s", ", ".join(f"{n} {k}" for k, n in counts.items()))
        return FAILED not in outcomes

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
                gid = self.jobs.get()
                if gid is None:
                    return
                try:
                    outcome = self.play(gid, number, slot)
                except Exception as e:  # never lose a worker: log, count as a failure
                    log.error("game %d: unexpected %s: %s", gid, type(e).__name__, e)
                    outcome = FAILED
                finally:
                    self.phases[number] = IDLE
                self.results.put(outcome)
        finally:
            slot.close(for_good=True)

    def play(self, gid: int, number: int, slot: EngineSlot) -> str:
        if self.stopping.is_set():
            return ABANDONED
        self.phases[number] = FETCHING
        try:
            download = self.site.download(gid)
        except SiteError as e:
            log.error("game %d: cannot download the record: %s", gid, e)
            return FAILED
        record = download.record
        if record is None:
            log.warning("game %d: skipped: %s", gid, download.problem)
            return SKIPPED
        if record.game not in self.settings.games:
            log.info("game %d: skipped: a %s game (we play %s)", gid, record.game,
                     ", ".join(self.settings.games))
            return SKIPPED
        if record.resigned_by is not None:
            log.info("game %d: skipped: %s resigned", gid,
                     "White" if record.resigned_by == "w" else "Black")
            return SKIPPED
        try:
            game = records.replay(record)
        except records.RecordError as e:
            log.warning("game %d: skipped: an illegal %s record: %s", gid, record.game, e)
            return SKIPPED
        if game.over:
            log.info("game %d: skipped: finished, %s (%s)", gid, game.result(), game.reason)
            self.state.forget(gid)
            return SKIPPED
        ply = len(record.moves)
        blocking = self.state.blocks(gid, ply)
        if blocking is not None:
            log.warning("game %d: skipped: move %d (%s) already %s; not posting again "
                        "(remove the game from the state file to retry)", gid,
                        blocking["ply"] + 1, blocking["move"], blocking["status"])
            return SKIPPED
        time_command = f"option movetime {self.settings.movetime}"
        self.phases[number] = THINKING
        try:
            engine = slot.get()
            if self.stopping.is_set():
                return ABANDONED
            log.info("game %d (%s, move %d): thinking with %s", gid, record.game, ply + 1,
                     slot.name)
            move = next_move(record, engine, time_command)
        except (BridgeError, records.RecordError) as e:
            log.warning("game %d: skipped: %s", gid, e)
            return SKIPPED
        except (EngineError, OSError, ValueError) as e:
            slot.close()
            if self.stopping.is_set():
                log.info("game %d: think abandoned", gid)
                return ABANDONED
            log.error("game %d: engine failure: %s", gid, e)
            return FAILED
        self.phases[number] = POSTING
        return self._send(gid, record, ply, move)

    def _send(self, gid: int, record: records.GameRecord, ply: int, move: str) -> str:
        sent = site_move(record.game, move)
        where = f"game {gid} ({record.game}, move {ply + 1})"
        if self.dry_run:
            with self.out_lock:
                print(f"{gid} {sent}", file=self.out, flush=True)
            log.info("%s: would post %s", where, sent)
            return WOULD_POST
        if self.stopping.is_set():
            log.info("%s: not posting %s: stopping", where, sent)
            return ABANDONED
        try:
            self.state.mark(gid, ply, sent, "sending")
        except StateError as e:  # without the mark a crash could lead to a second post
            log.error("%s: not posting %s: %s", where, sent, e)
            return FAILED
        try:
            status = self.site.post_move(gid, sent)
        except PostRejected as e:
            self.state.forget(gid)
            log.error("%s: the site refused %s: %s", where, sent, e)
            return FAILED
        except PostUnknown as e:
            log.error("%s: posted %s without a clear answer (%s); counted as posted", where,
                      sent, e)
            return FAILED
        self.state.mark(gid, ply, sent, "posted")
        log.info("%s: posted %s (HTTP %d)", where, sent, status)
        return POSTED


# --- command line -------------------------------------------------------------
class OneLineFormatter(logging.Formatter):
    """One line per event, whatever a record or a page put into a message."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise UsageError(message)


def parse_args(argv) -> argparse.Namespace:
    parser = _Parser(prog="gipf-littlegolem", description=__doc__.split("\n\n")[0],
                     allow_abbrev=False)
    parser.add_argument("--config", metavar="FILE", help="TOML settings (flags override them)")
    parser.add_argument("--base-url", metavar="URL", help="the site (https://www.littlegolem.net)")
    parser.add_argument("--user", metavar="NAME", help="the account's name")
    parser.add_argument("--password-file", metavar="FILE",
                        help=f"file with the password, mode 600 (else ${PASSWORD_VARIABLE})")
    parser.add_argument("--movetime", type=int, metavar="MS", help="thinking time per move")
    parser.add_argument("--once", action="store_true", help="one pass, then exit (for cron)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print 'GID MOVE' for every waiting game; post nothing (one pass)")
    parser.add_argument("--state", metavar="FILE", help="the posted-moves state file")
    parser.add_argument("--engine", metavar="CMD", help="command starting the engine")
    parser.add_argument("--allow-python-player", action="store_true",
                        help="play even when the engine has no compiled core (far weaker)")
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # named without their values: a mistyped option may carry a secret
        raise UsageError("unknown options " + " ".join(a for a in unknown if a.startswith("-"))
                         + f" (the password comes from ${PASSWORD_VARIABLE} or --password-file)")
    return args


def settings_from(args: argparse.Namespace) -> Settings:
    values = read_config(args.config) if args.config else {}
    for flag, key in (("base_url", "base_url"), ("user", "user"),
                      ("password_file", "password_file"), ("movetime", "movetime"),
                      ("state", "state_file"), ("engine", "engine")):
        value = getattr(args, flag)
        if value is not None:
            values[key] = value
    if args.allow_python_player:
        values["allow_python_player"] = True
    known = {f.name for f in fields(Settings)}
    settings = Settings(**{k: v for k, v in values.items() if k in known})
    check_settings(settings)
    return settings


def main(argv=None) -> int:
    try:
        args = parse_args(argv)
        settings = settings_from(args)
        password = read_password(settings)
    except UsageError as e:
        print(f"gipf-littlegolem: {' '.join(str(e).split())} (see --help)", file=sys.stderr)
        return 2
    except InputError as e:
        print(f"gipf-littlegolem: {e}", file=sys.stderr)
        return 1
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLineFormatter("%(asctime)s %(levelname)s %(message)s"))
    level, propagate = log.level, log.propagate
    log.addHandler(handler)
    log.setLevel(settings.log_level.upper())
    log.propagate = False
    try:
        return _run(args, settings, password)
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
        log.propagate = propagate


def _run(args: argparse.Namespace, settings: Settings, password: str) -> int:
    state_path = Path(os.path.expanduser(settings.state_file)) if settings.state_file \
        else default_state_file(settings.user)
    try:
        state = PostedMoves(state_path)
        if args.dry_run:
            state.path = None  # read, never written
    except StateError as e:
        print(f"gipf-littlegolem: {e}", file=sys.stderr)
        return 1
    site = Site(settings.base_url, settings.user, password, settings.http_timeout)
    runner = Runner(settings, site, state, dry_run=args.dry_run, once=args.once)
    host = urllib.parse.urlsplit(settings.base_url).hostname
    if settings.base_url.startswith("http:") and host not in ("localhost", "127.0.0.1", "::1"):
        log.warning("%s is plain http: the password crosses the network unencrypted",
                    settings.base_url)
    log.info("playing %s on %s as %s, %d ms a move, %d worker(s)%s",
             "/".join(settings.games), settings.base_url, settings.user, settings.movetime,
             settings.workers, " (dry run)" if args.dry_run else "")
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = {}
    if in_main_thread:
        for signum in (signal.SIGTERM, signal.SIGINT):
            previous[signum] = signal.signal(signum, runner.on_signal)
    try:
        return runner.run()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


if __name__ == "__main__":
    sys.exit(main())
