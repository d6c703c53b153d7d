"""Messages to the bot's owner: a LittleGolem message after each invitation answered, each
game that ends and each game the bot stops posting to.  A message that cannot be sent is
logged and forgotten: it never stops play."""
from __future__ import annotations

import logging

from .site import Site, SiteError

log = logging.getLogger("gipf-littlegolem")


class Owner:
    def __init__(self, site: Site, owner: str, *, dry_run: bool) -> None:
        self.site = site
        self.owner = owner
        self.dry_run = dry_run

    def tell(self, title: str, text: str) -> None:
        if not self.owner:
            return
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
