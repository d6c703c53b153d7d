"""Messages to the bot's owner: a LittleGolem message after each invitation answered, each
game that ends and each game the bot stops posting to.  A message that cannot be sent is
logged and forgotten: it never stops play.

Every message is bounded, whatever a page or a record put into it: names and titles are cut
to NAME_LIMIT characters, the text is plain printable text of at most TEXT_LIMIT characters,
and a pass sends at most `max_messages` of them; the rest go as one summary at its end."""
from __future__ import annotations

import logging
import threading

from .site import Site, SiteError

log = logging.getLogger("gipf-littlegolem")

NAME_LIMIT = 40       # characters of a player's name or a game's title in a message
TITLE_LIMIT = 100     # characters of a message's title
TEXT_LIMIT = 2000     # characters of a message's text


def short(text: str, limit: int = NAME_LIMIT) -> str:
    """Text on one printable line of at most `limit` characters (a cut one ends with '...')."""
    line = " ".join("".join(c if c.isprintable() else " " for c in text[:limit * 4]).split())
    return line if len(line) <= limit and len(text) <= limit * 4 else line[:limit - 3] + "..."


def plain(text: str, limit: int = TEXT_LIMIT) -> str:
    """A message's text: printable lines (no CR), at most `limit` characters."""
    lines = ["".join(c for c in line if c.isprintable()) for line in text[:limit * 2].splitlines()]
    body = "\n".join(lines)
    return body if len(body) <= limit else body[:limit - 3] + "..."


class Owner:
    def __init__(self, site: Site, owner: str, *, dry_run: bool, max_messages: int = 10) -> None:
        self.site = site
        self.owner = owner
        self.dry_run = dry_run
        self.max_messages = max_messages
        self._lock = threading.Lock()
        self._sent = 0                     # messages sent in this pass
        self._held: list[str] = []         # titles of those beyond max_messages

    def tell(self, title: str, text: str) -> None:
        if not self.owner:
            return
        title, text = short(title, TITLE_LIMIT), plain(text)
        with self._lock:
            if self._sent >= self.max_messages:
                self._held.append(title)
                return
            self._sent += 1
        self._send(title, text)

    def end_pass(self) -> None:
        """One message for what was held back in this pass; a new pass's count starts."""
        with self._lock:
            held, self._held, self._sent = self._held, [], 0
        if held:
            self._send(f"Gipfbot: {len(held)} more event(s)",
                       plain(f"{len(held)} more event(s) in this pass (at most "
                             f"{self.max_messages} messages a pass):\n" + "\n".join(held)))

    def _send(self, title: str, text: str) -> None:
        if self.dry_run:
            log.info("would tell %s: %s", self.owner, title)
            return
        try:
            self.site.send_message(self.owner, title, text)
        except SiteError as e:
            log.warning("could not tell %s %r: %s", self.owner, title, e)
            return
        except Exception as e:  # a message never stops play
            log.warning("could not tell %s %r: %s: %s", self.owner, title, type(e).__name__, e)
            return
        log.info("told %s: %s", self.owner, title)
