"""What gipf-littlegolem remembers between passes and restarts: a small JSON file, written
atomically (a temporary file beside it, then a rename).

    {"format": 2,
     "games": {"2552914": {"ply": 17, "move": "prqq-kplp", "status": "posted",
                           "time": "2026-12-01T20:15:03Z", "at": 1796155503.2}},
     "invitations": {"81234": {"answer": "accept", "status": "answered", ...}},
     "playing": {"2552914": {"game": "tzaar"}}}

`games`: one entry per game, for its last post: `ply` is the number of moves the record had
before ours (our move is move ply + 1); `status` is "sending" from just before the post until
the site's answer is clear, "posted" once the record shows the move, "refused" after an
answer that is not the site's acceptance, "stopped" after `max_refusals` of them; `refusals`
counts the refusals at that ply and `low_plies` the plies of the bot's own moves in a row
scored below `resign_score`.  `invitations`: every invitation answered (or being answered)
that the invitation page still lists, and those accepted whose game the list does not show
yet.  `playing`: the games in progress the game list showed, so that the end of each can be
told.  `set_aside`: entries that were not well formed, kept for the owner to look at.

A state file that is a symbolic link is followed: its target is read and written (replaced by
a rename in the target's folder), and the link stays.
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

FORMAT = 2
READS = (1, 2)              # the formats read (1: before `low_plies` and `set_aside`)
STATE_LIMIT = 16 << 20
SECTIONS = ("games", "invitations", "playing")


class StateError(Exception):
    """The state file cannot be read or written; the message is one line."""


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def invitation_key(invid: str) -> str:
    """An invitation id as a number's digits ('081009' and '81009' are one invitation)."""
    return str(int(invid))


class PostedMoves:
    """The state file's content, kept in memory and saved after every change."""

    def __init__(self, path: Optional[Path]) -> None:
        """path None: nothing is saved (a dry run).  A symbolic link is followed."""
        self.path = Path(os.path.realpath(path)) if path is not None else None
        self._lock = threading.Lock()
        self.games: dict[str, dict] = {}
        self.invitations: dict[str, dict] = {}
        self.playing: dict[str, dict] = {}
        self.set_aside: dict[str, dict] = {}
        self.problems: list[str] = []   # malformed entries found at the load (set aside)
        if self.path is not None and self.path.exists():
            self._load(self.path)

    # --- posts ---------------------------------------------------------------------
    def entry(self, gid: int) -> Optional[dict]:
        with self._lock:
            entry = self.games.get(str(gid))
            return dict(entry) if entry is not None else None

    def mark(self, gid: int, ply: int, move: str, status: str, **extra) -> None:
        """The game's post at `ply`; `refusals` and `low_plies` carry over from the entry."""
        with self._lock:
            old = self.games.get(str(gid), {})
            entry = {"ply": ply, "move": move, "status": status, "time": _now(),
                     "at": time.time(), "low_plies": old.get("low_plies", []),
                     "refusals": old.get("refusals", 0) if old.get("ply") == ply else 0}
            entry.update(extra)
            self.games[str(gid)] = entry
            self._save()

    def update(self, gid: int, **fields) -> None:
        with self._lock:
            self.games.setdefault(str(gid), {"ply": -1, "move": "", "status": "none"}).update(fields)
            self._save()

    # --- invitations ---------------------------------------------------------------
    def invitation(self, key: str) -> Optional[dict]:
        with self._lock:
            entry = self.invitations.get(key)
            return dict(entry) if entry is not None else None

    def all_invitations(self) -> dict[str, dict]:
        with self._lock:
            return {key: dict(entry) for key, entry in self.invitations.items()}

    def mark_invitations(self, marks: dict[str, dict]) -> None:
        """Update (or add) several invitations' entries in one write."""
        if not marks:
            return
        with self._lock:
            for key, fields in marks.items():
                self.invitations.setdefault(key, {}).update(fields, time=_now())
            self._save()

    def settle_invitations(self, updates: dict[str, dict], drop: list[str]) -> None:
        """Update some invitations' entries and drop others, in one write (none if nothing
        changes)."""
        with self._lock:
            for key, fields in updates.items():
                self.invitations.setdefault(key, {}).update(fields, time=_now())
            dropped = [self.invitations.pop(key, None) for key in drop]
            if updates or any(entry is not None for entry in dropped):
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
    def save(self) -> None:
        with self._lock:
            self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        data = {"format": FORMAT, "games": self.games, "invitations": self.invitations,
                "playing": self.playing}
        if self.set_aside:
            data["set_aside"] = self.set_aside
        text = json.dumps(data, indent=1, sort_keys=True)
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

    def remove_temporaries(self) -> list[str]:
        """Temporary files a killed pass left beside the state file (call with the lock held);
        the names removed."""
        if self.path is None or not self.path.parent.is_dir():
            return []
        removed = []
        for leftover in self.path.parent.glob(f".{self.path.name}.*"):
            try:
                leftover.unlink()
            except OSError as e:
                raise StateError(f"cannot remove {leftover}: {e.strerror or e}") from None
            removed.append(leftover.name)
        return removed

    def _load(self, path: Path) -> None:
        data = _read(path)
        for section in SECTIONS:
            part = data.get(section, {})
            if not isinstance(part, dict):
                raise StateError(f"the state file {path}: {section} is not a JSON object")
            kept = getattr(self, section)
            for key, entry in part.items():
                why = _malformed(section, key, entry)
                if why is None:
                    kept[invitation_key(key) if section == "invitations" else key] = entry
                    continue
                self.set_aside[f"{section}/{key}"[:100]] = entry if isinstance(entry, dict) \
                    else {"value": entry}
                self.problems.append(f"the state file {path}: the {section} entry {key[:40]!r} "
                                     f"{why}: set aside (under \"set_aside\")")
        earlier = data.get("set_aside", {})
        if isinstance(earlier, dict):
            self.set_aside = {**earlier, **self.set_aside}


def _read(path: Path) -> dict:
    try:
        data = json.loads(read_bytes(str(path), STATE_LIMIT).decode("utf-8"))
    except InputError as e:
        raise StateError(str(e)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise StateError(f"the state file {path} is not JSON ({e}); move it away to start "
                         "afresh (moves it recorded could then be posted again)") from None
    if not isinstance(data, dict) or "games" not in data or data.get("format") not in READS:
        found = data.get("format") if isinstance(data, dict) else None
        newer = isinstance(found, int) and not isinstance(found, bool) and found > FORMAT
        raise StateError(f"the state file {path} is " + (
            f"of format {found}, from a newer gipf-littlegolem (this one reads {READS})"
            if newer else f"not a gipf-littlegolem state file (format {FORMAT})"))
    return data


def _malformed(section: str, key: str, entry: object) -> Optional[str]:
    """Why a state file entry is not one this bot wrote, or None."""
    if not isinstance(entry, dict):
        return "is not a JSON object"
    if section == "games":
        if not key.isdigit():
            return "is not a game number"
        kinds = {"ply": int, "move": str, "status": str}
        wrong = [name for name, kind in kinds.items() if not isinstance(entry.get(name), kind)
                 or isinstance(entry.get(name), bool)]
        plies = entry.get("low_plies", [])
        if not (isinstance(plies, list) and all(isinstance(p, int) for p in plies)):
            wrong.append("low_plies")
        return f"lacks a valid {', '.join(wrong)}" if wrong else None
    if section == "invitations":
        if not (key.isascii() and key.isdigit() and len(key) <= 12):
            return "is not an invitation number"
        if entry.get("answer") not in ("accept", "refuse") or not isinstance(entry.get("status"), str):
            return "lacks a valid answer or status"
    return None
