"""gipf-littlegolem's command: settings, logging, signals, then the runner."""
from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import urllib.parse
from pathlib import Path

from engine.bounded_read import InputError

from .config import Settings, UsageError, default_state_file, defaults_toml, parse_args, read_password, settings_from
from .runner import Runner
from .site import Site
from .state import PostedMoves, StateError
from .statelock import StateLock

log = logging.getLogger("gipf-littlegolem")

DESCRIPTION = ("Play DVONN and TZAAR on LittleGolem by itself: answer invitations, play every "
               "game waiting for the account's move, tell the owner.  See docs/littlegolem.md.")


class OneLineFormatter(logging.Formatter):
    """One line per event, whatever a record or a page put into a message."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def main(argv=None) -> int:
    try:
        args = parse_args(argv, DESCRIPTION)
        if args.print_config:
            sys.stdout.write(defaults_toml())
            return 0
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


def _run(args, settings: Settings, password: str) -> int:
    lock = None
    try:
        state_path = Path(os.path.expanduser(settings.state_file)) if settings.state_file \
            else default_state_file(settings.user)
        if not args.dry_run:  # a dry run reads the state file and writes nothing
            lock = StateLock(Path(os.path.realpath(state_path)))
            lock.acquire(args.wait)
        state = _open_state(state_path, args.dry_run)
    except StateError as e:
        if lock is not None:
            lock.release()
        print(f"gipf-littlegolem: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C while --wait waits for the lock
        print("gipf-littlegolem: interrupted while waiting for the state file", file=sys.stderr)
        return 130
    try:
        return _play(args.dry_run, args.once, settings, password, state)
    finally:
        if lock is not None:
            lock.release()


def _open_state(path: Path, dry_run: bool) -> PostedMoves:
    """The state (read with the lock held), its malformed entries set aside and said once,
    the temporary files of a killed pass removed."""
    state = PostedMoves(path)
    if dry_run:
        state.path = None  # read, never written
    for problem in state.problems:
        log.warning("%s", problem)
    if state.problems:
        state.save()
    for name in state.remove_temporaries():
        log.info("removed %s, left by a pass that was killed", name)
    return state


def _play(dry_run: bool, once: bool, settings: Settings, password: str,
          state: PostedMoves) -> int:
    site = Site(settings.base_url, settings.user, password, settings.http_timeout)
    runner = Runner(settings, site, state, dry_run=dry_run, once=once)
    host = urllib.parse.urlsplit(settings.base_url).hostname
    if settings.base_url.startswith("http:") and host not in ("localhost", "127.0.0.1", "::1"):
        log.warning("%s is plain http: the password crosses the network unencrypted",
                    settings.base_url)
    log.info("playing %s on %s as %s, %d ms a move, %d worker(s)%s",
             "/".join(settings.games), settings.base_url, settings.user, settings.movetime,
             settings.workers, " (dry run)" if dry_run else "")
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
