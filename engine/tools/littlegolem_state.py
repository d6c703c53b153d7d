"""The moves gipf-littlegolem has posted: a small JSON file that stops a second post for the
same game and ply, written atomically (a temporary file beside it, then a rename).

    {"format": 1, "games": {"2552914": {"ply": 17, "move": "prqq-kplp", "status": "posted",
                                        "time": "2026-12-01T20:15:03Z"}}}

One entry per game, for its last post: `ply` is the number of moves the record had
before ours (our move is move ply + 1).  `status` is "sending" from just before the post
until the site answers (so a crash or a timeout in between still counts as posted) and
"posted" once it has; an entry is removed only when the site clearly refused the move, or
when the game has ended.
"""
from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Optional

from engine.bounded_read import InputError, read_bytes

FORMAT = 1
STATE_LIMIT = 16 << 20


class StateError(Exception):
    """The state file cannot be read or written; the message is one line."""


class PostedMoves:
    """The state file's content, kept in memory and saved after every change."""

    def __init__(self, path: Optional[Path]) -> None:
        """path None: nothing is saved (a dry run)."""
        self.path = path
        self._lock = threading.Lock()
        self.games: dict[str, dict] = {}
        if path is not None and path.exists():
            self.games = _load(path)

    def entry(self, gid: int) -> Optional[dict]:
        with self._lock:
            entry = self.games.get(str(gid))
            return dict(entry) if entry is not None else None

    def blocks(self, gid: int, ply: int) -> Optional[dict]:
        """The entry that forbids posting at this ply (posted at it or later), if any."""
        entry = self.entry(gid)
        return entry if entry is not None and entry["ply"] >= ply else None

    def mark(self, gid: int, ply: int, move: str, status: str) -> None:
        with self._lock:
            self.games[str(gid)] = {"ply": ply, "move": move, "status": status,
                                    "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            self._save()

    def forget(self, gid: int) -> None:
        with self._lock:
            if self.games.pop(str(gid), None) is not None:
                self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        text = json.dumps({"format": FORMAT, "games": self.games}, indent=1, sort_keys=True)
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{self.path.name}.")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(text + "\n")
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(temporary, self.path)
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError as e:
            raise StateError(f"cannot write the state file {self.path}: "
                             f"{e.strerror or e}") from None


def _load(path: Path) -> dict[str, dict]:
    try:
        data = json.loads(read_bytes(str(path), STATE_LIMIT).decode("utf-8"))
    except InputError as e:
        raise StateError(str(e)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise StateError(f"the state file {path} is not JSON ({e}); move it away to start "
                         "afresh (moves it recorded could then be posted again)") from None
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(games, dict) \
            or not all(isinstance(v, dict) and isinstance(v.get("ply"), int)
                       for v in games.values()):
        raise StateError(f"the state file {path} is not a gipf-littlegolem state file "
                         f"(format {FORMAT})")
    return games
