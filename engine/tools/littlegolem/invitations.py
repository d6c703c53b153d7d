"""Answering invitations: each invitation on the site's invitation page is accepted when it
is for a game we play from a player the filters let through while fewer than `max_games`
games are in progress, refused otherwise, and remembered in the state file so that it is
answered once."""
from __future__ import annotations

import logging
from typing import Optional

from . import pages
from .config import Settings
from .notation import site_game
from .owner import Owner
from .site import Site, SiteError
from .state import PostedMoves, StateError

log = logging.getLogger("gipf-littlegolem")

LOOK_EVERY = 10  # passes: the invitation page is read at the first, then every tenth pass,
# and at every pass whose game list says "New invitations"


def _named(shown: str, name: str) -> bool:
    """Whether the page's player `shown` is the configured `name`: the same words, or a first
    word that is the whole name ('alice (1620)' is alice)."""
    words, wanted = shown.lower().split(), " ".join(name.lower().split())
    return bool(words) and (" ".join(words) == wanted or words[0] == wanted)


def decide(settings: Settings, invitation: pages.Invitation, in_progress: int) -> tuple[bool, str]:
    """(accept, why) for one invitation."""
    game = site_game(invitation.game)
    who = invitation.opponent
    if game is None or game not in settings.games:
        return False, f"{invitation.game} is not one of the games played ({', '.join(settings.games)})"
    if any(_named(who, name) for name in settings.refuse_from):
        return False, f"{invitation.opponent} is on refuse_from"
    if settings.accept_from and not any(_named(who, name) for name in settings.accept_from):
        return False, f"{invitation.opponent} is not on accept_from"
    if settings.max_games and in_progress >= settings.max_games:
        return False, f"{in_progress} games in progress (max_games {settings.max_games})"
    return True, f"{game} is played; {in_progress} games in progress" + (
        f" (max_games {settings.max_games})" if settings.max_games else "")


class Invitations:
    def __init__(self, settings: Settings, site: Site, state: PostedMoves, owner: Owner, *,
                 dry_run: bool) -> None:
        self.settings = settings
        self.site = site
        self.state = state
        self.owner = owner
        self.dry_run = dry_run
        self.ignored = False  # the last pass saw new invitations and left them
        self.passes = 0

    def answer_all(self, in_progress: int, new_ones: bool) -> None:
        """One look at the invitation page; every problem is logged, none stops the pass."""
        if self.settings.invitations == "ignore":
            if new_ones:  # said once while they wait, not at every pass
                log.log(logging.DEBUG if self.ignored else logging.INFO,
                        "new invitations: left unanswered (invitations = \"ignore\")")
            self.ignored = new_ones
            return
        self.passes += 1
        if not new_ones and self.passes % LOOK_EVERY != 1:
            return  # the game list says when invitations wait; a look now and then besides
        found = self._read()
        if found is None:
            return
        new = [i for i in found if self.state.invitation(i.invid) is None]
        if len(new) < len(found):  # a page that still shows them: answered once is enough
            log.debug("%d invitation(s) answered before", len(found) - len(new))
        if new:
            log.info("%d invitation(s): %s", len(new),
                     ", ".join(f"{i.invid} {i.game} from {i.opponent}" for i in new))
        for invitation in new:
            accept, why = decide(self.settings, invitation, in_progress)
            if self._answer(invitation, accept, why) and accept:
                in_progress += 1

    def _read(self) -> Optional[list[pages.Invitation]]:
        try:
            page = self.site.invitation_page()
        except SiteError as e:
            log.error("cannot read the invitations: %s", e)
            return None
        try:
            found, problems = pages.invitations(page)
        except pages.PageError as e:
            log.warning("invitations not answered this pass: %s (the page begins %r)", e,
                        pages.words(page, 100))
            return None
        for problem in problems:
            log.warning("the invitation page: %s", problem)
        return found

    def _answer(self, invitation: pages.Invitation, accept: bool, why: str) -> bool:
        verb = "accept" if accept else "refuse"
        what = f"invitation {invitation.invid} from {invitation.opponent} ({invitation.game})"
        if self.dry_run:
            log.info("%s: would %s: %s", what, verb, why)
            return True
        try:  # marked first: a restart after the answer never answers again
            self.state.mark_invitation(invitation.invid, answer=verb, status="answering",
                                       opponent=invitation.opponent, game=invitation.game)
        except StateError as e:
            log.error("%s: not answered: %s", what, e)
            return False
        try:
            words, refused = self.site.answer_invitation(invitation.invid, accept)
        except SiteError as e:
            log.error("%s: could not %s it: %s", what, verb, e)
            self._forget(invitation.invid)
            return False
        try:  # a site that says no is not asked again: the owner can answer on the site
            self.state.mark_invitation(invitation.invid, status="not taken" if refused
                                       else "answered")
        except StateError as e:
            log.error("%s: %s", what, e)
        if refused:
            log.warning("%s: the site did not take the answer (%s): %s", what, verb, words)
            return False
        done = "accepted" if accept else "refused"
        log.info("%s: %s: %s%s", what, done, why,
                 f" (the site: {words[:100]})" if words else "")
        self.owner.tell(f"Gipfbot {done} {invitation.game} from {invitation.opponent}",
                        f"Invitation {invitation.invid} from {invitation.opponent} to "
                        f"{invitation.game}: {done} ({why}).")
        return True

    def _forget(self, invid: str) -> None:
        try:
            self.state.forget_invitation(invid)
        except StateError as e:
            log.error("invitation %s: %s", invid, e)
