"""A stand-in LittleGolem site: the site model (games, posts, invitations, faults) and the
pages it serves.  It plays the opponent with random legal moves and checks every post with
the rules, so the bot can be tried without an account (`python3 -m
engine.tools.littlegolem.standin`) and tested (tests/littlegolem_standin.py).

It serves the login form and its `login2` cookie, the game list (our turn, then the
opponent's), the record downloads (DVONN text at game.txt, TZAAR SGF at game<gid>.txt), the
move form (which applies posted moves with the rules, answers the opponent with a random
legal move unless `reply` is off, and refuses illegal or duplicate moves), the invitation
page and its answers, and the message form.  Faults are injected per request (server.py).
"""
from __future__ import annotations

import random
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Optional

from engine import records
from engine.games.tzaar import notation as tzaar_notation
from engine.games.tzaar.openings import random_opening
from engine.rules import IllegalMove

USER, PASSWORD = "gipfbot", "s3cret-Passw0rd"
LOGIN_PAGE = ('<html><body><form method="post" action="/jsp/login/">'
              '<input type="text" name="login"><input type="password" name="password">'
              '<input type="submit" value="Sign in"></form></body></html>')
REFUSAL_PAGE = "<html><body><p>Error: your move was rejected.</p></body></html>"
OTHER_PAGE = "<html><body><h1>LittleGolem</h1><p>Welcome back.</p></body></html>"
WORDY_PAGE = ("<html><body><p>Your move is sent.</p><p>Illegal moves are refused; report an "
              "error to the admins.</p></body></html>")


def dvonn_from_site(move: str) -> str:
    """The stand-in's own reading of the DVONN move form ('gd' -> 'G2', 'adbd' -> 'A2-B2'),
    written apart from the runner's mapping so that the two check each other."""
    if move == "pass":
        return "pass"
    if len(move) not in (2, 4) or not re.fullmatch(r"([a-k][a-e])+", move):
        raise IllegalMove(f"{move!r} is not in the DVONN move form")
    points = [f"{move[i].upper()}{5 - 'abcde'.index(move[i + 1])}" for i in range(0, len(move), 2)]
    return "-".join(points)


@dataclass
class SiteGame:
    gid: int
    kind: str                       # dvonn | tzaar | hex
    ours: int                       # the side we play: 0 White, 1 Black
    record: records.GameRecord
    game: Any = None                # the rules object at the record's position
    listed: bool = False            # shown among our games even when it is not our turn
    malformed: Optional[str] = None  # served instead of the record while set
    opponent: str = "opponent"

    def __post_init__(self):
        if self.kind != "hex":
            self.game = records.replay(self.record)

    @property
    def our_turn(self) -> bool:
        return not self.over and self.game.side == self.ours

    @property
    def over(self) -> bool:
        return self.kind == "hex" or records.ended(self.record, self.game)

    def text(self, behind: int = 0) -> str:
        if self.malformed is not None:
            return self.malformed
        if self.kind == "hex":
            return "(;FF[4]EV[hex.ch.1]PB[a]PW[b]SZ[13];W[a1];B[b2])"
        record = self.record
        if behind:
            cut = len(record.moves) - behind
            cut -= 1 if self.kind == "dvonn" and cut == 48 else 0  # the forced 49th goes too
            record = records.GameRecord(record.game, record.moves[:cut], white=record.white,
                                        black=record.black, opening=record.opening,
                                        event=record.event)
        return records.write_littlegolem(record)

    def play(self, text: str) -> None:
        if text == "resign":
            self.record.resigned_by = "wb"[self.game.side]
            return
        move = self.game.play_text(text)
        self.record.moves.append(self.game.move_text(move))
        if self.kind == "dvonn" and len(self.record.moves) == 48:  # the site's forced 49th
            last = self.game.legal_moves()[0]
            self.game.push(last)
            self.record.moves.append(self.game.move_text(last))


@dataclass
class Fault:
    method: str
    path: str                        # a regular expression matched against the path
    action: tuple
    after: int = 0                   # matching requests let through first
    times: int = 1
    seen: int = 0
    gid: Optional[int] = None        # only the requests about this game (a record, a post)


@dataclass
class Post:
    gid: int
    move: str
    status: int
    ply: int
    taken: bool = False


@dataclass
class Invite:
    invid: int
    opponent: str
    game: str
    answer: Optional[str] = None
    shown: list = field(default_factory=list)  # its ids as the page writes them (repeats)


@dataclass
class StandIn:
    games: dict = field(default_factory=dict)
    faults: list = field(default_factory=list)
    posts: list = field(default_factory=list)
    requests: list = field(default_factory=list)
    invites: list = field(default_factory=list)
    answers: list = field(default_factory=list)     # (invid, "accept" | "refuse")
    messages: list = field(default_factory=list)    # (to, title, text)
    tries: list = field(default_factory=list)       # the gid of every post, faulted or not
    token: Optional[str] = None
    logins: int = 0
    reply: bool = True               # the opponent answers a move at once
    apply_posts: bool = True         # False: answer 200 and change nothing (a stale site)
    login_redirect: bool = False     # the login answers 303 to the game list
    other_form_status: int = 404     # the answer for a record form that is not the game's
    logged_out_status: int = 200     # the status of the login page answering a lost session
    invitation_page: Optional[str] = None  # served instead of the invitation page while set
    lagging: set = field(default_factory=set)  # gids the list shows waiting after our move
    cookie_on_failure: bool = False  # a failed login still sets a (useless) login2 cookie
    start_moves: int = 0             # moves played at random in a game an accept starts
    max_games: int = 0               # an accept beyond this many games in progress is noted
    over_cap: list = field(default_factory=list)  # (invid, games in progress) of such accepts
    keep_answered: bool = False      # the invitation page goes on listing answered ones
    unlisted: set = field(default_factory=set)  # gids the game list leaves out (it lags)
    busy: int = 0                    # requests being answered
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    lock: threading.Lock = field(default_factory=threading.Lock)
    url: str = ""

    # games made by the tests
    def add(self, gid: int, kind: str, moves: int = 0, ours: int = 0, seed: int = 0,
            opponent: str = "opponent", **extra) -> SiteGame:
        rng = random.Random(seed)
        if kind not in ("dvonn", "tzaar"):
            record = records.GameRecord("dvonn")
            self.games[gid] = SiteGame(gid, "hex", ours, record, listed=True, opponent=opponent)
            return self.games[gid]
        opening = random_opening(seed) if kind == "tzaar" else None
        names = (USER, opponent) if ours == 0 else (opponent, USER)
        record = records.GameRecord(kind, [], white=names[0], black=names[1], opening=opening,
                                    event=f"{kind}.test")
        site_game = SiteGame(gid, kind, ours, record, opponent=opponent, **extra)
        game = site_game.game
        while len(record.moves) < moves and not game.over:
            site_game.play(game.move_text(rng.choice(game.legal_moves())))
        self.games[gid] = site_game
        self.opponent(site_game)
        return site_game

    def opponent(self, site_game: SiteGame) -> None:
        while not site_game.over and site_game.game.side != site_game.ours:
            move = self.rng.choice(site_game.game.legal_moves())
            site_game.play(site_game.game.move_text(move))

    def invite(self, invid: int, opponent: str, game: str, shown: Optional[list] = None) -> None:
        self.invites.append(Invite(invid, opponent, game, shown=shown or [str(invid)]))

    def in_progress(self) -> int:
        return sum(not g.over for g in self.games.values())

    def inject(self, method: str, path: str, *action, after: int = 0, times: int = 1,
               gid: Optional[int] = None) -> None:
        self.faults.append(Fault(method, path, tuple(action), after, times, gid=gid))

    def fault_for(self, method: str, path: str, gid: Optional[int] = None) -> Optional[tuple]:
        with self.lock:
            for fault in self.faults:
                if fault.method == method and re.fullmatch(fault.path, path) \
                        and fault.gid in (None, gid):
                    fault.seen += 1
                    if fault.after < fault.seen <= fault.after + fault.times:
                        return fault.action
        return None

    def idle(self, timeout: float = 30.0) -> None:
        """Wait until no request is being answered (a slow answer's work is done)."""
        end = time.monotonic() + timeout
        while self.busy and time.monotonic() < end:
            time.sleep(0.02)

    # pages
    def page(self, lag: bool = False) -> str:
        shown = [g for g in self.games.values() if g.gid not in self.unlisted]
        ours = [g for g in shown if g.our_turn or g.listed or (lag and g.gid in self.lagging)]
        theirs = [g for g in shown if g not in ours and not g.over]

        def table(games):
            rows = "".join(f'<tr><td><a href="/jsp/game/game.jsp?gid={g.gid}">#{g.gid}</a></td>'
                           f'<td><a href="/jsp/info/player.jsp?plid={abs(hash(g.opponent)) % 999}">'
                           f"{g.opponent}</a></td><td>{g.kind.capitalize()}</td></tr>"
                           for g in games)
            return f"<table>{rows}</table>"
        invitations = "<p><a href='/jsp/invitation/index.jsp'>New invitations</a></p>" \
            if any(i.answer is None for i in self.invites) else ""
        return (f"<html><body>{invitations}<h3>Games where it is your turn</h3>{table(ours)}"
                f"<h3>Games where it is your opponent&#39;s turn</h3>{table(theirs)}"
                "</body></html>")

    def invitations(self) -> str:
        if self.invitation_page is not None:
            return self.invitation_page
        rows = "".join(
            f"<tr><td><a href='/jsp/info/player.jsp?plid={i.invid}'>{i.opponent}</a></td>"
            f"<td>{i.game}</td><td>2 days</td><td><a href='/Invitation.action?accept=&amp;"
            f"invid={shown}'>accept</a> <a href='/Invitation.action?refuse=&amp;invid="
            f"{shown}'>refuse</a></td></tr>" for i in self.invites
            if i.answer is None or self.keep_answered for shown in i.shown)
        return ("<html><body><table><tr><td><h2>Invitations</h2>"
                "<p>Your invitations</p><table><tr><th>To</th><th>Game</th></tr></table>"
                "<p>Invitations from other players</p>"
                "<table><tr><th>Player</th><th>Game</th><th>Time</th><th>Your decision</th></tr>"
                f"{rows}</table></td></tr></table></body></html>")

    def answer_invitation(self, query: dict) -> tuple[int, str]:
        kinds = [k for k in ("accept", "refuse") if k in query]
        invid = (query.get("invid") or [""])[0]
        invite = next((i for i in self.invites if invid.isdigit() and i.invid == int(invid)), None)
        if len(kinds) != 1 or invite is None or invite.answer is not None:
            return 200, "<html><body><p>Error: no such invitation.</p></body></html>"
        invite.answer = kinds[0]
        self.answers.append((invite.invid, kinds[0]))
        if kinds[0] == "accept":
            if self.max_games and self.in_progress() >= self.max_games:
                self.over_cap.append((invite.invid, self.in_progress()))
            kind = invite.game.lower()
            self.add(max(self.games, default=9000) + 1, kind, moves=self.start_moves, ours=1,
                     seed=invite.invid, opponent=invite.opponent)
        return 200, OTHER_PAGE

    def move(self, form: dict, refuse: bool = False) -> tuple[int, str]:
        try:
            site_game = self.games[int(form.get("sendgame", [""])[0])]
            move = form["sendmove"][0]
        except (KeyError, ValueError):
            return 400, "<html>no such game</html>"
        with self.lock:
            ply = len(site_game.record.moves)
            if not site_game.our_turn:
                self.posts.append(Post(site_game.gid, move, 409, ply))
                return 409, "<html>it is not your turn in this game</html>"
            if refuse or not self.apply_posts:
                self.posts.append(Post(site_game.gid, move, 200, ply))
                return 200, REFUSAL_PAGE if refuse else "<html>move sent</html>"
            try:
                if site_game.kind == "dvonn" or move == "resign":
                    site_game.play(dvonn_from_site(move) if move != "resign" else move)
                else:
                    game = site_game.game
                    site_game.play(tzaar_notation.tzaar_from_littlegolem(move, game.cells, game.side))
            except (IllegalMove, records.RecordError) as e:
                self.posts.append(Post(site_game.gid, move, 400, ply))
                return 400, f"<html>illegal move: {e}</html>"
            self.posts.append(Post(site_game.gid, move, 200, ply, taken=True))
            self.lagging.add(site_game.gid)
            if self.reply:
                self.opponent(site_game)
        return 200, "<html><body>move sent</body></html>"

    def accepted(self) -> list:
        return [p for p in self.posts if p.taken]
