"""What gipf-littlegolem remembers between passes and restarts: a small JSON file, written
atomically (a temporary file beside it, then a rename).

    {"format": 1,
     "games": {"2552914": {"ply": 17, "move": "prqq-kplp", "status": "posted",
                           "time": "2026-12-01T20:15:03Z", "at": 1796155503.2}},
     "invitations": {"81234": {"answer": "accept", "status": "answered", ...}},
     "playing": {"2552914": {"game": "tzaar"}}}

`games`: one entry per game, for its last post: `ply` is the number of moves the record had
before ours (our move is move ply + 1); `status` is "sending" from just before the post until
the site's answer is clear, "posted" once the record shows the move, "refused" after an
answer that is not the site's acceptance, "stopped" after `max_refusals` of them; `refusals`
counts the refusals at that ply and `low` the bot's own moves in a row scored below
`resign_score`.  `invitations`: every invitation answered (or being answered).  `playing`:
the games in progress the game list showed, so that the end of each can be told.
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
KEEP_INVITATIONS = 1000     # the newest answered invitations kept (older ones left the page)


class StateError(Exception):
    """The state file cannot be read or written; the message is one line."""


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class PostedMoves:
    """The state file's content, kept in memory and saved after every change."""

    def __init__(self, path: Optional[Path]) -> None:
        """path None: nothing is saved (a dry run)."""
        self.path = path
        self._lock = threading.Lock()
        self.games: dict[str, dict] = {}
        self.invitations: dict[str, dict] = {}
        self.playing: dict[str, dict] = {}
        if path is not None and path.exists():
            self.games, self.invitations, self.playing = _load(path)

    # --- posts ---------------------------------------------------------------------
    def entry(self, gid: int) -> Optional[dict]:
        with self._lock:
            entry = self.games.get(str(gid))
            return dict(entry) if entry is not None else None

    def mark(self, gid: int, ply: int, move: str, status: str, **extra) -> None:
        """The game's post at `ply`; `refusals` and `low` carry over from the entry."""
        with self._lock:
            old = self.games.get(str(gid), {})
            entry = {"ply": ply, "move": move, "status": status, "time": _now(),
                     "at": time.time(), "low": old.get("low", 0),
                     "refusals": old.get("refusals", 0) if old.get("ply") == ply else 0}
            entry.update(extra)
            self.games[str(gid)] = entry
            self._save()

    def update(self, gid: int, **fields) -> None:
        with self._lock:
            self.games.setdefault(str(gid), {"ply": -1, "move": "", "status": "none"}).update(fields)
            self._save()

    def forget(self, gid: int) -> None:
        with self._lock:
            if self.games.pop(str(gid), None) is not None:
                self._save()

    # --- invitations ---------------------------------------------------------------
    def invitation(self, invid: str) -> Optional[dict]:
        with self._lock:
            entry = self.invitations.get(invid)
            return dict(entry) if entry is not None else None

    def mark_invitation(self, invid: str, **fields) -> None:
        with self._lock:
            entry = self.invitations.pop(invid, {})
            entry.update(fields, time=_now())
            self.invitations[invid] = entry  # the newest last
            while len(self.invitations) > KEEP_INVITATIONS:
                del self.invitations[next(iter(self.invitations))]
            self._save()

    def forget_invitation(self, invid: str) -> None:
        with self._lock:
            if self.invitations.pop(invid, None) is not None:
                self._save()

    # --- games in progress ---------------------------------------------------------
    def track(self, games: dict[str, dict]) -> list[str]:
        """Add the games the list shows; the gids tracked before that the list left out."""
        with self._lock:
            gone = [gid for gid in self.playing if gid not in games]
            changed = False
            for gid, about in games.items():
                known = self.playing.get(gid)
                if known is None or (about.get("game") and known.get("game") != about["game"]):
                    self.playing[gid] = {**(known or {}), **{k: v for k, v in about.items() if v}}
                    changed = True
            if changed:
                self._save()
            return gone

    def about(self, gid: int) -> dict:
        with self._lock:
            return dict(self.playing.get(str(gid), {}))

    def ended(self, gid: int) -> None:
        with self._lock:
            found = self.playing.pop(str(gid), None) is not None
            found = self.games.pop(str(gid), None) is not None or found
            if found:
                self._save()

    # --- the file ------------------------------------------------------------------
    def _save(self) -> None:
        if self.path is None:
            return
        text = json.dumps({"format": FORMAT, "games": self.games, "invitations": self.invitations,
                           "playing": self.playing}, indent=1, sort_keys=True)
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


def _load(path: Path) -> tuple[dict[str, dict], dict[str, dict], dict[str, dict]]:
    try:
        data = json.loads(read_bytes(str(path), STATE_LIMIT).decode("utf-8"))
    except InputError as e:
        raise StateError(str(e)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise StateError(f"the state file {path} is not JSON ({e}); move it away to start "
                         "afresh (moves it recorded could then be posted again)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or "games" not in data:
        raise StateError(f"the state file {path} is not a gipf-littlegolem state file "
                         f"(format {FORMAT})")
    parts: list[dict[str, dict]] = []
    for key in ("games", "invitations", "playing"):
        part = data.get(key, {})
        if not isinstance(part, dict) or not all(isinstance(v, dict) for v in part.values()) \
                or (key == "games" and not all(isinstance(v.get("ply"), int)
                                               for v in part.values())):
            raise StateError(f"the state file {path} is not a gipf-littlegolem state file "
                             f"(format {FORMAT})")
        parts.append(part)
    return parts[0], parts[1], parts[2]
