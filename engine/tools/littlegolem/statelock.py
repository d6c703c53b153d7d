"""One pass per state file: the bot holds an exclusive lock (flock) on a file beside its state
file for as long as it runs, and writes its pid there.  A second bot on the same state file
(a cron pass still at work when the next starts, or cron and systemd both) exits at once
naming the holder, or with --wait waits for it.  The lock is the kernel's: it ends with the
process that holds it, however that process ends, so a killed pass leaves no stale lock."""
from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path
from typing import Optional

from .state import StateError

log = logging.getLogger("gipf-littlegolem")

PID_LIMIT = 64  # bytes read of the lock file


class LockHeld(StateError):
    """Another process holds the state file's lock."""


def lock_path(state_path: Path) -> Path:
    """The lock file of a state file (its resolved path): `state.json.lock` beside it."""
    return state_path.with_name(state_path.name + ".lock")


class StateLock:
    def __init__(self, state_path: Path) -> None:
        self.path = lock_path(state_path)
        self._fd: Optional[int] = None

    def acquire(self, wait: bool) -> None:
        """Take the lock, or LockHeld (wait False) naming the holder's pid; StateError when the
        lock file cannot be made."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as e:
            raise StateError(f"cannot lock the state file: {self.path}: "
                             f"{e.strerror or e}") from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = self._holder(fd)
                if not wait:
                    raise LockHeld(f"another gipf-littlegolem ({holder}) is using the state "
                                   f"file {self.path.with_suffix('')}: not starting (--wait "
                                   "waits for it)") from None
                log.info("waiting for %s to finish with the state file", holder)
                fcntl.flock(fd, fcntl.LOCK_EX)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as e:
            os.close(fd)
            raise StateError(f"cannot lock the state file: {self.path}: "
                             f"{e.strerror or e}") from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    @staticmethod
    def _holder(fd: int) -> str:
        try:
            text = os.pread(fd, PID_LIMIT, 0).decode("ascii", "replace").strip()
        except OSError:
            text = ""
        return f"pid {text}" if text.isdigit() else "pid unknown"

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the last descriptor ends the flock
            self._fd = None
