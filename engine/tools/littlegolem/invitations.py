"""Answering invitations: each invitation on the site's invitation page is accepted when it
is for a game we play from a player the filters let through while fewer than `max_games`
games are in progress, refused otherwise, and remembered in the state file so that it is
answered once.

An answer is marked "answering" in the state file before its request goes out, and settled
against the invitation page: taken when the invitation has left the page, not taken when
the page still lists it.  Settling happens in the pass that answered (the page is read once
more) or, after an HTTP error, a timeout or a killed pass, at the next pass.  Games in
progress are those of the game list plus the invitations accepted (or being accepted) whose
game the list does not show yet, so `max_games` holds whatever the site answered."""
from __future__ import annotations

import logging
import time
from typing import Optional

from . import pages
from .config import Settings
from .notation import site_game
from .owner import Owner, short
from .site import GameList, Site, SiteError
from .state import PostedMoves, invitation_key

log = logging.getLogger("gipf-littlegolem")

LOOK_EVERY = 10  # passes: the invitation page is read at the first, then every tenth pass,
# at every pass whose game list says "New invitations", and while an answer is unsettled
UNLISTED_FOR = 86_400.0  # s an accepted invitation's game may stay off the list (then dropped)
TRIES = 3  # passes that send an answer the page shows did not arrive, before it is left


def _named(shown: str, name: str) -> bool:
    """Whether the page's player `shown` is the configured `name`: the same words, or a first
    word that is the whole name ('alice (1620)' is alice)."""
    words, wanted = shown.lower().split(), " ".join(name.lower().split())
    return bool(words) and (" ".join(words) == wanted or words[0] == wanted)


def decide(settings: Settings, invitation: pages.Invitation, in_progress: int) -> tuple[bool, str]:
    """(accept, why) for one invitation."""
    game = site_game(invitation.game)
    who = short(invitation.opponent)
    if game is None or game not in settings.games:
        return False, (f"{short(invitation.game)} is not one of the games played "
                       f"({', '.join(settings.games)})")
    if any(_named(invitation.opponent, name) for name in settings.refuse_from):
        return False, f"{who} is on refuse_from"
    if settings.accept_from and not any(_named(invitation.opponent, name)
                                        for name in settings.accept_from):
        return False, f"{who} is not on accept_from"
    if settings.max_games and in_progress >= settings.max_games:
        return False, f"{in_progress} games in progress (max_games {settings.max_games})"
    return True, f"{game} is played; {in_progress} games in progress" + (
        f" (max_games {settings.max_games})" if settings.max_games else "")


def _verb(accept: bool) -> str:
    return "accept" if accept else "refuse"


def _what(invitation: pages.Invitation) -> str:
    return (f"invitation {invitation_key(invitation.invid)} from {short(invitation.opponent)} "
            f"({short(invitation.game)})")


def unique(found: list[pages.Invitation]) -> list[pages.Invitation]:
    """The page's invitations once each: ids compare as numbers; a repeat is warned of."""
    seen: dict[str, pages.Invitation] = {}
    for invitation in found:
        key = invitation_key(invitation.invid)
        if key in seen:
            log.warning("the invitation page lists invitation %s more than once (%s from %s, "
                        "then %s from %s): answered once", key, short(seen[key].game),
                        short(seen[key].opponent), short(invitation.game),
                        short(invitation.opponent))
            continue
        seen[key] = invitation
    return list(seen.values())


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
        self.sent: set[str] = set()  # the invitations answered in this pass

    def answer_all(self, listing: GameList) -> None:
        """One look at the invitation page (two when answers went out); every site problem
        is logged, none stops the pass (a StateError does)."""
        if self.settings.invitations == "ignore":
            if listing.new_invitations:  # said once while they wait, not at every pass
                log.log(logging.DEBUG if self.ignored else logging.INFO,
                        "new invitations: left unanswered (invitations = \"ignore\")")
            self.ignored = listing.new_invitations
            return
        self.passes += 1
        self.sent.clear()
        unsettled = any(e.get("status") in ("answering", "again")
                        for e in self.state.all_invitations().values())
        if not (listing.new_invitations or unsettled or self.passes % LOOK_EVERY == 1):
            self._games_listed(listing)
            return  # the game list says when invitations wait; a look now and then besides
        found = self._read()
        if found is None:
            self._games_listed(listing)
            return
        self._settle(found)
        in_progress = len(listing.games) + self._games_listed(listing)
        new = [i for i in found if self._open(invitation_key(i.invid))]
        if new:
            log.info("%d invitation(s): %s", len(new), ", ".join(
                f"{invitation_key(i.invid)} {short(i.game)} from {short(i.opponent)}"
                for i in new))
        plan = []
        for invitation in new:
            accept, why = decide(self.settings, invitation, in_progress)
            in_progress += accept  # counted as a game in progress until settled otherwise
            plan.append((invitation, accept, why))
        if self.dry_run:
            for invitation, accept, why in plan:
                log.info("%s: would %s: %s", _what(invitation), _verb(accept), why)
            return
        if not plan:
            return
        self._mark(plan, listing)
        for invitation, accept, _ in plan:
            self._answer(invitation, accept)
        after = self._read()
        if after is not None:
            self._settle(after)

    def _open(self, key: str) -> bool:
        """Whether an invitation is to be answered: never answered, or answered at an earlier
        pass that the page shows did not reach the site."""
        entry = self.state.invitation(key)
        return entry is None or entry.get("status") == "again"

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
        return unique(found)

    def _mark(self, plan: list[tuple[pages.Invitation, bool, str]], listing: GameList) -> None:
        """Every answer of the pass marked "answering" in one write, before any request: a
        restart after an answer never answers again, and one killed before an answer went out
        finds it still listed and sends it then."""
        before = max((g.gid for g in listing.games), default=0)
        marks = {}
        for invitation, accept, why in plan:
            key = invitation_key(invitation.invid)
            tries = (self.state.invitation(key) or {}).get("tries", 0) + 1
            marks[key] = {"answer": _verb(accept), "status": "answering", "why": why,
                          "tries": tries, "opponent": short(invitation.opponent),
                          "game": short(invitation.game), "before": before}
        self.state.mark_invitations(marks)
        self.sent.update(marks)

    def _answer(self, invitation: pages.Invitation, accept: bool) -> None:
        """Send one answer (its fate is settled by the page)."""
        key = invitation_key(invitation.invid)
        entry = self.state.invitation(key)  # checked just before the request
        if key not in self.sent or entry is None or entry.get("status") != "answering":
            return
        try:
            words, _ = self.site.answer_invitation(invitation.invid, accept)
        except SiteError as e:
            log.error("%s: sent %s without a clear answer (%s); settled by the invitation page "
                      "at the next pass", _what(invitation), _verb(accept), e)
            return
        log.debug("%s: the site answered %r to %s", _what(invitation), words, _verb(accept))

    def _settle(self, found: list[pages.Invitation]) -> None:
        """Answers in flight settled by the page, in one write (then the owner is told):
        taken when the invitation left it.  Entries of invitations the page no longer lists
        are dropped once nothing waits on them."""
        listed = {invitation_key(i.invid) for i in found}
        updates: dict[str, dict] = {}
        drop: list[str] = []
        tells: list[tuple[str, str]] = []
        for key, entry in self.state.all_invitations().items():
            what = f"invitation {key} from {entry.get('opponent')} ({entry.get('game')})"
            if key in listed:
                if entry.get("status") == "answering":
                    updates[key] = self._still_listed(what, key, entry, tells)
                continue
            if entry.get("status") == "answering":
                updates[key] = self._taken(what, key, entry, tells)
                entry = {**entry, **updates[key]}
            if entry.get("answer") != "accept" or entry.get("status") != "accepted":
                drop.append(key)  # off the page and settled: nothing more to remember
                updates.pop(key, None)
        self.state.settle_invitations(updates, drop)
        for title, text in tells:
            self.owner.tell(title, text)

    @staticmethod
    def _taken(what: str, key: str, entry: dict, tells: list[tuple[str, str]]) -> dict:
        accepted = entry.get("answer") == "accept"
        done = "accepted" if accepted else "refused"
        log.info("%s: %s: %s", what, done, entry.get("why", ""))
        tells.append((f"Gipfbot {done} {entry.get('game')} from {entry.get('opponent')}",
                      f"Invitation {key} from {entry.get('opponent')} to {entry.get('game')}: "
                      f"{done} ({entry.get('why', '')})."))
        return {"status": done, "at": time.time()}

    def _still_listed(self, what: str, key: str, entry: dict,
                      tells: list[tuple[str, str]]) -> dict:
        """An answer in flight whose invitation the page still lists: refused by the site when
        sent in this pass (or tried TRIES times); else it never reached the site (an error
        status, a killed pass), and is sent once more."""
        if key not in self.sent and entry.get("tries", 1) < TRIES:
            log.warning("%s: the answer (%s) sent at an earlier pass did not reach the site: "
                        "the page still lists it; answering it again", what, entry.get("answer"))
            return {"status": "again"}
        log.warning("%s: the site did not take the answer (%s): the page still lists it; left "
                    "to the owner", what, entry.get("answer"))
        tells.append((f"Gipfbot could not answer {entry.get('game')} from "
                      f"{entry.get('opponent')}",
                      f"Invitation {key} from {entry.get('opponent')} to {entry.get('game')}: "
                      f"the site did not take the answer ({entry.get('answer')}); it is left "
                      "to you."))
        return {"status": "not taken"}

    def _games_listed(self, listing: GameList) -> int:
        """How many accepted invitations wait for their game to appear on the game list: an
        accepted (or being accepted) invitation's game is a game of the list, newer than the
        list was at the answer, of its game against its player.  Those listed are dropped."""
        unmatched = [g for g in listing.games]
        waiting, drop = 0, []
        for key, entry in self.state.all_invitations().items():
            if entry.get("answer") != "accept" or entry.get("status") not in ("answering",
                                                                             "accepted"):
                continue
            game = next((g for g in unmatched if g.gid > entry.get("before", 0)
                         and (g.game is None or g.game == site_game(entry.get("game", "")))
                         and (not g.players or any(pages.same_player(p, entry.get("opponent", ""))
                                                   for p in g.players))), None)
            if game is not None:
                unmatched.remove(game)
                if entry.get("status") == "accepted":
                    drop.append(key)
                continue
            if entry.get("status") == "accepted" and \
                    time.time() - float(entry.get("at", 0)) > UNLISTED_FOR:
                log.warning("invitation %s was accepted a day ago and no game of it is listed: "
                            "no longer counted as a game in progress", key)
                drop.append(key)
                continue
            waiting += 1
        self.state.settle_invitations({}, drop)
        return waiting
