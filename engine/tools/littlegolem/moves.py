"""One waiting game, once: the record read and checked (this game's, our move), the engine's
move (or a resignation), the post, and what the site made of it.  A post counts only when
the game's record shows it; a post without a clear answer is settled by the record at a
later pass; after `max_refusals` refusals of one move the bot stops posting to the game."""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Optional

from engine import records
from engine.client import EngineError
from engine.review.judge import PROVEN_MIN
from engine.tools.bridge import BridgeError

from .config import Settings
from .engines import EngineSlot, think
from .notation import RESIGN, site_move
from .owner import Owner, short
from .pages import ListedGame, same_player
from .site import PostRejected, PostUnknown, Site, SiteError
from .state import PostedMoves

log = logging.getLogger("gipf-littlegolem")

POSTED, WOULD_POST, SKIPPED, FAILED, ABANDONED = ("posted", "would post", "skipped", "failed",
                                                  "abandoned")
IDLE, FETCHING, THINKING, POSTING = "idle", "fetching", "thinking", "posting"


def taken(record: records.GameRecord, ply: int, sent: str, side: int) -> Optional[bool]:
    """Whether the record shows the move `sent` (site notation) by `side` (0 White) at `ply`:
    True; False while it still waits for that move; None when it went on without it."""
    if len(record.moves) == ply:
        if record.resigned_by is not None:
            return sent == RESIGN and record.resigned_by == "wb"[side]
        return False
    if len(record.moves) < ply:
        return None
    there = records.move_to_source_notation(record, record.moves[ply])
    return True if site_move(record.game, there) == sent else None


class Player:
    """Plays one game at a time for a worker; shared by the workers (its state is locked)."""

    def __init__(self, settings: Settings, site: Site, state: PostedMoves, owner: Owner, *,
                 dry_run: bool, stopping: threading.Event, phases: list[str],
                 print_move: Callable[[int, str], None]) -> None:
        self.settings = settings
        self.site = site
        self.state = state
        self.owner = owner
        self.dry_run = dry_run
        self.stopping = stopping
        self.phases = phases
        self.print_move = print_move
        self.account = settings.user.lower()

    # --- reading and checking ---------------------------------------------------------
    def play(self, listed: ListedGame, number: int, slot: EngineSlot) -> str:
        gid = listed.gid
        if self.stopping.is_set():
            return ABANDONED
        self.phases[number] = FETCHING
        try:
            download = self.site.download(gid, listed.game)
        except SiteError as e:
            log.error("game %d: cannot download the record: %s", gid, e)
            return FAILED
        record = download.record
        if record is None:
            log.warning("game %d: skipped: %s", gid, download.problem)
            return SKIPPED
        why = self._not_ours(listed, record)
        if why is not None:
            log.log(logging.INFO if why.startswith("a ") else logging.WARNING,
                    "game %d: skipped: %s", gid, why)
            return SKIPPED
        try:
            played = records.played(record)  # the one replay of this download
        except records.RecordError as e:
            log.warning("game %d: skipped: an illegal %s record: %s", gid, record.game, e)
            return SKIPPED
        if played.ended:
            log.info("game %d: skipped: %s", gid, "finished, " + played.result_text()
                     if record.resigned_by is None else played.result_text())
            self.game_ended(gid, played)
            return SKIPPED
        sides = [n for n, name in enumerate((record.white, record.black))
                 if same_player(name or "", self.account)]
        if played.side not in sides:
            log.info("game %d: skipped: %s is to move in the record (move %d), not %s: the "
                     "record or the list lags", gid, records.side_to_move_name(played.side),
                     played.ply + 1, self.settings.user)
            return SKIPPED
        if not self._may_post(gid, record):
            return SKIPPED
        return self._think_and_send(gid, played, number, slot)

    def _not_ours(self, listed: ListedGame, record: records.GameRecord) -> Optional[str]:
        """Why the record is not one to play for this list row, or None."""
        if listed.game is not None and record.game != listed.game:
            return (f"the record is of a {record.game} game but the game list names "
                    f"{listed.game}: not this game's record")
        if record.game not in self.settings.games:
            return f"a {record.game} game (we play {', '.join(self.settings.games)})"
        names = [" ".join((name or "").split()) for name in (record.white, record.black)]
        if not any(same_player(name, self.account) for name in names):
            return (f"the record's players are {names[0] or '?'} and {names[1] or '?'}, "
                    f"not {self.settings.user}: not this game's record")
        opponent = next((n for n in names if not same_player(n, self.account)), names[0])
        if listed.players and not any(same_player(name, opponent) for name in listed.players):
            return (f"the record is of a game against {opponent} but the game list names "
                    f"{' and '.join(listed.players)}: not this game's record")
        return None

    def _may_post(self, gid: int, record: records.GameRecord) -> bool:
        """What the state file says about posting at the record's ply (settling a post that
        had no clear answer by the record)."""
        ply = len(record.moves)
        entry = self.state.entry(gid)
        if entry is None or entry.get("ply", -1) < 0:
            return True
        where = f"game {gid}: skipped: move {entry['ply'] + 1} ({entry['move']})"
        if entry["ply"] > ply or (entry["ply"] == ply and entry["status"] == "posted"):
            log.info("%s was taken; the record lags behind it", where)
            return False
        if entry["ply"] < ply:
            if entry["status"] == "sending":
                log.info("game %d: the post of move %d (%s) was settled by the record", gid,
                         entry["ply"] + 1, entry["move"])
            return True
        if entry["status"] == "stopped":
            log.warning("%s was refused %d times; not posting to this game again (remove it "
                        "from the state file to retry)", where, entry.get("refusals", 0))
            return False
        if entry["status"] == "sending":
            wait = float(entry.get("settle_after", 0)) - time.time()
            if wait > 0:
                log.info("%s had no clear answer; the site may still be at work on it: "
                         "settled at a pass %.0f s from now or later", where, wait)
                return False
            if "answered" in entry:  # the site answered it, and the record still waits
                where = f"game {gid} ({record.game}, move {ply + 1})"
                return not self._refused(gid, where, ply, entry["move"], "the site answered "
                                         f"{entry['answered']!r} and the record still waits "
                                         "for the move")
            log.warning("game %d: the record still waits for move %d: the post of %s without "
                        "a clear answer was not taken; posting again", gid, ply + 1, entry["move"])
        return True

    # --- thinking ------------------------------------------------------------------
    def _think_and_send(self, gid: int, played: records.Played, number: int,
                        slot: EngineSlot) -> str:
        record, ply = played.record, played.ply
        self.phases[number] = THINKING
        try:
            engine = slot.get()
            if self.stopping.is_set():
                return ABANDONED
            log.info("game %d (%s, move %d): thinking with %s", gid, record.game, ply + 1,
                     slot.name)
            move, score = think(played, engine, self.settings.movetime, self.settings.resign)
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
        if score is not None and self._resigns(gid, ply, score):
            move = RESIGN
        self.phases[number] = POSTING
        return self._send(gid, played, move)

    def _resigns(self, gid: int, ply: int, score: int) -> bool:
        """Whether to resign at `ply`.  The count is of the bot's own moves: `low_plies` holds
        the plies of its moves in a row scored below resign_score, so a second think at the
        same ply (a retry after a failed post) replaces that ply's verdict, never adds one."""
        earlier = [p for p in (self.state.entry(gid) or {}).get("low_plies", []) if p < ply]
        low_plies = earlier + [ply] if score < self.settings.resign_score else []
        self.state.update(gid, low_plies=low_plies[-self.settings.resign_moves:])
        low = len(low_plies)
        if score <= -PROVEN_MIN:
            log.info("game %d: the engine proves the loss (score %d): resigning", gid, score)
            return True
        if low >= self.settings.resign_moves:
            log.info("game %d: score %d, below %d for %d move(s) in a row: resigning", gid,
                     score, self.settings.resign_score, low)
            return True
        return False

    # --- posting -------------------------------------------------------------------
    def _send(self, gid: int, played: records.Played, move: str) -> str:
        record, ply = played.record, played.ply
        sent = site_move(record.game, move)
        where = f"game {gid} ({record.game}, move {ply + 1})"
        if self.dry_run:
            self.print_move(gid, sent)
            log.info("%s: would post %s", where, sent)
            return WOULD_POST
        if self.stopping.is_set():
            log.info("%s: not posting %s: stopping", where, sent)
            return ABANDONED
        # without the mark a crash could lead to a second post: a StateError ends the pass
        self.state.mark(gid, ply, sent, "sending")
        try:
            words, refused = self.site.post_move(gid, sent)
        except PostRejected as e:
            self._refused(gid, where, ply, sent, str(e))
            return FAILED
        except PostUnknown as e:  # a site still at work on it is given http_timeout more
            wait = self.settings.http_timeout if e.timed_out else 0.0
            self._mark(gid, ply, sent, "sending", settle_after=time.time() + wait)
            log.error("%s: posted %s without a clear answer (%s); the record settles it at a "
                      "later pass", where, sent, e)
            return FAILED
        return self._confirm(gid, played, where, sent, words, refused)

    def _confirm(self, gid: int, played: records.Played, where: str, sent: str, words: str,
                 refused: bool) -> str:
        """A post the site answered with a page: taken once the record shows it, refused when
        the page says so and the record agrees (a page's words alone may mislead)."""
        record, ply = played.record, played.ply
        try:
            after = self.site.download(gid, record.game).record
            shown = None if after is None or after.game != record.game \
                else taken(after, ply, sent, played.side)
        except (SiteError, records.RecordError, ValueError) as e:
            after, shown = None, None
            log.debug("%s: the record after the post: %s", where, e)
        if refused and not shown:
            self._refused(gid, where, ply, sent, words or "a page saying so")
            return FAILED
        if shown is False:  # refused without saying so, or a record that lags: the next
            # pass reads it again, and counts a refusal if it still waits for the move
            self._mark(gid, ply, sent, "sending", answered=words[:100])
            log.error("%s: the site answered %r to %s but the record still waits for the move; "
                      "settled at the next pass", where, words[:100], sent)
            return FAILED
        if shown is None or after is None:
            self._mark(gid, ply, sent, "sending")
            log.warning("%s: posted %s; the record does not show it yet: settled at a later "
                        "pass", where, sent)
            return POSTED
        self._mark(gid, ply, sent, "posted", refusals=0)
        log.info("%s: posted %s (the record shows it)", where, sent)
        try:
            ended = records.played(after)  # the one replay of the download after the post
        except records.RecordError:
            return POSTED
        if ended.ended:
            self.game_ended(gid, ended)
        return POSTED

    def _refused(self, gid: int, where: str, ply: int, sent: str, words: str) -> bool:
        """Count a refusal; whether it was the last one allowed (no more posts to the game)."""
        refusals = (self.state.entry(gid) or {}).get("refusals", 0) + 1
        stop = refusals >= self.settings.max_refusals
        self._mark(gid, ply, sent, "stopped" if stop else "refused", refusals=refusals)
        log.error("%s: the site did not take %s (refusal %d of %d): %s", where, sent, refusals,
                  self.settings.max_refusals, words)
        if stop:
            log.error("game %d: not posting to this game again after %d refusals (remove it "
                      "from the state file to retry)", gid, refusals)
            self.owner.tell(f"Gipfbot stopped playing game {gid}",
                            f"The site refused {short(sent)} in game {gid} (move {ply + 1}) "
                            f"{refusals} times, the last time with: {short(words, 300)}. The "
                            "bot posts nothing more to this game.")
        return stop

    def _mark(self, gid: int, ply: int, sent: str, status: str, **extra) -> None:
        self.state.mark(gid, ply, sent, status, **extra)  # a StateError ends the pass

    # --- ends ----------------------------------------------------------------------
    def game_ended(self, gid: int, played: records.Played) -> None:
        """Tell the owner (once) that a game the bot played or saw in progress has ended."""
        if self.dry_run:
            return
        about = self.state.about(gid)
        if not about and self.state.entry(gid) is None:
            return  # never seen in progress: ended before the bot knew it
        record = played.record
        opponent = short(next((n for n in (record.white, record.black)
                               if n and not same_player(n, self.account)), "?"))
        self.state.ended(gid)
        result = played.result_text()
        log.info("game %d (%s against %s) has ended: %s", gid, record.game, opponent, result)
        self.owner.tell(f"Game {gid} ended: {result}",
                        f"Game {gid} ({record.game}) against {opponent} has ended: {result}.")
